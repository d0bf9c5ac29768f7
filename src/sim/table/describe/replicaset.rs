//! `kubectl describe replicaset` (kubectl 1.32 describe.go `describeReplicaSet`).

use super::super::fields::{at, int_at, selector_string, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{
    annotations_multiline, conditions_table, controlled_by, describe_events, labels_multiline,
    pod_template, pods_status,
};
use serde_json::Value;

/// The describe text for `rs`. `pods` are those its selector matches (kubectl lists them
/// by selector); only the ones it controls are counted. `events` may hold others.
pub fn describe_replicaset(rs: &Value, pods: &[&Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(rs, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(rs, &["metadata", "namespace"]));
    w += &format!(
        "Selector:\t{}\n",
        selector_string(at(rs, &["spec", "selector"]))
    );
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(rs, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", rs, &["metadata", "annotations"]);
    if let Some(c) = controlled_by(rs) {
        w += &format!("Controlled By:\t{c}\n");
    }
    w += &format!(
        "Replicas:\t{} current / {} desired\n",
        int_at(rs, &["status", "replicas"]),
        int_at(rs, &["spec", "replicas"])
    );
    pods_status(&mut w, rs, pods);
    pod_template(
        &mut w,
        at(rs, &["spec", "template"]).unwrap_or(&Value::Null),
    );
    conditions_table(&mut w, rs);
    describe_events(&mut w, rs, Some("ReplicaSet"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
