//! Mouse, when switched on: clicks select topics, questions and card sections (a click on
//! the selected row opens it), the wheel scrolls; switched off, the mouse does nothing.

mod common;

use common::*;
use kubedrill::tui::app::Screen;
use kubedrill::tui::screens::card::Section;
use kubedrill::tui::{App, Msg, Settings};
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

fn mouse_app(on: bool) -> App {
    app_with(
        loaded(),
        Settings {
            mouse: on,
            ..Settings::default()
        },
        100,
        30,
    )
}

fn click(x: u16, y: u16) -> Msg {
    Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    })
}

fn wheel_down() -> Msg {
    Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::NONE,
    })
}

/// Where `needle` is drawn, as (x, y).
fn at(a: &App, needle: &str) -> (u16, u16) {
    let t = render(a, 100, 30);
    let text = screen_text(&t);
    for (y, line) in text.lines().enumerate() {
        if let Some(b) = line.find(needle) {
            return (line[..b].chars().count() as u16, y as u16);
        }
    }
    panic!("{needle} not drawn:\n{text}");
}

fn c_scroll(a: &App) -> usize {
    match a.screen() {
        Screen::Card(c) => c.scroll,
        other => panic!("not on the card: {other:?}"),
    }
}

#[test]
fn clicks_select_then_open_and_jump_to_sections() {
    let mut a = mouse_app(true);
    let (x, y) = at(&a, "Desired-State Reconciliation");
    // The only topic is selected already: one click opens it.
    a.update(click(x, y));
    assert!(matches!(a.screen(), Screen::List(_)));
    let (x, y) = at(&a, "create-replace-apply");
    a.update(click(x, y));
    match a.screen() {
        Screen::List(l) => assert_eq!(l.selected, 2),
        other => panic!("{other:?}"),
    }
    a.update(click(x, y));
    let Screen::Card(c) = a.screen() else {
        panic!("a second click opens the card")
    };
    assert_eq!(c.id, "create-replace-apply");
    assert!(!c.is_revealed(Section::Solid));
    // " sections 1 2 3 ..." on the card's bottom border: click the 3.
    let (x, y) = at(&a, "sections 1 2 3");
    a.update(click(x + "sections 1 2 ".len() as u16, y));
    let Screen::Card(c) = a.screen() else {
        panic!("still on the card")
    };
    assert!(c.is_revealed(Section::Solid));
    assert!(!c.is_revealed(Section::Basics));
    a.update(ch('a'));
    a.update(ch('g'));
    let before = c_scroll(&a);
    a.update(wheel_down());
    assert_eq!(c_scroll(&a), before + 1);
}

#[test]
fn with_the_mouse_off_clicks_do_nothing() {
    let mut a = mouse_app(false);
    let (x, y) = at(&a, "Desired-State Reconciliation");
    a.update(click(x, y));
    assert!(matches!(a.screen(), Screen::Home(_)));
    a.update(key(KeyCode::Enter));
    let (x, y) = at(&a, "create-replace-apply");
    a.update(click(x, y));
    match a.screen() {
        Screen::List(l) => assert_eq!(l.selected, 0),
        other => panic!("{other:?}"),
    }
}
