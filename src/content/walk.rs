//! A typed walk over a spanned TOML tree that records every problem instead of stopping
//! at the first, as serde would.

use std::ops::{Range, RangeInclusive};

use super::diag::Diagnostic;
use super::escape;
use super::model::Str;
use super::source::Source;
use super::text;
use super::tree::{Map, Node, Value};

pub type Val<'i> = Node<'i>;

/// A table and how to name it in messages (`[[question]]`, `[question.basics]`).
#[derive(Clone, Copy)]
pub struct Table<'t, 'i> {
    pub map: &'t Map<'i>,
    /// The header (or inline table) span, where "missing key" errors point.
    pub start: usize,
    pub end: usize,
    pub name: &'static str,
}

impl Table<'_, '_> {
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

pub struct Walker<'s> {
    pub src: &'s Source,
    pub diags: Vec<Diagnostic>,
}

fn type_name(v: &Value<'_>) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

impl<'s> Walker<'s> {
    pub fn new(src: &'s Source) -> Self {
        Walker {
            src,
            diags: Vec::new(),
        }
    }

    pub fn error(&mut self, span: Range<usize>, message: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::at(self.src, span, message));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn type_error(&mut self, v: &Val<'_>, key: &str, expected: &str) {
        let found = type_name(v.get_ref());
        let d = self.error(
            v.span(),
            format!("`{key}` must be {expected}, found {found}"),
        );
        d.label = Some(format!("expected {expected}"));
    }

    pub fn as_table<'t, 'i>(
        &mut self,
        v: &'t Val<'i>,
        key: &str,
        name: &'static str,
    ) -> Option<Table<'t, 'i>> {
        match v.get_ref() {
            Value::Table(map) => Some(Table {
                map,
                start: v.span().start,
                end: v.span().end,
                name,
            }),
            _ => {
                self.type_error(v, key, "a table");
                None
            }
        }
    }

    /// Reports keys not in `allowed`, suggesting the nearest known one.
    pub fn check_keys(&mut self, t: Table<'_, '_>, allowed: &[&str]) {
        for key in t.map.keys() {
            let k = key.name.as_ref();
            if allowed.contains(&k) {
                continue;
            }
            let help = match nearest(k, allowed) {
                Some(near) => format!("did you mean `{near}`?"),
                None => format!("the keys of {} are: {}", t.name, allowed.join(", ")),
            };
            let d = self.error(key.span(), format!("unknown key `{k}` in {}", t.name));
            d.label = Some("unknown key".into());
            d.help = Some(help);
        }
    }

    pub fn get<'t, 'i>(
        &mut self,
        t: Table<'t, 'i>,
        key: &str,
        required: bool,
    ) -> Option<&'t Val<'i>> {
        let v = t.map.get(key);
        // A misspelt key is reported once, as unknown with a suggestion, not also as missing.
        let misspelt = || {
            t.map
                .keys()
                .any(|k| k.name != key && strsim::jaro_winkler(&k.name, key) >= 0.8)
        };
        if v.is_none() && required && !misspelt() {
            let d = self.error(
                t.span(),
                format!("missing required key `{key}` in {}", t.name),
            );
            d.label = Some(format!("this table needs `{key}`"));
        }
        v
    }

    /// A string value: present, non-blank and free of forbidden characters.
    pub fn string(&mut self, v: &Val<'_>, key: &str) -> Option<Str> {
        let Value::String(s) = v.get_ref() else {
            self.type_error(v, key, "a string");
            return None;
        };
        if s.trim().is_empty() {
            let d = self.error(v.span(), format!("`{key}` must not be empty"));
            d.label = Some("empty string".into());
            return None;
        }
        if let Some(bad) = text::find_forbidden(s) {
            let span = self.inner_span(v, bad.offset..bad.offset + bad.ch.len_utf8());
            let d = self.error(
                span,
                format!("`{key}` contains the character {}", bad.describe()),
            );
            d.label = Some("not allowed in content text".into());
            d.help = Some(if bad.ch == '\t' {
                "indent with spaces: tabs are not rendered".into()
            } else {
                "only printable characters and newlines are allowed; control and invisible \
                 format characters can hide or reorder text on a terminal"
                    .into()
            });
            return None;
        }
        Some(Str::from(&**s))
    }

    /// The source span of a byte range inside a string value, or the whole value.
    pub fn inner_span(&self, v: &Val<'_>, decoded: Range<usize>) -> Range<usize> {
        let span = v.span();
        let raw = &self.src.text[span.clone()];
        match escape::raw_range(raw, decoded) {
            Some(r) => span.start + r.start..span.start + r.end,
            None => span,
        }
    }

    pub fn str_key(&mut self, t: Table<'_, '_>, key: &str, required: bool) -> Option<Str> {
        let v = self.get(t, key, required)?;
        self.string(v, key)
    }

    /// An array of strings; with `required`, it must exist and hold at least one.
    pub fn str_list(&mut self, t: Table<'_, '_>, key: &str, required: bool) -> Vec<Str> {
        self.spanned_str_list(t, key, required)
            .into_iter()
            .map(|(s, _)| s)
            .collect()
    }

    /// Like [`Self::str_list`], keeping each item's value for later span lookups.
    pub fn spanned_str_list<'t, 'i>(
        &mut self,
        t: Table<'t, 'i>,
        key: &str,
        required: bool,
    ) -> Vec<(Str, &'t Val<'i>)> {
        let Some(v) = self.get(t, key, required) else {
            return Vec::new();
        };
        let Value::Array(items) = v.get_ref() else {
            self.type_error(v, key, "an array of strings");
            return Vec::new();
        };
        if items.is_empty() && required {
            let d = self.error(v.span(), format!("`{key}` must not be empty"));
            d.label = Some("add at least one item".into());
        }
        items
            .iter()
            .filter_map(|item| self.string(item, key).map(|s| (s, item)))
            .collect()
    }

    pub fn int_key(
        &mut self,
        t: Table<'_, '_>,
        key: &str,
        required: bool,
        range: RangeInclusive<i64>,
    ) -> Option<i64> {
        let v = self.get(t, key, required)?;
        let Value::Integer(i) = v.get_ref() else {
            self.type_error(v, key, "an integer");
            return None;
        };
        match *i {
            Some(n) if range.contains(&n) => Some(n),
            _ => {
                let d = self.error(
                    v.span(),
                    format!(
                        "`{key}` is out of range: must be {} to {}",
                        range.start(),
                        range.end()
                    ),
                );
                d.label = Some("out of range".into());
                None
            }
        }
    }

    pub fn bool_key(&mut self, t: Table<'_, '_>, key: &str) -> Option<bool> {
        let v = self.get(t, key, false)?;
        match v.get_ref() {
            Value::Boolean(b) => Some(*b),
            _ => {
                self.type_error(v, key, "a boolean");
                None
            }
        }
    }

    /// An array of tables (`[[question.pitfall]]`).
    pub fn tables<'t, 'i>(
        &mut self,
        t: Table<'t, 'i>,
        key: &str,
        name: &'static str,
        required: bool,
    ) -> Vec<Table<'t, 'i>> {
        let Some(v) = self.get(t, key, required) else {
            return Vec::new();
        };
        let Value::Array(items) = v.get_ref() else {
            self.type_error(v, key, "an array of tables");
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| self.as_table(item, key, name))
            .collect()
    }

    /// One of a closed set of names; the help lists the valid ones.
    pub fn name_key<T>(
        &mut self,
        t: Table<'_, '_>,
        key: &str,
        parse: fn(&str) -> Option<T>,
        names: &[&str],
    ) -> Option<T> {
        let v = self.get(t, key, true)?;
        let s = self.string(v, key)?;
        match parse(&s) {
            Some(x) => Some(x),
            None => {
                let help = match nearest(&s, names) {
                    Some(n) => format!("did you mean `{n}`? valid values: {}", names.join(", ")),
                    None => format!("valid values: {}", names.join(", ")),
                };
                let d = self.error(v.span(), format!("invalid {key} `{s}`"));
                d.label = Some(format!("not a valid {key}"));
                d.help = Some(help);
                None
            }
        }
    }
}

/// The known name closest to a misspelt one, if it is close enough to be a typo.
pub fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(word, k), *k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// Ids are kebab-case: lowercase ASCII letters and digits joined by single dashes.
pub fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_finds_typos_only() {
        let keys = ["prompt", "level", "importance", "frequency"];
        assert_eq!(nearest("promt", &keys), Some("prompt"));
        assert_eq!(nearest("frequncy", &keys), Some("frequency"));
        assert_eq!(nearest("zzz", &keys), None);
    }

    #[test]
    fn kebab_ids() {
        assert!(is_kebab("spec-vs-status"));
        assert!(is_kebab("b2"));
        assert!(!is_kebab("Spec"));
        assert!(!is_kebab("a--b"));
        assert!(!is_kebab("-a"));
        assert!(!is_kebab("a_b"));
    }
}
