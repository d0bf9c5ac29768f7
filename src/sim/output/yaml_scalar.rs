//! go-yaml v2's choice of scalar style for a string: what `resolve` would read back as a
//! non-string (so it must be quoted), and what the emitter's `analyze_scalar` allows.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// The style go-yaml v2 emits `s` in; `simple_key` is true for mapping keys.
pub fn select_style(s: &str, simple_key: bool) -> Style {
    let requested = if s.contains('\n') {
        Style::Literal
    } else if resolves_to_string(s) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::Double
    };
    let a = analyze(s);
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::Double;
    }
    if style == Style::Plain && (!a.block_plain_allowed || (s.is_empty() && simple_key)) {
        style = Style::Single;
    }
    if style == Style::Single && !a.single_quoted_allowed {
        style = Style::Double;
    }
    if style == Style::Literal && (!a.block_allowed || simple_key) {
        style = Style::Double;
    }
    style
}

/// go-yaml's `is_printable`: what may appear unescaped.
pub fn is_printable(c: char) -> bool {
    let u = u32::from(c);
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || (0xA0..=0xD7FF).contains(&u)
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
}

pub fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// go-yaml's `yaml_emitter_analyze_scalar`, block context only (kubectl never emits flow).
fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let mut block_indicators = s.starts_with("---") || s.starts_with("...");
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&n| n == ' ' || n == '\t');
        let last = i + 1 == chars.len();
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = matches!(c, ' ' | '\t') || is_break(c);
    }
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// True when go-yaml v2's `resolve` reads the plain scalar `s` back as a string.
fn resolves_to_string(s: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
        "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null",
        "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF",
    ];
    let Some(first) = s.chars().next() else {
        return false;
    };
    let hint_in_map = "yYnNtTfFoO~".contains(first);
    let numeric = first.is_ascii_digit() || first == '+' || first == '-';
    if !(hint_in_map || numeric || first == '.') {
        return true;
    }
    if SPECIAL.contains(&s) {
        return false;
    }
    if first == '.' {
        return s.parse::<f64>().is_err();
    }
    if hint_in_map {
        return true;
    }
    if is_timestamp(s) {
        return false;
    }
    let plain = s.replace('_', "");
    !(is_go_int(&plain) || is_yaml_float(&plain))
}

/// Syntax accepted by Go's `strconv.ParseInt(s, 0, 64)` (overflow ignored).
fn is_go_int(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let all = |t: &str, radix: u32| !t.is_empty() && t.chars().all(|c| c.is_digit(radix));
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        return all(hex, 16);
    }
    if let Some(oct) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        return all(oct, 8);
    }
    if let Some(bin) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        return all(bin, 2);
    }
    if body.len() > 1 && body.starts_with('0') {
        return all(body, 8);
    }
    all(body, 10)
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_float(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i;
    if b.first() == Some(&b'.') {
        let n = digits(1);
        if n == 0 {
            return false;
        }
        i = 1 + n;
    } else {
        let n = digits(0);
        if n == 0 {
            return false;
        }
        i = n;
        if b.get(i) == Some(&b'.') {
            i += 1 + digits(i + 1);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == b.len()
}

/// go-yaml's `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn is_base60_float(s: &str) -> bool {
    let b = s.strip_prefix(['+', '-']).unwrap_or(s).as_bytes();
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let mut i = 1 + b[1..]
        .iter()
        .take_while(|&&c| c.is_ascii_digit() || c == b'_')
        .count();
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let ok = match n {
            1 => true,
            2 => b[i + 1] <= b'5',
            _ => false,
        };
        if !ok {
            return false;
        }
        i += 1 + n;
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1 + b[i + 1..]
            .iter()
            .take_while(|&&c| c.is_ascii_digit() || c == b'_')
            .count();
    }
    i == b.len()
}

