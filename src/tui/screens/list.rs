//! A list of questions: one topic's, or every topic's when `/` is pressed on the topics
//! screen. `/` searches every field of the questions as you type (`content::search`, what
//! `kubedrill search` uses) and shows where each matched; `l` and `i` cycle level and
//! importance filters, `s` sorts by frequency. From 100 columns a preview of the selected
//! question sits beside the table.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, StatefulWidget, Table, TableState, Widget, Wrap};

use crate::content::{Deck, Importance, Level, Question, search};
use crate::tui::keymap::{Action, Context};
use crate::tui::line_edit::LineEdit;
use crate::tui::settings::Settings;
use crate::tui::text;

use super::card::CardState;
use super::stack::Screen;
use super::{Ctx, Nav, step};

/// From this width the list shows a preview of the selected question.
pub const PREVIEW_FROM: u16 = 100;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListState {
    /// The topic listed; `None` lists every topic (the search from the topics screen).
    pub topic: Option<String>,
    pub query: LineEdit,
    /// Typing into the search field.
    pub searching: bool,
    pub level: Option<Level>,
    pub importance: Option<Importance>,
    pub by_frequency: bool,
    /// Index into [`ListState::visible`].
    pub selected: usize,
}

fn cycle<T: Copy + PartialEq>(all: &[T], cur: Option<T>) -> Option<T> {
    match cur {
        None => all.first().copied(),
        Some(v) => {
            let i = all.iter().position(|x| *x == v).unwrap_or(0);
            all.get(i + 1).copied()
        }
    }
}

impl ListState {
    pub fn new(topic: &str) -> Self {
        ListState {
            topic: Some(topic.to_string()),
            ..Default::default()
        }
    }

    /// Every question of every topic, with the search box open.
    pub fn search_all() -> Self {
        ListState {
            topic: None,
            searching: true,
            ..Default::default()
        }
    }

    /// The topic's title, or what an all-topics list is called.
    pub fn title(&self, deck: &Deck) -> String {
        match &self.topic {
            None => "all topics".into(),
            Some(t) => deck
                .topic(t)
                .map_or_else(|| t.clone(), |t| t.title.to_string()),
        }
    }

    pub fn context(&self) -> Context {
        if self.searching {
            Context::Search
        } else {
            Context::List
        }
    }

    fn matches(&self, q: &Question) -> bool {
        if self.level.is_some_and(|l| l != q.level) {
            return false;
        }
        if self.importance.is_some_and(|i| i != q.importance) {
            return false;
        }
        if self.query.text().trim().is_empty() {
            return true;
        }
        // Every field of the question, as `kubedrill search` looks.
        search::matches(q, self.query.text()).is_some()
    }

