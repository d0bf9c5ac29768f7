//! What the apps/v1 Deployment's schema tells field tracking: the keyed (`listType=map`)
//! lists and their keys, the atomic `spec.selector`, and the fields the server owns or that
//! identify the object. Stands in for structured-merge-diff's `schema` package fed with the
//! Deployment's OpenAPI, and for apimachinery's `managedfields/internal/stripmeta.go`.

use serde_json::Value;

use super::fieldpath::PathElement;

/// The key fields of the keyed (`listType=map`) lists of the kinds written by hand, by
/// the field's name and, where two kinds share a name, its parent: a Service's
/// `spec.ports` is keyed by port and protocol, a container's `ports` by containerPort and
/// protocol.
pub fn list_keys(parent: &[PathElement], field: &str) -> Option<&'static [&'static str]> {
    if field == "ports" && matches!(parent, [PathElement::Field(f)] if f == "spec") {
        return Some(&["port", "protocol"]);
    }
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets" => Some(&["name"]),
        "ports" => Some(&["containerPort", "protocol"]),
        "volumeMounts" => Some(&["mountPath"]),
        "conditions" => Some(&["type"]),
        _ => None,
    }
}

/// The key of a list item, or `None` when a key field is missing (`protocol` defaults to
/// `TCP`, as the API server defaults it before tracking).
pub(super) fn item_key(item: &Value, names: &[&str]) -> Option<Vec<(String, String)>> {
    let map = item.as_object()?;
    let mut pairs: Vec<(String, String)> = names
        .iter()
        .map(|name| match map.get(*name) {
            Some(v) if !v.is_null() => Some(((*name).to_string(), v.to_string())),
            _ if *name == "protocol" => Some(((*name).to_string(), "\"TCP\"".to_string())),
            _ => None,
        })
        .collect::<Option<_>>()?;
    pairs.sort();
    Some(pairs)
}

/// Whether `item_key(item, <key's names>)` is `key`, without building it: this runs for
/// every list item on every path looked up.
pub(super) fn item_matches(item: &Value, key: &[(String, String)]) -> bool {
    let Some(map) = item.as_object() else {
        return false;
    };
    key.iter().all(|(name, json)| match map.get(name) {
        Some(v) if !v.is_null() => json_text_is(v, json),
        _ => name == "protocol" && json == "\"TCP\"",
    })
}

/// Whether `v` serialises to `text`; a string without characters JSON escapes is
/// compared in place.
fn json_text_is(v: &Value, text: &str) -> bool {
    match v {
        Value::String(s) if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) => {
            text.len() == s.len() + 2
                && text.starts_with('"')
                && text.ends_with('"')
                && text[1..text.len() - 1] == **s
        }
        _ => {
            // The serialised text, not `*v == text` (which compares a string's value).
            let json = v.to_string();
            json == text
        }
    }
}

/// Fields the server owns: never tracked, never taken from an apply configuration.
pub(super) fn server_owned(parent: &[PathElement], field: &str) -> bool {
    match parent {
        [] => field == "status",
        [PathElement::Field(m)] if m == "metadata" => matches!(
            field,
            "uid"
                | "resourceVersion"
                | "generation"
                | "creationTimestamp"
                | "managedFields"
                | "selfLink"
                | "deletionTimestamp"
                | "deletionGracePeriodSeconds"
        ),
        _ => false,
    }
}

/// Maps the schema marks `x-kubernetes-map-type: atomic`, owned and replaced whole
/// (`f:selector: {}`): a Deployment's `spec.selector`, a LabelSelector.
pub(super) fn atomic_map(parent: &[PathElement], field: &str) -> bool {
    matches!(parent, [PathElement::Field(s)] if s == "spec") && field == "selector"
}

/// Fields that identify the object: merged from a configuration but not tracked.
pub(super) fn identity_field(parent: &[PathElement], field: &str) -> bool {
    match parent {
        [] => matches!(field, "apiVersion" | "kind"),
        [PathElement::Field(m)] if m == "metadata" => matches!(field, "name" | "namespace"),
        _ => false,
    }
}

/// Where a field is, as structured-merge-diff prints a path (`.spec.template.spec
/// .containers[name="app"].foo`): list items by their key where the list is keyed, else by
/// index. `obj` is the object the path was found in.
pub fn smd_path(obj: &Value, path: &[crate::sim::schema::Step]) -> String {
    use crate::sim::schema::Step;
    let mut out = String::new();
    let mut cur = Some(obj);
    let mut field: Option<&str> = None;
    // Only whether the parent is `.spec` matters to `list_keys`.
    let mut parent: Vec<PathElement> = Vec::new();
    for (n, step) in path.iter().enumerate() {
        match step {
            Step::Key(k) => {
                out.push_str(&PathElement::Field(k.clone()).to_string());
                cur = cur.and_then(|v| v.get(k));
                field = Some(k);
                parent = match (n, path.first()) {
                    (1, Some(Step::Key(top))) => vec![PathElement::Field(top.clone())],
                    _ => Vec::new(),
                };
            }
            Step::Index(i) => {
                let item = cur.and_then(|v| v.get(i));
                let key = field
                    .and_then(|f| list_keys(&parent, f))
                    .zip(item)
                    .and_then(|(names, item)| item_key(item, names));
                match key {
                    Some(pairs) => out.push_str(&PathElement::Key(pairs).to_string()),
                    None => out.push_str(&format!("[{i}]")),
                }
                cur = item;
                field = None;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn list_items_match_their_key_as_item_key_builds_it() {
        fn names(key: &[(String, String)]) -> Vec<&str> {
            key.iter().map(|(k, _)| k.as_str()).collect()
        }
        for (item, names_of) in [
            (
                json!({"containerPort": 80}),
                vec!["containerPort", "protocol"],
            ),
            (
                json!({"containerPort": 80, "protocol": "UDP"}),
                vec!["containerPort", "protocol"],
            ),
            (json!({"type": "Ready"}), vec!["type"]),
            (json!({"type": "a\"b\\c\n"}), vec!["type"]),
            (json!({"name": "é"}), vec!["name"]),
        ] {
            let key = item_key(&item, &names_of).unwrap();
            assert_eq!(names(&key), {
                let mut n = names_of.clone();
                n.sort();
                n
            });
            assert!(item_matches(&item, &key), "{item}");
            let mut other = item.clone();
            let first = names_of[0];
            other[first] = json!("x");
            assert!(!item_matches(&other, &key), "{other}");
            assert!(!item_matches(&json!({}), &key));
        }
    }
}
