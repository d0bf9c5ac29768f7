//! F4: writes through `/status` show in managedFields as their writer's Update with
//! `subresource: status`.

use serde_json::{Value, json};

use crate::sim::kind::Kind;
use crate::sim::session::Session;

fn entry(s: &Session, manager: &str, subresource: Option<&str>) -> Option<Value> {
    let d = s.cluster.api.get(Kind::Deployment, "web").ok()?;
    d["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|e| {
            e["manager"] == manager && e.get("subresource").and_then(Value::as_str) == subresource
        })
        .cloned()
}

#[test]
fn the_deployment_controller_owns_the_status_it_writes() {
    let s = Session::new("spec-status", 1).expect("scenario exists");
    let e = entry(&s, "kube-controller-manager", Some("status")).expect("a status entry");
    assert_eq!(e["operation"], "Update");
    assert_eq!(e["apiVersion"], "apps/v1");
    let f = &e["fieldsV1"];
    // The controller created `conditions` and `annotations`, so it owns the nodes too.
    assert_eq!(f["f:status"]["f:conditions"]["."], json!({}));
    assert_eq!(
        f["f:metadata"]["f:annotations"],
        json!({".": {}, "f:deployment.kubernetes.io/revision": {}})
    );
    for leaf in [
        "f:availableReplicas",
        "f:observedGeneration",
        "f:readyReplicas",
        "f:replicas",
        "f:updatedReplicas",
    ] {
        assert_eq!(f["f:status"][leaf], json!({}), "{leaf}");
    }
    assert!(f.get("f:spec").is_none());
    let create = entry(&s, "kubectl-create", None).expect("the creator's entry");
    assert!(create["fieldsV1"].get("f:status").is_none());
    // Entries are sorted by time: the create came first.
    let d = s.cluster.api.get(Kind::Deployment, "web").expect("web");
    let managers: Vec<&str> = d["metadata"]["managedFields"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["manager"].as_str())
        .collect();
    assert_eq!(managers, ["kubectl-create", "kube-controller-manager"]);
}

#[test]
fn a_forged_status_field_changes_hands_and_back() {
    let mut s = Session::new("spec-status", 1).expect("scenario exists");
    // The controller would revert the forgery at once; pause it to look.
    s.run_line("pause deployment");
    let out = s.run_line(
        r#"kubectl patch deploy web --subresource=status --type=merge -p '{"status":{"availableReplicas":1}}'"#,
    );
    assert_eq!(out.stdout, "deployment.apps/web patched\n");
    let forged = entry(&s, "kubectl-patch", Some("status")).expect("the patch's entry");
    assert_eq!(
        forged["fieldsV1"],
        json!({"f:status": {"f:availableReplicas": {}}})
    );
    let kcm = entry(&s, "kube-controller-manager", Some("status")).expect("status entry");
    assert!(
        kcm["fieldsV1"]["f:status"]
            .get("f:availableReplicas")
            .is_none()
    );
    // The controller recomputes status and takes the field back; the forger's entry, left
    // with no fields, is dropped.
    s.run_line("resume deployment");
    s.run_line("tick 1");
    assert!(entry(&s, "kubectl-patch", Some("status")).is_none());
    let kcm = entry(&s, "kube-controller-manager", Some("status")).expect("status entry");
    assert_eq!(
        kcm["fieldsV1"]["f:status"]["f:availableReplicas"],
        json!({})
    );
}

#[test]
fn a_main_endpoint_status_edit_records_nothing() {
    let mut s = Session::new("spec-status", 1).expect("scenario exists");
    let before = s.cluster.api.get(Kind::Deployment, "web").cloned();
    let out = s.run_line(
        r#"kubectl patch deploy web --type=merge -p '{"status":{"availableReplicas":1}}'"#,
    );
    // E3: the server keeps the stored status and stores nothing; kubectl sees the same
    // object come back.
    assert_eq!(out.stdout, "deployment.apps/web patched (no change)\n");
    assert_eq!(
        s.cluster.api.get(Kind::Deployment, "web").ok(),
        before.as_ref().ok()
    );
    assert!(entry(&s, "kubectl-patch", None).is_none());
    assert!(entry(&s, "kubectl-patch", Some("status")).is_none());
}
