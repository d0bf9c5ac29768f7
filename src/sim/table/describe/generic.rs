//! kubectl's generic describer (describe.go `genericDescriber`, `printUnstructuredContent`,
//! `smartLabelFor`), used for the kinds kubectl has no describer of its own for: the
//! admission webhook configurations. Every field but the ones printed above or skipped,
//! in sorted key order, nested two spaces a level, list items one after another.

use serde_json::{Map, Value};

use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline};
use crate::sim::table::fields::{sorted_pairs, str_at};

const SKIP: [&str; 5] = [
    ".metadata.managedFields",
    ".metadata.name",
    ".metadata.namespace",
    ".metadata.labels",
    ".metadata.annotations",
];

/// `kubectl describe` of `obj` by the generic describer; `kind` names it in the events'
/// search.
pub fn describe_generic(obj: &Value, kind: &str, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(obj, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(obj, &["metadata", "namespace"]));
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(obj, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", obj, &["metadata", "annotations"]);
    if let Some(m) = obj.as_object() {
        content(&mut w, 0, m, "");
    }
    describe_events(&mut w, obj, Some(kind), events, now);
    TabWriter::DESCRIBE.format(&w)
}

fn content(w: &mut String, level: usize, map: &Map<String, Value>, prefix: &str) {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort();
    let indent = "  ".repeat(level);
    for key in keys {
        let path = format!("{prefix}.{key}");
        if SKIP.contains(&path.as_str()) {
            continue;
        }
        let label = smart_label(key);
        match &map[key.as_str()] {
            Value::Object(m) => {
                *w += &format!("{indent}{label}:\n");
                content(w, level + 1, m, &path);
            }
            Value::Array(items) => {
                *w += &format!("{indent}{label}:\n");
                for item in items {
                    match item {
                        Value::Object(m) => content(w, level + 1, m, &path),
                        v => *w += &format!("{indent}  {}\n", go_value(v)),
                    }
                }
            }
            v => *w += &format!("{indent}{label}:\t{}\n", go_value(v)),
        }
    }
}

/// `%v` of a decoded JSON scalar.
fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        v => v.to_string(),
    }
}

/// smartLabelFor: `apiVersion` -> `API Version`; a key with anything but letters and `-`
/// is printed as it is.
pub fn smart_label(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    camel_split(field)
        .into_iter()
        .filter(|p| p != "_")
        .map(|p| {
            let upper = p.to_uppercase();
            if ["API", "URL", "UID", "OSB", "GUID"].contains(&upper.as_str()) {
                upper
            } else {
                title(&p)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// strings.Title: the first letter of each word upper-cased (`-` separates words).
fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    for c in s.chars() {
        if start && c.is_alphabetic() {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        start = !c.is_alphanumeric() && c != '_';
    }
    out
}

/// github.com/fatih/camelcase Split: runs of one character class, an upper-case run
/// followed by lower case giving its last letter to the next word (`HTTPServer` ->
/// `HTTP`, `Server`).
fn camel_split(s: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in s.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(r) if k == last => r.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper_then_lower = runs[i].last().is_some_and(|c| c.is_uppercase())
            && runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper_then_lower && let Some(c) = runs[i].pop() {
            runs[i + 1].insert(0, c);
        }
    }
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| r.into_iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_split_camel_case_and_keep_acronyms() {
        for (field, label) in [
            ("apiVersion", "API Version"),
            ("creationTimestamp", "Creation Timestamp"),
            ("uid", "UID"),
            ("admissionReviewVersions", "Admission Review Versions"),
            ("caBundle", "Ca Bundle"),
            ("url", "URL"),
            ("HTTPServer", "HTTP Server"),
            ("v1", "v1"),
        ] {
            assert_eq!(smart_label(field), label, "{field}");
        }
    }
}
