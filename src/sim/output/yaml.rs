//! `kubectl -o yaml`: go-yaml v2's block emitter (2-space indent, indentless sequences in
//! mappings, folding at column 80) and its key order.

use super::go_number::yaml_number;
use super::yaml_scalar::{Style, is_break, is_printable, select_style};
use serde_json::{Map, Value};
use std::cmp::Ordering;

const BEST_WIDTH: usize = 80;
const BEST_INDENT: usize = 2;
const MAX_SIMPLE_KEY: usize = 128;

/// The object exactly as `kubectl get -o yaml` prints it.
pub fn to_yaml(v: &Value) -> String {
    let mut e = Emitter::default();
    e.node(v, 0, Context::Root);
    // Document end: go-yaml breaks the last line unless a block scalar already did.
    if e.column > 0 || !e.indention {
        e.out.push('\n');
    }
    e.out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Root,
    MapValue,
    SeqItem,
}

struct Emitter {
    out: String,
    /// Current column in characters, as go-yaml counts it.
    column: usize,
    /// Only indentation (or `- `) has been written on this line.
    indention: bool,
}

impl Default for Emitter {
    fn default() -> Self {
        Emitter {
            out: String::new(),
            column: 0,
            indention: true,
        }
    }
}

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_str(&mut self, s: &str) {
        for c in s.chars() {
            self.put(c);
        }
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// go-yaml's `write_break`: a line feed, or another break character kept as is.
    fn write_break(&mut self, c: char) {
        if c != '\n' {
            self.out.push(c);
        } else {
            self.out.push('\n');
        }
        self.column = 0;
    }

    /// go-yaml's `yaml_emitter_write_indent`.
    fn write_indent(&mut self, indent: usize) {
        if !self.indention || self.column > indent {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.indention = true;
    }

    /// Writes `v`; `indent` is where the entries of its container start.
    fn node(&mut self, v: &Value, indent: usize, ctx: Context) {
        match v {
            Value::Object(m) if !m.is_empty() => self.mapping(m, indent, ctx),
            Value::Array(items) if !items.is_empty() => self.sequence(items, indent, ctx),
            Value::Object(_) => self.inline_token("{}"),
            Value::Array(_) => self.inline_token("[]"),
            Value::Null => self.inline_token("null"),
            Value::Bool(b) => self.inline_token(if *b { "true" } else { "false" }),
            Value::Number(n) => self.inline_token(&yaml_number(n)),
            Value::String(s) => self.string(s, indent + BEST_INDENT, false),
        }
    }

    fn inline_token(&mut self, token: &str) {
        self.space_if_needed();
        self.put_str(token);
        self.indention = false;
    }

    fn space_if_needed(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
            self.put(' ');
        }
    }

    fn mapping(&mut self, m: &Map<String, Value>, indent: usize, ctx: Context) {
        let inner = if ctx == Context::Root {
            indent
        } else {
            indent + BEST_INDENT
        };
        let mut keys: Vec<&String> = m.keys().collect();
        keys.sort_by(|a, b| go_yaml_key_order(a, b));
        for key in keys {
            self.write_indent(inner);
            // go-yaml writes keys over 128 bytes or with line breaks as `? key` / `: value`.
            if key.len() > MAX_SIMPLE_KEY || key.chars().any(is_break) {
                self.put_str("? ");
                self.indention = true;
                self.string(key, inner + BEST_INDENT, false);
                self.write_indent(inner);
                self.put(':');
            } else {
                self.string(key, inner, true);
                self.put(':');
                self.indention = false;
            }
            let value = &m[key.as_str()];
            match value {
                // Sequences in a mapping are indentless: `- ` at the key's column.
                Value::Array(items) if !items.is_empty() => {
                    self.sequence(items, inner, Context::MapValue)
                }
                _ => self.node(value, inner, Context::MapValue),
            }
        }
    }

    fn sequence(&mut self, items: &[Value], indent: usize, ctx: Context) {
        let inner = if ctx == Context::SeqItem {
            indent + BEST_INDENT
        } else {
            indent
        };
        for item in items {
            self.write_indent(inner);
            self.put_str("- ");
            self.indention = true;
            self.node(item, inner, Context::SeqItem);
        }
    }

    /// A string scalar; `indent` is where continuation lines start.
    fn string(&mut self, s: &str, indent: usize, simple_key: bool) {
        let allow_breaks = !simple_key;
        match select_style(s, simple_key) {
            Style::Plain => self.plain(s, indent, allow_breaks),
            Style::Single => self.single_quoted(s, indent, allow_breaks),
            Style::Double => self.double_quoted(s, indent, allow_breaks),
            Style::Literal => self.literal(s, indent),
        }
        self.indention = self.indention && self.column == 0;
    }

    fn plain(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.space_if_needed();
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_space {
                    self.write_indent(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                self.indention = false;
                spaces = false;
            }
        }
        self.indention = false;
    }

    fn single_quoted(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.space_if_needed();
        self.put('\'');
        self.indention = false;
        let chars: Vec<char> = s.chars().collect();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let inner = i > 0 && i + 1 < chars.len();
                let next_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inner && !next_space {
                    self.write_indent(indent);
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent(indent);
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.put('\'');
        self.indention = false;
    }

    fn double_quoted(&mut self, s: &str, indent: usize, allow_breaks: bool) {
        self.space_if_needed();
        self.put('"');
        self.indention = false;
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                self.put_str(&escape(c));
                spaces = false;
            } else if c == ' ' {
                let inner = i > 0 && i + 1 < chars.len();
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inner {
                    self.write_indent(indent);
                    self.indention = false;
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.put('"');
        self.indention = false;
    }

    fn literal(&mut self, s: &str, indent: usize) {
        self.space_if_needed();
        self.put('|');
        let chars: Vec<char> = s.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.put_str(&BEST_INDENT.to_string());
        }
        let n = chars.len();
        let ends_in_break = n > 0 && is_break(chars[n - 1]);
        if !ends_in_break {
            self.put('-');
        } else if n == 1 || is_break(chars[n - 2]) {
            self.put('+');
        }
        self.put_break();
        self.indention = true;
        let mut breaks = true;
        for &c in &chars {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent(indent);
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

/// go-yaml's double-quoted escape for `c`, without the backslash.
fn escape(c: char) -> String {
    let u = u32::from(c);
    let short = match u {
        0x00 => "0",
        0x07 => "a",
        0x08 => "b",
        0x09 => "t",
        0x0A => "n",
        0x0B => "v",
        0x0C => "f",
        0x0D => "r",
        0x1B => "e",
        0x22 => "\"",
        0x5C => "\\",
        0x85 => "N",
        0xA0 => "_",
        0x2028 => "L",
        0x2029 => "P",
        _ => "",
    };
    if !short.is_empty() {
        short.to_string()
    } else if u <= 0xFF {
        format!("x{u:02X}")
    } else if u <= 0xFFFF {
        format!("u{u:04X}")
    } else {
        format!("U{u:08X}")
    }
}

/// go-yaml v2's `keyList.Less`: letters sort after non-letters, and digit runs compare as
/// numbers (`a9` before `a10`).
fn go_yaml_key_order(a: &str, b: &str) -> Ordering {
    let (ar, br): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i].cmp(&br[i]);
        }
        if al || bl {
            return if bl {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        let (mut an, mut bn): (u128, u128) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .saturating_mul(10)
                .saturating_add(u128::from(ar[ai] as u32 - '0' as u32));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .saturating_mul(10)
                .saturating_add(u128::from(br[bi] as u32 - '0' as u32));
            bi += 1;
        }
        if an != bn {
            return an.cmp(&bn);
        }
        if ai != bi {
            return ai.cmp(&bi);
        }
        return ar[i].cmp(&br[i]);
    }
    ar.len().cmp(&br.len())
}

#[cfg(test)]
mod tests;
