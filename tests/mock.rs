//! The mock-interview state machine, driven with injected time and fixed seeds: no test
//! sleeps. The scoring rules as a table, and the Markdown report as a snapshot.

mod mock_support;

use std::collections::HashSet;
use std::time::Duration;

use kubedrill::content::{Deck, Level};
use kubedrill::study::mock::{
    FollowupResult, FollowupVerdict, Grade, Mock, MockError, MockSetup, Phase, QuestionResult,
    Scorecard, SetupError, Stage, Strictness, followup_budget, is_stretch, report_markdown, weight,
};
use mock_support::{fixture_deck, secs, shipped_deck};
use proptest::prelude::*;

fn setup(questions: usize, level: Level, seed: u64) -> MockSetup {
    MockSetup {
        questions,
        level,
        topic: None,
        strictness: Strictness::Standard,
        seed,
    }
}

fn drawn(deck: &Deck, s: MockSetup) -> Vec<String> {
    Mock::new(deck, s)
        .expect("mock")
        .question_ids()
        .into_iter()
        .map(String::from)
        .collect()
}

#[test]
fn the_same_seed_draws_the_same_questions_and_followups() {
    let deck = fixture_deck();
    let a = Mock::new(&deck, setup(3, Level::Senior, 42)).unwrap();
    let b = Mock::new(&deck, setup(3, Level::Senior, 42)).unwrap();
    assert_eq!(a.question_ids(), b.question_ids());
    assert_eq!(a.followup(), b.followup());
    // Different seeds give different interviews.
    let orders: HashSet<Vec<String>> = (0..10)
        .map(|seed| drawn(&deck, setup(3, Level::Senior, seed)))
        .collect();
    assert!(orders.len() >= 4, "10 seeds gave only {orders:?}");
}

#[test]
fn followups_are_chosen_by_the_seed() {
    let deck = fixture_deck();
    // spec-status is the only junior question with two follow-ups; over seeds both appear.
    let mut asked = HashSet::new();
    for seed in 0..40 {
        let mut s = setup(1, Level::Junior, seed);
        s.topic = Some("controllers".into());
        let m = Mock::new(&deck, s).unwrap();
        if m.question().unwrap().id == "spec-status" {
            asked.insert(m.followup().unwrap().q.clone());
        }
    }
    assert_eq!(asked.len(), 2, "{asked:?}");
}

#[test]
fn draws_follow_the_documented_weights() {
    let deck = fixture_deck();
    let total: u32 = deck
        .questions
        .iter()
        .map(|q| weight(q, Level::Senior))
        .sum();
    // The documented formula on the fixture, level_fit × importance × (100 + frequency):
    // 3×2×150 + 2×3×180 + 3×3×160 + 4×2×130, and the principal question, which has no
    // measured figure, 1×1×100.
    assert_eq!(total, 900 + 1080 + 1440 + 1040 + 100);
    let runs = 4000;
    let mut first = std::collections::HashMap::new();
    for seed in 0..runs {
        *first
            .entry(drawn(&deck, setup(1, Level::Senior, seed)).remove(0))
            .or_insert(0u32) += 1;
    }
    for q in &deck.questions {
        let expected = f64::from(weight(q, Level::Senior)) / f64::from(total);
        let seen = f64::from(*first.get(q.id.as_str()).unwrap_or(&0)) / f64::from(runs as u32);
        assert!(
            (seen - expected).abs() < 0.03,
            "{}: drawn first {seen:.3} of the time, weight share {expected:.3}",
            q.id
        );
    }
}

#[test]
fn a_junior_mock_never_asks_two_levels_above() {
    let deck = fixture_deck();
    let mut seen = HashSet::new();
    for seed in 0..50 {
        let ids = drawn(&deck, setup(5, Level::Junior, seed));
        // Junior questions, and one middle question as the stretch; never senior or
        // principal.
        let levels: Vec<Level> = ids
            .iter()
            .map(|id| deck.question(id).expect("drawn").level)
            .collect();
        assert!(
            levels
                .iter()
                .all(|l| matches!(l, Level::Junior | Level::Middle)),
            "{ids:?}"
        );
        assert!(
            levels.iter().filter(|l| **l == Level::Middle).count() <= 1,
            "{ids:?}"
        );
        seen.extend(ids);
    }
    // Over the seeds, every junior and middle question of the fixture is drawn.
    let eligible: HashSet<String> = deck
        .questions
        .iter()
        .filter(|q| matches!(q.level, Level::Junior | Level::Middle))
        .map(|q| q.id.to_string())
        .collect();
    assert_eq!(seen, eligible);
}

