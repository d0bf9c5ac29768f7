//! Mock interviews and quizzes through the app's key events, with the time set by hand:
//! the setup, the countdown and its overtime, notes, the rubric, the follow-up, the
//! scorecard and its report, ending early; a quiz's feedback, result and review flags.
//! Snapshots of each screen at 80x24 and 120x40.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use common::*;
use kubedrill::study::store::Mode;
use kubedrill::study::time::DAY_MS;
use kubedrill::study::{Progress, Session, Store, StudyConfig};
use kubedrill::tui::App;
use kubedrill::tui::app::Screen;
use kubedrill::tui::keymap::Context;
use ratatui::crossterm::event::KeyCode;

/// 2024-10-04 12:00 UTC.
const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;
const SEC: i64 = 1000;

/// An app with an in-memory store, mocks drawn from seed 7, reports collected.
/// Keep the folder while the app writes to its store.
type Fixture = (App, Rc<RefCell<Vec<String>>>, tempfile::TempDir);

fn mock_app(w: u16, h: u16) -> Fixture {
    // A store on disk, so no "not saving" banner.
    let dir = tempfile::tempdir().expect("tmp");
    let opened = Store::open_dir(dir.path(), NOW);
    let progress = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    let mut a = App::new(loaded(), Default::default()).with_progress(progress, vec![]);
    a.update(kubedrill::tui::Msg::Resize(w, h));
    a.now = NOW;
    a.mock_seed = Some(7);
    let reports = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&reports);
    a.report_sink = Some(Box::new(move |md, _| {
        sink.borrow_mut().push(md.to_string());
        Ok("/tmp/report.md".into())
    }));
    (a, reports, dir)
}

fn text(a: &App, w: u16, h: u16) -> String {
    screen_text(&render(a, w, h))
}

/// Home, `m`, two questions (the default is 5), Enter.
fn start_two_question_mock(a: &mut App) {
    a.update(ch('m'));
    assert_eq!(a.context(), Context::Setup);
    for _ in 0..3 {
        a.update(ch('h'));
    }
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Interview);
}

fn progress(a: &App) -> &Progress {
    a.progress.as_ref().expect("progress")
}

#[test]
fn a_two_question_mock_runs_from_setup_to_scorecard_and_saves_each_grade() {
    let (mut a, reports, _dir) = mock_app(100, 30);
    start_two_question_mock(&mut a);
    let t = text(&a, 100, 30);
    assert!(t.contains("Question 1 of 2"), "{t}");
    assert!(t.contains("Enter starts the clock"), "{t}");

    // The clock runs from the key press, on the app's time.
    a.update(key(KeyCode::Enter));
    a.now += 12 * SEC;
    let t = text(&a, 100, 30);
    assert!(
        t.contains("0:12 0:38 left · one-liner checkpoint at 15s"),
        "{t}"
    );
    assert!(a.tick_interval().is_some(), "a running clock redraws");
    // Paused time does not count.
    a.update(ch('p'));
    a.now += 30 * SEC;
    let t = text(&a, 100, 30);
    assert!(t.contains("PAUSED"), "{t}");
    assert!(t.contains("0:12"), "{t}");
    assert!(a.tick_interval().is_none(), "nothing moves while paused");
    a.update(ch('p'));
    a.now += 45 * SEC;
    let t = text(&a, 100, 30);
    assert!(t.contains("OVERTIME +0:07"), "{t}");

    // Rubric: tick the first two keypoints.
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Rubric);
    a.update(ch(' '));
    a.update(ch('j'));
    a.update(ch('x'));
    let t = text(&a, 100, 30);
    assert!(t.contains("Model answers"), "{t}");
    assert_eq!(t.matches("[x]").count(), 2, "{t}");
    a.update(key(KeyCode::Enter));
    // The follow-up, with its own clock, then its answer and the verdict.
    assert_eq!(a.context(), Context::Interview);
    assert!(text(&a, 100, 30).contains("follow-up"));
    a.now += 10 * SEC;
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Judge);
    a.update(ch('1'));
    let reviews = progress(&a).store.reviews().expect("reviews");
    assert_eq!(
        reviews.len(),
        1,
        "the first question is saved before the next"
    );
    assert_eq!(reviews[0].mode, Mode::Mock);
    assert!(a.status.as_deref().unwrap_or("").starts_with("saved "));

    // The second question, everything covered, on time.
    let q2 = match a.screen() {
        Screen::Mock(m) => m.mock.question().expect("q2").clone(),
        other => panic!("not in the mock: {other:?}"),
    };
    a.update(key(KeyCode::Enter));
    a.now += 20 * SEC;
    a.update(key(KeyCode::Enter));
    for _ in 0..q2.keypoints.len() {
        a.update(ch(' '));
        a.update(ch('j'));
    }
    a.update(key(KeyCode::Enter));
    if a.context() == Context::Interview {
        a.now += 5 * SEC;
        a.update(key(KeyCode::Enter));
        a.update(ch('1'));
    }
    assert_eq!(a.context(), Context::Scorecard);
    let t = text(&a, 100, 30);
    assert!(t.contains("passed 1 of 2"), "{t}");
    assert!(t.contains("Score per question"), "{t}");
    assert!(t.contains("Q1") && t.contains("Q2"), "{t}");
    assert_eq!(progress(&a).store.reviews().expect("reviews").len(), 2);
    let mocks = progress(&a).store.mocks().expect("mocks");
    assert_eq!(mocks.len(), 1);
    assert!(mocks[0].finished_at.is_some());

    // The report, through the sink, with one key.
    a.update(ch('w'));
    assert_eq!(reports.borrow().len(), 1);
    assert!(reports.borrow()[0].starts_with("# Mock interview report"));
    assert!(text(&a, 100, 30).contains("report written to /tmp/report.md"));
    // q leaves the scorecard for home.
    a.update(ch('q'));
    assert_eq!(a.context(), Context::Home);
}

