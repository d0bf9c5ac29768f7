//! Opening the progress store: damaged files moved aside (never deleted), older schemas
//! migrated, unusable folders reported with an in-memory fallback; export and import
//! round-trip everything.

use std::path::{Path, PathBuf};

use kubedrill::study::store::{MockAnswerRecord, Mode};
use kubedrill::study::time::DAY_MS;
use kubedrill::study::{Grade, Phase, Progress, Store, StudyConfig};

/// 2024-10-04 12:00:00 UTC.
const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/store")
        .join(name)
}

#[test]
fn a_file_that_is_not_a_database_is_moved_aside_and_a_fresh_store_started() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("progress.db");
    let original = std::fs::read(fixture("not-a-database.db")).expect("fixture");
    std::fs::write(&db, &original).expect("copy");

    let opened = Store::open_dir(tmp.path(), NOW);
    let aside = tmp.path().join("progress.db.damaged-20241004-120000");
    assert_eq!(
        opened.notices,
        [format!(
            "the progress database {} could not be read (file is not a database); it was moved \
             aside to {} and a fresh one started (nothing was deleted)",
            db.display(),
            aside.display()
        )]
    );
    assert!(opened.store.is_saving());
    assert_eq!(std::fs::read(&aside).expect("kept"), original);

    // The fresh store takes grades and keeps them.
    let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    p.grade("spec-vs-status", Grade::Good, NOW, 100, Mode::Review)
        .expect("grade");
    drop(p);
    let again = Store::open_dir(tmp.path(), NOW + 1000);
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert_eq!(again.store.reviews().expect("log").len(), 1);
}

#[test]
fn a_database_with_a_damaged_page_is_moved_aside_too() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("progress.db");
    {
        let mut p = Progress::new(
            Store::open_file(&db, NOW).expect("open").store,
            StudyConfig::default(),
        )
        .expect("progress");
        for i in 0..400 {
            p.grade(&format!("q{i}"), Grade::Good, NOW + i, 100, Mode::Review)
                .expect("grade");
        }
    }
    // Fold the WAL into the file, then scribble over the middle of it.
    {
        let c = rusqlite::Connection::open(&db).expect("raw");
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;")
            .expect("checkpoint");
    }
    let mut bytes = std::fs::read(&db).expect("read");
    let len = bytes.len();
    assert!(len > 8192, "the database should span several pages");
    for b in &mut bytes[len / 2..len / 2 + 4096] {
        *b = 0xA5;
    }
    std::fs::write(&db, &bytes).expect("write");

    let opened = Store::open_dir(tmp.path(), NOW);
    assert_eq!(opened.notices.len(), 1, "{:?}", opened.notices);
    let n = &opened.notices[0];
    assert!(
        n.starts_with(&format!(
            "the progress database {} could not be read (",
            db.display()
        )),
        "{n}"
    );
    assert!(
        n.ends_with(
            "progress.db.damaged-20241004-120000 and a fresh one started (nothing was deleted)"
        ),
        "{n}"
    );
    // Moved aside untouched, byte for byte.
    assert!(
        std::fs::read(tmp.path().join("progress.db.damaged-20241004-120000")).expect("kept")
            == bytes
    );
    assert!(opened.store.reviews().expect("fresh").is_empty());
}

#[test]
fn an_older_schema_is_migrated_keeping_its_reviews() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("progress.db");
    {
        let c = rusqlite::Connection::open(&db).expect("raw");
        c.execute_batch(&std::fs::read_to_string(fixture("schema-v1.sql")).expect("sql"))
            .expect("v1 file");
    }
    let opened = Store::open_dir(tmp.path(), NOW);
    assert_eq!(
        opened.notices,
        [format!(
            "the progress database {} was upgraded from schema version 1 to 4",
            db.display()
        )]
    );
    let store = opened.store;
    assert_eq!(store.schema_version().expect("version"), 4);
    assert!(store.typed_answers(None).expect("the new table").is_empty());
    let log = store.reviews().expect("log");
    assert_eq!(log.len(), 2);
    assert_eq!(log[0].grade, Grade::Good);
    assert_eq!(log[1].phase_before, Phase::Learning);
    let card = store.card("spec-vs-status").expect("read").expect("card");
    assert_eq!(card.phase, Phase::Review);
    assert_eq!(card.interval_days, 3);
    assert_eq!(card.buried_until, None);

    // What version 2 added works on the migrated file, and a second open is quiet.
    let mut p = Progress::new(store, StudyConfig::default()).expect("progress");
    let (id, _) = p
        .grade("spec-vs-status", Grade::Again, NOW, 100, Mode::Review)
        .expect("grade");
    assert_eq!(
        p.card("spec-vs-status").expect("card").phase,
        Phase::Relearning
    );
    assert!(p.store.undo(id, &card, NOW + 1).expect("undo"));
    assert!(!p.store.undo(id, &card, NOW + 2).expect("only once"));
    assert_eq!(p.card("spec-vs-status").expect("card"), card);
    drop(p);
    assert!(Store::open_dir(tmp.path(), NOW).notices.is_empty());
}

