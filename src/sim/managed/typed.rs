//! Objects walked as the schema describes them: the field set of an object or an apply
//! configuration, the comparison of two objects (the fields an edit sets and removes), and
//! the merge of a configuration into the live object. Mirrors structured-merge-diff's `typed`
//! package (tofieldset.go, compare.go, merge.go, remove.go).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::fieldpath::{FieldSet, Path, PathElement};
use super::schema::{atomic_map, identity_field, item_key, item_matches, list_keys, server_owned};

impl FieldSet {
    /// Every tracked leaf and keyed list item of `object`. `null` values are skipped.
    pub fn from_value(object: &Value) -> Self {
        let mut paths = BTreeSet::new();
        let mut path = Vec::new();
        collect(object, &mut path, &mut paths, false);
        FieldSet::from_paths(paths)
    }

    /// The fields an apply configuration sets: as [`FieldSet::from_value`], but an explicit
    /// `null` counts (the applier owns the field and clears it), as in structured-merge-diff.
    pub fn from_apply_config(config: &Value) -> Self {
        let mut paths = BTreeSet::new();
        let mut path = Vec::new();
        collect(config, &mut path, &mut paths, true);
        FieldSet::from_paths(paths)
    }
}

fn collect(node: &Value, path: &mut Path, out: &mut BTreeSet<Path>, nulls: bool) {
    let Value::Object(map) = node else {
        if !path.is_empty() {
            out.insert(path.clone());
        }
        return;
    };
    if map.is_empty() {
        if !path.is_empty() {
            out.insert(path.clone());
        }
        return;
    }
    for (field, child) in map {
        collect_child(field, child, path, out, nulls);
    }
}

/// What one field of a non-empty map adds to the field set of the map at `path`: a field
/// set is the union of these over the map's fields, which lets a comparison look only at
/// the fields that differ.
fn collect_child(
    field: &str,
    child: &Value,
    path: &mut Path,
    out: &mut BTreeSet<Path>,
    nulls: bool,
) {
    if (child.is_null() && !nulls) || server_owned(path, field) || identity_field(path, field) {
        return;
    }
    path.push(PathElement::Field(field.to_string()));
    if atomic_map(&path[..path.len() - 1], field) {
        out.insert(path.clone());
        path.pop();
        return;
    }
    match (child, list_keys(&path[..path.len() - 1], field)) {
        (Value::Array(items), Some(names)) if !items.is_empty() => {
            let keys: Option<Vec<_>> = items.iter().map(|i| item_key(i, names)).collect();
            match keys {
                Some(keys) => {
                    for (item, key) in items.iter().zip(keys) {
                        path.push(PathElement::Key(key));
                        out.insert(path.clone());
                        collect(item, path, out, nulls);
                        path.pop();
                    }
                }
                // An item without its key: the list can only be owned whole.
                None => {
                    out.insert(path.clone());
                }
            }
        }
        _ => collect(child, path, out, nulls),
    }
    path.pop();
}

pub(super) fn value_at<'a>(node: &'a Value, path: &[PathElement]) -> Option<&'a Value> {
    path.iter().try_fold(node, |node, element| match element {
        PathElement::Field(name) => node.as_object()?.get(name),
        PathElement::Key(key) => node.as_array()?.iter().find(|i| item_matches(i, key)),
    })
}

/// Removes the field or list item at `path`; objects left empty by the removal go too.
pub(super) fn remove_path(node: &mut Value, path: &[PathElement]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    match first {
        PathElement::Field(name) => {
            let Value::Object(map) = node else {
                return;
            };
            if rest.is_empty() {
                map.remove(name);
            } else if let Some(child) = map.get_mut(name) {
                remove_path(child, rest);
                if child.as_object().is_some_and(Map::is_empty) {
                    map.remove(name);
                }
            }
        }
        PathElement::Key(key) => {
            let Value::Array(items) = node else {
                return;
            };
            if rest.is_empty() {
                items.retain(|i| !item_matches(i, key));
            } else if let Some(item) = items.iter_mut().find(|i| item_matches(i, key)) {
                remove_path(item, rest);
            }
        }
    }
}

