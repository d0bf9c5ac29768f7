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
    /// Judging one's own follow-up answer against the model answer.
    Judge,
    /// The mock's scorecard.
    Scorecard,
    /// A quiz item.
    Quiz,
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
            Context::Demo => "demo",
            Context::Command => "demo command line",
            Context::Editor => "manifest editor",
            Context::Review => "review",
            Context::Stats => "stats",
            Context::Setup => "setup",
            Context::Interview => "mock interview",
            Context::Notes => "notes",
            Context::Rubric => "rubric",
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
    /// Card: open the question's demo; run its runnable code there.
    OpenDemo,
    RunCode,
    /// Demo: open the command line, and what it does while open.
    Command,
    CmdRun,
    CmdCancel,
    CmdDelete,
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
    /// Mock: type notes; close them; delete a character.
    Notes,
    NotesDone,
    NotesDelete,
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
    b(C::Home, ch('m'), A::Mock, "mock interview"),
    b(C::Home, ch('z'), A::Quiz, "quiz"),
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
    b(
        C::Card,
        ch('d'),
        A::OpenDemo,
        "open the question's live demo",
    ),
    b(
        C::Card,
        ch('r'),
        A::RunCode,
        "run the runnable code in the demo",
    ),
    // Demo
    b(
        C::Demo,
        ch(':'),
        A::Command,
        "command line: kubectl or a directive",
    ),
    b(
        C::Demo,
        ch(' '),
        A::PlayPause,
        "play or pause simulated time",
    ),
    b(C::Demo, ch('.'), A::Step, "one simulated second (tick 1)"),
    b(C::Demo, ch('>'), A::Faster, "faster"),
    b(C::Demo, ch('<'), A::Slower, "slower"),
    b(C::Demo, ch('x'), A::DeletePod, "delete a pod"),
    b(C::Demo, ch('+'), A::ScaleUp, "scale up by one"),
    b(C::Demo, ch('='), A::ScaleUp, "scale up by one"),
    b(C::Demo, ch('-'), A::ScaleDown, "scale down by one"),
    b(
        C::Demo,
        ch('c'),
        A::NextController,
        "pick the controller the next keys address (every one the panel lists)",
    ),
    b(
        C::Demo,
        ch('z'),
        A::TogglePause,
        "pause or resume the controller",
    ),
    b(
        C::Demo,
        ch('C'),
        A::ToggleCrash,
        "crash or restart the controller",
    ),
    b(
        C::Demo,
        ch('t'),
        A::ToggleTrigger,
        "toggle level/edge triggering",
    ),
    b(
        C::Demo,
        ch('w'),
        A::DropEvent,
        "drop the controller's next watch event",
    ),
    b(
        C::Demo,
        ch('f'),
        A::ForgeStatus,
        "forge the Deployment's status",
    ),
    b(
        C::Demo,
        ch('n'),
        A::NextChallenge,
        "choose the next challenge",
    ),
    b(
        C::Demo,
        ch('N'),
        A::PrevChallenge,
        "choose the previous challenge",
    ),
    b(
        C::Demo,
        ch('h'),
        A::Hint,
        "show the chosen challenge's next hint",
    ),
    b(
        C::Demo,
        ch('R'),
        A::Reset,
        "reset the demo to its start (challenges met stay met)",
    ),
    b(
        C::Demo,
        ch('S'),
        A::ExportScript,
        "save this session as a script for a real cluster",
    ),
    b(C::Demo, ch('e'), A::Edit, "edit the manifest files"),
    b(
        C::Demo,
        ch('v'),
        A::WideOutput,
        "output across the whole screen, or back",
    ),
    b(C::Demo, ch('k'), A::Up, "scroll output up"),
    b(C::Demo, code(KeyCode::Up), A::Up, "scroll output up"),
    b(C::Demo, ch('j'), A::Down, "scroll output down"),
    b(C::Demo, code(KeyCode::Down), A::Down, "scroll output down"),
    b(C::Demo, code(KeyCode::PageUp), A::PageUp, "page output up"),
    b(C::Demo, ctrl('u'), A::PageUp, "page output up"),
    b(
        C::Demo,
        code(KeyCode::PageDown),
        A::PageDown,
        "page output down",
    ),
    b(C::Demo, ctrl('d'), A::PageDown, "page output down"),
    b(C::Demo, ch('g'), A::Top, "oldest output"),
    b(C::Demo, ch('G'), A::Bottom, "newest output"),
    // The demo's command line
    b(C::Command, code(KeyCode::Enter), A::CmdRun, "run the line"),
    b(
        C::Command,
        code(KeyCode::Esc),
        A::CmdCancel,
        "close the line",
    ),
    b(
        C::Command,
        code(KeyCode::Backspace),
        A::CmdDelete,
        "delete a character",
    ),
    b(
        C::Command,
        code(KeyCode::Tab),
        A::CmdComplete,
        "complete a command, resource, name or file",
    ),
    b(
        C::Command,
        code(KeyCode::Up),
        A::HistPrev,
        "previous line in history",
    ),
    b(
        C::Command,
        code(KeyCode::Down),
        A::HistNext,
        "next line in history",
    ),
    b(C::Command, ctrl('c'), A::Quit, "quit"),
    // The manifest editor
    b(
        C::Editor,
        code(KeyCode::Esc),
        A::EditorClose,
        "save and close",
    ),
    b(C::Editor, ctrl('s'), A::EditorSave, "save"),
    b(
        C::Editor,
        ctrl('n'),
        A::EditorNextFile,
        "save, edit the next file",
    ),
    b(C::Editor, ctrl('c'), A::Quit, "quit"),
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
    // Stats
    b(
        C::Stats,
        code(KeyCode::Tab),
        A::StatsView,
        "switch between progress and mock/quiz history",
    ),
    b(
        C::Stats,
        ch('v'),
        A::StatsView,
        "switch between progress and mock/quiz history",
    ),
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
    b(
        C::Review,
        ch('d'),
        A::OpenDemo,
        "open the card's live demo (Esc comes back here)",
    ),
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
    // Mock interview and quiz setup
    b(C::Setup, ch('j'), A::Down, "next option"),
    b(C::Setup, code(KeyCode::Down), A::Down, "next option"),
    b(C::Setup, ch('k'), A::Up, "previous option"),
    b(C::Setup, code(KeyCode::Up), A::Up, "previous option"),
    b(C::Setup, ch('h'), A::PrevValue, "previous value"),
    b(
        C::Setup,
        code(KeyCode::Left),
        A::PrevValue,
        "previous value",
    ),
    b(C::Setup, ch('l'), A::NextValue, "next value"),
    b(C::Setup, code(KeyCode::Right), A::NextValue, "next value"),
    b(C::Setup, ch(' '), A::NextValue, "next value"),
    b(C::Setup, code(KeyCode::Enter), A::Advance, "start"),
    // A mock question and its follow-up, against the clock
    b(
        C::Interview,
        code(KeyCode::Enter),
        A::Advance,
        "start answering; finish the answer",
    ),
    b(
        C::Interview,
        ch(' '),
        A::Advance,
        "start answering; finish the answer",
    ),
    b(
        C::Interview,
        ch('p'),
        A::PauseTimer,
        "pause or resume the clock",
    ),
    b(C::Interview, ch('n'), A::Notes, "type notes"),
    b(C::Interview, ch('E'), A::EndNow, "end the interview now"),
    // Notes
    b(
        C::Notes,
        code(KeyCode::Esc),
        A::NotesDone,
        "close the notes",
    ),
    b(
        C::Notes,
        code(KeyCode::Enter),
        A::NotesDone,
        "close the notes",
    ),
    b(
        C::Notes,
        code(KeyCode::Backspace),
        A::NotesDelete,
        "delete a character",
    ),
    b(C::Notes, ctrl('c'), A::Quit, "quit"),
    // Rubric
    b(C::Rubric, ch('j'), A::Down, "next item"),
    b(C::Rubric, code(KeyCode::Down), A::Down, "next item"),
    b(C::Rubric, ch('k'), A::Up, "previous item"),
    b(C::Rubric, code(KeyCode::Up), A::Up, "previous item"),
    b(C::Rubric, ch(' '), A::Toggle, "tick or untick the item"),
    b(C::Rubric, ch('x'), A::Toggle, "tick or untick the item"),
    b(
        C::Rubric,
        code(KeyCode::Enter),
        A::Advance,
        "score it and go on",
    ),
    b(
        C::Rubric,
        code(KeyCode::PageDown),
        A::PageDown,
        "scroll the model answers",
    ),
    b(
        C::Rubric,
        ctrl('d'),
        A::PageDown,
        "scroll the model answers",
    ),
    b(
        C::Rubric,
        code(KeyCode::PageUp),
        A::PageUp,
        "scroll the model answers back",
    ),
    b(
        C::Rubric,
        ctrl('u'),
        A::PageUp,
        "scroll the model answers back",
    ),
    b(C::Rubric, ch('n'), A::Notes, "type notes"),
    b(C::Rubric, ch('E'), A::EndNow, "end the interview now"),
    // Judging the follow-up
    b(C::Judge, ch('1'), A::Judge(1), "I answered it"),
    b(C::Judge, ch('2'), A::Judge(2), "I partly answered it"),
    b(C::Judge, ch('3'), A::Judge(3), "I missed it"),
    b(C::Judge, ch('E'), A::EndNow, "end the interview now"),
    // Scorecard
    b(
        C::Scorecard,
        ch('w'),
        A::WriteReport,
        "write the Markdown report",
    ),
    b(C::Scorecard, ch('j'), A::Down, "scroll down"),
    b(C::Scorecard, code(KeyCode::Down), A::Down, "scroll down"),
    b(C::Scorecard, ch('k'), A::Up, "scroll up"),
    b(C::Scorecard, code(KeyCode::Up), A::Up, "scroll up"),
    // Quiz
    b(C::Quiz, ch('1'), A::Choose(1), "choose option 1-4"),
    b(C::Quiz, ch('2'), A::Choose(2), "choose option 1-4"),
    b(C::Quiz, ch('3'), A::Choose(3), "choose option 1-4"),
    b(C::Quiz, ch('4'), A::Choose(4), "choose option 1-4"),
    b(C::Quiz, ch('j'), A::Down, "next option; scroll the results"),
    b(
        C::Quiz,
        code(KeyCode::Down),
        A::Down,
        "next option; scroll the results",
    ),
    b(C::Quiz, ch('k'), A::Up, "previous option; scroll back"),
    b(
        C::Quiz,
        code(KeyCode::Up),
        A::Up,
        "previous option; scroll back",
    ),
    b(
        C::Quiz,
        code(KeyCode::Enter),
        A::Advance,
        "choose the option; next item",
    ),
    b(C::Quiz, ch(' '), A::Advance, "choose the option; next item"),
    b(C::Quiz, ch('E'), A::EndNow, "end the quiz now"),
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