/// go-yaml v2's `parseTimestamp` layouts: `2006-1-2T15:4:5.999999999Z07:00` (or `t`),
/// `2006-1-2 15:4:5.999999999` and `2006-1-2`.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let num = |i: &mut usize, min: usize, max: usize| -> Option<u32> {
        let n = b[*i..]
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if n < min {
            return None;
        }
        let v = s[*i..*i + n].parse().ok();
        *i += n;
        v
    };
    let expect = |i: &mut usize, c: u8| -> bool {
        let ok = b.get(*i) == Some(&c);
        *i += usize::from(ok);
        ok
    };
    let date = (|| {
        let y = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if y != 4 {
            return None;
        }
        i = 4;
        if !expect(&mut i, b'-') {
            return None;
        }
        let m = num(&mut i, 1, 2)?;
        if !expect(&mut i, b'-') {
            return None;
        }
        let d = num(&mut i, 1, 2)?;
        ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some(())
    })();
    if date.is_none() {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let sep = b[i];
    if !matches!(sep, b'T' | b't' | b' ') {
        return false;
    }
    i += 1;
    let time = (|| {
        let h = num(&mut i, 1, 2)?;
        if !expect(&mut i, b':') {
            return None;
        }
        let m = num(&mut i, 1, 2)?;
        if !expect(&mut i, b':') {
            return None;
        }
        let s = num(&mut i, 1, 2)?;
        if b.get(i) == Some(&b'.') {
            i += 1;
            num(&mut i, 1, 9)?;
        }
        (h < 24 && m < 60 && s < 60).then_some(())
    })();
    if time.is_none() {
        return false;
    }
    if sep == b' ' {
        return i == b.len();
    }
    match &s[i..] {
        "Z" => true,
        zone => {
            let z = zone.as_bytes();
            z.len() == 6
                && matches!(z[0], b'+' | b'-')
                && z[1..3].iter().all(u8::is_ascii_digit)
                && z[3] == b':'
                && z[4..6].iter().all(u8::is_ascii_digit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Style::*;

    #[test]
    fn styles_match_kubectl() {
        // Each pair from `kubectl label --local -f rich.json x=y -o yaml` annotations.
        let cases = [
            ("&amp", Single),
            ("@at", Single),
            ("!bang", Single),
            ("{x}", Single),
            ("[x]", Single),
            ("`bt", Single),
            ("a: b", Single),
            ("a:b", Plain),
            ("a:", Single),
            ("a,b", Plain),
            ("a\rb", Double),
            ("a\u{1}b", Double),
            ("- dash", Single),
            ("-dash", Plain),
            ("2025-01-06", Double),
            (".5", Double),
            ("say \"hi\"", Plain),
            ("1e3", Double),
            ("😀", Double),
            ("", Double),
            ("=", Plain),
            ("1.5", Double),
            ("a #b", Single),
            ("0x1F", Double),
            ("<b>a & b</b>", Plain),
            (".inf", Double),
            ("{\"a\":1}\n", Literal),
            (" leading space", Single),
            ("line1\nline2", Literal),
            ("n", Double),
            ("a\u{a0}b", Plain),
            ("-1", Double),
            ("No", Double),
            ("null", Double),
            ("0755", Double),
            ("OFF", Double),
            ("on", Double),
            ("1", Double),
            ("%pct", Single),
            ("+1", Double),
            ("?q", Plain),
            ("a?", Plain),
            ("it's", Plain),
            ("*star", Single),
            ("a\tb", Double),
            ("~", Double),
            ("trailing space ", Single),
            ("true", Double),
            ("2025-01-06T10:00:00Z", Double),
            ("1_000", Double),
            ("café ☕ 日本", Plain),
            ("1.27", Double),
            ("y", Double),
            ("yes", Double),
            ("nginx:1.27", Plain),
            // t2.json
            ("0b101", Double),
            ("1:20", Double),
            ("a\u{8}b", Double),
            ("http://x", Plain),
            ("---", Single),
            ("1.2.3", Plain),
            ("...x", Single),
            ("a\u{1b}b", Double),
            (">x", Single),
            ("a#b", Plain),
            ("0x1p-2", Plain),
            ("Inf", Plain),
            (" a\nb", Literal),
            ("a\u{2028}b", Single),
            ("<<", Plain),
            ("NaN", Plain),
            ("-0", Double),
            ("\n", Literal),
            ("08", Double),
            ("|x", Single),
            ("\"q", Single),
            ("a \nb", Double),
            ("'q", Single),
            ("~x", Plain),
            ("a\nb ", Double),
            ("2025-01-06 10:00:00", Double),
        ];
        for (s, want) in cases {
            assert_eq!(select_style(s, false), want, "{s:?}");
        }
    }

    #[test]
    fn key_styles() {
        assert_eq!(select_style("", true), Double);
        assert_eq!(select_style("-x", true), Plain);
        assert_eq!(select_style("k:colon", true), Plain);
        assert_eq!(select_style("a b", true), Plain);
        assert_eq!(select_style("a\nb", true), Double);
    }

    #[test]
    fn timestamps() {
        assert!(is_timestamp("2025-1-6"));
        assert!(is_timestamp("2025-01-06t10:00:00.5+01:00"));
        assert!(!is_timestamp("2025-01-06T10:00:00"));
        assert!(!is_timestamp("20250-01-06"));
    }
}
