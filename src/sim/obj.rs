//! Small accessors over Kubernetes objects held as JSON values, so controllers read like
//! the Go they mirror (`rs.spec.replicas`) without a typed model for every field.

use serde_json::{Map, Value, json};

pub fn path<'a>(v: &'a Value, p: &[&str]) -> Option<&'a Value> {
    p.iter().try_fold(v, |cur, k| cur.get(k))
}

pub fn int(v: &Value, p: &[&str]) -> Option<i64> {
    path(v, p).and_then(Value::as_i64)
}

/// The version part of an object's `apiVersion` (`v1` of `example.com/v1`); none for the
/// core group's bare `v1`.
pub fn version_of(o: &Value) -> Option<&str> {
    str(o, &["apiVersion"])?.rsplit_once('/').map(|(_, v)| v)
}

/// The strings of a JSON list (none if it is not a list; other items skipped).
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

pub fn str<'a>(v: &'a Value, p: &[&str]) -> Option<&'a str> {
    path(v, p).and_then(Value::as_str)
}

pub fn name(v: &Value) -> &str {
    str(v, &["metadata", "name"]).unwrap_or("")
}

pub fn uid(v: &Value) -> &str {
    str(v, &["metadata", "uid"]).unwrap_or("")
}

pub fn is_deleting(v: &Value) -> bool {
    is_deleting_in(&v["metadata"])
}

/// An object's metadata, read entry by entry: one JSON object, or the shared entries a
/// stored object may keep it as (see `crate::sim::stored`).
pub trait Meta {
    fn entry(&self, key: &str) -> Option<&Value>;
}

