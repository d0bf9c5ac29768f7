//! App state and `update(Msg)`, the only place state changes, plus the frame around the
//! screens: warning banner, breadcrumb, status line, size guard.

use std::collections::HashMap;
use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::content::{Deck, Loaded};
use crate::study::mock::{Mock, MockSetup};
use crate::study::quiz::{Quiz, QuizSetup};
use crate::study::time::Millis;
use crate::study::{Progress, Session, Stats};

use super::keymap::{Action, Context, Keymap};
use super::rows;
use super::screens::card::{self, CardState};
use super::screens::demo::Demo;
use super::screens::demo_view;
use super::screens::home::{self, HomeState};
use super::screens::list;
use super::screens::mock::{self, MockState};
use super::screens::quiz::{self, QuizState};
use super::screens::review::{self, ReviewState};
use super::screens::settings::{self, SettingsState};
use super::screens::setup::{self, SetupKind, SetupState};
use super::screens::stats::{self, StatsState};
use super::screens::{Ctx, Nav, help};
use super::theme::Theme;

mod view;

// Defined in screens/stack.rs and settings.rs, so no screen imports this file; the paths
// `tui::app::{Screen, Settings}` stay as they were.
pub use super::screens::Screen;
pub use super::settings::Settings;

/// Below this the app draws only a note asking for a bigger terminal.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Text pasted into the terminal (bracketed paste): typed into the field in focus,
    /// never read as keys.
    Paste(String),
    /// Wall time for one simulated second passed while a demo plays.
    Tick,
}

/// Writes a mock-interview report (Markdown, at the given time) somewhere; says where, or
/// why not. The cli supplies it; this layer does no file IO.
pub type ReportSink = Box<dyn FnMut(&str, Millis) -> Result<String, String>>;

/// Writes a demo's replay script: (the file asked for, if any; the question id; the
/// script). Says where it went, or why not.
pub type ScriptSink = Box<dyn FnMut(Option<&str>, &str, &str) -> Result<String, String>>;

pub struct App {
    pub deck: Deck,
    pub broken_files: Vec<String>,
    pub settings: Settings,
    /// Never empty: the home screen is at the bottom.
    stack: Vec<Screen>,
    pub help: bool,
    /// First help row shown.
    pub help_scroll: usize,
    /// A one-off message, cleared by the next key.
    pub status: Option<String>,
    size: (u16, u16),
    quit: bool,
    /// One demo per question opened, kept while the learner goes back and forth.
    demos: HashMap<String, Demo>,
    /// Seed for the demos' simulations.
    pub seed: u64,
    /// The default keys with config.toml's overrides.
    pub keymap: Keymap,
    /// Problems with config.toml, shown in the warning banner.
    pub config_warnings: Vec<String>,
    /// The progress store and scheduler, when the caller opened one.
    pub progress: Option<Progress>,
    /// Why progress is not being saved, shown in the banner.
    pub progress_notices: Vec<String>,
    /// The time study actions use; the event loop sets it from the clock, tests by hand.
    pub now: Millis,
    /// What a new mock interview's and quiz's setup start from (config, command line).
    pub mock_defaults: MockSetup,
    pub quiz_defaults: QuizSetup,
    /// The seed for mocks and quizzes when the command line fixed one; else each draws
    /// from the time it starts.
    pub mock_seed: Option<u64>,
    /// Where `w` on the scorecard writes the report.
    pub report_sink: Option<ReportSink>,
    /// Write the report as soon as the scorecard shows (`kubedrill mock --report FILE`).
    pub auto_report: bool,
    /// Where a demo's `S` / `:export` writes its replay script.
    pub script_sink: Option<ScriptSink>,
    /// Challenge titles solved, by question id, as the progress store has them.
    solved: HashMap<String, Vec<String>>,
}

/// The rows of a full frame.
struct Frame {
    banner: Option<Rect>,
    title: Rect,
    main: Rect,
    status: Rect,
}

