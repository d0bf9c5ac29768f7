//! Mock interviews and quizzes saved as they happen and fed to the scheduler.
//!
//! A mock's scored question is durable the moment it is scored: its answer row, its grade
//! in the review log (mode `mock`, moving the schedule by the mapping in
//! docs/mock-and-quiz.md) and the scorecard so far, each committed before the screen moves
//! on. A quiz's result is saved after every answer, and a question answered wrongly is
//! flagged to the front of the review queue until it is next graded.

use super::mock::{Mock, QuestionResult, Scorecard};
use super::quiz::{Quiz, QuizSetup};
use super::schedule::Grade;
use super::session::{Progress, StudyError};
use super::store::{MockAnswerRecord, MockStart, Mode, QuizProgress, QuizStart, StoreError};
use super::time::Millis;

/// The scheduler's grade for a mock grade (the same four steps).
pub fn schedule_grade(g: super::mock::Grade) -> Grade {
    match g {
        super::mock::Grade::Again => Grade::Again,
        super::mock::Grade::Hard => Grade::Hard,
        super::mock::Grade::Good => Grade::Good,
        super::mock::Grade::Easy => Grade::Easy,
    }
}

/// A mock interview being saved: its session id once something is scored, and how many
/// results are stored. A mock ended before its first scored question leaves no session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockLog {
    pub id: Option<i64>,
    start: MockOpening,
    saved: usize,
    finished: bool,
}

/// What a mock's session row opens with (store `MockStart`, owned until it is written).
#[derive(Debug, Clone, PartialEq, Eq)]
struct MockOpening {
    started_at: Millis,
    level: String,
    topic: Option<String>,
    seed: u64,
    strictness: String,
    planned: u32,
}

impl MockLog {
    /// Prepares the session row for `mock`; it is written with the first scored question.
    pub fn start(
        _progress: &mut Progress,
        mock: &Mock,
        now: Millis,
    ) -> Result<MockLog, StudyError> {
        let setup = mock.setup();
        Ok(MockLog {
            id: None,
            start: MockOpening {
                started_at: now,
                level: setup.level.as_str().to_string(),
                topic: setup.topic.clone(),
                seed: setup.seed,
                strictness: setup.strictness.as_str().to_string(),
                planned: mock.position().1 as u32,
            },
            saved: 0,
            finished: false,
        })
    }

    fn session(&mut self, progress: &mut Progress) -> Result<i64, StudyError> {
        if let Some(id) = self.id {
            return Ok(id);
        }
        let o = &self.start;
        let id = progress.store.start_mock(&MockStart {
            started_at: o.started_at,
            level: &o.level,
            topic: o.topic.as_deref(),
            seed: o.seed,
            strictness: &o.strictness,
            planned: o.planned,
        })?;
        self.id = Some(id);
        Ok(id)
    }

    /// Saves what was scored since the last call; returns the grades given, by question.
    /// Once the mock is done the session is marked finished.
    pub fn save(
        &mut self,
        progress: &mut Progress,
        mock: &Mock,
        now: Millis,
    ) -> Result<Vec<(String, Grade)>, StudyError> {
        let card = mock.scorecard();
        if card.results.is_empty() {
            return Ok(Vec::new());
        }
        let id = self.session(progress)?;
        let mut graded = Vec::new();
        for r in card.results.iter().skip(self.saved) {
            let grade = schedule_grade(r.grade());
            let took = r.time.as_millis() as i64;
            progress
                .store
                .record_mock_answer(id, &answer_record(r, &card, now))?;
            progress.grade(&r.question_id, grade, now, took, Mode::Mock)?;
            self.saved += 1;
            graded.push((r.question_id.clone(), grade));
        }
        let done = mock.is_done() && !self.finished;
        if !graded.is_empty() || done {
            let json = serde_json::to_string(&card)
                .map_err(|e| StoreError::Io(format!("the scorecard could not be written: {e}")))?;
            progress
                .store
                .save_scorecard(id, &json, card.overall(), done.then_some(now))?;
            self.finished |= done;
        }
        Ok(graded)
    }
}