/// Merges an apply configuration into the live object: objects field by field, keyed lists item
/// by item (new items appended), everything else replaced. A `null` clears the field;
/// server-owned fields of the configuration are ignored.
pub(super) fn merge_config(live: &Value, config: &Value, path: &mut Path) -> Value {
    let (Value::Object(live_map), Value::Object(config_map)) = (live, config) else {
        return strip_config(config, path);
    };
    let mut out = live_map.clone();
    for (field, value) in config_map {
        if server_owned(path, field) {
            continue;
        }
        if value.is_null() {
            out.remove(field);
            continue;
        }
        let atomic = atomic_map(path, field);
        let keys = list_keys(path, field);
        path.push(PathElement::Field(field.clone()));
        let merged = match (out.get(field), value, keys) {
            _ if atomic => strip_config(value, path),
            (Some(Value::Array(current)), Value::Array(items), Some(names)) => {
                merge_items(current, items, names, path)
            }
            (Some(current), _, _) => merge_config(current, value, path),
            (None, _, _) => strip_config(value, path),
        };
        path.pop();
        out.insert(field.clone(), merged);
    }
    Value::Object(out)
}

fn merge_items(current: &[Value], items: &[Value], names: &[&str], path: &mut Path) -> Value {
    let keys: Option<Vec<_>> = items.iter().map(|i| item_key(i, names)).collect();
    let Some(keys) = keys else {
        return Value::Array(items.to_vec());
    };
    let mut out = current.to_vec();
    for (item, key) in items.iter().zip(keys) {
        match out.iter().position(|c| item_matches(c, &key)) {
            Some(i) => out[i] = merge_config(&out[i], item, path),
            None => out.push(strip_config(item, path)),
        }
    }
    Value::Array(out)
}

/// A configuration value with its `null`s and server-owned fields dropped.
fn strip_config(value: &Value, path: &mut Path) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (field, child) in map {
                if child.is_null() || server_owned(path, field) {
                    continue;
                }
                path.push(PathElement::Field(field.clone()));
                let stripped = strip_config(child, path);
                path.pop();
                out.insert(field.clone(), stripped);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| strip_config(i, path)).collect()),
        _ => value.clone(),
    }
}

/// The fields an edit from `old` to `new` sets (added or changed leaves and added list items)
/// and the fields it removes.
pub(super) fn compare(old: &Value, new: &Value) -> (FieldSet, FieldSet) {
    compare_with(old, new, Scope::Whole)
}

