//! One module per screen: its state, how it handles actions, and `impl Widget for &View`.

pub mod answer;
pub mod card;
pub mod demo;
mod demo_admission;
mod demo_chart;
mod demo_hpa;
mod demo_jobs;
mod demo_kcm;
mod demo_operator;
mod demo_sets;
pub mod demo_view;
pub mod help;
pub mod home;
pub mod list;
pub mod mock;
pub mod quiz;
pub mod review;
pub mod settings;
pub mod setup;
mod stack;
pub mod stats;

pub use stack::Screen;

use std::collections::HashMap;

use crate::content::Deck;

use super::keymap::Keymap;
use super::settings::Settings;
use super::theme::Theme;

/// What a screen's view reads besides its own state.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub deck: &'a Deck,
    pub settings: &'a Settings,
    pub theme: &'static Theme,
    pub keymap: &'a Keymap,
    /// Demo challenge titles solved, by question id (the progress store's record).
    pub solved: &'a HashMap<String, Vec<String>>,
    /// Every problem with config.toml, which `?` lists in full (the banner has room for
    /// two).
    pub config_warnings: &'a [String],
}

impl Ctx<'_> {
    /// (solved, total) demo challenges of a question; `None` when it has none.
    pub fn demo_progress(&self, id: &str) -> Option<(usize, usize)> {
        let q = self.deck.question(id)?;
        let total = q.demo.challenges.len();
        let titles = self.solved.get(id);
        let solved = q
            .demo
            .challenges
            .iter()
            .filter(|c| titles.is_some_and(|t| t.iter().any(|s| *s == c.title)))
            .count();
        (total > 0).then_some((solved, total))
    }
}

/// What a screen asks the app to do after handling an action.
#[derive(Debug)]
pub enum Nav {
    Stay,
    Push(Screen),
    /// Leave this screen.
    Pop,
    Status(String),
    /// Write the demo's replay script (`kubedrill sim --export`) to this file, or to
    /// `kubedrill-<question>.sh`.
    Export(Option<String>),
}

/// Moves a selection within `0..len` by `delta`, clamped.
pub(crate) fn step(selected: usize, len: usize, delta: isize) -> usize {
    if len == 0 {
        return 0;
    }
    (selected as isize + delta).clamp(0, len as isize - 1) as usize
}
