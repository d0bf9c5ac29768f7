//! A quiz on screen: the item with numbered options, the verdict and the correction at once
//! after each answer, and the result with every mistake explained. Saved after every
//! answer; a missed item's question goes to the front of the review queue.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::study::Progress;
use crate::study::history::QuizLog;
use crate::study::quiz::{Quiz, QuizPhase, QuizSetup};
use crate::study::time::Millis;
use crate::tui::keymap::{Action, Context};
use crate::tui::text;
use crate::tui::theme::Theme;

use super::{Ctx, Nav, step};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizState {
    pub quiz: Quiz,
    pub setup: QuizSetup,
    log: Option<QuizLog>,
    /// The option under the cursor.
    pub selected: usize,
    /// Result rows scrolled by.
    pub scroll: u16,
    /// Questions put forward for review by this quiz so far.
    pub flagged: usize,
}

impl QuizState {
    pub fn new(
        quiz: Quiz,
        setup: QuizSetup,
        progress: Option<&mut Progress>,
        now: Millis,
    ) -> (Self, Option<String>) {
        let (log, problem) = match progress {
            Some(p) => match QuizLog::start(p, &quiz, &setup, now) {
                Ok(l) => (Some(l), None),
                Err(e) => (None, Some(format!("this quiz is not saved: {e}"))),
            },
            None => (None, None),
        };
        (
            QuizState {
                quiz,
                setup,
                log,
                selected: 0,
                scroll: 0,
                flagged: 0,
            },
            problem,
        )
    }

    pub fn context(&self) -> Context {
        Context::Quiz
    }

    /// `max_scroll`: the result's last row that can be scrolled to the top.
    pub fn handle(
        &mut self,
        action: Action,
        progress: Option<&mut Progress>,
        now: Millis,
        max_scroll: u16,
    ) -> Nav {
        let options = self.quiz.current().map_or(0, |i| i.options.len());
        let result = match (action, self.quiz.phase()) {
            (Action::Choose(n), QuizPhase::Asking) => {
                self.selected = usize::from(n).saturating_sub(1);
                self.quiz
                    .answer(self.selected)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }
            (Action::Advance, QuizPhase::Asking) => self
                .quiz
                .answer(self.selected)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            (Action::Advance, QuizPhase::Feedback) => {
                self.selected = 0;
                self.quiz.advance().map_err(|e| e.to_string())
            }
            (Action::Up, QuizPhase::Asking) => {
                self.selected = step(self.selected, options, -1);
                Ok(())
            }
            (Action::Down, QuizPhase::Asking) => {
                self.selected = step(self.selected, options, 1);
                Ok(())
            }
            (Action::Top, QuizPhase::Asking) => {
                self.selected = 0;
                Ok(())
            }
            (Action::Bottom, QuizPhase::Asking) => {
                self.selected = options.saturating_sub(1);
                Ok(())
            }
            (Action::Top, QuizPhase::Done) => {
                self.scroll = 0;
                Ok(())
            }
            (Action::Bottom, QuizPhase::Done) => {
                self.scroll = max_scroll;
                Ok(())
            }
            (Action::Down, QuizPhase::Done) => {
                self.scroll = self.scroll.saturating_add(1).min(max_scroll);
                Ok(())
            }
            (Action::Up, QuizPhase::Done) => {
                self.scroll = self.scroll.saturating_sub(1);
                Ok(())
            }
            (Action::EndNow, QuizPhase::Asking | QuizPhase::Feedback) => {
                self.quiz.end();
                Ok(())
            }
            (Action::Back, QuizPhase::Asking | QuizPhase::Feedback) => {
                // The first q ends the quiz and shows the result; the next leaves.
                self.quiz.end();
                Ok(())
            }
            (Action::Back, QuizPhase::Done) => return Nav::Pop,
            _ => Ok(()),
        };
        if let Err(e) = result {
            return Nav::Status(e);
        }
        let (Some(log), Some(p)) = (self.log.as_mut(), progress) else {
            return Nav::Stay;
        };
        match log.save(p, &self.quiz, now) {
            Ok(missed) => {
                self.flagged += missed.len();
                Nav::Stay
            }
            Err(e) => Nav::Status(format!("not saved: {e}")),
        }
    }
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a QuizState,
}

