//! A port of client-go's `util/jsonpath/parser.go`: same grammar, same error words.

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Text(String),
    /// One `{...}` action, or a sub-expression (filter side, union member).
    List(Vec<Node>),
    Field(String),
    Array([Param; 3]),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        op: String,
    },
    Int(i64),
    Float(f64),
    Bool(bool),
    Wildcard,
    Recursive,
    Union(Vec<Vec<Node>>),
    Identifier(String),
}

/// One of `start:end:step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Param {
    pub value: i64,
    pub known: bool,
    /// `end` was not written: `[i]` means `[i:i+1]`.
    pub derived: bool,
}

struct Parser {
    input: Vec<char>,
    pos: usize,
    start: usize,
}

/// Parses a whole template into its top-level nodes (text and actions).
pub fn parse_template(template: &str) -> Result<Vec<Node>, String> {
    let mut p = Parser {
        input: template.chars().collect(),
        pos: 0,
        start: 0,
    };
    let mut root = Vec::new();
    p.parse_text(&mut root)?;
    Ok(root)
}

/// client-go's `parseAction`: parse `{text}` and return the action's nodes.
fn parse_action(text: &str) -> Result<Vec<Node>, String> {
    let root = parse_template(&format!("{{{text}}}"))?;
    match root.into_iter().next() {
        Some(Node::List(nodes)) => Ok(nodes),
        _ => Ok(Vec::new()),
    }
}

