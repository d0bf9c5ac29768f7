//! Studying through the app's key events: grading with the intervals on the keys, the
//! daily new-card limit, undo, bury, in-session relearning, cram, and the stats screen.

mod common;

use common::*;
use kubedrill::study::store::Mode;
use kubedrill::study::time::DAY_MS;
use kubedrill::study::{Phase, Progress, Store, StudyConfig};
use kubedrill::tui::App;
use kubedrill::tui::app::Screen;
use kubedrill::tui::screens::review::ReviewState;
use ratatui::crossterm::event::KeyCode;

/// 2024-10-04 12:00 UTC.
const NOW: i64 = 20_000 * DAY_MS + DAY_MS / 2;

fn study_app(dir: &std::path::Path, new_per_day: u32) -> App {
    let opened = Store::open_dir(dir, NOW);
    assert!(opened.notices.is_empty(), "{:?}", opened.notices);
    let config = StudyConfig {
        new_cards_per_day: new_per_day,
        ..Default::default()
    };
    let progress = Progress::new(opened.store, config).expect("progress");
    let mut a = App::new(loaded(), Default::default()).with_progress(progress, vec![]);
    a.update(kubedrill::tui::Msg::Resize(100, 30));
    a.now = NOW;
    a
}

fn review(a: &App) -> &ReviewState {
    match a.screen() {
        Screen::Review(r) => r,
        other => panic!("not studying: {other:?}"),
    }
}

fn current(a: &App) -> Option<String> {
    review(a).session.current().map(str::to_string)
}

fn progress(a: &App) -> &Progress {
    a.progress.as_ref().expect("progress")
}

#[test]
fn grades_show_their_intervals_and_are_stored_before_the_next_card() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    let first = current(&a).expect("a new card");
    let text = screen_text(&render(&a, 100, 30));
    assert!(text.contains("review: all topics"), "{text}");
    let new = loaded().deck.questions.len().min(20);
    assert!(
        text.contains(&format!("new {new} · learning 0 · due 0")),
        "{text}"
    );
    assert!(text.contains("Space show the answer"), "{text}");

    a.update(ch(' '));
    // The whole back of the card, so Space is free to mean Good.
    let shown = review(&a).card.as_ref().expect("card").revealed;
    assert_eq!(shown, [true; 9]);
    let text = screen_text(&render(&a, 100, 30));
    assert!(text.contains("1 Key points"), "{text}");
    assert!(text.contains("3 Solid answer"), "{text}");
    assert!(
        text.contains("1 Again 1m  2 Hard 6m  3 Good 10m  4 Easy 8d  Space Good"),
        "{text}"
    );

    a.update(ch('4'));
    assert_ne!(current(&a).as_deref(), Some(first.as_str()));
    // Durable: a second handle on the file sees the grade.
    let other = Store::open_file(&tmp.path().join("progress.db"), NOW).expect("open");
    let log = other.store.reviews().expect("log");
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].question_id, first);
    assert_eq!(log[0].grade.number(), 4);
    assert_eq!(log[0].mode, Mode::Review);
    let card = other.store.card(&first).expect("read").expect("card");
    assert_eq!((card.phase, card.interval_days), (Phase::Review, 8));
}

#[test]
fn the_daily_new_card_limit_holds_across_sessions_and_resets_next_day() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 2);
    a.update(ch('r'));
    let mut seen = Vec::new();
    while let Some(id) = current(&a) {
        seen.push(id);
        a.update(ch(' '));
        a.update(ch('4'));
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
    let text = screen_text(&render(&a, 100, 30));
    assert!(text.contains("Session done"), "{text}");

    // Back home and again: today's two new cards are used up.
    a.update(ch('q'));
    a.update(ch('r'));
    assert_eq!(current(&a), None);
    assert!(screen_text(&render(&a, 100, 30)).contains("Nothing to study here now"));

    // Tomorrow brings two more, and not the ones already learnt (those are due in days).
    a.update(ch('q'));
    a.now = NOW + DAY_MS;
    a.update(ch('r'));
    let mut tomorrow = Vec::new();
    while let Some(id) = current(&a) {
        tomorrow.push(id);
        a.update(key(KeyCode::Enter));
        a.update(ch('4'));
    }
    assert_eq!(tomorrow.len(), 2);
    assert!(tomorrow.iter().all(|t| !seen.contains(t)));
}

