//! A fast reader for TOML as content files write it.
//!
//! Why it exists: the toml crate reads a byte at a time through a lexer, a parser and a
//! decoder, and that was three quarters of `kubedrill check` on a large deck. Content
//! files use a small part of TOML: comments, `[table]` and `[[array]]` headers of bare
//! keys, `key = value` with a bare key, and strings, decimal integers, booleans and arrays
//! of those. This reader takes exactly that, scanning strings with memchr and checking
//! their bytes in blocks, and answers `None` for anything else: any syntax error, any
//! redefinition, and valid TOML it does not cover (quoted or dotted keys, inline tables,
//! floats, dates, other integer forms, a byte-order mark). `None` sends the file to the
//! toml crate ([`super::tree::parse`]), so every message about bad TOML is still the
//! crate's, and the tree is the same either way: the tests below and the `toml_reader`
//! fuzz target compare the two on every input.

use std::borrow::Cow;

use toml_parser::decoder::Encoding;

use super::text::all_bytes;
use super::tree::{Key, Map, Node, Value};

/// Deeper arrays and longer header paths than this go to the toml crate, which has its
/// own limit (80 for both, in toml 1.2).
const MAX_DEPTH: usize = 32;

pub fn read(text: &str) -> Option<Map<'_>> {
    let mut r = Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
    };
    let mut doc = Doc::default();
    while r.line(&mut doc)? {}
    doc.finish_table()?;
    Some(doc.root)
}

struct Header<'i> {
    path: Vec<Key<'i>>,
    key: Key<'i>,
    start: usize,
    end: usize,
    array: bool,
}

/// TOML's assembly of tables, as the toml crate does it: the current table collects its
/// keys and is put in place when the next header (or the end) comes.
#[derive(Default)]
struct Doc<'i> {
    root: Map<'i>,
    current: Map<'i>,
    header: Option<Header<'i>>,
}

impl<'i> Doc<'i> {
    fn insert(&mut self, key: Key<'i>, value: Node<'i>) -> Option<()> {
        if self.current.get(&key.name).is_some() {
            return None;
        }
        self.current.entries.push((key, value));
        Some(())
    }

    fn start_table(&mut self, header: Header<'i>) -> Option<()> {
        self.finish_table()?;
        if !header.array {
            // A table made implicitly by an earlier dotted header may now be defined, once.
            let parent = descend(&mut self.root, &header.path)?;
            if let Some(i) = parent
                .entries
                .iter()
                .position(|(k, _)| k.name == header.key.name)
            {
                match parent.entries.remove(i).1.value {
                    Value::Table(t) if t.implicit => self.current = t,
                    _ => return None,
                }
            }
        }
        self.current.implicit = false;
        self.header = Some(header);
        Some(())
    }

    fn finish_table(&mut self) -> Option<()> {
        let table = std::mem::take(&mut self.current);
        let Some(h) = self.header.take() else {
            self.root = table;
            return Some(());
        };
        let node = Node::new(h.start..h.end, Value::Table(table));
        let parent = descend(&mut self.root, &h.path)?;
        let existing = parent
            .entries
            .iter_mut()
            .find(|(k, _)| k.name == h.key.name);
        match (h.array, existing) {
            (false, None) => parent.entries.push((h.key, node)),
            (true, None) => {
                let array = Node::new(h.start..h.end, Value::Array(vec![node]));
                parent.entries.push((h.key, array));
            }
            (true, Some((_, n))) => match &mut n.value {
                // Only an array of tables takes another `[[...]]`; this reader makes no
                // inline tables, so an array ending in a table is one.
                Value::Array(items) if items.last().is_some_and(is_table) => items.push(node),
                _ => return None,
            },
            _ => return None,
        }
        Some(())
    }
}

fn is_table(n: &Node<'_>) -> bool {
    matches!(n.value, Value::Table(_))
}

/// The table a header's path leads to, making implicit tables on the way; the last table
/// of an array of tables stands for the array.
fn descend<'t, 'i>(mut table: &'t mut Map<'i>, path: &[Key<'i>]) -> Option<&'t mut Map<'i>> {
    for key in path {
        let i = match table.entries.iter().position(|(k, _)| k.name == key.name) {
            Some(i) => i,
            None => {
                let implicit = Map {
                    entries: Vec::new(),
                    implicit: true,
                };
                let node = Node::new(key.span(), Value::Table(implicit));
                table.entries.push((key.clone(), node));
                table.entries.len() - 1
            }
        };
        table = match &mut table.entries[i].1.value {
            Value::Table(t) => t,
            Value::Array(items) => match items.last_mut() {
                Some(Node {
                    value: Value::Table(t),
                    ..
                }) => t,
                _ => return None,
            },
            _ => return None,
        };
    }
    Some(table)
}

struct Reader<'i> {
    text: &'i str,
    b: &'i [u8],
    pos: usize,
}

