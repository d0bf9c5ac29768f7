//! Whole-app tests driven by key events, no terminal.

mod common;

use common::*;
use kubedrill::content::{Importance, Level};
use kubedrill::tui::App;
use kubedrill::tui::app::Screen;
use kubedrill::tui::keymap::{self, Action, Context};
use kubedrill::tui::screens::card::Section;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

fn list_state(app: &App) -> &kubedrill::tui::screens::list::ListState {
    match app.screen() {
        Screen::List(l) => l,
        other => panic!("not on the list: {other:?}"),
    }
}

fn card_state(app: &App) -> &kubedrill::tui::screens::card::CardState {
    match app.screen() {
        Screen::Card(c) => c,
        other => panic!("not on a card: {other:?}"),
    }
}

fn visible_ids(app: &App) -> Vec<String> {
    list_state(app)
        .visible(&app.deck)
        .iter()
        .map(|q| q.id.to_string())
        .collect()
}

#[test]
fn home_to_list_to_card_and_reveal_two_sections() {
    let mut a = app(80, 24);
    assert!(matches!(a.screen(), Screen::Home(_)));
    a.update(key(KeyCode::Enter));
    assert_eq!(
        list_state(&a).topic.as_deref(),
        Some("desired-state-reconciliation")
    );
    a.update(key(KeyCode::Enter));
    let c = card_state(&a);
    assert_eq!(c.id, "spec-vs-status");
    assert_eq!(c.revealed, [false; 9]);

    a.update(ch(' '));
    a.update(key(KeyCode::Enter));
    let c = card_state(&a);
    assert!(c.is_revealed(Section::Keypoints));
    assert!(c.is_revealed(Section::Basics));
    assert!(!c.is_revealed(Section::Solid));
    let text = screen_text(&render(&a, 80, 24));
    assert!(text.contains("1 Key points"), "{text}");
    assert!(text.contains("2 Basics  ~10 s"), "{text}");
    assert!(text.contains("spec is the intent you declare"), "{text}");
    assert!(!text.contains("3 Solid answer  ~50 s"), "{text}");
    assert!(text.contains("Next: 3 Solid answer (2/9 shown)"), "{text}");
}

#[test]
fn digit_jumps_to_pitfalls_and_scrolls_there() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('a'));
    a.update(ch('9'));
    let c = card_state(&a);
    assert!(c.is_revealed(Section::Pitfalls));
    assert!(c.scroll > 0);
    let text = screen_text(&render(&a, 80, 24));
    let body_top = text.lines().nth(3).unwrap();
    assert!(body_top.contains("9 Pitfalls"), "{text}");
}

#[test]
fn jumping_reveals_only_that_section() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('9'));
    let c = card_state(&a);
    assert!(c.is_revealed(Section::Pitfalls));
    assert_eq!(c.revealed.iter().filter(|r| **r).count(), 1);
    // Space now reveals from the start.
    a.update(ch(' '));
    assert!(card_state(&a).is_revealed(Section::Keypoints));
}

#[test]
fn scrolling_is_clamped() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('k'));
    assert_eq!(card_state(&a).scroll, 0);
    for _ in 0..50 {
        a.update(ch('j'));
    }
    assert_eq!(
        card_state(&a).scroll,
        0,
        "prompt alone fits: nothing to scroll"
    );
    a.update(ch('a'));
    a.update(ch('G'));
    let bottom = card_state(&a).scroll;
    assert!(bottom > 20);
    a.update(ch('j'));
    assert_eq!(card_state(&a).scroll, bottom);
    a.update(key(KeyCode::PageUp));
    assert!(card_state(&a).scroll < bottom);
    a.update(ch('g'));
    assert_eq!(card_state(&a).scroll, 0);
}

#[test]
fn level_keys_switch_the_deeper_notes() {
    let mut a = app(120, 40);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    assert_eq!(card_state(&a).level, Level::Middle);
    a.update(ch('4'));
    let text = screen_text(&render(&a, 120, 40));
    assert!(text.contains("4 Deeper  at middle level"), "{text}");
    assert!(
        text.contains("Explain the mechanics behind the split"),
        "{text}"
    );
    a.update(ch(']'));
    assert_eq!(card_state(&a).level, Level::Senior);
    a.update(ch(']'));
    a.update(ch(']'));
    assert_eq!(card_state(&a).level, Level::Principal);
    let text = screen_text(&render(&a, 120, 40));
    assert!(
        text.contains("Discuss it as API design for operators"),
        "{text}"
    );
    a.update(ch('['));
    assert_eq!(card_state(&a).level, Level::Senior);
}

