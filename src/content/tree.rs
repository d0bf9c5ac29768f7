//! The spanned TOML tree the content walker reads.
//!
//! [`parse`] reads a file with the fast reader ([`super::reader`]) and, for anything the
//! reader does not take (an error, or TOML that content files do not use), with the toml
//! crate, whose tree is converted. Both give the same tree for the same text: the reader's
//! tests and the `toml_reader` fuzz target hold it to that.

use std::borrow::Cow;
use std::ops::Range;

use toml::de::{DeTable, DeValue};

use super::reader;

/// A value and where it is in the source. A table's span is its header (`[[question]]`);
/// a table made implicitly by a dotted header is spanned by that key, the root by `0..0`.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'i> {
    pub start: usize,
    pub end: usize,
    pub value: Value<'i>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value<'i> {
    String(Cow<'i, str>),
    /// `None` when it does not fit an i64.
    Integer(Option<i64>),
    Boolean(bool),
    /// Content never takes floats or date-times: only their kind is kept, for messages.
    Float,
    Datetime,
    Array(Vec<Node<'i>>),
    Table(Map<'i>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Key<'i> {
    pub name: Cow<'i, str>,
    pub start: usize,
    pub end: usize,
}

/// A table's entries, in the order the file gives them. Tables in content hold at most a
/// few dozen keys, so a scan beats hashing.
#[derive(Debug, Clone, Default)]
pub struct Map<'i> {
    pub entries: Vec<(Key<'i>, Node<'i>)>,
    /// Made by a dotted header (`[a.b]` makes `a`) and not yet given one of its own: the
    /// reader's bookkeeping for TOML's rule that a table is defined once.
    pub(super) implicit: bool,
}

/// Two trees are equal when they hold the same entries; how a table came to be is not
/// part of its value.
impl PartialEq for Map<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<'i> Node<'i> {
    pub fn new(span: Range<usize>, value: Value<'i>) -> Self {
        Node {
            start: span.start,
            end: span.end,
            value,
        }
    }

    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }

    pub fn get_ref(&self) -> &Value<'i> {
        &self.value
    }
}

impl Key<'_> {
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

impl<'i> Map<'i> {
    pub fn get(&self, key: &str) -> Option<&Node<'i>> {
        self.entries
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(_, v)| v)
    }

    pub fn keys(&self) -> impl Iterator<Item = &Key<'i>> {
        self.entries.iter().map(|(k, _)| k)
    }
}

/// A TOML syntax error: the toml crate's message and where it points.
#[derive(Debug)]
pub struct SyntaxError {
    pub span: Range<usize>,
    pub message: String,
}

/// Reads a whole file: the fast reader when it takes the text, the toml crate otherwise.
pub fn parse(text: &str) -> Result<Map<'_>, SyntaxError> {
    match reader::read(text) {
        Some(map) => Ok(map),
        None => parse_with_toml(text),
    }
}

/// The toml crate's reading of `text`, converted: the reference the fast reader matches.
pub fn parse_with_toml(text: &str) -> Result<Map<'_>, SyntaxError> {
    match DeTable::parse(text) {
        Ok(root) => Ok(from_table(root.into_inner())),
        Err(e) => Err(SyntaxError {
            span: e.span().unwrap_or(0..0),
            message: e.message().trim().to_string(),
        }),
    }
}

fn from_table(table: DeTable<'_>) -> Map<'_> {
    // The toml crate's map is sorted by key; spans put entries back in file order.
    let mut entries: Vec<_> = table
        .into_iter()
        .map(|(k, v)| {
            let span = k.span();
            let key = Key {
                name: k.into_inner(),
                start: span.start,
                end: span.end,
            };
            let span = v.span();
            (key, Node::new(span, from_value(v.into_inner())))
        })
        .collect();
    entries.sort_by_key(|(k, _)| k.start);
    Map {
        entries,
        implicit: false,
    }
}

fn from_value(v: DeValue<'_>) -> Value<'_> {
    match v {
        DeValue::String(s) => Value::String(s),
        DeValue::Integer(i) => Value::Integer(i64::from_str_radix(i.as_str(), i.radix()).ok()),
        DeValue::Float(_) => Value::Float,
        DeValue::Boolean(b) => Value::Boolean(b),
        DeValue::Datetime(_) => Value::Datetime,
        DeValue::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| {
                    let span = item.span();
                    Node::new(span, from_value(item.into_inner()))
                })
                .collect(),
        ),
        DeValue::Table(t) => Value::Table(from_table(t)),
    }
}
