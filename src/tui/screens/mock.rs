//! A mock interview on screen: the interviewer's prompt, the countdown with its basics
//! checkpoint and overtime, notes, the rubric beside the model answers, the follow-up with
//! its own clock, and the scorecard with a chart. The rules live in `study::mock`; this
//! screen only shows them and passes keys and the time in. Each scored question is saved
//! (and graded for the scheduler) before the screen moves on.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Bar, BarChart, BarGroup, Block, LineGauge, Paragraph, Row, Table, Widget, Wrap,
};

use crate::content::Deck;
use crate::study::Progress;
use crate::study::history::{MockLog, schedule_grade};
use crate::study::mock::{Countdown, FollowupVerdict, Mock, Phase, Stage};
use crate::study::time::{Millis, date_label, day_of};
use crate::tui::keymap::{Action, Context};
use crate::tui::line_edit::LineEdit;
use crate::tui::text;
use crate::tui::theme::Theme;

use super::{Ctx, Nav, step};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockState {
    pub mock: Mock,
    /// The session in the store; `None` when nothing is saved.
    log: Option<MockLog>,
    /// The app's time when the interview began: the mock's clock counts from here.
    origin: Millis,
    /// The notes being typed, while the notes box is open.
    pub editing: Option<LineEdit>,
    /// Rubric: the row under the cursor (keypoints, then pitfalls).
    pub cursor: usize,
    /// Rubric: model answers scrolled by; scorecard: rows scrolled by.
    pub scroll: u16,
    /// Where the report was written, once it was.
    pub report: Option<String>,
}

impl MockState {
    /// Starts the interview at `now`, opening its session in the store when there is one.
    pub fn new(mock: Mock, progress: Option<&mut Progress>, now: Millis) -> (Self, Option<String>) {
        let (log, problem) = match progress {
            Some(p) => match MockLog::start(p, &mock, now) {
                Ok(l) => (Some(l), None),
                Err(e) => (None, Some(format!("this interview is not saved: {e}"))),
            },
            None => (None, None),
        };
        (
            MockState {
                mock,
                log,
                origin: now,
                editing: None,
                cursor: 0,
                scroll: 0,
                report: None,
            },
            problem,
        )
    }

    /// The mock's clock at the app's time `now`.
    pub fn clock(&self, now: Millis) -> Duration {
        Duration::from_millis(now.saturating_sub(self.origin).max(0) as u64)
    }

    pub fn context(&self) -> Context {
        if self.editing.is_some() {
            return Context::Notes;
        }
        match self.mock.phase() {
            Phase::Prompt | Phase::Answering | Phase::Followup => Context::Interview,
            Phase::Rubric => Context::Rubric,
            Phase::FollowupAnswer => Context::Judge,
            Phase::Done => Context::Scorecard,
        }
    }

    /// Whether a clock is running, so the screen needs redrawing as time passes.
    pub fn ticking(&self, now: Millis) -> bool {
        self.mock
            .countdown(self.clock(now))
            .is_some_and(|c| !c.paused)
    }

    /// The scorecard's last row, the furthest it scrolls.
    fn last_row(&self) -> u16 {
        u16::try_from(self.mock.results().len().saturating_sub(1)).unwrap_or(u16::MAX)
    }

    fn rubric_rows(&self) -> usize {
        self.mock.covered().len() + self.mock.pitfalls_said().len()
    }

    pub fn type_char(&mut self, c: char) {
        if let Some(n) = self.editing.as_mut() {
            n.insert(c);
        }
    }

    /// Pasted text goes into the notes as it is, line breaks kept; never read as keys.
    pub fn paste(&mut self, text: &str) {
        if let Some(n) = self.editing.as_mut() {
            let text = text.replace("\r\n", "\n");
            let text: String = text
                .chars()
                .filter(|&c| c == '\n' || !c.is_control())
                .collect();
            n.insert_str(&text);
        }
    }

