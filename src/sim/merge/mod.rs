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
    PathNotFound {
        index: usize,
        op: String,
        pointer: String,
    },
    #[error("operation {index}: test failed at {pointer:?}")]
    TestFailed { index: usize, pointer: String },
}

impl PatchError {
    /// What evanphx/json-patch v4, which the API server applies JSON patches with, says
    /// for this failure (its words for the common cases; ours otherwise).
    pub fn library_message(&self) -> String {
        match self {
            PatchError::TestFailed { pointer, .. } => {
                format!("testing value {pointer} failed: test failed")
            }
            PatchError::PathNotFound { op, pointer, .. } => match op.as_str() {
                "add" => format!(
                    "add operation does not apply: doc is missing path: {pointer:?}: missing value"
                ),
                "replace" => format!(
                    "replace operation does not apply: doc is missing path: {pointer}: missing value"
                ),
                "remove" => format!(
                    "error in remove for path: '{pointer}': Unable to remove nonexistent key: {}: missing value",
                    pointer.rsplit('/').next().unwrap_or("")
                ),
                _ => self.to_string(),
            },
            _ => self.to_string(),
        }
    }
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
        op: name.to_string(),
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

/// Where a field sits, as far as merge keys care: a Service's `spec.ports` is keyed by
/// `port`, a container's `ports` (deeper down) by `containerPort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Spec,
    Inner,
}

impl Level {
    fn child(self, key: &str) -> Level {
        match (self, key) {
            (Level::Root, "spec") => Level::Spec,
            _ => Level::Inner,
        }
    }
}

/// The merge key of a list field that strategic merge patch merges by key, as the
/// `patchMergeKey` tags of the Kubernetes core/apps types say. Lists not named here are
/// replaced whole.
fn strategic_list_key(level: Level, field: &str) -> Option<&'static str> {
    if level == Level::Spec && field == "ports" {
        return Some("port");
    }
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
    smp(target, patch, Level::Root)
}

