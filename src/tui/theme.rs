//! Two const themes: colours, and a monochrome one of modifiers only for NO_COLOR.

use ratatui::style::{Color, Modifier, Style};

/// Which theme the settings ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeName {
    #[default]
    Default,
    Mono,
}

impl ThemeName {
    pub fn theme(self) -> &'static Theme {
        match self {
            ThemeName::Default => &DEFAULT,
            ThemeName::Mono => &MONO,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ThemeName::Default => "colour",
            ThemeName::Mono => "mono",
        }
    }

    pub fn toggled(self) -> Self {
        match self {
            ThemeName::Default => ThemeName::Mono,
            ThemeName::Mono => ThemeName::Default,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Modifiers only: text from Markdown has its colours stripped too.
    pub mono: bool,
    pub title: Style,
    pub border: Style,
    pub selected: Style,
    pub header: Style,
    pub dim: Style,
    pub key: Style,
    pub heading: Style,
    pub warning: Style,
    pub status: Style,
    pub code: Style,
    pub accent: Style,
    /// Something done or healthy: a met challenge, a ready pod.
    pub good: Style,
    /// Something that disagrees and matters: generation ahead of observedGeneration, a
    /// crashed controller.
    pub alert: Style,
}

const BOLD: Modifier = Modifier::BOLD;

pub const DEFAULT: Theme = Theme {
    mono: false,
    title: Style::new().fg(Color::Cyan).add_modifier(BOLD),
    border: Style::new().fg(Color::DarkGray),
    selected: Style::new()
        .fg(Color::Black)
        .bg(Color::Cyan)
        .add_modifier(BOLD),
    header: Style::new().fg(Color::Yellow).add_modifier(BOLD),
    dim: Style::new().fg(Color::DarkGray),
    key: Style::new().fg(Color::Cyan).add_modifier(BOLD),
    heading: Style::new().fg(Color::Magenta).add_modifier(BOLD),
    warning: Style::new().fg(Color::Black).bg(Color::Yellow),
    status: Style::new().fg(Color::Gray),
    code: Style::new().fg(Color::Green),
    accent: Style::new().fg(Color::Yellow),
    good: Style::new().fg(Color::Green).add_modifier(BOLD),
    alert: Style::new()
        .fg(Color::White)
        .bg(Color::Red)
        .add_modifier(BOLD),
};

pub const MONO: Theme = Theme {
    mono: true,
    title: Style::new().add_modifier(BOLD),
    border: Style::new(),
    selected: Style::new().add_modifier(Modifier::REVERSED.union(BOLD)),
    header: Style::new().add_modifier(Modifier::UNDERLINED),
    dim: Style::new(),
    key: Style::new().add_modifier(BOLD),
    heading: Style::new().add_modifier(BOLD.union(Modifier::UNDERLINED)),
    warning: Style::new().add_modifier(Modifier::REVERSED),
    status: Style::new(),
    code: Style::new(),
    accent: Style::new().add_modifier(BOLD),
    good: Style::new().add_modifier(BOLD),
    alert: Style::new().add_modifier(Modifier::REVERSED.union(BOLD)),
};

impl Theme {
    /// A style as this theme allows it: colours dropped for MONO.
    pub fn allow(&self, style: Style) -> Style {
        if self.mono {
            Style {
                fg: None,
                bg: None,
                underline_color: None,
                ..style
            }
        } else {
            style
        }
    }
}