/// The action for a key in a context under the default keymap.
pub fn lookup(ctx: Context, ev: &KeyEvent) -> Option<Action> {
    lookup_in(KEYMAP, ctx, ev)
}

fn lookup_in(bindings: &[Binding], ctx: Context, ev: &KeyEvent) -> Option<Action> {
    let find = |c: Context| {
        bindings
            .iter()
            .find(|bd| bd.ctx == c && bd.key.matches(ev))
            .map(|bd| bd.action)
    };
    // The context's own bindings first, then the global ones (not while typing or in the
    // help overlay, which have their own rows).
    find(ctx).or_else(|| {
        if matches!(
            ctx,
            Context::Search | Context::Help | Context::Command | Context::Editor | Context::Notes
        ) {
            None
        } else {
            find(Context::Global)
        }
    })
}

/// Help rows for a context under the default keymap.
pub fn help_rows(ctx: Context) -> Vec<(String, &'static str)> {
    help_rows_in(KEYMAP, ctx)
}

/// Help rows: keys with the same description joined, in table order.
fn help_rows_in(bindings: &[Binding], ctx: Context) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(Vec<Key>, &'static str)> = Vec::new();
    for bd in bindings.iter().filter(|bd| bd.ctx == ctx) {
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

/// Action names as `[keys]` in config.toml spells them.
/// The Interview hint for the key that starts an answer and finishes it; the app says
/// which of the two it does at the moment in its place.
pub const START_FINISH: &str = "start/finish";

pub const ACTION_NAMES: &[(&str, Action)] = &[
    ("back", A::Back),
    ("help", A::Help),
    ("settings", A::Settings),
    ("up", A::Up),
    ("down", A::Down),
    ("page-up", A::PageUp),
    ("page-down", A::PageDown),
    ("top", A::Top),
    ("bottom", A::Bottom),
    ("open", A::Open),
    ("search", A::Search),
    ("cycle-level", A::CycleLevel),
    ("cycle-importance", A::CycleImportance),
    ("toggle-sort", A::ToggleSort),
    ("reveal", A::Reveal),
    ("reveal-all", A::RevealAll),
    ("prev-level", A::PrevLevel),
    ("next-level", A::NextLevel),
    ("prev-value", A::PrevValue),
    ("next-value", A::NextValue),
    ("open-demo", A::OpenDemo),
    ("run-code", A::RunCode),
    ("command", A::Command),
    ("play-pause", A::PlayPause),
    ("step", A::Step),
    ("faster", A::Faster),
    ("slower", A::Slower),
    ("delete-pod", A::DeletePod),
    ("scale-up", A::ScaleUp),
    ("scale-down", A::ScaleDown),
    ("next-controller", A::NextController),
    ("toggle-pause", A::TogglePause),
    ("toggle-crash", A::ToggleCrash),
    ("toggle-trigger", A::ToggleTrigger),
    ("drop-event", A::DropEvent),
    ("forge-status", A::ForgeStatus),
    ("wide-output", A::WideOutput),
    ("next-challenge", A::NextChallenge),
    ("prev-challenge", A::PrevChallenge),
    ("hint", A::Hint),
    ("reset", A::Reset),
    ("export-script", A::ExportScript),
    ("edit", A::Edit),
    ("grade-again", A::Grade(1)),
    ("grade-hard", A::Grade(2)),
    ("grade-good", A::Grade(3)),
    ("grade-easy", A::Grade(4)),
    ("undo", A::Undo),
    ("bury", A::Bury),
    ("review-due", A::ReviewDue),
    ("review-topic", A::ReviewTopic),
    ("stats", A::Stats),
    ("stats-view", A::StatsView),
    ("cram", A::Cram),
    ("cram-reschedule", A::CramReschedule),
    ("jump-1", A::Jump(1)),
    ("jump-2", A::Jump(2)),
    ("jump-3", A::Jump(3)),
    ("jump-4", A::Jump(4)),
    ("jump-5", A::Jump(5)),
    ("jump-6", A::Jump(6)),
    ("jump-7", A::Jump(7)),
    ("jump-8", A::Jump(8)),
    ("jump-9", A::Jump(9)),
    ("mock", A::Mock),
    ("quiz", A::Quiz),
    ("advance", A::Advance),
    ("pause-timer", A::PauseTimer),
    ("notes", A::Notes),
    ("end-now", A::EndNow),
    ("toggle", A::Toggle),
    ("judge-answered", A::Judge(1)),
    ("judge-partly", A::Judge(2)),
    ("judge-missed", A::Judge(3)),
    ("choose-1", A::Choose(1)),
    ("choose-2", A::Choose(2)),
    ("choose-3", A::Choose(3)),
    ("choose-4", A::Choose(4)),
    ("write-report", A::WriteReport),
];

/// Reads a key as config.toml writes it: `x`, `G`, `ctrl-d`, `enter`, `esc`, `space`,
/// `tab`, `backspace`, arrows (`up`), `pgup`, `pgdn`, `home`, `end`. No F-keys.
pub fn parse_key(s: &str) -> Option<Key> {
    let (mods, base) = match s.strip_prefix("ctrl-").or_else(|| s.strip_prefix("Ctrl-")) {
        Some(rest) => (KeyModifiers::CONTROL, rest),
        None => (KeyModifiers::NONE, s),
    };
    let mut chars = base.chars();
    let code = match (chars.next(), chars.next()) {
        (Some(c), None) => KeyCode::Char(c),
        _ => match base.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "space" => KeyCode::Char(' '),
            "tab" => KeyCode::Tab,
            "backspace" => KeyCode::Backspace,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            _ => return None,
        },
    };
    Some(Key { code, mods })
}

/// Keys one action may be given in config.toml.
pub const MAX_KEYS_PER_ACTION: usize = 16;

/// Problems in `[keys]`, the first [`super::config::MAX_PROBLEMS`] written out and the rest
/// only counted, so a table of 100,000 bad entries costs no more than a short one.
#[derive(Default)]
struct Problems {
    shown: Vec<String>,
    more: usize,
}

impl Problems {
    fn push(&mut self, message: impl FnOnce() -> String) {
        if self.shown.len() < super::config::MAX_PROBLEMS {
            self.shown.push(message());
        } else {
            self.more += 1;
        }
    }

    fn finish(mut self, file: &str) -> Vec<String> {
        if self.more > 0 {
            self.shown
                .push(format!("{file}: and {} more problems in [keys]", self.more));
        }
        self.shown
    }
}

/// A key override from config.toml: an action's new keys, and the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    pub action: String,
    pub keys: Vec<String>,
    pub line: usize,
}

