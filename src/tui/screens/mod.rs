//! One module per screen: its state, how it handles actions, and `impl Widget for &View`.

pub mod card;
pub mod demo;
pub mod demo_view;
pub mod help;
pub mod home;
pub mod list;
pub mod mock;
pub mod quiz;
pub mod review;
pub mod settings;
pub mod setup;
pub mod stats;

use crate::content::Deck;

use super::app::{Screen, Settings};
use super::keymap::Keymap;
use super::theme::Theme;

/// What a screen's view reads besides its own state.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub deck: &'a Deck,
    pub settings: &'a Settings,
    pub theme: &'static Theme,
    pub keymap: &'a Keymap,
}

/// What a screen asks the app to do after handling an action.
#[derive(Debug)]
pub enum Nav {
    Stay,
    Push(Screen),
    /// Leave this screen.
    Pop,
    Status(String),
}

/// Moves a selection within `0..len` by `delta`, clamped.
pub(crate) fn step(selected: usize, len: usize, delta: isize) -> usize {
    if len == 0 {
        return 0;
    }
    (selected as isize + delta).clamp(0, len as isize - 1) as usize
}