/// Bytes TOML allows in comments and literal strings, newlines aside: tab, printable
/// ASCII and anything non-ASCII (the text is already valid UTF-8).
fn allowed(b: u8) -> bool {
    (b == b'\t') | ((b >= 0x20) & (b != 0x7f))
}

/// Whether every byte is allowed, checked in blocks: what makes long strings cheap.
fn plain(bytes: &[u8]) -> bool {
    all_bytes(bytes, allowed)
}

/// [`plain`], line feeds allowed too.
fn plain_lines(bytes: &[u8]) -> bool {
    all_bytes(bytes, |b| allowed(b) | (b == b'\n'))
}

impl<'i> Reader<'i> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at(&self, s: &[u8]) -> bool {
        self.b[self.pos..].starts_with(s)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// One line of the document; false at the end of the text.
    fn line(&mut self, doc: &mut Doc<'i>) -> Option<bool> {
        self.ws();
        match self.peek() {
            None => return Some(false),
            Some(b'\n' | b'\r' | b'#') => {}
            Some(b'[') => {
                let header = self.header()?;
                doc.start_table(header)?;
            }
            Some(_) => {
                let key = self.key()?;
                self.ws();
                if self.peek() != Some(b'=') {
                    return None;
                }
                self.pos += 1;
                self.ws();
                let value = self.value(0)?;
                doc.insert(key, value)?;
            }
        }
        self.line_end()?;
        Some(true)
    }

    /// Spaces, a comment, then a newline or the end of the text.
    fn line_end(&mut self) -> Option<()> {
        self.ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        self.newline_or_end()
    }