/// The bindings in use: the defaults with the user's overrides applied. Dispatch and the
/// `?` help both read it, so they cannot drift apart.
#[derive(Debug, Clone)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: KEYMAP.to_vec(),
        }
    }
}

impl Keymap {
    /// Applies overrides: an action's keys are replaced in every context that binds it,
    /// and a key taken over leaves the action it had there. Ctrl-C always quits. Problems
    /// come back as messages naming `file` and the line.
    pub fn with_overrides(overrides: &[Override], file: &str) -> (Keymap, Vec<String>) {
        let mut km = Keymap::default();
        let mut problems = Problems::default();
        for o in overrides {
            let Some(action) = ACTION_NAMES
                .iter()
                .find(|(n, _)| *n == o.action)
                .map(|(_, a)| *a)
            else {
                problems.push(|| {
                    format!(
                        "{file}:{}: [keys] has no action `{}`; the actions are {}",
                        o.line,
                        o.action,
                        ACTION_NAMES
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
                continue;
            };
            if o.keys.len() > MAX_KEYS_PER_ACTION {
                problems.push(|| {
                    format!(
                        "{file}:{}: [keys] {} lists {} keys; an action takes at most {MAX_KEYS_PER_ACTION}",
                        o.line,
                        o.action,
                        o.keys.len()
                    )
                });
                continue;
            }
            let mut keys = Vec::new();
            for k in &o.keys {
                match parse_key(k) {
                    Some(key) if key == ctrl('c') => problems.push(|| {
                        format!(
                            "{file}:{}: Ctrl-C always quits and cannot be rebound",
                            o.line
                        )
                    }),
                    Some(key) => keys.push(key),
                    None => problems.push(|| {
                        format!(
                            "{file}:{}: `{k}` is not a key (examples: x, G, ctrl-d, enter, esc, space, up, pgdn)",
                            o.line
                        )
                    }),
                }
            }
            if keys.is_empty() {
                continue;
            }
            // One binding per context the action has, to copy its description from. Where
            // the learner types (search, command line, editor) keys stay as they are, so a
            // letter bound elsewhere can still be typed.
            let typing = |c: Context| matches!(c, C::Search | C::Command | C::Editor | C::Notes);
            let mut template: Vec<Binding> = Vec::new();
            for b in km
                .bindings
                .iter()
                .filter(|b| b.action == action && !typing(b.ctx))
            {
                if !template.iter().any(|t| t.ctx == b.ctx) {
                    template.push(*b);
                }
            }
            km.bindings.retain(|b| {
                typing(b.ctx)
                    || b.action != action
                        && !template
                            .iter()
                            .any(|t| t.ctx == b.ctx && keys.contains(&b.key) && b.action != A::Quit)
            });
            for t in template.iter().rev() {
                for key in keys.iter().rev() {
                    km.bindings.insert(0, Binding { key: *key, ..*t });
                }
            }
        }
        (km, problems.finish(file))
    }

    pub fn lookup(&self, ctx: Context, ev: &KeyEvent) -> Option<Action> {
        lookup_in(&self.bindings, ctx, ev)
    }

    pub fn help_rows(&self, ctx: Context) -> Vec<(String, &'static str)> {
        help_rows_in(&self.bindings, ctx)
    }

    /// The first key of each action in `ctx` (or globally), joined as the help joins
    /// them: "Space", "[ ]", "1-9". Empty when none of them has a key.
    pub fn keys_for(&self, ctx: Context, actions: &[Action]) -> String {
        let first = |a: &Action, c: Context| {
            self.bindings
                .iter()
                .find(|bd| bd.ctx == c && bd.action == *a)
                .map(|bd| bd.key)
        };
        let keys: Vec<Key> = actions
            .iter()
            .filter_map(|a| first(a, ctx).or_else(|| first(a, Context::Global)))
            .collect();
        keys_label(&keys)
    }

    /// The status line's hints for `ctx`, with the keys this keymap binds, so config.toml's
    /// overrides show there as they do in `?`. Hints whose actions lost every key are left
    /// out.
    pub fn hints(&self, ctx: Context) -> String {
        let Some((_, fixed, items)) = HINTS.iter().find(|(c, _, _)| *c == ctx) else {
            return String::new();
        };
        if !fixed.is_empty() {
            return (*fixed).to_string();
        }
        items
            .iter()
            .filter_map(|(actions, what)| {
                let keys = self.keys_for(ctx, actions);
                (!keys.is_empty()).then(|| format!("{keys} {what}"))
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

type Hint = (&'static [Action], &'static str);

const JUMPS: &[Action] = &[
    A::Jump(1),
    A::Jump(2),
    A::Jump(3),
    A::Jump(4),
    A::Jump(5),
    A::Jump(6),
    A::Jump(7),
    A::Jump(8),
    A::Jump(9),
];

/// Per context: a fixed text (where keys are typed text and cannot be rebound) or hints
/// built from the keymap.
const HINTS: &[(Context, &str, &[Hint])] = &[
    (
        C::Home,
        "",
        &[
            (&[A::Open], "open"),
            (&[A::ReviewDue], "review"),
            (&[A::Stats], "stats"),
            (&[A::Mock], "mock"),
            (&[A::Quiz], "quiz"),
            (&[A::Help], "help"),
            (&[A::Back], "quit"),
        ],
    ),
    (
        C::List,
        "",
        &[
            (&[A::Open], "open"),
            (&[A::Search], "search"),
            (&[A::CycleLevel], "level"),
            (&[A::CycleImportance], "importance"),
            (&[A::ToggleSort], "sort"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (C::Search, "type to search · Enter keep · Esc clear", &[]),
    (
        C::Card,
        "",
        &[
            (&[A::Reveal], "reveal"),
            (JUMPS, "jump"),
            (&[A::PrevLevel, A::NextLevel], "level"),
            (&[A::OpenDemo], "demo"),
            (&[A::RunCode], "run code"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Demo,
        "",
        &[
            (&[A::Help], "every demo key"),
            (&[A::Back], "back to the card"),
        ],
    ),
    (
        C::Command,
        "Enter run · Tab complete · Up/Down history · Esc close",
        &[],
    ),
    (
        C::Editor,
        "Esc save and close · Ctrl-S save · Ctrl-N next file",
        &[],
    ),
    (
        C::Review,
        "",
        &[
            (&[A::Reveal], "answer/Good"),
            (
                &[A::Grade(1), A::Grade(2), A::Grade(3), A::Grade(4)],
                "grade",
            ),
            (&[A::Undo], "undo"),
            (&[A::Bury], "bury"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Stats,
        "",
        &[
            (&[A::StatsView], "progress/history"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Settings,
        "",
        &[
            (&[A::PrevValue, A::NextValue], "change"),
            (&[A::Help], "help"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Setup,
        "",
        &[
            (&[A::Up, A::Down], "option"),
            (&[A::PrevValue, A::NextValue], "change"),
            (&[A::Advance], "start"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Interview,
        "",
        &[
            (&[A::Advance], START_FINISH),
            (&[A::PauseTimer], "pause"),
            (&[A::Notes], "notes"),
            (&[A::EndNow], "end"),
            (&[A::Help], "help"),
        ],
    ),
    (C::Notes, "type notes · Enter or Esc close", &[]),
    (
        C::Rubric,
        "",
        &[
            (&[A::Toggle], "tick"),
            (&[A::Up, A::Down], "move"),
            (&[A::Advance], "score"),
            (&[A::PageUp, A::PageDown], "answers"),
            (&[A::EndNow], "end"),
        ],
    ),
    (
        C::Judge,
        "",
        &[
            (&[A::Judge(1)], "answered"),
            (&[A::Judge(2)], "partly"),
            (&[A::Judge(3)], "missed"),
            (&[A::EndNow], "end"),
        ],
    ),
    (
        C::Scorecard,
        "",
        &[
            (&[A::WriteReport], "write report"),
            (&[A::Up, A::Down], "scroll"),
            (&[A::Back], "back"),
        ],
    ),
    (
        C::Quiz,
        "",
        &[
            (
                &[A::Choose(1), A::Choose(2), A::Choose(3), A::Choose(4)],
                "answer",
            ),
            (&[A::Advance], "choose/next"),
            (&[A::EndNow], "end"),
            (&[A::Back], "back"),
        ],
    ),
    (C::Help, "", &[(&[A::Help], "help"), (&[A::Back], "back")]),
    (C::Global, "", &[(&[A::Help], "help"), (&[A::Back], "back")]),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn every_action_on_a_screen_can_be_rebound_in_config() {
        // The command line and the editor take typed text; their keys are not rebindable.
        let missing: Vec<String> = KEYMAP
            .iter()
            .filter(|b| {
                !matches!(
                    b.ctx,
                    Context::Command | Context::Editor | Context::Search | Context::Notes
                )
            })
            .filter(|b| b.action != Action::Quit)
            .filter(|b| !ACTION_NAMES.iter().any(|(_, a)| *a == b.action))
            .map(|b| format!("{:?} ({})", b.action, b.desc))
            .collect();
        assert!(missing.is_empty(), "no name for [keys]: {missing:?}");
    }

    #[test]
    fn status_hints_name_the_keys_the_keymap_binds() {
        let default = Keymap::default();
        assert_eq!(
            default.hints(Context::Card),
            "Space reveal · 1-9 jump · [ ] level · d demo · r run code · ? help · q back"
        );
        let (km, problems) = Keymap::with_overrides(
            &[Override {
                action: "open-demo".into(),
                keys: vec!["D".into()],
                line: 2,
            }],
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert!(
            km.hints(Context::Card).contains("D demo"),
            "{}",
            km.hints(Context::Card)
        );
        assert!(!km.hints(Context::Card).contains("d demo"));
    }

    #[test]
    fn overrides_replace_keys_everywhere_the_action_is_bound() {
        let (km, problems) = Keymap::with_overrides(
            &[Override {
                action: "reveal".into(),
                keys: vec!["v".into(), "enter".into()],
                line: 3,
            }],
            "config.toml",
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(km.lookup(Context::Card, &ev('v')), Some(Action::Reveal));
        assert_eq!(km.lookup(Context::Card, &ev(' ')), None);
        let rows = km.help_rows(Context::Card);
        assert!(rows.contains(&("v Enter".to_string(), "reveal the next section")));
    }

    #[test]
    fn a_taken_key_leaves_its_old_action_and_problems_name_the_line() {
        let (km, problems) = Keymap::with_overrides(
            &[
                Override {
                    action: "delete-pod".into(),
                    keys: vec!["d".into()],
                    line: 2,
                },
                Override {
                    action: "explode".into(),
                    keys: vec!["e".into()],
                    line: 5,
                },
                Override {
                    action: "help".into(),
                    keys: vec!["F1".into(), "ctrl-c".into()],
                    line: 7,
                },
            ],
            "/home/u/.config/kubedrill/config.toml",
        );
        assert_eq!(km.lookup(Context::Demo, &ev('d')), Some(Action::DeletePod));
        assert_eq!(km.lookup(Context::Demo, &ev('x')), None);
        // Keys elsewhere are untouched.
        assert_eq!(km.lookup(Context::Card, &ev('d')), Some(Action::OpenDemo));
        let (km, _) = Keymap::with_overrides(
            &[Override {
                action: "down".into(),
                keys: vec!["n".into()],
                line: 1,
            }],
            "config.toml",
        );
        assert_eq!(km.lookup(Context::List, &ev('n')), Some(Action::Down));
        // While typing a search, n is a letter and Down still moves.
        assert_eq!(km.lookup(Context::Search, &ev('n')), None);
        assert_eq!(
            km.lookup(
                Context::Search,
                &KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)
            ),
            Some(Action::Down)
        );
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with(
            "/home/u/.config/kubedrill/config.toml:5: [keys] has no action `explode`"
        ));
        assert!(problems[1].contains(":7: `F1` is not a key"));
        assert!(problems[2].contains(":7: Ctrl-C always quits"));
        assert_eq!(
            km.lookup(
                Context::Card,
                &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Action::Quit)
        );
        // `help` kept its `?` since none of its new keys were valid.
        assert_eq!(km.lookup(Context::Home, &ev('?')), Some(Action::Help));
    }
}
