//! Past mock interviews and quizzes saved the way the app saves them (`MockLog`,
//! `QuizLog`), for the tests of the stats history.
#![allow(dead_code)]

use std::time::Duration;

use kubedrill::content::{Deck, Level};
use kubedrill::study::Progress;
use kubedrill::study::history::{MockLog, QuizLog};
use kubedrill::study::mock::{FollowupVerdict, Mock, MockSetup, Scorecard, Strictness};
use kubedrill::study::quiz::{Quiz, QuizResult, QuizSetup};
use kubedrill::study::time::{DAY_MS, Millis};

/// A mock to play: per question asked, the percent of keypoints covered; fewer entries
/// than `questions` end the interview early.
pub struct MockPlan {
    pub days_ago: i64,
    pub seed: u64,
    pub questions: usize,
    pub level: Level,
    pub strictness: Strictness,
    pub coverage: &'static [u32],
    /// The question (by position) on which a pitfall is said.
    pub pitfall_on: Option<usize>,
}

/// A quiz to play: the items (by position) answered wrongly; `stop_after` answers, when
/// set, end it early.
pub struct QuizPlan {
    pub days_ago: i64,
    pub seed: u64,
    pub per_round: usize,
    pub wrong: &'static [usize],
    pub stop_after: Option<usize>,
}

pub fn mock_plan(days_ago: i64, seed: u64, coverage: &'static [u32]) -> MockPlan {
    MockPlan {
        days_ago,
        seed,
        questions: coverage.len(),
        level: Level::Middle,
        strictness: Strictness::Standard,
        coverage,
        pitfall_on: None,
    }
}

pub fn quiz_plan(days_ago: i64, seed: u64, wrong: &'static [usize]) -> QuizPlan {
    QuizPlan {
        days_ago,
        seed,
        per_round: 2,
        wrong,
        stop_after: None,
    }
}

/// Plays `plan` on `deck`, saving as the app does, starting `plan.days_ago` days before
/// `now`. Returns the scorecard.
pub fn play_mock(p: &mut Progress, deck: &Deck, plan: &MockPlan, now: Millis) -> Scorecard {
    let start = now - plan.days_ago * DAY_MS;
    let mut m = Mock::new(
        deck,
        MockSetup {
            questions: plan.questions,
            level: plan.level,
            topic: None,
            strictness: plan.strictness,
            seed: plan.seed,
        },
    )
    .expect("mock");
    let mut log = MockLog::start(p, &m, start).expect("start");
    let mut clock = Duration::ZERO;
    let at = |clock: Duration| start + clock.as_millis() as i64;
    for (i, &pct) in plan.coverage.iter().enumerate() {
        let total = m.question().expect("question").keypoints.len();
        m.start_answer(clock).expect("start answer");
        clock += Duration::from_secs(20);
        m.finish_answer(clock).expect("finish");
        for k in 0..(total * pct as usize / 100) {
            m.toggle_keypoint(k).expect("tick");
        }
        if plan.pitfall_on == Some(i) {
            m.toggle_pitfall(0).expect("pitfall");
        }
        m.confirm_rubric(clock).expect("rubric");
        if m.followup().is_some() && m.pending().is_some() {
            clock += Duration::from_secs(5);
            m.finish_followup(clock).expect("follow-up");
            let verdict = if pct >= 50 {
                FollowupVerdict::Answered
            } else {
                FollowupVerdict::Missed
            };
            m.judge_followup(verdict).expect("judge");
        }
        log.save(p, &m, at(clock)).expect("save");
    }
    if !m.is_done() {
        m.end();
        log.save(p, &m, at(clock)).expect("save");
    }
    m.scorecard()
}

pub fn play_quiz(p: &mut Progress, deck: &Deck, plan: &QuizPlan, now: Millis) -> QuizResult {
    let start = now - plan.days_ago * DAY_MS;
    let setup = QuizSetup {
        per_round: plan.per_round,
        seed: plan.seed,
        ..QuizSetup::default()
    };
    let mut quiz = Quiz::new(deck, &setup).expect("quiz");
    let mut log = QuizLog::start(p, &quiz, &setup, start).expect("start");
    let mut i = 0;
    while let Some(item) = quiz.current().cloned() {
        if plan.stop_after == Some(i) {
            break;
        }
        let choice = if plan.wrong.contains(&i) {
            (item.answer + 1) % item.options.len()
        } else {
            item.answer
        };
        quiz.answer(choice).expect("answer");
        log.save(p, &quiz, start + i as i64 * 1_000).expect("save");
        quiz.advance().expect("advance");
        i += 1;
    }
    quiz.end();
    log.save(p, &quiz, start + i as i64 * 1_000).expect("save");
    quiz.result()
}

/// Five mocks (two ended early, one with a pitfall) and four quizzes over two weeks: a
/// rising mock trend and quiz scores that dip and recover.
pub fn seed_history(
    p: &mut Progress,
    deck: &Deck,
    now: Millis,
) -> (Vec<Scorecard>, Vec<QuizResult>) {
    let mocks = [
        mock_plan(14, 1, &[50, 25, 0]),
        MockPlan {
            pitfall_on: Some(1),
            ..mock_plan(10, 2, &[75, 100, 50])
        },
        MockPlan {
            questions: 4,
            strictness: Strictness::Strict,
            level: Level::Senior,
            ..mock_plan(7, 3, &[100, 50])
        },
        mock_plan(3, 4, &[100, 75, 100]),
        MockPlan {
            questions: 3,
            ..mock_plan(1, 5, &[100, 100])
        },
    ];
    let quizzes = [
        quiz_plan(12, 11, &[0, 2, 3]),
        quiz_plan(8, 12, &[1]),
        quiz_plan(5, 13, &[0, 1, 4, 5]),
        QuizPlan {
            stop_after: Some(4),
            ..quiz_plan(2, 14, &[3])
        },
    ];
    let cards = mocks.iter().map(|m| play_mock(p, deck, m, now)).collect();
    let results = quizzes.iter().map(|q| play_quiz(p, deck, q, now)).collect();
    (cards, results)
}