impl App {
    pub fn new(loaded: Loaded, settings: Settings) -> Self {
        App {
            deck: loaded.deck,
            broken_files: loaded.broken_files,
            settings,
            stack: vec![Screen::Home(HomeState::default())],
            help: false,
            help_scroll: 0,
            status: None,
            size: (80, 24),
            quit: false,
            demos: HashMap::new(),
            seed: 1,
            keymap: Keymap::default(),
            config_warnings: Vec::new(),
            progress: None,
            progress_notices: vec![],
            now: 0,
            mock_defaults: MockSetup::default(),
            quiz_defaults: QuizSetup::default(),
            mock_seed: None,
            report_sink: None,
            auto_report: false,
            script_sink: None,
            solved: HashMap::new(),
        }
    }

    /// The seed a mock or quiz starting now uses.
    fn draw_seed(&self) -> u64 {
        self.mock_seed.unwrap_or(self.now as u64)
    }

    /// Opens the setup of a mock interview on top of the current screen.
    pub fn open_mock_setup(&mut self) {
        let setup = MockSetup {
            seed: self.draw_seed(),
            ..self.mock_defaults.clone()
        };
        self.stack
            .push(Screen::Setup(Box::new(SetupState::mock(setup))));
    }

    /// Opens the setup of a quiz on top of the current screen.
    pub fn open_quiz_setup(&mut self) {
        let setup = QuizSetup {
            seed: self.draw_seed(),
            ..self.quiz_defaults.clone()
        };
        self.stack
            .push(Screen::Setup(Box::new(SetupState::quiz(setup))));
    }

    /// Starts what the setup screen on top describes, in its place.
    fn begin(&mut self, kind: SetupKind) {
        let screen = match kind {
            SetupKind::Mock(setup) => match Mock::new(&self.deck, setup) {
                Ok(m) => {
                    let (state, problem) = MockState::new(m, self.progress.as_mut(), self.now);
                    self.status = problem;
                    Screen::Mock(Box::new(state))
                }
                Err(e) => {
                    self.status = Some(e.to_string());
                    return;
                }
            },
            SetupKind::Quiz(setup) => match Quiz::new(&self.deck, &setup) {
                Ok(q) => {
                    let (state, problem) =
                        QuizState::new(q, setup, self.progress.as_mut(), self.now);
                    self.status = problem;
                    Screen::Quiz(Box::new(state))
                }
                Err(e) => {
                    self.status = Some(e.to_string());
                    return;
                }
            },
        };
        self.stack.pop();
        self.stack.push(screen);
    }

    /// Writes the report of the mock on screen through the sink.
    fn write_report(&mut self) {
        let Some(Screen::Mock(m)) = self.stack.last_mut() else {
            return;
        };
        let Some(sink) = self.report_sink.as_mut() else {
            self.status = Some("reports cannot be written from here".into());
            return;
        };
        let md = m.report_markdown(&self.deck, self.now);
        match sink(&md, self.now) {
            Ok(path) => {
                self.status = Some(format!("report written to {path}"));
                m.report = Some(path);
            }
            Err(e) => self.status = Some(format!("the report was not written: {e}")),
        }
    }

    /// Hands the app a progress store; `notices` are what opening it had to report.
    pub fn with_progress(mut self, progress: Progress, notices: Vec<String>) -> Self {
        if let Some(first) = notices.first() {
            self.status = Some(first.clone());
        }
        self.progress_notices = notices;
        if let Ok(rows) = progress.store.solved() {
            for (id, title, _) in rows {
                self.solved.entry(id).or_default().push(title);
            }
        }
        self.progress = Some(progress);
        self
    }

    /// Whether a banner line about progress not being saved shows.
    fn not_saving(&self) -> bool {
        self.progress.as_ref().is_some_and(|p| !p.store.is_saving())
    }

    /// Starts a study session; `Nav::Status` says why not when there is no store.
    fn start_session(
        &mut self,
        make: impl FnOnce(&Deck, &Progress, Millis) -> Result<Session, String>,
    ) {
        let Some(progress) = &self.progress else {
            self.status = Some("no progress store: studying needs one".into());
            return;
        };
        match make(&self.deck, progress, self.now) {
            Ok(session) => self.stack.push(Screen::Review(Box::new(ReviewState::new(
                session,
                self.settings.level,
                self.now,
            )))),
            Err(e) => self.status = Some(e),
        }
    }

