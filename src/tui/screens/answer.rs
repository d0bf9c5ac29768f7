//! The review's answer box and, after the reveal, the checklist the learner ticks against
//! it: key points covered, pitfalls fallen into, the grade that suggests, and what they
//! typed the last time the card came up. The review screen holds the state; this draws it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::content::Question;
use crate::study::answer::AnswerCheck;
use crate::study::store::TypedAnswerRecord;
use crate::study::time::{date_label, day_of};
use crate::tui::line_edit::LineEdit;
use crate::tui::text;
use crate::tui::theme::Theme;

/// The answer box while typing (or closed with text in it), under the card.
pub struct AnswerBox<'a> {
    pub theme: &'static Theme,
    pub answer: &'a LineEdit,
    pub typing: bool,
}

impl Widget for &AnswerBox<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let title = if self.typing {
            " Your answer (Enter: show the answer and check it · Esc: close) "
        } else {
            " Your answer (t: type more · Space: show the answer and check it) "
        };
        let block = Block::bordered()
            .title(Span::styled(title, theme.title))
            .border_style(if self.typing {
                theme.accent
            } else {
                theme.border
            });
        let inner = block.inner(area);
        block.render(area, buf);
        let lines = if self.typing {
            self.answer.lines(Style::default(), theme.selected)
        } else {
            text::plain(self.answer.text(), Style::default())
        };
        let w = usize::from(inner.width);
        let mut wrapped = text::wrap_all(&lines, w, 0);
        // Keep the end, where typing goes, in view.
        let h = usize::from(inner.height);
        if wrapped.len() > h {
            wrapped.drain(..wrapped.len() - h);
        }
        Paragraph::new(wrapped).render(inner, buf);
    }
}

/// The checklist after the reveal.
pub struct Checklist<'a> {
    pub theme: &'static Theme,
    pub question: &'a Question,
    pub check: &'a AnswerCheck,
    pub cursor: usize,
    pub last: Option<&'a TypedAnswerRecord>,
}

impl Checklist<'_> {
    fn lines(&self, width: usize) -> (Vec<Line<'static>>, usize) {
        let theme = self.theme;
        let q = self.question;
        let c = self.check;
        let mut lines: Vec<Line<'static>> = Vec::new();
        let mut cursor_line = 0;
        lines.push(Line::styled("You said", theme.heading));
        lines.extend(text::wrap_all(
            &text::plain(&c.text, Style::default()),
            width,
            0,
        ));
        // Beside this answer, so the two compare at a glance.
        if let Some(last) = self.last {
            lines.push(Line::styled(
                format!(
                    "Last time ({}, graded {}) you said",
                    date_label(day_of(last.answered_at)),
                    last.grade.label()
                ),
                theme.heading,
            ));
            lines.extend(text::wrap_all(
                &text::plain(&last.text, theme.dim),
                width,
                0,
            ));
        }
        lines.push(Line::styled(
            "Key points your answer covered",
            theme.heading,
        ));
        let row = |mark: &str, body: &str, style: Style| {
            text::wrap(&text::inline(mark, body, style, theme), width, 4)
        };
        for (i, (k, on)) in q.keypoints.iter().zip(&c.covered).enumerate() {
            if i == self.cursor {
                cursor_line = lines.len();
            }
            let style = match (i == self.cursor, *on) {
                (true, _) => theme.selected,
                (false, true) => theme.good,
                _ => Style::default(),
            };
            lines.extend(row(if *on { "[x] " } else { "[ ] " }, k, style));
        }
        if !q.pitfalls.is_empty() {
            lines.push(Line::styled(
                "Pitfalls your answer fell into",
                theme.heading,
            ));
        }
        let k = q.keypoints.len();
        for (i, (p, on)) in q.pitfalls.iter().zip(&c.said).enumerate() {
            if k + i == self.cursor {
                cursor_line = lines.len();
            }
            let style = match (k + i == self.cursor, *on) {
                (true, _) => theme.selected,
                (false, true) => theme.alert,
                _ => Style::default(),
            };
            lines.extend(row(if *on { "[!] " } else { "[ ] " }, &p.claim, style));
            if *on {
                lines.extend(row("    why not: ", &p.why, theme.dim));
            }
        }
        (lines, cursor_line)
    }
}

impl Widget for &Checklist<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let block = Block::bordered()
            .title(Span::styled(
                " Check your answer (Space ticks) ",
                theme.title,
            ))
            .border_style(theme.border);
        let inner = block.inner(area);
        block.render(area, buf);
        let (lines, cursor_line) = self.lines(usize::from(inner.width));
        // Keep the cursor in view, with a line of what follows it.
        let h = usize::from(inner.height);
        let top = (cursor_line + 2).saturating_sub(h);
        Paragraph::new(lines)
            .scroll((top as u16, 0))
            .render(inner, buf);
    }
}

/// The grade line's first row while checking: the grade the ticks suggest, and why.
pub fn suggestion(theme: &Theme, q: &Question, check: &AnswerCheck) -> Line<'static> {
    let (grade, why) = check.suggest(q);
    Line::from(vec![
        Span::styled(" Enter", theme.key),
        Span::raw(format!(
            " grade {} {} ({why})",
            grade.number(),
            grade.label()
        )),
    ])
}
