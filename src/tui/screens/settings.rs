//! Settings: target level, theme, mouse. Changes apply at once and last for the session;
//! config.toml is the user's file and is never rewritten (it keeps their comments).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, StatefulWidget, Table, TableState, Widget};

use crate::content::Level;
use crate::tui::keymap::Action;
use crate::tui::settings::Settings;

use super::{Ctx, Nav, step};

pub const ROWS: usize = 3;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsState {
    pub selected: usize,
}

fn shift_level(l: Level, forward: bool) -> Level {
    let all = Level::ALL;
    let i = all.iter().position(|x| *x == l).unwrap_or(0);
    let j = if forward {
        (i + 1) % all.len()
    } else {
        (i + all.len() - 1) % all.len()
    };
    all[j]
}

impl SettingsState {
    pub fn handle(&mut self, action: Action, settings: &mut Settings) -> Nav {
        match action {
            Action::Up => self.selected = step(self.selected, ROWS, -1),
            Action::Down => self.selected = step(self.selected, ROWS, 1),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = ROWS - 1,
            Action::PrevValue | Action::NextValue => {
                let fwd = action == Action::NextValue;
                match self.selected {
                    0 => settings.level = shift_level(settings.level, fwd),
                    1 => settings.theme = settings.theme.toggled(),
                    _ => settings.mouse = !settings.mouse,
                }
            }
            _ => {}
        }
        Nav::Stay
    }
}

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub state: &'a SettingsState,
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let s = self.ctx.settings;
        let [table_area, help_area] =
            Layout::vertical([Constraint::Length(ROWS as u16 + 2), Constraint::Fill(1)])
                .areas(area);
        let rows = [
            (
                "Target level",
                format!("< {} >", s.level),
                "Which deeper notes a card shows first.",
            ),
            (
                "Theme",
                format!("< {} >", s.theme.as_str()),
                "mono uses bold, reverse and underline only.",
            ),
            (
                "Mouse",
                format!("< {} >", if s.mouse { "on" } else { "off" }),
                "Wheel scrolls lists and cards; off keeps terminal text selection.",
            ),
        ];
        let table = Table::new(
            rows.iter()
                .map(|(name, value, _)| Row::new([name.to_string(), value.clone()])),
            [Constraint::Length(14), Constraint::Fill(1)],
        )
        .row_highlight_style(theme.selected)
        .highlight_symbol("> ")
        .block(
            Block::bordered()
                .title(Span::styled(" Settings ", theme.title))
                .border_style(theme.border),
        );
        let mut ts = TableState::default().with_selected(Some(self.state.selected));
        StatefulWidget::render(table, table_area, buf, &mut ts);
        let desc = rows
            .get(self.state.selected)
            .map(|r| r.2)
            .unwrap_or_default();
        Paragraph::new(vec![
            Line::raw(format!(" {desc}")),
            Line::styled(
                " Changes last until you quit; to keep them, set them in config.toml.",
                theme.dim,
            ),
            Line::from(vec![
                Span::styled(" h l ", theme.key),
                Span::raw("change  "),
                Span::styled("q ", theme.key),
                Span::raw("back"),
            ]),
        ])
        .style(theme.status)
        .render(help_area, buf);
    }
}
