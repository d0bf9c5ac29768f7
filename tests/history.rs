//! Mock interviews and quizzes saved as they happen: each scored question durable with its
//! grade in the review log, the scorecard re-readable, missed quiz items put forward in the
//! review queue until graded, and all of it through export and import.

mod mock_support;

use std::time::Duration;

use kubedrill::content::Level;
use kubedrill::study::history::{MockLog, QuizLog};
use kubedrill::study::mock::{FollowupVerdict, Mock, MockSetup, Scorecard, Strictness};
use kubedrill::study::quiz::{Quiz, QuizSetup};
use kubedrill::study::store::Mode;
use kubedrill::study::time::DAY_MS;
use kubedrill::study::{Grade, Progress, Session, Store, StudyConfig};
use mock_support::{fixture_deck, secs};

const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;

fn progress() -> Progress {
    Progress::new(
        Store::in_memory("test").expect("store"),
        StudyConfig::default(),
    )
    .expect("progress")
}

/// Answers the current question covering `covered` keypoints in `t` seconds, with a
/// follow-up answered, if any.
fn answer(m: &mut Mock, covered: &[usize], t: u64, clock: &mut Duration) {
    m.start_answer(*clock).expect("start");
    *clock += secs(t);
    m.finish_answer(*clock).expect("finish");
    for &k in covered {
        m.toggle_keypoint(k).expect("tick");
    }
    m.confirm_rubric(*clock).expect("rubric");
    if m.followup().is_some() && m.pending().is_some() {
        *clock += secs(5);
        m.finish_followup(*clock).expect("follow-up");
        m.judge_followup(FollowupVerdict::Answered).expect("judge");
    }
}

#[test]
fn a_mock_saves_each_question_as_it_is_scored_and_grades_it() {
    let deck = fixture_deck();
    let mut p = progress();
    let mut m = Mock::new(
        &deck,
        MockSetup {
            questions: 2,
            level: Level::Middle,
            topic: None,
            strictness: Strictness::Standard,
            seed: 3,
        },
    )
    .expect("mock");
    let mut log = MockLog::start(&mut p, &m, NOW).expect("start");
    let mut clock = Duration::ZERO;

    // Nothing scored yet: nothing graded.
    assert!(log.save(&mut p, &m, NOW).expect("save").is_empty());
    let first = m.question().expect("q1").clone();
    let all: Vec<usize> = (0..first.keypoints.len()).collect();
    answer(&mut m, &all, 5, &mut clock);
    let graded = log.save(&mut p, &m, NOW + 1_000).expect("save");
    assert_eq!(graded.len(), 1, "the first question is saved at once");
    assert_eq!(graded[0].0, first.id);
    let expected = kubedrill::study::history::schedule_grade(m.results()[0].grade());
    assert_eq!(graded[0].1, expected);

    // The grade is in the review log as a mock grade and moved the card.
    let reviews = p.store.reviews().expect("reviews");
    assert_eq!(reviews.len(), 1);
    assert_eq!(reviews[0].mode, Mode::Mock);
    assert_eq!(reviews[0].grade, expected);
    assert!(p.store.card(&first.id).expect("card").is_some());

    // The session shows in history with its scorecard, not yet finished.
    let mocks = p.store.mocks().expect("mocks");
    assert_eq!(mocks.len(), 1);
    assert_eq!((mocks[0].answered, mocks[0].planned), (1, Some(2)));
    assert_eq!(mocks[0].finished_at, None);
    let stored: Scorecard =
        serde_json::from_str(mocks[0].scorecard.as_deref().expect("scorecard")).expect("json");
    assert_eq!(stored.results, m.results());

    answer(&mut m, &[], 90, &mut clock);
    assert!(m.is_done());
    let graded = log.save(&mut p, &m, NOW + 2_000).expect("save");
    assert_eq!(graded.len(), 1);
    assert_eq!(graded[0].1, Grade::Again, "nothing covered is Again");
    let mocks = p.store.mocks().expect("mocks");
    assert_eq!(mocks[0].finished_at, Some(NOW + 2_000));
    assert_eq!(mocks[0].overall, Some(m.scorecard().overall()));
    // Saving again changes nothing.
    assert!(log.save(&mut p, &m, NOW + 3_000).expect("save").is_empty());
    assert_eq!(p.store.reviews().expect("reviews").len(), 2);
}