#[test]
fn a_data_folder_that_cannot_be_made_gives_a_store_that_does_not_save() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("a-file");
    std::fs::write(&file, "").expect("file");
    let dir = file.join("data");
    let opened = Store::open_dir(&dir, NOW);
    assert_eq!(opened.notices.len(), 1);
    assert!(
        opened.notices[0].starts_with(&format!(
            "the data folder {} could not be created (",
            dir.display()
        )),
        "{:?}",
        opened.notices
    );
    assert!(
        opened.notices[0].ends_with("); studying without saving progress"),
        "{:?}",
        opened.notices
    );
    assert!(!opened.store.is_saving());
    // Studying still works, in memory.
    let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    p.grade("spec-vs-status", Grade::Easy, NOW, 100, Mode::Review)
        .expect("grade in memory");
    assert_eq!(p.store.reviews().expect("log").len(), 1);
}

#[test]
fn a_newer_schema_is_left_alone() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = tmp.path().join("progress.db");
    {
        let c = rusqlite::Connection::open(&db).expect("raw");
        c.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;")
            .expect("future file");
    }
    let opened = Store::open_dir(tmp.path(), NOW);
    assert!(!opened.store.is_saving());
    assert_eq!(
        opened.notices,
        [format!(
            "the progress database {} is at schema version 99, newer than this kubedrill knows \
             (4); it was left untouched (update kubedrill to use it); studying without saving \
             progress",
            db.display()
        )]
    );
    assert!(db.exists());
}

#[test]
fn export_then_import_into_an_empty_store_round_trips_everything() {
    let mut a =
        Progress::new(Store::in_memory("a").expect("a"), StudyConfig::default()).expect("progress");
    for (i, g) in [Grade::Good, Grade::Again, Grade::Easy, Grade::Hard]
        .into_iter()
        .enumerate()
    {
        let q = if i % 2 == 0 {
            "spec-vs-status"
        } else {
            "deleted-pod-returns"
        };
        a.grade(q, g, NOW + i as i64 * 60_000, 900, Mode::Review)
            .expect("grade");
    }
    let (cram_id, _) = a
        .grade("removed-question", Grade::Good, NOW + DAY_MS, 1, Mode::Cram)
        .expect("cram");
    let removed = a.card("removed-question").expect("card");
    assert!(
        a.store
            .undo(cram_id, &removed, NOW + DAY_MS + 5)
            .expect("undo")
    );
    a.store
        .bury("deleted-pod-returns", NOW + 2 * DAY_MS)
        .expect("bury");
    let s = a
        .store
        .start_mock_session(NOW, Some("senior"), None, Some(7))
        .expect("mock");
    a.store
        .record_mock_answer(
            s,
            &MockAnswerRecord {
                question_id: "spec-vs-status".into(),
                tier: "basics".into(),
                asked_at: NOW + 10,
                took_ms: 9_000,
                budget_ms: 10_000,
                keypoints_covered: vec![0, 2],
                keypoints_total: 4,
                pitfalls_said: vec![1],
                followup: Some("what sets observedGeneration?".into()),
                score: 0.5,
            },
        )
        .expect("answer");
    a.store
        .finish_mock_session(s, NOW + 60_000)
        .expect("finish");
    a.store
        .record_solved("spec-vs-status", "Make the controller fall behind", NOW)
        .expect("solved");

    let doc = a.store.export().expect("export");
    assert_eq!(doc.reviews.len(), 5);
    assert_eq!(doc.reviews[4].undone_at, Some(NOW + DAY_MS + 5));
    let json = serde_json::to_string(&doc).expect("json");
    let back: kubedrill::study::store::Export = serde_json::from_str(&json).expect("parse");

    let mut b = Store::in_memory("b").expect("b");
    let sum = b.import(&back).expect("import");
    assert_eq!(
        (
            sum.reviews,
            sum.cards,
            sum.mock_sessions,
            sum.solved_challenges
        ),
        (5, 2, 1, 1)
    );
    assert_eq!(b.export().expect("export b"), doc);
    // Importing again adds nothing.
    let again = b.import(&back).expect("import again");
    assert_eq!(again, Default::default());
    assert_eq!(b.export().expect("export b"), doc);
}

