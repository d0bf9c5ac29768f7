//! Fixtures the tests of the field-ownership files share: times, a `web` Deployment, paths,
//! and lookups of entries and owners. No upstream counterpart (structured-merge-diff's tests
//! build theirs per file).

use serde_json::{Value, json};

use super::fieldpath::{Path, PathElement};
use super::managers::ManagedField;
use super::update::apply;

pub(super) const T0: &str = "2025-01-06T10:00:00Z";
pub(super) const T1: &str = "2025-01-06T10:01:00Z";
pub(super) const T2: &str = "2025-01-06T10:02:00Z";
pub(super) const T3: &str = "2025-01-06T10:03:00Z";

pub(super) fn web(replicas: Option<i64>, image: &str) -> Value {
    let mut d = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": image}]}
            }
        }
    });
    if let Some(r) = replicas {
        d["spec"]["replicas"] = json!(r);
    }
    d
}

pub(super) fn field(names: &[&str]) -> Path {
    names
        .iter()
        .map(|n| PathElement::Field((*n).to_string()))
        .collect()
}

pub(super) fn replicas_path() -> Path {
    field(&["spec", "replicas"])
}

/// The usual start: kubectl server-side applies `web` (3 replicas of app:1.4) at T0.
pub(super) fn kubectl_applies_web(entries: &mut Vec<ManagedField>) -> Value {
    let Ok(live) = apply(
        entries,
        &json!({}),
        &web(Some(3), "app:1.4"),
        "kubectl",
        false,
        T0,
    ) else {
        panic!("first apply conflicts")
    };
    live
}

pub(super) fn entry<'a>(entries: &'a [ManagedField], manager: &str) -> Option<&'a ManagedField> {
    entries.iter().find(|e| e.manager == manager)
}

pub(super) fn owners(entries: &[ManagedField], path: &[PathElement]) -> Vec<String> {
    entries
        .iter()
        .filter(|e| e.fields.contains(path))
        .map(|e| e.manager.clone())
        .collect()
}
