//! Text snapshots of every screen at 80x24 and 120x40, and style checks.

mod common;
mod history_support;

use common::*;
use kubedrill::tui::{App, Settings, ThemeName};
use ratatui::crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn snap(name: &str, build: impl Fn(u16, u16) -> App) {
    for (w, h) in SIZES {
        let app = build(w, h);
        let t = render(&app, w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), t.backend());
    }
}

fn card(w: u16, h: u16) -> App {
    let mut a = app(w, h);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a
}

#[test]
fn home() {
    snap("home", app);
}

#[test]
fn list() {
    snap("list", |w, h| {
        let mut a = app(w, h);
        a.update(key(KeyCode::Enter));
        a.update(ch('j'));
        a
    });
}

#[test]
fn card_prompt_only() {
    snap("card_prompt", card);
}

#[test]
fn card_fully_revealed() {
    snap("card_revealed", |w, h| {
        let mut a = card(w, h);
        a.update(ch('a'));
        a
    });
}

#[test]
fn card_revealed_scrolled_to_pitfalls() {
    snap("card_pitfalls", |w, h| {
        let mut a = card(w, h);
        a.update(ch('a'));
        a.update(ch('9'));
        a
    });
}

#[test]
fn help_overlay() {
    snap("help_card", |w, h| {
        let mut a = card(w, h);
        a.update(ch('?'));
        a
    });
}

#[test]
fn settings() {
    snap("settings", |w, h| {
        let mut a = app(w, h);
        a.update(ch('o'));
        a
    });
}

#[test]
fn too_small() {
    let a = app(59, 15);
    let t = render(&a, 59, 15);
    insta::assert_snapshot!("too_small_59x15", t.backend());
}

#[test]
fn broken_files_banner() {
    let mut l = loaded();
    l.broken_files = vec!["bad-level.toml".into(), "broken.toml".into()];
    let a = app_with(l, Settings::default(), 80, 24);
    let t = render(&a, 80, 24);
    let text = screen_text(&t);
    let first = text.lines().next().unwrap();
    assert!(first.contains("skipped 2 content file(s)"), "{first}");
    assert!(first.contains("bad-level.toml, broken.toml"), "{first}");
}

/// The row holding `needle`, as (y, x of the match).
fn find(t: &ratatui::Terminal<ratatui::backend::TestBackend>, needle: &str) -> (u16, u16) {
    let text = screen_text(t);
    for (y, line) in text.lines().enumerate() {
        if let Some(byte) = line.find(needle) {
            return (y as u16, line[..byte].chars().count() as u16);
        }
    }
    panic!("{needle} not on screen:\n{text}");
}

#[test]
fn selected_list_row_is_highlighted() {
    let mut a = app(80, 24);
    a.update(key(KeyCode::Enter));
    a.update(ch('j'));
    let t = render(&a, 80, 24);
    let buf = t.backend().buffer();
    let (y, x) = find(&t, "deleted-pod-returns");
    assert_eq!(buf[(x, y)].bg, Color::Cyan);
    let (y2, x2) = find(&t, "spec-vs-status");
    assert_ne!(buf[(x2, y2)].bg, Color::Cyan, "an unselected row is plain");

    let mut m = app_with(
        loaded(),
        Settings {
            theme: ThemeName::Mono,
            ..Settings::default()
        },
        80,
        24,
    );
    m.update(key(KeyCode::Enter));
    m.update(ch('j'));
    let t = render(&m, 80, 24);
    let buf = t.backend().buffer();
    let (y, x) = find(&t, "deleted-pod-returns");
    assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
    assert!(!buf[(x2, y2)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn mono_theme_uses_no_colours() {
    let settings = Settings {
        theme: ThemeName::Mono,
        ..Settings::default()
    };
    type Go = Box<dyn Fn(&mut App)>;
    let screens: Vec<Go> = vec![
        Box::new(|_| {}),
        Box::new(|a| a.update(key(KeyCode::Enter))),
        Box::new(|a| {
            a.update(key(KeyCode::Enter));
            a.update(key(KeyCode::Enter));
            a.update(ch('a'));
        }),
        Box::new(|a| {
            a.update(key(KeyCode::Enter));
            a.update(key(KeyCode::Enter));
            a.update(ch('a'));
            a.update(ch('5'));
        }),
        Box::new(|a| a.update(ch('?'))),
        Box::new(|a| a.update(ch('o'))),
    ];
    for (i, go) in screens.iter().enumerate() {
        let mut l = loaded();
        l.broken_files = vec!["x.toml".into()];
        let mut a = app_with(l, settings, 120, 40);
        go(&mut a);
        let t = render(&a, 120, 40);
        for cell in t.backend().buffer().content() {
            assert_eq!(
                cell.fg,
                Color::Reset,
                "screen {i}: fg colour on {:?}",
                cell.symbol()
            );
            assert_eq!(
                cell.bg,
                Color::Reset,
                "screen {i}: bg colour on {:?}",
                cell.symbol()
            );
        }
    }
}

#[test]
fn help_goes_two_columns_when_short_of_rows_and_scrolls_when_still_short() {
    let mut l = loaded();
    l.broken_files = vec!["broken.toml".into()];
    let mut a = app_with(l, Settings::default(), 120, 18);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('?'));
    let t = render(&a, 120, 18);
    insta::assert_snapshot!("help_card_two_columns_120x18", t.backend());
    let text = screen_text(&t);
    assert!(text.contains("o               settings"), "{text}");
    assert!(
        text.contains("]               deeper: higher level"),
        "{text}"
    );

    // 60x16: one column, scrolled with j, the screen behind untouched.
    let mut a = app(60, 16);
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Enter));
    a.update(ch('?'));
    let before = screen_text(&render(&a, 60, 16));
    assert!(before.contains("j k scroll (0/"), "{before}");
    assert!(!before.contains("o               settings"), "{before}");
    for _ in 0..30 {
        a.update(ch('j'));
    }
    let after = render(&a, 60, 16);
    insta::assert_snapshot!("help_card_scrolled_60x16", after.backend());
    assert!(screen_text(&after).contains("o               settings"));
    assert!(matches!(a.screen(), kubedrill::tui::app::Screen::Card(c) if c.scroll == 0));
    a.update(ch('q'));
    assert!(!a.help);
    assert_eq!(a.help_scroll, 0);
}

