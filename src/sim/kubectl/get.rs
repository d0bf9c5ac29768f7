//! `kubectl get` (kubectl pkg/cmd/get): the objects of one or several kinds, as tables
//! (`--no-headers`, `--show-labels`, `-o wide`), JSON, YAML, names or jsonpath, in name
//! order or `--sort-by` a jsonpath as sorter.go sorts them.

use std::sync::Arc;

use serde_json::Value;

use super::args::{GetPrint, Output};
use super::cmdutil::{Outcome, hide_managed_fields};
use crate::sim::api::ApiError;
use crate::sim::apiextensions::columns;
use crate::sim::cluster::Cluster;
use crate::sim::jsonpath::{self, JsonPath};
use crate::sim::kind::Kind;
use crate::sim::kinds::get_table;
use crate::sim::obj;
use crate::sim::output::{list_wrapper, to_json, to_yaml};
use crate::sim::quantity;
use crate::sim::stored::Stored;
use crate::sim::table::TableOpts;

pub fn get(
    cluster: &Cluster,
    kinds: &[Kind],
    names: &[String],
    selector: Option<&str>,
    namespace: &str,
    print: &GetPrint,
) -> Outcome {
    let output = &print.output;
    let (show_managed, show_labels) = (print.show_managed_fields, print.show_labels);
    let mut o = Outcome::default();
    let now = cluster.now();
    // The stored objects themselves: a table reads them in place, and only the outputs that
    // print whole objects build their JSON, one listing's worth, not kept.
    let mut found: Vec<(Kind, Vec<Arc<Stored>>)> = Vec::new();
    for kind in kinds {
        // A cluster-scoped kind is in no namespace, so `-n` does not narrow it.
        let here = |x: &Arc<Stored>| {
            crate::sim::kinds::in_namespace(
                *kind,
                x.meta("namespace").and_then(Value::as_str),
                namespace,
            )
        };
        let mut objs = Vec::new();
        if names.is_empty() {
            objs = cluster
                .api
                .list_shared(*kind)
                .filter(|x| {
                    here(x)
                        && selector
                            .is_none_or(|s| obj::label_query_matches_labels(s, x.meta("labels")))
                })
                .cloned()
                .collect();
        } else {
            for n in names {
                match cluster.api.get_shared(*kind, n).ok().filter(|x| here(x)) {
                    Some(x) => objs.push(x),
                    None => o = o.api(&ApiError::not_found(*kind, n), None),
                }
            }
        }
        found.push((*kind, objs));
    }
    if let Some(field) = &print.sort_by {
        let table = matches!(output, Output::Table | Output::Wide);
        match sort_found(&mut found, field, table) {
            Ok(()) => {}
            // get.go ignores what the sorting printer returns: nothing is printed, so
            // kubectl says it found nothing, and succeeds.
            Err(SortError::Ignored) => {
                return o.err(format!("No resources found in {namespace} namespace.\n"));
            }
            Err(SortError::Fatal(e)) => return o.err(format!("error: {e}\n")),
        }
    }
    let whole = matches!(output, Output::Json | Output::Yaml | Output::JsonPath(_));
    // A custom object is read at the version kubectl asks for (the preferred one); one
    // the converter cannot read fails the whole request.
    for (k, objs) in found.iter().filter(|(k, _)| matches!(k, Kind::Custom(_))) {
        if let Some(e) = objs
            .iter()
            .find_map(|s| cluster.api.read_custom(*k, s.value()).err())
        {
            return o.api(&e, None);
        }
    }
    let read = |k: Kind, s: &Arc<Stored>| match k {
        Kind::Custom(_) => cluster
            .api
            .read_custom(k, &s.to_value())
            .unwrap_or_else(|_| s.to_value()),
        _ => s.to_value(),
    };
    let all: Vec<Value> = match whole {
        true => found
            .iter()
            .flat_map(|(k, v)| v.iter().map(move |s| read(*k, s)))
            .collect(),
        false => Vec::new(),
    };
    let none_found = found.iter().all(|(_, v)| v.is_empty());
    let single = names.len() == 1 && kinds.len() == 1;
    let strip = |v: Value| {
        if show_managed {
            v
        } else {
            hide_managed_fields(v)
        }
    };
    match output {
        Output::Table | Output::Wide => {
            let opts = TableOpts {
                wide: *output == Output::Wide,
                show_kind_prefix: kinds.len() > 1,
                show_labels,
                no_headers: print.no_headers,
            };
            let tables: Vec<String> = found
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| match cluster.api.definition(*k) {
                    // The server builds a custom kind's table from its CRD's columns.
                    Some(d) => {
                        let columns = d.preferred().map(|v| v.columns.clone()).unwrap_or_default();
                        let objs: Vec<Value> = v.iter().map(|s| read(*k, s)).collect();
                        columns::table(&columns, k.kind_group(), &objs, now, &opts)
                    }
                    None => get_table(*k, v, now, &opts),
                })
                .collect();
            // A blank line between kinds comes with their headers (separatorWriterWrapper).
            o = o.out(tables.join(if print.no_headers { "" } else { "\n" }));
            if none_found && names.is_empty() {
                // get.go names the namespace only when every type asked for is namespaced.
                let namespaced = kinds
                    .iter()
                    .all(|k| crate::sim::kinds::of(*k).namespace().is_some());
                o.stderr.push_str(&if namespaced {
                    format!("No resources found in {namespace} namespace.\n")
                } else {
                    "No resources found\n".to_string()
                });
            }
        }
        Output::Json | Output::Yaml => {
            if all.is_empty() && !single {
                if names.is_empty() {
                    let wrapped = list_wrapper(Vec::new());
                    o = o.out(if *output == Output::Json {
                        to_json(&wrapped)
                    } else {
                        to_yaml(&wrapped)
                    });
                }
            } else if !all.is_empty() {
                let v = if single {
                    strip(all[0].clone())
                } else {
                    list_wrapper(all.into_iter().map(strip).collect())
                };
                o = o.out(if *output == Output::Json {
                    to_json(&v)
                } else {
                    to_yaml(&v)
                });
            }
        }
        Output::Name => {
            for (k, v) in &found {
                for x in v {
                    o = o.out(format!("{}/{}\n", k.kind_group(), x.name()));
                }
            }
        }
        Output::JsonPath(t) => match jsonpath::parse(t) {
            Err(e) => return Outcome::default().err(format!("error: {e}\n")),
            Ok(jp) => {
                if !all.is_empty() || names.is_empty() {
                    let v = if single {
                        all[0].clone()
                    } else {
                        list_wrapper(all)
                    };
                    match jp.execute(&v) {
                        Ok(s) => o = o.out(s),
                        Err(e) => o = o.err(format!("error: {e}\n")),
                    }
                }
            }
        },
    }
    o
}

