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
