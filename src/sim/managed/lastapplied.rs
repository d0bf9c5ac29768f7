//! The API server's lastAppliedManager (apimachinery 1.32
//! `managedfields/internal/lastappliedmanager.go`): when `kubectl` server-side applies an
//! object client-side apply managed, conflicts on fields whose last-applied value still is
//! the live value are forgiven, and the apply is forced, so moving to server-side apply
//! does not conflict with what kubectl itself set before.

use serde_json::Value;

use super::conflict::ApplyConflict;
use super::fieldpath::Path;
use super::typed::value_at;
use super::update::apply;
use super::{KUBECTL_MANAGER, ManagedField};
use crate::sim::merge::LAST_APPLIED_ANNOTATION;

/// Whether the last-applied configuration holds `path` with the live value
/// (allowedConflictsFromLastApplied: its fields minus those modified, added or removed
/// against the live object).
fn agrees(last: &Value, live: &Value, path: &Path) -> bool {
    match (value_at(last, path), value_at(live, path)) {
        (Some(l), Some(v)) => match (l, v) {
            // A list item or an object: in both, so not added or removed; its own fields
            // are compared where they conflict.
            (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_)) => true,
            _ => l == v,
        },
        _ => false,
    }
}

/// `managed::apply`, with the conflicts the last-applied annotation forgives forgiven when
/// the manager is `kubectl` (the only manager the API server does this for).
pub fn apply_forgiving(
    entries: &mut Vec<ManagedField>,
    live: &Value,
    config: &Value,
    manager: &str,
    force: bool,
    time: &str,
) -> Result<Value, ApplyConflict> {
    let refused = match apply(entries, live, config, manager, force, time) {
        Err(c) if manager == KUBECTL_MANAGER => c,
        other => return other,
    };
    let last: Option<Value> = live["metadata"]["annotations"][LAST_APPLIED_ANNOTATION]
        .as_str()
        .and_then(|s| serde_json::from_str(s).ok())
        .filter(|l: &Value| l["apiVersion"] == live["apiVersion"]);
    let Some(last) = last else {
        return Err(refused);
    };
    let left: Vec<_> = refused
        .conflicts
        .iter()
        .filter(|c| !agrees(&last, live, &c.path))
        .cloned()
        .collect();
    if !left.is_empty() {
        return Err(ApplyConflict { conflicts: left });
    }
    apply(entries, live, config, manager, true, time)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{T0, T1, web};
    use super::super::update::record_update;
    use super::*;
    use crate::sim::merge::with_last_applied;
    use serde_json::json;

    /// `web` as `kubectl create` made it (owning every field), and its entries.
    fn created() -> (Vec<ManagedField>, Value) {
        let mut entries = Vec::new();
        let created = web(Some(3), "app:1.4");
        record_update(
            &mut entries,
            &json!({}),
            &created,
            "kubectl-create",
            None,
            T0,
        );
        (entries, created)
    }

    /// `kubectl create` owns the image; a client-side apply of the same manifest then
    /// records it in the annotation. kubectl's server-side apply of a new image conflicts
    /// with kubectl-create, but the annotation still says the live value: forgiven.
    #[test]
    fn a_conflict_the_annotation_agrees_with_is_forgiven_for_kubectl_only() {
        let (mut entries, created) = created();
        let live = with_last_applied(&created);
        let config = web(Some(3), "app:1.5");
        let mut for_other = entries.clone();
        assert!(apply_forgiving(&mut for_other, &live, &config, "ci", false, T1).is_err());
        let merged = apply_forgiving(&mut entries, &live, &config, KUBECTL_MANAGER, false, T1)
            .expect("forgiven");
        assert_eq!(
            merged["spec"]["template"]["spec"]["containers"][0]["image"],
            "app:1.5"
        );
    }

    /// Once the live value moved away from the annotation (someone else changed it), the
    /// conflict stands.
    #[test]
    fn a_conflict_on_a_value_changed_since_the_last_apply_stands() {
        let (mut entries, created) = created();
        let mut live = with_last_applied(&created);
        live["spec"]["template"]["spec"]["containers"][0]["image"] = json!("app:1.4-hotfix");
        let config = web(Some(3), "app:1.5");
        let e =
            apply_forgiving(&mut entries, &live, &config, KUBECTL_MANAGER, false, T1).unwrap_err();
        assert_eq!(e.conflicts.len(), 1);
    }
}