    /// Opens a cram session of `ids` (in order) on top of the current screen.
    pub fn start_cram(&mut self, ids: Vec<String>, reschedule: bool) {
        self.start_session(|_, _, now| Ok(Session::cram(ids, reschedule, now)));
    }

    /// Study and stats actions that need the store; true when handled.
    fn study_action(&mut self, action: Action) -> bool {
        match action {
            Action::ReviewDue => self.start_session(|deck, p, now| {
                Session::due(deck, p, None, now).map_err(|e| e.to_string())
            }),
            Action::ReviewTopic => {
                let topic = match self.screen() {
                    Screen::Home(h) => self.deck.topics.get(h.selected).map(|t| t.id.clone()),
                    _ => None,
                };
                self.start_session(|deck, p, now| {
                    Session::due(deck, p, topic.as_deref(), now).map_err(|e| e.to_string())
                })
            }
            Action::Cram | Action::CramReschedule => {
                let ids: Vec<String> = match self.screen() {
                    Screen::List(l) => l
                        .visible(&self.deck)
                        .iter()
                        .map(|q| q.id.to_string())
                        .collect(),
                    _ => return false,
                };
                if ids.is_empty() {
                    self.status = Some("no questions listed to cram".into());
                    return true;
                }
                self.start_cram(ids, action == Action::CramReschedule)
            }
            Action::Stats => match &self.progress {
                Some(p) => match Stats::compute(&self.deck, p, self.now, false) {
                    Ok(stats) => self
                        .stack
                        .push(Screen::Stats(Box::new(StatsState::new(stats)))),
                    Err(e) => self.status = Some(format!("stats could not be read: {e}")),
                },
                None => self.status = Some("no progress store: nothing to show".into()),
            },
            Action::StatsView => match self.stack.last_mut() {
                Some(Screen::Stats(s)) => s.switch_page(),
                _ => return false,
            },
            _ => return false,
        }
        true
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn screen(&self) -> &Screen {
        self.stack.last().expect("the stack always holds home")
    }

    pub fn screens(&self) -> &[Screen] {
        &self.stack
    }

    pub fn theme(&self) -> &'static Theme {
        self.settings.theme.theme()
    }

    pub fn context(&self) -> Context {
        match self.screen() {
            Screen::Demo(id) => match self.demos.get(id) {
                Some(d) if d.editor.is_some() => Context::Editor,
                Some(d) if d.input.is_some() => Context::Command,
                _ => Context::Demo,
            },
            s => s.context(),
        }
    }

    /// The demo kept for a question, if it was opened.
    pub fn demo(&self, id: &str) -> Option<&Demo> {
        self.demos.get(id)
    }

    /// Opens a question's demo on top of the stack (starting it the first time), after
    /// running `lines` in it.
    pub fn open_demo(&mut self, id: &str, lines: &[String]) -> Result<(), String> {
        if !self.demos.contains_key(id) {
            let q = self
                .deck
                .question(id)
                .ok_or_else(|| format!("no question with id `{id}`"))?;
            let solved = self.solved.get(id).cloned().unwrap_or_default();
            let d = Demo::new(q, self.seed, &solved)?;
            self.demos.insert(id.to_string(), d);
        }
        if let Some(d) = self.demos.get_mut(id) {
            for l in lines {
                d.run(l);
            }
        }
        if !matches!(self.screen(), Screen::Demo(open) if open == id) {
            self.stack.push(Screen::Demo(id.to_string()));
        }
        Ok(())
    }

    /// Opens a question's card, as `kubedrill demo ID` starts under its demo.
    pub fn open_card(&mut self, id: &str) -> bool {
        if self.deck.question(id).is_none() {
            return false;
        }
        self.stack
            .push(Screen::Card(CardState::new(id, self.settings.level)));
        true
    }

    /// How long until the next simulated second while the demo on screen plays, or the
    /// next redraw while a mock's clock runs.
    pub fn tick_interval(&self) -> Option<Duration> {
        match self.screen() {
            Screen::Demo(id) => self.demos.get(id).and_then(Demo::interval),
            Screen::Mock(m) if m.ticking(self.now) => Some(Duration::from_millis(250)),
            _ => None,
        }
    }

