//! A study session: which card comes next, grading it through the store, undo and bury.
//! Learning and relearning cards come back within the session when their step is due
//! (or, once nothing else is left, early, as Anki's learn-ahead does: steps are at most
//! minutes long).

use std::collections::{HashMap, VecDeque};

use crate::content::{Deck, Level};

use super::config::StudyConfig;
use super::schedule::{CardState, Grade, Phase, Preview, ScheduleError, Scheduler};
use super::store::{Mode, NewReview, Store, StoreError};
use super::time::{DAY_MS, Millis, day_of, next_day_start};

/// The store, the scheduler and the settings, as the app holds them.
#[derive(Debug)]
pub struct Progress {
    pub store: Store,
    pub scheduler: Scheduler,
    pub config: StudyConfig,
}

#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error("no card is showing")]
    NoCard,
}

impl Progress {
    pub fn new(store: Store, config: StudyConfig) -> Result<Progress, StudyError> {
        Ok(Progress {
            store,
            scheduler: Scheduler::new(config.desired_retention)?,
            config,
        })
    }

    /// The stored card, or a new one.
    pub fn card(&self, question_id: &str) -> Result<CardState, StudyError> {
        Ok(self
            .store
            .card(question_id)?
            .unwrap_or_else(|| CardState::new(question_id)))
    }

    /// Grades a card: schedules it, logs the grade and stores the new state, durable when
    /// this returns. Returns the review id and the card after the grade.
    pub fn grade(
        &mut self,
        question_id: &str,
        grade: Grade,
        now: Millis,
        took_ms: i64,
        mode: Mode,
    ) -> Result<(i64, CardState), StudyError> {
        let prev = self.card(question_id)?;
        let next = self.scheduler.apply(&prev, grade, now)?;
        let review = NewReview {
            question_id,
            grade,
            reviewed_at: now,
            took_ms,
            mode,
        };
        let id = self.store.record(&review, &prev, Some(&next))?;
        Ok((id, if mode.moves_schedule() { next } else { prev }))
    }
}

/// Per topic id: (cards due by the end of today, including learning steps and questions a
/// quiz put forward; questions never studied). Buried cards count in neither. For the
/// home screen, so one read of the cards.
pub fn due_by_topic<'d>(
    deck: &'d Deck,
    progress: &Progress,
    now: Millis,
) -> Result<HashMap<&'d str, (usize, usize)>, StudyError> {
    let cards = progress.store.cards()?;
    let flags = progress.store.flags()?;
    let end_of_day = next_day_start(now);
    let mut out: HashMap<&str, (usize, usize)> = HashMap::new();
    for q in &deck.questions {
        let e = out.entry(q.topic.as_str()).or_default();
        match cards.get(q.id.as_str()) {
            Some(c) if c.is_buried(now) => {}
            _ if flags.contains_key(q.id.as_str()) => e.0 += 1,
            None => e.1 += 1,
            Some(c) if c.phase == Phase::New => e.1 += 1,
            Some(c) if c.due < end_of_day => e.0 += 1,
            Some(_) => {}
        }
    }
    Ok(out)
}

/// What a session practises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Due cards and today's new cards, across topics or for one.
    Due { topic: Option<String> },
    /// A chosen set; `reschedule` says whether grades move the schedule.
    Cram { reschedule: bool },
}

/// Which questions a cram session takes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CramFilter {
    pub topic: Option<String>,
    pub level: Option<Level>,
    /// A topic's `roadmaps` tag.
    pub tag: Option<String>,
}

