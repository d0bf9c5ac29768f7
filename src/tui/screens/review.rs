//! A study session on the card screen: the card, Space to show the answer (every section,
//! key points, basics and the solid answer first), then grades on 1-4 with the interval each would give
//! (Space or Enter = Good, as in Anki); `u` undoes the last grade, `b` buries the card for
//! today. Each grade is in the store before the next card shows.
//!
//! `t` opens an answer box before the reveal. An answer typed there is checked after the
//! reveal: the learner ticks the key points it covered and the pitfalls it fell into,
//! Enter takes the grade that suggests, and the answer is stored with the grade and shown
//! the next time the card comes up.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::content::{Deck, Level};
use crate::study::answer::AnswerCheck;
// MAX_ANSWER: the longest answer the box takes, what the store accepts on import.
use crate::study::store::{MAX_ANSWER, TypedAnswerRecord};
use crate::study::time::Millis;
use crate::study::{Grade, Kind, Progress, Session};
use crate::tui::keymap::{Action, Context};
use crate::tui::line_edit::LineEdit;
use crate::tui::theme::Theme;

use super::answer::{self, AnswerBox, Checklist};
use super::card::{self, CardState, Section};
use super::{Ctx, Nav, step};

/// The sections that make up "the answer" in a review.
const ANSWER: [Section; 3] = [Section::Keypoints, Section::Basics, Section::Solid];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewState {
    pub session: Session,
    /// The card showing, as the card screen shows it.
    pub card: Option<CardState>,
    pub answer_shown: bool,
    /// When the card showing appeared, for the time taken.
    pub shown_at: Millis,
    level: Level,
    /// The answer box; `typing` while it has the focus.
    pub answer: Option<LineEdit>,
    pub typing: bool,
    /// After a reveal that followed a typed answer: what the learner ticks, and where.
    pub check: Option<AnswerCheck>,
    pub check_cursor: usize,
    /// What was typed the last time this card was answered, shown with the check.
    pub last: Option<TypedAnswerRecord>,
}

impl ReviewState {
    pub fn new(session: Session, level: Level, now: Millis) -> Self {
        let mut s = ReviewState {
            session,
            card: None,
            answer_shown: false,
            shown_at: now,
            level,
            answer: None,
            typing: false,
            check: None,
            check_cursor: 0,
            last: None,
        };
        s.sync(now);
        s
    }

    pub fn context(&self) -> Context {
        if self.typing {
            Context::Answer
        } else if self.check.is_some() && self.answer_shown {
            Context::Check
        } else {
            Context::Review
        }
    }

    pub fn type_char(&mut self, c: char) {
        if let Some(a) = self.answer.as_mut().filter(|a| a.text().len() < MAX_ANSWER) {
            a.insert(c);
        }
    }

    /// Pasted text goes into the answer as it is, line breaks kept; never read as keys.
    pub fn paste(&mut self, text: &str) {
        if let Some(a) = self.answer.as_mut() {
            let text = text.replace("\r\n", "\n");
            let room = MAX_ANSWER.saturating_sub(a.text().len());
            let mut kept = String::new();
            for c in text.chars().filter(|&c| c == '\n' || !c.is_control()) {
                if kept.len() + c.len_utf8() > room {
                    break;
                }
                kept.push(c);
            }
            a.insert_str(&kept);
        }
    }

    pub fn title(&self, deck: &Deck) -> String {
        match &self.session.kind {
            Kind::Due { topic: None } => "review: all topics".into(),
            Kind::Due { topic: Some(t) } => format!(
                "review: {}",
                deck.topic(t).map_or(t.as_str(), |t| t.title.as_str())
            ),
            Kind::Cram { reschedule: false } => "cram (schedule untouched)".into(),
            Kind::Cram { reschedule: true } => "cram (schedule moves)".into(),
        }
    }

    /// Shows the session's current card, fresh, if it changed.
    fn sync(&mut self, now: Millis) {
        let cur = self.session.current().map(str::to_string);
        if self.card.as_ref().map(|c| &c.id) != cur.as_ref() {
            self.card = cur.map(|id| CardState::new(&id, self.level));
            self.answer_shown = false;
            self.shown_at = now;
            self.answer = None;
            self.typing = false;
            self.check = None;
            self.check_cursor = 0;
            self.last = None;
        }
    }

    /// The whole back of the card, as Anki shows it, so every section is there to read
    /// and Space is free to mean Good. A typed answer becomes a checklist to tick, with
    /// what was typed last time beside it.
    fn show_answer(&mut self, deck: &Deck, progress: &Progress) {
        self.typing = false;
        if let Some(c) = &mut self.card {
            let q = deck.question(&c.id);
            for s in Section::ALL {
                c.revealed[s.index()] = ANSWER.contains(&s) || q.is_some_and(|q| s.present(q));
            }
            let typed = self.answer.as_ref().filter(|a| !a.text().trim().is_empty());
            if let (Some(q), Some(a)) = (q, typed) {
                self.check = Some(AnswerCheck::new(q, a.text().trim_end()));
                self.check_cursor = 0;
                self.last = progress.store.last_typed_answer(&q.id).ok().flatten();
            }
        }
        self.answer_shown = true;
    }

