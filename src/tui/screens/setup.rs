//! The options chosen before a mock interview or a quiz: one form, two sets of rows.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, StatefulWidget, Table, TableState, Widget, Wrap};

use crate::content::{Deck, Level};
use crate::study::mock::{MockSetup, Strictness};
use crate::study::quiz::{QuizSetup, RoundKind};
use crate::tui::keymap::{Action, Context};

use super::{Ctx, step};

/// Questions a mock can ask, and items per quiz round.
pub const MOCK_QUESTIONS: std::ops::RangeInclusive<usize> = 1..=10;
pub const QUIZ_ITEMS: std::ops::RangeInclusive<usize> = 3..=10;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupKind {
    Mock(MockSetup),
    Quiz(QuizSetup),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupState {
    pub kind: SetupKind,
    pub selected: usize,
}

/// Steps through `items` from `current`, wrapping.
fn cycle<T: PartialEq + Clone>(items: &[T], current: &T, forward: bool) -> T {
    let i = items.iter().position(|x| x == current).unwrap_or(0);
    let n = items.len().max(1);
    let j = if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    };
    items.get(j).cloned().unwrap_or_else(|| current.clone())
}

fn bump(n: usize, range: &std::ops::RangeInclusive<usize>, forward: bool) -> usize {
    if forward {
        (n + 1).min(*range.end())
    } else {
        n.saturating_sub(1).max(*range.start())
    }
}

/// `None` (every topic) then each topic id.
fn topics(deck: &Deck) -> Vec<Option<String>> {
    std::iter::once(None)
        .chain(deck.topics.iter().map(|t| Some(t.id.to_string())))
        .collect()
}

/// The quiz's rounds choices: all three, or one kind alone.
fn round_choices() -> Vec<Vec<RoundKind>> {
    std::iter::once(RoundKind::ALL.to_vec())
        .chain(RoundKind::ALL.iter().map(|k| vec![*k]))
        .collect()
}

impl SetupState {
    pub fn mock(setup: MockSetup) -> Self {
        SetupState {
            kind: SetupKind::Mock(setup),
            selected: 0,
        }
    }

    pub fn quiz(setup: QuizSetup) -> Self {
        SetupState {
            kind: SetupKind::Quiz(setup),
            selected: 0,
        }
    }