impl CramFilter {
    /// `topic x, level senior, tag y`, for messages.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = &self.topic {
            parts.push(format!("topic {t}"));
        }
        if let Some(l) = self.level {
            parts.push(format!("level {l}"));
        }
        if let Some(t) = &self.tag {
            parts.push(format!("tag {t}"));
        }
        if parts.is_empty() {
            "every question".into()
        } else {
            parts.join(", ")
        }
    }

    pub fn ids(&self, deck: &Deck) -> Vec<String> {
        deck.questions
            .iter()
            .filter(|q| self.topic.as_ref().is_none_or(|t| &q.topic == t))
            .filter(|q| self.level.is_none_or(|l| q.level == l))
            .filter(|q| {
                self.tag.as_ref().is_none_or(|tag| {
                    deck.topic(&q.topic)
                        .is_some_and(|t| t.roadmaps.iter().any(|r| r == tag))
                })
            })
            .map(|q| q.id.to_string())
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Queues {
    /// Cards to show once each: due reviews first, then new cards.
    main: VecDeque<String>,
    /// Cards in a learning step, with when they are due again.
    learning: Vec<(Millis, String)>,
    current: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Done {
    review_id: i64,
    /// The card before the grade, put back by undo.
    card: CardState,
    before: Queues,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub kind: Kind,
    q: Queues,
    /// Grades of this session, newest last, for undo.
    history: Vec<Done>,
    /// New cards already introduced today when the session started, plus this session's.
    pub new_today: u32,
    pub graded: u32,
}

/// Counts shown while studying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Remaining {
    pub new: usize,
    pub learning: usize,
    pub review: usize,
}

impl Session {
    /// Due cards (reviews due by the end of today, learning steps due now or soon) and
    /// new cards up to what is left of today's limit; buried cards skipped.
    pub fn due(
        deck: &Deck,
        progress: &Progress,
        topic: Option<&str>,
        now: Millis,
    ) -> Result<Session, StudyError> {
        let cards = progress.store.cards()?;
        let flags = progress.store.flags()?;
        let started = progress.store.new_cards_started(day_of(now) * DAY_MS)?;
        let in_scope =
            |id: &str| topic.is_none_or(|t| deck.question(id).is_some_and(|q| q.topic == t));
        Ok(Self::build(
            deck,
            &cards,
            Kind::Due {
                topic: topic.map(str::to_string),
            },
            &in_scope,
            now,
            progress.config.new_cards_per_day.saturating_sub(started),
            started,
            &flags,
        ))
    }

    /// `flagged`: questions a quiz put forward; they come first (oldest flag first), due
    /// or not, new or not, and do not use up new-card slots.
    #[allow(clippy::too_many_arguments)]
    fn build(
        deck: &Deck,
        cards: &HashMap<String, CardState>,
        kind: Kind,
        in_scope: &dyn Fn(&str) -> bool,
        now: Millis,
        new_slots: u32,
        started: u32,
        flagged: &HashMap<String, Millis>,
    ) -> Session {
        let end_of_day = next_day_start(now);
        let mut forward: Vec<(Millis, &str)> = Vec::new();
        let mut reviews: Vec<(Millis, &str)> = Vec::new();
        let mut learning = Vec::new();
        let mut new = Vec::new();
        // Removed questions keep their cards in the store but are not shown.
        for q in deck.questions.iter().filter(|q| in_scope(&q.id)) {
            let card = cards.get(q.id.as_str());
            if card.is_some_and(|c| c.is_buried(now)) {
                continue;
            }
            if let Some(at) = flagged.get(q.id.as_str()) {
                forward.push((*at, &q.id));
                continue;
            }
            match card {
                Some(c) if c.phase == Phase::Review => {
                    if c.due < end_of_day {
                        reviews.push((c.due, &q.id));
                    }
                }
                Some(c) if matches!(c.phase, Phase::Learning | Phase::Relearning) => {
                    if c.due < end_of_day {
                        learning.push((c.due, q.id.to_string()));
                    }
                }
                _ => new.push(q.id.to_string()),
            }
        }
        forward.sort();
        reviews.sort();
        let mut main: VecDeque<String> = forward
            .into_iter()
            .chain(reviews)
            .map(|(_, id)| id.to_string())
            .collect();
        let take = new.len().min(new_slots as usize);
        main.extend(new.into_iter().take(take));
        learning.sort();
        Session {
            kind,
            q: Queues {
                main,
                learning,
                current: None,
            },
            history: vec![],
            new_today: started,
            graded: 0,
        }
        .advanced(now)
    }

    /// Practise `ids` in order, due or not.
    pub fn cram(ids: Vec<String>, reschedule: bool, now: Millis) -> Session {
        Session {
            kind: Kind::Cram { reschedule },
            q: Queues {
                main: ids.into(),
                learning: vec![],
                current: None,
            },
            history: vec![],
            new_today: 0,
            graded: 0,
        }
        .advanced(now)
    }

    fn mode(&self) -> Mode {
        match self.kind {
            Kind::Due { .. } => Mode::Review,
            Kind::Cram { reschedule: false } => Mode::Cram,
            Kind::Cram { reschedule: true } => Mode::CramReschedule,
        }
    }

    fn advanced(mut self, now: Millis) -> Session {
        self.advance(now);
        self
    }

    /// Picks the next card: a learning step that is due, else the main queue, else the
    /// earliest learning step.
    fn advance(&mut self, now: Millis) {
        let q = &mut self.q;
        if q.current.is_some() {
            return;
        }
        q.learning.sort();
        let step_due = q.learning.first().is_some_and(|(due, _)| *due <= now);
        if !q.learning.is_empty() && (step_due || q.main.is_empty()) {
            q.current = Some(q.learning.remove(0).1);
            return;
        }
        q.current = q.main.pop_front();
    }

    /// The question showing, if any is left.
    pub fn current(&self) -> Option<&str> {
        self.q.current.as_deref()
    }

    pub fn remaining(&self, progress: &Progress) -> Remaining {
        let mut r = Remaining {
            learning: self.q.learning.len(),
            ..Default::default()
        };
        // One read of the cards, not one per queued card: this runs on every frame.
        let cards = progress.store.cards().unwrap_or_default();
        for id in self.q.main.iter().chain(self.q.current.iter()) {
            match cards.get(id).map(|c| c.phase) {
                None | Some(Phase::New) => r.new += 1,
                Some(Phase::Learning | Phase::Relearning) => r.learning += 1,
                Some(Phase::Review) => r.review += 1,
            }
        }
        r
    }

    /// What each grade would do to the card showing.
    pub fn preview(&self, progress: &Progress, now: Millis) -> Result<[Preview; 4], StudyError> {
        let id = self.current().ok_or(StudyError::NoCard)?;
        let card = progress.card(id)?;
        Ok(progress.scheduler.preview(&card, now)?)
    }

    /// Grades the card showing, durable on return, and moves on. A card still in a
    /// learning step today comes back in this session.
    pub fn grade(
        &mut self,
        progress: &mut Progress,
        grade: Grade,
        now: Millis,
        took_ms: i64,
    ) -> Result<CardState, StudyError> {
        let id = self.current().ok_or(StudyError::NoCard)?.to_string();
        let before = self.q.clone();
        let prev = progress.card(&id)?;
        let was_new = prev.phase == Phase::New;
        let (review_id, card) = progress.grade(&id, grade, now, took_ms, self.mode())?;
        self.history.push(Done {
            review_id,
            card: prev,
            before,
        });
        self.graded += 1;
        if was_new && self.mode() != Mode::Cram {
            self.new_today += 1;
        }
        self.q.current = None;
        let relearn = match self.kind {
            Kind::Cram { reschedule: false } => grade == Grade::Again,
            _ => matches!(card.phase, Phase::Learning | Phase::Relearning),
        };
        if relearn && card.due < next_day_start(now) {
            let due = if self.mode() == Mode::Cram {
                now
            } else {
                card.due
            };
            self.q.learning.push((due, id));
        }
        self.advance(now);
        Ok(card)
    }

    /// Undoes this session's last grade: the log marks it undone, the card is restored and
    /// shown again. Returns its question id, or `None` when there is nothing to undo.
    pub fn undo(
        &mut self,
        progress: &mut Progress,
        now: Millis,
    ) -> Result<Option<String>, StudyError> {
        let Some(done) = self.history.pop() else {
            return Ok(None);
        };
        progress.store.undo(done.review_id, &done.card, now)?;
        self.q = done.before;
        self.graded = self.graded.saturating_sub(1);
        if done.card.phase == Phase::New && self.mode() != Mode::Cram {
            self.new_today = self.new_today.saturating_sub(1);
        }
        Ok(self.q.current.clone())
    }

    /// Hides the card showing until tomorrow and moves on.
    pub fn bury(
        &mut self,
        progress: &mut Progress,
        now: Millis,
    ) -> Result<Option<String>, StudyError> {
        let Some(id) = self.q.current.take() else {
            return Ok(None);
        };
        progress.store.bury(&id, next_day_start(now))?;
        self.q.learning.retain(|(_, l)| *l != id);
        self.q.main.retain(|m| *m != id);
        self.advance(now);
        Ok(Some(id))
    }

    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }
}
