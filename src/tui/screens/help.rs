//! The `?` overlay, generated from the keymap table: the screen's keys, then global ones.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::tui::keymap::Context;

use super::Ctx;

pub struct View<'a> {
    pub ctx: Ctx<'a>,
    pub context: Context,
    /// First row shown when the help is taller than the screen.
    pub scroll: usize,
}

/// Help lines for one group of bindings, keys padded to one column.
fn group(ctx: &Ctx<'_>, context: Context) -> Vec<Line<'static>> {
    let theme = ctx.theme;
    let mut out = vec![Line::styled(format!("{}:", context.title()), theme.header)];
    let rows = ctx.keymap.help_rows(context);
    // At least 16 columns, and always a space between the keys and what they do.
    let kw = rows
        .iter()
        .map(|(k, _)| k.chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(16);
    for (keys, desc) in rows {
        out.push(Line::from(vec![
            Span::styled(format!("  {keys:<kw$}"), theme.key),
            Span::raw(desc),
        ]));
    }
    out
}

/// The groups shown for a context: config problems, if any (wrapped to `width`), its own
/// keys, then the global ones (not while typing a search, where global keys do not apply).
pub fn groups(ctx: &Ctx<'_>, context: Context, width: u16) -> Vec<Vec<Line<'static>>> {
    let mut out = Vec::new();
    // Problems first, all of them: the banner shows two.
    if !ctx.config_warnings.is_empty() {
        let mut problems = vec![Line::styled(
            "Problems with config.toml (defaults used):",
            ctx.theme.header,
        )];
        // Inside the box's border and padding; continuation lines hang under the text.
        let fit = usize::from(width.saturating_sub(4)).max(20);
        for w in ctx.config_warnings {
            let line = Line::styled(format!("  {w}"), ctx.theme.accent);
            problems.extend(crate::tui::text::wrap(&line, fit, 4));
        }
        out.push(problems);
    }
    out.push(group(ctx, context));
    if context.is_text_box() {
        out.push(group(ctx, Context::TextBox));
    } else if context != Context::Editor {
        out.push(group(ctx, Context::Global));
    }
    out
}

fn width_of(lines: &[Line<'_>]) -> u16 {
    lines.iter().map(|l| l.width()).max().unwrap_or(10) as u16
}

/// The columns the help shows in `area`: one when it fits, else the groups side by side
/// when that fits across.
fn columns(ctx: &Ctx<'_>, context: Context, area: Rect) -> Vec<Vec<Line<'static>>> {
    let groups = groups(ctx, context, area.width);
    let stacked: Vec<Line> = groups.concat();
    let side_by_side: u16 = groups.iter().map(|g| width_of(g) + 2).sum::<u16>() + 2;
    if stacked.len() as u16 + 2 <= area.height || groups.len() < 2 || side_by_side > area.width {
        vec![stacked]
    } else {
        groups
    }
}

/// How far the help can scroll in `area` (the main area it is drawn over).
pub fn max_scroll(ctx: &Ctx<'_>, context: Context, area: Rect) -> usize {
    let rows = columns(ctx, context, area)
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    rows.saturating_sub(area.height.saturating_sub(2) as usize)
}

impl Widget for &View<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.ctx.theme;
        let columns = columns(&self.ctx, self.context, area);
        let widths: Vec<u16> = columns.iter().map(|c| width_of(c) + 2).collect();
        let width = widths.iter().sum::<u16>() + 2;
        let rows = columns.iter().map(|c| c.len()).max().unwrap_or(0);
        let popup = area.centered(
            Constraint::Length(width.min(area.width)),
            Constraint::Length((rows as u16 + 2).min(area.height)),
        );
        let max = max_scroll(&self.ctx, self.context, area);
        let scroll = self.scroll.min(max);
        let hint = if max > 0 {
            format!(" j k scroll ({}/{}) · ? closes ", scroll, max)
        } else {
            " ? or q closes ".to_string()
        };
        Clear.render(popup, buf);
        let block = Block::bordered()
            .title(Span::styled(" Keys ", theme.title))
            .title_bottom(Span::styled(hint, theme.dim))
            .border_style(theme.border);
        let inner = block.inner(popup);
        block.render(popup, buf);
        let cells = Layout::horizontal(widths.iter().map(|w| Constraint::Length(*w))).split(inner);
        for (col, cell) in columns.into_iter().zip(cells.iter()) {
            Paragraph::new(col)
                .scroll((scroll.min(u16::MAX as usize) as u16, 0))
                .render(cell.inner(Margin::new(1, 0)), buf);
        }
    }
}
