//! `kubectl describe deployment` (kubectl 1.32 describe.go): lines are written with tabs as
//! kubectl's PrefixWriter does, then aligned by the describe tabwriter.

use super::fields::{array_at, at, bool_at, int_at, selector_string, since, sorted_pairs, str_at};
use super::tabwriter::TabWriter;
use pod_template::pod_template;

mod cronjob;
mod daemonset;
mod generic;
mod hpa;
mod job;
mod node;
mod pdb;
mod pod;
mod pod_template;
mod pvc;
mod replicaset;
mod service;
mod statefulset;

use crate::sim::time;
pub use cronjob::describe_cron_job;
pub use daemonset::describe_daemon_set;
pub use generic::describe_generic;
pub use hpa::describe_hpa;
pub use job::describe_job;
pub use node::describe_node;
pub use pdb::describe_pdb;
pub use pod::describe_pod;
pub use pvc::describe_pvc;
pub use replicaset::describe_replicaset;
use serde_json::Value;
pub use service::{describe_endpoint_slice, describe_endpoints, describe_service};
pub use statefulset::describe_stateful_set;

const MAX_ANNOTATION_LEN: usize = 140;
/// 0001-01-01T00:00:00Z, Go's zero `time.Time`.
pub(super) const GO_ZERO_TIME_UNIX: i64 = -62_135_596_800;
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The describe text for `deploy`. `rss` and `events` may hold unrelated objects: only the
/// ReplicaSets it controls and the events about it are shown.
pub fn describe_deployment(deploy: &Value, rss: &[Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    let created = time::parse_rfc3339(str_at(deploy, &["metadata", "creationTimestamp"]))
        // Go prints an unset time as year 1 in the same layout.
        .map_or_else(|| time::rfc1123z(GO_ZERO_TIME_UNIX), time::rfc1123z);
    w += &format!("Name:\t{}\n", str_at(deploy, &["metadata", "name"]));
    w += &format!(
        "Namespace:\t{}\n",
        str_at(deploy, &["metadata", "namespace"])
    );
    w += &format!("CreationTimestamp:\t{created}\n");
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(deploy, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", deploy, &["metadata", "annotations"]);
    w += &format!(
        "Selector:\t{}\n",
        selector_string(at(deploy, &["spec", "selector"]))
    );
    w += &format!(
        "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable\n",
        int_at(deploy, &["spec", "replicas"]),
        int_at(deploy, &["status", "updatedReplicas"]),
        int_at(deploy, &["status", "replicas"]),
        int_at(deploy, &["status", "availableReplicas"]),
        int_at(deploy, &["status", "unavailableReplicas"]),
    );
    w += &format!(
        "StrategyType:\t{}\n",
        str_at(deploy, &["spec", "strategy", "type"])
    );
    w += &format!(
        "MinReadySeconds:\t{}\n",
        int_at(deploy, &["spec", "minReadySeconds"])
    );
    if let Some(ru) = at(deploy, &["spec", "strategy", "rollingUpdate"]).filter(|v| v.is_object()) {
        w += &format!(
            "RollingUpdateStrategy:\t{} max unavailable, {} max surge\n",
            int_or_string(ru.get("maxUnavailable")),
            int_or_string(ru.get("maxSurge")),
        );
    }
    pod_template(
        &mut w,
        at(deploy, &["spec", "template"]).unwrap_or(&Value::Null),
    );
    conditions_table(&mut w, deploy);
    let (old, new) = split_replica_sets(deploy, rss);
    w += &format!("OldReplicaSets:\t{}\n", replica_sets_cell(&old));
    w += &format!(
        "NewReplicaSet:\t{}\n",
        replica_sets_cell(&new.into_iter().collect::<Vec<_>>())
    );
    describe_events(&mut w, deploy, Some("Deployment"), events, now);
    TabWriter::DESCRIBE.format(&w)
}

/// The Type / Status / Reason table of a workload's conditions (Deployment, ReplicaSet),
/// left out when it has none.
pub(super) fn conditions_table(w: &mut String, obj: &Value) {
    let conditions = array_at(obj, &["status", "conditions"]);
    if conditions.is_empty() {
        return;
    }
    *w += "Conditions:\n  Type\tStatus\tReason\n";
    *w += "  ----\t------\t------\n";
    for c in conditions {
        *w += &format!(
            "  {} \t{}\t{}\n",
            str_at(c, &["type"]),
            str_at(c, &["status"]),
            str_at(c, &["reason"])
        );
    }
}

/// `intstr.String()`: an int prints as a number, a string as itself.
pub(super) fn int_or_string(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "0".to_string(),
    }
}

/// `printLabelsMultilineWithIndent`: first pair after the title, the rest on `\t` lines.
pub(super) fn labels_multiline(
    w: &mut String,
    indent: &str,
    title: &str,
    pairs: &[(String, String)],
) {
    *w += &format!("{indent}{title}:\t");
    if pairs.is_empty() {
        *w += "<none>\n";
        return;
    }
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i != 0 {
            *w += &format!("{indent}\t");
        }
        *w += &format!("{k}={v}\n");
    }
}