    /// Handles an action; saves whatever got scored.
    pub fn handle(&mut self, action: Action, progress: Option<&mut Progress>, now: Millis) -> Nav {
        let t = self.clock(now);
        let m = &mut self.mock;
        let outcome = match (action, m.phase()) {
            (Action::NotesDone, _) => {
                let text = self.editing.take().unwrap_or_default().into_text();
                m.set_notes(text.trim().to_string())
                    .map_err(|e| e.to_string())
            }
            (Action::EditText(e), _) => {
                if let Some(n) = self.editing.as_mut() {
                    n.apply(e);
                }
                Ok(())
            }
            (Action::Notes, p) if p != Phase::Done => {
                self.editing = Some(LineEdit::new(m.notes()));
                Ok(())
            }
            (Action::EndNow | Action::Back, p) if p != Phase::Done => {
                m.end();
                self.scroll = 0;
                Ok(())
            }
            (Action::Advance, Phase::Prompt) => m.start_answer(t).map_err(|e| e.to_string()),
            (Action::Advance, Phase::Answering) => {
                self.cursor = 0;
                self.scroll = 0;
                m.finish_answer(t).map_err(|e| e.to_string())
            }
            (Action::Advance, Phase::Rubric) => m.confirm_rubric(t).map_err(|e| e.to_string()),
            (Action::Advance, Phase::Followup) => m.finish_followup(t).map_err(|e| e.to_string()),
            (Action::PauseTimer, Phase::Answering | Phase::Followup) => {
                m.toggle_pause(t).map_err(|e| e.to_string())
            }
            (Action::Up, Phase::Rubric) => {
                self.cursor = step(self.cursor, self.rubric_rows(), -1);
                Ok(())
            }
            (Action::Down, Phase::Rubric) => {
                self.cursor = step(self.cursor, self.rubric_rows(), 1);
                Ok(())
            }
            (Action::Top, Phase::Rubric) => {
                self.cursor = 0;
                Ok(())
            }
            (Action::Bottom, Phase::Rubric) => {
                self.cursor = self.rubric_rows().saturating_sub(1);
                Ok(())
            }
            (Action::Top, Phase::Done) => {
                self.scroll = 0;
                Ok(())
            }
            (Action::Bottom, Phase::Done) => {
                // The view stops at the scorecard's end.
                self.scroll = self.last_row();
                Ok(())
            }
            (Action::Toggle, Phase::Rubric) => {
                let k = m.covered().len();
                if self.cursor < k {
                    m.toggle_keypoint(self.cursor)
                } else {
                    m.toggle_pitfall(self.cursor - k)
                }
                .map_err(|e| e.to_string())
            }
            (Action::PageDown, Phase::Rubric) => {
                self.scroll = self.scroll.saturating_add(5);
                Ok(())
            }
            (Action::PageUp, Phase::Rubric) => {
                self.scroll = self.scroll.saturating_sub(5);
                Ok(())
            }
            (Action::Judge(n), Phase::FollowupAnswer) => {
                let v = match n {
                    1 => FollowupVerdict::Answered,
                    2 => FollowupVerdict::Partial,
                    _ => FollowupVerdict::Missed,
                };
                m.judge_followup(v).map_err(|e| e.to_string())
            }
            (Action::Down, Phase::Done) => {
                self.scroll = self.scroll.saturating_add(1).min(self.last_row());
                Ok(())
            }
            (Action::Up, Phase::Done) => {
                self.scroll = self.scroll.saturating_sub(1);
                Ok(())
            }
            (Action::Back, Phase::Done) => return Nav::Pop,
            _ => Ok(()),
        };
        if let Err(e) = outcome {
            return Nav::Status(e);
        }
        let ended = matches!(action, Action::EndNow | Action::Back) && self.mock.is_done();
        match self.save(progress, now) {
            Nav::Stay if ended => Nav::Status(
                "interview ended: the scorecard has what was scored; q leaves it".into(),
            ),
            nav => nav,
        }
    }

