//! `kubectl describe daemonset` (kubectl 1.32 describe.go `describeDaemonSet`).

use super::super::fields::{at, int_at, join_pairs, selector_string, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline, pod_template, pods_status};
use serde_json::Value;

/// The describe text for `ds`. `pods` are those its selector matches; only the ones it
/// controls are counted. `events` may hold others.
pub fn describe_daemon_set(ds: &Value, pods: &[&Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(ds, &["metadata", "name"]));
    w += &format!(
        "Selector:\t{}\n",
        selector_string(at(ds, &["spec", "selector"]))
    );
    let node_selector = sorted_pairs(ds, &["spec", "template", "spec", "nodeSelector"]);
    w += &format!(
        "Node-Selector:\t{}\n",
        if node_selector.is_empty() {
            "<none>".to_string()
        } else {
            join_pairs(&node_selector)
        }
    );
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(ds, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", ds, &["metadata", "annotations"]);
    let n = |f: &str| int_at(ds, &["status", f]);
    // These four lines have no tab: kubectl writes them with plain spaces.
    w += &format!(
        "Desired Number of Nodes Scheduled: {}\n",
        n("desiredNumberScheduled")
    );
    w += &format!(
        "Current Number of Nodes Scheduled: {}\n",
        n("currentNumberScheduled")
    );
    w += &format!(
        "Number of Nodes Scheduled with Up-to-date Pods: {}\n",
        n("updatedNumberScheduled")
    );
    w += &format!(
        "Number of Nodes Scheduled with Available Pods: {}\n",
        n("numberAvailable")
    );
    w += &format!(
        "Number of Nodes Misscheduled: {}\n",
        n("numberMisscheduled")
    );
    pods_status(&mut w, ds, pods);
    pod_template(
        &mut w,
        at(ds, &["spec", "template"]).unwrap_or(&Value::Null),
    );
    describe_events(&mut w, ds, Some("DaemonSet"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
