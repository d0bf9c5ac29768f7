//! Scheduling with FSRS-6 (the `fsrs` crate, as Anki's Rust core uses it). The memory
//! model (stability, difficulty, intervals) is entirely `fsrs`'s; this module adds only the
//! card phases around it: short learning and relearning steps measured in minutes, as in
//! Anki, and graduation to day intervals.

use fsrs::{FSRS, MemoryState, NextStates};
use serde::{Deserialize, Serialize};

use super::time::{DAY_MS, MINUTE_MS, Millis, day_of};

/// The four answer buttons. The numbers are what the keys show and what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    Again = 1,
    Hard = 2,
    Good = 3,
    Easy = 4,
}

impl Grade {
    pub const ALL: [Grade; 4] = [Grade::Again, Grade::Hard, Grade::Good, Grade::Easy];

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn from_number(n: u8) -> Option<Grade> {
        Grade::ALL.get(usize::from(n).wrapping_sub(1)).copied()
    }

    pub fn label(self) -> &'static str {
        match self {
            Grade::Again => "Again",
            Grade::Hard => "Hard",
            Grade::Good => "Good",
            Grade::Easy => "Easy",
        }
    }

    /// Anything but Again counts as remembered.
    pub fn passed(self) -> bool {
        self != Grade::Again
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    New,
    Learning,
    Review,
    Relearning,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::New => "new",
            Phase::Learning => "learning",
            Phase::Review => "review",
            Phase::Relearning => "relearning",
        }
    }

    pub fn parse(s: &str) -> Option<Phase> {
        [
            Phase::New,
            Phase::Learning,
            Phase::Review,
            Phase::Relearning,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }
}

/// One question's schedule. Keyed on the question id, never on its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardState {
    pub question_id: String,
    pub phase: Phase,
    /// Index into the learning or relearning steps.
    pub step: u32,
    /// FSRS memory state; `None` until the first grade.
    pub stability: Option<f32>,
    pub difficulty: Option<f32>,
    /// When it is next due (unix ms); 0 for a new card.
    pub due: Millis,
    pub last_review: Option<Millis>,
    /// Days of the last graduated interval (0 while learning).
    pub interval_days: u32,
    pub reps: u32,
    pub lapses: u32,
    /// Hidden from queues until this time (unix ms), if buried.
    pub buried_until: Option<Millis>,
}

// Stability and difficulty are always finite (fsrs rejects other states), so equality is
// total; screens holding a session compare as Eq.
impl Eq for CardState {}

impl CardState {
    pub fn new(question_id: &str) -> Self {
        CardState {
            question_id: question_id.to_string(),
            phase: Phase::New,
            step: 0,
            stability: None,
            difficulty: None,
            due: 0,
            last_review: None,
            interval_days: 0,
            reps: 0,
            lapses: 0,
            buried_until: None,
        }
    }

    pub fn memory(&self) -> Option<MemoryState> {
        match (self.stability, self.difficulty) {
            (Some(stability), Some(difficulty)) => Some(MemoryState {
                stability,
                difficulty,
            }),
            _ => None,
        }
    }

    pub fn is_buried(&self, now: Millis) -> bool {
        self.buried_until.is_some_and(|t| now < t)
    }
}

/// What a grade would do, shown on its key before it is pressed.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    pub grade: Grade,
    pub next: CardState,
    /// Time from now until due again.
    pub wait_ms: Millis,
}

impl Preview {
    /// "1m", "10m", "3d", "2.1mo", "1.4y", as Anki shows intervals.
    pub fn label(&self) -> String {
        interval_label(self.wait_ms)
    }
}

/// Anki's Hard delay in a learning or relearning step (its `LearningSteps::hard_delay`):
/// on the first step, the average of the first two steps, or with one step 1.5 times it
/// (at most a day more); on a later step, that step again. So Hard never waits as little
/// as Again.
fn hard_delay_ms(steps: &[u32], step: u32) -> i64 {
    let at = |i: usize| steps.get(i).map(|m| i64::from(*m) * MINUTE_MS);
    let current = at(step as usize).unwrap_or(MINUTE_MS);
    match (step, at(1)) {
        (0, Some(next)) => (current + next) / 2,
        (0, None) => (current * 3 / 2).min(current + DAY_MS),
        _ => current,
    }
}

pub fn interval_label(ms: Millis) -> String {
    let mins = ms as f64 / MINUTE_MS as f64;
    let days = ms as f64 / DAY_MS as f64;
    if mins < 60.0 {
        format!("{}m", mins.round().max(1.0))
    } else if days < 1.0 {
        format!("{}h", (mins / 60.0).round())
    } else if days < 30.0 {
        format!("{}d", days.round())
    } else if days < 365.0 {
        format!("{:.1}mo", days / 30.0)
    } else {
        format!("{:.1}y", days / 365.0)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    #[error("desired retention must be between 0.7 and 0.99, not {0}")]
    Retention(f32),
    #[error("the FSRS scheduler refused the card's memory state: {0}")]
    Fsrs(#[from] fsrs::FSRSError),
}

/// FSRS-6 with its default parameters, a desired retention and the step lengths.
pub struct Scheduler {
    fsrs: FSRS,
    retention: f32,
    pub learning_steps_min: Vec<u32>,
    pub relearning_steps_min: Vec<u32>,
}

impl std::fmt::Debug for Scheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scheduler")
            .field("retention", &self.retention)
            .finish()
    }
}

