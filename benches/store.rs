//! The progress store: one grade made durable (an fsync'd transaction), and opening a
//! store that holds 100,000 reviews and building the due queue from it.

use criterion::{Criterion, criterion_group, criterion_main};
use kubedrill::content::{self, Origin, Source};
use kubedrill::sim::catalog::SimCatalog;
use kubedrill::study::schedule::CardState;
use kubedrill::study::store::{Export, Mode, ReviewRecord};
use kubedrill::study::time::{DAY_MS, MINUTE_MS};
use kubedrill::study::{Grade, Phase, Progress, Session, Store, StudyConfig};

#[path = "deckgen.rs"]
mod deckgen;

const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;

fn grade(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let opened = Store::open_dir(tmp.path(), NOW);
    assert!(opened.store.is_saving());
    let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    let mut i = 0i64;
    let mut group = c.benchmark_group("store");
    group.sample_size(50);
    group.bench_function("grade_durable", |b| {
        b.iter(|| {
            i += 1;
            let qid = format!("q{}", i % 500);
            p.grade(
                &qid,
                Grade::ALL[(i % 4) as usize],
                NOW + i * MINUTE_MS,
                4000,
                Mode::Review,
            )
            .expect("grade")
        })
    });
    group.finish();
}

/// 1,000 questions with 100 reviews each, and a card for each due somewhere in the
/// 60 days around now.
fn big_store(dir: &std::path::Path, ids: &[String]) {
    let mut reviews = Vec::with_capacity(100_000);
    let mut cards = Vec::new();
    for (n, id) in ids.iter().enumerate() {
        let mut card = CardState::new(id);
        for k in 0..100i64 {
            let at = NOW - (400 - k * 4) * DAY_MS + n as i64 * 1000;
            reviews.push(ReviewRecord {
                question_id: id.clone(),
                grade: Grade::ALL[((n as i64 + k) % 4) as usize],
                reviewed_at: at,
                took_ms: 5000,
                mode: Mode::Review,
                phase_before: if k == 0 { Phase::New } else { Phase::Review },
                undone_at: None,
            });
            card.phase = Phase::Review;
            card.reps += 1;
            card.last_review = Some(at);
        }
        card.stability = Some(20.0);
        card.difficulty = Some(5.0);
        card.interval_days = 20;
        card.due = NOW + ((n as i64 % 60) - 30) * DAY_MS;
        cards.push(card);
    }
    let doc = Export {
        format: "kubedrill-progress".into(),
        version: 2,
        reviews,
        cards,
        mock_sessions: vec![],
        solved_challenges: vec![],
        quiz_sessions: vec![],
        review_flags: vec![],
        typed_answers: vec![],
    };
    let mut s = Store::open_dir(dir, NOW).store;
    s.import(&doc).expect("import");
}

fn open_and_queue(c: &mut Criterion) {
    let files = deckgen::deck(1_000);
    let sources = files
        .iter()
        .map(|(name, text)| Source::new(name.clone(), text.clone(), Origin::User))
        .collect();
    let deck = content::load(sources, vec![], &SimCatalog).deck;
    let ids: Vec<String> = deck.questions.iter().map(|q| q.id.to_string()).collect();
    let tmp = tempfile::tempdir().expect("tempdir");
    big_store(tmp.path(), &ids);
    let path = tmp.path().join("progress.db");
    let mut group = c.benchmark_group("store");
    group.sample_size(20);
    group.bench_function("open_100k_reviews_and_due_queue", |b| {
        b.iter(|| {
            let opened = Store::open_file(&path, NOW).expect("open");
            assert_eq!(opened.notices, Vec::<String>::new());
            let p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
            let s = Session::due(&deck, &p, None, NOW).expect("queue");
            assert!(s.current().is_some());
            s
        })
    });
    group.finish();
}

criterion_group!(benches, grade, open_and_queue);
criterion_main!(benches);
