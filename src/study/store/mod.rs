//! The progress store: one SQLite file in the data folder. The review log is append-only
//! (an undo is a new row in `undos`, never a deletion); every write is its own IMMEDIATE
//! transaction, committed with `synchronous=FULL` before the call returns, so a grade the
//! caller was told about survives a crash. WAL and a busy timeout let two instances share
//! the file. A file that cannot be read is moved aside, never deleted; a folder that cannot
//! be written gives an in-memory store that studies without saving.

mod export;
mod history;
mod open;
mod repair;
pub mod schema;
mod validate;

use std::collections::HashMap;
use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::{Deserialize, Serialize};

use super::schedule::{CardState, Grade, Phase};
use super::time::{DAY_MS, Millis};

pub use export::{
    Export, FlagRecord, ImportSummary, MockAnswerRecord, MockSessionRecord, QuizSessionRecord,
    ReviewRecord, TypedAnswerRecord,
};
pub use history::{MockStart, MockSummary, QuizProgress, QuizStart, QuizSummary};
pub use open::{FILE_NAME, Opened};
pub use validate::MAX_ANSWER;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("progress database {where_}: {source}")]
    Sqlite {
        where_: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("{0}")]
    Io(String),
    #[error(
        "the progress database {path} is at schema version {found}, newer than this kubedrill \
         knows ({known}); it was left untouched (update kubedrill to use it)"
    )]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("{path} is not a kubedrill progress database: {why}")]
    NotOurs { path: String, why: String },
    #[error("a stored card for `{0}` could not be read: {1}")]
    BadRow(String, String),
    #[error("import: {0}")]
    Import(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How a grade was given; kept in the log with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Due and new cards; the schedule moves.
    Review,
    /// Practice outside the schedule; logged, the schedule is untouched.
    Cram,
    /// Practice outside the due queue that still moves the schedule.
    CramReschedule,
    /// A mock interview's grade for a question; the schedule moves.
    Mock,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Review => "review",
            Mode::Cram => "cram",
            Mode::CramReschedule => "cram-reschedule",
            Mode::Mock => "mock",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        [Mode::Review, Mode::Cram, Mode::CramReschedule, Mode::Mock]
            .into_iter()
            .find(|m| m.as_str() == s)
    }

    pub fn moves_schedule(self) -> bool {
        self != Mode::Cram
    }
}

/// One row of the review log.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub id: i64,
    pub question_id: String,
    pub grade: Grade,
    pub reviewed_at: Millis,
    pub took_ms: i64,
    pub mode: Mode,
    pub phase_before: Phase,
    pub undone_at: Option<Millis>,
}

/// A grade about to be logged.
#[derive(Debug, Clone)]
pub struct NewReview<'a> {
    pub question_id: &'a str,
    pub grade: Grade,
    pub reviewed_at: Millis,
    pub took_ms: i64,
    pub mode: Mode,
}

/// Where the store keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    File(PathBuf),
    /// The file does not exist yet: the store is empty and in memory, and moves onto a
    /// new file at this path before its first write (so a first start draws without
    /// waiting for the file to be created and synced; a grade is on disk as before).
    Pending(PathBuf),
    /// Nothing is saved; the reason says why.
    Memory(String),
    /// A copy in memory of a file that cannot be written: its progress is shown, nothing
    /// new is saved; the reason says why.
    Copy(PathBuf, String),
}

pub struct Store {
    /// `None` only while a pending store has had no write: there is no database yet, and
    /// every read answers as a database just made would (nothing stored). So a first
    /// start draws without making one, in memory or on disk.
    conn: Option<Connection>,
    location: Location,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("location", &self.location)
            .finish()
    }
}

fn sql(where_: &str) -> impl Fn(rusqlite::Error) -> StoreError + use<> {
    let where_ = where_.to_string();
    move |source| StoreError::Sqlite {
        where_: where_.clone(),
        source,
    }
}

const CARD_COLUMNS: &str = "question_id, phase, step, stability, difficulty, due, last_review, \
                            interval_days, reps, lapses, buried_until";

fn card_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(CardState, String)> {
    let phase: String = row.get(1)?;
    let card = CardState {
        question_id: row.get(0)?,
        phase: Phase::New,
        step: row.get(2)?,
        stability: row.get::<_, Option<f64>>(3)?.map(|v| v as f32),
        difficulty: row.get::<_, Option<f64>>(4)?.map(|v| v as f32),
        due: row.get(5)?,
        last_review: row.get(6)?,
        interval_days: row.get(7)?,
        reps: row.get(8)?,
        lapses: row.get(9)?,
        buried_until: row.get(10)?,
    };
    Ok((card, phase))
}