#[test]
fn undo_restores_the_card_and_marks_the_grade_undone() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 1);
    a.update(ch('r'));
    let id = current(&a).expect("card");
    a.update(ch(' '));
    a.update(ch('3')); // Good: to the 10-minute learning step
    assert_eq!(progress(&a).card(&id).expect("card").phase, Phase::Learning);
    assert_eq!(review(&a).session.graded, 1);

    a.update(ch('u'));
    assert_eq!(current(&a).as_deref(), Some(id.as_str()));
    assert!(
        review(&a).answer_shown,
        "the answer stays shown for a new grade"
    );
    assert_eq!(review(&a).session.graded, 0);
    assert_eq!(progress(&a).card(&id).expect("card").phase, Phase::New);
    let log = progress(&a).store.reviews().expect("log");
    assert_eq!(log.len(), 1, "the log is append-only");
    assert_eq!(log[0].undone_at, Some(NOW));
    assert_eq!(
        a.status.as_deref(),
        Some(format!("undid the last grade of {id}").as_str())
    );

    // The undone new card does not count against the limit: it can be graded again.
    a.update(ch('4'));
    assert_eq!(progress(&a).card(&id).expect("card").phase, Phase::Review);
    a.update(ch('u'));
    a.update(ch('u'));
    assert_eq!(a.status.as_deref(), Some("nothing to undo in this session"));
}

#[test]
fn bury_hides_a_card_until_tomorrow() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    let id = current(&a).expect("card");
    a.update(ch('b'));
    assert_ne!(current(&a).as_deref(), Some(id.as_str()));
    assert_eq!(
        a.status.as_deref(),
        Some(format!("buried {id} until tomorrow").as_str())
    );
    let until = progress(&a)
        .card(&id)
        .expect("card")
        .buried_until
        .expect("buried");
    assert_eq!(until, 20_001 * DAY_MS);

    // A new session today skips it; tomorrow it is back.
    a.update(ch('q'));
    a.update(ch('r'));
    let mut today = Vec::new();
    while let Some(c) = current(&a) {
        today.push(c);
        a.update(ch('b'));
    }
    // Every other new card, up to the daily limit: the buried one was never introduced.
    let left = (loaded().deck.questions.len() - 1).min(20);
    assert_eq!(today.len(), left);
    assert!(!today.contains(&id));
    a.update(ch('q'));
    a.now = 20_001 * DAY_MS;
    a.update(ch('r'));
    assert_eq!(
        current(&a).as_deref(),
        Some(id.as_str()),
        "back the next day"
    );
    assert_eq!(
        progress(&a).store.reviews().expect("log").len(),
        0,
        "burying grades nothing"
    );
}

#[test]
fn a_lapsed_or_learning_card_comes_back_in_the_same_session() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 1);
    a.update(ch('r'));
    let id = current(&a).expect("card");
    a.update(ch(' '));
    a.update(ch('1')); // Again: the 1-minute step
    assert_eq!(current(&a).as_deref(), Some(id.as_str()));
    a.now += 60_000;
    a.update(ch(' '));
    a.update(ch('3')); // Good: the 10-minute step
    assert_eq!(current(&a).as_deref(), Some(id.as_str()));
    a.now += 600_000;
    a.update(ch(' '));
    a.update(key(KeyCode::Enter)); // Enter = Good: graduates
    assert_eq!(current(&a), None);
    let card = progress(&a).card(&id).expect("card");
    assert_eq!(card.phase, Phase::Review);

    // Days later it is due; Again sends it to relearning and back into this session.
    a.update(ch('q'));
    a.now = card.due;
    a.update(ch('r'));
    assert_eq!(current(&a).as_deref(), Some(id.as_str()));
    a.update(ch(' '));
    a.update(ch('1'));
    let lapsed = progress(&a).card(&id).expect("card");
    assert_eq!((lapsed.phase, lapsed.lapses), (Phase::Relearning, 1));
    // Today's new card comes first; then, with nothing else left, the relearning step.
    let new = current(&a).expect("the day's new card");
    assert_ne!(new, id);
    a.update(ch(' '));
    a.update(ch('4'));
    assert_eq!(current(&a).as_deref(), Some(id.as_str()));
    a.now += 600_000;
    a.update(ch(' '));
    a.update(ch('3'));
    assert_eq!(current(&a), None);
    assert_eq!(progress(&a).card(&id).expect("card").phase, Phase::Review);
}

