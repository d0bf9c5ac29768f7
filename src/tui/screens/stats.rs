//! Progress at a glance: reviews per day as a calendar heatmap (a column per week, a row
//! per weekday), true retention against the target, the 30-day due forecast as bars,
//! mastery by level and topic as gauges, and the streak. A second page (the `StatsView`
//! key) has the history of mock interviews and quizzes: their scores over time as bar
//! charts, the recent sessions, and the weakest questions when there is room.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Paragraph, Widget};

use super::Ctx;
use crate::study::Stats;
use crate::study::stats::Mastery;
use crate::study::stats::history::{History, TREND_WINDOW, WORST_LIMIT, round_label, signed};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatsPage {
    /// Reviews, retention, forecast and mastery.
    #[default]
    Progress,
    /// Mock interviews and quizzes.
    History,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StatsState {
    pub stats: Stats,
    pub page: StatsPage,
}

impl StatsState {
    pub fn new(stats: Stats) -> Self {
        StatsState {
            stats,
            page: StatsPage::default(),
        }
    }

    /// The `StatsView` key: progress to history and back.
    pub fn switch_page(&mut self) {
        self.page = match self.page {
            StatsPage::Progress => StatsPage::History,
            StatsPage::History => StatsPage::Progress,
        };
    }
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
    // Topics by their titles, as everywhere else in the app (the store keys them by id).
    let name = |m: &Mastery| -> String {
        ctx.deck
            .topic(&m.name)
            .map_or_else(|| m.name.clone(), |t| t.title.to_string())
    };
    // Name, a space, the bar, then " 100% 99/99 seen" (16 columns).
    let longest = rows
        .iter()
        .map(|m| crate::tui::text::width_of(&name(m)))
        .max()
        .unwrap_or(0);
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
                    crate::tui::text::truncate(&name(m), name_w)
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
        match self.state.page {
            StatsPage::Progress => self.progress(area, buf),
            StatsPage::History => history(&self.state.stats, &self.ctx, area, buf),
        }
    }
}

impl View<'_> {
    fn progress(&self, area: Rect, buf: &mut Buffer) {
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

/// Bars of 3 columns with a gap: room for a score of 100 inside each bar.
const BAR_W: u16 = 3;

/// One bar per session with its score (0 to 100) inside, oldest on the left; only the
/// newest that fit are drawn, and the scale is fixed at 100 so heights compare across
/// screens.
fn score_chart(
    title: &str,
    scores: &[u32],
    pass: Option<u32>,
    empty: &str,
    ctx: &Ctx<'_>,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = ctx.theme;
    let block = Block::bordered()
        .border_style(theme.border)
        .title(format!(" {title} "))
        .title_bottom(Line::from(" oldest → newest "));
    let inner = block.inner(area);
    block.render(area, buf);
    if scores.is_empty() {
        Paragraph::new(Line::styled(empty.to_string(), theme.dim)).render(inner, buf);
        return;
    }
    let fit = usize::from((inner.width + 1) / (BAR_W + 1)).max(1);
    let shown = &scores[scores.len().saturating_sub(fit)..];
    let bars: Vec<Bar> = shown
        .iter()
        .map(|&v| {
            // Below the pass mark in the warning colour: a failing session stands out.
            let style = match pass {
                Some(p) if v < p => theme.warning,
                _ => theme.accent,
            };
            // The score goes under the bar: inside it, a 3-wide bar shows "23█".
            Bar::default()
                .value(u64::from(v))
                .text_value(String::new())
                .label(Line::from(v.to_string()))
                .style(style)
        })
        .collect();
    BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(BAR_W)
        .bar_gap(1)
        .max(100)
        .render(inner, buf);
}

fn boxed(title: &str, lines: Vec<Line<'static>>, ctx: &Ctx<'_>, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered()
        .border_style(ctx.theme.border)
        .title(format!(" {title} "));
    let inner = block.inner(area);
    block.render(area, buf);
    Paragraph::new(lines).render(inner, buf);
}

/// The standard strictness's pass mark: the line a mock's overall is measured against.
const MOCK_PASS: u32 = 60;

fn mock_rows(h: &History, rows: usize, width: usize, ctx: &Ctx<'_>) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    if h.mocks.is_empty() {
        return vec![Line::styled("none yet", theme.dim)];
    }
    // The level gives way first on a narrow terminal: the score matters more.
    let level_w = if width >= 38 { 9 } else { 0 };
    let level = |l: &str| {
        if level_w == 0 {
            String::new()
        } else {
            format!("{l:<level_w$} ")
        }
    };
    // "done": questions scored of those drawn.
    let mut out = vec![Line::styled(
        format!(
            "{:<10} {}{:>5} {:>5}",
            "date",
            level("level"),
            "done",
            "score"
        ),
        theme.header,
    )];
    for m in h.mocks.iter().rev().take(rows.saturating_sub(1)) {
        let done = match m.planned {
            Some(p) => format!("{}/{p}", m.scored),
            None => m.scored.to_string(),
        };
        let score = m.overall.map_or("-".into(), |v| v.to_string());
        let mut spans = vec![Span::raw(format!(
            "{:<10} {}{:>5} {:>5}",
            m.date,
            level(m.level.as_deref().unwrap_or("-")),
            done,
            score
        ))];
        if m.ended_early == Some(true) {
            spans.push(Span::styled(" early", theme.dim));
        }
        out.push(Line::from(spans));
    }
    out
}

