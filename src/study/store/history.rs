//! Mock interviews and quizzes as the store keeps them, and the questions a quiz put
//! forward for review. A mock's scorecard is stored whole (JSON) after every scored
//! question, so an interview cut short by a crash keeps what was scored; a quiz's result
//! likewise after every answer. Also the answers typed in review.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

use super::{Result, Store, StoreError, TypedAnswerRecord};
use crate::study::schedule::Grade;
use crate::study::time::Millis;

/// A mock interview as listed in history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MockSummary {
    pub id: i64,
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
    pub level: Option<String>,
    pub topic: Option<String>,
    pub strictness: Option<String>,
    pub seed: Option<i64>,
    /// Questions drawn; `None` for sessions from before schema version 3.
    pub planned: Option<u32>,
    /// Questions scored.
    pub answered: u32,
    /// The overall score (0 to 100) of the questions scored.
    pub overall: Option<u32>,
    /// The whole scorecard as JSON, when stored.
    #[serde(skip)]
    pub scorecard: Option<String>,
}

/// A quiz as listed in history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuizSummary {
    pub id: i64,
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
    pub topic: Option<String>,
    pub level: Option<String>,
    pub seed: u64,
    pub planned: u32,
    pub answered: u32,
    pub correct: u32,
    /// The `QuizResult` as JSON.
    #[serde(skip)]
    pub result: String,
}

/// What a mock session starts with.
#[derive(Debug, Clone, Copy)]
pub struct MockStart<'a> {
    pub started_at: Millis,
    pub level: &'a str,
    pub topic: Option<&'a str>,
    pub seed: u64,
    pub strictness: &'a str,
    pub planned: u32,
}

/// What a quiz session starts with.
#[derive(Debug, Clone, Copy)]
pub struct QuizStart<'a> {
    pub started_at: Millis,
    pub topic: Option<&'a str>,
    pub level: Option<&'a str>,
    pub seed: u64,
    pub planned: u32,
}

/// A quiz's score so far, written after every answer.
#[derive(Debug, Clone, Copy)]
pub struct QuizProgress<'a> {
    pub answered: u32,
    pub correct: u32,
    /// The `QuizResult` as JSON.
    pub result: &'a str,
    pub finished_at: Option<Millis>,
}

impl Store {
    /// Starts a mock interview; returns its id.
    pub fn start_mock(&mut self, s: &MockStart<'_>) -> Result<i64> {
        self.writer()?
            .execute(
                "INSERT INTO mock_sessions (started_at, level, topic, seed, strictness, planned) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    s.started_at,
                    s.level,
                    s.topic,
                    s.seed as i64,
                    s.strictness,
                    s.planned
                ],
            )
            .map_err(self.err())?;
        Ok(self.writer()?.last_insert_rowid())
    }

    /// Stores the scorecard so far (and the finish time once the interview is over).
    pub fn save_scorecard(
        &mut self,
        id: i64,
        scorecard: &str,
        overall: u32,
        finished_at: Option<Millis>,
    ) -> Result<()> {
        self.writer()?
            .execute(
                "UPDATE mock_sessions SET scorecard = ?2, overall = ?3, finished_at = \
                 COALESCE(?4, finished_at) WHERE id = ?1",
                params![id, scorecard, overall, finished_at],
            )
            .map_err(self.err())?;
        Ok(())
    }

    /// Every mock interview, oldest first.
    pub fn mocks(&self) -> Result<Vec<MockSummary>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT s.id, s.started_at, s.finished_at, s.level, s.topic, s.strictness, \
                 s.planned, s.overall, s.scorecard, s.seed, (SELECT COUNT(*) FROM mock_answers a WHERE \
                 a.session_id = s.id) FROM mock_sessions s ORDER BY s.started_at, s.id",
            )
            .map_err(self.err())?;
        let rows = st
            .query_map([], |r| {
                Ok(MockSummary {
                    id: r.get(0)?,
                    started_at: r.get(1)?,
                    finished_at: r.get(2)?,
                    level: r.get(3)?,
                    topic: r.get(4)?,
                    strictness: r.get(5)?,
                    planned: r.get(6)?,
                    overall: r.get(7)?,
                    scorecard: r.get(8)?,
                    seed: r.get(9)?,
                    answered: r.get(10)?,
                })
            })
            .map_err(self.err())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.err())
    }

    /// Starts a quiz; returns its id.
    pub fn start_quiz(&mut self, s: &QuizStart<'_>) -> Result<i64> {
        self.writer()?
            .execute(
                "INSERT INTO quiz_sessions (started_at, topic, level, seed, planned, answered, \
                 correct, result) VALUES (?1, ?2, ?3, ?4, ?5, 0, 0, '{}')",
                params![s.started_at, s.topic, s.level, s.seed as i64, s.planned],
            )
            .map_err(self.err())?;
        Ok(self.writer()?.last_insert_rowid())
    }

    /// Stores a quiz's result so far and flags `missed` questions for review, in one
    /// transaction.
    pub fn save_quiz(
        &mut self,
        id: i64,
        p: &QuizProgress<'_>,
        missed: &[String],
        now: Millis,
    ) -> Result<()> {
        let err = self.err();
        let tx = self
            .writer()?
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&err)?;
        tx.execute(
            "UPDATE quiz_sessions SET answered = ?2, correct = ?3, result = ?4, finished_at = \
             COALESCE(?5, finished_at) WHERE id = ?1",
            params![id, p.answered, p.correct, p.result, p.finished_at],
        )
        .map_err(&err)?;
        for q in missed {
            flag_in(&tx, q, now, "quiz").map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        Ok(())
    }

    /// Every quiz, oldest first.
    pub fn quizzes(&self) -> Result<Vec<QuizSummary>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT id, started_at, finished_at, topic, level, seed, planned, answered, \
                 correct, result FROM quiz_sessions ORDER BY started_at, id",
            )
            .map_err(self.err())?;
        let rows = st
            .query_map([], |r| {
                Ok(QuizSummary {
                    id: r.get(0)?,
                    started_at: r.get(1)?,
                    finished_at: r.get(2)?,
                    topic: r.get(3)?,
                    level: r.get(4)?,
                    seed: r.get::<_, i64>(5)? as u64,
                    planned: r.get(6)?,
                    answered: r.get(7)?,
                    correct: r.get(8)?,
                    result: r.get(9)?,
                })
            })
            .map_err(self.err())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.err())
    }

    /// Puts a question at the front of the review queue until it is next graded.
    pub fn flag_for_review(&mut self, question_id: &str, at: Millis, reason: &str) -> Result<()> {
        flag_in(self.writer()?, question_id, at, reason).map_err(self.err())?;
        Ok(())
    }

    /// Questions flagged for review, with when they were flagged.
    pub fn flags(&self) -> Result<HashMap<String, Millis>> {
        Ok(self
            .flag_rows()?
            .into_iter()
            .map(|(q, at, _)| (q, at))
            .collect())
    }

    /// (question id, flagged at, reason), by question id.
    pub fn flag_rows(&self) -> Result<Vec<(String, Millis, String)>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT question_id, flagged_at, reason FROM review_flags ORDER BY question_id",
            )
            .map_err(self.err())?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(self.err())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.err())
    }
}

