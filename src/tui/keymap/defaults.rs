//! The default bindings: every (context, key, action, description) the app starts with.

use ratatui::crossterm::event::{KeyCode, KeyModifiers};

use super::{Action, Binding, Context, Key};
use crate::tui::line_edit::Edit;

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

pub(super) const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

const fn alt(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::ALT,
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
    b(C::Home, ch('g'), A::Top, "first topic"),
    b(C::Home, code(KeyCode::Home), A::Top, "first topic"),
    b(C::Home, ch('G'), A::Bottom, "last topic"),
    b(C::Home, code(KeyCode::End), A::Bottom, "last topic"),
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
    b(
        C::Home,
        ch('/'),
        A::Search,
        "search every question of every topic",
    ),
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
    b(C::List, ch('/'), A::Search, "search every field"),
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
    b(C::Search, code(KeyCode::Down), A::Down, "next match"),
    b(C::Search, code(KeyCode::Up), A::Up, "previous match"),
    b(C::Search, ctrl('c'), A::Quit, "quit"),
    // Every text box (search, command line, notes, answers), as readline edits a line
    b(
        C::TextBox,
        code(KeyCode::Left),
        A::EditText(Edit::Left),
        "cursor left",
    ),
    b(
        C::TextBox,
        ctrl('b'),
        A::EditText(Edit::Left),
        "cursor left",
    ),
    b(
        C::TextBox,
        code(KeyCode::Right),
        A::EditText(Edit::Right),
        "cursor right",
    ),
    b(
        C::TextBox,
        ctrl('f'),
        A::EditText(Edit::Right),
        "cursor right",
    ),
    b(
        C::TextBox,
        ctrl('a'),
        A::EditText(Edit::Start),
        "start of the line",
    ),
    b(
        C::TextBox,
        code(KeyCode::Home),
        A::EditText(Edit::Start),
        "start of the line",
    ),
    b(
        C::TextBox,
        ctrl('e'),
        A::EditText(Edit::End),
        "end of the line",
    ),
    b(
        C::TextBox,
        code(KeyCode::End),
        A::EditText(Edit::End),
        "end of the line",
    ),
    b(
        C::TextBox,
        alt('b'),
        A::EditText(Edit::WordLeft),
        "a word back",
    ),
    b(
        C::TextBox,
        alt('f'),
        A::EditText(Edit::WordRight),
        "a word forward",
    ),
    b(
        C::TextBox,
        code(KeyCode::Backspace),
        A::EditText(Edit::DeleteBack),
        "delete the character before the cursor",
    ),
    b(
        C::TextBox,
        code(KeyCode::Delete),
        A::EditText(Edit::DeleteForward),
        "delete the character under the cursor",
    ),
    b(
        C::TextBox,
        ctrl('d'),
        A::EditText(Edit::DeleteForward),
        "delete the character under the cursor",
    ),
    b(
        C::TextBox,
        ctrl('w'),
        A::EditText(Edit::DeleteWordBack),
        "delete the word before the cursor",
    ),
    b(
        C::TextBox,
        alt('d'),
        A::EditText(Edit::DeleteWordForward),
        "delete the word after the cursor",
    ),
    b(
        C::TextBox,
        ctrl('u'),
        A::EditText(Edit::KillToStart),
        "delete to the start of the line",
    ),
    b(
        C::TextBox,
        ctrl('k'),
        A::EditText(Edit::KillToEnd),
        "delete to the end of the line",
    ),
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
    b(C::Settings, ch('g'), A::Top, "first setting"),
    b(C::Settings, ch('G'), A::Bottom, "last setting"),
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
    b(
        C::Review,
        ch('t'),
        A::TypeAnswer,
        "type your answer before the reveal",
    ),
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
    b(C::Review, ch('g'), A::Top, "top"),
    b(C::Review, ch('G'), A::Bottom, "bottom"),
    b(C::Review, code(KeyCode::PageDown), A::PageDown, "page down"),
    b(C::Review, code(KeyCode::PageUp), A::PageUp, "page up"),
    b(C::Review, ch('['), A::PrevLevel, "deeper: lower level"),
    b(C::Review, ch(']'), A::NextLevel, "deeper: higher level"),
    // Mock interview and quiz setup
    b(C::Setup, ch('j'), A::Down, "next option"),
    b(C::Setup, code(KeyCode::Down), A::Down, "next option"),
    b(C::Setup, ch('k'), A::Up, "previous option"),
    b(C::Setup, code(KeyCode::Up), A::Up, "previous option"),
    b(C::Setup, ch('g'), A::Top, "first option"),
    b(C::Setup, ch('G'), A::Bottom, "last option"),
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
    b(C::Notes, ctrl('c'), A::Quit, "quit"),
    // Typing an answer in review
    b(
        C::Answer,
        code(KeyCode::Enter),
        A::AnswerDone,
        "done: show the answer and check yours",
    ),
    b(
        C::Answer,
        code(KeyCode::Esc),
        A::AnswerCancel,
        "close the box (the text is kept)",
    ),
    b(C::Answer, ctrl('c'), A::Quit, "quit"),
    // Checking a typed answer against the card
    b(C::Check, ch('j'), A::Down, "next item"),
    b(C::Check, code(KeyCode::Down), A::Down, "next item"),
    b(C::Check, ch('k'), A::Up, "previous item"),
    b(C::Check, code(KeyCode::Up), A::Up, "previous item"),
    b(C::Check, ch('g'), A::Top, "first item"),
    b(C::Check, ch('G'), A::Bottom, "last item"),
    b(C::Check, ch(' '), A::Toggle, "tick or untick the item"),
    b(C::Check, ch('x'), A::Toggle, "tick or untick the item"),
    b(
        C::Check,
        code(KeyCode::Enter),
        A::TakeSuggested,
        "grade as suggested",
    ),
    b(C::Check, ch('1'), A::Grade(1), "grade Again"),
    b(C::Check, ch('2'), A::Grade(2), "grade Hard"),
    b(C::Check, ch('3'), A::Grade(3), "grade Good"),
    b(C::Check, ch('4'), A::Grade(4), "grade Easy"),
    b(
        C::Check,
        code(KeyCode::PageDown),
        A::PageDown,
        "scroll the card",
    ),
    b(C::Check, ctrl('d'), A::PageDown, "scroll the card"),
    b(
        C::Check,
        code(KeyCode::PageUp),
        A::PageUp,
        "scroll the card back",
    ),
    b(C::Check, ctrl('u'), A::PageUp, "scroll the card back"),
    b(C::Check, ch('u'), A::Undo, "undo the last grade"),
    // Rubric
    b(C::Rubric, ch('j'), A::Down, "next item"),
    b(C::Rubric, code(KeyCode::Down), A::Down, "next item"),
    b(C::Rubric, ch('k'), A::Up, "previous item"),
    b(C::Rubric, code(KeyCode::Up), A::Up, "previous item"),
    b(C::Rubric, ch('g'), A::Top, "first item"),
    b(C::Rubric, ch('G'), A::Bottom, "last item"),
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
    b(C::Scorecard, ch('g'), A::Top, "top"),
    b(C::Scorecard, ch('G'), A::Bottom, "bottom"),
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
    b(C::Quiz, ch('g'), A::Top, "first option; top of the results"),
    b(
        C::Quiz,
        ch('G'),
        A::Bottom,
        "last option; end of the results",
    ),
    // The help overlay
    b(C::Help, ch('j'), A::Down, "scroll help down"),
    b(C::Help, code(KeyCode::Down), A::Down, "scroll help down"),
    b(C::Help, ch('k'), A::Up, "scroll help up"),
    b(C::Help, code(KeyCode::Up), A::Up, "scroll help up"),
    b(C::Help, ch('g'), A::Top, "top of the help"),
    b(C::Help, ch('G'), A::Bottom, "bottom of the help"),
    b(C::Help, ch('?'), A::Back, "close help"),
    b(C::Help, ch('q'), A::Back, "close help"),
    b(C::Help, code(KeyCode::Esc), A::Back, "close help"),
    b(C::Help, ctrl('c'), A::Quit, "quit"),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// vim's habit: wherever j/k move through a list, g and G jump to its ends.
    #[test]
    fn every_list_has_g_and_g_to_its_ends() {
        let has = |ctx: Context, a: Action| KEYMAP.iter().any(|b| b.ctx == ctx && b.action == a);
        let missing: Vec<&str> = KEYMAP
            .iter()
            .filter(|b| b.action == A::Down && b.key == ch('j'))
            .map(|b| b.ctx)
            .filter(|&c| !(has(c, A::Top) && has(c, A::Bottom)))
            .map(Context::title)
            .collect();
        assert!(missing.is_empty(), "no g/G in: {missing:?}");
    }
}
