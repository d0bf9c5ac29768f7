//! The character filter: TOML lets control and invisible format characters into strings
//! through `\e` and `\u` escapes, and they can reorder or hide text on a terminal.

/// A character that must not appear in content text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forbidden {
    /// Byte offset of the character in the checked text.
    pub offset: usize,
    pub ch: char,
}

impl Forbidden {
    /// A readable name, e.g. `U+202E (right-to-left override)`.
    pub fn describe(&self) -> String {
        format!("U+{:04X} ({})", self.ch as u32, char_name(self.ch))
    }
}

/// First forbidden character in `text`: any control character but newline, and the
/// bidi-control, zero-width and other invisible format characters.
pub fn find_forbidden(text: &str) -> Option<Forbidden> {
    if printable_ascii(text.as_bytes()) {
        return None;
    }
    // Slow path: scan bytes; only ASCII controls and multi-byte sequences need a look.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if (b < 0x20 && b != b'\n') || b == 0x7f {
                return Some(Forbidden {
                    offset: i,
                    ch: b as char,
                });
            }
            i += 1;
            continue;
        }
        let ch = text[i..].chars().next()?;
        if is_forbidden(ch) {
            return Some(Forbidden { offset: i, ch });
        }
        i += ch.len_utf8();
    }
    None
}

/// Whether every byte is printable ASCII or a newline: most content is.
fn printable_ascii(bytes: &[u8]) -> bool {
    all_bytes(bytes, |b| b.wrapping_sub(0x20) < 0x5f || b == b'\n')
}

/// Whether `ok` holds for every byte, checked 32 bytes at a time without an early exit
/// inside a block, which the compiler vectorises (an `all` over the bytes stops per byte,
/// and was a fifth of `kubedrill check`).
pub(super) fn all_bytes(bytes: &[u8], ok: impl Fn(u8) -> bool) -> bool {
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        if !block.iter().fold(true, |all, &b| all & ok(b)) {
            return false;
        }
    }
    blocks.remainder().iter().all(|&b| ok(b))
}

/// 1-based line of byte offset `at` (clamped to the end) in `bytes`, which need not be
/// valid UTF-8.
pub fn line_at(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Where `bytes` stop being UTF-8: the 1-based line and character column of the first
/// bad byte, and the byte.
pub fn utf8_error_at(bytes: &[u8], e: &std::str::Utf8Error) -> (usize, usize, u8) {
    let at = e.valid_up_to();
    let line_start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // The bytes before `at` are valid UTF-8, so they count as characters.
    let column = String::from_utf8_lossy(&bytes[line_start..at])
        .chars()
        .count()
        + 1;
    (line_at(bytes, at), column, bytes[at])
}

/// `text` safe to print on a terminal: each forbidden character written as `\u{..}`
/// (newlines too, for one-line names), everything else as it is. For text that did not
/// come through the content check: file names, imported progress, the config's name.
pub fn plain(text: &str) -> String {
    escape_where(text, |ch| ch == '\n' || ch.is_control() || is_forbidden(ch)).into_owned()
}

/// As [`plain`], keeping newlines and tabs: for multi-line output such as what a kubectl
/// command printed, which may echo what the learner typed (an escape code in a label).
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    escape_where(text, |ch| {
        ch != '\n' && ch != '\t' && (ch.is_control() || is_forbidden(ch))
    })
}