#[test]
fn q_during_an_answer_ends_the_interview_with_what_was_scored() {
    let (mut a, _, _dir) = mock_app(100, 30);
    start_two_question_mock(&mut a);
    a.update(key(KeyCode::Enter));
    a.now += 3 * SEC;
    a.update(ch('q'));
    assert_eq!(a.context(), Context::Scorecard, "q ends, it does not drop");
    let t = text(&a, 100, 30);
    // The first question was asked, though none was scored.
    assert!(t.contains("ended early (1 of 2 asked)"), "{t}");
    a.update(ch('q'));
    assert_eq!(a.context(), Context::Home);
}

/// The rubric shows what was jotted while answering, to tick against.
#[test]
fn notes_are_on_the_rubric() {
    let (mut a, _, _dir) = mock_app(100, 30);
    start_two_question_mock(&mut a);
    a.update(key(KeyCode::Enter));
    a.update(ch('n'));
    typed(&mut a, "owner refs, queue");
    a.update(key(KeyCode::Enter));
    a.now += 30 * SEC;
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Rubric);
    let t = text(&a, 100, 30);
    assert!(
        t.contains("Your notes") && t.contains("owner refs, queue"),
        "{t}"
    );
}

#[test]
fn notes_take_every_letter_and_are_kept_with_the_answer() {
    let (mut a, reports, _dir) = mock_app(100, 30);
    start_two_question_mock(&mut a);
    a.update(key(KeyCode::Enter));
    a.update(ch('n'));
    assert_eq!(a.context(), Context::Notes);
    typed(&mut a, "rs quota? jk");
    a.update(key(KeyCode::Backspace));
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Interview);
    assert!(text(&a, 100, 30).contains("rs quota? j"));
    a.update(ch('E'));
    a.update(ch('w'));
    // Ended in the answer: nothing was scored, so the notes are not in the report, but
    // they were in the mock until then.
    assert!(!reports.borrow()[0].contains("rs quota"));
}

/// A paste is text for the notes, line breaks and capitals included: a capital `E` in it
/// once ended the mock, and the notes kept nothing after the first line.
#[test]
fn pasted_notes_stay_notes() {
    let (mut a, _, _dir) = mock_app(100, 30);
    start_two_question_mock(&mut a);
    a.update(key(KeyCode::Enter));
    a.update(ch('n'));
    a.update(kubedrill::tui::Msg::Paste(
        "Events first\nEnd with Q".into(),
    ));
    assert_eq!(a.context(), Context::Notes, "the paste pressed a key");
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Interview);
    let t = text(&a, 100, 30);
    assert!(
        t.contains("Events first") && t.contains("End with Q"),
        "{t}"
    );
    // Outside a text field a paste does nothing at all.
    a.update(kubedrill::tui::Msg::Paste("E".into()));
    assert_eq!(a.context(), Context::Interview);
}