/// The maps and keyed lists (with children) of `object` below `root`, outside the fields the
/// server owns: the nodes an Update owns itself (`".": {}`) when it creates them.
fn nodes(object: &Value, root: Path) -> BTreeSet<Path> {
    fn walk(node: &Value, path: &mut Path, out: &mut BTreeSet<Path>) {
        match node {
            Value::Object(map) if !map.is_empty() => {
                if !path.is_empty() {
                    out.insert(path.clone());
                }
                for (field, child) in map {
                    if server_owned(path, field)
                        || identity_field(path, field)
                        || atomic_map(path, field)
                    {
                        continue;
                    }
                    let keys = list_keys(path, field);
                    path.push(PathElement::Field(field.clone()));
                    match (child, keys) {
                        (Value::Array(items), Some(names)) if !items.is_empty() => {
                            let keys: Option<Vec<_>> =
                                items.iter().map(|i| item_key(i, names)).collect();
                            if let Some(keys) = keys {
                                out.insert(path.clone());
                                for (item, key) in items.iter().zip(keys) {
                                    path.push(PathElement::Key(key));
                                    walk(item, path, out);
                                    path.pop();
                                }
                            }
                        }
                        _ => walk(child, path, out),
                    }
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    let mut path = root;
    if let Some(node) = value_at(object, &path) {
        walk(node, &mut path, &mut out);
    }
    out
}

/// An Update's comparison as structured-merge-diff makes it: besides leaves and list items,
/// a map or list that was absent (not `null`) before and has children now is added itself,
/// and one that is gone is removed. This is why an Update that creates `labels` owns
/// `f:labels: {".": {}, ...}`, and why Go's zero object matters on create (see
/// [`zero_object`]).
pub(super) fn compare_update(old: &Value, new: &Value, root: Path) -> (FieldSet, FieldSet) {
    let scope = if root.is_empty() {
        Scope::Whole
    } else {
        Scope::Status
    };
    let (mut changed, mut removed) = compare_with(old, new, scope);
    let (before, after) = (nodes(old, root.clone()), nodes(new, root));
    for p in after.difference(&before) {
        if value_at(old, p).is_none() {
            changed.insert(p.clone());
        }
    }
    for p in before.difference(&after) {
        if value_at(new, p).is_none() {
            removed.insert(p.clone());
        }
    }
    (changed, removed)
}

/// What a create is compared against: the kind's Go zero value as JSON, whose non-pointer
/// structs are `{}` and whose non-omitempty slices are `null` (so a created `spec.strategy`
/// or `containers` is not owned as a node, while `labels` or `rollingUpdate` is).
pub fn zero_object() -> Value {
    serde_json::json!({
        "metadata": {"creationTimestamp": null},
        "spec": {
            "selector": null,
            "strategy": {},
            "template": {
                "metadata": {"creationTimestamp": null},
                "spec": {"containers": null},
            },
        },
        "status": {},
    })
}

/// Which part of an object a comparison looks at.
#[derive(Clone, Copy)]
enum Scope {
    Whole,
    /// Only `status` (what a `/status` write can change).
    Status,
}

/// The fields set (added leaves and list items, and leaves whose value changed) and the
/// fields removed between `old` and `new`. Fields whose values are equal in both add
/// nothing, so only the parts that differ are walked: a write to one label of a large
/// object costs its labels, not the whole object's field set.
fn compare_with(old: &Value, new: &Value, scope: Scope) -> (FieldSet, FieldSet) {
    let (mut changed, mut removed) = (BTreeSet::new(), BTreeSet::new());
    let mut path = Vec::new();
    match scope {
        Scope::Whole => compare_maps(old, new, old, new, &mut path, &mut changed, &mut removed),
        Scope::Status => {
            // `status` itself is server-owned at the root, so it is walked from inside.
            fn status(v: &Value) -> Option<&Value> {
                v.get("status").filter(|s| s.is_object())
            }
            path.push(PathElement::Field("status".to_string()));
            match (status(old), status(new)) {
                (Some(o), Some(n)) => {
                    compare_maps(o, n, old, new, &mut path, &mut changed, &mut removed)
                }
                (o, n) => {
                    let (mut before, mut after) = (BTreeSet::new(), BTreeSet::new());
                    if let Some(o) = o {
                        collect(o, &mut path.clone(), &mut before, false);
                    }
                    if let Some(n) = n {
                        collect(n, &mut path.clone(), &mut after, false);
                    }
                    diff_sets(&before, &after, old, new, &mut changed, &mut removed);
                }
            }
        }
    }
    (FieldSet::from_paths(changed), FieldSet::from_paths(removed))
}

/// [`compare_with`] of two values at `path` (`roots` are the whole objects).
fn compare_maps(
    old: &Value,
    new: &Value,
    root_old: &Value,
    root_new: &Value,
    path: &mut Path,
    changed: &mut BTreeSet<Path>,
    removed: &mut BTreeSet<Path>,
) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) if !a.is_empty() && !b.is_empty() => {
            // Both maps are sorted by key: walk them side by side.
            let (mut ai, mut bi) = (a.iter().peekable(), b.iter().peekable());
            loop {
                let order = match (ai.peek(), bi.peek()) {
                    (None, None) => break,
                    (Some(_), None) => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                    (Some((ka, _)), Some((kb, _))) => ka.cmp(kb),
                };
                let (k, o, n) = match order {
                    Ordering::Less => match ai.next() {
                        Some((k, o)) => (k, Some(o), None),
                        None => break,
                    },
                    Ordering::Greater => match bi.next() {
                        Some((k, n)) => (k, None, Some(n)),
                        None => break,
                    },
                    Ordering::Equal => match (ai.next(), bi.next()) {
                        (Some((k, o)), Some((_, n))) => (k, Some(o), Some(n)),
                        _ => break,
                    },
                };
                if o == n {
                    continue;
                }
                compare_field(k, o, n, (root_old, root_new), path, (changed, removed));
            }
        }
        _ => {
            let (mut before, mut after) = (BTreeSet::new(), BTreeSet::new());
            let mut p = path.clone();
            collect(old, &mut p, &mut before, false);
            collect(new, &mut p, &mut after, false);
            diff_sets(&before, &after, root_old, root_new, changed, removed);
        }
    }
}

/// One field of a map whose value differs between the two sides (either may be absent).
fn compare_field(
    field: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    (root_old, root_new): (&Value, &Value),
    path: &mut Path,
    (changed, removed): (&mut BTreeSet<Path>, &mut BTreeSet<Path>),
) {
    let plain =
        |v: Option<&Value>| v.is_some_and(|v| matches!(v, Value::Object(m) if !m.is_empty()));
    let skipped =
        server_owned(path, field) || identity_field(path, field) || atomic_map(path, field);
    if plain(old) && plain(new) && !skipped {
        // Both sides non-empty maps: look inside, field by field.
        path.push(PathElement::Field(field.to_string()));
        if let (Some(o), Some(n)) = (old, new) {
            compare_maps(o, n, root_old, root_new, path, changed, removed);
        }
        path.pop();
        return;
    }
    let (mut before, mut after) = (BTreeSet::new(), BTreeSet::new());
    if let Some(o) = old {
        collect_child(field, o, path, &mut before, false);
    }
    if let Some(n) = new {
        collect_child(field, n, path, &mut after, false);
    }
    diff_sets(&before, &after, root_old, root_new, changed, removed);
}

/// The paths `after` adds or whose leaf value moved, and the paths it drops.
fn diff_sets(
    before: &BTreeSet<Path>,
    after: &BTreeSet<Path>,
    root_old: &Value,
    root_new: &Value,
    changed: &mut BTreeSet<Path>,
    removed: &mut BTreeSet<Path>,
) {
    for p in after {
        if !before.contains(p)
            || (matches!(p.last(), Some(PathElement::Field(_)))
                && value_at(root_old, p) != value_at(root_new, p))
        {
            changed.insert(p.clone());
        }
    }
    removed.extend(before.difference(after).cloned());
}

/// Whether two objects have the same fields, with the same values, but `status` and
/// `metadata.managedFields` (which the comparisons skip: the server owns both).
pub(super) fn only_status_differs(old: &Value, new: &Value) -> bool {
    fn same_but(a: &Value, b: &Value, skip: &str, inner: Option<(&str, &str)>) -> bool {
        let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
            return a == b;
        };
        let others = |m: &Map<String, Value>| m.keys().filter(|k| *k != skip).count();
        others(a) == others(b)
            && a.iter()
                .filter(|(k, _)| *k != skip)
                .all(|(k, v)| match (b.get(k), inner) {
                    (Some(w), Some((field, skip))) if k == field => same_but(v, w, skip, None),
                    (w, _) => w == Some(v),
                })
    }
    old.is_object()
        && new.is_object()
        && same_but(old, new, "status", Some(("metadata", "managedFields")))
}