/// Go's `s[:max] + "..."` on bytes, kept on a char boundary.
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}...", &s[..cut])
}

/// `printAnnotationsMultiline`: last-applied skipped; long or multi-line values go below.
pub(super) fn annotations_multiline(w: &mut String, title: &str, obj: &Value, path: &[&str]) {
    *w += &format!("{title}:\t");
    let pairs: Vec<(String, String)> = sorted_pairs(obj, path)
        .into_iter()
        .filter(|(k, _)| k != LAST_APPLIED)
        .collect();
    if pairs.is_empty() {
        *w += "<none>\n";
        return;
    }
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i != 0 {
            *w += "\t";
        }
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.len() + key.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            *w += &format!("{key}:\n");
            for line in value.split('\n') {
                *w += &format!("\t  {}\n", shorten(line, MAX_ANNOTATION_LEN - 2));
            }
        } else {
            *w += &format!("{key}: {value}\n");
        }
    }
}

/// The RS template equals the deployment's once `pod-template-hash` is dropped.
fn matches_template(deploy: &Value, rs: &Value) -> bool {
    let mut template = at(rs, &["spec", "template"])
        .cloned()
        .unwrap_or(Value::Null);
    if let Some(labels) = template
        .pointer_mut("/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        labels.remove("pod-template-hash");
    }
    Some(&template) == at(deploy, &["spec", "template"])
}

/// Controlled ReplicaSets split as `GetAllReplicaSetsInChunks` does: the new one (oldest
/// matching template) and every old one, scaled to zero or not (`allOldRSs`, which the
/// describer prints).
fn split_replica_sets<'a>(deploy: &Value, rss: &'a [Value]) -> (Vec<&'a Value>, Option<&'a Value>) {
    let uid = str_at(deploy, &["metadata", "uid"]);
    let owned: Vec<&Value> = rss
        .iter()
        .filter(|rs| {
            let owners = array_at(rs, &["metadata", "ownerReferences"]);
            owners.iter().any(|o| {
                bool_at(o, &["controller"])
                    && (str_at(o, &["uid"]) == uid
                        || (uid.is_empty()
                            && str_at(o, &["name"]) == str_at(deploy, &["metadata", "name"])))
            })
        })
        .collect();
    // FindNewReplicaSet sorts the list in place by creation time (ReplicaSetsByCreation-
    // Timestamp) and takes the oldest that matches the template; FindOldReplicaSets, which
    // reads the list next, lists the rest oldest first.
    let mut owned = owned;
    owned.sort_by_cached_key(|v| {
        (
            time::parse_rfc3339(str_at(v, &["metadata", "creationTimestamp"])).unwrap_or(0),
            str_at(v, &["metadata", "name"]).to_string(),
        )
    });
    let new = owned
        .iter()
        .copied()
        .find(|rs| matches_template(deploy, rs));
    let old = owned
        .into_iter()
        .filter(|rs| !new.is_some_and(|n| std::ptr::eq(n, *rs)))
        .collect();
    (old, new)
}