    /// The questions shown, filtered and sorted.
    pub fn visible<'a>(&self, deck: &'a Deck) -> Vec<&'a Question> {
        let mut v: Vec<&Question> = deck
            .questions
            .iter()
            .filter(|q| self.topic.as_ref().is_none_or(|t| q.topic == *t) && self.matches(q))
            .collect();
        if self.by_frequency {
            // Measured figures first, most asked first; then the rest by importance (a
            // question with no source has no figure to sort by).
            v.sort_by_key(|q| {
                (
                    q.frequency.is_none(),
                    std::cmp::Reverse(q.frequency),
                    q.importance,
                )
            });
        }
        v
    }

    pub fn selected_question<'a>(&self, deck: &'a Deck) -> Option<&'a Question> {
        self.visible(deck).get(self.selected).copied()
    }

    /// Applies a change to filters or sort, keeping the selected question when it stays
    /// visible.
    fn refilter(&mut self, deck: &Deck, change: impl FnOnce(&mut Self)) {
        let prev = self.selected_question(deck).map(|q| q.id.clone());
        change(self);
        let vis = self.visible(deck);
        self.selected = prev
            .and_then(|id| vis.iter().position(|q| q.id == id))
            .unwrap_or(0);
    }

    pub fn type_char(&mut self, c: char, deck: &Deck) {
        self.refilter(deck, |s| s.query.insert(c));
    }

    /// Pasted text searches as typed text would, its line breaks made spaces, in one go.
    pub fn paste(&mut self, text: &str, deck: &Deck) {
        let line: String = text::one_line(text).collect();
        self.refilter(deck, |s| s.query.insert_str(&line));
    }

    /// A search or a filter narrows the list.
    pub fn is_filtered(&self) -> bool {
        !self.query.is_empty() || self.level.is_some() || self.importance.is_some()
    }

    pub fn clear_filters(&mut self, deck: &Deck) {
        self.refilter(deck, |s| {
            s.query.clear();
            s.level = None;
            s.importance = None;
        });
    }

    pub fn handle(&mut self, action: Action, deck: &Deck, settings: &Settings, page: usize) -> Nav {
        let n = self.visible(deck).len();
        let page = page.max(1) as isize;
        match action {
            Action::Up => self.selected = step(self.selected, n, -1),
            Action::Down => self.selected = step(self.selected, n, 1),
            Action::PageUp => self.selected = step(self.selected, n, -page),
            Action::PageDown => self.selected = step(self.selected, n, page),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = n.saturating_sub(1),
            Action::Open => {
                return match self.selected_question(deck) {
                    Some(q) => Nav::Push(Screen::Card(CardState::new(&q.id, settings.level))),
                    None => Nav::Status("no question selected".into()),
                };
            }
            Action::Search => self.searching = true,
            Action::SearchAccept => self.searching = false,
            Action::SearchCancel => {
                self.refilter(deck, |s| {
                    s.query.clear();
                    s.searching = false;
                });
            }
            Action::EditText(e) => self.refilter(deck, |s| {
                s.query.apply(e);
            }),
            Action::CycleLevel => self.refilter(deck, |s| s.level = cycle(Level::ALL, s.level)),
            Action::CycleImportance => self.refilter(deck, |s| {
                s.importance = cycle(Importance::ALL, s.importance)
            }),
            Action::ToggleSort => self.refilter(deck, |s| s.by_frequency = !s.by_frequency),
            _ => {}
        }
        Nav::Stay
    }
}

/// The filter line, the table and, from [`PREVIEW_FROM`] columns, the preview.
pub fn areas(area: Rect) -> (Rect, Rect, Option<Rect>) {
    let [filters, rest] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
    if area.width < PREVIEW_FROM {
        return (filters, rest, None);
    }
    let [table, preview] =
        Layout::horizontal([Constraint::Fill(3), Constraint::Fill(2)]).areas(rest);
    (filters, table, Some(preview))
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a ListState,
}