/// A first start makes no file (the home screen has nothing to read from one), yet the
/// store says it saves; the first write of any kind creates the file and lands in it, so
/// the folder opened again holds it, and reads alone never create it.
#[test]
fn a_fresh_folder_gets_its_file_at_the_first_write_not_at_start() {
    for write in 0..4 {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("data");
        let db = dir.join("progress.db");
        let opened = Store::open_dir(&dir, NOW);
        assert!(opened.notices.is_empty(), "{:?}", opened.notices);
        assert!(opened.store.is_saving());
        assert!(
            !db.exists() && !dir.exists(),
            "opening a fresh folder must create neither the folder nor the file"
        );
        let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
        assert!(p.store.reviews().expect("reviews").is_empty());
        assert!(p.store.cards().expect("cards").is_empty());
        assert!(!db.exists(), "reading must not create the file");
        match write {
            0 => {
                p.grade("spec-vs-status", Grade::Good, NOW, 100, Mode::Review)
                    .expect("grade");
            }
            1 => p.store.bury("spec-vs-status", NOW + DAY_MS).expect("bury"),
            2 => p
                .store
                .record_solved("spec-vs-status", "a challenge", NOW)
                .expect("solved"),
            _ => p
                .store
                .flag_for_review("spec-vs-status", NOW, "missed in a quiz")
                .expect("flag"),
        }
        assert!(db.exists(), "write {write} did not create the file");
        drop(p);
        let again = Store::open_dir(&dir, NOW + 1000).store;
        match write {
            0 => assert_eq!(again.reviews().expect("log").len(), 1),
            1 => assert_eq!(
                again
                    .card("spec-vs-status")
                    .expect("card")
                    .and_then(|c| c.buried_until),
                Some(NOW + DAY_MS)
            ),
            2 => assert_eq!(again.solved().expect("solved").len(), 1),
            _ => assert!(again.flags().expect("flags").contains_key("spec-vs-status")),
        }
    }
}

/// A fresh folder's store has no database until its first write; each read answers what
/// a database just made answers, so the app shows the same whichever it has.
#[test]
fn a_store_with_no_database_yet_reads_as_an_empty_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let pending = Store::open_dir(&tmp.path().join("data"), NOW).store;
    let empty = Store::in_memory("for comparison").expect("in memory");
    let reads = |s: &Store| {
        format!(
            "{:?}",
            (
                s.schema_version().expect("version"),
                s.card("spec-vs-status").expect("card"),
                s.cards().expect("cards"),
                s.new_cards_started(NOW).expect("started"),
                s.reviews().expect("reviews").len(),
                s.solved().expect("solved"),
                s.export_counts().expect("counts"),
                s.mocks().expect("mocks").len(),
                s.quizzes().expect("quizzes").len(),
                s.flag_rows().expect("flags"),
                s.typed_answers(None).expect("typed").len(),
                serde_json::to_string(&s.export().expect("export")).expect("json"),
            )
        )
    };
    assert_eq!(reads(&pending), reads(&empty));
    assert!(!tmp.path().join("data/progress.db").exists());
}

/// The folder of a first start is made at the first write; if by then it cannot be, the
/// write fails with the reason (nothing is claimed saved) instead of at start.
#[test]
fn a_folder_that_cannot_be_made_at_the_first_write_fails_that_write() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let mut store = Store::open_dir(&dir, NOW).store;
    assert!(store.is_saving());
    std::fs::write(&dir, "a file where the folder was to go").expect("file");
    let e = store
        .record_solved("spec-vs-status", "a challenge", NOW)
        .expect_err("no folder, no write");
    assert!(
        e.to_string().starts_with(&format!(
            "the data folder {} could not be created (",
            dir.display()
        )),
        "{e}"
    );
    assert!(store.solved().expect("solved").is_empty());
}
