//! The scheduler against the `fsrs` crate itself: for a fixed review history, every memory
//! state and every interval is what `fsrs` computes from the same history; and each grade
//! lands in the store exactly as given.

use fsrs::{FSRS, FSRSItem, FSRSReview};
use kubedrill::study::store::Mode;
use kubedrill::study::time::{DAY_MS, MINUTE_MS};
use kubedrill::study::{Grade, Phase, Progress, Scheduler, Store, StudyConfig};

/// Noon UTC on day 20,000 (2024-10-04), so day arithmetic is plain.
const T0: i64 = 20_000 * DAY_MS + DAY_MS / 2;

/// (minutes after T0, grade, phase expected after it)
const HISTORY: &[(i64, Grade, Phase)] = &[
    (0, Grade::Good, Phase::Learning),            // new -> step 2 (10m)
    (10, Grade::Good, Phase::Review),             // graduates
    (3 * 1440, Grade::Good, Phase::Review),       // day 3
    (12 * 1440, Grade::Again, Phase::Relearning), // day 12: lapse
    (12 * 1440 + 10, Grade::Good, Phase::Review), // relearnt the same day
    (15 * 1440, Grade::Hard, Phase::Review),      // day 15
    (30 * 1440 + 5, Grade::Easy, Phase::Review),  // day 30
    (90 * 1440, Grade::Good, Phase::Review),      // day 90
];

#[test]
fn memory_states_and_intervals_match_fsrs_for_a_fixed_history() {
    for retention in [0.9f32, 0.8] {
        let sched = Scheduler::new(retention).expect("retention in range");
        let fsrs = FSRS::new(&fsrs::DEFAULT_PARAMETERS).expect("default parameters");
        let mut card = kubedrill::study::CardState::new("spec-vs-status");
        let mut reviews: Vec<FSRSReview> = Vec::new();
        let mut last_day: Option<i64> = None;
        for (i, &(min, grade, phase)) in HISTORY.iter().enumerate() {
            let now = T0 + min * MINUTE_MS;
            let day = now / DAY_MS;
            reviews.push(FSRSReview {
                rating: u32::from(grade.number()),
                delta_t: last_day.map_or(0, |d| (day - d) as u32),
            });
            last_day = Some(day);

            // What the four keys show is exactly what each grade then does.
            let previews = sched.preview(&card, now).expect("preview");
            card = sched.apply(&card, grade, now).expect("apply");
            assert_eq!(
                previews[usize::from(grade.number() - 1)].next,
                card,
                "step {i}"
            );
            assert_eq!(card.phase, phase, "step {i}");

            let want = fsrs
                .memory_state(
                    FSRSItem {
                        reviews: reviews.clone(),
                    },
                    None,
                )
                .expect("fsrs memory state");
            assert_eq!(
                card.stability,
                Some(want.stability),
                "stability at step {i}"
            );
            assert_eq!(
                card.difficulty,
                Some(want.difficulty),
                "difficulty at step {i}"
            );
            if phase == Phase::Review {
                let interval = fsrs.next_interval(Some(want.stability), retention, 3);
                let days = interval.round().max(1.0) as u32;
                assert_eq!(card.interval_days, days, "interval at step {i}");
                assert_eq!(card.due, now + i64::from(days) * DAY_MS, "due at step {i}");
            }
        }
        assert_eq!(card.reps, HISTORY.len() as u32);
        assert_eq!(card.lapses, 1);
        // The whole history at once agrees too.
        let all = fsrs
            .historical_memory_states(FSRSItem { reviews }, None)
            .expect("history");
        assert_eq!(all.last().map(|m| m.stability), card.stability);
    }
}