#[cfg(test)]
mod compare_props {
    //! The comparison that walks only what differs against the plain one: both field
    //! sets built whole, then diffed (what structured-merge-diff's Compare does).
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn reference(old: &Value, new: &Value, scope: Scope) -> (FieldSet, FieldSet) {
        let fields = |v: &Value| match scope {
            Scope::Whole => FieldSet::from_value(v),
            Scope::Status => {
                let mut paths = BTreeSet::new();
                if let Some(status) = v.get("status").filter(|s| s.is_object()) {
                    let mut path = vec![PathElement::Field("status".to_string())];
                    collect(status, &mut path, &mut paths, false);
                }
                FieldSet::from_paths(paths)
            }
        };
        let (before, after) = (fields(old), fields(new));
        let changed = after
            .iter()
            .filter(|p| {
                !before.contains(p)
                    || (matches!(p.last(), Some(PathElement::Field(_)))
                        && value_at(old, p) != value_at(new, p))
            })
            .cloned()
            .collect();
        (changed, before.difference(&after))
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            (0i64..3).prop_map(Value::from),
            "[ab]".prop_map(Value::from),
            Just(json!({})),
        ]
    }

    fn map() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 16, 3, |inner| {
            prop::collection::btree_map("[abc]|labels|selector", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect()))
        })
    }

    fn object() -> impl Strategy<Value = Value> {
        let container =
            ("[xy]", prop::option::of("[ab]"), map()).prop_map(|(name, image, extra)| {
                let mut c = json!({"name": name, "extra": extra});
                if let Some(i) = image {
                    c["image"] = json!(i);
                }
                c
            });
        (map(), prop::collection::vec(container, 0..3), map(), map()).prop_map(
            |(labels, containers, spec, status)| {
                json!({
                    "metadata": {"name": "web", "labels": labels, "resourceVersion": "1"},
                    "spec": {"x": spec, "template": {"spec": {"containers": containers}}},
                    "status": status,
                })
            },
        )
    }

    proptest! {
        #[test]
        fn walking_only_what_differs_finds_what_the_whole_sets_find(old in object(), new in object()) {
            for scope in [Scope::Whole, Scope::Status] {
                let got = compare_with(&old, &new, scope);
                let want = reference(&old, &new, scope);
                prop_assert_eq!(got.0.iter().collect::<Vec<_>>(), want.0.iter().collect::<Vec<_>>());
                prop_assert_eq!(got.1.iter().collect::<Vec<_>>(), want.1.iter().collect::<Vec<_>>());
            }
        }

        #[test]
        fn a_small_edit_of_a_large_object_finds_the_same(old in object(), key in "[abc]", v in leaf()) {
            let mut new = old.clone();
            new["spec"]["x"] = json!({key: v});
            new["metadata"]["labels"] = json!({"k": "changed"});
            for scope in [Scope::Whole, Scope::Status] {
                let got = compare_with(&old, &new, scope);
                let want = reference(&old, &new, scope);
                prop_assert_eq!(got.0.iter().collect::<Vec<_>>(), want.0.iter().collect::<Vec<_>>());
                prop_assert_eq!(got.1.iter().collect::<Vec<_>>(), want.1.iter().collect::<Vec<_>>());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fieldpath::path_string;
    use super::super::test_support::{T0, field, web};
    use super::*;
    use serde_json::json;

    #[test]
    fn a_status_write_is_told_apart_from_other_changes() {
        let old = json!({"metadata": {"name": "web", "annotations": {"a": "1"},
                "managedFields": [{"manager": "x"}]},
            "spec": {"replicas": 1}, "status": {"replicas": 1}});
        let mut new = old.clone();
        new["status"]["replicas"] = json!(2);
        new["metadata"]
            .as_object_mut()
            .unwrap()
            .remove("managedFields");
        assert!(
            only_status_differs(&old, &new),
            "status and managedFields aside"
        );
        let mut annotated = new.clone();
        annotated["metadata"]["annotations"]["a"] = json!("2");
        assert!(!only_status_differs(&old, &annotated));
        let mut scaled = new.clone();
        scaled["spec"]["replicas"] = json!(3);
        assert!(!only_status_differs(&old, &scaled));
        let mut relabelled = new;
        relabelled["metadata"]["labels"] = json!({"b": "c"});
        assert!(!only_status_differs(&old, &relabelled));
    }

    #[test]
    fn fieldset_of_a_deployment_in_fields_v1() {
        let mut d = web(Some(3), "app:1.4");
        d["metadata"]["uid"] = json!("u1");
        d["metadata"]["resourceVersion"] = json!("7");
        d["metadata"]["generation"] = json!(2);
        d["metadata"]["creationTimestamp"] = json!(T0);
        d["metadata"]["managedFields"] = json!([]);
        d["status"] =
            json!({"replicas": 3, "conditions": [{"type": "Available", "status": "True"}]});
        d["spec"]["template"]["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80}]);
        d["spec"]["template"]["spec"]["containers"][0]["env"] =
            json!([{"name": "A", "value": "1"}]);
        d["spec"]["template"]["spec"]["containers"][0]["resources"] = json!({});
        let set = FieldSet::from_value(&d);
        assert_eq!(
            set.to_fields_v1(),
            json!({
                "f:spec": {
                    "f:replicas": {},
                    "f:selector": {},
                    "f:template": {
                        "f:metadata": {"f:labels": {"f:app": {}}},
                        "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {
                            ".": {},
                            "f:env": {"k:{\"name\":\"A\"}": {".": {}, "f:name": {}, "f:value": {}}},
                            "f:image": {},
                            "f:name": {},
                            "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {
                                ".": {}, "f:containerPort": {}
                            }},
                            "f:resources": {}
                        }}}
                    }
                }
            })
        );
        assert_eq!(
            FieldSet::from_fields_v1(&set.to_fields_v1()),
            Ok(set.clone())
        );
        let port = [
            field(&["spec", "template", "spec", "containers"]),
            vec![PathElement::Key(vec![("name".into(), "\"app\"".into())])],
            vec![
                PathElement::Field("ports".into()),
                PathElement::Key(vec![
                    ("containerPort".into(), "80".into()),
                    ("protocol".into(), "\"TCP\"".into()),
                ]),
            ],
        ]
        .concat();
        assert!(set.contains(&port));
        assert_eq!(
            path_string(&port),
            ".spec.template.spec.containers[name=\"app\"].ports[containerPort=80,protocol=\"TCP\"]"
        );
    }
}