fn replica_sets_cell(list: &[&Value]) -> String {
    if list.is_empty() {
        return "<none>".to_string();
    }
    list.iter()
        .map(|rs| {
            format!(
                "{} ({}/{} replicas created)",
                str_at(rs, &["metadata", "name"]),
                int_at(rs, &["status", "replicas"]),
                int_at(rs, &["spec", "replicas"])
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `Pods Status:` of getPodStatusForController: the pods `owner` controls, by phase (a
/// terminating pod still counts by its phase; Unknown counts nowhere).
pub(super) fn pods_status(w: &mut String, owner: &Value, pods: &[&Value]) {
    let uid = str_at(owner, &["metadata", "uid"]);
    let mut counts = [0; 4];
    for p in pods {
        let controller = array_at(p, &["metadata", "ownerReferences"])
            .iter()
            .find(|o| o["controller"] == true);
        if controller.is_none_or(|o| str_at(o, &["uid"]) != uid) {
            continue;
        }
        let slot = match str_at(p, &["status", "phase"]) {
            "Running" => 0,
            "Pending" => 1,
            "Succeeded" => 2,
            "Failed" => 3,
            _ => continue,
        };
        counts[slot] += 1;
    }
    *w += &format!(
        "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed\n",
        counts[0], counts[1], counts[2], counts[3]
    );
}

/// `printController`: `Kind/name` of the controlling owner, if any.
pub(super) fn controlled_by(obj: &Value) -> Option<String> {
    array_at(obj, &["metadata", "ownerReferences"])
        .iter()
        .find(|o| bool_at(o, &["controller"]))
        .map(|o| format!("{}/{}", str_at(o, &["kind"]), str_at(o, &["name"])))
}

/// `DescribeEvents` for the events about `object` (of `kind`, where the describer asks by
/// kind; pods are asked for by name and uid only): sorted by lastTimestamp; Age is since
/// the first occurrence.
pub(super) fn describe_events(
    w: &mut String,
    object: &Value,
    kind: Option<&str>,
    events: &[Value],
    now: u64,
) {
    let name = str_at(object, &["metadata", "name"]);
    let uid = str_at(object, &["metadata", "uid"]);
    let mut mine: Vec<&Value> = events
        .iter()
        .filter(|e| {
            let obj = at(e, &["involvedObject"]).unwrap_or(&Value::Null);
            kind.is_none_or(|k| str_at(obj, &["kind"]) == k)
                && str_at(obj, &["name"]) == name
                // The field selector names the uid: an event whose reference has none
                // (the taint eviction controller's) is not found. A node's events are
                // looked up under its uid and, for the kubelet's and the node
                // controller's, under its name as uid.
                && (uid.is_empty()
                    || str_at(obj, &["uid"]) == uid
                    || (kind == Some("Node") && str_at(obj, &["uid"]) == name))
        })
        .collect();
    if mine.is_empty() {
        *w += "Events:\t<none>\n";
        return;
    }
    mine.sort_by_key(|e| time::parse_rfc3339(str_at(e, &["lastTimestamp"])).unwrap_or(0));
    *w += "Events:\n  Type\tReason\tAge\tFrom\tMessage\n";
    *w += "  ----\t------\t----\t----\t-------\n";
    for e in mine {
        let first = if str_at(e, &["eventTime"]).is_empty() {
            since(e, &["firstTimestamp"], now)
        } else {
            since(e, &["eventTime"], now)
        };
        let count = int_at(e, &["count"]);
        let interval = if let Some(series) = at(e, &["series"]).filter(|s| s.is_object()) {
            format!(
                "{} (x{} over {first})",
                since(series, &["lastObservedTime"], now),
                int_at(series, &["count"])
            )
        } else if count > 1 {
            format!(
                "{} (x{count} over {first})",
                since(e, &["lastTimestamp"], now)
            )
        } else {
            first
        };
        let source = match str_at(e, &["source", "component"]) {
            "" => str_at(e, &["reportingComponent"]),
            c => c,
        };
        *w += &format!(
            "  {}\t{}\t{interval}\t{source}\t{}\n",
            str_at(e, &["type"]),
            str_at(e, &["reason"]),
            str_at(e, &["message"]).trim()
        );
    }
}
