//! Text helpers for the screens: tab expansion, Markdown to owned lines, word wrapping of
//! styled lines (so scroll offsets are exact rows) and truncation.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::theme::Theme;

pub const TAB_WIDTH: usize = 4;

/// Replaces tabs with spaces up to the next tab stop (ratatui drops tabs silently).
pub fn expand_tabs(text: &str) -> String {
    if !text.contains('\t') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut col = 0;
    for c in text.chars() {
        match c {
            '\t' => {
                let n = TAB_WIDTH - col % TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\n' => {
                out.push(c);
                col = 0;
            }
            _ => {
                out.push(c);
                col += 1;
            }
        }
    }
    out
}

/// Markdown rendered by tui-markdown, as owned lines with the line style folded into the
/// spans; colours dropped under a MONO theme.
pub fn markdown(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    let expanded = expand_tabs(text.trim_end());
    let rendered = tui_markdown::from_str(&expanded);
    rendered
        .lines
        .into_iter()
        // tui-markdown keeps a fence's backtick lines; the code's style marks it instead.
        .filter(|line| !(line.spans.len() == 1 && line.spans[0].content.starts_with("```")))
        .map(|mut line| {
            // ... and a heading's `#` marks: its style says it is a heading.
            if line.spans.len() > 1 && is_heading_mark(&line.spans[0].content) {
                line.spans.remove(0);
            }
            let line_style = rendered.style.patch(line.style);
            let spans: Vec<Span<'static>> = line
                .spans
                .into_iter()
                .map(|s| {
                    Span::styled(
                        expand_tabs(&s.content),
                        theme.allow(line_style.patch(s.style)),
                    )
                })
                .collect();
            Line::from(spans)
        })
        .collect()
}

/// `prefix` then Markdown `text` as one line: inline marks rendered and the source's line
/// breaks joined with a space, as the card shows the same text.
pub fn inline(prefix: &str, text: &str, style: Style, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::styled(prefix.to_string(), style)];
    for (i, line) in markdown(text, theme).into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" ", style));
        }
        spans.extend(
            line.spans
                .into_iter()
                .map(|sp| Span::styled(sp.content, style.patch(sp.style))),
        );
    }
    Line::from(spans)
}

/// Markdown `text` as plain words on one line, for a table cell or the output pane.
pub fn flat(text: &str) -> String {
    inline("", text, Style::default(), &super::theme::DEFAULT).to_string()
}

fn is_heading_mark(s: &str) -> bool {
    let hashes = s.trim_end_matches(' ');
    s.ends_with(' ') && (1..=6).contains(&hashes.len()) && hashes.chars().all(|c| c == '#')
}

/// Plain text (no Markdown), one line per source line, in one style.
pub fn plain(text: &str, style: Style) -> Vec<Line<'static>> {
    expand_tabs(text.trim_end())
        .lines()
        .map(|l| Line::from(Span::styled(l.to_string(), style)))
        .collect()
}

/// Columns `s` takes on screen.
pub fn width_of(s: &str) -> usize {
    Span::raw(s).width()
}

