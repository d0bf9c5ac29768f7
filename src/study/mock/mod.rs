//! The mock interview: a state machine the TUI drives with key presses and the time.
//!
//! For each drawn question: `Prompt` (the interviewer asks; the clock has not started) ->
//! `Answering` (a countdown with a checkpoint at the basics budget and its end at the solid
//! budget, counting on into overtime; pause and resume; typed notes; finish early) ->
//! `Rubric` (tick the keypoints covered and any pitfall said; compare with the basics, solid
//! and deeper tiers) -> `Followup` (the interviewer's follow-up with its own shorter timer,
//! when the question has follow-ups) -> `FollowupAnswer` (its answer; the candidate judges
//! their own) -> the next question's `Prompt`, or `Done` with a [`Scorecard`].
//!
//! Time is a `Duration` since an origin the caller keeps (say, when the app started); it
//! must not go backwards, and a `now` earlier than a timer's start counts as its start.
//! Nothing here reads a clock, sleeps or does IO.

mod report;
mod score;
mod setup;
mod timer;

use std::time::Duration;

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

pub use report::markdown as report_markdown;
pub use score::{
    ChartBar, FOLLOWUP_POINTS, FollowupResult, FollowupVerdict, Grade, QuestionResult, Scorecard,
    followup_budget,
};
pub use setup::{
    MockSetup, SetupError, Strictness, draw, importance_weight, is_stretch, level_fit, weight,
};
pub use timer::{Countdown, Stage, Stopwatch};

use crate::content::{Deck, Followup, Question};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    Prompt,
    Answering,
    Rubric,
    Followup,
    FollowupAnswer,
    Done,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Prompt => "prompt",
            Phase::Answering => "answering",
            Phase::Rubric => "rubric",
            Phase::Followup => "follow-up",
            Phase::FollowupAnswer => "follow-up answer",
            Phase::Done => "done",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MockError {
    #[error("cannot {action} during the {phase} phase")]
    WrongPhase { action: &'static str, phase: Phase },
    #[error("no {what} number {index}: this question has {count}")]
    NoSuchItem {
        what: &'static str,
        index: usize,
        count: usize,
    },
}

/// A question drawn for the interview, with the follow-up chosen for it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Drawn {
    question: Question,
    followup: Option<usize>,
}

/// The question in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Current {
    answer: Option<Stopwatch>,
    result: QuestionResult,
    covered: Vec<bool>,
    pitfalls: Vec<bool>,
    followup_timer: Option<Stopwatch>,
}

/// A mock interview in progress. Owns copies of its questions, so it lives beside the deck.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mock {
    setup: MockSetup,
    drawn: Vec<Drawn>,
    index: usize,
    phase: Phase,
    current: Option<Current>,
    results: Vec<QuestionResult>,
}

impl Mock {
    /// Draws the questions and their follow-ups from `setup.seed` and waits at the first
    /// prompt.
    pub fn new(deck: &Deck, setup: MockSetup) -> Result<Mock, SetupError> {
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let questions = draw(deck, &setup, &mut rng)?;
        // Follow-ups are chosen up front, so what the candidate does cannot change them.
        let drawn = questions
            .into_iter()
            .map(|q| Drawn {
                followup: (!q.followups.is_empty()).then(|| rng.random_range(0..q.followups.len())),
                question: q.clone(),
            })
            .collect();
        let mut mock = Mock {
            setup,
            drawn,
            index: 0,
            phase: Phase::Prompt,
            current: None,
            results: Vec::new(),
        };
        mock.enter_question();
        Ok(mock)
    }

    fn enter_question(&mut self) {
        match self.drawn.get(self.index) {
            Some(d) => {
                let q = &d.question;
                self.current = Some(Current {
                    answer: None,
                    result: QuestionResult::blank(q, Duration::ZERO),
                    covered: vec![false; q.keypoints.len()],
                    pitfalls: vec![false; q.pitfalls.len()],
                    followup_timer: None,
                });
                self.phase = Phase::Prompt;
            }
            None => {
                self.current = None;
                self.phase = Phase::Done;
            }
        }
    }

