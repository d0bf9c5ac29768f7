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

/// Two lines per HPA whose target is the Deployment `web`: what it measures and what it
/// wants, then its bounds and the one condition that says most (ScalingActive when it
/// cannot compute, ScalingLimited when a bound or rate set the count, else AbleToScale).
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
                "{} · {} → {}",
                row[2],
                int("currentReplicas"),
                int("desiredReplicas")
            )),
        ]));
        let conditions = hpa["status"]["conditions"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let find = |t: &str| conditions.iter().find(|c: &&Value| c["type"] == t);
        let is = |c: &Value, s: &str| c["status"] == s;
        let telling = find("ScalingActive")
            .filter(|c| is(c, "False"))
            .or_else(|| find("ScalingLimited").filter(|c| is(c, "True")))
            .map(|c| (c, theme.accent))
            .or_else(|| find("AbleToScale").map(|c| (c, theme.good)));
        let mut second = vec![Span::raw(format!("min {} · max {}", row[3], row[4]))];
        if let Some((c, style)) = telling {
            second.push(Span::styled(
                format!(" · {}", c["reason"].as_str().unwrap_or("")),
                style,
            ));
        }
        out.push(Line::from(second));
    }
    out
}
