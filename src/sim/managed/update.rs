//! The writes that change field ownership: an Update (any non-apply write, which never
//! conflicts) and a server-side Apply (which merges its configuration, drops what its manager
//! no longer sets and conflicts with other owners). Mirrors structured-merge-diff's
//! `merge/update.go` (Updater.Update, Updater.Apply).

use serde_json::Value;

use super::API_VERSION;
use super::conflict::{ApplyConflict, Conflict};
use super::fieldpath::{FieldSet, PathElement};
use super::managers::{ManagedField, Operation, sort_entries};
use super::typed::{compare, compare_update, merge_config, only_status_differs, remove_path};

/// Records a non-apply write (PUT, PATCH, a controller's update) from `old` to `new` by
/// `manager`: it takes every leaf it added or changed (and every list item it added), those
/// fields leave every other manager, fields it removed leave everyone, and an entry left with no
/// fields is dropped. Never conflicts. The entry's time moves only when it took a field.
pub fn record_update(
    entries: &mut Vec<ManagedField>,
    old: &Value,
    new: &Value,
    manager: &str,
    subresource: Option<&str>,
    time: &str,
) {
    let (changed, removed) = compare_update(old, new, Vec::new());
    let w = Write {
        manager,
        subresource,
        time,
        api_version: api_version(new),
    };
    record(entries, &changed, &removed, &w);
}

/// The group/version a write was made at, which its managedFields entry records: the
/// object's own (the demo serves each kind at one version).
fn api_version(obj: &Value) -> &str {
    obj["apiVersion"].as_str().unwrap_or(API_VERSION)
}

/// Who wrote, through which subresource, when, and at which version.
struct Write<'a> {
    manager: &'a str,
    subresource: Option<&'a str>,
    time: &'a str,
    api_version: &'a str,
}

/// Records a write through `/status` by `manager` (subresource `status`): as
/// [`record_update`], and the status fields it set or changed count too. On a real server
/// every writer's status changes are tracked; only `/status` can make any (A2, A3).
pub fn record_status_update(
    entries: &mut Vec<ManagedField>,
    old: &Value,
    new: &Value,
    manager: &str,
    time: &str,
) {
    let (status_changed, status_removed) =
        compare_update(old, new, vec![PathElement::Field("status".to_string())]);
    // A /status write changes only the status (A3), which the comparison from the root
    // leaves out (the server owns it there): then that comparison finds nothing.
    let (changed, removed) = if only_status_differs(old, new) {
        (status_changed, status_removed)
    } else {
        let (changed, removed) = compare_update(old, new, Vec::new());
        (
            changed.union(&status_changed),
            removed.union(&status_removed),
        )
    };
    let w = Write {
        manager,
        subresource: Some("status"),
        time,
        api_version: api_version(new),
    };
    record(entries, &changed, &removed, &w);
}

fn record(entries: &mut Vec<ManagedField>, changed: &FieldSet, removed: &FieldSet, w: &Write) {
    let Write {
        manager,
        subresource,
        time,
        api_version,
    } = *w;
    let taken = changed.difference(removed);
    // In place: a write changes a few paths of sets that hold dozens.
    for entry in entries.iter_mut() {
        if entry.is(manager, Operation::Update, subresource) {
            entry.fields.extend(&taken);
            entry.fields.remove_all(removed);
            if !taken.is_empty() {
                entry.time = time.to_string();
                entry.api_version = api_version.to_string();
            }
        } else {
            entry.fields.remove_all(changed);
            entry.fields.remove_all(removed);
        }
    }
    let exists = entries
        .iter()
        .any(|e| e.is(manager, Operation::Update, subresource));
    if !exists && !taken.is_empty() {
        entries.push(ManagedField {
            manager: manager.to_string(),
            operation: Operation::Update,
            api_version: api_version.to_string(),
            time: time.to_string(),
            subresource: subresource.map(str::to_string),
            fields: taken,
        });
    }
    entries.retain(|e| !e.fields.is_empty());
    sort_entries(entries);
}

