//! `kubectl describe statefulset` (kubectl 1.32 describe.go `describeStatefulSet` and
//! `describeVolumeClaimTemplates`).

use super::super::fields::{array_at, at, int_at, selector_string, sorted_pairs, str_at};
use super::super::rows::storage_class;
use super::super::tabwriter::TabWriter;
use super::node::rfc1123z;
use super::{annotations_multiline, describe_events, labels_multiline, pod_template, pods_status};
use serde_json::Value;

/// The describe text for `set`. `pods` are those its selector matches; only the ones it
/// controls are counted. `events` may hold others.
pub fn describe_stateful_set(set: &Value, pods: &[&Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(set, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(set, &["metadata", "namespace"]));
    w += &format!(
        "CreationTimestamp:\t{}\n",
        rfc1123z(str_at(set, &["metadata", "creationTimestamp"]))
    );
    w += &format!(
        "Selector:\t{}\n",
        selector_string(at(set, &["spec", "selector"]))
    );
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(set, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", set, &["metadata", "annotations"]);
    w += &format!(
        "Replicas:\t{} desired | {} total\n",
        int_at(set, &["spec", "replicas"]),
        int_at(set, &["status", "replicas"])
    );
    w += &format!(
        "Update Strategy:\t{}\n",
        str_at(set, &["spec", "updateStrategy", "type"])
    );
    if let Some(ru) =
        at(set, &["spec", "updateStrategy", "rollingUpdate"]).filter(|r| r.is_object())
        && let Some(p) = ru.get("partition").and_then(Value::as_i64)
    {
        w += &format!("  Partition:\t{p}\n");
        if let Some(m) = ru.get("maxUnavailable").filter(|m| !m.is_null()) {
            w += &format!("  MaxUnavailable:\t{}\n", super::int_or_string(Some(m)));
        }
    }
    pods_status(&mut w, set, pods);
    pod_template(
        &mut w,
        at(set, &["spec", "template"]).unwrap_or(&Value::Null),
    );
    let templates = array_at(set, &["spec", "volumeClaimTemplates"]);
    if templates.is_empty() {
        w += "Volume Claims:\t<none>\n";
    } else {
        w += "Volume Claims:\n";
        for t in templates {
            w += &format!("  Name:\t{}\n", str_at(t, &["metadata", "name"]));
            w += &format!("  StorageClass:\t{}\n", storage_class(t));
            labels_multiline(
                &mut w,
                "  ",
                "Labels",
                &sorted_pairs(t, &["metadata", "labels"]),
            );
            labels_multiline(
                &mut w,
                "  ",
                "Annotations",
                &sorted_pairs(t, &["metadata", "annotations"]),
            );
            let capacity = str_at(t, &["spec", "resources", "requests", "storage"]);
            w += &format!(
                "  Capacity:\t{}\n",
                if capacity.is_empty() {
                    "<default>"
                } else {
                    capacity
                }
            );
            // `%s` of a []PersistentVolumeAccessMode: `[ReadWriteOnce]`.
            let modes: Vec<&str> = array_at(t, &["spec", "accessModes"])
                .iter()
                .filter_map(Value::as_str)
                .collect();
            w += &format!("  Access Modes:\t[{}]\n", modes.join(" "));
        }
    }
    describe_events(&mut w, set, Some("StatefulSet"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
