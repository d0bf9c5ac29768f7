//! Patch algebra on Kubernetes objects held as `serde_json::Value`: JSON merge patch
//! (RFC 7386), JSON patch (RFC 6902), strategic merge patch for an apps/v1 Deployment, and the
//! three-way patch kubectl's client-side apply sends (section F3 of the semantics reference).
//!
//! Pure functions: nothing here mutates its inputs.

use serde_json::{Map, Value};
use thiserror::Error;

/// Why a JSON patch (RFC 6902) could not be applied. Any error leaves the target untouched.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatchError {
    #[error("json patch must be an array of operations")]
    NotAnArray,
    #[error("operation {index}: {reason}")]
    InvalidOperation { index: usize, reason: String },
    #[error("operation {index}: invalid JSON pointer {pointer:?}")]
    InvalidPointer { index: usize, pointer: String },
    #[error("operation {index}: path {pointer:?} does not exist")]
    PathNotFound { index: usize, pointer: String },
    #[error("operation {index}: test failed at {pointer:?}")]
    TestFailed { index: usize, pointer: String },
}

// ---------------------------------------------------------------------------------------------
// RFC 7386 JSON merge patch

/// Applies an RFC 7386 merge patch: objects merge recursively, `null` deletes, anything else
/// (arrays included) replaces.
pub fn merge_patch(target: &Value, patch: &Value) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    for (key, value) in patch {
        if value.is_null() {
            out.remove(key);
        } else {
            let merged = merge_patch(out.get(key).unwrap_or(&Value::Null), value);
            out.insert(key.clone(), merged);
        }
    }
    Value::Object(out)
}

// ---------------------------------------------------------------------------------------------
// RFC 6902 JSON patch

/// Splits an RFC 6901 JSON pointer into unescaped reference tokens. `""` is the whole document.
fn parse_pointer(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut out = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => return None,
                    }
                } else {
                    out.push(c);
                }
            }
            Some(out)
        })
        .collect()
}

/// An array index token: decimal digits without a leading zero (RFC 6901 section 4).
fn parse_index(token: &str) -> Option<usize> {
    if token.is_empty()
        || !token.bytes().all(|b| b.is_ascii_digit())
        || (token.len() > 1 && token.starts_with('0'))
    {
        return None;
    }
    token.parse().ok()
}

fn get<'a>(doc: &'a Value, tokens: &[String]) -> Option<&'a Value> {
    tokens.iter().try_fold(doc, |node, token| match node {
        Value::Object(map) => map.get(token),
        Value::Array(items) => parse_index(token).and_then(|i| items.get(i)),
        _ => None,
    })
}

fn get_mut<'a>(doc: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    tokens.iter().try_fold(doc, |node, token| match node {
        Value::Object(map) => map.get_mut(token),
        Value::Array(items) => parse_index(token).and_then(move |i| items.get_mut(i)),
        _ => None,
    })
}

/// RFC 6902 `add`: `None` when the parent is missing or the index is out of range.
fn add(doc: &mut Value, tokens: &[String], value: Value) -> Option<()> {
    let Some((last, parent)) = tokens.split_last() else {
        *doc = value;
        return Some(());
    };
    match get_mut(doc, parent)? {
        Value::Object(map) => {
            map.insert(last.clone(), value);
            Some(())
        }
        Value::Array(items) => {
            let index = if last == "-" {
                items.len()
            } else {
                parse_index(last)?
            };
            if index > items.len() {
                return None;
            }
            items.insert(index, value);
            Some(())
        }
        _ => None,
    }
}

/// RFC 6902 `remove`, returning the removed value.
fn remove(doc: &mut Value, tokens: &[String]) -> Option<Value> {
    let (last, parent) = tokens.split_last()?;
    match get_mut(doc, parent)? {
        Value::Object(map) => map.remove(last),
        Value::Array(items) => {
            let index = parse_index(last)?;
            (index < items.len()).then(|| items.remove(index))
        }
        _ => None,
    }
}

/// Applies an RFC 6902 JSON patch (`add`, `remove`, `replace`, `move`, `copy`, `test`).
/// The operations apply in order and atomically: on any error the result is an error and no
/// partial document escapes.
pub fn json_patch(target: &Value, ops: &Value) -> Result<Value, PatchError> {
    let Value::Array(ops) = ops else {
        return Err(PatchError::NotAnArray);
    };
    let mut doc = target.clone();
    for (index, op) in ops.iter().enumerate() {
        apply_op(&mut doc, index, op)?;
    }
    Ok(doc)
}