/// `/` on the topics screen searches every question of every topic, shows where each
/// matched, and opens the one chosen.
#[test]
fn search_from_home_covers_every_topic_with_snippets() {
    let mut a = app(120, 40);
    a.update(ch('/'));
    assert_eq!(a.context(), Context::Search);
    typed(&mut a, "gitops");
    let deck = loaded().deck;
    let mut want: Vec<String> = kubedrill::content::search::search(&deck, "gitops")
        .iter()
        .map(|h| h.question.id.to_string())
        .collect();
    let mut shown = visible_ids(&a);
    shown.sort();
    want.sort();
    assert_eq!(shown, want);
    let topics: std::collections::HashSet<&str> = want
        .iter()
        .filter_map(|id| deck.question(id))
        .map(|q| q.topic.as_str())
        .collect();
    assert!(
        topics.len() > 1,
        "gitops is in more than one topic: {topics:?}"
    );
    let text = screen_text(&render(&a, 120, 40));
    assert!(text.contains("all topics"), "{text}");
    assert!(
        text.contains("matched in"),
        "the preview names the field: {text}"
    );
    assert!(
        text.to_lowercase().contains("gitops"),
        "the snippet: {text}"
    );
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen(), Screen::Card(_)));
}

/// `/` looks through every field of the topic's questions, as `kubedrill search` does:
/// GitOps is named in replica-count-fight's keypoints, not in its id or prompt.
#[test]
fn search_filters_incrementally_on_every_field() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(ch('/'));
    assert_eq!(a.context(), Context::Search);
    typed(&mut a, "gitops");
    let shown = visible_ids(&a);
    assert!(
        shown.contains(&"replica-count-fight".to_string()),
        "{shown:?}"
    );
    let deck = loaded().deck;
    let expected: Vec<String> = kubedrill::content::search::search(&deck, "gitops")
        .iter()
        .filter(|h| h.question.topic == "desired-state-reconciliation")
        .map(|h| h.question.id.to_string())
        .collect();
    let mut sorted = shown.clone();
    sorted.sort();
    let mut want = expected;
    want.sort();
    assert_eq!(sorted, want);
    a.update(key(KeyCode::Backspace));
    // "q" types into the search instead of going back.
    typed(&mut a, "aq");
    assert!(visible_ids(&a).is_empty());
    assert!(matches!(a.screen(), Screen::List(_)));
    a.update(key(KeyCode::Backspace));
    a.update(key(KeyCode::Backspace));
    a.update(key(KeyCode::Enter));
    assert_eq!(a.context(), Context::List);
    assert_eq!(list_state(&a).query.text(), "gitop");
    a.update(ch('/'));
    a.update(key(KeyCode::Esc));
    assert_eq!(list_state(&a).query.text(), "");
    assert_eq!(visible_ids(&a).len(), 4);
    // Case is ignored: "kubectl delete pod" is in deleted-pod-returns' prompt.
    a.update(ch('/'));
    typed(&mut a, "KUBECTL DELETE POD");
    assert!(visible_ids(&a).contains(&"deleted-pod-returns".to_string()));
    let text = screen_text(&render(&a, 80, 24));
    assert!(text.contains("/ KUBECTL DELETE POD"), "{text}");
    assert!(
        text.contains("match"),
        "the last column says where it matched: {text}"
    );
    // Readline's moves and erasers: Ctrl-A/E, Alt-B/F, Ctrl-W, Ctrl-U.
    let ctrl = |c| kubedrill::tui::Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
    let alt = |c| kubedrill::tui::Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT));
    a.update(alt('b'));
    a.update(alt('b'));
    a.update(ctrl('w'));
    assert_eq!(
        list_state(&a).query.text(),
        "DELETE POD",
        "Ctrl-W before the cursor"
    );
    a.update(ctrl('e'));
    a.update(ctrl('w'));
    assert_eq!(list_state(&a).query.text(), "DELETE ");
    a.update(ctrl('a'));
    typed(&mut a, "kubectl ");
    a.update(alt('f'));
    typed(&mut a, "d");
    assert_eq!(list_state(&a).query.text(), "kubectl DELETEd ");
    a.update(ctrl('e'));
    a.update(ctrl('u'));
    assert_eq!(list_state(&a).query.text(), "");
    assert_eq!(a.context(), Context::Search, "still typing");
    assert_eq!(visible_ids(&a).len(), 4);
}