fn with_phase((mut card, phase): (CardState, String)) -> Result<CardState> {
    card.phase = Phase::parse(&phase).ok_or_else(|| {
        StoreError::BadRow(card.question_id.clone(), format!("unknown phase `{phase}`"))
    })?;
    Ok(card)
}

/// The review log's one insert (grading and import both go through it); returns the id.
fn insert_review(
    conn: &Connection,
    review: &NewReview<'_>,
    phase_before: Phase,
) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "INSERT INTO reviews (question_id, grade, reviewed_at, took_ms, mode, phase_before) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        review.question_id,
        review.grade.number(),
        review.reviewed_at,
        review.took_ms,
        review.mode.as_str(),
        phase_before.as_str(),
    ])?;
    Ok(conn.last_insert_rowid())
}

fn upsert_card(conn: &Connection, c: &CardState) -> rusqlite::Result<()> {
    conn.prepare_cached(&format!(
        "INSERT OR REPLACE INTO cards ({CARD_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, \
         ?9, ?10, ?11)"
    ))?
    .execute(params![
        c.question_id,
        c.phase.as_str(),
        c.step,
        c.stability.map(f64::from),
        c.difficulty.map(f64::from),
        c.due,
        c.last_review,
        c.interval_days,
        c.reps,
        c.lapses,
        c.buried_until,
    ])?;
    Ok(())
}

/// Runs the migrations this file lacks, all in one IMMEDIATE transaction that re-reads
/// the version: two instances opening a file at once migrate it once, and neither can
/// see it half made (a fresh file is created whole, so it is not "upgraded").
/// Returns the version an existing file was upgraded from, if it was.
fn migrate(conn: &mut Connection, path: &str) -> Result<Option<i64>> {
    let err = sql(path);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(&err)?;
    let v: i64 = tx
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(&err)?;
    if v > schema::VERSION {
        return Err(StoreError::TooNew {
            path: path.to_string(),
            found: v,
            known: schema::VERSION,
        });
    }
    for step in v..schema::VERSION {
        tx.execute_batch(schema::MIGRATIONS[step as usize])
            .map_err(&err)?;
    }
    if v < schema::VERSION {
        tx.pragma_update(None, "user_version", schema::VERSION)
            .map_err(&err)?;
    }
    tx.commit().map_err(&err)?;
    Ok(Some(v).filter(|f| *f > 0 && *f < schema::VERSION))
}

impl Store {
    /// A store that keeps nothing past the process; `reason` says why.
    pub fn in_memory(reason: &str) -> Result<Store> {
        let mut conn = Connection::open_in_memory().map_err(sql("in memory"))?;
        migrate(&mut conn, ":memory:")?;
        Ok(Store {
            conn: Some(conn),
            location: Location::Memory(reason.to_string()),
        })
    }

    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Whether grades outlive the process.
    pub fn is_saving(&self) -> bool {
        matches!(self.location, Location::File(_) | Location::Pending(_))
    }

    /// Whether it holds the user's progress (saved, or a copy of a file that cannot be
    /// written), so an export of it is worth having.
    pub fn holds_progress(&self) -> bool {
        matches!(
            self.location,
            Location::File(_) | Location::Pending(_) | Location::Copy(..)
        )
    }

    /// A store for a file not yet made: empty, with no database at all, until the first
    /// write makes the file.
    pub fn pending(path: &std::path::Path) -> Store {
        Store {
            conn: None,
            location: Location::Pending(path.to_path_buf()),
        }
    }

    /// The database to read; `None` for a pending store, which holds nothing yet (each
    /// read then answers its empty default, what a database just made would give).
    fn reader(&self) -> Option<&Connection> {
        self.conn.as_ref()
    }

    /// The database to write: a pending store's file is made first.
    fn writer(&mut self) -> Result<&mut Connection> {
        self.on_disk()?;
        let where_ = self.where_();
        self.conn
            .as_mut()
            .ok_or_else(|| StoreError::Io(format!("{where_}: the database was not opened")))
    }