enum SortError {
    /// kubectl's sorting printer failed, and get.go drops its error.
    Ignored,
    /// kubectl stops with this error.
    Fatal(String),
}

/// `RelaxedJSONPathExpression` (customcolumn.go): `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all
/// become `{.a.b}`; anything else is used as given.
pub fn relaxed(path: &str) -> String {
    let inner = path
        .strip_prefix('{')
        .and_then(|p| p.strip_suffix('}'))
        .unwrap_or(path);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    let braced = path.starts_with('{') && path.ends_with('}');
    let plain = !path.contains(['{', '}']);
    if !path.is_empty() && !inner.is_empty() && !inner.contains(['{', '}']) && (braced || plain) {
        format!("{{.{inner}}}")
    } else {
        path.to_string()
    }
}

/// Sorts each kind's objects by `field`. Tables sort one kind at a time (SortingPrinter
/// over TableSorter); several kinds are several Table objects, which the runtime sorter
/// cannot read a field from.
fn sort_found(
    found: &mut [(Kind, Vec<Arc<Stored>>)],
    field: &str,
    table: bool,
) -> Result<(), SortError> {
    let path = relaxed(field);
    if table && found.len() > 1 {
        return Err(SortError::Fatal(format!(
            "couldn't find any field with path {path:?} in the list of objects"
        )));
    }
    let jp = jsonpath::parse(&path).map_err(|_| SortError::Ignored)?;
    for (_, objs) in found.iter_mut() {
        // A table of one row is printed as it is.
        if objs.len() > 1 {
            sort_objects(objs, &jp, &path)?;
        }
    }
    Ok(())
}