    fn newline_or_end(&mut self) -> Option<()> {
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.pos += 1;
                Some(())
            }
            Some(b'\r') if self.b.get(self.pos + 1) == Some(&b'\n') => {
                self.pos += 2;
                Some(())
            }
            _ => None,
        }
    }

    /// A comment up to (not including) its line end.
    fn comment(&mut self) -> Option<()> {
        let rest = &self.b[self.pos..];
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let mut body = &rest[1..len];
        if let Some(stripped) = body.strip_suffix(b"\r")
            && len < rest.len()
        {
            body = stripped;
        }
        if !plain(body) {
            return None;
        }
        self.pos += 1 + body.len();
        Some(())
    }

    fn key(&mut self) -> Option<Key<'i>> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-')
        ) {
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        Some(Key {
            name: Cow::Borrowed(&self.text[start..self.pos]),
            start,
            end: self.pos,
        })
    }

    /// `[a.b]` or `[[a.b]]`, from the bracket to the bracket.
    fn header(&mut self) -> Option<Header<'i>> {
        let start = self.pos;
        let array = self.at(b"[[");
        self.pos += if array { 2 } else { 1 };
        let mut path = Vec::new();
        loop {
            self.ws();
            let key = self.key()?;
            self.ws();
            if self.peek() == Some(b'.') {
                self.pos += 1;
                path.push(key);
                if path.len() >= MAX_DEPTH {
                    return None;
                }
                continue;
            }
            let close: &[u8] = if array { b"]]" } else { b"]" };
            if !self.at(close) {
                return None;
            }
            self.pos += close.len();
            return Some(Header {
                path,
                key,
                start,
                end: self.pos,
                array,
            });
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node<'i>> {
        let start = self.pos;
        let value = match self.peek()? {
            b'\'' if self.at(b"'''") => self.ml_literal()?,
            b'\'' => self.literal()?,
            b'"' if self.at(b"\"\"\"") => self.ml_basic()?,
            b'"' => self.basic()?,
            b'[' => self.array(depth)?,
            _ => self.bare()?,
        };
        Some(Node::new(start..self.pos, value))
    }

    fn literal(&mut self) -> Option<Value<'i>> {
        let body_start = self.pos + 1;
        let rest = &self.b[body_start..];
        let len = memchr::memchr(b'\'', rest)?;
        if !plain(&rest[..len]) {
            return None;
        }
        self.pos = body_start + len + 1;
        Some(Value::String(Cow::Borrowed(
            &self.text[body_start..body_start + len],
        )))
    }

    fn ml_literal(&mut self) -> Option<Value<'i>> {
        let open = self.pos;
        let mut body_start = open + 3;
        // A newline right after the opening quotes is not part of the string.
        if self.b[body_start..].starts_with(b"\n") {
            body_start += 1;
        } else if self.b[body_start..].starts_with(b"\r\n") {
            body_start += 2;
        }
        let (body_end, end) = closing(&self.b[body_start..], b'\'')?;
        let body = &self.b[body_start..body_start + body_end];
        if !plain_lines(body) && !crlf_lines(body) {
            return None;
        }
        self.pos = body_start + end;
        Some(Value::String(Cow::Borrowed(
            &self.text[body_start..body_start + body_end],
        )))
    }

    fn basic(&mut self) -> Option<Value<'i>> {
        let open = self.pos;
        let mut i = open + 1;
        let mut escaped = false;
        loop {
            let rest = &self.b[i..];
            let at = memchr::memchr2(b'"', b'\\', rest)?;
            if !plain(&rest[..at]) {
                return None;
            }
            i += at;
            if rest[at] == b'"' {
                break;
            }
            // The escaped character is never the closing quote; toml_parser decodes it.
            escaped = true;
            i += 2;
            if i > self.b.len() {
                return None;
            }
        }
        self.pos = i + 1;
        if escaped {
            return decode(&self.text[open..self.pos], Encoding::BasicString, open);
        }
        Some(Value::String(Cow::Borrowed(&self.text[open + 1..i])))
    }

    /// Multi-line basic strings are rare in content: found here, decoded by toml_parser.
    fn ml_basic(&mut self) -> Option<Value<'i>> {
        let open = self.pos;
        let mut i = open + 3;
        loop {
            match *self.b.get(i)? {
                b'\\' => i += 2,
                b'"' => {
                    let run = self.b[i..].iter().take_while(|&&b| b == b'"').count();
                    if run >= 3 {
                        if run > 5 {
                            return None;
                        }
                        self.pos = i + run;
                        break;
                    }
                    i += run;
                }
                _ => i += 1,
            }
        }
        decode(&self.text[open..self.pos], Encoding::MlBasicString, open)
    }

    fn array(&mut self, depth: usize) -> Option<Value<'i>> {
        if depth >= MAX_DEPTH {
            return None;
        }
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.blank()?;
            if self.peek()? == b']' {
                break;
            }
            items.push(self.value(depth + 1)?);
            self.blank()?;
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => break,
                _ => return None,
            }
        }
        self.pos += 1;
        Some(Value::Array(items))
    }

    /// Whitespace, comments and newlines between an array's items.
    fn blank(&mut self) -> Option<()> {
        loop {
            self.ws();
            match self.peek() {
                Some(b'#') => self.comment()?,
                Some(b'\n' | b'\r') => self.newline_or_end()?,
                _ => return Some(()),
            }
        }
    }

    /// `true`, `false` or a plain decimal integer; other bare values go to the toml crate.
    fn bare(&mut self) -> Option<Value<'i>> {
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'+' | b'.' | b':')
        ) {
            self.pos += 1;
        }
        let word = &self.text[start..self.pos];
        match word {
            "true" => return Some(Value::Boolean(true)),
            "false" => return Some(Value::Boolean(false)),
            _ => {}
        }
        let digits = word.strip_prefix('-').unwrap_or(word);
        let plain = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        plain.then(|| Value::Integer(word.parse().ok()))
    }
}

/// Where a multi-line string's closing quotes are: (end of body, end of delimiter). Up to
/// two quotes of the string itself may come right before the three that close it.
fn closing(rest: &[u8], quote: u8) -> Option<(usize, usize)> {
    let delim = [quote; 3];
    let at = memchr::memmem::find(rest, &delim)?;
    let run = rest[at..].iter().take_while(|&&b| b == quote).count();
    (run <= 5).then_some((at + run - 3, at + run))
}

/// The slow check, for text with carriage returns: each must start a CRLF.
fn crlf_lines(body: &[u8]) -> bool {
    body.iter().enumerate().all(|(i, &b)| match b {
        b'\n' => true,
        b'\r' => body.get(i + 1) == Some(&b'\n'),
        _ => allowed(b),
    })
}

