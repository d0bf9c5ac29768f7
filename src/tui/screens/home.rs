//! Topics with their question counts per level; Enter opens the topic's question list.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, StatefulWidget, Table, TableState, Widget};

use std::collections::HashMap;

use crate::content::{Deck, Level};
use crate::tui::keymap::{Action, Context};
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
    pub due: Option<&'a HashMap<String, (usize, usize)>>,
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
        let [top, rest] =
            Layout::vertical([Constraint::Length(table_h), Constraint::Fill(1)]).areas(area);

        // Narrow screens abbreviate the levels so topic titles keep their room.
        let narrow = area.width < 100;
        let level_w = |full: usize| if narrow { 3 } else { full };
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
        // The counts share one column, each padded to its width as a column of its own
        // would be: ratatui solves a table's column widths with its constraint solver,
        // a quarter of the first frame's work with eight columns and little with two.
        let counts_w = header.iter().map(|(_, w)| w + 1).sum::<usize>() - 1;
        let widths = [Constraint::Fill(1), Constraint::Length(counts_w as u16)];
        let padded = |cells: Vec<(String, usize, Style)>| {
            let mut spans = Vec::new();
            for (i, (text, w, style)) in cells.into_iter().enumerate() {
                if i > 0 {
                    spans.push(Span::raw(" "));
                }
                let pad = w.saturating_sub(text.chars().count());
                spans.push(Span::styled(text, style));
                spans.push(Span::raw(" ".repeat(pad)));
            }
            Line::from(spans)
        };
        let header = Row::new([
            Cell::from("Topic"),
            Cell::from(padded(
                (header.iter())
                    .map(|(h, w)| (h.to_string(), *w, Style::default()))
                    .collect(),
            )),
        ]);
        let rows = deck.topics.iter().map(|t| {
            let c = counts(deck, &t.id);
            let total: usize = c.iter().sum();
            let mut cells: Vec<(String, usize, Style)> = (c.iter().zip([6, 6, 6, 9]))
                .map(|(n, w)| (n.to_string(), level_w(w), Style::default()))
                .collect();
            cells.push((total.to_string(), 4, Style::default()));
            if let Some(due) = self.due {
                let (d, n) = due.get(&t.id).copied().unwrap_or_default();
                let style = if d > 0 { theme.accent } else { theme.dim };
                cells.push((d.to_string(), 4, style));
                cells.push((n.to_string(), 4, Style::default()));
            }
            Row::new([Cell::from(t.title.clone()), Cell::from(padded(cells))])
        });
        let table = Table::new(rows, widths)
            .header(header.style(theme.header))
            .row_highlight_style(theme.selected)
            .highlight_symbol("> ")
            .block(
                Block::bordered()
                    .title(Span::styled(" Topics ", theme.title))
                    .border_style(theme.border),
            );
        let mut ts = TableState::default().with_selected(Some(self.state.selected));
        StatefulWidget::render(table, top, buf, &mut ts);

        let Some(topic) = deck.topics.get(self.state.selected) else {
            return;
        };
        if rest.height < 3 {
            return;
        }
        // The modes under the topic's summary, when there is room for both.
        let modes_h = if rest.height >= 11 { 8 } else { 0 };
        let [rest, modes] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(modes_h)]).areas(rest);
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