#[test]
fn learning_steps_are_minutes_and_labels_read_like_anki() {
    let sched = Scheduler::new(0.9).expect("ok");
    let new = kubedrill::study::CardState::new("x");
    let p = sched.preview(&new, T0).expect("preview");
    let labels: Vec<String> = p.iter().map(|p| p.label()).collect();
    // Again: the first step (1m); Hard: on the first step, the average of the first two
    // (5.5m, as Anki), so it never reads as Again; Good: the second step (10m); Easy
    // graduates with FSRS's easy interval for a new card (8.2956 days at default
    // parameters).
    assert_eq!(labels, ["1m", "6m", "10m", "8d"]);
    assert_eq!(p[1].next.due - T0, 330_000);
    assert_eq!(p[3].next.phase, Phase::Review);
    assert_eq!(p[2].next.phase, Phase::Learning);
    // In the second step Hard repeats it; in relearning's one step, Hard is 1.5 times it.
    let learning = p[2].next.clone();
    let second = sched.preview(&learning, T0).expect("preview");
    assert_eq!(second[1].next.due - T0, 10 * 60_000);
    let mut lapsed = learning.clone();
    lapsed.phase = Phase::Relearning;
    lapsed.step = 0;
    let relearning = sched.preview(&lapsed, T0).expect("preview");
    assert_eq!(relearning[1].next.due - T0, 15 * 60_000);
}

#[test]
fn each_grade_is_stored_exactly_as_given() {
    let store = Store::in_memory("test").expect("memory store");
    let mut progress = Progress::new(store, StudyConfig::default()).expect("progress");
    let grades = [
        Grade::Again,
        Grade::Hard,
        Grade::Good,
        Grade::Easy,
        Grade::Good,
    ];
    let modes = [
        Mode::Review,
        Mode::Review,
        Mode::CramReschedule,
        Mode::Review,
        Mode::Cram,
    ];
    let mut expect_card = progress.card("q1").expect("card");
    for (i, (g, m)) in grades.iter().zip(modes).enumerate() {
        let now = T0 + i as i64 * DAY_MS;
        let before = progress.card("q1").expect("card");
        let (_, after) = progress
            .grade("q1", *g, now, 1000 + i as i64, m)
            .expect("grade");
        if m.moves_schedule() {
            expect_card = progress.scheduler.apply(&before, *g, now).expect("apply");
        }
        assert_eq!(after, expect_card);
        assert_eq!(progress.card("q1").expect("card"), expect_card);
    }
    let log = progress.store.reviews().expect("log");
    let got: Vec<(Grade, i64, i64, Mode)> = log
        .iter()
        .map(|r| (r.grade, r.reviewed_at, r.took_ms, r.mode))
        .collect();
    let want: Vec<(Grade, i64, i64, Mode)> = grades
        .iter()
        .zip(modes)
        .enumerate()
        .map(|(i, (g, m))| (*g, T0 + i as i64 * DAY_MS, 1000 + i as i64, m))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        log.iter().map(|r| r.grade.number()).collect::<Vec<_>>(),
        [1, 2, 3, 4, 3]
    );
    assert_eq!(log[0].phase_before, Phase::New);
}

/// Anki's order within a day: a learning card comes back as soon as its step is due, before
/// the new cards still queued, and not before (issue 25: an Again card waited behind a
/// dozen new ones).
#[test]
fn a_learning_card_comes_back_as_soon_as_its_step_is_due() {
    let loaded = kubedrill::content::load(
        kubedrill::content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    );
    let deck = &loaded.deck;
    let mut p = Progress::new(
        Store::in_memory("test").expect("store"),
        StudyConfig::default(),
    )
    .expect("progress");
    let mut s = kubedrill::study::Session::due(deck, &p, None, T0).expect("due");
    let again = s.current().expect("a card").to_string();
    s.grade(&mut p, Grade::Again, T0, 1_000).expect("grade");
    // Graded every 25 s: new cards until the minute has passed, then the Again card.
    let mut shown = Vec::new();
    for i in 1..=4 {
        shown.push(s.current().expect("a card").to_string());
        s.grade(&mut p, Grade::Good, T0 + i * 25_000, 1_000)
            .expect("grade");
    }
    assert!(!shown[..3].contains(&again), "{shown:?}");
    assert_eq!(
        shown[3], again,
        "due at 60 s, shown at the first grade after it"
    );
}