    pub fn title(&self) -> &'static str {
        match self.kind {
            SetupKind::Mock(_) => "mock interview",
            SetupKind::Quiz(_) => "quiz",
        }
    }

    fn rows(&self) -> usize {
        4
    }

    /// Moves or changes an option; returns true on `Advance` (start).
    pub fn handle(&mut self, action: Action, deck: &Deck) -> bool {
        let fwd = action == Action::NextValue;
        match action {
            Action::Up => self.selected = step(self.selected, self.rows(), -1),
            Action::Down => self.selected = step(self.selected, self.rows(), 1),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = self.rows().saturating_sub(1),
            Action::Advance => return true,
            Action::PrevValue | Action::NextValue => match &mut self.kind {
                SetupKind::Mock(m) => match self.selected {
                    0 => m.questions = bump(m.questions, &MOCK_QUESTIONS, fwd),
                    1 => m.level = cycle(Level::ALL, &m.level, fwd),
                    2 => m.topic = cycle(&topics(deck), &m.topic, fwd),
                    _ => {
                        let all = [
                            Strictness::Lenient,
                            Strictness::Standard,
                            Strictness::Strict,
                        ];
                        m.strictness = cycle(&all, &m.strictness, fwd);
                    }
                },
                SetupKind::Quiz(q) => match self.selected {
                    0 => q.rounds = cycle(&round_choices(), &q.rounds, fwd),
                    1 => q.per_round = bump(q.per_round, &QUIZ_ITEMS, fwd),
                    2 => q.topic = cycle(&topics(deck), &q.topic, fwd),
                    _ => {
                        let levels: Vec<Option<Level>> = std::iter::once(None)
                            .chain(Level::ALL.iter().copied().map(Some))
                            .collect();
                        q.level = cycle(&levels, &q.level, fwd);
                    }
                },
            },
            _ => {}
        }
        false
    }

    /// (label, value, what it means) per row.
    fn table(&self, deck: &Deck) -> Vec<(&'static str, String, String)> {
        let topic = |t: &Option<String>| match t {
            None => "all topics".to_string(),
            Some(id) => deck
                .topic(id)
                .map_or_else(|| id.clone(), |t| t.title.to_string()),
        };
        match &self.kind {
            SetupKind::Mock(m) => {
                vec![
                (
                    "Questions",
                    m.questions.to_string(),
                    "Drawn without repeats, weighted by level, importance and, where measured, frequency.".into(),
                ),
                (
                    "Target level",
                    m.level.to_string(),
                    "Mostly questions at this level and below; the rubric shows its deeper tier."
                        .into(),
                ),
                ("Topic", topic(&m.topic), "Which questions can be drawn.".into()),
                (
                    "Strictness",
                    m.strictness.to_string(),
                    if m.strictness.overtime_step_penalty() == 0 {
                        format!(
                            "Overtime costs nothing; a question passes at {}.",
                            m.strictness.pass_mark()
                        )
                    } else {
                        format!(
                            "Overtime costs {} points per started quarter of the budget (at most {}); \
                             a question passes at {}.",
                            m.strictness.overtime_step_penalty(),
                            m.strictness.overtime_max_penalty(),
                            m.strictness.pass_mark()
                        )
                    },
                ),
            ]
            }
            SetupKind::Quiz(q) => vec![
                (
                    "Rounds",
                    if q.rounds.len() == RoundKind::ALL.len() {
                        "all three".to_string()
                    } else {
                        q.rounds
                            .iter()
                            .map(|r| r.title())
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    "Pitfall or fact; which question is this answer from; follow-up recall.".into(),
                ),
                (
                    "Items per round",
                    q.per_round.to_string(),
                    "Fewer when the content has fewer.".into(),
                ),
                (
                    "Topic",
                    topic(&q.topic),
                    "Which questions the items come from.".into(),
                ),
                (
                    "Level",
                    q.level
                        .map_or("every level".to_string(), |l| format!("{l} and below")),
                    "Questions at or below this level.".into(),
                ),
            ],
        }
    }
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a SetupState,
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let rows = self.state.table(self.ctx.deck);
        let [table_area, about] = Layout::vertical([
            Constraint::Length(rows.len() as u16 + 2),
            Constraint::Fill(1),
        ])
        .areas(area);
        let table = Table::new(
            rows.iter()
                .map(|(label, value, _)| Row::new([label.to_string(), format!("‹ {value} ›")])),
            [Constraint::Length(16), Constraint::Fill(1)],
        )
        .row_highlight_style(theme.selected)
        .highlight_symbol("> ")
        .block(
            Block::bordered()
                .title(Span::styled(
                    format!(" {} ", capitalized(self.state.title())),
                    theme.title,
                ))
                .border_style(theme.border),
        );
        let mut ts = TableState::default().with_selected(Some(self.state.selected));
        StatefulWidget::render(table, table_area, buf, &mut ts);

        let keys = self.ctx.keymap;
        let mut lines = vec![Line::from(
            rows.get(self.state.selected)
                .map(|r| r.2.clone())
                .unwrap_or_default(),
        )];
        lines.push(Line::default());
        let start = keys.keys_for(Context::Setup, &[Action::Advance]);
        let change = keys.keys_for(Context::Setup, &[Action::PrevValue, Action::NextValue]);
        let what = match &self.state.kind {
            SetupKind::Mock(m) => format!(
                "{start}: begin. The interviewer asks one question at a time; the clock starts \
                 when you start answering. Seed {} (the same seed asks the same questions).",
                m.seed
            ),
            SetupKind::Quiz(q) => format!(
                "{start}: begin. Answers are checked at once, with the correction; a question \
                 you miss comes first in your next review. Seed {}.",
                q.seed
            ),
        };
        lines.push(Line::styled(what, theme.dim));
        lines.push(Line::styled(
            format!("{change}: change the value"),
            theme.dim,
        ));
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(about.inner(ratatui::layout::Margin::new(1, 0)), buf);
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
