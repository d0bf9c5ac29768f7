//! Maps byte offsets in a decoded TOML string back to the source, so a caret can point
//! at the exact character (or escape sequence) inside a string literal.

use std::ops::Range;

/// For a string value whose literal is `raw` (quotes included), the source range, relative
/// to the literal's start, of the decoded range `decoded`. `None` if the literal cannot be
/// walked (then callers point at the whole value).
pub fn raw_range(raw: &str, decoded: Range<usize>) -> Option<Range<usize>> {
    let (delim, basic) = if raw.starts_with("\"\"\"") {
        (3, true)
    } else if raw.starts_with("'''") {
        (3, false)
    } else if raw.starts_with('"') {
        (1, true)
    } else if raw.starts_with('\'') {
        (1, false)
    } else {
        return None;
    };
    if raw.len() < 2 * delim {
        return None;
    }
    let mut pos = delim;
    let inner_end = raw.len() - delim;
    // A newline right after a multi-line opening delimiter is not part of the value.
    if delim == 3 && raw[pos..].starts_with('\n') {
        pos += 1;
    }
    let mut out = 0usize; // decoded offset
    let mut start = None;
    let bytes = raw.as_bytes();
    while pos <= inner_end {
        // Skip escapes that decode to nothing before deciding where a range starts.
        if basic
            && pos < inner_end
            && bytes[pos] == b'\\'
            && let Some((raw_len, 0)) = escape_len(&raw[pos..inner_end])
        {
            pos += raw_len;
            continue;
        }
        if start.is_none() && out >= decoded.start {
            start = Some(pos);
        }
        if out >= decoded.end && start.is_some() {
            return start.map(|s| s..pos.max(s + 1).min(inner_end.max(s)));
        }
        if pos == inner_end {
            break;
        }
        if basic && bytes[pos] == b'\\' {
            let (raw_len, dec_len) = escape_len(&raw[pos..inner_end])?;
            pos += raw_len;
            out += dec_len;
        } else {
            let ch = raw[pos..].chars().next()?;
            pos += ch.len_utf8();
            out += ch.len_utf8();
        }
    }
    start.map(|s| s..pos.max(s))
}

/// Length in the source and in the decoded value of the escape at the start of `s`.
fn escape_len(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let hex_char = |n: usize| -> Option<(usize, usize)> {
        let digits = s.get(2..2 + n)?;
        let ch = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
        Some((2 + n, ch.len_utf8()))
    };
    match b.get(1)? {
        b'b' | b't' | b'n' | b'f' | b'r' | b'"' | b'\\' | b'e' => Some((2, 1)),
        b'x' => hex_char(2),
        b'u' => hex_char(4),
        b'U' => hex_char(8),
        // Line-ending backslash: it and all following whitespace vanish.
        b' ' | b'\t' | b'\n' => {
            let skipped = s[1..]
                .find(|c: char| !c.is_whitespace())
                .map_or(s.len(), |i| i + 1);
            Some((skipped, 0))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_literals_map_one_to_one() {
        assert_eq!(raw_range("\"abc\"", 1..2), Some(2..3));
        assert_eq!(raw_range("'abc'", 0..3), Some(1..4));
        assert_eq!(raw_range("'''\nab\ncd'''", 3..4), Some(7..8));
    }

    #[test]
    fn escapes_are_pointed_at_whole() {
        // "a\e[31m": decoded ESC is at byte 1; the escape `\e` is at raw 2..4.
        assert_eq!(raw_range("\"a\\e[31m\"", 1..2), Some(2..4));
        // \u202E is 3 bytes decoded, 6 in the source.
        assert_eq!(raw_range("\"ok \\u202E x\"", 3..6), Some(4..10));
        // Text after an escape is shifted correctly.
        assert_eq!(raw_range("\"\\tab\"", 1..3), Some(3..5));
    }

    #[test]
    fn line_ending_backslash_is_skipped() {
        let raw = "\"\"\"\nab \\\n   cd\"\"\"";
        // decoded: "ab cd"; 'c' is decoded offset 3
        let r = raw_range(raw, 3..4).unwrap();
        assert_eq!(&raw[r], "c");
    }
}