/// A flag keeps its first time: flagging again does not move it back in the queue.
/// Returns whether a flag was added.
pub(super) fn flag_in(
    conn: &rusqlite::Connection,
    question_id: &str,
    at: Millis,
    reason: &str,
) -> rusqlite::Result<bool> {
    let n = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO review_flags (question_id, flagged_at, reason) VALUES (?1, \
             ?2, ?3)",
        )?
        .execute(params![question_id, at, reason])?;
    Ok(n > 0)
}

impl Store {
    /// An answer typed in review, durable on return; the same answer twice (same question
    /// and time) is kept once.
    pub fn record_typed_answer(&mut self, a: &TypedAnswerRecord) -> Result<()> {
        typed_in(self.writer()?, a).map_err(self.err())?;
        Ok(())
    }

    /// Typed answers, oldest first: of one question, or of all.
    pub fn typed_answers(&self, question_id: Option<&str>) -> Result<Vec<TypedAnswerRecord>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT question_id, answered_at, text, keypoints_covered, keypoints_total, \
                 pitfalls_said, grade FROM typed_answers WHERE ?1 IS NULL OR question_id = ?1 \
                 ORDER BY answered_at, id",
            )
            .map_err(self.err())?;
        let rows: Vec<(TypedAnswerRecord, String, String, u8)> = st
            .query_map([question_id], |r| {
                Ok((
                    TypedAnswerRecord {
                        question_id: r.get(0)?,
                        answered_at: r.get(1)?,
                        text: r.get(2)?,
                        keypoints_covered: vec![],
                        keypoints_total: r.get(4)?,
                        pitfalls_said: vec![],
                        grade: Grade::Again,
                    },
                    r.get(3)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        rows.into_iter()
            .map(|(mut a, covered, said, grade)| {
                let bad = |why: String| StoreError::BadRow(a.question_id.clone(), why);
                let parse = |s: &str| serde_json::from_str::<Vec<u32>>(s);
                a.keypoints_covered = parse(&covered).map_err(|e| bad(e.to_string()))?;
                a.pitfalls_said = parse(&said).map_err(|e| bad(e.to_string()))?;
                a.grade = Grade::from_number(grade)
                    .ok_or_else(|| bad(format!("grade {grade} of a typed answer")))?;
                Ok(a)
            })
            .collect()
    }

    /// The last answer typed for a question, if any.
    pub fn last_typed_answer(&self, question_id: &str) -> Result<Option<TypedAnswerRecord>> {
        Ok(self.typed_answers(Some(question_id))?.pop())
    }
}

/// Returns whether the answer was added (not already there).
pub(super) fn typed_in(
    conn: &rusqlite::Connection,
    a: &TypedAnswerRecord,
) -> rusqlite::Result<bool> {
    let exists: Option<i64> = conn
        .prepare_cached("SELECT id FROM typed_answers WHERE question_id = ?1 AND answered_at = ?2")?
        .query_row(params![a.question_id, a.answered_at], |r| r.get(0))
        .optional()?;
    if exists.is_some() {
        return Ok(false);
    }
    let list = |v: &[u32]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    conn.prepare_cached(
        "INSERT INTO typed_answers (question_id, answered_at, text, keypoints_covered, \
         keypoints_total, pitfalls_said, grade) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        a.question_id,
        a.answered_at,
        a.text,
        list(&a.keypoints_covered),
        a.keypoints_total,
        list(&a.pitfalls_said),
        a.grade.number(),
    ])?;
    Ok(true)
}