/// Nothing matches: the list says Esc clears the search and filters, and it does; only
/// the next Esc leaves the list.
#[test]
fn esc_on_a_filtered_list_clears_before_it_leaves() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    let all = visible_ids(&a).len();
    a.update(ch('/'));
    typed(&mut a, "zzz");
    a.update(key(KeyCode::Enter));
    a.update(ch('l'));
    assert!(visible_ids(&a).is_empty());
    let text = screen_text(&render(&a, 80, 24));
    assert!(
        text.contains("Esc clears the search and the filters"),
        "{text}"
    );
    a.update(key(KeyCode::Esc));
    assert!(matches!(a.screen(), Screen::List(_)));
    assert_eq!(visible_ids(&a).len(), all);
    assert_eq!(list_state(&a).level, None);
    a.update(key(KeyCode::Esc));
    assert!(matches!(a.screen(), Screen::Home(_)));
}

#[test]
fn filters_and_sort() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(ch('l'));
    assert_eq!(list_state(&a).level, Some(Level::Junior));
    assert_eq!(visible_ids(&a), ["spec-vs-status"]);
    a.update(ch('l'));
    assert_eq!(
        visible_ids(&a),
        ["deleted-pod-returns", "create-replace-apply"]
    );
    a.update(ch('l'));
    a.update(ch('l'));
    assert!(visible_ids(&a).is_empty(), "no principal question");
    a.update(ch('l'));
    assert_eq!(list_state(&a).level, None);
    a.update(ch('i'));
    assert_eq!(list_state(&a).importance, Some(Importance::MustKnow));
    assert_eq!(visible_ids(&a), ["spec-vs-status", "deleted-pod-returns"]);
    a.update(ch('i'));
    a.update(ch('i'));
    a.update(ch('i'));
    assert_eq!(list_state(&a).importance, None);
    a.update(ch('G'));
    assert_eq!(list_state(&a).selected, 3);
    a.update(ch('s'));
    let ids = visible_ids(&a);
    let freqs: Vec<Option<u8>> = ids
        .iter()
        .map(|id| a.deck.question(id).unwrap().frequency)
        .collect();
    assert!(
        freqs.iter().all(Option::is_some),
        "the seed questions are measured"
    );
    assert!(freqs.windows(2).all(|w| w[0] >= w[1]), "{freqs:?}");
    // The selection follows its question through the re-sort.
    let sel = list_state(&a)
        .selected_question(&a.deck)
        .unwrap()
        .id
        .clone();
    assert_eq!(sel, "replica-count-fight");
}

#[test]
fn back_keeps_the_list_selection() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(ch('j'));
    a.update(ch('j'));
    a.update(key(KeyCode::Enter));
    assert_eq!(card_state(&a).id, "create-replace-apply");
    a.update(ch('q'));
    assert_eq!(list_state(&a).selected, 2);
    a.update(key(KeyCode::Esc));
    assert!(matches!(a.screen(), Screen::Home(_)));
    assert!(!a.should_quit());
    a.update(ch('q'));
    assert!(a.should_quit());
}

#[test]
fn ctrl_c_quits_from_anywhere_even_while_searching() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(ch('/'));
    a.update(ctrl('c'));
    assert!(a.should_quit());
}

#[test]
fn help_overlay_opens_and_closes_and_swallows_keys() {
    let mut a = app(80, 24);
    a.update(ch('?'));
    assert!(a.help);
    a.update(key(KeyCode::Enter));
    assert!(
        matches!(a.screen(), Screen::Home(_)),
        "keys do not reach the screen"
    );
    a.update(ch('q'));
    assert!(!a.help);
    assert!(!a.should_quit());
}

#[test]
fn settings_change_level_theme_and_mouse() {
    let mut a = app(80, 24);
    a.update(ch('o'));
    a.update(ch('l'));
    assert_eq!(a.settings.level, Level::Senior);
    a.update(ch('j'));
    a.update(key(KeyCode::Enter));
    assert_eq!(a.settings.theme, kubedrill::tui::ThemeName::Mono);
    a.update(ch('j'));
    a.update(ch(' '));
    assert!(a.settings.mouse);
    a.update(ch('q'));
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    assert_eq!(
        card_state(&a).level,
        Level::Senior,
        "cards start at the target level"
    );
}

#[test]
fn missing_sections_say_so() {
    let mut l = loaded();
    l.deck.questions[0].analogy = None;
    let mut a = app_with(l, Default::default(), 80, 24);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('8'));
    assert_eq!(a.status.as_deref(), Some("this question has no analogy"));
    a.update(ch('a'));
    a.update(ch(' '));
    assert_eq!(a.status.as_deref(), Some("everything is shown"));
}

