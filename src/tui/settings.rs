//! [`Settings`]: target level, theme and mouse, as the settings screen changes them. Plain
//! data: the cli fills it from config.toml, the app and its screens read it.

use crate::content::Level;

use super::theme::ThemeName;

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