#[test]
fn a_quiz_shows_the_correction_at_once_and_flags_misses_for_review() {
    let (mut a, _, _dir) = mock_app(100, 30);
    a.update(ch('z'));
    assert_eq!(a.context(), Context::Setup);
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::Quiz);
    let item = match a.screen() {
        Screen::Quiz(q) => q.quiz.current().expect("item").clone(),
        other => panic!("not in the quiz: {other:?}"),
    };
    let wrong = (item.answer + 1) % item.options.len();
    a.update(ch(char::from(b'1' + wrong as u8)));
    let t = text(&a, 100, 30);
    assert!(t.contains("Not quite."), "{t}");
    assert!(t.contains('✗') && t.contains('✓'), "{t}");
    // The miss is saved and its question leads the next review.
    assert!(
        progress(&a)
            .store
            .flags()
            .expect("flags")
            .contains_key(&item.question_id)
    );
    let due = Session::due(&a.deck, progress(&a), None, NOW).expect("due");
    assert_eq!(due.current(), Some(item.question_id.as_str()));
    a.update(key(KeyCode::Enter));
    // End now: the result lists the mistake with its correction.
    a.update(ch('E'));
    let t = text(&a, 100, 30);
    assert!(t.contains("0 of 1 right (0%)"), "{t}");
    assert!(t.contains("Put forward for your next review"), "{t}");
    let quizzes = progress(&a).store.quizzes().expect("quizzes");
    assert_eq!((quizzes[0].answered, quizzes[0].correct), (1, 0));
    assert!(quizzes[0].finished_at.is_some());
    a.update(ch('q'));
    assert_eq!(a.context(), Context::Home);
    // Home counts the flagged question as due today in its topic.
    let t = text(&a, 100, 30);
    assert!(t.contains("all  due  new"), "{t}");
    assert!(t.contains("1 due today"), "{t}");
}

/// At 80x24, every item of a whole quiz shows its verdict and the key to go on once
/// answered, and its options read as the card does (line breaks of the source are spaces,
/// Markdown marks rendered).
#[test]
fn every_quiz_item_shows_its_verdict_at_80x24() {
    let (w, h) = (80, 24);
    let (mut a, _, _dir) = mock_app(w, h);
    a.update(ch('z'));
    a.update(key(KeyCode::Enter));
    let mut seen = 0;
    while let Screen::Quiz(q) = a.screen() {
        let Some(item) = q.quiz.current().cloned() else {
            break;
        };
        let t = text(&a, w, h);
        for opt in &item.options {
            let start: Vec<String> = opt
                .split_whitespace()
                .take(3)
                .map(|w| w.replace(['`', '*'], ""))
                .collect();
            let start = start.join(" ");
            assert!(
                t.contains(&start),
                "option start {start:?} not on screen:\n{t}"
            );
        }
        let wrong = (item.answer + 1) % item.options.len();
        a.update(ch(char::from(b'1' + wrong as u8)));
        let t = text(&a, w, h);
        assert!(
            t.contains("Not quite."),
            "{:?}: no verdict at 80x24:\n{t}",
            item.kind
        );
        assert!(t.contains("next item"), "{t}");
        a.update(key(KeyCode::Enter));
        seen += 1;
        if seen > 100 {
            panic!("the quiz does not end");
        }
    }
    assert!(seen >= 9, "three rounds were asked: {seen}");
}

fn snap(name: &str, build: impl Fn(u16, u16) -> App) {
    for (w, h) in [(80, 24), (120, 40)] {
        let app = build(w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&app, w, h).backend());
    }
}

#[test]
fn mock_screens() {
    snap("mock_setup", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        a.update(ch('m'));
        a
    });
    snap("mock_answering", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        start_two_question_mock(&mut a);
        a.update(key(KeyCode::Enter));
        a.now += 14 * SEC;
        a
    });
    snap("mock_rubric", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        start_two_question_mock(&mut a);
        a.update(key(KeyCode::Enter));
        a.now += 62 * SEC;
        a.update(key(KeyCode::Enter));
        a.update(ch(' '));
        a.update(ch('j'));
        a
    });
    snap("mock_scorecard", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        start_two_question_mock(&mut a);
        a.update(key(KeyCode::Enter));
        a.now += 40 * SEC;
        a.update(key(KeyCode::Enter));
        a.update(ch(' '));
        a.update(key(KeyCode::Enter));
        a.update(ch('E'));
        a
    });
}

#[test]
fn quiz_screens() {
    snap("quiz_feedback", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        a.update(ch('z'));
        a.update(key(KeyCode::Enter));
        a.update(ch('2'));
        a
    });
    snap("quiz_result", |w, h| {
        let (mut a, _, _dir) = mock_app(w, h);
        a.update(ch('z'));
        a.update(key(KeyCode::Enter));
        a.update(ch('2'));
        a.update(key(KeyCode::Enter));
        a.update(ch('1'));
        a.update(key(KeyCode::Enter));
        a.update(ch('E'));
        a
    });
}