/// Greedy word wrap of a styled line to `width` columns; continuation lines start with
/// `indent` spaces. Words longer than a line are split by characters. Always returns at
/// least one line.
pub fn wrap(line: &Line<'_>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let indent = if indent * 2 > width { 0 } else { indent };
    // Tokens: runs of whitespace or of other characters, each with its style.
    let mut tokens: Vec<(String, Style, bool)> = Vec::new();
    for span in &line.spans {
        let style = line.style.patch(span.style);
        let mut cur = String::new();
        let mut cur_ws = false;
        for c in span.content.chars() {
            let ws = c == ' ';
            if !cur.is_empty() && ws != cur_ws {
                tokens.push((std::mem::take(&mut cur), style, cur_ws));
            }
            cur_ws = ws;
            cur.push(c);
        }
        if !cur.is_empty() {
            tokens.push((cur, style, cur_ws));
        }
    }

    let mut out: Vec<Line<'static>> = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut cur_w = 0usize;
    let mut start_w = 0usize; // width of the indent at the start of the current line
    // Ends a line at a break, dropping the blanks it ended on.
    let new_line = |out: &mut Vec<Line<'static>>, cur: &mut Vec<Span<'static>>| {
        while let Some(last) = cur.last_mut() {
            let kept = last.content.trim_end_matches(' ').len();
            if kept == 0 {
                cur.pop();
            } else {
                if kept < last.content.len() {
                    last.content = last.content[..kept].to_string().into();
                }
                break;
            }
        }
        out.push(Line::from(std::mem::take(cur)));
    };
    for (text, style, ws) in tokens {
        let w = width_of(&text);
        if ws {
            if cur_w == start_w && !out.is_empty() {
                continue; // no leading blanks on continuation lines
            }
            if cur_w + w > width {
                new_line(&mut out, &mut cur);
                cur.push(Span::raw(" ".repeat(indent)));
                cur_w = indent;
                start_w = indent;
                continue;
            }
            cur.push(Span::styled(text, style));
            cur_w += w;
            continue;
        }
        if cur_w + w > width && cur_w > start_w {
            new_line(&mut out, &mut cur);
            cur.push(Span::raw(" ".repeat(indent)));
            cur_w = indent;
            start_w = indent;
        }
        if cur_w + w <= width {
            cur.push(Span::styled(text, style));
            cur_w += w;
            continue;
        }
        // A word longer than the line: split it by characters.
        let mut piece = String::new();
        for c in text.chars() {
            let mut buf = [0u8; 4];
            let cw = width_of(c.encode_utf8(&mut buf));
            if cur_w + cw > width && cur_w > start_w {
                if !piece.is_empty() {
                    cur.push(Span::styled(std::mem::take(&mut piece), style));
                }
                new_line(&mut out, &mut cur);
                cur.push(Span::raw(" ".repeat(indent)));
                cur_w = indent;
                start_w = indent;
            }
            piece.push(c);
            cur_w += cw;
        }
        if !piece.is_empty() {
            cur.push(Span::styled(piece, style));
        }
    }
    out.push(Line::from(cur));
    out
}

/// Wraps every line.
pub fn wrap_all(lines: &[Line<'_>], width: usize, indent: usize) -> Vec<Line<'static>> {
    lines.iter().flat_map(|l| wrap(l, width, indent)).collect()
}

/// Cuts a string to `width` columns, ending with `…` when cut.
pub fn truncate(s: &str, width: usize) -> String {
    if width_of(s) <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let mut buf = [0u8; 4];
        let cw = width_of(c.encode_utf8(&mut buf));
        if w + cw + 1 > width {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

/// [`truncate`] for a styled line: each span keeps its style, the `…` takes the style of
/// the span it cuts.
pub fn truncate_line(line: &Line<'_>, width: usize) -> Line<'static> {
    let mut left = width;
    let mut spans = Vec::new();
    let total: usize = line.spans.iter().map(|s| width_of(&s.content)).sum();
    for sp in &line.spans {
        let style = line.style.patch(sp.style);
        let w = width_of(&sp.content);
        if total <= width || w < left {
            spans.push(Span::styled(sp.content.to_string(), style));
            left = left.saturating_sub(w);
            continue;
        }
        spans.push(Span::styled(truncate(&sp.content, left), style));
        break;
    }
    Line::from(spans)
}

/// The hanging indent for a wrapped line: its leading spaces plus a list marker
/// (`- `, `* `, `• `, `1. `) when it has one.
pub fn hang(line: &Line<'_>) -> usize {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let spaces = text.len() - text.trim_start_matches(' ').len();
    let rest = &text[spaces..];
    let marker = if ["- ", "* ", "+ ", "• ", "✗ "]
        .iter()
        .any(|m| rest.starts_with(m))
    {
        2
    } else {
        let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && rest[digits..].starts_with(". ") {
            digits + 2
        } else {
            0
        }
    };
    spaces + marker
}

/// Pasted text for a one-line field: line breaks and other controls become spaces.
pub fn one_line(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().map(|c| if c.is_control() { ' ' } else { c })
}
