//! Grades survive SIGKILL, and two processes grading into one store lose nothing. The
//! grading process is this test binary re-run as a helper (the ignored test `helper`),
//! which prints `ack ...` only after a grade call has returned.

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use kubedrill::study::store::Mode;
use kubedrill::study::time::{DAY_MS, MINUTE_MS};
use kubedrill::study::{Grade, Progress, Store, StudyConfig};

const DIR_ENV: &str = "KUBEDRILL_TEST_GRADE_DIR";
const PREFIX_ENV: &str = "KUBEDRILL_TEST_GRADE_PREFIX";
const COUNT_ENV: &str = "KUBEDRILL_TEST_GRADE_COUNT";
const T0: i64 = 20_000 * DAY_MS;

/// The helper process: grades COUNT times into the store in DIR, acknowledging each grade
/// on stdout once `grade` has returned.
#[test]
#[ignore = "helper process for the durability tests, started by them"]
fn helper() {
    let dir = std::env::var(DIR_ENV).expect("DIR_ENV");
    let prefix = std::env::var(PREFIX_ENV).expect("PREFIX_ENV");
    let count: i64 = std::env::var(COUNT_ENV)
        .expect("COUNT_ENV")
        .parse()
        .expect("count");
    let opened = Store::open_dir(Path::new(&dir), T0);
    assert!(opened.notices.is_empty(), "{:?}", opened.notices);
    let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    // A distinct time per prefix so every acknowledged grade is a distinct log row.
    let base: i64 = prefix.bytes().map(i64::from).sum::<i64>() * 1_000_000;
    for i in 0..count {
        let qid = format!("{prefix}-q{}", i % 7);
        let grade = Grade::ALL[(i % 4) as usize];
        let at = T0 + base + i * MINUTE_MS;
        p.grade(&qid, grade, at, 1500, Mode::Review).expect("grade");
        println!("ack {qid} {at} {}", grade.number());
    }
}

fn spawn_helper(dir: &Path, prefix: &str, count: usize) -> Child {
    Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--ignored",
            "--exact",
            "helper",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DIR_ENV, dir)
        .env(PREFIX_ENV, prefix)
        .env(COUNT_ENV, count.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn helper")
}

type Ack = (String, i64, u8);

fn parse_ack(line: &str) -> Option<Ack> {
    // libtest may print `test helper ... ` on the same line as the first ack.
    let at = line.find("ack ")?;
    let mut w = line[at + 4..].split(' ');
    Some((
        w.next()?.to_string(),
        w.next()?.parse().ok()?,
        w.next()?.parse().ok()?,
    ))
}

/// Every acknowledged grade, read back from the store (which must open cleanly).
fn stored(dir: &Path) -> HashSet<Ack> {
    let opened = Store::open_file(&dir.join("progress.db"), T0).expect("store opens");
    assert!(
        opened.notices.is_empty(),
        "the store was not clean after a kill: {:?}",
        opened.notices
    );
    let log = opened.store.reviews().expect("log");
    // The card written with each grade belongs to the same transaction.
    let cards = opened.store.cards().expect("cards");
    for (qid, card) in &cards {
        let last = log
            .iter()
            .filter(|r| &r.question_id == qid)
            .map(|r| r.reviewed_at)
            .max();
        assert_eq!(
            card.last_review, last,
            "card {qid} out of step with the log"
        );
    }
    log.into_iter()
        .map(|r| (r.question_id, r.reviewed_at, r.grade.number()))
        .collect()
}

/// A small deterministic generator for kill points.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

#[test]
fn sigkill_at_random_points_loses_no_acknowledged_grade() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    let mut seed = 0x5eed_u64;
    let mut acked: Vec<Ack> = Vec::new();
    for round in 0..8 {
        let wait_for = (lcg(&mut seed) % 40) as usize;
        let then_sleep = Duration::from_micros(lcg(&mut seed) % 3000);
        let mut child = spawn_helper(dir, &format!("r{round}"), 10_000);
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut seen = 0;
        while seen < wait_for {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(a) = parse_ack(&line) {
                        acked.push(a);
                        seen += 1;
                    }
                }
                _ => break,
            }
        }
        // Land the kill at an arbitrary point, often inside a transaction.
        std::thread::sleep(then_sleep);
        child.kill().expect("SIGKILL");
        // Acks already written before the kill count too.
        for line in lines.map_while(Result::ok) {
            if let Some(a) = parse_ack(&line) {
                acked.push(a);
            }
        }
        child.wait().expect("reaped");
        let have = stored(dir);
        for a in &acked {
            assert!(
                have.contains(a),
                "round {round}: acknowledged grade {a:?} lost"
            );
        }
    }
    assert!(
        acked.len() > 20,
        "too few grades to prove anything: {}",
        acked.len()
    );
}

#[test]
fn two_processes_grading_at_once_lose_no_write() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    let n = 120;
    let a = spawn_helper(dir, "a", n);
    let b = spawn_helper(dir, "b", n);
    let mut acked = HashSet::new();
    for child in [a, b] {
        let out = child.wait_with_output().expect("helper ran");
        assert!(
            out.status.success(),
            "a helper failed: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some(ack) = parse_ack(line) {
                acked.insert(ack);
            }
        }
    }
    assert_eq!(acked.len(), 2 * n);
    let have = stored(dir);
    assert_eq!(
        have, acked,
        "the store holds exactly the acknowledged grades"
    );
}

/// Instances started together on a fresh data folder: each opens the one file, none falls
/// back to not saving, none reports an upgrade of a file another one was creating.
#[test]
fn instances_opening_a_fresh_store_at_once_all_save() {
    for _ in 0..10 {
        let tmp = tempfile::tempdir().expect("tempdir");
        let children: Vec<Child> = (0..4)
            .map(|k| spawn_helper(tmp.path(), &format!("f{k}"), 2))
            .collect();
        for child in children {
            let out = child.wait_with_output().expect("helper ran");
            assert!(
                out.status.success(),
                "an instance did not open the store cleanly:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(stored(tmp.path()).len(), 8);
    }
}