fn apply_op(doc: &mut Value, index: usize, op: &Value) -> Result<(), PatchError> {
    let invalid = |reason: &str| PatchError::InvalidOperation {
        index,
        reason: reason.to_string(),
    };
    let Value::Object(op) = op else {
        return Err(invalid("operation must be an object"));
    };
    let name = op
        .get("op")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("missing \"op\""))?;
    let pointer_field = |field: &str| -> Result<(String, Vec<String>), PatchError> {
        let raw = op
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(&format!("missing \"{field}\"")))?;
        let tokens = parse_pointer(raw).ok_or_else(|| PatchError::InvalidPointer {
            index,
            pointer: raw.to_string(),
        })?;
        Ok((raw.to_string(), tokens))
    };
    let value_field = || {
        op.get("value")
            .cloned()
            .ok_or_else(|| invalid("missing \"value\""))
    };
    let not_found = |pointer: &str| PatchError::PathNotFound {
        index,
        pointer: pointer.to_string(),
    };
    let (path_raw, path) = pointer_field("path")?;
    match name {
        "add" => add(doc, &path, value_field()?).ok_or_else(|| not_found(&path_raw)),
        "remove" => {
            if path.is_empty() {
                return Err(invalid("cannot remove the whole document"));
            }
            remove(doc, &path)
                .map(|_| ())
                .ok_or_else(|| not_found(&path_raw))
        }
        "replace" => {
            let value = value_field()?;
            let slot = get_mut(doc, &path).ok_or_else(|| not_found(&path_raw))?;
            *slot = value;
            Ok(())
        }
        "move" => {
            let (from_raw, from) = pointer_field("from")?;
            if path.len() > from.len() && path.starts_with(&from) {
                return Err(invalid("\"from\" is a proper prefix of \"path\""));
            }
            if from.is_empty() {
                return Err(invalid("cannot move the whole document"));
            }
            let value = remove(doc, &from).ok_or_else(|| not_found(&from_raw))?;
            add(doc, &path, value).ok_or_else(|| not_found(&path_raw))
        }
        "copy" => {
            let (from_raw, from) = pointer_field("from")?;
            let value = get(doc, &from)
                .cloned()
                .ok_or_else(|| not_found(&from_raw))?;
            add(doc, &path, value).ok_or_else(|| not_found(&path_raw))
        }
        "test" => {
            let expected = value_field()?;
            match get(doc, &path) {
                Some(actual) if *actual == expected => Ok(()),
                _ => Err(PatchError::TestFailed {
                    index,
                    pointer: path_raw,
                }),
            }
        }
        other => Err(invalid(&format!("unknown op {other:?}"))),
    }
}

// ---------------------------------------------------------------------------------------------
// Strategic merge patch (apps/v1 Deployment)

/// The merge key of a list field that strategic merge patch merges by key, as the
/// `patchMergeKey` tags of the Kubernetes core/apps types say. Lists not named here are
/// replaced whole.
pub fn strategic_list_key(field: &str) -> Option<&'static str> {
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets" => Some("name"),
        "volumeMounts" => Some("mountPath"),
        "ports" => Some("containerPort"),
        "conditions" => Some("type"),
        _ => None,
    }
}

const PATCH_DIRECTIVE: &str = "$patch";
const RETAIN_KEYS_DIRECTIVE: &str = "$retainKeys";

