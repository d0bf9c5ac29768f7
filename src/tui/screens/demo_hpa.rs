//! The demo's lines for the HorizontalPodAutoscalers that scale the Deployment `web`:
//! what each measures against its target, the replicas it last saw and wants, its bounds,
//! and the reasons of its conditions. `demo_view.rs` puts them under the Deployment's
//! conditions.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sim::kind::Kind;
use crate::sim::table::rows;
use crate::tui::theme::Theme;

use super::demo::Demo;

/// Two lines per HPA whose target is the Deployment `web`.
pub fn hpa_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let now = d.session.now();
    let mut out = Vec::new();
    for hpa in d.session.objects(Kind::HorizontalPodAutoscaler) {
        let target = &hpa["spec"]["scaleTargetRef"];
        if target["kind"] != "Deployment" || target["name"] != "web" {
            continue;
        }
        // printHorizontalPodAutoscaler's cells: the same TARGETS `kubectl get hpa` shows.
        let row = rows::hpa(hpa, now);
        let int = |p: &str| hpa["status"][p].as_i64().unwrap_or(0);
        out.push(Line::from(vec![
            Span::styled(format!("HPA {} ", row[0]), theme.header),
            Span::raw(format!(
                "{} · {} → {} (min {}, max {})",
                row[2],
                int("currentReplicas"),
                int("desiredReplicas"),
                row[3],
                row[4]
            )),
        ]));
        let conditions: Vec<Span<'static>> = hpa["status"]["conditions"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(|c: &Value| {
                let ok = c["status"] == "True";
                // ScalingLimited True is the one condition that is bad news when true.
                let good = ok != (c["type"] == "ScalingLimited");
                Span::styled(
                    format!("  {}", c["reason"].as_str().unwrap_or("")),
                    if good { theme.good } else { theme.accent },
                )
            })
            .collect();
        if !conditions.is_empty() {
            out.push(Line::from(conditions));
        }
    }
    out
}