fn answer_record(r: &QuestionResult, card: &Scorecard, now: Millis) -> MockAnswerRecord {
    let idx = |v: &[usize]| v.iter().map(|&i| i as u32).collect();
    MockAnswerRecord {
        question_id: r.question_id.clone(),
        tier: "solid".into(),
        asked_at: now - r.time.as_millis() as i64,
        took_ms: r.time.as_millis() as i64,
        budget_ms: i64::from(r.solid_seconds) * 1000,
        keypoints_covered: idx(&r.covered),
        keypoints_total: r.keypoints_total as u32,
        pitfalls_said: idx(&r.pitfalls_said),
        followup: r.followup.as_ref().map(|f| f.verdict.as_str().to_string()),
        score: f64::from(r.score(card.strictness())),
    }
}

/// A quiz being saved: its session id once something is answered, and how many answers
/// are stored. A quiz left before its first answer leaves no session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizLog {
    pub id: Option<i64>,
    start: QuizOpening,
    saved: usize,
    mistakes: usize,
    finished: bool,
}

/// What a quiz's session row opens with (store `QuizStart`, owned until it is written).
#[derive(Debug, Clone, PartialEq, Eq)]
struct QuizOpening {
    started_at: Millis,
    topic: Option<String>,
    level: Option<String>,
    seed: u64,
    planned: u32,
}

impl QuizLog {
    /// Prepares the session row for `quiz`; it is written with the first answer.
    pub fn start(
        _progress: &mut Progress,
        quiz: &Quiz,
        setup: &QuizSetup,
        now: Millis,
    ) -> Result<QuizLog, StudyError> {
        Ok(QuizLog {
            id: None,
            start: QuizOpening {
                started_at: now,
                topic: setup.topic.clone(),
                level: setup.level.map(|l| l.as_str().to_string()),
                seed: setup.seed,
                planned: quiz.position().1 as u32,
            },
            saved: 0,
            mistakes: 0,
            finished: false,
        })
    }

    fn session(&mut self, progress: &mut Progress) -> Result<i64, StudyError> {
        if let Some(id) = self.id {
            return Ok(id);
        }
        let o = &self.start;
        let id = progress.store.start_quiz(&QuizStart {
            started_at: o.started_at,
            topic: o.topic.as_deref(),
            level: o.level.as_deref(),
            seed: o.seed,
            planned: o.planned,
        })?;
        self.id = Some(id);
        Ok(id)
    }

    /// Saves the result when something changed (an answer, the end) and flags the
    /// questions of new mistakes for review (a flag already there keeps its place).
    /// Returns the questions of the new mistakes.
    pub fn save(
        &mut self,
        progress: &mut Progress,
        quiz: &Quiz,
        now: Millis,
    ) -> Result<Vec<String>, StudyError> {
        let result = quiz.result();
        let done = quiz.is_done() && !self.finished;
        if result.answered == 0 || (result.answered == self.saved && !done) {
            return Ok(vec![]);
        }
        let id = self.session(progress)?;
        let mut missed: Vec<String> = Vec::new();
        for m in &result.mistakes[self.mistakes..] {
            if !missed.contains(&m.question_id) {
                missed.push(m.question_id.clone());
            }
        }
        let json = serde_json::to_string(&result)
            .map_err(|e| StoreError::Io(format!("the quiz result could not be written: {e}")))?;
        progress.store.save_quiz(
            id,
            &QuizProgress {
                answered: result.answered as u32,
                correct: result.correct as u32,
                result: &json,
                finished_at: done.then_some(now),
            },
            &missed,
            now,
        )?;
        self.saved = result.answered;
        self.mistakes = result.mistakes.len();
        self.finished |= done;
        Ok(missed)
    }
}
