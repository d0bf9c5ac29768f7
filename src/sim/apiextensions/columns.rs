//! `kubectl get` of a custom kind: the server-side table of its version's
//! additionalPrinterColumns (apiextensions-apiserver
//! `pkg/registry/customresource/tableconvertor`), printed as kubectl prints a Table.
//!
//! Without declared columns the table is NAME and AGE; with them, NAME and exactly the
//! declared columns (no AGE unless the CRD declares one). Columns with a priority other
//! than 0 show only with `-o wide`.

use serde_json::Value;

use super::crd::Column;
use crate::sim::jsonpath;
use crate::sim::output::go_number::go_g_float;
use crate::sim::table::TableOpts;
use crate::sim::time::{human_duration, parse_rfc3339, sim_unix};

/// The headers of `columns`, narrow or wide.
pub fn headers(columns: &[Column], wide: bool) -> Vec<String> {
    let mut h = vec!["NAME".to_string()];
    if columns.is_empty() {
        h.push("AGE".into());
    }
    h.extend(
        columns
            .iter()
            .filter(|c| wide || c.priority == 0)
            .map(|c| c.name.to_uppercase()),
    );
    h
}

/// One object's row.
pub fn row(columns: &[Column], obj: &Value, now: u64, wide: bool) -> Vec<String> {
    let mut cells = vec![crate::sim::obj::name(obj).to_string()];
    if columns.is_empty() {
        let created = obj
            .pointer("/metadata/creationTimestamp")
            .and_then(Value::as_str)
            .unwrap_or("");
        cells.push(date_cell(created, now));
    }
    for c in columns.iter().filter(|c| wide || c.priority == 0) {
        cells.push(cell(c, obj, now));
    }
    cells
}

/// A date cell: the age of an RFC 3339 time, computed when the table is built.
fn date_cell(s: &str, now: u64) -> String {
    match parse_rfc3339(s) {
        Some(t) => {
            let d = sim_unix(now) - t;
            if d < -1 {
                "<invalid>".into()
            } else {
                human_duration(d.max(0))
            }
        }
        None => "<invalid>".into(),
    }
}

/// The first value the column's JSONPath finds, converted as its type says; nothing found
/// (or the wrong type) is an empty cell.
fn cell(c: &Column, obj: &Value, now: u64) -> String {
    let found = jsonpath::parse(&format!("{{{}}}", c.json_path))
        .ok()
        .and_then(|jp| jp.first(obj).ok().flatten());
    let Some(v) = found else {
        return String::new();
    };
    match c.type_.as_str() {
        "integer" => match &v {
            Value::Number(n) => n
                .as_i64()
                .map(|i| i.to_string())
                .unwrap_or_else(|| (n.as_f64().unwrap_or(0.0) as i64).to_string()),
            _ => String::new(),
        },
        "number" => match &v {
            Value::Number(n) => go_g_float(n.as_f64().unwrap_or(0.0)),
            _ => String::new(),
        },
        "boolean" => match &v {
            Value::Bool(b) => b.to_string(),
            _ => String::new(),
        },
        "date" => match &v {
            Value::String(s) => date_cell(s, now),
            _ => String::new(),
        },
        _ => {
            let text = match &v {
                Value::String(s) => s.clone(),
                other => crate::sim::output::to_json_compact(other),
            };
            // printTable cuts a string cell at its first line break.
            match text.find(['\n', '\r', '\u{c}']) {
                Some(i) => format!("{}...", &text[..i]),
                None => text,
            }
        }
    }
}

/// The whole table, or empty for no objects (kubectl then says it found none).
pub fn table(
    columns: &[Column],
    kind_group: &str,
    objects: &[Value],
    now: u64,
    opts: &TableOpts,
) -> String {
    let headers = headers(columns, opts.wide);
    let refs: Vec<&str> = headers.iter().map(String::as_str).collect();
    crate::sim::table::get_table(
        &refs,
        kind_group,
        objects,
        |o| match o.lookup(&[]) {
            Some(v) => row(columns, v, now, opts.wide),
            None => Vec::new(),
        },
        opts,
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::sim::time::rfc3339;

    fn col(name: &str, type_: &str, path: &str, priority: i64) -> Column {
        Column {
            name: name.into(),
            type_: type_.into(),
            priority,
            json_path: path.into(),
        }
    }

    #[test]
    fn declared_columns_replace_age_and_convert_by_type() {
        let cols = [
            col("Replicas", "integer", ".spec.replicas", 0),
            col("Ratio", "number", ".spec.ratio", 0),
            col("Ready", "boolean", ".status.ready", 0),
            col("Missing", "string", ".status.nothing", 0),
            col("Image", "string", ".spec.image", 1),
            col("Age", "date", ".metadata.creationTimestamp", 0),
        ];
        let objs = [
            json!({"metadata": {"name": "frontend", "creationTimestamp": rfc3339(0)},
            "spec": {"replicas": 3, "ratio": 0.5, "image": "nginx"}, "status": {"ready": true}}),
        ];
        let t = table(
            &cols,
            "webapp.example.com",
            &objs,
            300,
            &TableOpts::default(),
        );
        assert_eq!(
            t,
            "NAME       REPLICAS   RATIO   READY   MISSING   AGE\nfrontend   3          0.5     true              5m\n"
        );
        let wide = TableOpts {
            wide: true,
            ..TableOpts::default()
        };
        assert!(
            table(&cols, "x", &objs, 300, &wide)
                .starts_with("NAME       REPLICAS   RATIO   READY   MISSING   IMAGE   AGE\n")
        );
    }

    #[test]
    fn no_columns_is_name_and_age() {
        let objs = [json!({"metadata": {"name": "a", "creationTimestamp": rfc3339(10)}})];
        assert_eq!(
            table(&[], "x", &objs, 70, &TableOpts::default()),
            "NAME   AGE\na      60s\n"
        );
    }
}
