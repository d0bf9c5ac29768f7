//! The questions of one topic: level, importance, frequency. `/` searches every field of
//! the questions as you type (`content::search`, what `kubedrill search` uses), `l` and `i` cycle level and importance filters, `s` sorts by frequency.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, StatefulWidget, Table, TableState, Widget};

use crate::content::{Deck, Importance, Level, Question};
use crate::tui::keymap::{Action, Context};
use crate::tui::settings::Settings;

use super::card::CardState;
use super::stack::Screen;
use super::{Ctx, Nav, step};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListState {
    pub topic: String,
    pub query: String,
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
            topic: topic.to_string(),
            ..Default::default()
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
        if self.query.is_empty() {
            return true;
        }
        // Every field of the question, as `kubedrill search` looks.
        crate::content::search::matches(q, &self.query).is_some()
    }

    /// The questions shown, filtered and sorted.
    pub fn visible<'a>(&self, deck: &'a Deck) -> Vec<&'a Question> {
        let mut v: Vec<&Question> = deck
            .questions
            .iter()
            .filter(|q| q.topic == self.topic && self.matches(q))
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
        self.refilter(deck, |s| s.query.push(c));
    }

    /// Readline's Ctrl-U (clear the line) and Ctrl-W (delete the word before the cursor,
    /// and the spaces after it).
    fn kill(&mut self, whole: bool, deck: &Deck) {
        self.refilter(deck, |s| {
            if whole {
                s.query.clear();
            } else {
                let kept = s
                    .query
                    .trim_end()
                    .trim_end_matches(|c: char| !c.is_whitespace());
                s.query.truncate(kept.len());
            }
        });
    }

    /// Pasted text searches as typed text would, its line breaks made spaces, in one go.
    pub fn paste(&mut self, text: &str, deck: &Deck) {
        self.refilter(deck, |s| s.query.extend(crate::tui::text::one_line(text)));
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
            Action::SearchDelete => self.refilter(deck, |s| {
                s.query.pop();
            }),
            Action::SearchDeleteWord => self.kill(false, deck),
            Action::SearchClearLine => self.kill(true, deck),
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

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a ListState,
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let deck = self.ctx.deck;
        let st = self.state;
        let vis = st.visible(deck);
        let total = deck.questions_in(&st.topic).count();
        let title = deck
            .topic(&st.topic)
            .map(|t| t.title.as_str())
            .unwrap_or(st.topic.as_str());

        let [filters, table_area] =
            Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(area);
        let any = |o: Option<&str>| o.unwrap_or("any").to_string();
        let mut spans = vec![
            Span::styled("l", theme.key),
            Span::raw(format!(" level: {}  ", any(st.level.map(|l| l.as_str())))),
            Span::styled("i", theme.key),
            Span::raw(format!(
                " importance: {}  ",
                any(st.importance.map(|i| i.as_str()))
            )),
            Span::styled("s", theme.key),
            Span::raw(if st.by_frequency {
                " sort: frequency  "
            } else {
                " sort: file order  "
            }),
            Span::styled("/", theme.key),
        ];
        if st.searching {
            spans.push(Span::styled(format!(" {}_", st.query), theme.accent));
        } else if st.query.is_empty() {
            spans.push(Span::raw(" search"));
        } else {
            spans.push(Span::styled(format!(" {}", st.query), theme.accent));
        }
        Paragraph::new(Line::from(spans)).render(filters, buf);

        let block = Block::bordered()
            .title(Span::styled(format!(" {title} "), theme.title))
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
                .render(inner, buf);
            return;
        }
        let header =
            Row::new(["id", "level", "importance", "freq", "demo", "prompt"]).style(theme.header);
        let rows = vis.iter().map(|q| {
            Row::new([
                q.id.clone(),
                q.level.to_string(),
                q.importance.to_string(),
                q.frequency.map_or(String::new(), |f| format!("{f:>3}%")),
                self.ctx
                    .demo_progress(&q.id)
                    .map_or(String::new(), |(n, of)| format!("{n}/{of}")),
                q.prompt.clone(),
            ])
        });
        let id_w = vis
            .iter()
            .map(|q| q.id.len())
            .max()
            .unwrap_or(2)
            .clamp(2, 34) as u16;
        let table = Table::new(
            rows,
            [
                Constraint::Length(id_w),
                Constraint::Length(9),
                Constraint::Length(12),
                Constraint::Length(4),
                Constraint::Length(4),
                Constraint::Fill(1),
            ],
        )
        .header(header)
        .row_highlight_style(theme.selected)
        .highlight_symbol("> ")
        .block(block);
        let mut ts = TableState::default().with_selected(Some(st.selected));
        StatefulWidget::render(table, table_area, buf, &mut ts);
    }
}