fn is_terminator(c: Option<char>) -> bool {
    match c {
        None => true,
        Some(c) => matches!(
            c,
            ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
        ),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Parser {
    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos).copied();
        self.pos += 1;
        c
    }

    fn backup(&mut self) {
        self.pos -= 1;
    }

    fn peek(&self) -> Option<char> {
        self.input.get(self.pos).copied()
    }

    fn has_prefix(&self, prefix: &str) -> bool {
        let rest = self.input.get(self.pos..).unwrap_or(&[]);
        let p: Vec<char> = prefix.chars().collect();
        rest.starts_with(&p)
    }

    fn consume_text(&mut self) -> String {
        let end = self.pos.min(self.input.len());
        let s: String = self.input[self.start.min(end)..end].iter().collect();
        self.start = self.pos;
        s
    }

    fn parse_text(&mut self, root: &mut Vec<Node>) -> Result<(), String> {
        loop {
            if self.has_prefix("{") {
                if self.pos > self.start {
                    root.push(Node::Text(self.consume_text()));
                }
                self.pos += 1;
                self.consume_text();
                let mut action = Vec::new();
                self.parse_inside_action(&mut action)?;
                root.push(Node::List(action));
                continue;
            }
            if self.next().is_none() {
                break;
            }
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            root.push(Node::Text(self.consume_text()));
        }
        Ok(())
    }

    /// Parses nodes until the closing `}` of the action.
    fn parse_inside_action(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            if self.has_prefix("}") {
                self.pos += 1;
                self.consume_text();
                return Ok(());
            }
            if self.has_prefix("[?(") {
                self.parse_filter(cur)?;
                continue;
            }
            if self.has_prefix("..") {
                self.parse_recursive(cur)?;
                continue;
            }
            match self.next() {
                None | Some('\r' | '\n') => return Err("unclosed action".into()),
                Some(' ' | '@' | '$') => {
                    self.consume_text();
                }
                Some('[') => self.parse_array(cur)?,
                Some(q @ ('"' | '\'')) => self.parse_quote(cur, q)?,
                Some('.') => self.parse_field(cur),
                Some(c) if c == '+' || c == '-' || c.is_ascii_digit() => {
                    self.backup();
                    self.parse_number(cur)?;
                }
                Some(c) if is_alphanumeric(c) => {
                    self.backup();
                    self.parse_identifier(cur);
                }
                Some(c) => {
                    return Err(format!(
                        "unrecognized character in action: U+{:04X} '{c}'",
                        u32::from(c)
                    ));
                }
            }
        }
    }

    fn parse_identifier(&mut self, cur: &mut Vec<Node>) {
        while !is_terminator(self.peek()) {
            self.pos += 1;
        }
        let value = self.consume_text();
        cur.push(match value.as_str() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            _ => Node::Identifier(value),
        });
    }

    fn parse_number(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_digit() || c == '.') {
            self.pos += 1;
        }
        let text = self.consume_text();
        if text.contains('.') {
            let f = text
                .parse::<f64>()
                .map_err(|_| format!("cannot parse number {text}"))?;
            cur.push(Node::Float(f));
        } else {
            let i = text
                .parse::<i64>()
                .map_err(|_| format!("cannot parse number {text}"))?;
            cur.push(Node::Int(i));
        }
        Ok(())
    }

    fn parse_field(&mut self, cur: &mut Vec<Node>) {
        self.consume_text();
        // A backslash escapes the next character, so `kubernetes\.io` stays one field.
        loop {
            match self.next() {
                Some('\\') => {
                    self.next();
                }
                c if is_terminator(c) => {
                    self.backup();
                    break;
                }
                _ => {}
            }
        }
        let value = self.consume_text();
        cur.push(if value == "*" {
            Node::Wildcard
        } else {
            Node::Field(value.replace('\\', ""))
        });
    }

    fn parse_recursive(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if cur.last() == Some(&Node::Recursive) {
            return Err("invalid multiple recursive descent".into());
        }
        self.pos += 2;
        self.consume_text();
        cur.push(Node::Recursive);
        if self.peek().is_some_and(is_alphanumeric) {
            self.parse_field(cur);
        }
        Ok(())
    }

    fn parse_quote(&mut self, cur: &mut Vec<Node>, end: char) -> Result<(), String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated quoted string".into()),
                Some('\\') => {
                    if matches!(self.next(), None | Some('\n')) {
                        return Err("unterminated quoted string".into());
                    }
                }
                Some(c) if c == end => break,
                _ => {}
            }
        }
        let raw = self.consume_text();
        let text =
            unquote(&raw).ok_or_else(|| format!("unquote string {raw} error invalid syntax"))?;
        cur.push(Node::Text(text));
        Ok(())
    }

    fn parse_array(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            match self.next() {
                None | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                _ => {}
            }
        }
        let raw = self.consume_text();
        let inner: String = {
            let chars: Vec<char> = raw.chars().collect();
            chars[1..chars.len() - 1].iter().collect()
        };
        let text = if inner == "*" { ":".to_string() } else { inner };
        let members: Vec<&str> = text.split(',').collect();
        if members.len() > 1 {
            let mut union = Vec::new();
            for m in members {
                union.push(parse_action(&format!("[{}]", m.trim_matches(' ')))?);
            }
            cur.push(Node::Union(union));
            return Ok(());
        }
        // `['key']` is re-parsed as `.key`, so dots inside still split fields, as in kubectl.
        if text.len() >= 2 && text.starts_with('\'') && text.ends_with('\'') {
            let key = &text[1..text.len() - 1];
            if !key.contains('\'') {
                cur.extend(parse_action(&format!(".{key}"))?);
                return Ok(());
            }
        }
        cur.push(Node::Array(parse_slice(&text)?));
        Ok(())
    }

    fn parse_filter(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        self.pos += 3;
        self.consume_text();
        let (mut begin, mut end) = (false, false);
        let mut pair = '"';
        loop {
            let c = self.next();
            match c {
                None | Some('\n') => return Err("unterminated filter".into()),
                Some(q @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = q;
                        continue;
                    }
                    if self.input.get(self.pos - 2) != Some(&'\\') && q == pair {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        let raw = self.consume_text();
        let chars: Vec<char> = raw.chars().collect();
        let text: String = chars[..chars.len() - 2].iter().collect();
        match split_comparison(&text) {
            None => cur.push(Node::Filter {
                left: parse_action(&text)?,
                right: Vec::new(),
                op: "exists".into(),
            }),
            Some((l, op, r)) => cur.push(Node::Filter {
                left: parse_action(l)?,
                right: parse_action(r)?,
                op: op.to_string(),
            }),
        }
        Ok(())
    }
}

/// `^([^!<>=]+)([!<>=]+)(.+?)$`
fn split_comparison(text: &str) -> Option<(&str, &str, &str)> {
    let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
    let op_start = text.find(is_op)?;
    if op_start == 0 {
        return None;
    }
    let rest = &text[op_start..];
    let op_len = rest.find(|c| !is_op(c))?;
    let right = &rest[op_len..];
    if right.is_empty() {
        return None;
    }
    Some((&text[..op_start], &rest[..op_len], right))
}

/// `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$` into the three parameters.
fn parse_slice(text: &str) -> Result<[Param; 3], String> {
    let invalid = || format!("invalid array index {text}");
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(invalid());
    }
    let valid = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        digits.chars().all(|c| c.is_ascii_digit())
    };
    if !parts.iter().all(|p| valid(p)) {
        return Err(invalid());
    }
    let mut params = [Param::default(); 3];
    for i in 0..3 {
        match parts.get(i) {
            Some(s) if !s.is_empty() => {
                let v = s
                    .parse::<i64>()
                    .map_err(|_| format!("array index {s} is not a number"))?;
                params[i] = Param {
                    value: v,
                    known: true,
                    derived: false,
                };
            }
            // `[i]` alone: end is start + 1.
            None if i == 1 => {
                params[1] = Param {
                    value: params[0].value + 1,
                    known: true,
                    derived: true,
                };
            }
            _ => {}
        }
    }
    Ok(params)
}

/// client-go's `UnquoteExtend`: Go string unquoting, also for multi-character '...'.
fn unquote(raw: &str) -> Option<String> {
    let chars: Vec<char> = raw.chars().collect();
    if chars.len() < 2 || chars[0] != chars[chars.len() - 1] {
        return None;
    }
    let quote = chars[0];
    let body = &chars[1..chars.len() - 1];
    let mut out = String::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c == quote && quote == '"' {
            return None;
        }
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let e = *body.get(i + 1)?;
        i += 2;
        let simple = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' => Some('\\'),
            '"' | '\'' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let hex_len = match e {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => return None,
        };
        let digits: String = body.get(i..i + hex_len)?.iter().collect();
        out.push(char::from_u32(u32::from_str_radix(&digits, 16).ok()?)?);
        i += hex_len;
    }
    Some(out)
}