    fn frame(&self, area: Rect) -> Frame {
        // Warnings above, never at the cost of the title and status lines.
        let banner_h = (self.banner_lines().len() as u16).min(area.height.saturating_sub(2));
        let [banner, rest] = rows::top(area, banner_h);
        let [title, rest] = rows::top(rest, 1);
        let [main, status] = rows::bottom(rest, 1);
        Frame {
            banner: (banner_h > 0).then_some(banner),
            title,
            main,
            status,
        }
    }

    pub fn update(&mut self, msg: Msg) {
        self.dispatch(msg);
        self.note_solved();
    }

    /// Announces challenges of the demo on screen met since the last message, and saves
    /// them as solved.
    fn note_solved(&mut self) {
        let Some(Screen::Demo(id)) = self.stack.last() else {
            return;
        };
        let Some(d) = self.demos.get_mut(id) else {
            return;
        };
        for title in d.newly_met() {
            let titles = self.solved.entry(id.clone()).or_default();
            if !titles.contains(&title) {
                titles.push(title.clone());
            }
            let saved = match self.progress.as_mut() {
                Some(p) => match p.store.record_solved(id, &title, self.now) {
                    Ok(()) => String::new(),
                    Err(e) => format!(" (not saved: {e})"),
                },
                None => String::new(),
            };
            self.status = Some(format!("challenge met: {title}{saved}"));
        }
    }

    fn dispatch(&mut self, msg: Msg) {
        match msg {
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Tick => {
                // Time stands still while the help or the editor covers the cluster.
                if let Some(Screen::Demo(id)) = self.stack.last()
                    && let Some(d) = self.demos.get_mut(id)
                    && d.playing
                    && !self.help
                    && d.editor.is_none()
                {
                    d.tick();
                }
            }
            Msg::Key(key) => {
                self.status = None;
                self.key(key);
            }
            Msg::Paste(text) => self.paste(&text),
            Msg::Mouse(m) => {
                if !self.settings.mouse || self.help {
                    return;
                }
                let action = match m.kind {
                    MouseEventKind::ScrollDown => Action::Down,
                    MouseEventKind::ScrollUp => Action::Up,
                    MouseEventKind::Down(MouseButton::Left) => {
                        self.status = None;
                        return self.click(m.column, m.row);
                    }
                    _ => return,
                };
                self.act(action);
            }
        }
    }

    fn key(&mut self, key: KeyEvent) {
        let ctx = self.context();
        if self.help {
            let main = self.frame(Rect::new(0, 0, self.size.0, self.size.1)).main;
            let ctx_view = Ctx {
                deck: &self.deck,
                settings: &self.settings,
                theme: self.theme(),
                keymap: &self.keymap,
                solved: &self.solved,
                config_warnings: &self.config_warnings,
            };
            let max = help::max_scroll(&ctx_view, ctx, main);
            match self.keymap.lookup(Context::Help, &key) {
                Some(Action::Quit) => self.quit = true,
                Some(Action::Back) => {
                    self.help = false;
                    self.help_scroll = 0;
                }
                Some(Action::Down) => self.help_scroll = (self.help_scroll + 1).min(max),
                Some(Action::Up) => self.help_scroll = self.help_scroll.saturating_sub(1),
                Some(Action::Top) => self.help_scroll = 0,
                Some(Action::Bottom) => self.help_scroll = max,
                _ => {}
            }
            return;
        }
        if let Some(action) = self.keymap.lookup(ctx, &key) {
            self.act(action);
            return;
        }
        if let Some(Screen::Demo(id)) = self.stack.last()
            && let Some(d) = self.demos.get_mut(id)
        {
            match ctx {
                Context::Editor => d.editor_key(key),
                Context::Command => {
                    if let KeyCode::Char(c) = key.code
                        && !key
                            .modifiers
                            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                    {
                        d.type_char(c);
                    }
                }
                _ => {}
            }
            return;
        }
        if ctx == Context::Answer
            && let KeyCode::Char(c) = key.code
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            && let Some(Screen::Review(r)) = self.stack.last_mut()
        {
            r.type_char(c);
            return;
        }
        if ctx == Context::Notes
            && let KeyCode::Char(c) = key.code
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            && let Some(Screen::Mock(m)) = self.stack.last_mut()
        {
            m.type_char(c);
            return;
        }
        // Typing into the search field.
        if ctx == Context::Search
            && let KeyCode::Char(c) = key.code
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            && let Some(Screen::List(l)) = self.stack.last_mut()
        {
            l.type_char(c, &self.deck);
        }
    }