#[test]
fn quiz_mistakes_come_first_in_the_review_queue_until_graded() {
    let deck = fixture_deck();
    let mut p = progress();
    let setup = QuizSetup {
        per_round: 3,
        seed: 11,
        ..QuizSetup::default()
    };
    let mut quiz = Quiz::new(&deck, &setup).expect("quiz");
    let mut log = QuizLog::start(&mut p, &quiz, &setup, NOW).expect("start");
    // Answer the first item wrongly, the second rightly.
    let item = quiz.current().expect("item").clone();
    let wrong = (item.answer + 1) % item.options.len();
    quiz.answer(wrong).expect("answer");
    let flagged = log.save(&mut p, &quiz, NOW + 1).expect("save");
    assert_eq!(flagged, vec![item.question_id.clone()]);
    quiz.advance().expect("next");
    let right = quiz.current().expect("item").answer;
    quiz.answer(right).expect("answer");
    assert!(log.save(&mut p, &quiz, NOW + 2).expect("save").is_empty());
    quiz.end();
    log.save(&mut p, &quiz, NOW + 3).expect("save");

    let quizzes = p.store.quizzes().expect("quizzes");
    assert_eq!(quizzes.len(), 1);
    assert_eq!(
        (
            quizzes[0].answered,
            quizzes[0].correct,
            quizzes[0].finished_at
        ),
        (2, 1, Some(NOW + 3))
    );

    // The missed question leads the due queue, even though it was never studied.
    let session = Session::due(&deck, &p, None, NOW + 10).expect("due");
    assert_eq!(session.current(), Some(item.question_id.as_str()));
    // Grading it (in any mode) clears the flag.
    p.grade(&item.question_id, Grade::Good, NOW + 20, 1_000, Mode::Cram)
        .expect("grade");
    assert!(p.store.flags().expect("flags").is_empty());
}

#[test]
fn mocks_quizzes_and_flags_survive_export_and_import() {
    let deck = fixture_deck();
    let mut a = progress();
    let mut m = Mock::new(
        &deck,
        MockSetup {
            questions: 1,
            seed: 5,
            ..MockSetup::default()
        },
    )
    .expect("mock");
    let mut log = MockLog::start(&mut a, &m, NOW).expect("start");
    let mut clock = Duration::ZERO;
    answer(&mut m, &[0], 8, &mut clock);
    log.save(&mut a, &m, NOW + 1).expect("save");

    let setup = QuizSetup {
        per_round: 2,
        seed: 2,
        ..QuizSetup::default()
    };
    let mut quiz = Quiz::new(&deck, &setup).expect("quiz");
    let mut qlog = QuizLog::start(&mut a, &quiz, &setup, NOW + 5).expect("quiz");
    let item = quiz.current().expect("item").clone();
    quiz.answer((item.answer + 1) % item.options.len())
        .expect("answer");
    qlog.save(&mut a, &quiz, NOW + 6).expect("save");

    let doc = a.store.export().expect("export");
    assert_eq!(doc.version, 3);
    assert_eq!(doc.quiz_sessions.len(), 1);
    assert_eq!(doc.review_flags.len(), 1);
    assert!(doc.mock_sessions[0].scorecard.is_some());
    let json = serde_json::to_string(&doc).expect("json");
    let back = serde_json::from_str(&json).expect("parse");
    let mut b = Store::in_memory("b").expect("b");
    let sum = b.import(&back).expect("import");
    assert_eq!(
        (sum.mock_sessions, sum.quiz_sessions, sum.review_flags),
        (1, 1, 1)
    );
    assert_eq!(b.export().expect("export b"), doc);
    assert_eq!(b.import(&back).expect("again"), Default::default());
}

#[test]
fn a_version_1_export_still_imports() {
    let doc = r#"{"format":"kubedrill-progress","version":1,"reviews":[],"cards":[],
        "mock_sessions":[{"started_at":5,"finished_at":null,"level":"senior","topic":null,
        "seed":7,"answers":[]}],"solved_challenges":[]}"#;
    let mut s = Store::in_memory("v1").expect("store");
    let sum = s
        .import(&serde_json::from_str(doc).expect("parse"))
        .expect("import");
    assert_eq!(sum.mock_sessions, 1);
    let mocks = s.mocks().expect("mocks");
    assert_eq!(mocks[0].level.as_deref(), Some("senior"));
    assert_eq!(mocks[0].scorecard, None);
}

/// A quiz or mock left before its first answer leaves no session behind: `q` on the first
/// quiz item once saved a 0/0 quiz, and a mock ended at once a 0-point one.
#[test]
fn a_session_with_nothing_answered_is_not_saved() {
    let deck = fixture_deck();
    let mut p = progress();
    let setup = QuizSetup {
        per_round: 3,
        seed: 11,
        ..QuizSetup::default()
    };
    let mut quiz = Quiz::new(&deck, &setup).expect("quiz");
    let mut log = QuizLog::start(&mut p, &quiz, &setup, NOW).expect("start");
    quiz.end();
    assert!(log.save(&mut p, &quiz, NOW + 1).expect("save").is_empty());
    assert!(p.store.quizzes().expect("quizzes").is_empty());
    assert_eq!(log.id, None);

    let mut m = Mock::new(
        &deck,
        MockSetup {
            questions: 2,
            level: Level::Middle,
            topic: None,
            strictness: Strictness::Standard,
            seed: 3,
        },
    )
    .expect("mock");
    let mut mlog = MockLog::start(&mut p, &m, NOW).expect("start");
    m.end();
    assert!(mlog.save(&mut p, &m, NOW + 2).expect("save").is_empty());
    assert!(p.store.mocks().expect("mocks").is_empty());
}
