//! A progress file kubedrill cannot use as it is: not ours (another program's SQLite file,
//! a negative schema version) is moved aside whole; rows the readers cannot read are
//! dropped after the file as it was is copied beside it, and everything else is kept.

use kubedrill::study::store::Mode;
use kubedrill::study::time::DAY_MS;
use kubedrill::study::{Grade, Progress, Store, StudyConfig};

/// 2024-10-04 12:00:00 UTC.
const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;

fn sqlite(path: &std::path::Path, sql: &str) {
    let c = rusqlite::Connection::open(path).expect("open");
    c.execute_batch(sql).expect("sql");
}

/// A store in `dir` with two graded questions, closed.
fn two_grades(dir: &std::path::Path) {
    let mut p = Progress::new(Store::open_dir(dir, NOW).store, StudyConfig::default()).unwrap();
    p.grade("spec-vs-status", Grade::Good, NOW, 100, Mode::Review)
        .unwrap();
    p.grade("deleted-pod-returns", Grade::Hard, NOW, 100, Mode::Review)
        .unwrap();
}

#[test]
fn a_negative_schema_version_is_moved_aside_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    two_grades(tmp.path());
    sqlite(&tmp.path().join("progress.db"), "PRAGMA user_version = -1;");
    let opened = Store::open_dir(tmp.path(), NOW);
    assert!(opened.store.is_saving());
    assert_eq!(opened.notices.len(), 1, "{:?}", opened.notices);
    assert!(
        opened.notices[0].contains("its schema version is -1")
            && opened.notices[0].contains("moved aside"),
        "{}",
        opened.notices[0]
    );
    assert!(
        tmp.path()
            .join("progress.db.damaged-20241004-120000")
            .exists()
    );
}

#[test]
fn another_programs_database_is_moved_aside_not_migrated() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("progress.db");
    sqlite(
        &db,
        "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('x');",
    );
    let opened = Store::open_dir(tmp.path(), NOW);
    assert!(
        opened.notices[0].contains("another program's database (tables moz_places)"),
        "{:?}",
        opened.notices
    );
    let aside = tmp.path().join("progress.db.damaged-20241004-120000");
    let c = rusqlite::Connection::open(&aside).unwrap();
    let n: i64 = c
        .query_row("SELECT COUNT(*) FROM moz_places", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1, "the foreign file was changed");
}

#[test]
fn a_table_missing_from_our_schema_moves_the_file_aside() {
    let tmp = tempfile::tempdir().unwrap();
    two_grades(tmp.path());
    sqlite(&tmp.path().join("progress.db"), "DROP TABLE review_flags;");
    let opened = Store::open_dir(tmp.path(), NOW);
    assert!(
        opened.notices[0].contains("it has no table `review_flags`"),
        "{:?}",
        opened.notices
    );
    assert!(opened.store.cards().unwrap().is_empty());
}

#[test]
fn unreadable_rows_are_dropped_the_rest_kept_and_a_copy_made_first() {
    let tmp = tempfile::tempdir().unwrap();
    two_grades(tmp.path());
    let db = tmp.path().join("progress.db");
    sqlite(
        &db,
        "UPDATE cards SET phase = 'zombie' WHERE question_id = 'spec-vs-status';
         UPDATE reviews SET reviewed_at = 'abc' WHERE question_id = 'spec-vs-status';",
    );
    let opened = Store::open_dir(tmp.path(), NOW + 1);
    assert_eq!(opened.notices.len(), 1, "{:?}", opened.notices);
    let n = &opened.notices[0];
    assert!(n.starts_with("2 rows of the progress database"), "{n}");
    assert!(n.contains("holds a value"), "{n}");
    // What could be read is still there and readable; stats and export work again.
    let cards = opened.store.cards().unwrap();
    assert_eq!(cards.len(), 1);
    assert!(cards.contains_key("deleted-pod-returns"));
    assert_eq!(opened.store.reviews().unwrap().len(), 1);
    assert!(opened.store.export().is_ok());
    // The copy holds every row as it was.
    let copy = tmp.path().join("progress.db.damaged-20241004-120000");
    let c = rusqlite::Connection::open(&copy).unwrap();
    let phase: String = c
        .query_row(
            "SELECT phase FROM cards WHERE question_id = 'spec-vs-status'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(phase, "zombie");
    drop(opened);
    // Opened again, nothing more to say.
    assert!(Store::open_dir(tmp.path(), NOW + 2).notices.is_empty());
}

/// A data folder that cannot be written (read-only, or a full disk) still shows the
/// progress already in it: stats and export read a copy in memory, nothing is written.
#[test]
fn a_file_that_cannot_be_written_is_read_through_a_copy() {
    let tmp = tempfile::tempdir().unwrap();
    two_grades(tmp.path());
    let db = tmp.path().join("progress.db");
    let before = std::fs::read(&db).unwrap();
    let mut store = Store::read_only_copy(&db, "read-only for the test").unwrap();
    assert!(!store.is_saving());
    assert!(store.holds_progress());
    assert_eq!(store.reviews().unwrap().len(), 2);
    assert_eq!(store.export().unwrap().reviews.len(), 2);
    // A grade goes into the copy only.
    let mut p = Progress::new(store, StudyConfig::default()).unwrap();
    p.grade("spec-vs-status", Grade::Again, NOW + 5, 100, Mode::Review)
        .unwrap();
    store = p.store;
    assert_eq!(store.reviews().unwrap().len(), 3);
    drop(store);
    assert_eq!(std::fs::read(&db).unwrap(), before, "the file was written");
    assert_eq!(
        Store::open_dir(tmp.path(), NOW)
            .store
            .reviews()
            .unwrap()
            .len(),
        2
    );
}
