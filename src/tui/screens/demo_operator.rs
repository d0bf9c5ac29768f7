//! The demo's lines for custom resources and the WebApp operator (the operator
//! scenario, or wherever a CRD was applied): each CRD with its served and stored
//! versions, each WebApp with its generation against the observedGeneration its status
//! reports, the operator's state, bugs and request rate, and any DNS record it leaked.
//! `demo_view.rs` puts them under the Deployment's conditions.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::operator::{self, Operator};
use crate::tui::theme::Theme;

use super::demo::Demo;

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

pub fn operator_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let api = &d.session.cluster.api;
    let mut lines = Vec::new();
    for crd in d.session.objects(Kind::CustomResourceDefinition) {
        let served: Vec<String> = crd["spec"]["versions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|v| v["served"] == true)
            .map(|v| {
                let name = v["name"].as_str().unwrap_or("").to_string();
                if v["storage"] == true {
                    format!("{name}*")
                } else {
                    name
                }
            })
            .collect();
        let stored = strings(crd.pointer("/status/storedVersions"));
        let established = crate::sim::apiextensions::crd::condition_true(crd, "Established");
        lines.push(Line::from(vec![
            Span::styled("crd ", theme.header),
            Span::raw(format!("{} ", obj::name(crd))),
            Span::styled(
                format!("served {} · stored {}", served.join(","), stored.join(",")),
                theme.dim,
            ),
            Span::styled(
                if established {
                    ""
                } else {
                    " · not established"
                },
                theme.alert,
            ),
        ]));
    }
    if let Some(kind) = api.custom_kind_named(operator::GROUP, operator::KIND) {
        for app in api.list(Kind::Custom(kind)) {
            let generation = obj::int(app, &["metadata", "generation"]).unwrap_or(0);
            let observed = obj::int(app, &["status", "observedGeneration"]);
            let lag = observed != Some(generation);
            let available = app
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .and_then(|cs| cs.iter().find(|c| c["type"] == "Available"))
                .and_then(|c| c["status"].as_str())
                .unwrap_or("?")
                .to_string();
            let deleting = if obj::is_deleting(app) {
                " · deleting"
            } else {
                ""
            };
            lines.push(Line::from(vec![
                Span::styled("webapp ", theme.header),
                Span::raw(format!("{} ", obj::name(app))),
                Span::styled(
                    format!(
                        "gen {generation} · observed {}",
                        observed.map_or("-".to_string(), |o| o.to_string())
                    ),
                    if lag { theme.alert } else { theme.dim },
                ),
                Span::styled(
                    format!(" · Available={available}"),
                    if available == "True" {
                        theme.good
                    } else {
                        theme.accent
                    },
                ),
                Span::styled(deleting.to_string(), theme.alert),
            ]));
        }
    }
    if let Some(op) = d.session.cluster.operator.as_ref() {
        let running = Operator::running(api) && op.kind(api).is_some();
        let bugs: Vec<&str> = op.bugs.iter().map(|b| b.name()).collect();
        let mut spans = vec![
            Span::styled("operator ", theme.header),
            Span::styled(
                if running { "running" } else { "not running" },
                if running { theme.good } else { theme.alert },
            ),
            Span::styled(
                format!(" · {:.1} req/s", op.requests.rate()),
                if op.requests.rate() >= f64::from(operator::QPS) {
                    theme.alert
                } else {
                    theme.dim
                },
            ),
        ];
        if !bugs.is_empty() {
            spans.push(Span::styled(
                format!(" · bug {}", bugs.join(",")),
                theme.accent,
            ));
        }
        lines.push(Line::from(spans));
        for host in op.leaked(api) {
            lines.push(Line::from(vec![
                Span::styled("dns ", theme.header),
                Span::raw(format!("{host} ")),
                Span::styled("leaked", theme.alert),
            ]));
        }
    }
    lines
}