impl Scheduler {
    /// Anki's defaults: learning steps 1m 10m, relearning 10m.
    pub fn new(desired_retention: f32) -> Result<Self, ScheduleError> {
        if !(0.7..=0.99).contains(&desired_retention) {
            return Err(ScheduleError::Retention(desired_retention));
        }
        Ok(Scheduler {
            fsrs: FSRS::new(&fsrs::DEFAULT_PARAMETERS)?,
            retention: desired_retention,
            learning_steps_min: vec![1, 10],
            relearning_steps_min: vec![10],
        })
    }

    pub fn retention(&self) -> f32 {
        self.retention
    }

    pub fn fsrs(&self) -> &FSRS {
        &self.fsrs
    }

    /// Whole days between the last review and now, as FSRS counts them.
    pub fn elapsed_days(card: &CardState, now: Millis) -> u32 {
        card.last_review
            .map(|t| (day_of(now) - day_of(t)).max(0) as u32)
            .unwrap_or(0)
    }

    fn next_states(&self, card: &CardState, now: Millis) -> Result<NextStates, ScheduleError> {
        Ok(self
            .fsrs
            .next_states(card.memory(), self.retention, Self::elapsed_days(card, now))?)
    }

    /// Days for an FSRS interval: rounded, at least one.
    pub fn interval_days(interval: f32) -> u32 {
        interval.round().max(1.0) as u32
    }

    /// The state after each of the four grades.
    pub fn preview(&self, card: &CardState, now: Millis) -> Result<[Preview; 4], ScheduleError> {
        let ns = self.next_states(card, now)?;
        let make = |grade| {
            let next = self.apply_with(card, grade, now, &ns);
            Preview {
                grade,
                wait_ms: next.due - now,
                next,
            }
        };
        Ok([
            make(Grade::Again),
            make(Grade::Hard),
            make(Grade::Good),
            make(Grade::Easy),
        ])
    }

    /// The card after `grade` at `now`.
    pub fn apply(
        &self,
        card: &CardState,
        grade: Grade,
        now: Millis,
    ) -> Result<CardState, ScheduleError> {
        let ns = self.next_states(card, now)?;
        Ok(self.apply_with(card, grade, now, &ns))
    }

    fn apply_with(
        &self,
        card: &CardState,
        grade: Grade,
        now: Millis,
        ns: &NextStates,
    ) -> CardState {
        let item = match grade {
            Grade::Again => &ns.again,
            Grade::Hard => &ns.hard,
            Grade::Good => &ns.good,
            Grade::Easy => &ns.easy,
        };
        let mut next = card.clone();
        next.stability = Some(item.memory.stability);
        next.difficulty = Some(item.memory.difficulty);
        next.last_review = Some(now);
        next.reps += 1;
        next.buried_until = None;
        let graduate = |next: &mut CardState| {
            let days = Self::interval_days(item.interval);
            next.phase = Phase::Review;
            next.step = 0;
            next.interval_days = days;
            next.due = now + i64::from(days) * DAY_MS;
        };
        let wait = |next: &mut CardState, phase: Phase, step: u32, wait_ms: i64| {
            next.phase = phase;
            next.step = step;
            next.interval_days = 0;
            next.due = now + wait_ms;
        };
        let at_step = |next: &mut CardState, phase: Phase, steps: &[u32], step: u32| {
            let mins = steps.get(step as usize).copied().unwrap_or(1);
            wait(next, phase, step, i64::from(mins) * MINUTE_MS);
        };
        match card.phase {
            Phase::New | Phase::Learning | Phase::Relearning => {
                let (phase, steps) = if card.phase == Phase::Relearning {
                    (Phase::Relearning, &self.relearning_steps_min)
                } else {
                    (Phase::Learning, &self.learning_steps_min)
                };
                let step = if card.phase == Phase::New {
                    0
                } else {
                    card.step
                };
                match grade {
                    Grade::Again if !steps.is_empty() => at_step(&mut next, phase, steps, 0),
                    Grade::Hard if !steps.is_empty() => {
                        let step = step.min(steps.len() as u32 - 1);
                        wait(&mut next, phase, step, hard_delay_ms(steps, step));
                    }
                    Grade::Good if (step as usize + 1) < steps.len() => {
                        at_step(&mut next, phase, steps, step + 1)
                    }
                    _ => graduate(&mut next),
                }
            }
            Phase::Review => match grade {
                Grade::Again => {
                    next.lapses += 1;
                    if self.relearning_steps_min.is_empty() {
                        graduate(&mut next);
                    } else {
                        at_step(&mut next, Phase::Relearning, &self.relearning_steps_min, 0);
                    }
                }
                _ => graduate(&mut next),
            },
        }
        next
    }
}
