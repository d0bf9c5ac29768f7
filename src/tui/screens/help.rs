//! The `?` overlay, generated from the keymap table: the screen's keys, then global ones.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::tui::keymap::{self, Context};

use super::Ctx;

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub context: Context,
}

/// Help lines for a context, keys padded to one column.
pub fn lines(ctx: &Ctx<'_>, context: Context) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    let mut out = Vec::new();
    let mut groups = vec![context];
    if context != Context::Search {
        groups.push(Context::Global);
    }
    for c in groups {
        out.push(Line::styled(format!("{}:", c.title()), theme.header));
        for (keys, desc) in keymap::help_rows(c) {
            out.push(Line::from(vec![
                Span::styled(format!("  {keys:<16}"), theme.key),
                Span::raw(desc),
            ]));
        }
    }
    out
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = lines(&self.ctx, self.context);
        let width = lines.iter().map(|l| l.width()).max().unwrap_or(10) as u16 + 4;
        let height = lines.len() as u16 + 2;
        let popup = area.centered(
            Constraint::Length(width.min(area.width)),
            Constraint::Length(height.min(area.height)),
        );
        Clear.render(popup, buf);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .title(Span::styled(" Keys ", self.ctx.theme.title))
                    .title_bottom(Span::styled(" ? or q closes ", self.ctx.theme.dim))
                    .border_style(self.ctx.theme.border),
            )
            .render(popup, buf);
    }
}