fn quiz_rows(h: &History, rows: usize, ctx: &Ctx<'_>) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    if h.quizzes.is_empty() {
        return vec![Line::styled("none yet", theme.dim)];
    }
    let mut out = vec![Line::styled(
        format!("{:<10} {:>5} {:>4}  by round", "date", "right", "%"),
        theme.header,
    )];
    for q in h.quizzes.iter().rev().take(rows.saturating_sub(1)) {
        // P50 W100 F50: the round's initial and its percent.
        let rounds: Vec<String> = q
            .rounds
            .iter()
            .filter(|r| r.answered > 0)
            .map(|r| {
                let initial = round_label(&r.kind)
                    .chars()
                    .next()
                    .map_or(String::new(), |c| c.to_uppercase().collect());
                format!("{initial}{}", r.percent.unwrap_or(0))
            })
            .collect();
        out.push(Line::raw(format!(
            "{:<10} {:>5} {:>4}  {}",
            q.date,
            format!("{}/{}", q.correct, q.answered),
            q.percent.map_or("-".into(), |p| format!("{p}%")),
            rounds.join(" ")
        )));
    }
    out
}

fn summary_lines(s: &Stats, ctx: &Ctx<'_>) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    let h = &s.history;
    let trend = |label: &str, n: usize, t: Option<&crate::study::stats::Trend>, unit: &str| {
        let mut spans = vec![Span::styled(format!(" {label} {n}"), theme.accent)];
        if let Some(t) = t {
            let recent = t.sessions.min(TREND_WINDOW);
            spans.push(Span::raw(format!(
                " · last {}{unit} · best {}{unit} · last {recent} avg {:.0}{unit}",
                t.last, t.best, t.recent_mean
            )));
            if let Some(c) = t.change {
                let before = (t.sessions - recent).min(TREND_WINDOW);
                let style = if c < 0.0 { theme.warning } else { theme.good };
                spans.push(Span::styled(
                    format!(" ({} vs the {before} before)", signed(c)),
                    style,
                ));
            }
        }
        Line::from(spans)
    };
    vec![
        trend("mocks", h.mocks.len(), h.mock_trend.as_ref(), ""),
        trend("quizzes", h.quizzes.len(), h.quiz_trend.as_ref(), "%"),
    ]
}