#[test]
fn cram_from_a_filtered_list_leaves_the_schedule_alone() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(key(KeyCode::Enter)); // the topic's questions
    a.update(ch('c'));
    assert!(screen_text(&render(&a, 100, 30)).contains("cram (schedule untouched)"));
    a.update(ch(' '));
    let text = screen_text(&render(&a, 100, 30));
    assert!(
        text.contains("1 Again   2 Hard   3 Good   4 Easy"),
        "{text}"
    );
    let mut n = 0;
    while current(&a).is_some() {
        if !review(&a).answer_shown {
            a.update(ch(' '));
        }
        a.update(ch('3'));
        n += 1;
        // Nothing claims a schedule was saved or an interval set.
        let text = screen_text(&render(&a, 100, 30));
        assert!(
            text.contains("Good (practice saved; the schedule is untouched)")
                && !text.contains("next in"),
            "{text}"
        );
    }
    // The first topic's questions, as listed.
    let listed = loaded()
        .deck
        .questions
        .iter()
        .filter(|q| q.topic == "desired-state-reconciliation")
        .count();
    assert_eq!(n, listed);
    let p = progress(&a);
    assert!(
        p.store.cards().expect("cards").is_empty(),
        "no schedule moved"
    );
    let log = p.store.reviews().expect("log");
    assert_eq!(log.len(), listed);
    assert!(log.iter().all(|r| r.mode == Mode::Cram));
}

#[test]
fn the_stats_screen_opens_from_home() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    a.update(ch(' '));
    a.update(ch('4'));
    a.update(ch('q'));
    a.update(ch('s'));
    assert!(matches!(a.screen(), Screen::Stats(_)));
    for (w, h) in [(80, 24), (120, 40), (60, 16)] {
        let text = screen_text(&render(&a, w, h));
        assert!(text.contains("reviews: 1 today"), "{w}x{h}\n{text}");
        assert!(text.contains("reviews per day"), "{w}x{h}\n{text}");
        assert!(text.contains("due, next 30 days"), "{w}x{h}\n{text}");
        assert!(text.contains("mastery by level"), "{w}x{h}\n{text}");
    }
    let text = screen_text(&render(&a, 100, 30));
    assert!(text.contains("streak 1 day(s)"), "{text}");
}