impl Meta for Value {
    fn entry(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

/// [`is_deleting`] of an object's metadata.
pub fn is_deleting_in(meta: &(impl Meta + ?Sized)) -> bool {
    meta.entry("deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// Sets `p` to `value`, creating objects on the way.
pub fn set(v: &mut Value, p: &[&str], value: Value) {
    let mut cur = v;
    for (i, k) in p.iter().enumerate() {
        if !cur.is_object() {
            *cur = Value::Object(Map::new());
        }
        let map = cur.as_object_mut().expect("made an object above");
        if i + 1 == p.len() {
            map.insert((*k).to_string(), value);
            return;
        }
        cur = map.entry(k.to_string()).or_insert_with(|| json!({}));
    }
}

pub fn remove(v: &mut Value, p: &[&str]) -> Option<Value> {
    let (last, parents) = p.split_last()?;
    let mut cur = v;
    for k in parents {
        cur = cur.get_mut(k)?;
    }
    cur.as_object_mut()?.remove(*last)
}

/// `metadata.labels` as pairs.
pub fn labels(v: &Value) -> Vec<(&str, &str)> {
    label_pairs(path(v, &["metadata", "labels"]))
}

/// A string map's entries as pairs, the ones with string values.
fn label_pairs(labels: Option<&Value>) -> Vec<(&str, &str)> {
    labels
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.as_str(), s)))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether an object's labels satisfy a LabelSelector's `matchLabels` (and simple
/// `matchExpressions`).
pub fn selector_matches(selector: &Value, obj: &Value) -> bool {
    selector_matches_labels(
        selector,
        path(obj, &["metadata", "labels"]).unwrap_or(&Value::Null),
    )
}

/// [`selector_matches`] given the `metadata.labels` map itself.
pub fn selector_matches_labels(selector: &Value, labels: &Value) -> bool {
    // Looked up in the labels map directly (no list of pairs). Only string values count
    // as labels.
    let got = labels.as_object();
    let label = |k: &str| got.and_then(|m| m.get(k)).and_then(Value::as_str);
    let has = |k: &str, v: &str| label(k) == Some(v);
    let key_set = |k: &str| label(k).is_some();
    let empty = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .is_none_or(|m| m.is_empty())
        && selector
            .get("matchExpressions")
            .and_then(Value::as_array)
            .is_none_or(|a| a.is_empty());
    if empty {
        // An empty selector selects nothing for ReplicaSets (and is rejected for Deployments).
        return false;
    }
    let labels_ok = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .is_none_or(|m| m.iter().all(|(k, v)| v.as_str().is_some_and(|v| has(k, v))));
    let exprs_ok = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .is_none_or(|exprs| {
            exprs.iter().all(|e| {
                let key = e.get("key").and_then(Value::as_str).unwrap_or("");
                let values: Vec<&str> = e
                    .get("values")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                match e.get("operator").and_then(Value::as_str) {
                    Some("In") => values.iter().any(|v| has(key, v)),
                    Some("NotIn") => !values.iter().any(|v| has(key, v)),
                    Some("Exists") => key_set(key),
                    Some("DoesNotExist") => !key_set(key),
                    _ => false,
                }
            })
        });
    labels_ok && exprs_ok
}

/// A `-l` selector string (`app=web,tier!=db,env`) against an object's labels.
pub fn label_query_matches(query: &str, obj: &Value) -> bool {
    label_query_matches_labels(query, path(obj, &["metadata", "labels"]))
}

/// [`label_query_matches`] of an object's `metadata.labels`.
pub fn label_query_matches_labels(query: &str, labels: Option<&Value>) -> bool {
    let got = label_pairs(labels);
    query
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .all(|term| {
            if let Some((k, v)) = term.split_once("!=") {
                !got.iter()
                    .any(|(gk, gv)| *gk == k.trim() && *gv == v.trim())
            } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
                got.iter()
                    .any(|(gk, gv)| *gk == k.trim() && *gv == v.trim())
            } else if let Some(k) = term.strip_prefix('!') {
                !got.iter().any(|(gk, _)| *gk == k)
            } else {
                got.iter().any(|(gk, _)| *gk == term)
            }
        })
}

/// The controller ownerReference's uid, if any.
pub fn controller_uid(v: &Value) -> Option<&str> {
    controller_uid_in(&v["metadata"])
}

/// [`controller_uid`] of an object's metadata.
pub fn controller_uid_in(meta: &(impl Meta + ?Sized)) -> Option<&str> {
    meta.entry("ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))?
        .get("uid")?
        .as_str()
}

/// A JSON object of the given fields, moved in. `json!` copies every interpolated `Value`
/// through serde's serializer, which hot paths cannot afford.
pub fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// GetScaledValueFromIntOrPercent: an IntOrString (`maxSurge: 1`, `maxUnavailable: 25%`)
/// resolved against `total`, a percentage rounded up or down; `None` for a string that
/// is no percentage, which validation refuses before any controller reads it.
pub fn scaled_int_or_percent(v: &Value, total: i64, round_up: bool) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => {
            let x = s
                .strip_suffix('%')?
                .parse::<i64>()
                .ok()?
                .saturating_mul(total);
            Some(if round_up {
                x.saturating_add(99) / 100
            } else {
                x / 100
            })
        }
        _ => None,
    }
}

pub fn owner_ref(owner: &Value, kind: &str) -> Value {
    owner_ref_to(name(owner), uid(owner), kind)
}

/// The controller ownerReference to the `kind` named `name` with `uid`, at the kind's
/// group and version (metav1.NewControllerRef).
pub fn owner_ref_to(name: &str, uid: &str, kind: &str) -> Value {
    let api_version =
        crate::sim::kind::Kind::from_kind_name(kind).map_or("v1", |k| k.api_version());
    object([
        ("apiVersion", Value::from(api_version)),
        ("blockOwnerDeletion", Value::Bool(true)),
        ("controller", Value::Bool(true)),
        ("kind", Value::from(kind)),
        ("name", Value::from(name)),
        ("uid", Value::from(uid)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_or_percent_scales_up_or_down() {
        assert_eq!(scaled_int_or_percent(&json!("25%"), 10, true), Some(3));
        assert_eq!(scaled_int_or_percent(&json!("25%"), 10, false), Some(2));
        assert_eq!(scaled_int_or_percent(&json!(4), 10, false), Some(4));
        assert_eq!(scaled_int_or_percent(&json!("4"), 10, true), None);
    }

    #[test]
    fn selectors() {
        let pod = json!({"metadata": {"labels": {"app": "web", "pod-template-hash": "abc"}}});
        assert!(selector_matches(
            &json!({"matchLabels": {"app": "web"}}),
            &pod
        ));
        assert!(!selector_matches(
            &json!({"matchLabels": {"app": "db"}}),
            &pod
        ));
        assert!(!selector_matches(&json!({}), &pod));
        assert!(selector_matches(
            &json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]}),
            &pod
        ));
        assert!(label_query_matches("app=web", &pod));
        assert!(label_query_matches("app==web,pod-template-hash", &pod));
        assert!(!label_query_matches("app!=web", &pod));
        assert!(label_query_matches("!tier", &pod));
    }

    #[test]
    fn set_and_remove_make_paths() {
        let mut v = json!({});
        set(&mut v, &["spec", "replicas"], json!(3));
        assert_eq!(int(&v, &["spec", "replicas"]), Some(3));
        assert_eq!(remove(&mut v, &["spec", "replicas"]), Some(json!(3)));
        assert_eq!(v, json!({"spec": {}}));
    }
}