fn worst_lines(
    h: &History,
    ctx: &Ctx<'_>,
    width: usize,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let theme = ctx.theme;
    let name_w = width.saturating_sub(12).max(8);
    let weak = if h.weakest_in_mocks.is_empty() {
        vec![Line::styled("no mock questions scored yet", theme.dim)]
    } else {
        h.weakest_in_mocks
            .iter()
            .map(|w| {
                Line::from(vec![
                    Span::raw(format!(
                        "{:<name_w$} ",
                        crate::tui::text::truncate(&w.question_id, name_w)
                    )),
                    Span::styled(format!("{:>3.0}", w.mean_score), theme.key),
                    Span::styled(format!(" ×{}", w.asked), theme.dim),
                    Span::styled(if w.pitfalls > 0 { " !" } else { "" }, theme.warning),
                ])
            })
            .collect()
    };
    let missed = if h.most_missed_in_quizzes.is_empty() {
        vec![Line::styled("no quiz mistakes yet", theme.dim)]
    } else {
        h.most_missed_in_quizzes
            .iter()
            .map(|m| {
                Line::from(vec![
                    Span::raw(format!(
                        "{:<name_w$} ",
                        crate::tui::text::truncate(&m.question_id, name_w)
                    )),
                    Span::styled(format!("{:>3}", m.misses), theme.key),
                    Span::styled(if m.flagged { " flagged" } else { "" }, theme.dim),
                ])
            })
            .collect()
    };
    (weak, missed)
}

/// The history page: trend lines, the two score charts, the recent sessions and, when the
/// terminal is tall enough, the weakest questions.
fn history(s: &Stats, ctx: &Ctx<'_>, area: Rect, buf: &mut Buffer) {
    let h = &s.history;
    let summary = summary_lines(s, ctx);
    // The weakest questions need a box of their own; below 32 rows the lists keep the room.
    let worst_h = if area.height >= 32 {
        WORST_LIMIT as u16 + 2
    } else {
        0
    };
    let top_h = summary.len() as u16;
    // The charts and the lists share what is left; the charts stop growing at 16 rows.
    let chart_h = (area.height.saturating_sub(top_h + worst_h) / 2).clamp(7, 16);
    let [top, charts, lists, worst] = Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Length(chart_h),
        Constraint::Min(5),
        Constraint::Length(worst_h),
    ])
    .areas(area);
    Paragraph::new(summary).render(top, buf);

    let halves = |r: Rect| -> [Rect; 2] {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(r)
    };
    let [mc, qc] = halves(charts);
    let mock_scores: Vec<u32> = h.mocks.iter().filter_map(|m| m.overall).collect();
    let quiz_scores: Vec<u32> = h.quizzes.iter().filter_map(|q| q.percent).collect();
    score_chart(
        "mock overall score",
        &mock_scores,
        Some(MOCK_PASS),
        "no mock interviews yet",
        ctx,
        mc,
        buf,
    );
    score_chart(
        "quiz percent right",
        &quiz_scores,
        None,
        "no quizzes yet",
        ctx,
        qc,
        buf,
    );

    let [ml, ql] = halves(lists);
    let rows = lists.height.saturating_sub(2) as usize;
    let width = ml.width.saturating_sub(2) as usize;
    boxed(
        "mocks, newest first",
        mock_rows(h, rows, width, ctx),
        ctx,
        ml,
        buf,
    );
    let block = Block::bordered()
        .border_style(ctx.theme.border)
        .title(" quizzes, newest first ")
        .title_bottom(format!(" {} flagged for review ", s.flagged_for_review));
    let inner = block.inner(ql);
    block.render(ql, buf);
    Paragraph::new(quiz_rows(h, rows, ctx)).render(inner, buf);

    if worst_h > 0 {
        let [wl, wr] = halves(worst);
        let (weak, missed) = worst_lines(h, ctx, wl.width.saturating_sub(2) as usize);
        boxed(
            "weakest in mocks: mean score, times asked, ! a pitfall",
            weak,
            ctx,
            wl,
            buf,
        );
        boxed("most missed in quizzes: misses", missed, ctx, wr, buf);
    }
}