/// TableSorter: each row's first value at the path; rows without one sort first.
fn sort_objects(objs: &mut Vec<Arc<Stored>>, jp: &JsonPath, path: &str) -> Result<(), SortError> {
    let mut keyed: Vec<(Option<Value>, Arc<Stored>)> = Vec::with_capacity(objs.len());
    for o in objs.drain(..) {
        let v = jp.first(&o.to_value()).map_err(|_| SortError::Ignored)?;
        keyed.push((v, o));
    }
    if keyed.iter().all(|(v, _)| v.is_none()) {
        return Err(SortError::Ignored);
    }
    let mut unsortable = None;
    let mut less = |a: &Option<Value>, b: &Option<Value>| match (a, b) {
        // sorter.go's Less: a row without the field is less than any row, even another
        // without it.
        (None, _) => true,
        (_, None) => false,
        (Some(a), Some(b)) => is_less(a, b).unwrap_or_else(|e| {
            unsortable.get_or_insert(e);
            false
        }),
    };
    if keyed.len() <= 12 {
        // Go's sort.Sort is an insertion sort up to 12 elements: this order, ties and
        // missing values included, is kubectl's.
        for i in 1..keyed.len() {
            let mut j = i;
            while j > 0 && less(&keyed[j].0, &keyed[j - 1].0) {
                keyed.swap(j, j - 1);
                j -= 1;
            }
        }
    } else {
        // Beyond that Go's pdqsort leaves ties in no set order; a stable sort keeps name
        // order among them.
        keyed.sort_by(|a, b| {
            if less(&a.0, &b.0) {
                std::cmp::Ordering::Less
            } else if less(&b.0, &a.0) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
    }
    if let Some(e) = unsortable {
        // kubectl exits through klog (with its log header) here.
        return Err(SortError::Fatal(format!(
            "Field {path} in [][][]reflect.Value is an unsortable type: interface, err: {e}"
        )));
    }
    objs.extend(keyed.into_iter().map(|(_, o)| o));
    Ok(())
}

/// sorter.go `isLess` for decoded JSON: integers as int64, other numbers as float64,
/// strings as quantities when both parse as one, else byte by byte; null first.
fn is_less(a: &Value, b: &Value) -> Result<bool, String> {
    match (a, b) {
        (Value::Null, Value::Null) => Ok(false),
        (Value::Null, _) => Ok(true),
        (_, Value::Null) => Ok(false),
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.is_f64(), y.is_f64()) {
                (Some(x), Some(y), _, _) => Ok(x < y),
                (_, _, true, true) => Ok(x.as_f64() < y.as_f64()),
                _ => Err("unsortable interface: interface".into()),
            }
        }
        (Value::String(x), Value::String(y)) => match (quantity::parse(x), quantity::parse(y)) {
            (Ok(qx), Ok(qy)) => Ok(qx.nanos() < qy.nanos()),
            _ => Ok(x < y),
        },
        (Value::Bool(_), _) => Err("unsortable type: bool".into()),
        (Value::Array(_), _) => Err("unsortable type: []interface {}".into()),
        (Value::Object(_), _) => Err("unsortable type: map[string]interface {}".into()),
        _ => Err("unsortable interface: interface".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_paths_as_kubectl_reads_them() {
        for p in [".a.b", "a.b", "{a.b}", "{.a.b}"] {
            assert_eq!(relaxed(p), "{.a.b}", "{p}");
        }
        assert_eq!(relaxed("{.a}{.b}"), "{.a}{.b}");
        assert_eq!(relaxed(""), "");
    }

    #[test]
    fn less_compares_numbers_quantities_and_strings() {
        use serde_json::json;
        assert_eq!(is_less(&json!(2), &json!(10)), Ok(true));
        assert_eq!(is_less(&json!("10"), &json!("9")), Ok(false), "quantities");
        assert_eq!(is_less(&json!("100m"), &json!("1")), Ok(true));
        assert_eq!(is_less(&json!("b"), &json!("ab")), Ok(false));
        assert!(is_less(&json!(true), &json!(false)).is_err());
    }
}
