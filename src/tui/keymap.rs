//! The keymap as data: one static table of (context, key, action, description) drives
//! both dispatch and the `?` help overlay. Vim keys and arrows; no F-keys.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where a binding applies. `Global` applies everywhere except while typing a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Global,
    Home,
    List,
    Search,
    Card,
    Settings,
    /// The help overlay itself.
    Help,
    /// A study session (due cards or cram) on the card screen.
    Review,
    Stats,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "everywhere",
            Context::Home => "topics",
            Context::List => "questions",
            Context::Search => "search",
            Context::Card => "card",
            Context::Settings => "settings",
            Context::Help => "help",
            Context::Review => "review",
            Context::Stats => "stats",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Back,
    Help,
    Settings,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Open,
    Search,
    SearchAccept,
    SearchCancel,
    SearchDelete,
    CycleLevel,
    CycleImportance,
    ToggleSort,
    Reveal,
    RevealAll,
    /// Jump to card section 1..=9.
    Jump(u8),
    PrevLevel,
    NextLevel,
    PrevValue,
    NextValue,
    /// Grade the card showing: 1 Again, 2 Hard, 3 Good, 4 Easy.
    Grade(u8),
    Undo,
    Bury,
    /// Study due cards across all topics.
    ReviewDue,
    /// Study due cards of the selected topic.
    ReviewTopic,
    Stats,
    /// Practise the listed questions; the schedule is untouched.
    Cram,
    /// Practise the listed questions and let the grades move the schedule.
    CramReschedule,
}