fn escape_where(text: &str, bad: impl Fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    // Most output is printable ASCII and is returned as it is, without a copy.
    let fast = text
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) || ((b == b'\n' || b == b'\t') && !bad(b as char)));
    if fast {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if bad(ch) {
            out.push_str(&format!("\\u{{{:x}}}", ch as u32));
        } else {
            out.push(ch);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// An allow-list by Unicode general category: letters, marks, numbers, punctuation,
/// symbols and the space separator pass; controls, format characters (bidi overrides,
/// zero-width and tag characters), private-use, unassigned code points and the line and
/// paragraph separators do not. (A deny-list of known characters had gaps: the tag
/// characters U+E0001 and U+E0020-E007F, U+206A-206F, U+1D173-1D17A, U+0600-0605.)
fn is_forbidden(ch: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    match ch.general_category_group() {
        GeneralCategoryGroup::Letter
        | GeneralCategoryGroup::Mark
        | GeneralCategoryGroup::Number
        | GeneralCategoryGroup::Punctuation
        | GeneralCategoryGroup::Symbol => false,
        // Spaces (U+00A0 and the like) pass; the line and paragraph separators do not.
        GeneralCategoryGroup::Separator => ch == '\u{2028}' || ch == '\u{2029}',
        GeneralCategoryGroup::Other => true,
    }
}

fn char_name(ch: char) -> &'static str {
    match ch {
        '\t' => "tab",
        '\r' => "carriage return",
        '\u{1b}' => "escape",
        '\0' => "null",
        '\u{7}' => "bell",
        '\u{8}' => "backspace",
        '\u{7f}' => "delete",
        '\u{0}'..='\u{1f}' | '\u{80}'..='\u{9f}' => "control character",
        '\u{ad}' => "soft hyphen",
        '\u{200b}' => "zero-width space",
        '\u{200c}' => "zero-width non-joiner",
        '\u{200d}' => "zero-width joiner",
        '\u{200e}' => "left-to-right mark",
        '\u{200f}' => "right-to-left mark",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{202a}' => "left-to-right embedding",
        '\u{202b}' => "right-to-left embedding",
        '\u{202c}' => "pop directional formatting",
        '\u{202d}' => "left-to-right override",
        '\u{202e}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{2060}' => "word joiner",
        '\u{feff}' => "zero-width no-break space",
        '\u{e0000}'..='\u{e007f}' => "tag character",
        '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{10ffff}' => {
            "private-use or unassigned character"
        }
        _ if ch.is_whitespace() => "invisible format character",
        _ => {
            use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
            match ch.general_category() {
                GeneralCategory::Unassigned => "unassigned code point",
                GeneralCategory::PrivateUse => "private-use character",
                _ => "invisible format character",
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_and_newlines_pass() {
        assert_eq!(
            find_forbidden("spec = desired\nstatus = observed, ünïcode ok"),
            None
        );
    }

    /// The fast path reads 32-byte blocks: a control in any block or in the tail is found.
    #[test]
    fn a_control_anywhere_in_long_text_is_found() {
        let clean = "spec = desired\n".repeat(7);
        assert_eq!(find_forbidden(&clean), None);
        for at in 0..clean.len() {
            for bad in ['\u{1b}', '\u{7f}', '\t', '\u{0}'] {
                let mut text = clean.clone();
                text.replace_range(at..at + 1, &bad.to_string());
                assert_eq!(
                    find_forbidden(&text).map(|f| f.offset),
                    Some(at),
                    "{bad:?} at {at}"
                );
            }
        }
    }

    #[test]
    fn finds_controls_with_byte_offsets() {
        let f = find_forbidden("ab\u{1b}[31m").unwrap();
        assert_eq!((f.offset, f.ch), (2, '\u{1b}'));
        assert_eq!(f.describe(), "U+001B (escape)");
        assert_eq!(find_forbidden("a\tb").unwrap().describe(), "U+0009 (tab)");
        assert_eq!(find_forbidden("a\r\nb").unwrap().offset, 1);
        assert_eq!(find_forbidden("x\u{7f}").unwrap().offset, 1);
    }

    #[test]
    fn finds_bidi_and_zero_width_after_multibyte_text() {
        let f = find_forbidden("é\u{202e}evil").unwrap();
        assert_eq!(f.offset, 2);
        assert_eq!(f.describe(), "U+202E (right-to-left override)");
        assert_eq!(find_forbidden("a\u{200b}b").unwrap().ch, '\u{200b}');
        assert_eq!(find_forbidden("\u{2067}x").unwrap().offset, 0);
        assert_eq!(find_forbidden("x\u{feff}").unwrap().ch, '\u{feff}');
        assert_eq!(find_forbidden("c1\u{85}").unwrap().ch, '\u{85}');
    }

    #[test]
    fn a_utf8_error_is_placed_by_line_and_character() {
        let bytes = [b"ok\n\xc3\xa9t\xc3\xa9 ".as_slice(), b"\xff!"].concat();
        let e = std::str::from_utf8(&bytes).unwrap_err();
        assert_eq!(utf8_error_at(&bytes, &e), (2, 5, 0xff));
        assert_eq!(line_at(&bytes, 0), 1);
        assert_eq!(line_at(&bytes, 999), 2);
    }

    #[test]
    fn output_keeps_its_lines_and_loses_its_escapes() {
        assert_eq!(terminal_safe("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            terminal_safe("a=\u{1b}[2J\u{202e}x\n"),
            "a=\\u{1b}[2J\\u{202e}x\n"
        );
        assert_eq!(plain("two\nlines"), "two\\u{a}lines");
    }

    #[test]
    fn the_allow_list_stops_what_a_deny_list_missed() {
        for ch in [
            '\u{e0001}',
            '\u{e0041}',
            '\u{206a}',
            '\u{1d173}',
            '\u{600}',
            '\u{e000}',
            '\u{2028}',
            '\u{50000}',
        ] {
            let f = find_forbidden(&format!("ok {ch}"))
                .unwrap_or_else(|| panic!("U+{:04X} passed", ch as u32));
            assert_eq!(f.offset, 3);
        }
        assert_eq!(
            find_forbidden("\u{e0041}").unwrap().describe(),
            "U+E0041 (tag character)"
        );
        // Letters, marks, symbols and spaces of every script still pass.
        assert_eq!(
            find_forbidden("naïve café — 日本語 ½ 👍🏽 a\u{a0}b ₂ é"),
            None
        );
    }
}