#[test]
fn keymap_ignores_shift_on_characters_and_has_no_f_keys() {
    let shifted = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
    assert_eq!(
        keymap::lookup(Context::List, &shifted),
        Some(Action::Bottom)
    );
    let q = KeyEvent::new_with_kind(KeyCode::Char('?'), KeyModifiers::SHIFT, KeyEventKind::Press);
    assert_eq!(keymap::lookup(Context::Card, &q), Some(Action::Help));
    for b in keymap::KEYMAP {
        assert!(!matches!(b.key.code, KeyCode::F(_)), "{b:?}");
        assert!(!matches!(b.key.code, KeyCode::BackTab), "{b:?}");
    }
    // Every context's help lists what dispatch uses.
    let rows = keymap::help_rows(Context::Card);
    assert!(
        rows.iter()
            .any(|(k, d)| k == "1-9" && *d == "jump to a section")
    );
}

#[test]
fn mouse_wheel_scrolls_only_when_enabled() {
    use kubedrill::tui::{Msg, Settings};
    use ratatui::crossterm::event::{MouseEvent, MouseEventKind};
    let wheel = |kind| {
        Msg::Mouse(MouseEvent {
            kind,
            column: 10,
            row: 10,
            modifiers: KeyModifiers::NONE,
        })
    };
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(wheel(MouseEventKind::ScrollDown));
    assert_eq!(list_state(&a).selected, 0, "mouse is off by default");
    let mut a = app_with(
        loaded(),
        Settings {
            mouse: true,
            ..Settings::default()
        },
        80,
        24,
    );
    a.update(key(KeyCode::Enter));
    a.update(wheel(MouseEventKind::ScrollDown));
    a.update(wheel(MouseEventKind::ScrollDown));
    a.update(wheel(MouseEventKind::ScrollUp));
    assert_eq!(list_state(&a).selected, 1);
}

/// Long key lists in the help keep a space before what the keys do.
#[test]
fn help_never_runs_keys_into_their_description() {
    let mut a = app(120, 40);
    a.update(ch('o'));
    a.update(ch('?'));
    let text = screen_text(&render(&a, 120, 40));
    for line in text.lines().filter(|l| l.contains("next value")) {
        let before = &line[..line.find("next value").unwrap()];
        assert!(before.ends_with(' '), "{line}");
    }
    assert!(text.contains("next value"), "{text}");
}

/// In a topic with no measured figures, `s` orders by importance and the list shows no
/// percentage at all.
#[test]
fn sorting_unmeasured_questions_goes_by_importance_with_no_percentages() {
    let mut a = app(120, 40);
    a.update(ch('j'));
    a.update(key(KeyCode::Enter));
    a.update(ch('s'));
    let ids = visible_ids(&a);
    assert!(!ids.is_empty());
    let qs: Vec<_> = ids.iter().map(|id| a.deck.question(id).unwrap()).collect();
    assert!(qs.iter().all(|q| q.frequency.is_none()));
    assert!(
        qs.windows(2).all(|w| w[0].importance <= w[1].importance),
        "{:?}",
        qs.iter().map(|q| q.importance).collect::<Vec<_>>()
    );
    let text = screen_text(&render(&a, 120, 40));
    assert!(!text.contains('%'), "{text}");
}

/// Every config.toml problem can be read in the app: the banner shows two and says how
/// many more there are, and `?` lists them all.
#[test]
fn every_config_problem_can_be_read_in_the_app() {
    let mut a = common::app(100, 30);
    a.config_warnings = (1..=4)
        .map(|i| format!("config.toml:{i}:1: problem number {i}"))
        .collect();
    let t = common::screen_text(&common::render(&a, 100, 30));
    assert!(
        t.contains("problem number 2") && !t.contains("problem number 3"),
        "{t}"
    );
    assert!(
        t.contains("2 more problem(s) with config.toml: `?` lists them all"),
        "{t}"
    );
    a.update(kubedrill::tui::Msg::Key(
        ratatui::crossterm::event::KeyEvent::new(
            ratatui::crossterm::event::KeyCode::Char('?'),
            ratatui::crossterm::event::KeyModifiers::NONE,
        ),
    ));
    let t = common::screen_text(&common::render(&a, 100, 30));
    for i in 1..=4 {
        assert!(t.contains(&format!("problem number {i}")), "{t}");
    }
}

/// `g` and `G` go to the first and last row of every list, the topics and the settings
/// too.
#[test]
fn g_and_shift_g_jump_to_the_ends_of_the_topics() {
    let mut a = app(100, 30);
    let topics = loaded().deck.topics.len();
    a.update(ch('G'));
    a.update(key(KeyCode::Enter));
    assert_eq!(
        list_state(&a).topic,
        Some(loaded().deck.topics[topics - 1].id.to_string()),
        "G then Enter opens the last topic"
    );
    a.update(key(KeyCode::Esc));
    a.update(ch('g'));
    a.update(key(KeyCode::Enter));
    assert_eq!(
        list_state(&a).topic,
        Some(loaded().deck.topics[0].id.to_string())
    );
}
