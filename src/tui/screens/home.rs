//! Topics with their question counts per level; Enter opens the topic's question list.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use std::collections::HashMap;

use crate::content::{Deck, Level};
use crate::tui::keymap::{Action, Context};
use crate::tui::rows;
use crate::tui::text;

use super::list::ListState;
use super::stack::Screen;
use super::{Ctx, Nav, step};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HomeState {
    pub selected: usize,
}

impl HomeState {
    pub fn handle(&mut self, action: Action, deck: &Deck) -> Nav {
        let n = deck.topics.len();
        match action {
            Action::Up => self.selected = step(self.selected, n, -1),
            Action::Down => self.selected = step(self.selected, n, 1),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = n.saturating_sub(1),
            Action::Open => {
                return match deck.topics.get(self.selected) {
                    Some(t) => Nav::Push(Screen::List(ListState::new(&t.id))),
                    None => Nav::Status("no topics loaded".into()),
                };
            }
            Action::Search => return Nav::Push(Screen::List(ListState::search_all())),
            _ => {}
        }
        Nav::Stay
    }
}

/// Questions of `topic` at each level, in `Level::ALL` order.
pub fn counts(deck: &Deck, topic: &str) -> [usize; 4] {
    let mut c = [0; 4];
    for q in deck.questions_in(topic) {
        c[Level::ALL.iter().position(|l| *l == q.level).unwrap_or(0)] += 1;
    }
    c
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a HomeState,
    /// Per topic id: (due today, never studied); `None` without a progress store.
    pub due: Option<&'a HashMap<&'a str, (usize, usize)>>,
}

