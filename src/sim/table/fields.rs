//! Reading Kubernetes JSON the way Go's typed structs default: a missing field is its zero.

use crate::sim::time;
use serde_json::Value;

/// Something a printer reads fields from by path: a JSON value, or a stored object read
/// in place (see `table::stored`), so a table of 10,000 pods builds no pod's JSON.
pub trait Lookup {
    fn lookup(&self, path: &[&str]) -> Option<&Value>;
}

impl Lookup for Value {
    fn lookup(&self, path: &[&str]) -> Option<&Value> {
        path.iter().try_fold(self, |cur, key| cur.get(key))
    }
}

impl<T: Lookup + ?Sized> Lookup for &T {
    fn lookup(&self, path: &[&str]) -> Option<&Value> {
        (**self).lookup(path)
    }
}

impl<T: Lookup + ?Sized> Lookup for std::sync::Arc<T> {
    fn lookup(&self, path: &[&str]) -> Option<&Value> {
        (**self).lookup(path)
    }
}

pub fn at<'a, T: Lookup + ?Sized>(v: &'a T, path: &[&str]) -> Option<&'a Value> {
    v.lookup(path)
}

pub fn str_at<'a, T: Lookup + ?Sized>(v: &'a T, path: &[&str]) -> &'a str {
    at(v, path).and_then(Value::as_str).unwrap_or("")
}

pub fn int_at<T: Lookup + ?Sized>(v: &T, path: &[&str]) -> i64 {
    at(v, path).and_then(Value::as_i64).unwrap_or(0)
}

pub fn bool_at<T: Lookup + ?Sized>(v: &T, path: &[&str]) -> bool {
    at(v, path).and_then(Value::as_bool).unwrap_or(false)
}

pub fn array_at<'a, T: Lookup + ?Sized>(v: &'a T, path: &[&str]) -> &'a [Value] {
    at(v, path)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `k=v` pairs of a string map, sorted by key.
pub fn sorted_pairs<T: Lookup + ?Sized>(v: &T, path: &[&str]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = at(v, path)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
    pairs.sort();
    pairs
}

/// `--show-labels` cell: `k=v,k2=v2` or `<none>`.
pub fn labels_cell<T: Lookup + ?Sized>(obj: &T) -> String {
    let pairs = sorted_pairs(obj, &["metadata", "labels"]);
    if pairs.is_empty() {
        return "<none>".to_string();
    }
    join_pairs(&pairs)
}

pub fn join_pairs(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// `LabelSelectorAsSelector(sel).String()`: requirements sorted by key, `""` when empty.
pub fn selector_string(selector: Option<&Value>) -> String {
    let Some(sel) = selector else {
        return String::new();
    };
    let mut reqs: Vec<(String, String)> = sorted_pairs(sel, &["matchLabels"])
        .into_iter()
        .map(|(k, v)| (k.clone(), format!("{k}={v}")))
        .collect();
    for expr in array_at(sel, &["matchExpressions"]) {
        let key = str_at(expr, &["key"]).to_string();
        let mut values: Vec<&str> = array_at(expr, &["values"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        values.sort_unstable();
        let text = match str_at(expr, &["operator"]) {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.clone(),
            "DoesNotExist" => format!("!{key}"),
            _ => continue,
        };
        reqs.push((key, text));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

/// `translateTimestampSince`: HumanDuration since the timestamp, `<unknown>` when unset.
pub fn since<T: Lookup + ?Sized>(v: &T, path: &[&str], now: u64) -> String {
    match str_at(v, path) {
        "" => "<unknown>".to_string(),
        ts => time::age(ts, now),
    }
}

/// kubectl's table cell cleaning: cut at the first line break (adding `...`), show ESC as `^[`.
pub fn clean_cell(s: &str) -> String {
    let (head, cut) = match s.find(['\n', '\r', '\u{c}']) {
        Some(i) => (&s[..i], true),
        None => (s, false),
    };
    let mut out = head.replace('\u{1b}', "^[");
    if cut {
        out.push_str("...");
    }
    out
}