/// A string with escapes, decoded by toml_parser; any error sends the file to the crate.
fn decode(raw: &str, encoding: Encoding, at: usize) -> Option<Value<'_>> {
    let span = toml_parser::Span::new_unchecked(at, at + raw.len());
    let mut out: Cow<'_, str> = Cow::Borrowed("");
    let mut errors: Option<toml_parser::ParseError> = None;
    let _kind = toml_parser::Raw::new_unchecked(raw, Some(encoding), span)
        .decode_scalar(&mut out, &mut errors);
    errors.is_none().then_some(Value::String(out))
}

#[cfg(test)]
mod tests {
    use super::super::tree::parse_with_toml;
    use super::*;

    /// The reader takes `text` and agrees with the toml crate, spans included.
    fn same(text: &str) {
        let fast = read(text).unwrap_or_else(|| panic!("reader declined {text:?}"));
        let slow = parse_with_toml(text).expect("valid TOML");
        assert_eq!(fast, slow, "for {text:?}");
    }

    /// The reader declines `text` (so the toml crate reads it or reports it).
    fn declined(text: &str) {
        assert!(read(text).is_none(), "reader took {text:?}");
    }

    #[test]
    fn reads_what_content_files_write() {
        same("[topic]\nid = \"a\"\ntitle = 'T'\n");
        same("# c\n[topic]\nid = \"a\" # trailing\n\n[[question]]\nid = \"q\"\nlevel = 3\n");
        same(
            "[[question]]\nid = 'a'\n[question.basics]\nseconds = 10\ntext = '''\nx\ny'''\n[[question]]\nid = 'b'\n",
        );
        same("[[question]]\n[[question.pitfall]]\nclaim = 'c'\n[[question.pitfall]]\nwhy = 'w'\n");
        same("k = [\n  \"a\", # one\n  'b',\n]\nn = [[1, 2], [true], []]\n");
        same("a = -0\nb = 9223372036854775807\nc = 9223372036854775808\nd = false\n");
        same("s = '''\r\nline\r\n'''\r\n");
        same("s = ''''quoted'''''\nt = '''a''b'''\nu = '''''''\n");
        same("e = \"tab\\tq\\\"u\\u00e9\"\nm = \"\"\"\nx \\\n  y\"\"\"\n");
        same("[a.b.c]\nx = 1\n[a]\ny = 2\n[a.d]\n");
        same("[[a]]\n[a.b]\n[[a]]\n[a.b]\nk = 'é → ü'\n");
        same("k = ''\n  [ t ]  # spaced header\nv=1");
        same("");
    }

    #[test]
    fn declines_errors_and_what_it_does_not_cover() {
        for text in [
            "a = 1\na = 2\n",
            "[t]\n[t]\n",
            "[a]\nb = 1\n[a.b]\n",
            "a = []\n[[a]]\n",
            "a = ['x']\n[a.b]\n",
            "[[a]]\n[a]\n",
            "a.b = 1\n",
            "\"q\" = 1\n",
            "t = {x = 1}\n",
            "f = 1.5\n",
            "d = 1979-05-27\n",
            "h = 0xff\n",
            "u = 1_000\n",
            "z = 01\n",
            "p = +1\n",
            "s = 'unterminated\n",
            "s = '''never closed\n",
            "s = 'ctl\u{1}'\n",
            "# bell \u{7}\n",
            "x = 'a' 'b'\n",
            "s = \"bad \\q escape\"\n",
            "s = '''''''''\n",
            "lone = 1\r",
            "\u{feff}a = 1\n",
            "[a\n",
            "[[a]\n",
            "k = [1 2]\n",
            "k = [,]\n",
        ] {
            declined(text);
        }
    }

    #[test]
    fn parse_agrees_on_what_the_reader_declines() {
        // Valid TOML outside the reader's part goes through the crate unchanged.
        let tree = super::super::tree::parse("a.b = 1.5\nq = {x = 1}\n").expect("valid");
        assert_eq!(
            tree,
            parse_with_toml("a.b = 1.5\nq = {x = 1}\n").expect("valid")
        );
        let err = super::super::tree::parse("a = 1\na = 2\n").expect_err("duplicate");
        assert!(err.message.contains("duplicate key"), "{}", err.message);
    }
}