impl View<'_> {
    fn item(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let quiz = &self.state.quiz;
        let Some(item) = quiz.current() else { return };
        let (i, n) = quiz.position();
        let (ri, rn) = quiz.round_position().unwrap_or((0, 0));
        let so_far = quiz.result();
        let w = area.width.saturating_sub(2) as usize;
        let stem = text::wrap_all(&text::markdown(&item.stem, theme), w, 0);
        let feedback = quiz.feedback();
        let option_line = |k: usize, opt: &str| {
            let (mark, style) = match feedback {
                Some(f) if k == f.right => ("✓", theme.good),
                Some(f) if k == f.chosen => ("✗", theme.alert),
                Some(_) => (" ", theme.dim),
                None if k == self.state.selected => (">", theme.selected),
                None => (" ", Style::default()),
            };
            text::inline(&format!("{mark} {}. ", k + 1), opt, style, theme)
        };
        let lines: Vec<Line<'static>> = item
            .options
            .iter()
            .enumerate()
            .map(|(k, o)| option_line(k, o))
            .collect();
        let mut options = text::wrap_all(&lines, w, 5);
        // The verdict and its correction come first once answered: if everything does not
        // fit, each option keeps one line (its mark and start) and the rest goes to them.
        let next = self.ctx.keymap.keys_for(Context::Quiz, &[Action::Advance]);
        let feedback_lines = feedback.map(|f| {
            let mut l = text::wrap_all(&text::markdown(f.explanation, theme), w, 0);
            l.push(Line::styled(format!("{next}: next item"), theme.dim));
            l
        });
        if let Some(fl) = &feedback_lines {
            let needed = 1 + stem.len() + 2 + options.len() + 2 + fl.len() + 2;
            if needed > area.height as usize {
                options = lines.iter().map(|l| text::truncate_line(l, w)).collect();
            }
        } else {
            // Long options on a small screen: each keeps an equal share of the rows (its
            // start at least), cut with `…`, so every choice is on screen to pick from.
            let room = (area.height as usize).saturating_sub(1 + stem.len() + 2 + 2);
            if options.len() > room && !lines.is_empty() {
                let share = (room / lines.len()).max(1);
                options = lines
                    .iter()
                    .flat_map(|l| {
                        let mut wrapped = text::wrap(l, w, 5);
                        if wrapped.len() > share {
                            wrapped.truncate(share);
                            if let Some(last) = wrapped.last_mut() {
                                let cut = text::truncate_line(last, w.saturating_sub(1));
                                let mut spans = cut.spans;
                                if !spans.last().is_some_and(|s| s.content.ends_with('…')) {
                                    spans.push(Span::raw("…"));
                                }
                                *last = Line::from(spans);
                            }
                        }
                        wrapped
                    })
                    .collect();
            }
        }
        let [head, stem_area, options_area, feedback_area] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(stem.len() as u16 + 2),
            Constraint::Length(options.len() as u16 + 2),
            Constraint::Fill(1),
        ])
        .areas(area);
        Paragraph::new(Line::styled(
            text::truncate(
                &format!(
                    " {} · item {} of {rn} · {} of {n} overall · {} right so far",
                    item.kind.title(),
                    ri + 1,
                    i + 1,
                    so_far.correct
                ),
                head.width as usize,
            ),
            theme.dim,
        ))
        .render(head, buf);

        let block = Block::bordered()
            .title(Span::styled(
                format!(" {} ", item.kind.title()),
                theme.title,
            ))
            .border_style(theme.border);
        let inner = block.inner(stem_area);
        block.render(stem_area, buf);
        Paragraph::new(stem).render(inner, buf);

        let block = Block::bordered()
            .title(Span::styled(" Options ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(options_area);
        block.render(options_area, buf);
        Paragraph::new(options).render(inner, buf);

        if let (Some(f), Some(lines)) = (feedback, feedback_lines) {
            let (verdict, style) = if f.correct {
                ("Right.", theme.good)
            } else {
                ("Not quite.", theme.alert)
            };
            let block = Block::bordered()
                .title(Span::styled(format!(" {verdict} "), style))
                .border_style(style);
            let inner = block.inner(feedback_area);
            block.render(feedback_area, buf);
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(inner, buf);
        }
    }

    fn result(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let lines = result_lines(self.state, theme, area.width.saturating_sub(2) as usize);
        let max = max_scroll_of(lines.len(), area);
        Paragraph::new(lines)
            .scroll((self.state.scroll.min(max), 0))
            .block(
                Block::bordered()
                    .title(Span::styled(" Quiz result ", theme.title))
                    .border_style(theme.border),
            )
            .render(area, buf);
    }
}

fn max_scroll_of(lines: usize, area: Rect) -> u16 {
    let h = usize::from(area.height.saturating_sub(2));
    u16::try_from(lines.saturating_sub(h)).unwrap_or(u16::MAX)
}

/// How far the result can scroll in `area`: its last row at the bottom, no further.
pub fn max_scroll(state: &QuizState, theme: &Theme, area: Rect) -> u16 {
    let lines = result_lines(state, theme, area.width.saturating_sub(2) as usize);
    max_scroll_of(lines.len(), area)
}

/// The result as rows `width` wide: every content text through the one Markdown path, so
/// no marker shows and no words are glued across the source's line breaks.
fn result_lines(state: &QuizState, theme: &Theme, w: usize) -> Vec<Line<'static>> {
    let r = state.quiz.result();
    let mut lines = vec![Line::styled(
        format!(
            "{} of {} right ({}%){}",
            r.correct,
            r.answered,
            r.percent(),
            if r.answered < r.planned {
                format!(" · ended early ({} of {} items)", r.answered, r.planned)
            } else {
                String::new()
            }
        ),
        theme.heading,
    )];
    for round in &r.rounds {
        lines.push(Line::from(format!(
            "  {:<36} {} of {}",
            round.kind.title(),
            round.correct,
            round.answered
        )));
    }
    if !r.review.is_empty() {
        lines.push(Line::default());
        lines.extend(text::wrap(
            &Line::styled(
                format!("Put forward for your next review: {}", r.review.join(", ")),
                theme.accent,
            ),
            w,
            2,
        ));
    }
    for m in &r.mistakes {
        lines.push(Line::default());
        let rows: [(&str, &str, Style, usize); 4] = [
            ("✗ ", &m.stem, theme.alert, 2),
            ("  you chose: ", &m.chosen, Style::default(), 4),
            ("  right: ", &m.right, theme.good, 4),
            ("  ", &m.explanation, theme.dim, 2),
        ];
        for (prefix, body, style, indent) in rows {
            lines.extend(text::wrap(
                &text::inline(prefix, body, style, theme),
                w,
                indent,
            ));
        }
    }
    lines
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.state.quiz.is_done() {
            self.result(area, buf);
        } else {
            self.item(area, buf);
        }
    }
}
