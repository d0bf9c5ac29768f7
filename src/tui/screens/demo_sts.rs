//! The demo screen's panels for a StatefulSet `web` (the `statefulset` scenario): its spec
//! beside its status, with its revisions, and its pods by ordinal with their revision and
//! claim. `demo_view.rs` draws them where a Deployment's would go.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sim::controllers::statefulset::identity::{self, REVISION_LABEL};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::tui::theme::Theme;

use super::demo::Demo;
use super::demo_view::{DeploymentLines, pod_line};

/// The revision name without the set's name: `web-784c854f75` is `784c854f75`.
fn short(rev: &str) -> &str {
    rev.rsplit_once('-').map_or(rev, |(_, h)| h)
}

/// Title, body height, spec column, status column, and the revisions line.
pub fn stateful_set_lines(set: &Value, theme: &Theme) -> DeploymentLines {
    let int = |p: &[&str]| obj::int(set, p);
    let show = |v: Option<i64>| v.map_or("-".to_string(), |n| n.to_string());
    let generation = int(&["metadata", "generation"]);
    let observed = int(&["status", "observedGeneration"]);
    let lag = generation != observed;
    let gen_style = if lag { theme.alert } else { Style::new() };
    let image = obj::path(set, &["spec", "template", "spec", "containers"])
        .and_then(|c| c.get(0))
        .and_then(|c| c["image"].as_str())
        .unwrap_or("-")
        .to_string();
    let strategy = match set
        .pointer("/spec/updateStrategy/rollingUpdate/partition")
        .and_then(Value::as_i64)
    {
        Some(p) if p > 0 => format!(" · partition {p}"),
        _ if set["spec"]["updateStrategy"]["type"] == "OnDelete" => " · OnDelete".to_string(),
        _ => String::new(),
    };
    let spec = vec![
        Line::from(format!(
            "replicas {} · {}",
            show(int(&["spec", "replicas"])),
            set["spec"]["podManagementPolicy"].as_str().unwrap_or("-")
        )),
        Line::from(Span::styled(
            format!("generation {}", show(generation)),
            gen_style,
        )),
        Line::from(format!("image {image}{strategy}")),
    ];
    let status = vec![
        Line::from(format!(
            "replicas {} · ready {}",
            show(int(&["status", "replicas"])),
            show(int(&["status", "readyReplicas"]))
        )),
        Line::from(Span::styled(
            format!("observedGeneration {}", show(observed)),
            gen_style,
        )),
        Line::from(format!(
            "updated {} · current {}",
            show(int(&["status", "updatedReplicas"])),
            show(int(&["status", "currentReplicas"]))
        )),
    ];
    let current = obj::str(set, &["status", "currentRevision"]).unwrap_or("-");
    let update = obj::str(set, &["status", "updateRevision"]).unwrap_or("-");
    let revisions = if current == update {
        vec![Line::from(Span::styled(
            format!("revision {}", short(current)),
            theme.good,
        ))]
    } else {
        vec![Line::from(Span::styled(
            format!("rolling {} → {}", short(current), short(update)),
            theme.accent,
        ))]
    };
    let title = Line::from(vec![
        Span::styled(" StatefulSet web: spec │ status ", theme.header),
        Span::styled(
            if lag { " observedGeneration lags " } else { "" },
            theme.alert,
        ),
    ]);
    (title, 4, spec, status, revisions)
}

/// The set's pods in ordinal order, each with its revision, then the claims no pod uses.
pub fn stateful_pod_lines(d: &Demo, set: &Value, theme: &Theme) -> Vec<Line<'static>> {
    let now = d.session.now();
    let mut pods: Vec<&Value> = d.session.objects(Kind::Pod).collect();
    pods.sort_by_key(|p| identity::ordinal(obj::name(p)).unwrap_or(i64::MAX));
    let update = obj::str(set, &["status", "updateRevision"]).unwrap_or("");
    let mut out = vec![Line::from(vec![
        Span::styled(format!("StatefulSet {}", obj::name(set)), theme.key),
        Span::styled("  pods by ordinal, revision", theme.dim),
    ])];
    for p in &pods {
        let mut line = pod_line(p, now, theme);
        let rev = p["metadata"]["labels"][REVISION_LABEL]
            .as_str()
            .unwrap_or("");
        let style = if rev == update {
            theme.dim
        } else {
            theme.accent
        };
        line.spans
            .push(Span::styled(format!(" {}", short(rev)), style));
        out.push(line);
    }
    let used = |c: &str| {
        pods.iter().any(|p| {
            p["spec"]["volumes"].as_array().is_some_and(|vs| {
                vs.iter()
                    .any(|v| v["persistentVolumeClaim"]["claimName"] == c)
            })
        })
    };
    let idle: Vec<String> = d
        .session
        .objects(Kind::PersistentVolumeClaim)
        .map(|c| obj::name(c).to_string())
        .filter(|c| !used(c))
        .collect();
    if !idle.is_empty() {
        out.push(Line::from(Span::styled(
            format!("claims kept without a pod: {}", idle.join(", ")),
            theme.dim,
        )));
    }
    out
}
