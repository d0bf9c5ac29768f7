//! Tests of `stored`.

use serde_json::json;

use super::*;

#[test]
fn facts_follow_edits() {
    let p = Stored::new(
        Kind::Pod,
        json!({"metadata": {"name": "a", "ownerReferences": [{"controller": true, "uid": "rs1"}]},
               "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}),
    );
    assert_eq!(p.controller_uid(), Some("rs1"));
    assert!(p.pod().active && p.pod().ready);
    let mut d = p.draft();
    d.set_meta("deletionTimestamp", json!("2025-01-06T10:00:30Z"));
    let p = Stored::from_draft(Kind::Pod, d, &mut LabelSets::default());
    assert!(p.facts().deleting);
    assert!(!p.pod().active, "a terminating pod is not active");
    let rs = Stored::new(Kind::ReplicaSet, json!({"metadata": {"name": "rs1"}}));
    assert_eq!(rs.facts().pod, None);
}

#[test]
fn a_draft_copies_only_the_fields_it_edits() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "a", "uid": "u1", "resourceVersion": "7"},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
        "status": {"phase": "Pending"}});
    let old = Stored::new(Kind::Pod, pod.clone());
    assert_eq!(
        old.value(),
        &pod,
        "the fields put back together are the object"
    );
    assert_eq!((old.name(), old.uid()), ("a", "u1"));
    let mut d = old.draft();
    assert!(d.same_as(&old));
    d.edit("status")["phase"] = json!("Running");
    assert!(!d.same_as(&old));
    let new = Stored::from_draft(Kind::Pod, d, &mut LabelSets::default());
    let shared = |k| std::ptr::eq(old.field(k).unwrap(), new.field(k).unwrap());
    assert!(shared("spec") && shared("metadata") && !shared("status"));
    assert_eq!(old.field("status"), Some(&json!({"phase": "Pending"})));
    // A new resourceVersion is kept beside the metadata, which stays shared.
    let mut d = new.draft();
    d.set_meta("resourceVersion", json!("8"));
    let bumped = Stored::from_draft(Kind::Pod, d, &mut LabelSets::default());
    assert!(std::ptr::eq(
        new.field("metadata").unwrap(),
        bumped.field("metadata").unwrap()
    ));
    assert_eq!(bumped.meta("resourceVersion"), Some(&json!("8")));
    assert_eq!(bumped.value()["metadata"]["resourceVersion"], "8");
    assert_eq!(new.value()["metadata"]["resourceVersion"], "7");
    assert_eq!(new.value()["status"]["phase"], "Running");
    assert!(new.pod().active && !new.pod().ready);
    // A field a draft adds lands in key order, as in a JSON object.
    let mut d = new.draft();
    d.set_meta("deletionTimestamp", json!("2025-01-06T10:00:30Z"));
    d.set("apiVersion", json!("v1"));
    d.set("data", json!({}));
    let keys: Vec<String> = d
        .into_value()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        ["apiVersion", "data", "kind", "metadata", "spec", "status"]
    );
}

#[test]
fn a_status_write_reads_only_the_status_again() {
    let mut sets = LabelSets::default();
    let pod = json!({"metadata": {"name": "a", "uid": "u1", "labels": {"app": "web"},
            "ownerReferences": [{"controller": true, "uid": "rs1"}]},
        "status": {"phase": "Pending"}});
    let old = Stored::interned(Kind::Pod, pod, &mut sets);
    let mut d = old.draft();
    *d.edit("status") = json!({"phase": "Running",
        "conditions": [{"type": "Ready", "status": "True"}]});
    let new = Stored::from_draft(Kind::Pod, d, &mut sets);
    assert!(Arc::ptr_eq(&old.facts().uid, &new.facts().uid));
    assert!(Arc::ptr_eq(&old.facts().labels, &new.facts().labels));
    assert_eq!(
        (new.name(), new.uid(), new.controller_uid()),
        ("a", "u1", Some("rs1"))
    );
    assert!(new.pod().ready && !old.pod().ready);
    // A graceful delete reads only `deleting` again.
    let mut d = new.draft();
    d.set_meta("deletionTimestamp", json!("2025-01-06T10:00:30Z"));
    d.set_meta("deletionGracePeriodSeconds", json!(30));
    let deleting = Stored::from_draft(Kind::Pod, d, &mut sets);
    assert!(Arc::ptr_eq(&new.facts().uid, &deleting.facts().uid));
    assert!(deleting.facts().deleting && !deleting.pod().active && deleting.pod().ready);
    assert_eq!(deleting.controller_uid(), Some("rs1"));
    // Edited metadata is read again: new labels, a release, a deletion.
    let mut d = new.draft();
    d.set_meta("labels", json!({"app": "db"}));
    d.set_meta("ownerReferences", json!([]));
    d.set_meta("deletionTimestamp", json!("2025-01-06T10:00:30Z"));
    let edited = Stored::from_draft(Kind::Pod, d, &mut sets);
    assert_eq!(*edited.facts().labels, json!({"app": "db"}));
    assert_eq!(edited.controller_uid(), None);
    assert!(edited.facts().deleting && !edited.pod().active);
    assert_eq!(edited.name(), "a");
}

#[test]
fn equal_labels_share_one_copy() {
    let mut sets = LabelSets::default();
    let pod = |app: &str| json!({"metadata": {"labels": {"app": app, "tier": "front"}}});
    let a = Stored::interned(Kind::Pod, pod("web"), &mut sets);
    let b = Stored::interned(Kind::Pod, pod("web"), &mut sets);
    let c = Stored::interned(Kind::Pod, pod("db"), &mut sets);
    assert!(Arc::ptr_eq(&a.facts().labels, &b.facts().labels));
    assert!(!Arc::ptr_eq(&a.facts().labels, &c.facts().labels));
    assert_eq!(*c.facts().labels, json!({"app": "db", "tier": "front"}));
    // Sets nobody holds any more are dropped as others come.
    drop((a, b, c));
    for i in 0..200 {
        Stored::interned(Kind::Pod, pod(&i.to_string()), &mut sets);
    }
    assert!(sets.len < 200, "{} sets kept", sets.len);
}
