//! The database schema, as numbered migrations. `PRAGMA user_version` holds the version a
//! file is at; opening a file runs the migrations it lacks, in one transaction each.

/// Migration `i` takes a database from version `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: the review log and card states.
    "CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        question_id TEXT NOT NULL,
        grade INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 4),
        reviewed_at INTEGER NOT NULL,
        took_ms INTEGER NOT NULL,
        mode TEXT NOT NULL,
        phase_before TEXT NOT NULL
    );
    CREATE INDEX reviews_by_question ON reviews (question_id, reviewed_at);
    CREATE INDEX reviews_by_time ON reviews (reviewed_at);
    CREATE TABLE cards (
        question_id TEXT PRIMARY KEY,
        phase TEXT NOT NULL,
        step INTEGER NOT NULL,
        stability REAL,
        difficulty REAL,
        due INTEGER NOT NULL,
        last_review INTEGER,
        interval_days INTEGER NOT NULL,
        reps INTEGER NOT NULL,
        lapses INTEGER NOT NULL
    ) WITHOUT ROWID;",
    // 2: undo and bury; mock interviews and solved challenges.
    "ALTER TABLE cards ADD COLUMN buried_until INTEGER;
    CREATE TABLE undos (
        review_id INTEGER PRIMARY KEY REFERENCES reviews (id),
        undone_at INTEGER NOT NULL
    );
    CREATE TABLE mock_sessions (
        id INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        level TEXT,
        topic TEXT,
        seed INTEGER
    );
    CREATE TABLE mock_answers (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES mock_sessions (id),
        question_id TEXT NOT NULL,
        tier TEXT NOT NULL,
        asked_at INTEGER NOT NULL,
        took_ms INTEGER NOT NULL,
        budget_ms INTEGER NOT NULL,
        keypoints_covered TEXT NOT NULL,
        keypoints_total INTEGER NOT NULL,
        pitfalls_said TEXT NOT NULL,
        followup TEXT,
        score REAL NOT NULL
    );
    CREATE INDEX mock_answers_by_session ON mock_answers (session_id);
    CREATE TABLE solved_challenges (
        question_id TEXT NOT NULL,
        title TEXT NOT NULL,
        solved_at INTEGER NOT NULL,
        PRIMARY KEY (question_id, title)
    ) WITHOUT ROWID;",
    // 3: whole mock scorecards, quizzes, and questions a quiz put forward for review.
    "ALTER TABLE mock_sessions ADD COLUMN strictness TEXT;
    ALTER TABLE mock_sessions ADD COLUMN planned INTEGER;
    ALTER TABLE mock_sessions ADD COLUMN overall INTEGER;
    ALTER TABLE mock_sessions ADD COLUMN scorecard TEXT;
    CREATE TABLE quiz_sessions (
        id INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        topic TEXT,
        level TEXT,
        seed INTEGER NOT NULL,
        planned INTEGER NOT NULL,
        answered INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        result TEXT NOT NULL
    );
    CREATE TABLE review_flags (
        question_id TEXT PRIMARY KEY,
        flagged_at INTEGER NOT NULL,
        reason TEXT NOT NULL
    ) WITHOUT ROWID;",
    // 4: answers typed in review before the reveal, with what the learner ticked.
    "CREATE TABLE typed_answers (
        id INTEGER PRIMARY KEY,
        question_id TEXT NOT NULL,
        answered_at INTEGER NOT NULL,
        text TEXT NOT NULL,
        keypoints_covered TEXT NOT NULL,
        keypoints_total INTEGER NOT NULL,
        pitfalls_said TEXT NOT NULL,
        grade INTEGER NOT NULL CHECK (grade BETWEEN 1 AND 4)
    );
    CREATE INDEX typed_answers_by_question ON typed_answers (question_id, answered_at);",
];

/// The version a fully migrated file is at.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// A column as `PRAGMA table_info` reports it once the migrations have run.
#[derive(Debug, PartialEq)]
pub struct Column {
    pub name: &'static str,
    /// Declared type: INTEGER, REAL or TEXT.
    pub kind: &'static str,
    pub not_null: bool,
    /// Position in the primary key, 0 when not part of it.
    pub pk: i64,
}

const fn col(name: &'static str, kind: &'static str, not_null: bool, pk: i64) -> Column {
    Column {
        name,
        kind,
        not_null,
        pk,
    }
}

const INT: &str = "INTEGER";
const REAL: &str = "REAL";
const TEXT: &str = "TEXT";