    /// Pasted text, for whichever field has the focus; elsewhere it is dropped, so a paste
    /// can never press hotkeys.
    fn paste(&mut self, text: &str) {
        if self.help {
            return;
        }
        let ctx = self.context();
        match self.stack.last_mut() {
            Some(Screen::Demo(id)) if matches!(ctx, Context::Editor | Context::Command) => {
                if let Some(d) = self.demos.get_mut(id) {
                    d.paste(text);
                }
            }
            Some(Screen::Mock(m)) if ctx == Context::Notes => m.paste(text),
            Some(Screen::Review(r)) if ctx == Context::Answer => r.paste(text),
            Some(Screen::List(l)) if ctx == Context::Search => l.paste(text, &self.deck),
            _ => {}
        }
    }

    /// A left click: selects a topic or question (a click on the selected one opens it),
    /// or jumps to the card section whose number is clicked.
    fn click(&mut self, x: u16, y: u16) {
        let main = self.frame(Rect::new(0, 0, self.size.0, self.size.1)).main;
        if !main.contains(ratatui::layout::Position::new(x, y)) {
            return;
        }
        // Table rows start under the border and the header.
        let row = |top: u16| y.checked_sub(top + 2).map(usize::from);
        let action = match self.stack.last_mut() {
            Some(Screen::Home(h)) => match row(main.y) {
                Some(i) if i < self.deck.topics.len() => {
                    if h.selected == i {
                        Some(Action::Open)
                    } else {
                        h.selected = i;
                        None
                    }
                }
                _ => None,
            },
            Some(Screen::List(l)) => {
                let visible = l.visible(&self.deck).len();
                // The table sits under the filter line; ratatui scrolls it just enough to
                // show the selection.
                let rows = main.height.saturating_sub(4) as usize;
                let offset = l.selected.saturating_sub(rows.saturating_sub(1));
                match row(main.y + 1) {
                    Some(i) if i < rows && offset + i < visible => {
                        if l.selected == offset + i {
                            Some(Action::Open)
                        } else {
                            l.selected = offset + i;
                            None
                        }
                    }
                    _ => None,
                }
            }
            Some(Screen::Card(c)) => {
                let [_, frame] =
                    Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(main);
                self.deck
                    .question(&c.id)
                    .and_then(|q| card::section_at(q, frame, x, y))
                    .map(Action::Jump)
            }
            _ => None,
        };
        if let Some(a) = action {
            self.act(a);
        }
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::Quit => {
                self.quit = true;
                return;
            }
            Action::Help => {
                self.help = true;
                return;
            }
            // Back on a filtered list first clears the search and filters, as the list
            // says; a second Back leaves.
            Action::Back if matches!(self.screen(), Screen::List(s) if s.is_filtered()) => {
                if let Some(Screen::List(s)) = self.stack.last_mut() {
                    s.clear_filters(&self.deck);
                }
                self.status = Some("search and filters cleared".into());
                return;
            }
            Action::Back if !matches!(self.screen(), Screen::Mock(_) | Screen::Quiz(_)) => {
                if self.stack.len() > 1 {
                    self.stack.pop();
                } else {
                    self.quit = true;
                }
                return;
            }
            Action::Mock if matches!(self.screen(), Screen::Home(_)) => {
                self.open_mock_setup();
                return;
            }
            Action::Quiz if matches!(self.screen(), Screen::Home(_)) => {
                self.open_quiz_setup();
                return;
            }
            Action::WriteReport => {
                self.write_report();
                return;
            }
            Action::Settings => {
                if !matches!(self.screen(), Screen::Settings(_)) {
                    self.stack.push(Screen::Settings(SettingsState::default()));
                }
                return;
            }
            // A review card opens its demo as a browsed card does; Back returns to it.
            Action::OpenDemo if matches!(self.screen(), Screen::Review(_)) => {
                if let Screen::Review(r) = self.screen()
                    && let Some(c) = &r.card
                {
                    let id = c.id.clone();
                    if let Err(e) = self.open_demo(&id, &[]) {
                        self.status = Some(e);
                    }
                }
                return;
            }
            Action::OpenDemo | Action::RunCode => {
                if let Screen::Card(c) = self.screen() {
                    let id = c.id.clone();
                    let lines: Vec<String> = match (action, self.deck.question(&id)) {
                        (Action::RunCode, Some(q)) => q
                            .code
                            .iter()
                            .filter(|b| b.runnable)
                            .flat_map(|b| b.lines().map(str::to_string))
                            .collect(),
                        _ => Vec::new(),
                    };
                    if action == Action::RunCode && lines.is_empty() {
                        self.status = Some("this question has no runnable code".into());
                        return;
                    }
                    if let Err(e) = self.open_demo(&id, &lines) {
                        self.status = Some(e);
                    }
                    return;
                }
            }
            _ => {}
        }
        if self.study_action(action) {
            return;
        }
        let ctx = self.context();
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        let main = self.frame(area).main;
        let theme = self.theme();
        let nav = match self.stack.last_mut().expect("home") {
            Screen::Home(s) => s.handle(action, &self.deck),
            Screen::List(s) => {
                // Table rows visible: main minus filter line, borders and header.
                let page = main.height.saturating_sub(4) as usize;
                s.handle(action, &self.deck, &self.settings, page)
            }
            Screen::Card(s) => match self.deck.question(&s.id) {
                Some(q) => {
                    let body = card::body_area(main);
                    s.handle(action, q, theme, body.width as usize, body.height as usize)
                }
                None => Nav::Stay,
            },
            Screen::Settings(s) => s.handle(action, &mut self.settings),
            Screen::Demo(id) => match self.demos.get_mut(id) {
                Some(d) => match ctx {
                    Context::Command => d.handle_input(action),
                    Context::Editor => d.handle_editor(action),
                    _ => {
                        let rows = demo_view::output_rows(main, d.wide);
                        d.handle(action, rows)
                    }
                },
                None => Nav::Stay,
            },
            Screen::Review(s) => match self.progress.as_mut() {
                Some(p) => {
                    let body = review::body_area(main, s);
                    s.handle(action, &self.deck, p, self.now, theme, body)
                }
                None => Nav::Stay,
            },
            Screen::Stats(_) => Nav::Stay,
            Screen::Setup(s) => {
                if s.handle(action, &self.deck) {
                    let kind = s.kind.clone();
                    self.begin(kind);
                }
                Nav::Stay
            }
            Screen::Mock(m) => {
                let was_done = m.mock.is_done();
                let nav = m.handle(action, self.progress.as_mut(), self.now);
                if !was_done && m.mock.is_done() && self.auto_report {
                    self.write_report();
                }
                nav
            }
            Screen::Quiz(q) => {
                let max = quiz::max_scroll(q, theme, main);
                q.handle(action, self.progress.as_mut(), self.now, max)
            }
        };
        match nav {
            Nav::Stay => {}
            Nav::Push(screen) => self.stack.push(screen),
            Nav::Pop => {
                if self.stack.len() > 1 {
                    self.stack.pop();
                } else {
                    self.quit = true;
                }
            }
            Nav::Status(m) => self.status = Some(m),
            Nav::Export(file) => self.export_script(file.as_deref()),
        }
    }

    /// Writes the replay script of the demo on screen through the sink, and says where
    /// in the status line and the output pane.
    fn export_script(&mut self, file: Option<&str>) {
        let Some(Screen::Demo(id)) = self.stack.last() else {
            return;
        };
        let Some(d) = self.demos.get_mut(id) else {
            return;
        };
        let Some(sink) = self.script_sink.as_mut() else {
            self.status = Some("scripts cannot be written from here".into());
            return;
        };
        let script = d.session.export_script();
        let (is_error, msg) = match sink(file, id, &script) {
            Ok(path) => (
                false,
                format!(
                    "wrote {path}: {} line(s) of this demo as a script for a real cluster",
                    d.session.lines.len()
                ),
            ),
            Err(e) => (true, format!("the script was not written: {e}")),
        };
        d.note(is_error, &msg);
        self.status = Some(msg);
    }
}