    fn grade(&mut self, grade: Grade, deck: &Deck, progress: &mut Progress, now: Millis) -> Nav {
        let Some(id) = self.session.current().map(str::to_string) else {
            return Nav::Status("nothing left in this session".into());
        };
        if !self.answer_shown {
            return Nav::Status("show the answer first (Space)".into());
        }
        let took = (now - self.shown_at).max(0);
        let typed = self
            .check
            .as_ref()
            .zip(deck.question(&id))
            .map(|(c, q)| c.record(q, now, grade));
        match self.session.grade(progress, grade, now, took) {
            Ok(card) => {
                // Force a fresh card view even when the same card comes straight back.
                self.card = None;
                self.sync(now);
                let mut saved = if progress.store.is_saving() {
                    "saved"
                } else {
                    "not saved"
                };
                if let Some(t) = typed
                    && progress.store.record_typed_answer(&t).is_err()
                {
                    saved = "saved; your typed answer was NOT saved";
                }
                // Cram that leaves the schedule alone logs the answer as practice: no
                // interval to announce, and the card is due when it was.
                if self.session.kind == (Kind::Cram { reschedule: false }) {
                    let again = match grade {
                        Grade::Again => "; it comes back later in this cram",
                        _ => "",
                    };
                    return Nav::Status(format!(
                        "{id}: {} (practice {saved}; the schedule is untouched{again})",
                        grade.label()
                    ));
                }
                let when = crate::study::schedule::interval_label(card.due - now);
                Nav::Status(format!("{id}: {} ({saved}), next in {when}", grade.label()))
            }
            Err(e) => Nav::Status(format!("the grade was NOT saved: {e}")),
        }
    }

    pub fn handle(
        &mut self,
        action: Action,
        deck: &Deck,
        progress: &mut Progress,
        now: Millis,
        theme: &Theme,
        body: Rect,
    ) -> Nav {
        match action {
            Action::TypeAnswer if !self.answer_shown && self.card.is_some() => {
                self.answer.get_or_insert_with(LineEdit::default);
                self.typing = true;
                Nav::Stay
            }
            Action::EditText(e) => {
                if let Some(a) = self.answer.as_mut() {
                    a.apply(e);
                }
                Nav::Stay
            }
            Action::AnswerCancel => {
                self.typing = false;
                Nav::Stay
            }
            Action::AnswerDone | Action::Reveal if !self.answer_shown => {
                self.show_answer(deck, progress);
                Nav::Stay
            }
            Action::Reveal => self.grade(Grade::Good, deck, progress, now),
            Action::Grade(n) => match Grade::from_number(n) {
                Some(g) => self.grade(g, deck, progress, now),
                None => Nav::Stay,
            },
            Action::TakeSuggested => {
                let suggested = self
                    .check
                    .as_ref()
                    .zip(self.card.as_ref().and_then(|c| deck.question(&c.id)));
                match suggested {
                    Some((c, q)) => {
                        let g = c.suggest(q).0;
                        self.grade(g, deck, progress, now)
                    }
                    None => Nav::Stay,
                }
            }
            Action::Up | Action::Down if self.context() == Context::Check => {
                let n = self.check.as_ref().map_or(0, AnswerCheck::rows);
                let d = if action == Action::Up { -1 } else { 1 };
                self.check_cursor = step(self.check_cursor, n, d);
                Nav::Stay
            }
            Action::Top | Action::Bottom if self.context() == Context::Check => {
                let n = self.check.as_ref().map_or(0, AnswerCheck::rows);
                self.check_cursor = if action == Action::Top {
                    0
                } else {
                    n.saturating_sub(1)
                };
                Nav::Stay
            }
            Action::Toggle => {
                if let Some(c) = self.check.as_mut() {
                    c.toggle(self.check_cursor);
                }
                Nav::Stay
            }
            Action::Undo => match self.session.undo(progress, now) {
                Ok(Some(id)) => {
                    self.card = None;
                    self.sync(now);
                    self.show_answer(deck, progress);
                    Nav::Status(format!("undid the last grade of {id}"))
                }
                Ok(None) => Nav::Status("nothing to undo in this session".into()),
                Err(e) => Nav::Status(format!("undo failed: {e}")),
            },
            Action::Bury => match self.session.bury(progress, now) {
                Ok(Some(id)) => {
                    self.sync(now);
                    Nav::Status(format!("buried {id} until tomorrow"))
                }
                Ok(None) => Nav::Status("nothing to bury".into()),
                Err(e) => Nav::Status(format!("bury failed: {e}")),
            },
            other => match self
                .card
                .as_mut()
                .and_then(|c| deck.question(&c.id).map(|q| (c, q)))
            {
                Some((c, q)) => {
                    let nav = c.handle(other, q, theme, body.width as usize, body.height as usize);
                    if ANSWER.iter().all(|s| c.is_revealed(*s)) {
                        self.answer_shown = true;
                    }
                    nav
                }
                None => Nav::Stay,
            },
        }
    }
}

