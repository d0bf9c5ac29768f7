//! Export to and import from JSON: every table, so export, import into an empty store and
//! export again gives the same document. Import merges: rows already present are skipped.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

use super::{Mode, NewReview, Result, Store, StoreError, insert_review, upsert_card};
use crate::study::schedule::{CardState, Grade, Phase};
use crate::study::time::Millis;

/// What `export` writes; `format` and `version` name the document, not the database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    pub format: String,
    pub version: u32,
    pub reviews: Vec<ReviewRecord>,
    pub cards: Vec<CardState>,
    pub mock_sessions: Vec<MockSessionRecord>,
    pub solved_challenges: Vec<SolvedRecord>,
    /// Since version 2.
    #[serde(default)]
    pub quiz_sessions: Vec<QuizSessionRecord>,
    /// Since version 2.
    #[serde(default)]
    pub review_flags: Vec<FlagRecord>,
    /// Since version 3.
    #[serde(default)]
    pub typed_answers: Vec<TypedAnswerRecord>,
}

pub const FORMAT: &str = "kubedrill-progress";
/// 2 added quizzes, review flags and whole mock scorecards; 3 added typed answers. Older
/// documents still import.
pub const VERSION: u32 = 3;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRecord {
    pub question_id: String,
    pub grade: Grade,
    pub reviewed_at: Millis,
    pub took_ms: i64,
    pub mode: Mode,
    pub phase_before: Phase,
    pub undone_at: Option<Millis>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockSessionRecord {
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
    pub level: Option<String>,
    pub topic: Option<String>,
    pub seed: Option<i64>,
    pub answers: Vec<MockAnswerRecord>,
    /// Since version 2.
    #[serde(default)]
    pub strictness: Option<String>,
    #[serde(default)]
    pub planned: Option<u32>,
    #[serde(default)]
    pub overall: Option<u32>,
    /// The scorecard (`study::mock::Scorecard`) as stored.
    #[serde(default)]
    pub scorecard: Option<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuizSessionRecord {
    pub started_at: Millis,
    pub finished_at: Option<Millis>,
    pub topic: Option<String>,
    pub level: Option<String>,
    pub seed: u64,
    pub planned: u32,
    pub answered: u32,
    pub correct: u32,
    /// The `study::quiz::QuizResult`.
    pub result: serde_json::Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagRecord {
    pub question_id: String,
    pub flagged_at: Millis,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockAnswerRecord {
    pub question_id: String,
    /// `basics` or `solid`.
    pub tier: String,
    pub asked_at: Millis,
    pub took_ms: i64,
    pub budget_ms: i64,
    /// Indices into the question's keypoints.
    pub keypoints_covered: Vec<u32>,
    pub keypoints_total: u32,
    /// Indices into the question's pitfalls.
    pub pitfalls_said: Vec<u32>,
    pub followup: Option<String>,
    pub score: f64,
}

/// An answer typed in review before the reveal, with what the learner ticked against the
/// key points and pitfalls afterwards, and the grade they gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypedAnswerRecord {
    pub question_id: String,
    pub answered_at: Millis,
    pub text: String,
    /// Indices into the question's keypoints.
    pub keypoints_covered: Vec<u32>,
    pub keypoints_total: u32,
    /// Indices into the question's pitfalls.
    pub pitfalls_said: Vec<u32>,
    pub grade: Grade,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolvedRecord {
    pub question_id: String,
    pub title: String,
    pub solved_at: Millis,
}

/// What an import added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportSummary {
    pub reviews: usize,
    pub cards: usize,
    pub mock_sessions: usize,
    pub solved_challenges: usize,
    pub quiz_sessions: usize,
    pub review_flags: usize,
    pub typed_answers: usize,
}

pub(super) fn insert_mock_answer(
    conn: &Connection,
    session_id: i64,
    a: &MockAnswerRecord,
) -> rusqlite::Result<()> {
    let list = |v: &[u32]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    conn.prepare_cached(
        "INSERT INTO mock_answers (session_id, question_id, tier, asked_at, took_ms, budget_ms, \
         keypoints_covered, keypoints_total, pitfalls_said, followup, score) VALUES (?1, ?2, ?3, \
         ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        session_id,
        a.question_id,
        a.tier,
        a.asked_at,
        a.took_ms,
        a.budget_ms,
        list(&a.keypoints_covered),
        a.keypoints_total,
        list(&a.pitfalls_said),
        a.followup,
        a.score,
    ])?;
    Ok(())
}

impl Store {
    /// Everything in the store as one document.
    pub fn export(&self) -> Result<Export> {
        let err = self.err();
        let reviews = self
            .reviews()?
            .into_iter()
            .map(|r| ReviewRecord {
                question_id: r.question_id,
                grade: r.grade,
                reviewed_at: r.reviewed_at,
                took_ms: r.took_ms,
                mode: r.mode,
                phase_before: r.phase_before,
                undone_at: r.undone_at,
            })
            .collect();
        let mut cards: Vec<CardState> = self.cards()?.into_values().collect();
        cards.sort_by(|a, b| a.question_id.cmp(&b.question_id));

        let mut mock_sessions = Vec::new();
        {
            let sessions: Vec<(i64, MockSessionRecord)> = self
                .mocks()?
                .into_iter()
                .map(|m| {
                    let scorecard = m
                        .scorecard
                        .as_deref()
                        .map(serde_json::from_str)
                        .transpose()
                        .map_err(|e| {
                            StoreError::BadRow(format!("mock session {}", m.id), e.to_string())
                        })?;
                    Ok((
                        m.id,
                        MockSessionRecord {
                            started_at: m.started_at,
                            finished_at: m.finished_at,
                            level: m.level,
                            topic: m.topic,
                            seed: m.seed,
                            answers: vec![],
                            strictness: m.strictness,
                            planned: m.planned,
                            overall: m.overall,
                            scorecard,
                        },
                    ))
                })
                .collect::<Result<_>>()?;
            // A pending store has no database, and no sessions.
            if let Some(conn) = self.reader() {
                let mut st = conn
                .prepare(
                    "SELECT question_id, tier, asked_at, took_ms, budget_ms, keypoints_covered, \
                     keypoints_total, pitfalls_said, followup, score FROM mock_answers WHERE \
                     session_id = ?1 ORDER BY asked_at, id",
                )
                .map_err(&err)?;
                for (id, mut s) in sessions {
                    let rows: Vec<(MockAnswerRecord, String, String)> = st
                        .query_map([id], |r| {
                            Ok((
                                MockAnswerRecord {
                                    question_id: r.get(0)?,
                                    tier: r.get(1)?,
                                    asked_at: r.get(2)?,
                                    took_ms: r.get(3)?,
                                    budget_ms: r.get(4)?,
                                    keypoints_covered: vec![],
                                    keypoints_total: r.get(6)?,
                                    pitfalls_said: vec![],
                                    followup: r.get(8)?,
                                    score: r.get(9)?,
                                },
                                r.get(5)?,
                                r.get(7)?,
                            ))
                        })
                        .map_err(&err)?
                        .collect::<rusqlite::Result<_>>()
                        .map_err(&err)?;
                    for (mut a, covered, said) in rows {
                        let parse = |s: &str| {
                            serde_json::from_str::<Vec<u32>>(s).map_err(|e| {
                                StoreError::BadRow(a.question_id.clone(), e.to_string())
                            })
                        };
                        a.keypoints_covered = parse(&covered)?;
                        a.pitfalls_said = parse(&said)?;
                        s.answers.push(a);
                    }
                    mock_sessions.push(s);
                }
            }
        }
        let solved_challenges = self
            .solved()?
            .into_iter()
            .map(|(question_id, title, solved_at)| SolvedRecord {
                question_id,
                title,
                solved_at,
            })
            .collect();
        let quiz_sessions = self
            .quizzes()?
            .into_iter()
            .map(|q| {
                Ok(QuizSessionRecord {
                    result: serde_json::from_str(&q.result)
                        .map_err(|e| StoreError::BadRow(format!("quiz {}", q.id), e.to_string()))?,
                    started_at: q.started_at,
                    finished_at: q.finished_at,
                    topic: q.topic,
                    level: q.level,
                    seed: q.seed,
                    planned: q.planned,
                    answered: q.answered,
                    correct: q.correct,
                })
            })
            .collect::<Result<_>>()?;
        let review_flags = self
            .flag_rows()?
            .into_iter()
            .map(|(question_id, flagged_at, reason)| FlagRecord {
                question_id,
                flagged_at,
                reason,
            })
            .collect();
        Ok(Export {
            format: FORMAT.into(),
            version: VERSION,
            reviews,
            cards,
            mock_sessions,
            solved_challenges,
            quiz_sessions,
            review_flags,
            typed_answers: self.typed_answers(None)?,
        })
    }

    /// Merges a document into the store in one transaction: reviews not already logged
    /// (same question, time and grade), cards newer than the stored ones, sessions not
    /// already present (same start), challenges not yet solved.
    pub fn import(&mut self, doc: &Export) -> Result<ImportSummary> {
        self.on_disk()?;
        if doc.format != FORMAT {
            return Err(StoreError::Import(format!(
                "not a kubedrill progress export (format is `{}`, expected `{FORMAT}`)",
                doc.format
            )));
        }
        if doc.version > VERSION {
            return Err(StoreError::Import(format!(
                "export version {} is newer than this kubedrill reads ({VERSION})",
                doc.version
            )));
        }
        let problems = super::validate::problems(doc);
        if !problems.is_empty() {
            return Err(StoreError::Import(format!(
                "nothing was imported:\n  {}",
                problems.join("\n  ")
            )));
        }
        let err = self.err();
        let tx = self
            .writer()?
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&err)?;
        let mut sum = ImportSummary::default();
        for r in &doc.reviews {
            let exists: Option<i64> = tx
                .query_row(
                    "SELECT id FROM reviews WHERE question_id = ?1 AND reviewed_at = ?2 AND \
                     grade = ?3",
                    params![r.question_id, r.reviewed_at, r.grade.number()],
                    |row| row.get(0),
                )
                .optional()
                .map_err(&err)?;
            if exists.is_some() {
                continue;
            }
            let review = NewReview {
                question_id: &r.question_id,
                grade: r.grade,
                reviewed_at: r.reviewed_at,
                took_ms: r.took_ms,
                mode: r.mode,
            };
            let id = insert_review(&tx, &review, r.phase_before).map_err(&err)?;
            if let Some(at) = r.undone_at {
                tx.execute(
                    "INSERT INTO undos (review_id, undone_at) VALUES (?1, ?2)",
                    params![id, at],
                )
                .map_err(&err)?;
            }
            sum.reviews += 1;
        }
        for c in &doc.cards {
            let stored = Store::card_in(&tx, &c.question_id)?;
            let newer = match &stored {
                None => true,
                Some(s) => c.last_review > s.last_review,
            };
            if newer {
                upsert_card(&tx, c).map_err(&err)?;
                sum.cards += 1;
            }
        }
        for s in &doc.mock_sessions {
            let exists: Option<i64> = tx
                .query_row(
                    "SELECT id FROM mock_sessions WHERE started_at = ?1",
                    [s.started_at],
                    |row| row.get(0),
                )
                .optional()
                .map_err(&err)?;
            if exists.is_some() {
                continue;
            }
            let scorecard = s.scorecard.as_ref().map(|v| v.to_string());
            tx.execute(
                "INSERT INTO mock_sessions (started_at, finished_at, level, topic, seed, \
                 strictness, planned, overall, scorecard) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \
                 ?8, ?9)",
                params![
                    s.started_at,
                    s.finished_at,
                    s.level,
                    s.topic,
                    s.seed,
                    s.strictness,
                    s.planned,
                    s.overall,
                    scorecard
                ],
            )
            .map_err(&err)?;
            let id = tx.last_insert_rowid();
            for a in &s.answers {
                insert_mock_answer(&tx, id, a).map_err(&err)?;
            }
            sum.mock_sessions += 1;
        }
        for c in &doc.solved_challenges {
            sum.solved_challenges += tx
                .execute(
                    "INSERT OR IGNORE INTO solved_challenges (question_id, title, solved_at) \
                     VALUES (?1, ?2, ?3)",
                    params![c.question_id, c.title, c.solved_at],
                )
                .map_err(&err)?;
        }
        for q in &doc.quiz_sessions {
            let exists: Option<i64> = tx
                .query_row(
                    "SELECT id FROM quiz_sessions WHERE started_at = ?1",
                    [q.started_at],
                    |row| row.get(0),
                )
                .optional()
                .map_err(&err)?;
            if exists.is_some() {
                continue;
            }
            tx.execute(
                "INSERT INTO quiz_sessions (started_at, finished_at, topic, level, seed, planned, \
                 answered, correct, result) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    q.started_at,
                    q.finished_at,
                    q.topic,
                    q.level,
                    q.seed as i64,
                    q.planned,
                    q.answered,
                    q.correct,
                    q.result.to_string()
                ],
            )
            .map_err(&err)?;
            sum.quiz_sessions += 1;
        }
        for f in &doc.review_flags {
            sum.review_flags += usize::from(
                super::history::flag_in(&tx, &f.question_id, f.flagged_at, &f.reason)
                    .map_err(&err)?,
            );
        }
        for a in &doc.typed_answers {
            sum.typed_answers += usize::from(super::history::typed_in(&tx, a).map_err(&err)?);
        }
        tx.commit().map_err(&err)?;
        Ok(sum)
    }
}
