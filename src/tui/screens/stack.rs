//! [`Screen`]: one entry of the app's screen stack, the state of the screen it shows.
//! Screens push new ones through [`super::Nav::Push`]; the app keeps the stack.

use crate::tui::keymap::Context;

use super::card::CardState;
use super::home::HomeState;
use super::list::ListState;
use super::mock::MockState;
use super::quiz::QuizState;
use super::review::ReviewState;
use super::settings::SettingsState;
use super::setup::SetupState;
use super::stats::StatsState;

/// A screen on the app's stack, with its state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    Home(HomeState),
    List(ListState),
    Card(CardState),
    Settings(SettingsState),
    /// The demo of the question with this id; its state lives in the app.
    Demo(String),
    Review(Box<ReviewState>),
    Stats(Box<StatsState>),
    Setup(Box<SetupState>),
    Mock(Box<MockState>),
    Quiz(Box<QuizState>),
}

impl Screen {
    pub fn context(&self) -> Context {
        match self {
            Screen::Home(_) => Context::Home,
            Screen::List(l) => l.context(),
            Screen::Card(_) => Context::Card,
            Screen::Settings(_) => Context::Settings,
            Screen::Demo(_) => Context::Demo,
            Screen::Review(r) => r.context(),
            Screen::Stats(_) => Context::Stats,
            Screen::Setup(_) => Context::Setup,
            Screen::Mock(m) => m.context(),
            Screen::Quiz(q) => q.context(),
        }
    }
}