/// The tables the migrations make, by name, and their columns in order: what an opened
/// file is checked against. Written out so that opening a file need not run the
/// migrations in memory to learn it (that was 4 M instructions of each start with a
/// progress file); `tables_are_what_the_migrations_make` keeps it equal to them.
pub const TABLES: &[(&str, &[Column])] = &[
    (
        "cards",
        &[
            col("question_id", TEXT, true, 1),
            col("phase", TEXT, true, 0),
            col("step", INT, true, 0),
            col("stability", REAL, false, 0),
            col("difficulty", REAL, false, 0),
            col("due", INT, true, 0),
            col("last_review", INT, false, 0),
            col("interval_days", INT, true, 0),
            col("reps", INT, true, 0),
            col("lapses", INT, true, 0),
            col("buried_until", INT, false, 0),
        ],
    ),
    (
        "mock_answers",
        &[
            col("id", INT, true, 1),
            col("session_id", INT, true, 0),
            col("question_id", TEXT, true, 0),
            col("tier", TEXT, true, 0),
            col("asked_at", INT, true, 0),
            col("took_ms", INT, true, 0),
            col("budget_ms", INT, true, 0),
            col("keypoints_covered", TEXT, true, 0),
            col("keypoints_total", INT, true, 0),
            col("pitfalls_said", TEXT, true, 0),
            col("followup", TEXT, false, 0),
            col("score", REAL, true, 0),
        ],
    ),
    (
        "mock_sessions",
        &[
            col("id", INT, true, 1),
            col("started_at", INT, true, 0),
            col("finished_at", INT, false, 0),
            col("level", TEXT, false, 0),
            col("topic", TEXT, false, 0),
            col("seed", INT, false, 0),
            col("strictness", TEXT, false, 0),
            col("planned", INT, false, 0),
            col("overall", INT, false, 0),
            col("scorecard", TEXT, false, 0),
        ],
    ),
    (
        "quiz_sessions",
        &[
            col("id", INT, true, 1),
            col("started_at", INT, true, 0),
            col("finished_at", INT, false, 0),
            col("topic", TEXT, false, 0),
            col("level", TEXT, false, 0),
            col("seed", INT, true, 0),
            col("planned", INT, true, 0),
            col("answered", INT, true, 0),
            col("correct", INT, true, 0),
            col("result", TEXT, true, 0),
        ],
    ),
    (
        "review_flags",
        &[
            col("question_id", TEXT, true, 1),
            col("flagged_at", INT, true, 0),
            col("reason", TEXT, true, 0),
        ],
    ),
    (
        "reviews",
        &[
            col("id", INT, true, 1),
            col("question_id", TEXT, true, 0),
            col("grade", INT, true, 0),
            col("reviewed_at", INT, true, 0),
            col("took_ms", INT, true, 0),
            col("mode", TEXT, true, 0),
            col("phase_before", TEXT, true, 0),
        ],
    ),
    (
        "solved_challenges",
        &[
            col("question_id", TEXT, true, 1),
            col("title", TEXT, true, 2),
            col("solved_at", INT, true, 0),
        ],
    ),
    (
        "typed_answers",
        &[
            col("id", INT, true, 1),
            col("question_id", TEXT, true, 0),
            col("answered_at", INT, true, 0),
            col("text", TEXT, true, 0),
            col("keypoints_covered", TEXT, true, 0),
            col("keypoints_total", INT, true, 0),
            col("pitfalls_said", TEXT, true, 0),
            col("grade", INT, true, 0),
        ],
    ),
    (
        "undos",
        &[
            col("review_id", INT, true, 1),
            col("undone_at", INT, true, 0),
        ],
    ),
];

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;

    /// TABLES written out from what the migrations make in a new in-memory database.
    #[test]
    fn tables_are_what_the_migrations_make() {
        let db = Connection::open_in_memory().expect("in-memory database");
        for m in MIGRATIONS {
            db.execute_batch(m).expect("migration");
        }
        let mut names = db
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .expect("prepare");
        let names: Vec<String> = names
            .query_map([], |r| r.get(0))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("names");
        let listed: Vec<&str> = TABLES.iter().map(|(t, _)| *t).collect();
        assert_eq!(names, listed, "tables (update schema::TABLES)");
        for (table, columns) in TABLES {
            let mut st = db
                .prepare(&format!("PRAGMA table_info(\"{table}\")"))
                .expect("prepare");
            let made: Vec<(String, String, bool, i64)> = st
                .query_map([], |r| {
                    let pk: i64 = r.get(5)?;
                    Ok((
                        r.get(1)?,
                        r.get::<_, String>(2)?.to_ascii_uppercase(),
                        r.get::<_, i64>(3)? != 0 || pk != 0,
                        pk,
                    ))
                })
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("columns");
            let written: Vec<(String, String, bool, i64)> = columns
                .iter()
                .map(|c| (c.name.into(), c.kind.into(), c.not_null, c.pk))
                .collect();
            assert_eq!(made, written, "columns of {table} (update schema::TABLES)");
        }
    }
}
