//! The keymap as data: one static table of (context, key, action, description) drives
//! both dispatch and the `?` help overlay. Vim keys and arrows; no F-keys.
//!
//! This file holds the vocabulary ([`Context`], [`Action`], [`Key`], [`Binding`]); the rest
//! lives beside it:
//! - `defaults`: the default bindings, [`KEYMAP`];
//! - `map`: [`Keymap`], the bindings in use, and key lookup;
//! - `overrides`: `[keys]` in config.toml, action names ([`ACTION_NAMES`]) and key
//!   spellings ([`parse_key`]);
//! - `hints`: the status line's hints and the `?` help rows.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::line_edit::Edit;

mod defaults;
mod hints;
mod map;
mod overrides;

pub use defaults::KEYMAP;
pub use hints::{START_FINISH, help_rows};
pub use map::{Keymap, lookup};
pub use overrides::{ACTION_NAMES, MAX_KEYS_PER_ACTION, Override, parse_key};

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
    /// A question's live demo.
    Demo,
    /// Typing on the demo's `:` command line.
    Command,
    /// Editing a manifest in the demo.
    Editor,
    /// A study session (due cards or cram) on the card screen.
    Review,
    Stats,
    /// Choosing a mock interview's or a quiz's options.
    Setup,
    /// A mock question being asked or answered against the clock (and its follow-up).
    Interview,
    /// Typing notes during a mock question.
    Notes,
    /// Ticking what the answer covered.
    Rubric,
    /// Typing an answer in review, before the reveal.
    Answer,
    /// Ticking what a typed answer covered, after the reveal.
    Check,
    /// Readline editing, shared by every box that takes typed text (search, the demo's
    /// command line, notes, answers); looked up after the box's own keys.
    TextBox,
    /// Judging one's own follow-up answer against the model answer.
    Judge,
    /// The mock's scorecard.
    Scorecard,
    /// A quiz item.
    Quiz,
}

impl Context {
    /// Contexts where typed characters go into a [`crate::tui::line_edit::LineEdit`].
    pub fn is_text_box(self) -> bool {
        matches!(
            self,
            Context::Search | Context::Command | Context::Notes | Context::Answer
        )
    }

    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "everywhere",
            Context::Home => "topics",
            Context::List => "questions",
            Context::Search => "search",
            Context::Card => "card",
            Context::Settings => "settings",
            Context::Help => "help",
            Context::Demo => "demo",
            Context::Command => "demo command line",
            Context::Editor => "manifest editor",
            Context::Review => "review",
            Context::Stats => "stats",
            Context::Setup => "setup",
            Context::Interview => "mock interview",
            Context::Notes => "notes",
            Context::Rubric => "rubric",
            Context::Answer => "your answer",
            Context::Check => "checking your answer",
            Context::TextBox => "editing text",
            Context::Judge => "follow-up answer",
            Context::Scorecard => "scorecard",
            Context::Quiz => "quiz",
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
    /// Editing the text box in focus, as readline does.
    EditText(Edit),
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
    /// Card: open the question's demo; run its runnable code there.
    OpenDemo,
    RunCode,
    /// Demo: open the command line, and what it does while open.
    Command,
    CmdRun,
    CmdCancel,
    CmdComplete,
    HistPrev,
    HistNext,
    /// Demo: time.
    PlayPause,
    Step,
    Faster,
    Slower,
    /// Demo: manipulations, each run as a kubectl line or directive.
    DeletePod,
    ScaleUp,
    ScaleDown,
    NextController,
    TogglePause,
    ToggleCrash,
    ToggleTrigger,
    DropEvent,
    ForgeStatus,
    /// Demo: the challenges: pick one, reveal its hints one at a time.
    NextChallenge,
    PrevChallenge,
    Hint,
    /// Demo: back to where it started; the session as a replay script.
    Reset,
    ExportScript,
    /// Demo: the output pane across the whole screen, so kubectl's tables fit.
    WideOutput,
    /// Demo: the manifest editor.
    Edit,
    EditorSave,
    EditorClose,
    EditorNextFile,
    /// Grade the card showing: 1 Again, 2 Hard, 3 Good, 4 Easy.
    Grade(u8),
    Undo,
    Bury,
    /// Study due cards across all topics.
    ReviewDue,
    /// Study due cards of the selected topic.
    ReviewTopic,
    Stats,
    /// Stats: switch between progress and the mock and quiz history.
    StatsView,
    /// Practise the listed questions; the schedule is untouched.
    Cram,
    /// Practise the listed questions and let the grades move the schedule.
    CramReschedule,
    /// Home: set up a mock interview; a quiz.
    Mock,
    Quiz,
    /// Mock and quiz: go on (start the clock, finish the answer, confirm, next item).
    Advance,
    /// Mock: pause or resume the clock.
    PauseTimer,
    /// Mock: type notes; close them.
    Notes,
    NotesDone,
    /// Review: type an answer before the reveal; done typing (reveal); leave the box.
    TypeAnswer,
    AnswerDone,
    AnswerCancel,
    /// Review: the learner's answer against the key points and pitfalls; take the grade
    /// it suggests.
    TakeSuggested,
    /// Mock and quiz: end now and show the results.
    EndNow,
    /// Rubric: tick or untick the item under the cursor.
    Toggle,
    /// Follow-up verdict: 1 answered, 2 partly, 3 missed.
    Judge(u8),
    /// Quiz: choose option 1..=4.
    Choose(u8),
    /// Scorecard: write the Markdown report.
    WriteReport,
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
        let mut mods =
            ev.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
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
            KeyCode::Delete => "Del".into(),
            KeyCode::Tab => "Tab".into(),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("Ctrl-{base}")
        } else if self.mods.contains(KeyModifiers::ALT) {
            format!("Alt-{base}")
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