impl View<'_> {
    /// The ways to practise, each with its key from the keymap.
    fn modes(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let keys = self.ctx.keymap;
        let k = |a: Action| keys.keys_for(Context::Home, &[a]);
        let (due, new) = self
            .due
            .map(|d| d.values().fold((0, 0), |(a, b), (x, y)| (a + x, b + y)))
            .unwrap_or_default();
        let review = match self.due {
            Some(_) => format!("study what is due: {due} due today, {new} never studied"),
            None => "study what is due (needs the progress store)".into(),
        };
        let rows = [
            (k(Action::ReviewDue), review),
            (
                k(Action::ReviewTopic),
                "study what is due in the selected topic".into(),
            ),
            (
                k(Action::Mock),
                "mock interview: timed answers, a rubric, a scorecard".into(),
            ),
            (
                k(Action::Quiz),
                "quiz: pitfall or fact, which question, follow-up recall".into(),
            ),
            (k(Action::Stats), "progress statistics".into()),
            (
                k(Action::Search),
                "search every question of every topic".into(),
            ),
        ];
        let lines: Vec<Line> = rows
            .into_iter()
            .filter(|(key, _)| !key.is_empty())
            .map(|(key, what)| {
                Line::from(vec![
                    Span::styled(format!("{key:>3}  "), theme.key),
                    Span::raw(what),
                ])
            })
            .collect();
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .title(Span::styled(" Practise ", theme.title))
                    .border_style(theme.border),
            )
            .render(area, buf);
    }

    /// The Topics table, laid out by hand as ratatui's `Table` lays out a title column
    /// that takes the room left and a counts column of fixed width, one space apart, after
    /// a `> ` selection mark: `Table` solves its column widths with a constraint solver,
    /// which was a fifth of the first frame's work. Rows scroll as `Table`'s do to keep
    /// the selected one in view.
    fn topics(
        &self,
        area: Rect,
        buf: &mut Buffer,
        header: Line<'_>,
        rows: Vec<(&str, Line<'_>)>,
        counts_w: u16,
    ) {
        let theme = self.ctx.theme;
        let block = Block::bordered()
            .title(Span::styled(" Topics ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.is_empty() {
            return;
        }
        const MARK: &str = "> ";
        let mark_w = MARK.len() as u16;
        let title_x = inner.x + mark_w;
        let title_w = inner.width.saturating_sub(mark_w + 1 + counts_w);
        let counts_x = (title_x + title_w + 1).min(inner.right());
        let cells = |y: u16, title: Line<'_>, counts: &Line<'_>, buf: &mut Buffer| {
            title.render(Rect::new(title_x, y, title_w, 1), buf);
            let room = inner.right().saturating_sub(counts_x).min(counts_w);
            counts.render(Rect::new(counts_x, y, room, 1), buf);
        };
        let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
        buf.set_style(row(inner.y), theme.header);
        cells(inner.y, Line::from("Topic"), &header, buf);
        let visible = usize::from(inner.height.saturating_sub(1));
        let selected = self.state.selected.min(rows.len().saturating_sub(1));
        let first = (selected + 1).saturating_sub(visible);
        for (i, (title, counts)) in rows.iter().enumerate().skip(first).take(visible) {
            let y = inner.y + 1 + (i - first) as u16;
            if i == selected {
                Line::from(MARK).render(Rect::new(inner.x, y, mark_w, 1), buf);
            }
            cells(y, Line::from(*title), counts, buf);
            if i == selected {
                buf.set_style(row(y), theme.selected);
            }
        }
    }
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let deck = self.ctx.deck;
        if deck.topics.is_empty() {
            Paragraph::new("No content loaded. `kubedrill check` explains why.")
                .style(theme.dim)
                .render(area, buf);
            return;
        }
        let table_h = (deck.topics.len() as u16 + 3).min(area.height);
        let [top, rest] = rows::top(area, table_h);

        // Narrow screens abbreviate the levels so topic titles keep their room.
        let narrow = area.width < 100;
        let mut header: Vec<(&str, usize)> = if narrow {
            vec![("jun", 3), ("mid", 3), ("sen", 3), ("pri", 3)]
        } else {
            vec![
                ("junior", 6),
                ("middle", 6),
                ("senior", 6),
                ("principal", 9),
            ]
        };
        header.push(("all", 4));
        if self.due.is_some() {
            header.extend([("due", 4), ("new", 4)]);
        }
        // The counts share one column, each padded to its width as a column of its own.
        let widths: Vec<usize> = header.iter().map(|(_, w)| *w).collect();
        let counts_w = widths.iter().map(|w| w + 1).sum::<usize>() - 1;
        let padded = |cells: Vec<(String, Style)>| {
            let mut spans = Vec::new();
            for (i, ((text, style), w)) in cells.into_iter().zip(&widths).enumerate() {
                if i > 0 {
                    spans.push(Span::raw(" "));
                }
                let pad = w.saturating_sub(text.chars().count());
                spans.push(Span::styled(text, style));
                spans.push(Span::raw(" ".repeat(pad)));
            }
            Line::from(spans)
        };
        let header = padded(
            (header.iter())
                .map(|(h, _)| (h.to_string(), Style::default()))
                .collect(),
        );
        let rows = deck.topics.iter().map(|t| {
            let c = counts(deck, &t.id);
            let total: usize = c.iter().sum();
            let mut cells: Vec<(String, Style)> = (c.iter().chain([&total]))
                .map(|n| (n.to_string(), Style::default()))
                .collect();
            if let Some(due) = self.due {
                let (d, n) = due.get(t.id.as_str()).copied().unwrap_or_default();
                let style = if d > 0 { theme.accent } else { theme.dim };
                cells.push((d.to_string(), style));
                cells.push((n.to_string(), Style::default()));
            }
            (t.title.as_str(), padded(cells))
        });
        self.topics(top, buf, header, rows.collect(), counts_w as u16);

        let Some(topic) = deck.topics.get(self.state.selected) else {
            return;
        };
        if rest.height < 3 {
            return;
        }
        // The modes under the topic's summary, when there is room for both.
        let modes_h = if rest.height >= 11 { 8 } else { 0 };
        let [rest, modes] = rows::bottom(rest, modes_h);
        if modes_h > 0 {
            self.modes(modes, buf);
        }
        let block = Block::bordered()
            .title(Span::styled(" About ", theme.title))
            .border_style(theme.border);
        let inner = block.inner(rest);
        block.render(rest, buf);
        let mut lines: Vec<Line> = Vec::new();
        if let Some(p) = &topic.part_of {
            lines.push(Line::styled(format!("Part of {p}"), theme.dim));
        }
        if let Some(s) = &topic.summary {
            lines.extend(text::wrap_all(
                &text::markdown(s, theme),
                inner.width as usize,
                0,
            ));
        }
        if !topic.roadmaps.is_empty() {
            lines.push(Line::default());
            let r = format!("Roadmaps: {}", topic.roadmaps.join(", "));
            lines.extend(text::wrap(
                &Line::styled(r, theme.dim),
                inner.width as usize,
                2,
            ));
        }
        // Cut text says so: the last row that fits ends with an ellipsis.
        let rows = inner.height as usize;
        if lines.len() > rows && rows > 0 {
            lines.truncate(rows);
            if let Some(last) = lines.last_mut() {
                let mut cut = text::truncate_line(last, (inner.width as usize).saturating_sub(1));
                if !cut.spans.last().is_some_and(|s| s.content.ends_with('…')) {
                    cut.spans.push(Span::styled("…", theme.dim));
                }
                *last = cut;
            }
        }
        Paragraph::new(lines).render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Topic, shipped};
    use crate::tui::keymap::Keymap;
    use crate::tui::settings::Settings;
    use crate::tui::theme::DEFAULT;

    /// Renders home on a `width` x `height` buffer with `selected` chosen.
    fn render(deck: &Deck, width: u16, height: u16, selected: usize) -> Buffer {
        let (settings, keymap, solved) = (Settings::default(), Keymap::default(), HashMap::new());
        let view = View {
            ctx: Ctx {
                deck,
                settings: &settings,
                theme: &DEFAULT,
                keymap: &keymap,
                solved: &solved,
                config_warnings: &[],
            },
            state: &HomeState { selected },
            due: None,
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
        (&view).render(buf.area, &mut buf);
        buf
    }

    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    /// The header and the selected row are styled across the table's whole width, as
    /// ratatui's Table styled them, and the mark is on the selected row only.
    #[test]
    fn the_selected_row_and_the_header_are_styled_across_the_table() {
        let deck = shipped().deck;
        let buf = render(&deck, 120, 40, 1);
        // Patching in the style again changes nothing where it is already applied.
        let has = |st: Style, want: Style| st.patch(want) == st;
        for x in 1..119 {
            assert!(has(buf[(x, 1)].style(), DEFAULT.header), "header at x={x}");
            assert!(
                has(buf[(x, 3)].style(), DEFAULT.selected),
                "selected at x={x}"
            );
            assert!(
                !has(buf[(x, 2)].style(), DEFAULT.selected),
                "unselected at x={x}"
            );
        }
        assert!(row_text(&buf, 3).starts_with("│> The Control Loop"));
        assert!(row_text(&buf, 2).starts_with("│  Desired-State"));
    }

    /// With more topics than rows, the list scrolls just enough to show the selected one.
    #[test]
    fn rows_scroll_to_keep_the_selected_topic_in_view() {
        let mut deck = Deck::default();
        for i in 0..30 {
            deck.topics.push(Topic {
                id: format!("t{i}").into(),
                title: format!("Topic number {i}").into(),
                part_of: None,
                summary: None,
                roadmaps: vec![],
                file: Default::default(),
            });
        }
        // 12 rows: a border, the header, 9 topics, a border.
        let buf = render(&deck, 80, 12, 20);
        assert!(
            row_text(&buf, 2).starts_with("│  Topic number 12 "),
            "{}",
            row_text(&buf, 2)
        );
        assert!(
            row_text(&buf, 10).starts_with("│> Topic number 20 "),
            "{}",
            row_text(&buf, 10)
        );
        let top = render(&deck, 80, 12, 3);
        assert!(row_text(&top, 2).starts_with("│  Topic number 0 "));
        assert!(row_text(&top, 5).starts_with("│> Topic number 3 "));
    }
}
