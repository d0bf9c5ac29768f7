//! One text box's text and cursor, edited the way readline edits a line: every box that
//! takes typed text (the list's search, the demo's command line, the mock's notes, the
//! review's answer) holds one, so Ctrl-A/E, Alt-B/F, Ctrl-W, Ctrl-U and Ctrl-K mean the
//! same everywhere. The keys live in the keymap (`Context::TextBox`); this holds the rules.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// One readline editing command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    Left,
    Right,
    /// Ctrl-A: the start of the line the cursor is on.
    Start,
    /// Ctrl-E: its end.
    End,
    /// Alt-B, Alt-F: a word back or forward.
    WordLeft,
    WordRight,
    /// Backspace.
    DeleteBack,
    /// Delete.
    DeleteForward,
    /// Ctrl-W: the word before the cursor, with the spaces after it.
    DeleteWordBack,
    /// Alt-D: the word after the cursor.
    DeleteWordForward,
    /// Ctrl-U: from the start of the line to the cursor.
    KillToStart,
    /// Ctrl-K: from the cursor to the end of the line.
    KillToEnd,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    /// A byte offset on a character boundary.
    cursor: usize,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl LineEdit {
    /// `text` with the cursor at its end, where typing goes on.
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        LineEdit {
            cursor: text.len(),
            text,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub fn into_text(self) -> String {
        self.text
    }

    pub fn set(&mut self, text: impl Into<String>) {
        *self = LineEdit::new(text);
    }

    pub fn clear(&mut self) {
        *self = LineEdit::default();
    }

    pub fn insert(&mut self, c: char) {
        self.text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    pub fn insert_str(&mut self, s: &str) {
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
    }

    fn prev(&self, at: usize) -> Option<(usize, char)> {
        self.text[..at].char_indices().next_back()
    }

    fn next(&self, at: usize) -> Option<(usize, char)> {
        self.text[at..]
            .chars()
            .next()
            .map(|c| (at + c.len_utf8(), c))
    }

    /// Where the line holding the cursor starts and ends.
    fn line_bounds(&self) -> (usize, usize) {
        let start = self.text[..self.cursor].rfind('\n').map_or(0, |i| i + 1);
        let end = self.text[self.cursor..]
            .find('\n')
            .map_or(self.text.len(), |i| self.cursor + i);
        (start, end)
    }

    /// The start of the word before `at`, skipping what is not a word first (readline's
    /// backward-word).
    fn word_back(&self, mut at: usize) -> usize {
        while let Some((i, c)) = self.prev(at) {
            if is_word(c) {
                break;
            }
            at = i;
        }
        while let Some((i, c)) = self.prev(at) {
            if !is_word(c) {
                break;
            }
            at = i;
        }
        at
    }

    /// The end of the word after `at` (readline's forward-word).
    fn word_forward(&self, mut at: usize) -> usize {
        while let Some((next, c)) = self.next(at) {
            if is_word(c) {
                break;
            }
            at = next;
        }
        while let Some((next, c)) = self.next(at) {
            if !is_word(c) {
                break;
            }
            at = next;
        }
        at
    }

    /// Applies one command; returns whether the text changed.
    pub fn apply(&mut self, edit: Edit) -> bool {
        let before = self.text.len();
        match edit {
            Edit::Left => self.cursor = self.prev(self.cursor).map_or(0, |(i, _)| i),
            Edit::Right => self.cursor = self.next(self.cursor).map_or(self.cursor, |(i, _)| i),
            Edit::Start => self.cursor = self.line_bounds().0,
            Edit::End => self.cursor = self.line_bounds().1,
            Edit::WordLeft => self.cursor = self.word_back(self.cursor),
            Edit::WordRight => self.cursor = self.word_forward(self.cursor),
            Edit::DeleteBack => {
                if let Some((i, _)) = self.prev(self.cursor) {
                    self.text.replace_range(i..self.cursor, "");
                    self.cursor = i;
                }
            }
            Edit::DeleteForward => {
                if let Some((next, _)) = self.next(self.cursor) {
                    self.text.replace_range(self.cursor..next, "");
                }
            }
            // Unix-word-rubout: back over whitespace, then over what is not whitespace.
            Edit::DeleteWordBack => {
                let kept = self.text[..self.cursor]
                    .trim_end()
                    .trim_end_matches(|c: char| !c.is_whitespace())
                    .len();
                self.text.replace_range(kept..self.cursor, "");
                self.cursor = kept;
            }
            Edit::DeleteWordForward => {
                let end = self.word_forward(self.cursor);
                self.text.replace_range(self.cursor..end, "");
            }
            Edit::KillToStart => {
                let start = self.line_bounds().0;
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
            Edit::KillToEnd => {
                let end = self.line_bounds().1;
                self.text.replace_range(self.cursor..end, "");
            }
        }
        self.text.len() != before
    }

    /// The text as spans with the cursor drawn as a reversed cell (a space at the end), so
    /// a box shows where typing goes without moving the terminal's own cursor.
    pub fn spans(&self, style: Style, cursor: Style) -> Vec<Span<'static>> {
        let (before, rest) = self.text.split_at(self.cursor);
        let mut rest = rest.chars();
        let at = match rest.next() {
            Some('\n') | None => " ".to_string(),
            Some(c) => c.to_string(),
        };
        let after: String = if self.text[self.cursor..].starts_with('\n') {
            self.text[self.cursor..].to_string()
        } else {
            rest.collect()
        };
        vec![
            Span::styled(before.to_string(), style),
            Span::styled(at, cursor),
            Span::styled(after, style),
        ]
    }

    /// The text as lines (at its line breaks), the cursor drawn in the line it is on.
    pub fn lines(&self, style: Style, cursor: Style) -> Vec<Line<'static>> {
        let on = self.text[..self.cursor].matches('\n').count();
        let mut start = 0;
        self.text
            .split('\n')
            .enumerate()
            .map(|(i, part)| {
                let line = if i == on {
                    let local = LineEdit {
                        text: part.to_string(),
                        cursor: self.cursor - start,
                    };
                    Line::from(local.spans(style, cursor))
                } else {
                    Line::styled(part.to_string(), style)
                };
                start += part.len() + 1;
                line
            })
            .collect()
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, cursor: usize) -> LineEdit {
        LineEdit {
            text: text.into(),
            cursor,
        }
    }

    fn show(e: &LineEdit) -> String {
        format!("{}|{}", &e.text[..e.cursor], &e.text[e.cursor..])
    }

    #[test]
    fn readline_moves() {
        let mut e = LineEdit::new("kubectl get pods");
        e.apply(Edit::WordLeft);
        assert_eq!(show(&e), "kubectl get |pods");
        e.apply(Edit::WordLeft);
        assert_eq!(show(&e), "kubectl |get pods");
        e.apply(Edit::WordRight);
        assert_eq!(show(&e), "kubectl get| pods");
        e.apply(Edit::Start);
        assert_eq!(show(&e), "|kubectl get pods");
        e.apply(Edit::Left);
        assert_eq!(show(&e), "|kubectl get pods", "nothing before the start");
        e.apply(Edit::End);
        assert_eq!(show(&e), "kubectl get pods|");
        e.apply(Edit::Right);
        assert_eq!(show(&e), "kubectl get pods|", "nothing after the end");
    }

    #[test]
    fn typing_goes_in_at_the_cursor() {
        let mut e = LineEdit::new("get pods");
        e.apply(Edit::Start);
        for c in "kubectl ".chars() {
            e.insert(c);
        }
        assert_eq!(show(&e), "kubectl |get pods");
    }

    #[test]
    fn readline_deletes() {
        let mut e = LineEdit::new("scale deploy/web --replicas=3  ");
        e.apply(Edit::DeleteWordBack);
        assert_eq!(
            show(&e),
            "scale deploy/web |",
            "Ctrl-W takes the word and its spaces"
        );
        e.apply(Edit::DeleteWordBack);
        assert_eq!(show(&e), "scale |");
        let mut e = at("abc def", 4);
        e.apply(Edit::KillToEnd);
        assert_eq!(show(&e), "abc |");
        let mut e = at("abc def", 4);
        e.apply(Edit::KillToStart);
        assert_eq!(show(&e), "|def");
        let mut e = at("abc def", 0);
        e.apply(Edit::DeleteWordForward);
        assert_eq!(show(&e), "| def");
        e.apply(Edit::DeleteForward);
        assert_eq!(show(&e), "|def");
        assert!(!at("", 0).apply(Edit::DeleteBack), "nothing to delete");
    }

    #[test]
    fn multibyte_text_is_edited_by_characters() {
        let mut e = LineEdit::new("naïve ünïcode");
        e.apply(Edit::DeleteBack);
        assert_eq!(show(&e), "naïve ünïcod|");
        e.apply(Edit::WordLeft);
        e.apply(Edit::Left);
        e.apply(Edit::Left);
        assert_eq!(show(&e), "naïv|e ünïcod");
        e.apply(Edit::DeleteBack);
        assert_eq!(show(&e), "naï|e ünïcod");
    }

    #[test]
    fn line_commands_stay_on_the_cursors_line() {
        let mut e = at("first line\nsecond line", 14);
        e.apply(Edit::Start);
        assert_eq!(show(&e), "first line\n|second line");
        e.apply(Edit::KillToEnd);
        assert_eq!(show(&e), "first line\n|");
        e.apply(Edit::DeleteBack);
        assert_eq!(show(&e), "first line|", "Backspace joins the lines");
    }

    #[test]
    fn the_cursor_is_drawn_where_typing_goes() {
        let plain = Style::default();
        let rev = Style::default().add_modifier(ratatui::style::Modifier::REVERSED);
        let e = at("ab\ncd", 1);
        let lines = e.lines(plain, rev);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].spans[1].content, "b");
        assert_eq!(lines[0].spans[1].style, rev);
        assert_eq!(lines[1].to_string(), "cd");
        let end = LineEdit::new("ab");
        assert_eq!(
            end.spans(plain, rev)[1].content,
            " ",
            "a cell after the text"
        );
    }
}