/// 2024-10-04 12:00 UTC.
const NOW: i64 = 20_000 * kubedrill::study::time::DAY_MS + kubedrill::study::time::DAY_MS / 2;

/// The stats screen's progress page (or, with `history`, its history page) over a store
/// holding `seed`'s sessions.
fn stats_page(
    w: u16,
    h: u16,
    seed: bool,
    history: bool,
) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    use kubedrill::study::{Progress, Store, StudyConfig};
    let tmp = tempfile::tempdir().expect("tmp");
    let opened = Store::open_dir(tmp.path(), NOW);
    let mut p = Progress::new(opened.store, StudyConfig::default()).expect("progress");
    let loaded = loaded();
    if seed {
        history_support::seed_history(&mut p, &loaded.deck, NOW);
    }
    let mut a = App::new(loaded, Settings::default()).with_progress(p, vec![]);
    a.update(kubedrill::tui::Msg::Resize(w, h));
    a.now = NOW;
    a.update(ch('s'));
    if history {
        a.update(key(KeyCode::Tab));
    }
    render(&a, w, h)
}

fn stats_history(w: u16, h: u16, seed: bool) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    stats_page(w, h, seed, true)
}

#[test]
fn stats_progress_page() {
    for (w, h) in SIZES {
        let t = stats_page(w, h, true, false);
        insta::assert_snapshot!(format!("stats_progress_{w}x{h}"), t.backend());
    }
}

/// `/` on the topics screen: every topic's questions that match, and where.
#[test]
fn search_all_topics() {
    snap("search_all", |w, h| {
        let mut a = app(w, h);
        a.update(ch('/'));
        typed(&mut a, "finalizer");
        a
    });
}

#[test]
fn stats_history_page() {
    for (w, h) in SIZES {
        let t = stats_history(w, h, true);
        insta::assert_snapshot!(format!("stats_history_{w}x{h}"), t.backend());
    }
}

#[test]
fn stats_history_page_before_any_mock_or_quiz() {
    let t = stats_history(80, 24, false);
    insta::assert_snapshot!("stats_history_empty_80x24", t.backend());
}

#[test]
fn the_view_key_switches_between_progress_and_history() {
    use kubedrill::study::{Progress, Store, StudyConfig};
    let p = Progress::new(
        Store::in_memory("test").expect("store"),
        StudyConfig::default(),
    )
    .expect("progress");
    let mut a = App::new(loaded(), Settings::default()).with_progress(p, vec![]);
    a.update(kubedrill::tui::Msg::Resize(80, 24));
    a.update(ch('s'));
    let progress = screen_text(&render(&a, 80, 24));
    assert!(progress.contains("mastery by level"), "{progress}");
    assert!(progress.contains("Tab progress/history"), "{progress}");
    a.update(ch('v'));
    let history = screen_text(&render(&a, 80, 24));
    assert!(history.contains("quiz percent right"), "{history}");
    assert!(!history.contains("mastery by level"), "{history}");
    a.update(key(KeyCode::Tab));
    assert!(screen_text(&render(&a, 80, 24)).contains("mastery by level"));
}

#[test]
fn the_history_page_draws_at_the_smallest_and_a_large_size() {
    for (w, h) in [(60, 16), (200, 60)] {
        let text = screen_text(&stats_history(w, h, true));
        assert!(text.contains("mock overall score"), "{w}x{h}\n{text}");
        // The newest mock's date and score, whatever the width.
        assert!(text.contains("2024-10-03"), "{w}x{h}\n{text}");
        assert!(text.contains("2/3   100"), "{w}x{h}\n{text}");
    }
}

/// Reviewing with a typed answer: the box under the card, then the checklist.
#[test]
fn review_typed_answer() {
    let build = |w, h, reveal: bool| {
        let tmp = tempfile::tempdir().expect("tmp");
        let progress = kubedrill::study::Progress::new(
            kubedrill::study::Store::open_dir(tmp.path(), 0).store,
            Default::default(),
        )
        .expect("progress");
        let mut a = app(w, h).with_progress(progress, vec![]);
        a.now = 20_000 * kubedrill::study::time::DAY_MS;
        a.update(ch('r'));
        a.update(ch('t'));
        typed(
            &mut a,
            "The ReplicaSet controller sees fewer pods than spec.replicas",
        );
        if reveal {
            a.update(key(KeyCode::Enter));
            a.update(ch(' '));
            a.update(ch('j'));
        }
        a
    };
    snap("review_answer_box", |w, h| build(w, h, false));
    snap("review_answer_check", |w, h| build(w, h, true));
}