/// A key with its modifiers. For characters SHIFT is ignored (`G`, `?` arrive with it on
/// some terminals and without on others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl Key {
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let mut mods = ev.modifiers;
        if matches!(ev.code, KeyCode::Char(_)) {
            mods.remove(KeyModifiers::SHIFT);
        }
        self.code == ev.code && self.mods == mods
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Up => "Up".into(),
            KeyCode::Down => "Down".into(),
            KeyCode::Left => "Left".into(),
            KeyCode::Right => "Right".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Backspace => "Backspace".into(),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("Ctrl-{base}")
        } else {
            base
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub ctx: Context,
    pub key: Key,
    pub action: Action,
    pub desc: &'static str,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

const fn code(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}

const fn b(ctx: Context, key: Key, action: Action, desc: &'static str) -> Binding {
    Binding {
        ctx,
        key,
        action,
        desc,
    }
}

use Action as A;
use Context as C;

pub static KEYMAP: &[Binding] = &[
    b(C::Global, ctrl('c'), A::Quit, "quit"),
    b(
        C::Global,
        ch('q'),
        A::Back,
        "back (quit on the topics screen)",
    ),
    b(
        C::Global,
        code(KeyCode::Esc),
        A::Back,
        "back (quit on the topics screen)",
    ),
    b(C::Global, ch('?'), A::Help, "show or hide this help"),
    b(C::Global, ch('o'), A::Settings, "settings"),
    // Topics
    b(C::Home, ch('j'), A::Down, "next topic"),
    b(C::Home, code(KeyCode::Down), A::Down, "next topic"),
    b(C::Home, ch('k'), A::Up, "previous topic"),
    b(C::Home, code(KeyCode::Up), A::Up, "previous topic"),
    b(
        C::Home,
        code(KeyCode::Enter),
        A::Open,
        "open the topic's questions",
    ),
    b(C::Home, ch('l'), A::Open, "open the topic's questions"),
    b(
        C::Home,
        code(KeyCode::Right),
        A::Open,
        "open the topic's questions",
    ),
    b(
        C::Home,
        ch('r'),
        A::ReviewDue,
        "review due cards, all topics",
    ),
    b(
        C::Home,
        ch('t'),
        A::ReviewTopic,
        "review due cards of this topic",
    ),
    b(C::Home, ch('s'), A::Stats, "progress statistics"),
    // Question list
    b(C::List, ch('j'), A::Down, "next question"),
    b(C::List, code(KeyCode::Down), A::Down, "next question"),
    b(C::List, ch('k'), A::Up, "previous question"),
    b(C::List, code(KeyCode::Up), A::Up, "previous question"),
    b(C::List, code(KeyCode::PageDown), A::PageDown, "page down"),
    b(C::List, ctrl('d'), A::PageDown, "page down"),
    b(C::List, code(KeyCode::PageUp), A::PageUp, "page up"),
    b(C::List, ctrl('u'), A::PageUp, "page up"),
    b(C::List, ch('g'), A::Top, "first question"),
    b(C::List, code(KeyCode::Home), A::Top, "first question"),
    b(C::List, ch('G'), A::Bottom, "last question"),
    b(C::List, code(KeyCode::End), A::Bottom, "last question"),
    b(C::List, code(KeyCode::Enter), A::Open, "open the question"),
    b(C::List, code(KeyCode::Right), A::Open, "open the question"),
    b(C::List, ch('/'), A::Search, "search id and prompt"),
    b(C::List, ch('l'), A::CycleLevel, "cycle the level filter"),
    b(
        C::List,
        ch('i'),
        A::CycleImportance,
        "cycle the importance filter",
    ),
    b(C::List, ch('s'), A::ToggleSort, "sort by frequency on/off"),
    b(C::List, ch('c'), A::Cram, "cram the listed questions"),
    b(
        C::List,
        ch('C'),
        A::CramReschedule,
        "cram the listed questions, moving their schedule",
    ),
    // Typing a search
    b(
        C::Search,
        code(KeyCode::Enter),
        A::SearchAccept,
        "keep the search",
    ),
    b(
        C::Search,
        code(KeyCode::Esc),
        A::SearchCancel,
        "clear the search",
    ),
    b(
        C::Search,
        code(KeyCode::Backspace),
        A::SearchDelete,
        "delete a character",
    ),
    b(C::Search, code(KeyCode::Down), A::Down, "next match"),
    b(C::Search, code(KeyCode::Up), A::Up, "previous match"),
    b(C::Search, ctrl('c'), A::Quit, "quit"),
    // Card
    b(C::Card, ch(' '), A::Reveal, "reveal the next section"),
    b(
        C::Card,
        code(KeyCode::Enter),
        A::Reveal,
        "reveal the next section",
    ),
    b(C::Card, ch('a'), A::RevealAll, "reveal everything"),
    b(C::Card, ch('1'), A::Jump(1), "jump to a section"),
    b(C::Card, ch('2'), A::Jump(2), "jump to a section"),
    b(C::Card, ch('3'), A::Jump(3), "jump to a section"),
    b(C::Card, ch('4'), A::Jump(4), "jump to a section"),
    b(C::Card, ch('5'), A::Jump(5), "jump to a section"),
    b(C::Card, ch('6'), A::Jump(6), "jump to a section"),
    b(C::Card, ch('7'), A::Jump(7), "jump to a section"),
    b(C::Card, ch('8'), A::Jump(8), "jump to a section"),
    b(C::Card, ch('9'), A::Jump(9), "jump to a section"),
    b(C::Card, ch('j'), A::Down, "scroll down"),
    b(C::Card, code(KeyCode::Down), A::Down, "scroll down"),
    b(C::Card, ch('k'), A::Up, "scroll up"),
    b(C::Card, code(KeyCode::Up), A::Up, "scroll up"),
    b(C::Card, code(KeyCode::PageDown), A::PageDown, "page down"),
    b(C::Card, ctrl('d'), A::PageDown, "page down"),
    b(C::Card, code(KeyCode::PageUp), A::PageUp, "page up"),
    b(C::Card, ctrl('u'), A::PageUp, "page up"),
    b(C::Card, ch('g'), A::Top, "top"),
    b(C::Card, ch('G'), A::Bottom, "bottom"),
    b(C::Card, ch('['), A::PrevLevel, "deeper: lower level"),
    b(C::Card, ch(']'), A::NextLevel, "deeper: higher level"),
    // Settings
    b(C::Settings, ch('j'), A::Down, "next setting"),
    b(C::Settings, code(KeyCode::Down), A::Down, "next setting"),
    b(C::Settings, ch('k'), A::Up, "previous setting"),
    b(C::Settings, code(KeyCode::Up), A::Up, "previous setting"),
    b(C::Settings, ch('h'), A::PrevValue, "previous value"),
    b(
        C::Settings,
        code(KeyCode::Left),
        A::PrevValue,
        "previous value",
    ),
    b(C::Settings, ch('l'), A::NextValue, "next value"),
    b(
        C::Settings,
        code(KeyCode::Right),
        A::NextValue,
        "next value",
    ),
    b(
        C::Settings,
        code(KeyCode::Enter),
        A::NextValue,
        "next value",
    ),
    b(C::Settings, ch(' '), A::NextValue, "next value"),
    // Study session
    b(
        C::Review,
        ch(' '),
        A::Reveal,
        "show the answer, then grade Good",
    ),
    b(
        C::Review,
        code(KeyCode::Enter),
        A::Reveal,
        "show the answer, then grade Good",
    ),
    b(
        C::Review,
        ch('1'),
        A::Grade(1),
        "grade: 1 Again 2 Hard 3 Good 4 Easy",
    ),
    b(
        C::Review,
        ch('2'),
        A::Grade(2),
        "grade: 1 Again 2 Hard 3 Good 4 Easy",
    ),
    b(
        C::Review,
        ch('3'),
        A::Grade(3),
        "grade: 1 Again 2 Hard 3 Good 4 Easy",
    ),
    b(
        C::Review,
        ch('4'),
        A::Grade(4),
        "grade: 1 Again 2 Hard 3 Good 4 Easy",
    ),
    b(C::Review, ch('u'), A::Undo, "undo the last grade"),
    b(C::Review, ch('b'), A::Bury, "bury the card until tomorrow"),
    b(C::Review, ch('a'), A::RevealAll, "reveal everything"),
    b(C::Review, ch('5'), A::Jump(5), "jump to section 5-9"),
    b(C::Review, ch('6'), A::Jump(6), "jump to section 5-9"),
    b(C::Review, ch('7'), A::Jump(7), "jump to section 5-9"),
    b(C::Review, ch('8'), A::Jump(8), "jump to section 5-9"),
    b(C::Review, ch('9'), A::Jump(9), "jump to section 5-9"),
    b(C::Review, ch('j'), A::Down, "scroll down"),
    b(C::Review, code(KeyCode::Down), A::Down, "scroll down"),
    b(C::Review, ch('k'), A::Up, "scroll up"),
    b(C::Review, code(KeyCode::Up), A::Up, "scroll up"),
    b(C::Review, code(KeyCode::PageDown), A::PageDown, "page down"),
    b(C::Review, code(KeyCode::PageUp), A::PageUp, "page up"),
    b(C::Review, ch('['), A::PrevLevel, "deeper: lower level"),
    b(C::Review, ch(']'), A::NextLevel, "deeper: higher level"),
    // The help overlay
    b(C::Help, ch('j'), A::Down, "scroll help down"),
    b(C::Help, code(KeyCode::Down), A::Down, "scroll help down"),
    b(C::Help, ch('k'), A::Up, "scroll help up"),
    b(C::Help, code(KeyCode::Up), A::Up, "scroll help up"),
    b(C::Help, ch('?'), A::Back, "close help"),
    b(C::Help, ch('q'), A::Back, "close help"),
    b(C::Help, code(KeyCode::Esc), A::Back, "close help"),
    b(C::Help, ctrl('c'), A::Quit, "quit"),
];

/// The action for a key in a context: the context's own bindings first, then the global
/// ones (not while typing a search or in the help overlay, which have their own rows).
pub fn lookup(ctx: Context, ev: &KeyEvent) -> Option<Action> {
    let find = |c: Context| {
        KEYMAP
            .iter()
            .find(|bd| bd.ctx == c && bd.key.matches(ev))
            .map(|bd| bd.action)
    };
    find(ctx).or_else(|| {
        if matches!(ctx, Context::Search | Context::Help) {
            None
        } else {
            find(Context::Global)
        }
    })
}

/// Help rows for a context: keys with the same description joined, in table order.
pub fn help_rows(ctx: Context) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(Vec<Key>, &'static str)> = Vec::new();
    for bd in KEYMAP.iter().filter(|bd| bd.ctx == ctx) {
        match rows.iter_mut().find(|(_, d)| *d == bd.desc) {
            Some((keys, _)) => keys.push(bd.key),
            None => rows.push((vec![bd.key], bd.desc)),
        }
    }
    rows.into_iter()
        .map(|(keys, desc)| (keys_label(&keys), desc))
        .collect()
}

fn keys_label(keys: &[Key]) -> String {
    let digits: Vec<char> = keys
        .iter()
        .filter_map(|k| match k.code {
            KeyCode::Char(c) if c.is_ascii_digit() && k.mods.is_empty() => Some(c),
            _ => None,
        })
        .collect();
    if digits.len() == keys.len() && digits.len() > 2 {
        return format!("{}-{}", digits[0], digits[digits.len() - 1]);
    }
    keys.iter().map(Key::label).collect::<Vec<_>>().join(" ")
}