#[test]
fn cram_by_level_topic_or_tag_opens_a_session_of_just_those() {
    use kubedrill::content::Level;
    use kubedrill::study::CramFilter;
    let deck = loaded().deck;
    let by_level = CramFilter {
        level: Some(Level::Middle),
        ..Default::default()
    };
    let middle: Vec<&str> = deck
        .questions
        .iter()
        .filter(|q| q.level == Level::Middle)
        .map(|q| q.id.as_str())
        .collect();
    assert!(middle.len() >= 2);
    assert_eq!(by_level.ids(&deck), middle);
    let by_tag = CramFilter {
        tag: Some("sre".into()),
        level: Some(Level::Senior),
        ..Default::default()
    };
    let sre_senior: Vec<&str> = deck
        .questions
        .iter()
        .filter(|q| q.level == Level::Senior)
        .filter(|q| {
            deck.topic(&q.topic)
                .is_some_and(|t| t.roadmaps.iter().any(|r| r == "sre"))
        })
        .map(|q| q.id.as_str())
        .collect();
    assert!(sre_senior.contains(&"replica-count-fight"));
    assert_eq!(by_tag.ids(&deck), sre_senior);
    let no_tag = CramFilter {
        tag: Some("frontend".into()),
        ..Default::default()
    };
    assert!(no_tag.ids(&deck).is_empty());
    assert_eq!(no_tag.describe(), "tag frontend");
    let by_topic = CramFilter {
        topic: Some("desired-state-reconciliation".into()),
        ..Default::default()
    };
    let in_topic = deck
        .questions
        .iter()
        .filter(|q| q.topic == "desired-state-reconciliation")
        .count();
    assert_eq!(by_topic.ids(&deck).len(), in_topic);

    // What `kubedrill study --cram --level middle --reschedule` opens.
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.start_cram(by_level.ids(&deck), true);
    assert!(screen_text(&render(&a, 100, 30)).contains("cram (schedule moves)"));
    assert_eq!(current(&a).as_deref(), Some(middle[0]));
    a.update(ch(' '));
    a.update(ch('4'));
    assert_eq!(current(&a).as_deref(), Some(middle[1]));
    let card = progress(&a).card(middle[0]).expect("card");
    assert_eq!(card.phase, Phase::Review, "reschedule moves the schedule");
    let log = progress(&a).store.reviews().expect("log");
    assert_eq!(log[0].mode, Mode::CramReschedule);
}

#[test]
fn the_help_overlay_lists_the_grading_keys() {
    use kubedrill::tui::keymap::{Context, help_rows};
    let rows = help_rows(Context::Review);
    let has = |k: &str, d: &str| rows.iter().any(|(key, desc)| key == k && *desc == d);
    assert!(
        has("1-4", "grade: 1 Again 2 Hard 3 Good 4 Easy"),
        "{rows:?}"
    );
    assert!(
        has("Space Enter", "show the answer, then grade Good"),
        "{rows:?}"
    );
    assert!(has("u", "undo the last grade"), "{rows:?}");
    assert!(has("b", "bury the card until tomorrow"), "{rows:?}");
    let home = help_rows(Context::Home);
    assert!(
        home.iter()
            .any(|(k, d)| k == "s" && *d == "progress statistics")
    );
    assert!(
        home.iter()
            .any(|(k, d)| k == "r" && *d == "review due cards, all topics")
    );
}

/// `d` on a review card opens that question's demo, as it does on a browsed card, and
/// Back returns to the same review card with its answer state kept.
#[test]
fn d_opens_the_review_cards_demo_and_back_returns_to_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    let first = current(&a).expect("a card");
    a.update(ch(' '));
    assert!(review(&a).answer_shown);
    a.update(ch('d'));
    match a.screen() {
        Screen::Demo(id) => assert_eq!(id, &first),
        other => panic!("not the demo: {other:?}"),
    }
    a.update(key(KeyCode::Esc));
    assert_eq!(current(&a).as_deref(), Some(first.as_str()));
    assert!(review(&a).answer_shown, "the same card, as it was left");
}

