//! The demo's lines for admission in the admission scenario (or wherever `webhook add`
//! made a webhook): each webhook with its failurePolicy and whether its server would
//! answer now, each ValidatingAdmissionPolicy binding with its actions, and the last
//! request admission saw. `demo_view.rs` puts them under
//! the Deployment's conditions.

use ratatui::text::{Line, Span};

use crate::sim::kind::Kind;
use crate::sim::webhooks::Mode;
use crate::tui::theme::Theme;

use super::demo::Demo;

pub fn admission_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let api = &d.session.cluster.api;
    let mut lines = Vec::new();
    for kind in [
        Kind::MutatingWebhookConfiguration,
        Kind::ValidatingWebhookConfiguration,
    ] {
        for c in d.session.objects(kind) {
            for h in c["webhooks"].as_array().into_iter().flatten() {
                let svc = h["clientConfig"]["service"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                let policy = h["failurePolicy"].as_str().unwrap_or("").to_string();
                let (word, style) = match api.webhooks.get(&svc) {
                    _ if !api.has_ready_endpoint(&svc) => {
                        ("no ready server".to_string(), theme.alert)
                    }
                    None | Some(Mode::Down) => ("refuses calls".into(), theme.alert),
                    Some(m @ (Mode::Slow(_) | Mode::Deny(_))) => (m.describe(), theme.accent),
                    Some(m) => (m.describe(), theme.good),
                };
                // The configuration's name: the webhook's own (a domain) is too wide.
                lines.push(Line::from(vec![
                    Span::styled(
                        if kind == Kind::MutatingWebhookConfiguration {
                            "mutating "
                        } else {
                            "webhook "
                        },
                        theme.header,
                    ),
                    Span::raw(format!("{} ", crate::sim::obj::name(c))),
                    Span::styled(format!("{policy} · "), theme.dim),
                    Span::styled(word, style),
                ]));
            }
        }
    }
    // Each ValidatingAdmissionPolicy binding: its policy and what a failure does.
    for b in d.session.objects(Kind::ValidatingAdmissionPolicyBinding) {
        let actions: Vec<&str> = b["spec"]["validationActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str())
            .collect();
        lines.push(Line::from(vec![
            Span::styled("policy ", theme.header),
            Span::raw(format!(
                "{} ",
                b["spec"]["policyName"].as_str().unwrap_or("")
            )),
            Span::styled(actions.join(","), theme.dim),
        ]));
    }
    if let Some(t) = api.admission.log.back().filter(|_| !lines.is_empty()) {
        let refused = t.outcome.starts_with("refused");
        lines.push(Line::from(vec![
            Span::styled("last ", theme.header),
            Span::raw(format!("{}: ", t.request)),
            Span::styled(
                t.outcome.clone(),
                if refused { theme.alert } else { theme.good },
            ),
        ]));
    }
    lines
}
