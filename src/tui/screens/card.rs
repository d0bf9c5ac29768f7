//! One question as a flash card: the prompt, then sections revealed one at a time in a
//! fixed order. Digits jump to a section, `[`/`]` switch the level of the deeper notes.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::content::{Level, Question};
use crate::tui::keymap::Action;
use crate::tui::text;
use crate::tui::theme::Theme;

use super::{Ctx, Nav};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Keypoints,
    Basics,
    Solid,
    Deeper,
    Explainer,
    Code,
    Followups,
    Analogy,
    Pitfalls,
}

impl Section {
    /// Reveal order; a section's number (its digit key) is its position plus one.
    pub const ALL: [Section; 9] = [
        Section::Keypoints,
        Section::Basics,
        Section::Solid,
        Section::Deeper,
        Section::Explainer,
        Section::Code,
        Section::Followups,
        Section::Analogy,
        Section::Pitfalls,
    ];

    pub fn index(self) -> usize {
        Section::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    pub fn number(self) -> u8 {
        self.index() as u8 + 1
    }

    pub fn title(self) -> &'static str {
        match self {
            Section::Keypoints => "Key points",
            Section::Basics => "Basics",
            Section::Solid => "Solid answer",
            Section::Deeper => "Deeper",
            Section::Explainer => "Explainer",
            Section::Code => "Code",
            Section::Followups => "Follow-ups",
            Section::Analogy => "Analogy",
            Section::Pitfalls => "Pitfalls",
        }
    }