impl View<'_> {
    fn filter_line(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let st = self.state;
        let any = |o: Option<&str>| o.unwrap_or("any").to_string();
        let mut spans = vec![Span::styled("/", theme.key), Span::raw(" ")];
        if st.searching {
            spans.extend(st.query.spans(theme.accent, theme.selected));
        } else if st.query.is_empty() {
            spans.push(Span::raw("search"));
        } else {
            spans.push(Span::styled(st.query.text().to_string(), theme.accent));
        }
        spans.extend([
            Span::raw("  "),
            Span::styled("l", theme.key),
            Span::raw(format!(" level: {}  ", any(st.level.map(|l| l.as_str())))),
            Span::styled("i", theme.key),
            Span::raw(format!(
                " importance: {}  ",
                any(st.importance.map(|i| i.as_str()))
            )),
            Span::styled("s", theme.key),
            Span::raw(if st.by_frequency {
                " sort: frequency"
            } else {
                " sort: file order"
            }),
        ]);
        Paragraph::new(Line::from(spans)).render(area, buf);
    }

    /// The selected question at a glance: its prompt, where it sits, and why it matched.
    fn preview(&self, q: &Question, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let deck = self.ctx.deck;
        let block = Block::bordered()
            .title(Span::styled(" preview ", theme.title))
            .padding(ratatui::widgets::Padding::horizontal(1))
            .border_style(theme.border);
        let inner = block.inner(area);
        block.render(area, buf);
        let topic = deck
            .topic(&q.topic)
            .map_or(q.topic.as_str(), |t| t.title.as_str());
        let mut facts = vec![q.level.to_string(), q.importance.to_string()];
        if let Some((n, of)) = self.ctx.demo_progress(&q.id) {
            facts.push(format!("demo challenges {n}/{of}"));
        }
        let mut lines = vec![
            Line::styled(q.id.clone(), theme.heading),
            Line::styled(topic.to_string(), theme.dim),
            Line::styled(facts.join(" · "), theme.dim),
            Line::raw(""),
        ];
        lines.extend(text::markdown(&q.prompt, theme));
        if let Some(hit) = search::matches(q, self.state.query.text()) {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!("matched in {}", hit.field),
                theme.heading,
            ));
            lines.push(Line::styled(hit.snippet, theme.accent));
        }
        // A figure only with who measured it.
        if let (Some(f), Some(source)) = (q.frequency, &q.frequency_source) {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!("asked in {f}% (source: {source})"),
                theme.dim,
            ));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let deck = self.ctx.deck;
        let st = self.state;
        let vis = st.visible(deck);
        let total = match &st.topic {
            Some(t) => deck.questions_in(t).count(),
            None => deck.questions.len(),
        };
        let (filters, table_area, preview) = areas(area);
        self.filter_line(filters, buf);

        let block = Block::bordered()
            .title(Span::styled(format!(" {} ", st.title(deck)), theme.title))
            .title_bottom(Span::styled(
                format!(" {} of {} questions ", vis.len(), total),
                theme.dim,
            ))
            .border_style(theme.border);
        if vis.is_empty() {
            let inner = block.inner(table_area);
            block.render(table_area, buf);
            Paragraph::new("No question matches. Esc clears the search and the filters.")
                .style(theme.dim)
                .wrap(Wrap { trim: true })
                .render(inner, buf);
            return;
        }
        let searching = !st.query.text().trim().is_empty();
        // Narrow tables keep the id, the level and the text; importance, frequency and the
        // demo's progress move to the preview (or stay off at 80 columns).
        let wide = table_area.width >= 110;
        let last = if searching { "match" } else { "prompt" };
        let header = if wide {
            Row::new(vec!["id", "level", "importance", "freq", "demo", last])
        } else {
            Row::new(vec!["id", "level", last])
        }
        .style(theme.header);
        let rows = vis.iter().map(|q| {
            let text = if searching {
                search::matches(q, st.query.text()).map_or_else(String::new, |h| {
                    format!("{}: {}", h.field, h.near_match(12))
                })
            } else {
                text::flat(&q.prompt)
            };
            let mut cells = vec![q.id.to_string(), q.level.to_string()];
            if wide {
                cells.push(q.importance.to_string());
                cells.push(q.frequency.map_or(String::new(), |f| format!("{f:>3}%")));
                cells.push(
                    self.ctx
                        .demo_progress(&q.id)
                        .map_or(String::new(), |(n, of)| format!("{n}/{of}")),
                );
            }
            cells.push(text);
            Row::new(cells)
        });
        let id_cap = (table_area.width / 3).clamp(8, 34) as usize;
        let id_w = vis
            .iter()
            .map(|q| q.id.len())
            .max()
            .unwrap_or(2)
            .clamp(2, id_cap) as u16;
        let widths: Vec<Constraint> = if wide {
            vec![
                Constraint::Length(id_w),
                Constraint::Length(9),
                Constraint::Length(10),
                Constraint::Length(4),
                Constraint::Length(4),
                Constraint::Fill(1),
            ]
        } else {
            vec![
                Constraint::Length(id_w),
                Constraint::Length(9),
                Constraint::Fill(1),
            ]
        };
        let table = Table::new(rows, widths)
            .header(header)
            .row_highlight_style(theme.selected)
            .highlight_symbol("> ")
            .block(block);
        let mut ts = TableState::default().with_selected(Some(st.selected));
        StatefulWidget::render(table, table_area, buf, &mut ts);
        if let (Some(p), Some(q)) = (preview, vis.get(st.selected)) {
            self.preview(q, p, buf);
        }
    }
}
