//! A study session on the card screen: the card, Space to show the answer (every section,
//! key points, basics and the solid answer first), then grades on 1-4 with the interval each would give
//! (Space or Enter = Good, as in Anki); `u` undoes the last grade, `b` buries the card for
//! today. Each grade is in the store before the next card shows.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::content::{Deck, Level};
use crate::study::time::Millis;
use crate::study::{Grade, Kind, Progress, Session};
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

use super::card::{self, CardState, Section};
use super::{Ctx, Nav};

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
}

impl ReviewState {
    pub fn new(session: Session, level: Level, now: Millis) -> Self {
        let mut s = ReviewState {
            session,
            card: None,
            answer_shown: false,
            shown_at: now,
            level,
        };
        s.sync(now);
        s
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
        }
    }

    /// The whole back of the card, as Anki shows it, so every section is there to read
    /// and Space is free to mean Good.
    fn show_answer(&mut self, deck: &Deck) {
        if let Some(c) = &mut self.card {
            let q = deck.question(&c.id);
            for s in Section::ALL {
                c.revealed[s.index()] = ANSWER.contains(&s) || q.is_some_and(|q| s.present(q));
            }
        }
        self.answer_shown = true;
    }

    fn grade(&mut self, grade: Grade, progress: &mut Progress, now: Millis) -> Nav {
        let Some(id) = self.session.current().map(str::to_string) else {
            return Nav::Status("nothing left in this session".into());
        };
        if !self.answer_shown {
            return Nav::Status("show the answer first (Space)".into());
        }
        let took = (now - self.shown_at).max(0);
        match self.session.grade(progress, grade, now, took) {
            Ok(card) => {
                // Force a fresh card view even when the same card comes straight back.
                self.card = None;
                self.sync(now);
                let saved = if progress.store.is_saving() {
                    "saved"
                } else {
                    "not saved"
                };
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
            Action::Reveal if !self.answer_shown => {
                self.show_answer(deck);
                Nav::Stay
            }
            Action::Reveal => self.grade(Grade::Good, progress, now),
            Action::Grade(n) => match Grade::from_number(n) {
                Some(g) => self.grade(g, progress, now),
                None => Nav::Stay,
            },
            Action::Undo => match self.session.undo(progress, now) {
                Ok(Some(id)) => {
                    self.card = None;
                    self.sync(now);
                    self.show_answer(deck);
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

/// The card's body area on this screen, for scrolling.
pub fn body_area(area: Rect) -> Rect {
    let [_, card_area, _] = split(area);
    card::body_area(card_area)
}

fn split(area: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area)
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
        let [head, card_area, grades] = split(area);
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

        let line = if !st.answer_shown {
            Line::from(vec![
                Span::styled(" Space", theme.key),
                Span::raw(" show the answer  "),
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
            spans.push(Span::styled(" Space", theme.key));
            spans.push(Span::raw(" Good"));
            Line::from(spans)
        };
        Paragraph::new(line).render(grades, buf);
    }
}
