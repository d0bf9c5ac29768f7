//! Progress at a glance: reviews per day as a calendar heatmap (a column per week, a row
//! per weekday), true retention against the target, the 30-day due forecast as bars,
//! mastery by level and topic as gauges, and the streak.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Paragraph, Widget};

use crate::study::Stats;
use crate::study::stats::Mastery;

use super::Ctx;

#[derive(Debug, Clone, PartialEq)]
pub struct StatsState {
    pub stats: Stats,
}

// Stats holds ratios as f64; a computed snapshot is never NaN-compared for ordering.
impl Eq for StatsState {}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a StatsState,
}

/// Shade for a day's review count, relative to the busiest day shown.
fn shade(count: usize, max: usize) -> &'static str {
    if count == 0 {
        return "·";
    }
    let f = count as f64 / max.max(1) as f64;
    if f <= 0.25 {
        "░"
    } else if f <= 0.5 {
        "▒"
    } else if f <= 0.75 {
        "▓"
    } else {
        "█"
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn pct(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{:.0}%", v * 100.0))
}

fn gauge_rows(rows: &[Mastery], width: usize, ctx: &Ctx<'_>) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    // Name, a space, the bar, then " 100% 99/99 seen" (16 columns).
    let longest = rows.iter().map(|m| m.name.len()).max().unwrap_or(0);
    let name_w = longest.min(width.saturating_sub(21)).max(4);
    let bar_w = width.saturating_sub(name_w + 17).clamp(4, 30);
    rows.iter()
        .map(|m| {
            let seen = m.total - m.new;
            let filled = (m.mastery * bar_w as f64).round() as usize;
            let started = ((seen as f64 / m.total.max(1) as f64) * bar_w as f64).round() as usize;
            let started = started.max(filled).min(bar_w);
            Line::from(vec![
                Span::raw(format!(
                    "{:<name_w$} ",
                    crate::tui::text::truncate(&m.name, name_w)
                )),
                Span::styled("█".repeat(filled), theme.key),
                Span::styled("▒".repeat(started - filled), theme.accent),
                Span::styled("·".repeat(bar_w - started), theme.dim),
                Span::raw(format!(
                    " {:>3.0}% {}/{} seen",
                    m.mastery * 100.0,
                    seen,
                    m.total
                )),
            ])
        })
        .collect()
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let s = &self.state.stats;

        let retention = format!(
            "true retention {} (30 days), {} all time, target {:.0}%",
            pct(s.retention.last_30_days),
            pct(s.retention.all_time),
            s.retention.desired * 100.0
        );
        let mut lines = vec![
            Line::from(vec![
                Span::styled(format!(" {} ", s.date), theme.accent),
                Span::raw(format!(
                    "reviews: {} today · {} in 30 days · {} in all",
                    s.reviews.today, s.reviews.last_30_days, s.reviews.total
                )),
            ]),
            Line::raw(format!(
                " due today {} (+{} new) · streak {} day(s), longest {}",
                s.due_today, s.new_available_today, s.streak.current, s.streak.longest
            )),
            Line::raw(format!(" {retention}")),
        ];
        if !s.saving {
            lines.push(Line::styled(
                " not saving: this session's grades are kept in memory only",
                theme.warning,
            ));
        }
        // Mastery keeps its rows on short terminals; the charts give way.
        let [summary, charts, mastery] = Layout::vertical([
            Constraint::Length(lines.len() as u16),
            Constraint::Max(10),
            Constraint::Min(6),
        ])
        .areas(area);
        Paragraph::new(lines).render(summary, buf);

        let [heat, forecast] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(charts);
        let block = Block::bordered()
            .border_style(theme.border)
            .title(" reviews per day ")
            .title_bottom(Line::from(vec![
                Span::raw(" less "),
                Span::styled("·", theme.dim),
                Span::styled("░▒▓█", theme.key),
                Span::raw(" more "),
            ]));
        let inner = block.inner(heat);
        block.render(heat, buf);
        // Weeks that fit after the weekday labels, newest on the right; rows Mon..Sun.
        let weeks = (inner.width.saturating_sub(3) as usize).min(s.per_day.len() / 7);
        let days = &s.per_day[s.per_day.len().saturating_sub(weeks * 7 + 6)..];
        let max = days.iter().map(|d| d.count).max().unwrap_or(0);
        let len = s.per_day.len() as i64;
        let today_wd = i64::from(crate::study::time::weekday(s.day));
        // Month names over the week where a month starts, when there is room.
        let mut months = String::from("   ");
        for w in 0..weeks {
            let monday = s.day - today_wd - ((weeks - 1 - w) * 7) as i64;
            let (_, m, d) = crate::study::time::civil(monday);
            if months.chars().count() > 3 + w {
                continue;
            }
            if d <= 7 {
                let name = MONTHS[(m as usize).saturating_sub(1) % 12];
                if w + name.len() < weeks {
                    months.push_str(name);
                    continue;
                }
            }
            months.push(' ');
        }
        let mut rows: Vec<Line> = vec![Line::styled(months, theme.dim)];
        for (wd, label) in ["M", "T", "W", "T", "F", "S", "S"].iter().enumerate() {
            let mut spans = vec![Span::styled(format!("{label}  "), theme.dim)];
            for w in 0..weeks {
                // The last column is this week; cells after today stay blank.
                let day = s.day - today_wd + wd as i64 - ((weeks - 1 - w) * 7) as i64;
                let idx = len - 1 - (s.day - day);
                if day > s.day || idx < 0 {
                    spans.push(Span::raw(" "));
                    continue;
                }
                let c = s.per_day[idx as usize].count;
                let style = if c == 0 { theme.dim } else { theme.key };
                spans.push(Span::styled(shade(c, max), style));
            }
            rows.push(Line::from(spans));
        }
        Paragraph::new(rows).render(inner, buf);

        let peak = s.forecast.iter().map(|d| d.count).max().unwrap_or(0);
        let block = Block::bordered()
            .border_style(theme.border)
            .title(format!(" due, next 30 days (most {peak}/day) "))
            .title_bottom(Line::from(" today → +29 days "));
        let inner = block.inner(forecast);
        block.render(forecast, buf);
        let bars: Vec<Bar> = s
            .forecast
            .iter()
            .map(|d| {
                Bar::default()
                    .value(d.count as u64)
                    .text_value(String::new())
            })
            .collect();
        BarChart::default()
            .data(BarGroup::default().bars(&bars))
            .bar_width(1)
            .bar_gap(0)
            .bar_style(theme.accent)
            .render(inner, buf);

        let [lv, tp] = Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
            .areas(mastery);
        for (rect, title, rows) in [
            (lv, " mastery by level ", &s.by_level),
            (tp, " mastery by topic ", &s.by_topic),
        ] {
            let block = Block::bordered().border_style(theme.border).title(title);
            let inner = block.inner(rect);
            block.render(rect, buf);
            Paragraph::new(gauge_rows(rows, inner.width as usize, &self.ctx)).render(inner, buf);
        }
    }
}
