//! App state and `update(Msg)`, the only place state changes, plus the frame around the
//! screens: warning banner, breadcrumb, status line, size guard.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::content::{Deck, Level, Loaded};
use crate::study::time::Millis;
use crate::study::{Progress, Session, Stats};

use super::keymap::{self, Action, Context};
use super::screens::card::{self, CardState};
use super::screens::home::{self, HomeState};
use super::screens::list::{self, ListState};
use super::screens::review::{self, ReviewState};
use super::screens::settings::{self, SettingsState};
use super::screens::stats::{self, StatsState};
use super::screens::{Ctx, Nav, help};
use super::theme::{Theme, ThemeName};

/// Below this the app draws only a note asking for a bigger terminal.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;

/// What the user can change in the settings screen; the caller loads and saves it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Which deeper notes a card shows first.
    pub level: Level,
    pub theme: ThemeName,
    /// Capture the mouse (wheel scrolling).
    pub mouse: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            level: Level::Middle,
            theme: ThemeName::Default,
            mouse: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    Home(HomeState),
    List(ListState),
    Card(CardState),
    Settings(SettingsState),
    Review(Box<ReviewState>),
    Stats(Box<StatsState>),
}

impl Screen {
    pub fn context(&self) -> Context {
        match self {
            Screen::Home(_) => Context::Home,
            Screen::List(l) => l.context(),
            Screen::Card(_) => Context::Card,
            Screen::Settings(_) => Context::Settings,
            Screen::Review(_) => Context::Review,
            Screen::Stats(_) => Context::Stats,
        }
    }
}

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
    /// The progress store and scheduler, when the caller opened one.
    pub progress: Option<Progress>,
    /// Why progress is not being saved, shown in the banner.
    pub progress_notices: Vec<String>,
    /// The time study actions use; the event loop sets it from the clock, tests by hand.
    pub now: Millis,
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
            progress: None,
            progress_notices: vec![],
            now: 0,
        }
    }

    /// Hands the app a progress store; `notices` are what opening it had to report.
    pub fn with_progress(mut self, progress: Progress, notices: Vec<String>) -> Self {
        if let Some(first) = notices.first() {
            self.status = Some(first.clone());
        }
        self.progress_notices = notices;
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
                    Screen::List(l) => l.visible(&self.deck).iter().map(|q| q.id.clone()).collect(),
                    _ => return false,
                };
                if ids.is_empty() {
                    self.status = Some("no questions listed to cram".into());
                    return true;
                }
                self.start_cram(ids, action == Action::CramReschedule)
            }
            Action::Stats => match &self.progress {
                Some(p) => match Stats::compute(&self.deck, p, self.now) {
                    Ok(stats) => self
                        .stack
                        .push(Screen::Stats(Box::new(StatsState { stats }))),
                    Err(e) => self.status = Some(format!("stats could not be read: {e}")),
                },
                None => self.status = Some("no progress store: nothing to show".into()),
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
        self.screen().context()
    }

    fn frame(&self, area: Rect) -> Frame {
        let banner_h = u16::from(!self.broken_files.is_empty() || self.not_saving());
        let [banner, title, main, status] = Layout::vertical([
            Constraint::Length(banner_h),
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Frame {
            banner: (banner_h > 0).then_some(banner),
            title,
            main,
            status,
        }
    }

    pub fn update(&mut self, msg: Msg) {
        match msg {
            Msg::Resize(w, h) => self.size = (w, h),
            Msg::Key(key) => {
                self.status = None;
                self.key(key);
            }
            Msg::Mouse(m) => {
                if !self.settings.mouse || self.help {
                    return;
                }
                let action = match m.kind {
                    MouseEventKind::ScrollDown => Action::Down,
                    MouseEventKind::ScrollUp => Action::Up,
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
            };
            let max = help::max_scroll(&ctx_view, ctx, main);
            match keymap::lookup(Context::Help, &key) {
                Some(Action::Quit) => self.quit = true,
                Some(Action::Back) => {
                    self.help = false;
                    self.help_scroll = 0;
                }
                Some(Action::Down) => self.help_scroll = (self.help_scroll + 1).min(max),
                Some(Action::Up) => self.help_scroll = self.help_scroll.saturating_sub(1),
                _ => {}
            }
            return;
        }
        if let Some(action) = keymap::lookup(ctx, &key) {
            self.act(action);
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
            Action::Back => {
                if self.stack.len() > 1 {
                    self.stack.pop();
                } else {
                    self.quit = true;
                }
                return;
            }
            Action::Settings => {
                if !matches!(self.screen(), Screen::Settings(_)) {
                    self.stack.push(Screen::Settings(SettingsState::default()));
                }
                return;
            }
            _ => {}
        }
        if self.study_action(action) {
            return;
        }
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
            Screen::Review(s) => match self.progress.as_mut() {
                Some(p) => s.handle(
                    action,
                    &self.deck,
                    p,
                    self.now,
                    theme,
                    review::body_area(main),
                ),
                None => Nav::Stay,
            },
            Screen::Stats(_) => Nav::Stay,
        };
        match nav {
            Nav::Stay => {}
            Nav::Push(screen) => self.stack.push(screen),
            Nav::Status(m) => self.status = Some(m),
        }
    }

    fn breadcrumb(&self) -> Vec<String> {
        let mut out = vec!["kubedrill".to_string()];
        for s in &self.stack[1..] {
            out.push(match s {
                Screen::Home(_) => "topics".into(),
                Screen::List(l) => self
                    .deck
                    .topic(&l.topic)
                    .map(|t| t.title.clone())
                    .unwrap_or_else(|| l.topic.clone()),
                Screen::Card(c) => c.id.clone(),
                Screen::Settings(_) => "settings".into(),
                Screen::Review(r) => r.title(&self.deck),
                Screen::Stats(_) => "stats".into(),
            });
        }
        out
    }

    fn hints(&self) -> &'static str {
        match self.context() {
            Context::Home => "Enter open · r review · s stats · o settings · ? help · q quit",
            Context::List => {
                "Enter open · / search · l level · i importance · s sort · ? help · q back"
            }
            Context::Search => "type to search · Enter keep · Esc clear",
            Context::Card => "Space reveal · 1-9 jump · j k scroll · [ ] level · ? help · q back",
            Context::Settings | Context::Global | Context::Help => "h l change · ? help · q back",
            Context::Review => "Space answer/Good · 1-4 grade · u undo · b bury · ? help · q back",
            Context::Stats => "? help · q back",
        }
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let msg = format!(
                "kubedrill needs at least {MIN_WIDTH}x{MIN_HEIGHT} (now {}x{})",
                area.width, area.height
            );
            let h = (msg.len() as u16)
                .div_ceil(area.width.max(1))
                .min(area.height);
            let [_, mid, _] = Layout::vertical([
                Constraint::Fill(1),
                Constraint::Length(h),
                Constraint::Fill(1),
            ])
            .areas(area);
            Paragraph::new(msg)
                .centered()
                .wrap(Wrap { trim: true })
                .render(mid, buf);
            return;
        }
        let f = self.frame(area);
        if let Some(b) = f.banner {
            let n = self.broken_files.len();
            let text = if n == 0 {
                format!(" not saving progress: {}", self.progress_notices.join("; "))
            } else {
                format!(
                    " warning: skipped {n} content file(s) with problems: {} (run `kubedrill check`)",
                    self.broken_files.join(", ")
                )
            };
            Paragraph::new(crate::tui::text::truncate(&text, b.width as usize))
                .style(theme.warning)
                .render(b, buf);
        }
        let crumbs = self.breadcrumb().join(" › ");
        Paragraph::new(Span::styled(
            crate::tui::text::truncate(&format!(" {crumbs}"), f.title.width as usize),
            theme.title,
        ))
        .render(f.title, buf);

        let ctx = Ctx {
            deck: &self.deck,
            settings: &self.settings,
            theme,
        };
        match self.screen() {
            Screen::Home(state) => (&home::View { ctx, state }).render(f.main, buf),
            Screen::List(state) => (&list::View { ctx, state }).render(f.main, buf),
            Screen::Card(state) => (&card::View { ctx, state }).render(f.main, buf),
            Screen::Settings(state) => (&settings::View { ctx, state }).render(f.main, buf),
            Screen::Review(state) => (&review::View {
                ctx,
                state,
                progress: self.progress.as_ref(),
                now: self.now,
            })
                .render(f.main, buf),
            Screen::Stats(state) => (&stats::View { ctx, state }).render(f.main, buf),
        }
        if self.help {
            (&help::View {
                ctx,
                context: self.context(),
                scroll: self.help_scroll,
            })
                .render(f.main, buf);
        }
        let status = match &self.status {
            Some(m) => Line::from(Span::styled(format!(" {m}"), theme.accent)),
            None => Line::from(Span::styled(format!(" {}", self.hints()), theme.status)),
        };
        Paragraph::new(status).render(f.status, buf);
    }
}