/// Type an answer before the reveal, tick what it covered, take the suggested grade: the
/// answer is stored with the grade and shown the next time the card comes up.
#[test]
fn a_typed_answer_is_checked_graded_as_suggested_and_shown_next_time() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    let first = current(&a).expect("a new card");
    let q = loaded().deck.question(&first).cloned().expect("question");
    a.update(ch('t'));
    assert_eq!(a.context(), kubedrill::tui::keymap::Context::Answer);
    // Letters that are keys elsewhere (q, b, u, 1) are text here.
    typed(&mut a, "quorum? no: 1 bu");
    a.update(key(KeyCode::Backspace));
    a.update(key(KeyCode::Backspace));
    typed(&mut a, "the controller recreates it");
    let text = screen_text(&render(&a, 100, 30));
    assert!(
        text.contains("quorum? no: 1 the controller recreates it"),
        "{text}"
    );
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), kubedrill::tui::keymap::Context::Check);
    let k = q.keypoints.len();
    let text = screen_text(&render(&a, 100, 30));
    assert!(
        text.contains(&format!("grade 1 Again (0 of {k} key points, no pitfall)")),
        "{text}"
    );
    // Tick every key point: the suggestion moves to Easy.
    for _ in 0..k {
        a.update(ch(' '));
        a.update(ch('j'));
    }
    let text = screen_text(&render(&a, 100, 30));
    assert!(
        text.contains(&format!("grade 4 Easy ({k} of {k} key points, no pitfall)")),
        "{text}"
    );
    // Untick one: Good or Hard by the mock's thresholds; Enter takes what is shown.
    a.update(ch('k'));
    a.update(ch(' '));
    let check = review(&a).check.clone().expect("check");
    let (suggested, _) = check.suggest(&q);
    a.update(key(KeyCode::Enter));
    assert_ne!(current(&a).as_deref(), Some(first.as_str()));
    let log = progress(&a).store.reviews().expect("log");
    assert_eq!(log.last().map(|r| r.grade), Some(suggested));
    let stored = progress(&a)
        .store
        .last_typed_answer(&first)
        .expect("read")
        .expect("stored");
    assert_eq!(stored.text, "quorum? no: 1 the controller recreates it");
    assert_eq!(stored.keypoints_covered.len(), k - 1);
    assert_eq!(stored.grade, suggested);

    // Next time: undo brings the card back; a new answer shows the last one beside it.
    a.update(ch('u'));
    assert_eq!(current(&a).as_deref(), Some(first.as_str()));
    let mut b = study_app(tmp.path(), 20);
    b.update(ch('r'));
    while current(&b).as_deref() != Some(first.as_str()) {
        b.update(ch(' '));
        b.update(ch('3'));
    }
    b.update(ch('t'));
    typed(&mut b, "second try");
    b.update(key(KeyCode::Enter));
    let text = screen_text(&render(&b, 100, 30));
    assert!(text.contains("Last time"), "{text}");
    assert!(
        text.contains("quorum? no: 1 the controller recreates it"),
        "{text}"
    );
}

/// Esc closes the box and keeps the text; Space then reveals and checks it. An empty box
/// reveals the plain answer, with Space meaning Good as before.
#[test]
fn the_answer_box_keeps_its_text_and_an_empty_one_changes_nothing() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    a.update(ch('t'));
    typed(&mut a, "draft");
    a.update(key(KeyCode::Esc));
    assert_eq!(a.context(), kubedrill::tui::keymap::Context::Review);
    assert!(screen_text(&render(&a, 100, 30)).contains("draft"));
    a.update(ch(' '));
    assert_eq!(a.context(), kubedrill::tui::keymap::Context::Check);
    a.update(ch('3'));
    assert_eq!(
        progress(&a).store.typed_answers(None).expect("read").len(),
        1
    );
    a.update(ch('t'));
    a.update(key(KeyCode::Enter));
    assert_eq!(
        a.context(),
        kubedrill::tui::keymap::Context::Review,
        "nothing to check"
    );
    assert!(screen_text(&render(&a, 100, 30)).contains("Space Good"));
}

/// G jumps to the checklist's last row (the last pitfall), g back to the first.
#[test]
fn g_and_big_g_jump_to_the_ends_of_the_checklist() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut a = study_app(tmp.path(), 20);
    a.update(ch('r'));
    a.update(ch('t'));
    typed(&mut a, "an answer");
    a.update(key(KeyCode::Enter));
    a.update(ch('G'));
    a.update(ch(' '));
    let check = review(&a).check.clone().expect("check");
    assert_eq!(check.said.last(), Some(&true), "{check:?}");
    let text = screen_text(&render(&a, 100, 30));
    assert!(text.contains("(1 pitfall fallen into)"), "{text}");
    a.update(ch('g'));
    a.update(ch(' '));
    assert_eq!(review(&a).check.as_ref().map(|c| c.covered[0]), Some(true));
}