    /// Whether the question has anything for this section.
    pub fn present(self, q: &Question) -> bool {
        match self {
            Section::Keypoints => !q.keypoints.is_empty(),
            Section::Basics | Section::Solid | Section::Deeper => true,
            Section::Explainer => q.explainer.is_some(),
            Section::Code => !q.code.is_empty(),
            Section::Followups => !q.followups.is_empty(),
            Section::Analogy => q.analogy.is_some(),
            Section::Pitfalls => !q.pitfalls.is_empty(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardState {
    pub id: String,
    /// Level of the deeper notes shown.
    pub level: Level,
    pub revealed: [bool; 9],
    /// First body row shown.
    pub scroll: usize,
}

/// The card body laid out for one width: rows, and the row each shown section starts at.
pub struct Body {
    pub lines: Vec<Line<'static>>,
    pub starts: [Option<usize>; 9],
}

impl CardState {
    pub fn new(id: &str, level: Level) -> Self {
        CardState {
            id: id.to_string(),
            level,
            revealed: [false; 9],
            scroll: 0,
        }
    }

    pub fn is_revealed(&self, s: Section) -> bool {
        self.revealed[s.index()]
    }

    pub fn next_hidden(&self, q: &Question) -> Option<Section> {
        Section::ALL
            .into_iter()
            .find(|s| s.present(q) && !self.is_revealed(*s))
    }

    /// `width`, `height`: the body's inner size, for scrolling.
    pub fn handle(
        &mut self,
        action: Action,
        q: &Question,
        theme: &Theme,
        width: usize,
        height: usize,
    ) -> Nav {
        let height = height.max(1);
        let max_scroll =
            |st: &CardState| body(q, st, theme, width).lines.len().saturating_sub(height);
        let mut nav = Nav::Stay;
        match action {
            Action::Reveal => match self.next_hidden(q) {
                Some(s) => {
                    self.revealed[s.index()] = true;
                    let b = body(q, self, theme, width);
                    if let Some(start) = b.starts[s.index()] {
                        // Bring the new section into view when it starts low on screen.
                        if start + 3 > self.scroll + height {
                            self.scroll = start.min(b.lines.len().saturating_sub(height));
                        }
                    }
                }
                None => nav = Nav::Status("everything is shown".into()),
            },
            Action::RevealAll => {
                for s in Section::ALL {
                    self.revealed[s.index()] = s.present(q);
                }
            }
            Action::Jump(n) => {
                let Some(&s) = Section::ALL.get((n as usize).wrapping_sub(1)) else {
                    return Nav::Stay;
                };
                if !s.present(q) {
                    return Nav::Status(format!(
                        "this question has no {}",
                        s.title().to_lowercase()
                    ));
                }
                self.revealed[s.index()] = true;
                let b = body(q, self, theme, width);
                if let Some(start) = b.starts[s.index()] {
                    self.scroll = start.min(b.lines.len().saturating_sub(height));
                }
            }
            Action::Up => self.scroll = self.scroll.saturating_sub(1),
            Action::Down => self.scroll = (self.scroll + 1).min(max_scroll(self)),
            Action::PageUp => {
                self.scroll = self.scroll.saturating_sub(height.saturating_sub(1).max(1))
            }
            Action::PageDown => {
                self.scroll = (self.scroll + height.saturating_sub(1).max(1)).min(max_scroll(self))
            }
            Action::Top => self.scroll = 0,
            Action::Bottom => self.scroll = max_scroll(self),
            Action::PrevLevel | Action::NextLevel => {
                let i = Level::ALL
                    .iter()
                    .position(|l| *l == self.level)
                    .unwrap_or(0);
                let j = if action == Action::PrevLevel {
                    i.saturating_sub(1)
                } else {
                    (i + 1).min(Level::ALL.len() - 1)
                };
                self.level = Level::ALL[j];
                nav = Nav::Status(format!("deeper notes: {}", self.level));
                self.scroll = self.scroll.min(max_scroll(self));
            }
            _ => {}
        }
        nav
    }
}

fn indented(lines: Vec<Line<'static>>, width: usize, pad: usize) -> Vec<Line<'static>> {
    let inner = width.saturating_sub(pad).max(1);
    let mut out = Vec::new();
    for l in &lines {
        for mut w in text::wrap(l, inner, text::hang(l)) {
            w.spans.insert(0, Span::raw(" ".repeat(pad)));
            out.push(w);
        }
    }
    out
}

/// Code wrapped to the card: a continued line starts with `↪` in the margin, so one long
/// command never reads as two.
fn code_lines(
    lines: Vec<Line<'static>>,
    width: usize,
    pad: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let inner = width.saturating_sub(pad).max(1);
    let mut out = Vec::new();
    for l in &lines {
        for (k, mut w) in text::wrap(l, inner, 0).into_iter().enumerate() {
            if k == 0 || pad < 2 {
                w.spans.insert(0, Span::raw(" ".repeat(pad)));
            } else {
                w.spans.insert(
                    0,
                    Span::styled(format!("{}↪ ", " ".repeat(pad - 2)), theme.dim),
                );
            }
            out.push(w);
        }
    }
    out
}

fn section_lines(
    s: Section,
    q: &Question,
    st: &CardState,
    theme: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let md = |t: &str| indented(text::markdown(t, theme), width, 2);
    match s {
        Section::Keypoints => {
            let lines = q
                .keypoints
                .iter()
                .map(|k| Line::raw(format!("• {k}")))
                .collect();
            indented(lines, width, 2)
        }
        Section::Basics => md(&q.basics.text),
        Section::Solid => md(&q.solid.text),
        Section::Deeper => match q.deeper.at(st.level) {
            Some(t) => md(t),
            None => indented(
                vec![Line::styled(
                    format!("Nothing extra at {} level; [ and ] switch level.", st.level),
                    theme.dim,
                )],
                width,
                2,
            ),
        },
        Section::Explainer => md(q.explainer.as_deref().unwrap_or_default()),
        Section::Code => {
            let mut out = Vec::new();
            for (i, c) in q.code.iter().enumerate() {
                if i > 0 {
                    out.push(Line::default());
                }
                let mut head = c.lang.to_string();
                if let Some(cap) = &c.caption {
                    head = format!("{head}: {cap}");
                }
                if c.runnable {
                    head.push_str(" (r runs it in the demo)");
                }
                out.extend(indented(vec![Line::styled(head, theme.dim)], width, 2));
                out.extend(code_lines(
                    text::plain(&c.text, theme.code),
                    width,
                    4,
                    theme,
                ));
            }
            out
        }
        Section::Followups => {
            let mut out = Vec::new();
            for (i, f) in q.followups.iter().enumerate() {
                if i > 0 {
                    out.push(Line::default());
                }
                let ql = text::inline("Q: ", &f.q, theme.accent, theme);
                out.extend(indented(vec![ql], width, 2));
                out.extend(indented(text::markdown(&f.a, theme), width, 5));
            }
            out
        }
        Section::Analogy => md(q.analogy.as_deref().unwrap_or_default()),
        Section::Pitfalls => {
            let mut out = Vec::new();
            for (i, p) in q.pitfalls.iter().enumerate() {
                if i > 0 {
                    out.push(Line::default());
                }
                let cl = text::inline("✗ ", &p.claim, theme.accent, theme);
                out.extend(indented(vec![cl], width, 2));
                out.extend(indented(text::markdown(&p.why, theme), width, 4));
            }
            out
        }
    }
}

fn heading(s: Section, q: &Question, st: &CardState, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!("{} {}", s.number(), s.title()),
        theme.heading,
    )];
    let extra = match s {
        Section::Basics => format!("  ~{} s", q.basics.seconds),
        Section::Solid => format!("  ~{} s", q.solid.seconds),
        Section::Deeper => format!("  at {} level", st.level),
        _ => String::new(),
    };
    if !extra.is_empty() {
        spans.push(Span::styled(extra, theme.dim));
    }
    Line::from(spans)
}

/// Lays out the card body for `width` columns.
pub fn body(q: &Question, st: &CardState, theme: &Theme, width: usize) -> Body {
    let width = width.max(1);
    let mut lines: Vec<Line<'static>> =
        text::wrap(&text::inline("", &q.prompt, theme.title, theme), width, 0);
    lines.push(Line::default());
    let mut starts = [None; 9];
    for s in Section::ALL {
        if !s.present(q) || !st.is_revealed(s) {
            continue;
        }
        starts[s.index()] = Some(lines.len());
        lines.extend(text::wrap(&heading(s, q, st, theme), width, 2));
        lines.extend(section_lines(s, q, st, theme, width));
        lines.push(Line::default());
    }
    let shown = Section::ALL
        .iter()
        .filter(|s| s.present(q) && st.is_revealed(**s))
        .count();
    let total = Section::ALL.iter().filter(|s| s.present(q)).count();
    let hint = match st.next_hidden(q) {
        Some(s) => format!("Next: {} {} ({shown}/{total} shown)", s.number(), s.title()),
        None => format!("All {total} sections shown."),
    };
    lines.extend(text::wrap(&Line::styled(hint, theme.dim), width, 0));
    Body { lines, starts }
}

/// The body's inner area within the card's area.
pub fn body_area(area: Rect) -> Rect {
    let [_, body] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
    Block::bordered().inner(body)
}

/// The section whose number sits at column `x`, row `y` of the card's bottom border
/// (" sections 1 2 3 ..."), for mouse clicks.
pub fn section_at(q: &Question, area: Rect, x: u16, y: u16) -> Option<u8> {
    if area.height < 2 || y != area.bottom() - 1 {
        return None;
    }
    // The border's corner, then " sections", then " N" per present section.
    let rel = x.checked_sub(area.x + 1 + " sections".len() as u16)?;
    let present: Vec<Section> = Section::ALL.into_iter().filter(|s| s.present(q)).collect();
    present.get(rel as usize / 2).map(|s| s.number())
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a CardState,
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let st = self.state;
        let Some(q) = self.ctx.deck.question(&st.id) else {
            Paragraph::new(format!("no question {}", st.id)).render(area, buf);
            return;
        };
        let [meta, frame] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
        let demo = self
            .ctx
            .demo_progress(&q.id)
            .map_or(String::new(), |(n, of)| format!(" · demo {n}/{of}"));
        let asked = q
            .frequency
            .map_or(String::new(), |f| format!(" · asked in {f}%"));
        Paragraph::new(Line::from(vec![
            Span::styled(q.id.clone(), theme.accent),
            Span::styled(
                format!("  {} · {}{asked}{demo}", q.level, q.importance),
                theme.dim,
            ),
        ]))
        .render(meta, buf);

        let nums: Vec<Span> = Section::ALL
            .iter()
            .filter(|s| s.present(q))
            .map(|s| {
                let style = if st.is_revealed(*s) {
                    theme.key
                } else {
                    Style::default()
                };
                Span::styled(format!(" {}", s.number()), style)
            })
            .collect();
        let mut bottom = vec![Span::styled(" sections", theme.dim)];
        bottom.extend(nums);
        bottom.push(Span::raw(" "));
        let block = Block::bordered()
            .border_style(theme.border)
            .title_bottom(Line::from(bottom));
        let inner = block.inner(frame);
        block.render(frame, buf);
        let b = body(q, st, theme, inner.width as usize);
        let max = b.lines.len().saturating_sub(inner.height as usize);
        let scroll = st.scroll.min(max).min(u16::MAX as usize) as u16;
        Paragraph::new(b.lines)
            .scroll((scroll, 0))
            .render(inner, buf);
    }
}

#[cfg(test)]
mod code_tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn a_wrapped_code_line_is_marked_as_continued() {
        let theme = ThemeName::Default.theme();
        let cmd = "kubectl get deploy web -o jsonpath='{.spec.replicas} desired, {.status.readyReplicas} ready'";
        let lines = code_lines(vec![Line::raw(cmd)], 40, 4, theme);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert!(text.len() > 1, "{text:?}");
        assert!(text[0].starts_with("    kubectl"), "{text:?}");
        assert!(text[1..].iter().all(|l| l.starts_with("  ↪ ")), "{text:?}");
        assert!(text.iter().all(|l| text::width_of(l) <= 40), "{text:?}");
    }
}