    /// Every write starts here: a pending store first creates its folder and file (as
    /// `open_file` does, migrations and all) and moves onto it. Nothing was written to the
    /// memory it leaves, so nothing is left behind.
    fn on_disk(&mut self) -> Result<()> {
        if let Location::Pending(path) = &self.location {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Io(format!(
                        "the data folder {} could not be created ({e})",
                        dir.display()
                    ))
                })?;
            }
            let opened = Store::open_file(&path.clone(), crate::study::time::now())?;
            *self = opened.store;
        }
        Ok(())
    }

    fn where_(&self) -> String {
        match &self.location {
            Location::File(p) | Location::Pending(p) => p.display().to_string(),
            Location::Memory(_) => "(in memory)".into(),
            Location::Copy(p, _) => format!("{} (a copy in memory)", p.display()),
        }
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> StoreError + use<> {
        let w = self.where_();
        move |source| StoreError::Sqlite {
            where_: w.clone(),
            source,
        }
    }

    /// The schema version of the database; a pending store's file will be made at this
    /// kubedrill's.
    pub fn schema_version(&self) -> Result<i64> {
        let Some(conn) = self.reader() else {
            return Ok(schema::VERSION);
        };
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(self.err())
    }

    /// Logs a grade, clears the question's review flag and, unless the mode leaves the
    /// schedule alone, stores `next`; one
    /// transaction, committed before this returns. Returns the review's id.
    pub fn record(
        &mut self,
        review: &NewReview<'_>,
        prev: &CardState,
        next: Option<&CardState>,
    ) -> Result<i64> {
        let err = self.err();
        let tx = self
            .writer()?
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&err)?;
        let id = insert_review(&tx, review, prev.phase).map_err(&err)?;
        // A question put forward for review has been seen again, in whatever mode.
        tx.execute(
            "DELETE FROM review_flags WHERE question_id = ?1",
            [review.question_id],
        )
        .map_err(&err)?;
        if let Some(next) = next.filter(|_| review.mode.moves_schedule()) {
            upsert_card(&tx, next).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        Ok(id)
    }

    /// Marks a review undone and, if it moved the schedule, puts its card back to
    /// `restore` (the state before it, which the caller kept). False when the review was
    /// already undone or does not exist.
    pub fn undo(&mut self, review_id: i64, restore: &CardState, now: Millis) -> Result<bool> {
        let err = self.err();
        let tx = self
            .writer()?
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&err)?;
        let row: Option<(String, String)> = tx
            .query_row(
                "SELECT r.question_id, r.mode FROM reviews r WHERE r.id = ?1 AND NOT EXISTS \
                 (SELECT 1 FROM undos u WHERE u.review_id = r.id)",
                [review_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(&err)?;
        let Some((qid, mode)) = row else {
            return Ok(false);
        };
        if qid != restore.question_id {
            return Err(StoreError::BadRow(
                qid,
                format!("undo would restore the card of `{}`", restore.question_id),
            ));
        }
        tx.execute(
            "INSERT INTO undos (review_id, undone_at) VALUES (?1, ?2)",
            params![review_id, now],
        )
        .map_err(&err)?;
        if Mode::parse(&mode).is_none_or(Mode::moves_schedule) {
            upsert_card(&tx, restore).map_err(&err)?;
        }
        tx.commit().map_err(&err)?;
        Ok(true)
    }

    /// Hides a card from every queue until `until`.
    pub fn bury(&mut self, question_id: &str, until: Millis) -> Result<()> {
        let err = self.err();
        let tx = self
            .writer()?
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&err)?;
        let mut card =
            Self::card_in(&tx, question_id)?.unwrap_or_else(|| CardState::new(question_id));
        card.buried_until = Some(until);
        upsert_card(&tx, &card).map_err(&err)?;
        tx.commit().map_err(&err)?;
        Ok(())
    }

    fn card_in(conn: &Connection, question_id: &str) -> Result<Option<CardState>> {
        let row = conn
            .query_row(
                &format!("SELECT {CARD_COLUMNS} FROM cards WHERE question_id = ?1"),
                [question_id],
                card_from_row,
            )
            .optional()
            .map_err(sql("cards"))?;
        row.map(with_phase).transpose()
    }

    pub fn card(&self, question_id: &str) -> Result<Option<CardState>> {
        match self.reader() {
            Some(conn) => Self::card_in(conn, question_id),
            None => Ok(None),
        }
    }

    /// Every stored card state, by question id (removed questions included).
    pub fn cards(&self) -> Result<HashMap<String, CardState>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(&format!("SELECT {CARD_COLUMNS} FROM cards"))
            .map_err(self.err())?;
        let rows = st.query_map([], card_from_row).map_err(self.err())?;
        let mut out = HashMap::new();
        for row in rows {
            let card = with_phase(row.map_err(self.err())?)?;
            out.insert(card.question_id.clone(), card);
        }
        Ok(out)
    }

    /// New cards first graded in the day starting at `day_start`, undone grades and cram
    /// not counted: what the daily new-card limit is measured against.
    pub fn new_cards_started(&self, day_start: Millis) -> Result<u32> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        conn.query_row(
            "SELECT COUNT(DISTINCT r.question_id) FROM reviews r WHERE r.reviewed_at >= ?1 \
                 AND r.reviewed_at < ?2 AND r.phase_before = 'new' AND r.mode != 'cram' AND NOT \
                 EXISTS (SELECT 1 FROM undos u WHERE u.review_id = r.id)",
            params![day_start, day_start + DAY_MS],
            |r| r.get(0),
        )
        .map_err(self.err())
    }

    /// The whole review log in time order, undone reviews marked.
    pub fn reviews(&self) -> Result<Vec<Review>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT r.id, r.question_id, r.grade, r.reviewed_at, r.took_ms, r.mode, \
                 r.phase_before, u.undone_at FROM reviews r LEFT JOIN undos u ON u.review_id = \
                 r.id ORDER BY r.reviewed_at, r.id",
            )
            .map_err(self.err())?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u8>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, Option<i64>>(7)?,
                ))
            })
            .map_err(self.err())?;
        let mut out = Vec::new();
        for row in rows {
            let (id, qid, grade, at, took, mode, phase, undone) = row.map_err(self.err())?;
            let bad = |what: String| StoreError::BadRow(qid.clone(), what);
            out.push(Review {
                id,
                grade: Grade::from_number(grade).ok_or_else(|| bad(format!("grade {grade}")))?,
                reviewed_at: at,
                took_ms: took,
                mode: Mode::parse(&mode).ok_or_else(|| bad(format!("mode `{mode}`")))?,
                phase_before: Phase::parse(&phase)
                    .ok_or_else(|| bad(format!("phase `{phase}`")))?,
                undone_at: undone,
                question_id: qid,
            });
        }
        Ok(out)
    }

    /// Starts a mock-interview session; returns its id.
    pub fn start_mock_session(
        &mut self,
        started_at: Millis,
        level: Option<&str>,
        topic: Option<&str>,
        seed: Option<u64>,
    ) -> Result<i64> {
        self.writer()?
            .execute(
                "INSERT INTO mock_sessions (started_at, level, topic, seed) VALUES (?1, ?2, ?3, \
                 ?4)",
                params![started_at, level, topic, seed.map(|s| s as i64)],
            )
            .map_err(self.err())?;
        Ok(self.writer()?.last_insert_rowid())
    }

    pub fn finish_mock_session(&mut self, id: i64, finished_at: Millis) -> Result<()> {
        self.writer()?
            .execute(
                "UPDATE mock_sessions SET finished_at = ?2 WHERE id = ?1",
                params![id, finished_at],
            )
            .map_err(self.err())?;
        Ok(())
    }

    /// One answer in a mock interview, durable on return.
    pub fn record_mock_answer(&mut self, session_id: i64, a: &MockAnswerRecord) -> Result<i64> {
        export::insert_mock_answer(self.writer()?, session_id, a).map_err(self.err())?;
        Ok(self.writer()?.last_insert_rowid())
    }

    /// A demo challenge solved; the first time is kept.
    pub fn record_solved(&mut self, question_id: &str, title: &str, at: Millis) -> Result<()> {
        self.writer()?
            .execute(
                "INSERT OR IGNORE INTO solved_challenges (question_id, title, solved_at) VALUES \
                 (?1, ?2, ?3)",
                params![question_id, title, at],
            )
            .map_err(self.err())?;
        Ok(())
    }

    /// (question id, challenge title, solved at) for every solved challenge.
    pub fn solved(&self) -> Result<Vec<(String, String, Millis)>> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        let mut st = conn
            .prepare_cached(
                "SELECT question_id, title, solved_at FROM solved_challenges ORDER BY solved_at, \
                 question_id, title",
            )
            .map_err(self.err())?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(self.err())?;
        rows.collect::<rusqlite::Result<_>>().map_err(self.err())
    }

    /// (mock-interview sessions, solved challenges) stored.
    pub fn export_counts(&self) -> Result<(usize, usize)> {
        let Some(conn) = self.reader() else {
            return Ok(Default::default());
        };
        conn.query_row(
            "SELECT (SELECT COUNT(*) FROM mock_sessions), (SELECT COUNT(*) FROM \
                 solved_challenges)",
            [],
            |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)? as usize)),
        )
        .map_err(self.err())
    }
}