fn smp(target: &Value, patch: &Value, level: Level) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    if patch.get(PATCH_DIRECTIVE).and_then(Value::as_str) == Some("replace") {
        return smp(
            &Value::Null,
            &Value::Object(without_directives(patch)),
            level,
        );
    }
    let mut out = match target {
        Value::Object(t) => t.clone(),
        _ => Map::new(),
    };
    if let Some(Value::Array(retain)) = patch.get(RETAIN_KEYS_DIRECTIVE) {
        out.retain(|k, _| retain.iter().any(|r| r.as_str() == Some(k)));
    }
    let live = out.clone();
    for (key, value) in patch {
        if key.starts_with('$') {
            continue;
        }
        match value {
            Value::Null => {
                out.remove(key);
            }
            Value::Array(items) => {
                let merged = match strategic_list_key(level, key) {
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
                let merged = smp(
                    out.get(key).unwrap_or(&Value::Null),
                    value,
                    level.child(key),
                );
                out.insert(key.clone(), merged);
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    for (key, order) in patch {
        let (Some(field), Value::Array(order)) = (key.strip_prefix(SET_ELEMENT_ORDER), order)
        else {
            continue;
        };
        let (Some(merge_key), Some(Value::Array(items))) =
            (strategic_list_key(level, field), out.get_mut(field))
        else {
            continue;
        };
        let server_order = match live.get(field) {
            Some(Value::Array(l)) => l.as_slice(),
            _ => &[],
        };
        *items = element_order(std::mem::take(items), order, server_order, merge_key);
    }
    Value::Object(out)
}

/// The parallel list a patch carries to order a merged list: `$setElementOrder/containers`.
const SET_ELEMENT_ORDER: &str = "$setElementOrder/";

/// strategicpatch's normalizeElementOrder for a keyed list: the items the order names come
/// in its order, the others (server-only) keep the live order, and the two are merged by
/// their places in the live list (mergeSortedSlice).
fn element_order(
    merged: Vec<Value>,
    order: &[Value],
    live: &[Value],
    merge_key: &str,
) -> Vec<Value> {
    let index = |list: &[Value], item: &Value| {
        let key = item.get(merge_key);
        list.iter()
            .position(|x| key.is_some() && x.get(merge_key) == key)
    };
    let (mut named, mut server_only): (Vec<Value>, Vec<Value>) = merged
        .into_iter()
        .partition(|item| index(order, item).is_some());
    named.sort_by_key(|item| index(order, item));
    server_only.sort_by_key(|item| index(live, item).unwrap_or(usize::MAX));
    let mut out = Vec::with_capacity(named.len() + server_only.len());
    let (mut left, mut right) = (
        server_only.into_iter().peekable(),
        named.into_iter().peekable(),
    );
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                matches!((index(live, l), index(live, r)), (Some(li), Some(ri)) if li < ri)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    out
}

/// The `$setElementOrder` list kubectl sends beside a changed keyed list: each item of the
/// new configuration by its merge key alone, in order.
fn set_element_order(modified: &[Value], merge_key: &str) -> Value {
    Value::Array(
        modified
            .iter()
            .map(|item| {
                let mut only_key = Map::new();
                only_key.insert(
                    merge_key.to_string(),
                    item.get(merge_key).cloned().unwrap_or(Value::Null),
                );
                Value::Object(only_key)
            })
            .collect(),
    )
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
            Some(i) => out[i] = smp(&out[i], item, Level::Inner),
            None => out.push(smp(&Value::Null, item, Level::Inner)),
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
/// annotation into `config` before diffing; [`with_last_applied`] does that. A keyed list
/// that changed, or changed order, travels with its `$setElementOrder/<field>` list.
pub fn three_way_patch(last_applied: Option<&Value>, config: &Value, live: &Value) -> Value {
    let deletions = match last_applied {
        Some(original) => diff_deletions(original, config, Level::Root),
        None => Map::new(),
    };
    let delta = diff_delta(live, config, Level::Root);
    Value::Object(combine_patches(deletions, delta, Level::Root))
}

/// The JSON merge patch `kubectl apply` (client side) sends for a kind with no strategic
/// merge schema (a custom resource), as `CreateThreeWayJSONMergePatch` computes it: keys
/// of `last_applied` that `config` dropped become `null`, and what differs between `live`
/// and `config` is set, lists whole. `{}` when nothing changes.
pub fn three_way_json_merge_patch(
    last_applied: Option<&Value>,
    config: &Value,
    live: &Value,
) -> Value {
    fn delta(live: &Value, config: &Value) -> Map<String, Value> {
        let mut out = Map::new();
        let (Some(c), live) = (config.as_object(), live.as_object()) else {
            return out;
        };
        for (k, v) in c {
            match live.and_then(|l| l.get(k)) {
                Some(lv) if lv.is_object() && v.is_object() => {
                    let inner = delta(lv, v);
                    if !inner.is_empty() {
                        out.insert(k.clone(), Value::Object(inner));
                    }
                }
                Some(lv) if lv == v => {}
                _ => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        out
    }
    fn deletions(original: &Value, config: &Value, out: &mut Map<String, Value>) {
        let (Some(o), c) = (original.as_object(), config.as_object()) else {
            return;
        };
        for (k, ov) in o {
            match c.and_then(|c| c.get(k)) {
                None => {
                    out.insert(k.clone(), Value::Null);
                }
                Some(cv) if ov.is_object() && cv.is_object() => {
                    let mut inner = match out.remove(k) {
                        Some(Value::Object(m)) => m,
                        _ => Map::new(),
                    };
                    deletions(ov, cv, &mut inner);
                    if !inner.is_empty() {
                        out.insert(k.clone(), Value::Object(inner));
                    }
                }
                Some(_) => {}
            }
        }
    }
    let mut patch = delta(live, config);
    if let Some(original) = last_applied {
        deletions(original, config, &mut patch);
    }
    Value::Object(patch)
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
fn diff_deletions(original: &Value, modified: &Value, level: Level) -> Map<String, Value> {
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
                let sub = diff_deletions(old, new, level.child(key));
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Array(old_items), Value::Array(new_items)) => {
                if let Some(merge_key) = strategic_list_key(level, key) {
                    let items = keyed_list_deletions(old_items, new_items, merge_key);
                    if !items.is_empty() {
                        patch.insert(key.clone(), Value::Array(items));
                        patch.insert(
                            format!("{SET_ELEMENT_ORDER}{key}"),
                            set_element_order(new_items, merge_key),
                        );
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
                let mut sub = diff_deletions(old, new, Level::Inner);
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
fn diff_delta(current: &Value, modified: &Value, level: Level) -> Map<String, Value> {
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
        match (old, new, strategic_list_key(level, key)) {
            (Value::Object(_), Value::Object(_), _) => {
                let sub = diff_delta(old, new, level.child(key));
                if !sub.is_empty() {
                    patch.insert(key.clone(), Value::Object(sub));
                }
            }
            (Value::Array(old_items), Value::Array(new_items), Some(merge_key)) => {
                let same_order = old_items.len() == new_items.len()
                    && old_items
                        .iter()
                        .zip(new_items)
                        .all(|(o, n)| o.get(merge_key) == n.get(merge_key));
                match keyed_list_delta(old_items, new_items, merge_key) {
                    Some(items) if items.is_empty() && same_order => {}
                    Some(items) => {
                        if !items.is_empty() {
                            patch.insert(key.clone(), Value::Array(items));
                        }
                        patch.insert(
                            format!("{SET_ELEMENT_ORDER}{key}"),
                            set_element_order(new_items, merge_key),
                        );
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
                let mut sub = diff_delta(old, new, Level::Inner);
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
fn combine_patches(
    mut base: Map<String, Value>,
    over: Map<String, Value>,
    level: Level,
) -> Map<String, Value> {
    for (key, value) in over {
        let merged = match (base.remove(&key), value, strategic_list_key(level, &key)) {
            (Some(Value::Object(b)), Value::Object(o), _) => {
                Value::Object(combine_patches(b, o, level.child(&key)))
            }
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
                                items.insert(i, Value::Object(combine_patches(b, o, Level::Inner)));
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
mod tests;