#[test]
fn setup_errors_say_what_is_wrong() {
    let deck = fixture_deck();
    let mut s = setup(2, Level::Senior, 1);
    s.topic = Some("aply".into());
    let e = Mock::new(&deck, s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no topic with id `aply`; topics: apply, controllers"
    );
    let e = Mock::new(&deck, setup(0, Level::Senior, 1)).unwrap_err();
    assert_eq!(e, SetupError::ZeroQuestions);
    // A deck with nothing at or near the target level fails.
    let mut s = setup(2, Level::Junior, 1);
    s.topic = Some("controllers".into());
    assert!(Mock::new(&deck, s).is_ok());
    let only_senior = Deck {
        topics: deck.topics.clone(),
        questions: deck
            .questions
            .iter()
            .filter(|q| q.level >= Level::Senior)
            .cloned()
            .collect(),
    };
    let e = Mock::new(&only_senior, setup(2, Level::Junior, 1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no question is at or near level junior (at most one level above it)"
    );
}

/// Two questions, driven through every phase with injected time.
#[test]
fn a_two_question_mock_runs_through_every_phase() {
    let deck = fixture_deck();
    let mut s = setup(2, Level::Junior, 7);
    s.topic = Some("controllers".into());
    let mut m = Mock::new(&deck, s).unwrap();
    assert_eq!(m.question_ids(), ["spec-status", "pod-returns"]);
    assert_eq!(m.phase(), Phase::Prompt);
    assert_eq!(m.position(), (0, 2));
    assert_eq!(
        m.countdown(secs(1)),
        None,
        "no clock before answering starts"
    );

    // Question 1: spec-status, basics 10 s, solid 40 s.
    m.start_answer(secs(100)).unwrap();
    let c = m.countdown(secs(109)).unwrap();
    assert_eq!(
        (c.stage, c.elapsed, c.remaining),
        (Stage::Basics, secs(9), secs(31))
    );
    assert_eq!(m.countdown(secs(110)).unwrap().stage, Stage::Solid);
    m.set_notes("spec desired\nstatus observed").unwrap();
    m.toggle_pause(secs(125)).unwrap();
    assert!(m.is_paused());
    let c = m.countdown(secs(900)).unwrap();
    assert_eq!(
        (c.elapsed, c.paused),
        (secs(25), true),
        "paused time does not count"
    );
    m.resume(secs(1000)).unwrap();
    let c = m.countdown(secs(1022)).unwrap();
    assert_eq!((c.stage, c.overtime), (Stage::Overtime, secs(7)));
    assert_eq!(
        m.toggle_keypoint(0),
        Err(MockError::WrongPhase {
            action: "tick a keypoint",
            phase: Phase::Answering
        })
    );
    m.finish_answer(secs(1022)).unwrap();
    assert_eq!(m.phase(), Phase::Rubric);
    assert_eq!(m.countdown(secs(1040)), None);
    assert_eq!(m.covered(), [false, false, false]);
    m.toggle_keypoint(0).unwrap();
    m.toggle_keypoint(2).unwrap();
    m.toggle_keypoint(1).unwrap();
    m.toggle_keypoint(1).unwrap();
    assert_eq!(m.covered(), [true, false, true]);
    assert_eq!(
        m.toggle_pitfall(5).unwrap_err().to_string(),
        "no pitfall number 5: this question has 1"
    );
    assert_eq!(m.deeper(), Some("Knows which side a user edits."));
    m.confirm_rubric(secs(1050)).unwrap();

    // Its follow-up, with a 20 s budget (half of 40 s).
    assert_eq!(m.phase(), Phase::Followup);
    let asked = m.followup().unwrap().clone();
    let index = m
        .question()
        .unwrap()
        .followups
        .iter()
        .position(|f| *f == asked)
        .unwrap();
    let c = m.countdown(secs(1060)).unwrap();
    assert_eq!(
        (c.elapsed, c.budget, c.checkpoint),
        (secs(10), secs(20), None)
    );
    m.finish_followup(secs(1062)).unwrap();
    assert_eq!(m.phase(), Phase::FollowupAnswer);
    m.judge_followup(FollowupVerdict::Answered).unwrap();

    // Question 2: pod-returns, finished early with every keypoint but a pitfall said.
    assert_eq!((m.phase(), m.position()), (Phase::Prompt, (1, 2)));
    assert_eq!(m.notes(), "", "notes belong to their question");
    m.start_answer(secs(2000)).unwrap();
    m.finish_answer(secs(2030)).unwrap();
    for k in 0..3 {
        m.toggle_keypoint(k).unwrap();
    }
    m.toggle_pitfall(1).unwrap();
    assert_eq!(m.deeper(), None, "pod-returns has no deeper tier");
    m.confirm_rubric(secs(2040)).unwrap();
    assert_eq!(
        m.followup().unwrap().q,
        "What happens if a watch event is lost?"
    );
    m.finish_followup(secs(2070)).unwrap();
    m.judge_followup(FollowupVerdict::Missed).unwrap();
    assert!(m.is_done());
    assert_eq!(m.question(), None);
    assert_eq!(
        m.start_answer(secs(3000)),
        Err(MockError::WrongPhase {
            action: "start answering",
            phase: Phase::Done
        })
    );

    let card = m.scorecard();
    assert!(!card.ended_early());
    let [q1, q2] = &card.results[..] else {
        panic!("two results: {:?}", card.results)
    };
    assert_eq!(q1.question_id, "spec-status");
    assert_eq!(q1.time, secs(47));
    assert_eq!(q1.pauses, 1);
    assert_eq!(q1.covered, [0, 2]);
    assert_eq!(q1.notes, "spec desired\nstatus observed");
    assert_eq!(
        q1.followup,
        Some(FollowupResult {
            index,
            verdict: FollowupVerdict::Answered,
            time: secs(12),
            budget_seconds: 20
        })
    );
    // 2 of 3 keypoints of 80 points = 53, + 20 for the follow-up, - 5 for 7 s overtime
    // (one started quarter of 40 s).
    assert_eq!(q1.score(Strictness::Standard), 68);
    assert_eq!(q1.grade(), Grade::Hard);
    assert_eq!(q2.pitfalls_said, [1]);
    assert_eq!(q2.score(Strictness::Standard), 0);
    assert_eq!(q2.grade(), Grade::Again);
    assert_eq!(card.overall(), 34);
    assert_eq!(card.passed(), 1);
    assert_eq!(card.pitfalls(), 1);
    assert_eq!(
        card.grades(),
        [("spec-status", Grade::Hard), ("pod-returns", Grade::Again)]
    );
    let chart: Vec<(String, u32, u64)> = card
        .chart()
        .into_iter()
        .map(|b| (b.label, b.score, b.seconds))
        .collect();
    assert_eq!(
        chart,
        [("Q1".to_string(), 68, 47), ("Q2".to_string(), 0, 30)]
    );
}

#[test]
fn a_question_without_followups_goes_straight_on() {
    let deck = fixture_deck();
    let only = Deck {
        topics: deck.topics.clone(),
        questions: vec![deck.question("field-owner").unwrap().clone()],
    };
    let mut m = Mock::new(&only, setup(3, Level::Senior, 0)).unwrap();
    assert_eq!(m.position(), (0, 1), "fewer questions than asked for");
    assert_eq!(m.followup(), None);
    m.start_answer(secs(0)).unwrap();
    m.finish_answer(secs(59)).unwrap();
    m.toggle_keypoint(1).unwrap();
    m.confirm_rubric(secs(60)).unwrap();
    assert!(m.is_done());
    assert_eq!(m.pending(), None);
    let r = &m.scorecard().results[0];
    assert_eq!(r.followup, None);
    // Without a follow-up the keypoints carry all 100 points: 1 of 2 is 50.
    assert_eq!(r.score(Strictness::Standard), 50);
}

#[test]
fn the_rubric_is_available_to_save_before_the_followup() {
    let deck = fixture_deck();
    let mut s = setup(1, Level::Junior, 0);
    s.topic = Some("apply".into());
    let mut m = Mock::new(&deck, s).unwrap();
    m.start_answer(secs(0)).unwrap();
    m.finish_answer(secs(10)).unwrap();
    assert_eq!(
        m.pending(),
        None,
        "nothing to save before the rubric is confirmed"
    );
    m.toggle_keypoint(0).unwrap();
    m.confirm_rubric(secs(11)).unwrap();
    let pending = m.pending().expect("rubric saved before the follow-up");
    assert_eq!(
        (pending.question_id.as_str(), &pending.covered[..]),
        ("create-vs-apply", &[0][..])
    );
    assert!(m.results().is_empty());
    m.finish_followup(secs(20)).unwrap();
    m.judge_followup(FollowupVerdict::Partial).unwrap();
    assert_eq!(m.results().len(), 1);
    assert_eq!(m.results()[0].covered, [0]);
}

#[test]
fn ending_early_keeps_only_scored_questions() {
    let deck = fixture_deck();
    let mut m = Mock::new(&deck, setup(3, Level::Senior, 3)).unwrap();
    m.start_answer(secs(0)).unwrap();
    m.finish_answer(secs(20)).unwrap();
    m.toggle_keypoint(0).unwrap();
    m.confirm_rubric(secs(21)).unwrap();
    if m.phase() == Phase::Followup {
        // Ending during the follow-up keeps the rubric, without the follow-up.
        m.end();
        let card = m.scorecard();
        assert_eq!(card.results.len(), 1);
        assert_eq!(card.results[0].followup, None);
    } else {
        m.start_answer(secs(30)).unwrap();
        m.end();
        assert_eq!(m.scorecard().results.len(), 1);
    }
    let card = m.scorecard();
    assert!(m.is_done());
    assert!(card.ended_early());
    assert_eq!(card.planned, 3);
}

#[test]
fn pausing_outside_a_timed_phase_is_refused() {
    let deck = fixture_deck();
    let mut m = Mock::new(&deck, setup(1, Level::Middle, 1)).unwrap();
    assert!(m.pause(secs(0)).is_err());
    m.start_answer(secs(0)).unwrap();
    m.finish_answer(secs(5)).unwrap();
    assert_eq!(
        m.pause(secs(6)).unwrap_err().to_string(),
        "cannot pause during the rubric phase"
    );
}

/// A result on a question with 4 keypoints, basics 10 s and solid 40 s; follow-up budget 20 s.
fn result(
    covered: usize,
    pitfall: bool,
    millis: u64,
    followup: Option<(FollowupVerdict, u64)>,
) -> QuestionResult {
    QuestionResult {
        question_id: "q".into(),
        level: Level::Middle,
        keypoints_total: 4,
        covered: (0..covered).collect(),
        pitfalls_said: if pitfall { vec![1] } else { vec![] },
        time: Duration::from_millis(millis),
        basics_seconds: 10,
        solid_seconds: 40,
        pauses: 0,
        followup: followup.map(|(verdict, s)| FollowupResult {
            index: 0,
            verdict,
            time: secs(s),
            budget_seconds: 20,
        }),
        notes: String::new(),
    }
}

#[test]
fn scoring_rules() {
    use FollowupVerdict::*;
    use Grade::*;
    use Strictness::*;
    type Row = (
        &'static str,
        usize,
        bool,
        u64,
        Option<(FollowupVerdict, u64)>,
        Strictness,
        u32,
        Grade,
        bool,
    );
    #[rustfmt::skip]
    let table: &[Row] = &[
        // what,                                   covered, pitfall, ms, follow-up, strictness, score, grade, passed
        ("full coverage in time",                   4, false, 38_000, None,                 Standard, 100, Easy,  true),
        ("full, follow-up answered in its budget",  4, false, 38_000, Some((Answered, 15)), Standard, 100, Easy,  true),
        ("full, follow-up answered over budget",    4, false, 38_000, Some((Answered, 25)), Standard, 100, Good,  true),
        ("full, follow-up partly answered",         4, false, 38_000, Some((Partial, 10)),  Standard,  90, Good,  true),
        ("full, follow-up missed",                  4, false, 38_000, Some((Missed, 10)),   Standard,  80, Hard,  true),
        ("partial 3/4",                             3, false, 30_000, None,                 Standard,  75, Hard,  true),
        ("partial 3/4 under strict",                3, false, 30_000, None,                 Strict,    75, Hard,  true),
        ("half 2/4",                                2, false, 30_000, None,                 Standard,  50, Hard,  false),
        ("half 2/4 under lenient",                  2, false, 30_000, None,                 Lenient,   50, Hard,  true),
        ("a quarter 1/4",                           1, false, 30_000, None,                 Standard,  25, Again, false),
        ("nothing covered",                         0, false, 30_000, None,                 Standard,   0, Again, false),
        ("under a second over is not overtime",     4, false, 40_900, None,                 Standard, 100, Easy,  true),
        ("1 s overtime: one started quarter",       4, false, 41_000, None,                 Standard,  95, Good,  true),
        ("30 s overtime: three quarters",           4, false, 70_000, None,                 Standard,  85, Hard,  true),
        ("21 s overtime, past 1.5x: slow",          4, false, 61_000, None,                 Standard,  85, Hard,  true),
        ("20 s overtime, at 1.5x: not slow",        4, false, 60_000, None,                 Standard,  90, Good,  true),
        ("huge overtime, capped at 20",             4, false, 400_000, None,                Standard,  80, Hard,  true),
        ("huge overtime, strict cap 40",            4, false, 400_000, None,                Strict,    60, Hard,  false),
        ("huge overtime, lenient",                  4, false, 400_000, None,                Lenient,  100, Hard,  true),
        ("overtime and follow-up",                  4, false, 45_000, Some((Answered, 5)),  Standard,  95, Good,  true),
        ("a pitfall said loses a perfect answer",   4, true,  30_000, Some((Answered, 5)),  Standard,   0, Again, false),
        ("a pitfall said, lenient",                 4, true,  30_000, None,                 Lenient,    0, Again, false),
    ];
    for &(what, covered, pitfall, ms, followup, strictness, score, grade, passed) in table {
        let r = result(covered, pitfall, ms, followup);
        assert_eq!(
            (r.score(strictness), r.grade(), r.passed(strictness)),
            (score, grade, passed),
            "{what}"
        );
    }
}

#[test]
fn grades_map_to_fsrs_ratings() {
    let ratings: Vec<u32> = [Grade::Again, Grade::Hard, Grade::Good, Grade::Easy]
        .iter()
        .map(|g| g.rating())
        .collect();
    assert_eq!(ratings, [1, 2, 3, 4]);
}

#[test]
fn the_followup_timer_is_shorter_than_the_answer() {
    let deck = shipped_deck();
    for q in &deck.questions {
        let b = followup_budget(q);
        assert!(
            b >= q.basics.seconds.min(q.solid.seconds) && b <= q.solid.seconds,
            "{}",
            q.id
        );
    }
    assert_eq!(
        followup_budget(deck.question("spec-vs-status").unwrap()),
        25
    );
}

#[test]
fn a_scorecard_survives_a_json_round_trip() {
    let card = Scorecard {
        setup: setup(2, Level::Principal, 9),
        planned: 2,
        results: vec![result(
            3,
            false,
            45_500,
            Some((FollowupVerdict::Partial, 12)),
        )],
    };
    let json = serde_json::to_string(&card).unwrap();
    assert!(json.contains(r#""level":"principal""#), "{json}");
    assert!(json.contains(r#""time":45500"#), "{json}");
    let back: Scorecard = serde_json::from_str(&json).unwrap();
    assert_eq!(back, card);
    let bad = json.replace(r#""level":"principal""#, r#""level":"expert""#);
    let e = serde_json::from_str::<Scorecard>(&bad).unwrap_err();
    assert!(e.to_string().contains("invalid level `expert`"), "{e}");
}

#[test]
fn the_shipped_deck_runs_a_mock_at_every_level() {
    let deck = shipped_deck();
    for &level in Level::ALL {
        let mut m = Mock::new(&deck, setup(10, level, 5)).unwrap();
        let (_, n) = m.position();
        assert!(n >= 1, "{level}");
        let mut t = 0;
        while !m.is_done() {
            m.start_answer(secs(t)).unwrap();
            m.finish_answer(secs(t + 30)).unwrap();
            m.toggle_keypoint(0).unwrap();
            m.confirm_rubric(secs(t + 31)).unwrap();
            if m.phase() == Phase::Followup {
                m.finish_followup(secs(t + 40)).unwrap();
                m.judge_followup(FollowupVerdict::Partial).unwrap();
            }
            t += 100;
        }
        assert_eq!(m.scorecard().results.len(), n);
    }
}

/// Drives a three-question senior mock on the fixture deck, every kind of outcome.
fn sample_scorecard() -> (Deck, Scorecard) {
    let deck = fixture_deck();
    let mut m = Mock::new(&deck, setup(3, Level::Senior, 11)).unwrap();
    let mut t = 0;
    let mut n = 0;
    while !m.is_done() {
        let q = m.question().unwrap().clone();
        m.start_answer(secs(t)).unwrap();
        match n {
            // In time, everything covered.
            0 => {
                m.finish_answer(secs(t + u64::from(q.solid.seconds) - 5))
                    .unwrap();
                for k in 0..q.keypoints.len() {
                    m.toggle_keypoint(k).unwrap();
                }
            }
            // Paused, overtime, one keypoint, notes.
            1 => {
                m.set_notes("start with the informer\n\nthen the | workqueue")
                    .unwrap();
                m.pause(secs(t + 10)).unwrap();
                m.resume(secs(t + 500)).unwrap();
                m.finish_answer(secs(t + 490 + u64::from(q.solid.seconds) + 12))
                    .unwrap();
                m.toggle_keypoint(0).unwrap();
            }
            // A pitfall said.
            _ => {
                m.finish_answer(secs(t + 25)).unwrap();
                m.toggle_keypoint(1).unwrap();
                m.toggle_pitfall(0).unwrap();
            }
        }
        m.confirm_rubric(secs(t + 1000)).unwrap();
        if m.phase() == Phase::Followup {
            m.finish_followup(secs(t + 1000 + 8 * (n + 1))).unwrap();
            let verdict = [
                FollowupVerdict::Answered,
                FollowupVerdict::Partial,
                FollowupVerdict::Missed,
            ][n as usize];
            m.judge_followup(verdict).unwrap();
        }
        t += 10_000;
        n += 1;
    }
    (deck, m.scorecard())
}

#[test]
fn the_report_is_markdown_of_the_scorecard() {
    let (deck, card) = sample_scorecard();
    let report = report_markdown(&card, &deck, Some("2026-12-02"));
    insta::assert_snapshot!("mock_report", report);
    // A pure function: the same scorecard and deck give the same report.
    assert_eq!(report, report_markdown(&card, &deck, Some("2026-12-02")));
}

#[test]
fn the_report_survives_content_that_changed() {
    let (deck, card) = sample_scorecard();
    let empty = Deck {
        topics: deck.topics.clone(),
        questions: vec![],
    };
    let report = report_markdown(&card, &empty, None);
    assert!(report.contains("_This question is not in the loaded content any more._"));
    assert!(report.contains("- [x] keypoint 1"), "{report}");
    assert!(!report.contains("2026"), "no date unless given");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn draws_never_repeat_and_respect_the_level(seed in any::<u64>(), n in 1usize..8, level in 0usize..4) {
        let deck = fixture_deck();
        let level = Level::ALL[level];
        let ids = drawn(&deck, setup(n, level, seed));
        // At or below the target, and one stretch question at most.
        let below = deck
            .questions
            .iter()
            .filter(|q| weight(q, level) > 0 && !is_stretch(q.level, level))
            .count();
        let above = deck.questions.iter().any(|q| weight(q, level) > 0 && is_stretch(q.level, level));
        prop_assert_eq!(ids.len(), n.min(below + usize::from(above)));
        let unique: HashSet<&String> = ids.iter().collect();
        prop_assert_eq!(unique.len(), ids.len());
        for id in &ids {
            prop_assert!(weight(deck.question(id).unwrap(), level) > 0);
        }
        prop_assert_eq!(ids, drawn(&deck, setup(n, level, seed)));
    }
}

/// A middle mock once opened with a senior question. A question above the target is the
/// stretch question: one at most, asked last, and the interview says so.
#[test]
fn a_mock_asks_one_stretch_question_at_most_and_last() {
    let deck = shipped_deck();
    let mut stretched = 0;
    for seed in 0..200 {
        for level in [Level::Junior, Level::Middle, Level::Senior] {
            let setup = MockSetup {
                questions: 5,
                level,
                topic: None,
                strictness: Strictness::Standard,
                seed,
            };
            let m = Mock::new(&deck, setup).expect("mock");
            let levels: Vec<Level> = m
                .question_ids()
                .iter()
                .map(|id| deck.question(id).expect("drawn from the deck").level)
                .collect();
            let above: Vec<usize> = (0..levels.len())
                .filter(|&i| kubedrill::study::mock::is_stretch(levels[i], level))
                .collect();
            assert!(above.len() <= 1, "seed {seed} {level}: {levels:?}");
            if let Some(&i) = above.first() {
                assert_eq!(i, levels.len() - 1, "seed {seed} {level}: {levels:?}");
                stretched += 1;
            }
        }
    }
    assert!(stretched > 0, "some mocks have a stretch question");
}
