//! Shared fixture for the TUI tests: the shipped deck, an app, a TestBackend terminal.
#![allow(dead_code)]

use kubedrill::content::{self, Loaded};
use kubedrill::tui::{App, Msg, Settings};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub fn loaded() -> Loaded {
    content::load(
        content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    )
}

pub fn app(w: u16, h: u16) -> App {
    app_with(loaded(), Settings::default(), w, h)
}

pub fn app_with(loaded: Loaded, settings: Settings, w: u16, h: u16) -> App {
    let mut app = App::new(loaded, settings);
    app.update(Msg::Resize(w, h));
    app
}

pub fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn ch(c: char) -> Msg {
    key(KeyCode::Char(c))
}

pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Sends each character of `keys` as a key press.
pub fn typed(app: &mut App, keys: &str) {
    for c in keys.chars() {
        app.update(ch(c));
    }
}

pub fn terminal(w: u16, h: u16) -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(w, h)).expect("test terminal")
}

/// Renders the app into a fresh terminal of that size.
pub fn render(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = terminal(w, h);
    t.draw(|f| f.render_widget(app, f.area())).expect("draw");
    t
}

/// The buffer as lines of text.
pub fn screen_text(t: &Terminal<TestBackend>) -> String {
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}