/// Applies a strategic merge patch to a Deployment: objects merge, `null` deletes, lists named
/// by [`strategic_list_key`] merge item by item on their key (an item `{"$patch": "delete",
/// <key>: ...}` removes that item), other lists are replaced. An object carrying
/// `"$patch": "replace"` replaces the target object whole.
pub fn strategic_merge_patch(target: &Value, patch: &Value) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    if patch.get(PATCH_DIRECTIVE).and_then(Value::as_str) == Some("replace") {
        return strategic_merge_patch(&Value::Null, &Value::Object(without_directives(patch)));
    }
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    if let Some(Value::Array(retain)) = patch.get(RETAIN_KEYS_DIRECTIVE) {
        out.retain(|k, _| retain.iter().any(|r| r.as_str() == Some(k)));
    }
    for (key, value) in patch {
        if key.starts_with('$') {
            continue;
        }
        match value {
            Value::Null => {
                out.remove(key);
            }
            Value::Array(items) => {
                let merged = match strategic_list_key(key) {
                    Some(merge_key) => {
                        let current = match out.get(key) {
                            Some(Value::Array(current)) => current.as_slice(),
                            _ => &[],
                        };
                        Value::Array(merge_keyed_list(current, items, merge_key))
                    }
                    None => value.clone(),
                };
                out.insert(key.clone(), merged);
            }
            Value::Object(_) => {
                let merged = strategic_merge_patch(out.get(key).unwrap_or(&Value::Null), value);
                out.insert(key.clone(), merged);
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

fn without_directives(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .filter(|(k, _)| !k.starts_with('$'))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Existing items keep their place; patch items with a new key are appended in patch order.
fn merge_keyed_list(current: &[Value], patch: &[Value], merge_key: &str) -> Vec<Value> {
    let mut out = current.to_vec();
    for item in patch {
        let Some(key) = item.get(merge_key).filter(|k| !k.is_null()) else {
            out.push(item.clone());
            continue;
        };
        let position = out.iter().position(|c| c.get(merge_key) == Some(key));
        if item.get(PATCH_DIRECTIVE).and_then(Value::as_str) == Some("delete") {
            out.retain(|c| c.get(merge_key) != Some(key));
            continue;
        }
        match position {
            Some(i) => out[i] = strategic_merge_patch(&out[i], item),
            None => out.push(strategic_merge_patch(&Value::Null, item)),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Three-way patch (kubectl client-side apply)

/// The annotation in which client-side apply keeps the last applied manifest.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The strategic merge patch `kubectl apply` (client side) sends, computed from the last
/// applied configuration (`None` when the object has no annotation), the new configuration and
/// the live object, as kubectl's `CreateThreeWayMergePatch` does:
///
/// * fields in `last_applied` but absent from `config` become `null` (deleted); keyed list
///   items dropped from `config` become `{"$patch": "delete", <key>: ...}`;
/// * fields of `config` whose value differs from `live` are set (keyed lists item by item,
///   other lists whole);
/// * fields in neither `last_applied` nor `config` are left alone.
///
/// An unchanged apply yields `{}` (kubectl prints `unchanged`). kubectl also puts the new
/// annotation into `config` before diffing; [`with_last_applied`] does that. The patch omits
/// kubectl's `$setElementOrder` directives.
pub fn three_way_patch(last_applied: Option<&Value>, config: &Value, live: &Value) -> Value {
    let deletions = match last_applied {
        Some(original) => diff_deletions(original, config),
        None => Map::new(),
    };
    let delta = diff_delta(live, config);
    Value::Object(combine_patches(deletions, delta))
}

/// `config` with the last-applied annotation set to `config` itself (serialized without the
/// annotation), as kubectl writes it on every client-side apply.
pub fn with_last_applied(config: &Value) -> Value {
    let mut out = config.clone();
    let Value::Object(root) = &mut out else {
        return out;
    };
    let metadata = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    let Value::Object(metadata) = metadata else {
        return out;
    };
    let annotations = metadata
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    if let Value::Object(annotations) = annotations {
        annotations.remove(LAST_APPLIED_ANNOTATION);
    }
    // kubectl serializes the object with an (empty) annotations map but without its own
    // annotation, which is why real annotations read `"metadata":{"annotations":{},...`.
    // runtime.Encode writes with json.Encoder, which ends the text with a newline.
    let serialized = format!("{out}\n");
    if let Some(annotations) = out
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut)
    {
        annotations.insert(
            LAST_APPLIED_ANNOTATION.to_string(),
            Value::String(serialized),
        );
    }
    out
}

/// Fields of `original` that `modified` no longer has (changes and additions ignored).
fn diff_deletions(original: &Value, modified: &Value) -> Map<String, Value> {
    let mut patch = Map::new();
    let (Value::Object(original), Value::Object(modified)) = (original, modified) else {
        return patch;
    };
    for (key, old) in original {
        let Some(new) = modified.get(key) else {
            patch.insert(key.clone(), Value::Null);
            continue;
        };
        match (old, new) {
            (Value::Object(_), Value::Object(_)) => {
                let sub = diff_deletions(old, new);
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Array(old_items), Value::Array(new_items)) => {
                if let Some(merge_key) = strategic_list_key(key) {
                    let items = keyed_list_deletions(old_items, new_items, merge_key);
                    if !items.is_empty() {
                        patch.insert(key.clone(), Value::Array(items));
                    }
                }
            }
            _ => {}
        }
    }
    patch
}

fn keyed_list_deletions(original: &[Value], modified: &[Value], merge_key: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for old in original {
        let Some(key) = old.get(merge_key) else {
            continue;
        };
        match modified.iter().find(|m| m.get(merge_key) == Some(key)) {
            None => {
                let mut directive = Map::new();
                directive.insert(PATCH_DIRECTIVE.to_string(), Value::from("delete"));
                directive.insert(merge_key.to_string(), key.clone());
                out.push(Value::Object(directive));
            }
            Some(new) => {
                let mut sub = diff_deletions(old, new);
                if !sub.is_empty() {
                    sub.insert(merge_key.to_string(), key.clone());
                    out.push(Value::Object(sub));
                }
            }
        }
    }
    out
}

/// Fields of `modified` that differ from `current` (deletions ignored). An explicit `null` in
/// `modified` is always sent.
fn diff_delta(current: &Value, modified: &Value) -> Map<String, Value> {
    let mut patch = Map::new();
    let Value::Object(modified) = modified else {
        return patch;
    };
    let empty = Map::new();
    let current = current.as_object().unwrap_or(&empty);
    for (key, new) in modified {
        let Some(old) = current.get(key) else {
            // kubectl sends an explicit null even when the field is already absent, so such
            // an apply is never "unchanged".
            patch.insert(key.clone(), new.clone());
            continue;
        };
        match (old, new, strategic_list_key(key)) {
            (Value::Object(_), Value::Object(_), _) => {
                let sub = diff_delta(old, new);
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Array(old_items), Value::Array(new_items), Some(merge_key)) => {
                match keyed_list_delta(old_items, new_items, merge_key) {
                    Some(items) if items.is_empty() => {}
                    Some(items) => {
                        patch.insert(key.clone(), Value::Array(items));
                    }
                    None => {
                        patch.insert(key.clone(), new.clone());
                    }
                }
            }
            _ if old != new => {
                patch.insert(key.clone(), new.clone());
            }
            _ => {}
        }
    }
    patch
}

/// The changed or new items of a keyed list; `None` when an item lacks its key, in which case
/// the caller replaces the list.
fn keyed_list_delta(current: &[Value], modified: &[Value], merge_key: &str) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    for new in modified {
        let key = new.get(merge_key).filter(|k| !k.is_null())?;
        match current.iter().find(|c| c.get(merge_key) == Some(key)) {
            None => out.push(new.clone()),
            Some(old) => {
                let mut sub = diff_delta(old, new);
                if !sub.is_empty() {
                    sub.insert(merge_key.to_string(), key.clone());
                    out.push(Value::Object(sub));
                }
            }
        }
    }
    Some(out)
}

/// Lays the delta over the deletions, merging nested objects and keyed list items.
fn combine_patches(mut base: Map<String, Value>, over: Map<String, Value>) -> Map<String, Value> {
    for (key, value) in over {
        let merged = match (base.remove(&key), value, strategic_list_key(&key)) {
            (Some(Value::Object(b)), Value::Object(o), _) => Value::Object(combine_patches(b, o)),
            (Some(Value::Array(b)), Value::Array(o), Some(merge_key)) => {
                let mut items = b;
                for item in o {
                    let position = item.get(merge_key).and_then(|k| {
                        items
                            .iter()
                            .position(|existing| existing.get(merge_key) == Some(k))
                    });
                    match (position, item) {
                        (Some(i), Value::Object(o)) => {
                            if let Value::Object(b) = items.remove(i) {
                                items.insert(i, Value::Object(combine_patches(b, o)));
                            } else {
                                items.insert(i, Value::Object(o));
                            }
                        }
                        (_, item) => items.push(item),
                    }
                }
                Value::Array(items)
            }
            (_, value, _) => value,
        };
        base.insert(key, merged);
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // RFC 7386 appendix A.
    #[test]
    fn merge_patch_rfc7386_examples() {
        let cases = [
            (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
            (json!({"a":"b"}), json!({"a":null}), json!({})),
            (
                json!({"a":"b","b":"c"}),
                json!({"a":null}),
                json!({"b":"c"}),
            ),
            (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
            (
                json!({"a":{"b":"c"}}),
                json!({"a":{"b":"d","c":null}}),
                json!({"a":{"b":"d"}}),
            ),
            (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a":"b"}), json!(["c"]), json!(["c"])),
            (json!({"a":"foo"}), json!(null), json!(null)),
            (json!({"a":"foo"}), json!("bar"), json!("bar")),
            (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
            (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
            (
                json!({}),
                json!({"a":{"bb":{"ccc":null}}}),
                json!({"a":{"bb":{}}}),
            ),
        ];
        for (target, patch, want) in cases {
            assert_eq!(merge_patch(&target, &patch), want, "{target} + {patch}");
        }
    }

    #[test]
    fn json_patch_operations() {
        let doc = json!({"foo": ["bar", "baz"], "a/b": 1, "m~n": 2});
        let ops = json!([
            {"op": "add", "path": "/foo/1", "value": "qux"},
            {"op": "add", "path": "/foo/-", "value": "end"},
            {"op": "remove", "path": "/foo/0"},
            {"op": "replace", "path": "/a~1b", "value": 10},
            {"op": "test", "path": "/m~0n", "value": 2},
            {"op": "copy", "from": "/m~0n", "path": "/copied"},
            {"op": "move", "from": "/foo", "path": "/moved"},
        ]);
        assert_eq!(
            json_patch(&doc, &ops),
            Ok(json!({"moved": ["qux", "baz", "end"], "a/b": 10, "m~n": 2, "copied": 2}))
        );
    }

    #[test]
    fn json_patch_errors_are_atomic_and_named() {
        let doc = json!({"spec": {"replicas": 3}});
        assert_eq!(
            json_patch(
                &doc,
                &json!([{"op": "test", "path": "/spec/replicas", "value": 4}])
            ),
            Err(PatchError::TestFailed {
                index: 0,
                pointer: "/spec/replicas".into()
            })
        );
        assert_eq!(
            json_patch(&doc, &json!([{"op": "remove", "path": "/spec/paused"}])),
            Err(PatchError::PathNotFound {
                index: 0,
                pointer: "/spec/paused".into()
            })
        );
        assert_eq!(
            json_patch(
                &doc,
                &json!([{"op": "replace", "path": "spec", "value": 1}])
            ),
            Err(PatchError::InvalidPointer {
                index: 0,
                pointer: "spec".into()
            })
        );
        assert_eq!(
            json_patch(&doc, &json!([{"op": "add", "path": "/a~2", "value": 1}])),
            Err(PatchError::InvalidPointer {
                index: 0,
                pointer: "/a~2".into()
            })
        );
        assert!(matches!(
            json_patch(&doc, &json!([{"op": "frob", "path": "/spec"}])),
            Err(PatchError::InvalidOperation { index: 0, .. })
        ));
        assert!(matches!(
            json_patch(
                &doc,
                &json!([{"op": "move", "from": "/spec", "path": "/spec/x"}])
            ),
            Err(PatchError::InvalidOperation { index: 0, .. })
        ));
        assert_eq!(json_patch(&doc, &json!({})), Err(PatchError::NotAnArray));
        // Array indices: no leading zeros, no index past the end.
        let list = json!({"l": [1, 2]});
        assert!(json_patch(&list, &json!([{"op": "add", "path": "/l/01", "value": 0}])).is_err());
        assert!(json_patch(&list, &json!([{"op": "add", "path": "/l/3", "value": 0}])).is_err());
        assert_eq!(
            json_patch(&list, &json!([{"op": "add", "path": "/l/2", "value": 3}])),
            Ok(json!({"l": [1, 2, 3]}))
        );
        // A later failure discards earlier operations.
        assert!(
            json_patch(
                &doc,
                &json!([
                    {"op": "replace", "path": "/spec/replicas", "value": 9},
                    {"op": "test", "path": "/spec/replicas", "value": 3},
                ])
            )
            .is_err()
        );
        // Replacing the root.
        assert_eq!(
            json_patch(&doc, &json!([{"op": "replace", "path": "", "value": [1]}])),
            Ok(json!([1]))
        );
    }

    fn deployment(image: &str) -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {
                "replicas": 3,
                "selector": {"matchLabels": {"app": "web"}},
                "template": {
                    "metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [
                        {"name": "app", "image": image,
                         "ports": [{"containerPort": 80}],
                         "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
                        {"name": "sidecar", "image": "proxy:1", "args": ["-v", "-x"]}
                    ]}
                }
            }
        })
    }

    #[test]
    fn strategic_merge_merges_keyed_lists_and_replaces_others() {
        let live = deployment("app:1.4");
        let patch = json!({
            "metadata": {"labels": {"tier": "web"}},
            "spec": {"template": {"spec": {"containers": [
                {"name": "app", "image": "app:1.5", "env": [{"name": "B", "value": "3"}, {"name": "C", "value": "4"}]},
                {"name": "sidecar", "args": ["-q"]},
                {"name": "new", "image": "n:1", "stdin": null}
            ]}}}
        });
        let got = strategic_merge_patch(&live, &patch);
        let containers = &got["spec"]["template"]["spec"]["containers"];
        assert_eq!(containers[0]["image"], "app:1.5");
        assert_eq!(containers[0]["ports"], json!([{"containerPort": 80}]));
        assert_eq!(
            containers[0]["env"],
            json!([{"name": "A", "value": "1"}, {"name": "B", "value": "3"}, {"name": "C", "value": "4"}])
        );
        assert_eq!(containers[1]["args"], json!(["-q"]));
        assert_eq!(containers[1]["image"], "proxy:1");
        assert_eq!(containers[2], json!({"name": "new", "image": "n:1"}));
        assert_eq!(
            got["metadata"]["labels"],
            json!({"app": "web", "tier": "web"})
        );
    }

    #[test]
    fn strategic_merge_null_and_directives() {
        let live = deployment("app:1.4");
        let patch = json!({"spec": {
            "replicas": null,
            "template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}]}},
            "selector": {"$patch": "replace", "matchLabels": {"x": "y"}}
        }});
        let got = strategic_merge_patch(&live, &patch);
        assert!(got["spec"].get("replicas").is_none());
        assert_eq!(
            got["spec"]["template"]["spec"]["containers"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
        assert_eq!(got["spec"]["selector"], json!({"matchLabels": {"x": "y"}}));
    }

    /// The example of "Declarative Management of Kubernetes Objects Using Configuration Files":
    /// `kubectl scale` changed replicas, the file drops minReadySeconds and changes the image.
    #[test]
    fn three_way_patch_declarative_config_docs_example() {
        let last_applied = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx-deployment"},
            "spec": {
                "minReadySeconds": 5,
                "selector": {"matchLabels": {"app": "nginx"}},
                "template": {"metadata": {"labels": {"app": "nginx"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}]}]}}
            }
        });
        let mut live = last_applied.clone();
        live["spec"]["replicas"] = json!(2); // kubectl scale
        let config = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "nginx-deployment"},
            "spec": {
                "selector": {"matchLabels": {"app": "nginx"}},
                "template": {"metadata": {"labels": {"app": "nginx"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx:1.16.1", "ports": [{"containerPort": 80}]}]}}
            }
        });
        let patch = three_way_patch(Some(&last_applied), &config, &live);
        assert_eq!(
            patch,
            json!({"spec": {
                "minReadySeconds": null,
                "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.16.1"}]}}
            }})
        );
        let result = strategic_merge_patch(&live, &patch);
        assert_eq!(
            result["spec"]["replicas"], 2,
            "replicas set by kubectl scale survives"
        );
        assert!(
            result["spec"].get("minReadySeconds").is_none(),
            "removed field is cleared"
        );
        assert_eq!(
            result["spec"]["template"]["spec"]["containers"][0]["image"],
            "nginx:1.16.1"
        );
    }

    #[test]
    fn three_way_patch_image_change_in_keyed_list() {
        let old = deployment("app:1.4");
        let config = deployment("app:1.5");
        let patch = three_way_patch(Some(&old), &config, &old);
        assert_eq!(
            patch,
            json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:1.5"}]}}}})
        );
        assert_eq!(strategic_merge_patch(&old, &patch), config);
    }

    #[test]
    fn three_way_patch_unchanged_is_empty() {
        let config = with_last_applied(&deployment("app:1.4"));
        let mut live = config.clone();
        live["metadata"]["uid"] = json!("u-1");
        live["status"] = json!({"replicas": 3});
        let last = deployment("app:1.4");
        assert_eq!(three_way_patch(Some(&last), &config, &live), json!({}));
        // Without a last-applied annotation and with nothing differing: still unchanged.
        assert_eq!(three_way_patch(None, &config, &live), json!({}));
    }

    #[test]
    fn three_way_patch_removed_container_env_and_explicit_null() {
        let last = deployment("app:1.4");
        let mut config = deployment("app:1.4");
        let containers = &mut config["spec"]["template"]["spec"]["containers"];
        if let Some(items) = containers.as_array_mut() {
            items.truncate(1);
        }
        config["spec"]["template"]["spec"]["containers"][0]["env"] =
            json!([{"name": "A", "value": "1"}]);
        config["spec"]["replicas"] = Value::Null;
        let patch = three_way_patch(Some(&last), &config, &last);
        let result = strategic_merge_patch(&last, &patch);
        let want_containers = json!([{"name": "app", "image": "app:1.4",
            "ports": [{"containerPort": 80}], "env": [{"name": "A", "value": "1"}]}]);
        assert_eq!(
            result["spec"]["template"]["spec"]["containers"],
            want_containers
        );
        assert!(result["spec"].get("replicas").is_none());
        // Fields in neither last-applied nor config are untouched; atomic lists replace whole.
        let mut live = last.clone();
        live["spec"]["paused"] = json!(true);
        let mut config = last.clone();
        config["spec"]["template"]["spec"]["containers"][1]["args"] = json!(["-v"]);
        let result = strategic_merge_patch(&live, &three_way_patch(Some(&last), &config, &live));
        assert_eq!(result["spec"]["paused"], true);
        assert_eq!(
            result["spec"]["template"]["spec"]["containers"][1]["args"],
            json!(["-v"])
        );
    }

    #[test]
    fn three_way_patch_explicit_null_is_always_sent() {
        let live = deployment("app:1.4");
        let mut config = deployment("app:1.4");
        config["spec"]["paused"] = Value::Null;
        assert_eq!(
            three_way_patch(Some(&config), &config, &live),
            json!({"spec": {"paused": null}})
        );
        assert_eq!(
            strategic_merge_patch(&live, &json!({"spec": {"paused": null}})),
            live
        );
    }

    #[test]
    fn strategic_merge_retain_keys_and_ignored_directives() {
        let live = json!({"spec": {"strategy": {"type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}}});
        let patch = json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}});
        assert_eq!(
            strategic_merge_patch(&live, &patch),
            json!({"spec": {"strategy": {"type": "Recreate"}}})
        );
        let with_order = json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "app"}],
            "containers": [{"name": "app", "image": "app:2"}]}}}});
        let got = strategic_merge_patch(&deployment("app:1.4"), &with_order);
        assert_eq!(
            got["spec"]["template"]["spec"]["containers"][0]["image"],
            "app:2"
        );
        assert!(
            got["spec"]["template"]["spec"]
                .get("$setElementOrder/containers")
                .is_none()
        );
    }

    #[test]
    fn with_last_applied_embeds_config_without_itself() {
        let config = deployment("app:1.4");
        let annotated = with_last_applied(&config);
        let stored = annotated["metadata"]["annotations"][LAST_APPLIED_ANNOTATION]
            .as_str()
            .map(serde_json::from_str::<Value>);
        let mut want = config.clone();
        want["metadata"]["annotations"] = json!({});
        assert!(matches!(stored, Some(Ok(ref v)) if *v == want));
        assert_eq!(with_last_applied(&annotated), annotated);
        // kubectl encodes it with json.Encoder: one line and a newline, which is why
        // `get -o yaml` prints the annotation as a `|` block.
        let text = annotated["metadata"]["annotations"][LAST_APPLIED_ANNOTATION]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.ends_with("}\n") && text.matches('\n').count() == 1,
            "{text:?}"
        );
    }
}