/// Where the review draws: its head line, the card, the answer box or checklist when
/// there is one, and the grade line.
struct Areas {
    head: Rect,
    card: Rect,
    side: Option<Rect>,
    grades: Rect,
}

fn areas(area: Rect, st: &ReviewState) -> Areas {
    let checking = st.check.is_some() && st.answer_shown;
    let [head, body, grades] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        // The suggested grade above the grade keys while checking.
        Constraint::Length(if checking { 2 } else { 1 }),
    ])
    .areas(area);
    let (card, side) = if checking {
        // The checklist beside the card from 100 columns, above it below that.
        let [side, card] = if area.width >= 100 {
            Layout::horizontal([Constraint::Percentage(45), Constraint::Fill(1)]).areas(body)
        } else {
            Layout::vertical([Constraint::Percentage(50), Constraint::Fill(1)]).areas(body)
        };
        (card, Some(side))
    } else if st.answer.is_some() && !st.answer_shown {
        let h = (body.height / 3).clamp(4, 10);
        let [card, side] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(h)]).areas(body);
        (card, Some(side))
    } else {
        (body, None)
    };
    Areas {
        head,
        card,
        side,
        grades,
    }
}

/// The card's body area on this screen, for scrolling.
pub fn body_area(area: Rect, st: &ReviewState) -> Rect {
    card::body_area(areas(area, st).card)
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a ReviewState,
    pub progress: Option<&'a Progress>,
    pub now: Millis,
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let st = self.state;
        let Areas {
            head,
            card: card_area,
            side,
            grades,
        } = areas(area, st);
        let counts = self
            .progress
            .map(|p| st.session.remaining(p))
            .unwrap_or_default();
        let saving = self.progress.is_some_and(|p| p.store.is_saving());
        let mut spans = vec![
            Span::styled(st.title(self.ctx.deck), theme.accent),
            Span::styled(
                format!(
                    "  new {} · learning {} · due {} · graded {}",
                    counts.new, counts.learning, counts.review, st.session.graded
                ),
                theme.dim,
            ),
        ];
        if !saving {
            spans.push(Span::styled("  NOT SAVING", theme.warning));
        }
        Paragraph::new(Line::from(spans)).render(head, buf);

        let Some(card) = &st.card else {
            let msg = if st.session.graded == 0 {
                "Nothing to study here now: no cards are due and today's new cards are done. \
                 `c` on a question list crams any set."
            } else {
                "Session done: every card graded. q goes back; the stats screen (s on the \
                 topics screen) shows your progress."
            };
            Paragraph::new(msg)
                .style(theme.dim)
                .wrap(Wrap { trim: true })
                .render(card_area, buf);
            return;
        };
        (&card::View {
            ctx: self.ctx,
            state: card,
        })
            .render(card_area, buf);
        let question = self.ctx.deck.question(&card.id);
        match (side, &st.check, &st.answer, question) {
            (Some(side), Some(check), _, Some(q)) if st.answer_shown => (&Checklist {
                theme,
                question: q,
                check,
                cursor: st.check_cursor,
                last: st.last.as_ref(),
            })
                .render(side, buf),
            (Some(side), _, Some(answer), _) => (&AnswerBox {
                theme,
                answer,
                typing: st.typing,
            })
                .render(side, buf),
            _ => {}
        }

        let line = if st.typing {
            Line::from(vec![
                Span::styled(" Enter", theme.key),
                Span::raw(" show the answer and check yours  "),
                Span::styled("Esc", theme.key),
                Span::raw(" close the box"),
            ])
        } else if !st.answer_shown {
            Line::from(vec![
                Span::styled(" Space", theme.key),
                Span::raw(" show the answer  "),
                Span::styled("t", theme.key),
                Span::raw(" type your answer  "),
                Span::styled("b", theme.key),
                Span::raw(" bury  "),
                Span::styled("u", theme.key),
                Span::raw(" undo"),
            ])
        } else {
            // Cram that leaves the schedule alone has no intervals to show.
            let previews = self
                .progress
                .filter(|_| st.session.kind != Kind::Cram { reschedule: false })
                .and_then(|p| st.session.preview(p, self.now).ok());
            let mut spans = Vec::new();
            for g in Grade::ALL {
                let when = previews
                    .as_ref()
                    .map(|p| p[usize::from(g.number() - 1)].label())
                    .unwrap_or_default();
                spans.push(Span::styled(format!(" {}", g.number()), theme.key));
                spans.push(Span::raw(format!(" {} {when} ", g.label())));
            }
            if st.check.is_none() {
                spans.push(Span::styled(" Space", theme.key));
                spans.push(Span::raw(" Good"));
            }
            Line::from(spans)
        };
        let suggestion = st
            .check
            .as_ref()
            .zip(self.ctx.deck.question(&card.id))
            .filter(|_| st.answer_shown)
            .map(|(c, q)| answer::suggestion(theme, q, c));
        Paragraph::new(suggestion.into_iter().chain([line]).collect::<Vec<_>>())
            .render(grades, buf);
    }
}
