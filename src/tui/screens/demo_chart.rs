//! The demo's chart: spec.replicas and ready pods a second at a time over the last two
//! minutes and, while `traffic` runs, the requests that failed each second.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Widget};

use super::demo::Demo;
use super::demo_view::panel;
use crate::tui::theme::Theme;

/// Seconds of history the chart shows.
const CHART_SECONDS: u64 = 120;

pub(super) fn chart(d: &Demo, theme: &Theme, area: Rect, buf: &mut Buffer) {
    let hist = &d.session.replicas_history;
    // Told apart by their marks as well as their colours, so the monochrome theme reads.
    let ready_marker = if theme.mono {
        Marker::Dot
    } else {
        Marker::Braille
    };
    let traffic = d.session.traffic.as_ref();
    // With traffic the title is shorter, so the failure count fits a half-width panel.
    let lead = if traffic.is_some() {
        " Replicas: "
    } else {
        " Replicas over time: "
    };
    let mut spans = vec![
        Span::styled(lead, theme.header),
        Span::styled(if theme.mono { "spec ⣿" } else { "spec" }, theme.accent),
        Span::styled(" vs ", theme.header),
        Span::styled(if theme.mono { "ready • " } else { "ready " }, theme.good),
    ];
    if let Some(t) = traffic {
        spans.push(Span::styled(
            if theme.mono {
                "· failed/s × "
            } else {
                "· failed/s "
            },
            theme.alert,
        ));
        spans.push(Span::styled(
            format!(
                "({} of {} requests) ",
                t.total_errors,
                t.total_errors + t.total_ok
            ),
            theme.dim,
        ));
    }
    let inner_title = Line::from(spans);
    if hist.is_empty() || area.height < 3 {
        let inner = panel(inner_title, theme, area, buf);
        Paragraph::new(Span::styled(
            "starts when time runs (Space plays, . steps)",
            theme.dim,
        ))
        .render(inner, buf);
        return;
    }
    let end = hist.last().map_or(0, |h| h.0);
    let start = end.saturating_sub(CHART_SECONDS);
    let recent: Vec<&(u64, i64, i64)> = hist.iter().filter(|h| h.0 >= start).collect();
    let spec: Vec<(f64, f64)> = recent.iter().map(|h| (h.0 as f64, h.1 as f64)).collect();
    let ready: Vec<(f64, f64)> = recent.iter().map(|h| (h.0 as f64, h.2 as f64)).collect();
    // Each second's failed requests, while traffic runs.
    let failed: Vec<(f64, f64)> = traffic
        .map(|t| {
            t.history
                .iter()
                .filter(|s| s.at >= start)
                .map(|s| (s.at as f64, f64::from(s.errors)))
                .collect()
        })
        .unwrap_or_default();
    let top = recent
        .iter()
        .map(|h| h.1.max(h.2))
        .chain(failed.iter().map(|f| f.1 as i64))
        .max()
        .unwrap_or(1)
        .max(1)
        + 1;
    let x_lo = start.max(recent.first().map_or(0, |h| h.0)) as f64;
    let x_hi = (end as f64).max(x_lo + 1.0);
    let chart = Chart::new(vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.accent)
            .data(&spec),
        Dataset::default()
            .marker(ready_marker)
            .graph_type(if theme.mono {
                GraphType::Scatter
            } else {
                GraphType::Line
            })
            .style(theme.good)
            .data(&ready),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(if theme.mono {
                GraphType::Scatter
            } else {
                GraphType::Line
            })
            .style(theme.alert)
            .data(&failed),
    ])
    .block(
        Block::new()
            .borders(Borders::TOP)
            .border_style(theme.border)
            .title(inner_title),
    )
    .x_axis(Axis::default().style(theme.dim).bounds([x_lo, x_hi]))
    .y_axis(
        Axis::default()
            .style(theme.dim)
            .bounds([0.0, top as f64])
            .labels(vec![Span::raw("0"), Span::raw(top.to_string())]),
    );
    chart.render(area, buf);
}
