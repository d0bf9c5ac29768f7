//! A content file held in memory, and byte offset to line/column mapping.

use std::ops::Range;

/// Where a content file came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary.
    Shipped,
    /// Read from the config folder or a `--content` folder.
    User,
}

/// One TOML file's text, normalised for parsing.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as shown in diagnostics.
    pub name: String,
    pub text: String,
    pub origin: Origin,
    /// Computed on first use: only diagnostics need it.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl Source {
    /// Takes the text as read; a leading BOM is dropped and CRLF becomes LF so files
    /// saved on Windows parse the same (columns are unaffected).
    pub fn new(name: impl Into<String>, text: impl Into<String>, origin: Origin) -> Self {
        let mut text: String = text.into();
        if let Some(rest) = text.strip_prefix('\u{feff}') {
            text = rest.to_owned();
        }
        if text.contains("\r\n") {
            text = text.replace("\r\n", "\n");
        }
        Source {
            name: name.into(),
            text,
            origin,
            line_starts: std::sync::OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// 1-based line and column (in characters) of a byte offset; offsets past the end
    /// map to the end.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset) - 1;
        let start = starts[line];
        let col = self.text[start..floor_char_boundary(&self.text, offset)]
            .chars()
            .count();
        (line + 1, col + 1)
    }

    /// Byte range of the 1-based line, without its newline.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        let starts = self.line_starts();
        let start = starts[line.saturating_sub(1).min(starts.len() - 1)];
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        start..end
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_offsets_to_one_based_line_and_char_column() {
        let s = Source::new("a.toml", "ab\ncdé f\n\nx", Origin::User);
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(2), (1, 3)); // the newline itself
        assert_eq!(s.line_col(3), (2, 1));
        // 'é' is two bytes: the space after it is the 4th character.
        assert_eq!(s.line_col(7), (2, 4));
        assert_eq!(s.line_col(10), (3, 1));
        assert_eq!(s.line_col(11), (4, 1));
        assert_eq!(s.line_col(999), (4, 2));
        assert_eq!(&s.text[s.line_range(2)], "cdé f");
        assert_eq!(&s.text[s.line_range(4)], "x");
    }

    #[test]
    fn crlf_and_bom_are_normalised() {
        let s = Source::new("w.toml", "\u{feff}a = 1\r\nb = 2\r\n", Origin::User);
        assert_eq!(s.text, "a = 1\nb = 2\n");
        assert_eq!(s.line_col(6), (2, 1));
    }

    #[test]
    fn offset_inside_a_multibyte_char_does_not_panic() {
        let s = Source::new("u.toml", "é", Origin::User);
        assert_eq!(s.line_col(1), (1, 1));
    }
}