    fn expect(&self, phase: Phase, action: &'static str) -> Result<(), MockError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(MockError::WrongPhase {
                action,
                phase: self.phase,
            })
        }
    }

    fn cur(&mut self, action: &'static str) -> Result<&mut Current, MockError> {
        let phase = self.phase;
        self.current
            .as_mut()
            .ok_or(MockError::WrongPhase { action, phase })
    }

    pub fn setup(&self) -> &MockSetup {
        &self.setup
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The current question's number (from 0) and how many were drawn.
    pub fn position(&self) -> (usize, usize) {
        (self.index.min(self.drawn.len()), self.drawn.len())
    }

    /// How many questions were put to the candidate: the one showing (or showing when the
    /// mock ended) and those before it, scored or not.
    pub fn asked(&self) -> usize {
        (self.index + 1).min(self.drawn.len())
    }

    /// The ids of the drawn questions, in the order they are asked.
    pub fn question_ids(&self) -> Vec<&str> {
        self.drawn.iter().map(|d| d.question.id.as_str()).collect()
    }

    /// The question being asked; `None` once done.
    pub fn question(&self) -> Option<&Question> {
        self.current
            .as_ref()
            .and_then(|_| self.drawn.get(self.index))
            .map(|d| &d.question)
    }

    /// The follow-up chosen for the current question, if it has any.
    pub fn followup(&self) -> Option<&Followup> {
        let d = self.drawn.get(self.index)?;
        d.followup.and_then(|i| d.question.followups.get(i))
    }

    /// The deeper tier of the target level for the current question, for the rubric.
    pub fn deeper(&self) -> Option<&str> {
        self.question()?.deeper.at(self.setup.level)
    }

    /// Starts the answer clock at `now`.
    pub fn start_answer(&mut self, now: Duration) -> Result<(), MockError> {
        self.expect(Phase::Prompt, "start answering")?;
        self.cur("start answering")?.answer = Some(Stopwatch::started(now));
        self.phase = Phase::Answering;
        Ok(())
    }

    fn running_timer(&mut self, action: &'static str) -> Result<&mut Stopwatch, MockError> {
        let phase = self.phase;
        let wrong = MockError::WrongPhase { action, phase };
        let cur = self.current.as_mut().ok_or(wrong.clone())?;
        match phase {
            Phase::Answering => cur.answer.as_mut().ok_or(wrong),
            Phase::Followup => cur.followup_timer.as_mut().ok_or(wrong),
            _ => Err(wrong),
        }
    }

    /// The countdown of the answer or of the follow-up; `None` in other phases.
    pub fn countdown(&self, now: Duration) -> Option<Countdown> {
        let cur = self.current.as_ref()?;
        let q = self.question()?;
        match self.phase {
            Phase::Answering => {
                let w = cur.answer.as_ref()?;
                Some(Countdown::new(
                    w.elapsed(now),
                    Some(Duration::from_secs(q.basics.seconds.into())),
                    Duration::from_secs(q.solid.seconds.into()),
                    !w.is_running(),
                ))
            }
            Phase::Followup => {
                let w = cur.followup_timer.as_ref()?;
                Some(Countdown::new(
                    w.elapsed(now),
                    None,
                    Duration::from_secs(followup_budget(q).into()),
                    !w.is_running(),
                ))
            }
            _ => None,
        }
    }

    /// Pauses the running clock (answer or follow-up); paused time does not count.
    pub fn pause(&mut self, now: Duration) -> Result<(), MockError> {
        self.running_timer("pause")?.pause(now);
        Ok(())
    }

    pub fn resume(&mut self, now: Duration) -> Result<(), MockError> {
        self.running_timer("resume")?.resume(now);
        Ok(())
    }

    /// Pause when running, resume when paused.
    pub fn toggle_pause(&mut self, now: Duration) -> Result<(), MockError> {
        let w = self.running_timer("pause")?;
        if w.is_running() {
            w.pause(now);
        } else {
            w.resume(now);
        }
        Ok(())
    }

    pub fn is_paused(&self) -> bool {
        let Some(cur) = &self.current else {
            return false;
        };
        let timer = match self.phase {
            Phase::Answering => cur.answer.as_ref(),
            Phase::Followup => cur.followup_timer.as_ref(),
            _ => None,
        };
        timer.is_some_and(|w| !w.is_running())
    }

    /// The candidate's notes on the current question.
    pub fn notes(&self) -> &str {
        self.current
            .as_ref()
            .map_or("", |c| c.result.notes.as_str())
    }

    /// Replaces the notes on the current question (any phase before it is scored).
    pub fn set_notes(&mut self, text: impl Into<String>) -> Result<(), MockError> {
        self.cur("take notes")?.result.notes = text.into();
        Ok(())
    }

    /// Stops the answer clock (at any time: early, or in overtime) and opens the rubric.
    pub fn finish_answer(&mut self, now: Duration) -> Result<(), MockError> {
        self.expect(Phase::Answering, "finish the answer")?;
        let cur = self.cur("finish the answer")?;
        if let Some(w) = cur.answer.as_mut() {
            cur.result.time = w.stop(now);
            cur.result.pauses = w.pauses();
        }
        self.phase = Phase::Rubric;
        Ok(())
    }

    /// Which keypoints are ticked as covered, in content order.
    pub fn covered(&self) -> &[bool] {
        self.current.as_ref().map_or(&[], |c| c.covered.as_slice())
    }

    /// Which pitfalls are ticked as said, in content order.
    pub fn pitfalls_said(&self) -> &[bool] {
        self.current.as_ref().map_or(&[], |c| c.pitfalls.as_slice())
    }

    pub fn toggle_keypoint(&mut self, index: usize) -> Result<(), MockError> {
        self.expect(Phase::Rubric, "tick a keypoint")?;
        toggle(&mut self.cur("tick a keypoint")?.covered, index, "keypoint")
    }

    pub fn toggle_pitfall(&mut self, index: usize) -> Result<(), MockError> {
        self.expect(Phase::Rubric, "tick a pitfall")?;
        toggle(&mut self.cur("tick a pitfall")?.pitfalls, index, "pitfall")
    }

    /// Scores the rubric as ticked and moves on: to the follow-up (its clock starts at
    /// `now`), or to the next question when this one has no follow-ups.
    pub fn confirm_rubric(&mut self, now: Duration) -> Result<(), MockError> {
        self.expect(Phase::Rubric, "confirm the rubric")?;
        let has_followup = self.followup().is_some();
        let cur = self.cur("confirm the rubric")?;
        cur.result.covered = ticked(&cur.covered);
        cur.result.pitfalls_said = ticked(&cur.pitfalls);
        if has_followup {
            cur.followup_timer = Some(Stopwatch::started(now));
            self.phase = Phase::Followup;
        } else {
            self.record();
        }
        Ok(())
    }

    /// Stops the follow-up clock and shows its answer.
    pub fn finish_followup(&mut self, now: Duration) -> Result<(), MockError> {
        self.expect(Phase::Followup, "finish the follow-up")?;
        let index = self.drawn[self.index].followup.unwrap_or(0);
        let budget = self.question().map_or(0, followup_budget);
        let cur = self.cur("finish the follow-up")?;
        let time = cur
            .followup_timer
            .as_mut()
            .map_or(Duration::ZERO, |w| w.stop(now));
        cur.result.followup = Some(FollowupResult {
            index,
            // Until judged the answer counts as missed; `judge_followup` sets the verdict.
            verdict: FollowupVerdict::Missed,
            time,
            budget_seconds: budget,
        });
        self.phase = Phase::FollowupAnswer;
        Ok(())
    }

    /// The candidate's verdict on their follow-up answer; moves to the next question.
    pub fn judge_followup(&mut self, verdict: FollowupVerdict) -> Result<(), MockError> {
        self.expect(Phase::FollowupAnswer, "judge the follow-up")?;
        if let Some(f) = self.cur("judge the follow-up")?.result.followup.as_mut() {
            f.verdict = verdict;
        }
        self.record();
        Ok(())
    }

    fn record(&mut self) {
        if let Some(cur) = self.current.take() {
            self.results.push(cur.result);
        }
        self.index += 1;
        self.enter_question();
    }

    /// Ends the interview now. A question not yet through its rubric is left out of the
    /// scorecard; one waiting for its follow-up verdict is kept without the follow-up.
    pub fn end(&mut self) {
        if let Some(cur) = self.current.take()
            && matches!(self.phase, Phase::Followup | Phase::FollowupAnswer)
        {
            let mut result = cur.result;
            result.followup = None;
            self.results.push(result);
        }
        self.phase = Phase::Done;
    }

    /// The current question's result once its rubric is confirmed and while its follow-up
    /// runs, so a caller can save the rubric at once and update it after the verdict.
    /// Until judged, an asked follow-up counts as missed.
    pub fn pending(&self) -> Option<&QuestionResult> {
        match self.phase {
            Phase::Followup | Phase::FollowupAnswer => self.current.as_ref().map(|c| &c.result),
            _ => None,
        }
    }

    /// Results so far (all of them once done); one more each time a question is scored.
    pub fn results(&self) -> &[QuestionResult] {
        &self.results
    }

    pub fn scorecard(&self) -> Scorecard {
        Scorecard {
            setup: self.setup.clone(),
            planned: self.drawn.len(),
            results: self.results.clone(),
        }
    }
}

fn toggle(flags: &mut [bool], index: usize, what: &'static str) -> Result<(), MockError> {
    let count = flags.len();
    let flag = flags
        .get_mut(index)
        .ok_or(MockError::NoSuchItem { what, index, count })?;
    *flag = !*flag;
    Ok(())
}

fn ticked(flags: &[bool]) -> Vec<usize> {
    flags
        .iter()
        .enumerate()
        .filter_map(|(i, on)| on.then_some(i))
        .collect()
}