    /// Saves what got scored; says what the scheduler made of it.
    fn save(&mut self, progress: Option<&mut Progress>, now: Millis) -> Nav {
        let (Some(log), Some(p)) = (self.log.as_mut(), progress) else {
            return Nav::Stay;
        };
        match log.save(p, &self.mock, now) {
            Ok(graded) if graded.is_empty() => Nav::Stay,
            Ok(graded) => Nav::Status(
                graded
                    .iter()
                    .map(|(id, g)| format!("saved {id}: graded {} for review", g.label()))
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            Err(e) => Nav::Status(format!("not saved: {e}")),
        }
    }

    /// The Markdown report of the interview so far.
    pub fn report_markdown(&self, deck: &Deck, now: Millis) -> String {
        crate::study::mock::report_markdown(
            &self.mock.scorecard(),
            deck,
            Some(&date_label(day_of(now))),
        )
    }
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a MockState,
    pub now: Millis,
}

fn mmss(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// Time left rounds up, as a countdown does: elapsed and left add up to the budget, and
/// the clock starts on the full budget.
fn mmss_left(d: Duration) -> String {
    mmss(Duration::from_secs(
        d.as_secs() + u64::from(d.subsec_nanos() > 0),
    ))
}

/// The countdown as a gauge and one line of words.
fn countdown_lines(c: &Countdown, theme: &Theme) -> (f64, Style, Line<'static>) {
    let (style, words) = match c.stage {
        Stage::Basics => (
            theme.good,
            format!(
                "{} left · one-liner checkpoint at {}s",
                mmss_left(c.remaining),
                c.checkpoint.map_or(0, |d| d.as_secs())
            ),
        ),
        Stage::Solid => (
            theme.accent,
            format!("{} left of {}s", mmss_left(c.remaining), c.budget.as_secs()),
        ),
        Stage::Overtime => (
            theme.alert,
            format!(
                "OVERTIME +{} (budget {}s)",
                mmss(c.overtime),
                c.budget.as_secs()
            ),
        ),
    };
    let mut spans = vec![Span::styled(format!("{} ", mmss(c.elapsed)), theme.heading)];
    spans.push(Span::styled(words, style));
    if c.paused {
        spans.push(Span::styled("  PAUSED", theme.warning));
    }
    (c.used().min(1.0), style, Line::from(spans))
}

fn para(text: &str, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    text::wrap_all(&text::markdown(text, theme), width as usize, 0)
}

impl View<'_> {
    fn header(&self) -> String {
        let (i, n) = self.state.mock.position();
        let setup = self.state.mock.setup();
        let q = self.state.mock.question();
        format!(
            " Question {} of {n} · target {} · {}{}",
            (i + 1).min(n),
            setup.level,
            setup.strictness,
            q.map(|q| {
                let stretch = crate::study::mock::is_stretch(q.level, setup.level);
                format!(
                    " · {} question{}",
                    q.level,
                    if stretch { " (stretch)" } else { "" }
                )
            })
            .unwrap_or_default()
        )
    }

    fn timed(&self, area: Rect, buf: &mut Buffer, asked: &str, who: &str) {
        let theme = self.ctx.theme;
        let asked = para(asked, theme, area.width.saturating_sub(2));
        // The question as tall as it needs (the notes take what is left).
        let ask_h = (asked.len() as u16 + 2).min(area.height.saturating_sub(7).max(3));
        let [ask, clock, notes] = Layout::vertical([
            Constraint::Length(ask_h),
            Constraint::Length(3),
            Constraint::Fill(1),
        ])
        .areas(area);
        let block = Block::bordered()
            .title(Span::styled(format!(" {who} "), theme.title))
            .border_style(theme.border);
        let inner = block.inner(ask);
        block.render(ask, buf);
        Paragraph::new(asked).render(inner, buf);
        let t = self.state.clock(self.now);
        if let Some(c) = self.state.mock.countdown(t) {
            let (ratio, style, line) = countdown_lines(&c, theme);
            let block = Block::bordered()
                .title(Span::styled(" Clock ", theme.title))
                .border_style(theme.border);
            let inner = block.inner(clock);
            block.render(clock, buf);
            let [gauge, words] =
                Layout::horizontal([Constraint::Percentage(40), Constraint::Fill(1)]).areas(inner);
            LineGauge::default()
                .ratio(ratio)
                .filled_style(style)
                .label("")
                .render(gauge, buf);
            Paragraph::new(line).render(words.inner(ratatui::layout::Margin::new(1, 0)), buf);
        } else {
            let q = self.state.mock.question();
            let keys = self
                .ctx
                .keymap
                .keys_for(Context::Interview, &[Action::Advance]);
            let budgets = q
                .map(|q| {
                    format!(
                        "Budget: one-liner {}s, solid {}s · ",
                        q.basics.seconds, q.solid.seconds
                    )
                })
                .unwrap_or_default();
            Paragraph::new(vec![Line::styled(
                format!("{budgets}{keys} starts the clock"),
                theme.accent,
            )])
            .wrap(Wrap { trim: true })
            .block(Block::bordered().border_style(theme.border))
            .render(clock, buf);
        }
        self.notes(notes, buf);
    }

    fn notes(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let (text, title) = match &self.state.editing {
            Some(t) => (t.lines(theme.accent, theme.selected), " Notes (typing) "),
            None => (
                text::plain(self.state.mock.notes(), Style::default()),
                " Notes ",
            ),
        };
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(
                Block::bordered()
                    .title(Span::styled(title, theme.title))
                    .border_style(theme.border),
            )
            .render(area, buf);
    }

    fn rubric(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let m = &self.state.mock;
        let Some(q) = m.question() else { return };
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(area);
        let block = Block::bordered()
            .title(Span::styled(" What you covered ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(left);
        block.render(left, buf);
        let w = inner.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        let mut cursor_line = 0;
        lines.push(Line::styled("Keypoints", theme.heading));
        for (i, (k, on)) in q.keypoints.iter().zip(m.covered()).enumerate() {
            if i == self.state.cursor {
                cursor_line = lines.len();
            }
            let mark = if *on { "[x] " } else { "[ ] " };
            let style = if i == self.state.cursor {
                theme.selected
            } else if *on {
                theme.good
            } else {
                Style::default()
            };
            lines.extend(text::wrap(&text::inline(mark, k, style, theme), w, 4));
        }
        lines.push(Line::styled(
            "Pitfalls (any one said loses the question)",
            theme.heading,
        ));
        let k = q.keypoints.len();
        for (i, (p, on)) in q.pitfalls.iter().zip(m.pitfalls_said()).enumerate() {
            if k + i == self.state.cursor {
                cursor_line = lines.len();
            }
            let mark = if *on { "[!] " } else { "[ ] " };
            let style = if k + i == self.state.cursor {
                theme.selected
            } else if *on {
                theme.alert
            } else {
                Style::default()
            };
            lines.extend(text::wrap(
                &text::inline(mark, &p.claim, style, theme),
                w,
                4,
            ));
            if *on {
                lines.extend(text::wrap(
                    &text::inline("    why not: ", &p.why, theme.dim, theme),
                    w,
                    4,
                ));
            }
        }
        // Keep the cursor in view.
        let h = inner.height as usize;
        let top = cursor_line.saturating_sub(h.saturating_sub(2));
        Paragraph::new(lines)
            .scroll((top as u16, 0))
            .render(inner, buf);

        let block = Block::bordered()
            .title(Span::styled(" Model answers ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(right);
        block.render(right, buf);
        let w = inner.width;
        let mut lines = Vec::new();
        // What was jotted while answering, to tick the rubric against.
        if !m.notes().trim().is_empty() {
            lines.push(Line::styled("Your notes", theme.heading));
            lines.extend(text::wrap_all(
                &m.notes().lines().map(Line::raw).collect::<Vec<_>>(),
                w as usize,
                0,
            ));
        }
        lines.push(Line::styled(
            format!("One-liner ({}s)", q.basics.seconds),
            theme.heading,
        ));
        lines.extend(para(&q.basics.text, theme, w));
        lines.push(Line::styled(
            format!("Solid answer ({}s)", q.solid.seconds),
            theme.heading,
        ));
        lines.extend(para(&q.solid.text, theme, w));
        if let Some(d) = m.deeper() {
            lines.push(Line::styled(
                format!("What a {} adds", m.setup().level),
                theme.heading,
            ));
            lines.extend(para(d, theme, w));
        }
        Paragraph::new(lines)
            .scroll((self.state.scroll, 0))
            .render(inner, buf);
    }

    fn followup_answer(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let m = &self.state.mock;
        let Some(f) = m.followup() else { return };
        let block = Block::bordered()
            .title(Span::styled(" Follow-up ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(area);
        block.render(area, buf);
        let w = inner.width;
        let mut lines = vec![Line::styled("Interviewer:", theme.heading)];
        lines.extend(para(&f.q, theme, w));
        lines.push(Line::default());
        lines.push(Line::styled("A good answer:", theme.heading));
        lines.extend(para(&f.a, theme, w));
        lines.push(Line::default());
        let keys = self.ctx.keymap;
        lines.push(Line::styled(
            format!(
                "How did yours compare?  {} answered · {} partly · {} missed",
                keys.keys_for(Context::Judge, &[Action::Judge(1)]),
                keys.keys_for(Context::Judge, &[Action::Judge(2)]),
                keys.keys_for(Context::Judge, &[Action::Judge(3)]),
            ),
            theme.accent,
        ));
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }

    fn scorecard(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let card = self.state.mock.scorecard();
        let s = card.strictness();
        let table_h = (card.results.len() as u16 + 3).min(area.height.saturating_sub(9).max(4));
        let [summary, table_area, chart_area] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Length(table_h),
            Constraint::Fill(1),
        ])
        .areas(area);
        let head = format!(
            "Overall {} / 100 · passed {} of {} · pitfalls on {}",
            card.overall(),
            card.passed(),
            card.results.len(),
            card.pitfalls(),
        );
        let mut time = format!(
            "time {} against a budget of {}",
            mmss(card.total_time()),
            mmss(Duration::from_secs(card.total_budget_seconds()))
        );
        if card.ended_early() {
            // Asked, not scored: a question ended before its rubric was still asked.
            time.push_str(&format!(
                " · ended early ({} of {} asked)",
                self.state.mock.asked(),
                card.planned
            ));
        }
        let mut lines = vec![Line::styled(head, theme.heading), Line::from(time)];
        let report = match &self.state.report {
            Some(path) => format!("report written to {path}"),
            None => format!(
                "{}: write the Markdown report · seed {}",
                self.ctx
                    .keymap
                    .keys_for(Context::Scorecard, &[Action::WriteReport]),
                card.setup.seed
            ),
        };
        lines.push(Line::styled(report, theme.dim));
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(summary, buf);

        let rows = card.results.iter().enumerate().map(|(i, r)| {
            let score = r.score(s);
            let style = if r.pitfall_said() || !r.passed(s) {
                theme.alert
            } else {
                theme.good
            };
            Row::new([
                format!("Q{}", i + 1),
                r.question_id.clone(),
                format!("{}/{}", r.covered.len(), r.keypoints_total),
                format!("{}s/{}s", r.time.as_secs(), r.solid_seconds),
                if r.pitfall_said() { "yes" } else { "-" }.to_string(),
                r.followup
                    .as_ref()
                    .map_or("-", |f| match f.verdict {
                        FollowupVerdict::Answered => "answered",
                        FollowupVerdict::Partial => "partly",
                        FollowupVerdict::Missed => "missed",
                    })
                    .to_string(),
                score.to_string(),
                schedule_grade(r.grade()).label().to_string(),
            ])
            .style(style)
        });
        // Scrolled no further than the last row at the bottom (borders and header aside).
        let room = usize::from(table_area.height.saturating_sub(3));
        let skip = usize::from(self.state.scroll).min(card.results.len().saturating_sub(room));
        let table = Table::new(
            rows.skip(skip),
            [
                Constraint::Length(3),
                Constraint::Fill(1),
                Constraint::Length(8),
                Constraint::Length(10),
                Constraint::Length(7),
                Constraint::Length(9),
                Constraint::Length(5),
                Constraint::Length(6),
            ],
        )
        .header(
            Row::new([
                "",
                "question",
                "covered",
                "time",
                "pitfall",
                "follow-up",
                "score",
                "grade",
            ])
            .style(theme.header),
        )
        .block(
            Block::bordered()
                .title(Span::styled(" Scorecard ", theme.title))
                .border_style(theme.border),
        );
        Widget::render(table, table_area, buf);

        let bars: Vec<Bar> = card
            .chart()
            .into_iter()
            .map(|b| {
                let style = if b.score >= s.pass_mark() {
                    theme.good
                } else {
                    theme.alert
                };
                Bar::default()
                    .label(Line::from(b.label))
                    .value(u64::from(b.score))
                    .style(style)
                    .value_style(style.patch(theme.selected))
            })
            .collect();
        BarChart::default()
            .block(
                Block::bordered()
                    .title(Span::styled(
                        format!(" Score per question (pass mark {}) ", s.pass_mark()),
                        theme.title,
                    ))
                    .border_style(theme.border),
            )
            .data(BarGroup::default().bars(&bars))
            .bar_width(5)
            .bar_gap(2)
            .max(100)
            .render(chart_area, buf);
    }
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let [head, body] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
        let m = &self.state.mock;
        if m.phase() != Phase::Done {
            Paragraph::new(Line::styled(
                text::truncate(&self.header(), head.width as usize),
                theme.dim,
            ))
            .render(head, buf);
        }
        match m.phase() {
            Phase::Prompt | Phase::Answering => {
                let prompt = m.question().map_or("", |q| q.prompt.as_str());
                self.timed(body, buf, prompt, "Interviewer");
            }
            Phase::Followup => {
                let f = m.followup().map_or("", |f| f.q.as_str());
                self.timed(body, buf, f, "Interviewer: follow-up");
            }
            Phase::Rubric => self.rubric(body, buf),
            Phase::FollowupAnswer => self.followup_answer(body, buf),
            Phase::Done => self.scorecard(area, buf),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_rounds_up_so_the_clock_starts_full() {
        assert_eq!(mmss_left(Duration::from_millis(24_900)), "0:25");
        assert_eq!(mmss_left(Duration::from_secs(25)), "0:25");
        assert_eq!(mmss_left(Duration::from_millis(59_001)), "1:00");
        assert_eq!(mmss_left(Duration::ZERO), "0:00");
        assert_eq!(mmss(Duration::from_millis(24_900)), "0:24");
    }
}
