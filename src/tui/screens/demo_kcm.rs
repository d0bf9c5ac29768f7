//! The demo's line for kube-controller-manager's replicas in the leader-election scenario:
//! who leads, who waits, who is down, and the Lease's transitions. `demo_view.rs` puts it
//! under the Deployment's conditions.

use ratatui::text::{Line, Span};

use crate::sim::kcm::{LEASE, State};
use crate::sim::kind::Kind;
use crate::tui::theme::Theme;

use super::demo::Demo;

pub fn kcm_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let Some(k) = d.session.cluster.kcm.as_ref() else {
        return Vec::new();
    };
    let mut spans = vec![Span::styled("kcm ", theme.header)];
    for r in &k.replicas {
        let (word, style) = match r.state {
            State::Leader => ("leads", theme.good),
            State::Candidate => ("waits", theme.dim),
            State::Down(_) => ("down", theme.alert),
        };
        spans.push(Span::raw(format!("{} ", r.host)));
        spans.push(Span::styled(format!("{word} · "), style));
    }
    let transitions = d
        .session
        .object(Kind::Lease, LEASE)
        .and_then(|l| l["spec"]["leaseTransitions"].as_i64())
        .unwrap_or(0);
    spans.push(Span::raw(format!("transitions {transitions}")));
    if k.acting().is_none() {
        spans.push(Span::styled(" · none leads", theme.alert));
    }
    vec![Line::from(spans)]
}