/// A server-side apply of `config` by `manager` (operation Apply) onto `live`. Returns the new
/// object (without managedFields; see [`managed_fields_value`](super::managed_fields_value)) and updates `entries`:
///
/// * config's fields are merged in; fields this manager applied before and no longer sets are
///   removed unless another manager owns them;
/// * a field another manager owns that this apply would change is a conflict, unless `force`,
///   in which case the applier takes it and it leaves every other manager;
/// * applying a field to the value it already has shares ownership;
/// * an explicit `null` owns the field and clears it (a change, so it can conflict).
///
/// The applier's entry then holds exactly config's fields, with `time`.
pub fn apply(
    entries: &mut Vec<ManagedField>,
    live: &Value,
    config: &Value,
    manager: &str,
    force: bool,
    time: &str,
) -> Result<Value, ApplyConflict> {
    let config_set = FieldSet::from_apply_config(config);
    let is_self = |e: &ManagedField| e.is(manager, Operation::Apply, None);
    let last_set = entries
        .iter()
        .find(|e| is_self(e))
        .map(|e| e.fields.clone())
        .unwrap_or_default();

    let mut merged = merge_config(live, config, &mut Vec::new());
    let keep = entries
        .iter()
        .filter(|e| !is_self(e))
        .fold(config_set.clone(), |acc, e| acc.union(&e.fields));
    for path in last_set.difference(&keep).iter() {
        if !keep.has_descendant(path) {
            remove_path(&mut merged, path);
        }
    }

    let (changed, removed) = compare(live, &merged);
    // Clearing a field with an explicit null changes it as much as setting it does.
    let changed_or_cleared = changed.union(&removed.intersection(&config_set));
    let mut conflicts: Vec<(String, Conflict)> = Vec::new();
    for entry in entries.iter().filter(|e| !is_self(e)) {
        for path in entry.fields.intersection(&changed_or_cleared).iter() {
            conflicts.push((
                entry.identifier(),
                Conflict {
                    manager: entry.manager.clone(),
                    operation: entry.operation,
                    api_version: entry.api_version.clone(),
                    subresource: entry.subresource.clone(),
                    path: path.clone(),
                },
            ));
        }
    }
    if !force && !conflicts.is_empty() {
        conflicts.sort_by(|a, b| (&a.0, &a.1.path).cmp(&(&b.0, &b.1.path)));
        return Err(ApplyConflict {
            conflicts: conflicts.into_iter().map(|(_, c)| c).collect(),
        });
    }

    for entry in entries.iter_mut() {
        if is_self(entry) {
            entry.fields = config_set.clone();
            entry.time = time.to_string();
            entry.api_version = api_version(config).to_string();
        } else {
            entry.fields = entry.fields.difference(&changed).difference(&removed);
        }
    }
    if !entries.iter().any(is_self) {
        entries.push(ManagedField {
            manager: manager.to_string(),
            operation: Operation::Apply,
            api_version: api_version(config).to_string(),
            time: time.to_string(),
            subresource: None,
            fields: config_set,
        });
    }
    entries.retain(|e| !e.fields.is_empty());
    sort_entries(entries);
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{
        T0, T1, T2, T3, entry, field, kubectl_applies_web, owners, replicas_path, web,
    };
    use super::*;
    use serde_json::json;

    /// F7: an Update takes ownership of each field whose value it changes and never conflicts;
    /// the previous owner loses the field, and an entry left empty is dropped.
    #[test]
    fn update_takes_changed_fields_and_never_conflicts() {
        let mut entries = Vec::new();
        let v1 = web(Some(3), "app:1.4");
        record_update(&mut entries, &json!({}), &v1, "kubectl-create", None, T0);
        assert_eq!(entries.len(), 1);
        assert!(entries[0].fields.contains(&replicas_path()));

        let v2 = web(Some(3), "app:1.5");
        record_update(&mut entries, &v1, &v2, "kubectl-set", None, T1);
        let image = [
            field(&["spec", "template", "spec", "containers"]),
            vec![PathElement::Key(vec![("name".into(), "\"app\"".into())])],
            field(&["image"]),
        ]
        .concat();
        assert_eq!(owners(&entries, &image), ["kubectl-set"]);
        let set = entry(&entries, "kubectl-set").map(|e| e.fields.clone());
        assert_eq!(set.map(|s| s.len()), Some(1), "only the changed leaf");

        // A manager whose only field is taken loses its entry.
        let v3 = web(Some(3), "app:1.6");
        record_update(&mut entries, &v2, &v3, "kubectl-edit", None, T2);
        assert!(entry(&entries, "kubectl-set").is_none());
        assert_eq!(owners(&entries, &image), ["kubectl-edit"]);

        // An update that changes nothing takes nothing and keeps the old time.
        record_update(&mut entries, &v3, &v3, "kubectl-edit", None, T3);
        assert_eq!(
            entry(&entries, "kubectl-edit").map(|e| e.time.as_str()),
            Some(T2)
        );

        // A removed field leaves every manager.
        let v4 = web(None, "app:1.6");
        record_update(&mut entries, &v3, &v4, "kubectl-replace", None, T3);
        assert!(owners(&entries, &replicas_path()).is_empty());
        assert!(
            entry(&entries, "kubectl-replace").is_none(),
            "removing takes nothing"
        );
    }

    /// F7: appliers setting the same value share ownership; a later change by one conflicts.
    #[test]
    fn equal_values_are_shared_and_a_later_change_conflicts() {
        let mut entries = Vec::new();
        let live = apply(
            &mut entries,
            &json!({}),
            &web(Some(3), "app:1.4"),
            "alice",
            false,
            T0,
        );
        let Ok(live) = live else {
            panic!("first apply conflicts: {live:?}")
        };
        let replicas_only = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"}, "spec": {"replicas": 3}});
        let shared = apply(&mut entries, &live, &replicas_only, "bob", false, T1);
        assert_eq!(shared.as_ref(), Ok(&live));
        assert_eq!(owners(&entries, &replicas_path()), ["alice", "bob"]);

        let mut change = replicas_only.clone();
        change["spec"]["replicas"] = json!(4);
        let err = apply(&mut entries, &live, &change, "bob", false, T2);
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas".into())
        );
        // The refused apply changed nothing.
        assert_eq!(owners(&entries, &replicas_path()), ["alice", "bob"]);
        assert_eq!(entry(&entries, "bob").map(|e| e.time.as_str()), Some(T1));
    }

    /// F7: a field dropped from an apply config is deleted only if nobody else owns it; sharing
    /// and then dropping transfers ownership.
    #[test]
    fn dropped_fields_are_deleted_unless_someone_else_owns_them() {
        let mut entries = Vec::new();
        let Ok(live) = apply(
            &mut entries,
            &json!({}),
            &web(Some(3), "app:1.4"),
            "alice",
            false,
            T0,
        ) else {
            panic!("first apply conflicts")
        };
        let mut with_min = web(Some(3), "app:1.4");
        with_min["spec"]["minReadySeconds"] = json!(5);
        let Ok(live) = apply(&mut entries, &live, &with_min, "alice", false, T1) else {
            panic!("second apply conflicts")
        };
        assert_eq!(live["spec"]["minReadySeconds"], 5);

        // Sole owner drops minReadySeconds: deleted.
        let Ok(live) = apply(
            &mut entries,
            &live,
            &web(Some(3), "app:1.4"),
            "alice",
            false,
            T2,
        ) else {
            panic!("third apply conflicts")
        };
        assert!(live["spec"].get("minReadySeconds").is_none());

        // bob shares replicas; alice drops it: the value stays and bob owns it alone.
        let replicas_only = json!({"spec": {"replicas": 3}});
        let Ok(live) = apply(&mut entries, &live, &replicas_only, "bob", false, T2) else {
            panic!("bob's apply conflicts")
        };
        let Ok(live) = apply(
            &mut entries,
            &live,
            &web(None, "app:1.4"),
            "alice",
            false,
            T3,
        ) else {
            panic!("alice's apply conflicts")
        };
        assert_eq!(live["spec"]["replicas"], 3);
        assert_eq!(owners(&entries, &replicas_path()), ["bob"]);

        // Dropping a whole container removes the item and its fields.
        let mut two = web(None, "app:1.4");
        two["spec"]["template"]["spec"]["containers"] =
            json!([{"name": "app", "image": "app:1.4"}, {"name": "sidecar", "image": "proxy:1"}]);
        let Ok(live) = apply(&mut entries, &live, &two, "alice", false, T3) else {
            panic!("sidecar apply conflicts")
        };
        assert_eq!(
            live["spec"]["template"]["spec"]["containers"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );
        let Ok(live) = apply(
            &mut entries,
            &live,
            &web(None, "app:1.4"),
            "alice",
            false,
            T3,
        ) else {
            panic!("sidecar removal conflicts")
        };
        assert_eq!(
            live["spec"]["template"]["spec"]["containers"],
            json!([{"name": "app", "image": "app:1.4"}])
        );
    }

    /// G1 + G3: the HPA's Update through /scale takes replicas; kubectl's server-side apply of
    /// a different value conflicts; forcing takes the field back from kube-controller-manager.
    #[test]
    fn hpa_fight_conflict_and_force() {
        let mut entries = Vec::new();
        let live = kubectl_applies_web(&mut entries);
        let scaled = web(Some(5), "app:1.4");
        record_update(
            &mut entries,
            &live,
            &scaled,
            "kube-controller-manager",
            Some("scale"),
            T1,
        );
        let kcm = entry(&entries, "kube-controller-manager").map(ManagedField::to_value);
        assert_eq!(
            kcm,
            Some(json!({"apiVersion": "apps/v1", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {"f:replicas": {}}}, "manager": "kube-controller-manager",
                "operation": "Update", "subresource": "scale", "time": T1}))
        );
        assert_eq!(
            owners(&entries, &replicas_path()),
            ["kube-controller-manager"]
        );

        let err = apply(
            &mut entries,
            &scaled,
            &web(Some(3), "app:1.4"),
            "kubectl",
            false,
            T2,
        );
        let Err(conflict) = err else {
            panic!("expected a conflict, got {err:?}")
        };
        assert_eq!(
            conflict.to_string(),
            "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1: .spec.replicas"
        );
        assert_eq!(
            conflict.causes(),
            json!([{"type": "FieldManagerConflict",
                "message": "conflict with \"kube-controller-manager\" with subresource \"scale\" using apps/v1",
                "field": ".spec.replicas"}])
        );

        // Applying the HPA's own value is no conflict: the field becomes shared.
        let mut same = entries.clone();
        assert!(
            apply(
                &mut same,
                &scaled,
                &web(Some(5), "app:1.4"),
                "kubectl",
                false,
                T2
            )
            .is_ok()
        );
        assert_eq!(
            owners(&same, &replicas_path()),
            ["kubectl", "kube-controller-manager"]
        );

        let forced = apply(
            &mut entries,
            &scaled,
            &web(Some(3), "app:1.4"),
            "kubectl",
            true,
            T2,
        );
        assert_eq!(
            forced.as_ref().map(|l| &l["spec"]["replicas"]),
            Ok(&json!(3))
        );
        assert_eq!(owners(&entries, &replicas_path()), ["kubectl"]);
        assert!(
            entry(&entries, "kube-controller-manager").is_none(),
            "the controller's entry lost its only field"
        );
        assert_eq!(
            entry(&entries, "kubectl").map(|e| e.time.as_str()),
            Some(T2)
        );
    }

    /// G5 "Transferring Ownership": a replicas-only apply by `handover-to-hpa` shares the
    /// field, kubectl drops it (the value stays), and the HPA's next write takes it, which
    /// deletes the handover entry.
    #[test]
    fn handover_to_hpa() {
        let mut entries = Vec::new();
        let live = kubectl_applies_web(&mut entries);
        let handover = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web"}, "spec": {"replicas": 3}});
        let Ok(live) = apply(&mut entries, &live, &handover, "handover-to-hpa", false, T1) else {
            panic!("handover conflicts")
        };
        let Ok(live) = apply(
            &mut entries,
            &live,
            &web(None, "app:1.4"),
            "kubectl",
            false,
            T2,
        ) else {
            panic!("kubectl's apply without replicas conflicts")
        };
        assert_eq!(live["spec"]["replicas"], 3, "no one-time scale to 1");
        assert_eq!(owners(&entries, &replicas_path()), ["handover-to-hpa"]);
        let scaled = web(Some(6), "app:1.4");
        record_update(
            &mut entries,
            &live,
            &scaled,
            "kube-controller-manager",
            Some("scale"),
            T3,
        );
        assert!(entry(&entries, "handover-to-hpa").is_none());
        assert_eq!(
            owners(&entries, &replicas_path()),
            ["kube-controller-manager"]
        );
        // kubectl's later applies no longer touch replicas.
        let again = apply(
            &mut entries,
            &scaled,
            &web(None, "app:1.4"),
            "kubectl",
            false,
            T3,
        );
        assert_eq!(again.map(|l| l["spec"]["replicas"].clone()), Ok(json!(6)));
    }

    #[test]
    fn server_owned_config_fields_are_ignored() {
        let mut entries = Vec::new();
        let mut config = web(Some(1), "app:1.4");
        config["status"] = json!({"replicas": 9});
        config["metadata"]["uid"] = json!("forged");
        let live = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "uid": "real"}, "status": {"replicas": 1}});
        let Ok(out) = apply(&mut entries, &live, &config, "kubectl", false, T0) else {
            panic!("apply conflicts")
        };
        assert_eq!(out["status"], json!({"replicas": 1}));
        assert_eq!(out["metadata"]["uid"], "real");
        let fields = entry(&entries, "kubectl").map(|e| e.fields.to_fields_v1());
        assert!(
            fields.is_some_and(|f| f.get("f:status").is_none() && f.get("f:metadata").is_none())
        );
    }
}
