//! `kubectl describe pod` (kubectl 1.32 describe.go `describePod`).

use super::super::fields::{array_at, at, int_at, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::pod_template::{containers, tolerations, volumes};
use super::{annotations_multiline, controlled_by, describe_events, labels_multiline};
use crate::sim::time;
use serde_json::Value;

/// The describe text for `pod`; `events` may hold events about other objects.
pub fn describe_pod(pod: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(pod, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(pod, &["metadata", "namespace"]));
    if let Some(p) = at(pod, &["spec", "priority"]).and_then(Value::as_i64) {
        w += &format!("Priority:\t{p}\n");
    }
    for (label, path) in [
        ("Priority Class Name", "priorityClassName"),
        ("Runtime Class Name", "runtimeClassName"),
        ("Service Account", "serviceAccountName"),
    ] {
        let v = str_at(pod, &["spec", path]);
        if !v.is_empty() {
            w += &format!("{label}:\t{v}\n");
        }
    }
    match str_at(pod, &["spec", "nodeName"]) {
        "" => w += "Node:\t<none>\n",
        node => w += &format!("Node:\t{node}/{}\n", str_at(pod, &["status", "hostIP"])),
    }
    if let Some(t) = time::parse_rfc3339(str_at(pod, &["status", "startTime"])) {
        w += &format!("Start Time:\t{}\n", time::rfc1123z(t));
    }
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(pod, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", pod, &["metadata", "annotations"]);
    let phase = str_at(pod, &["status", "phase"]);
    let deletion = str_at(pod, &["metadata", "deletionTimestamp"]);
    if !deletion.is_empty() && phase != "Failed" && phase != "Succeeded" {
        // The deletion timestamp is when the grace period ends, still ahead: kubectl's
        // "lasts" reads `<invalid>` until its last two seconds.
        w += &format!(
            "Status:\tTerminating (lasts {})\n",
            time::age(deletion, now)
        );
        w += &format!(
            "Termination Grace Period:\t{}s\n",
            int_at(pod, &["metadata", "deletionGracePeriodSeconds"])
        );
    } else {
        w += &format!("Status:\t{phase}\n");
    }
    for (label, field) in [("Reason", "reason"), ("Message", "message")] {
        let v = str_at(pod, &["status", field]);
        if !v.is_empty() {
            w += &format!("{label}:\t{v}\n");
        }
    }
    w += &format!("IP:\t{}\n", str_at(pod, &["status", "podIP"]));
    let ips = array_at(pod, &["status", "podIPs"]);
    if ips.is_empty() {
        w += "IPs:\t<none>\n";
    } else {
        w += "IPs:\n";
        for ip in ips {
            w += &format!("  IP:\t{}\n", str_at(ip, &["ip"]));
        }
    }
    if let Some(c) = controlled_by(pod) {
        w += &format!("Controlled By:\t{c}\n");
    }
    let nominated = str_at(pod, &["status", "nominatedNodeName"]);
    if !nominated.is_empty() {
        w += &format!("NominatedNodeName:\t{nominated}\n");
    }
    let init = array_at(pod, &["spec", "initContainers"]);
    if !init.is_empty() {
        containers(
            &mut w,
            "",
            "Init Containers",
            init,
            array_at(pod, &["status", "initContainerStatuses"]),
        );
    }
    containers(
        &mut w,
        "",
        "Containers",
        array_at(pod, &["spec", "containers"]),
        array_at(pod, &["status", "containerStatuses"]),
    );
    let conditions = array_at(pod, &["status", "conditions"]);
    if !conditions.is_empty() {
        // Each row ends in a space: kubectl's format is "%v \t%v \n".
        w += "Conditions:\n  Type\tStatus\n";
        for c in conditions {
            w += &format!("  {} \t{} \n", str_at(c, &["type"]), str_at(c, &["status"]));
        }
    }
    volumes(&mut w, "", array_at(pod, &["spec", "volumes"]));
    let qos = match str_at(pod, &["status", "qosClass"]) {
        "" => crate::sim::qos::class(at(pod, &["spec"]).unwrap_or(&Value::Null)).to_string(),
        q => q.to_string(),
    };
    w += &format!("QoS Class:\t{qos}\n");
    labels_multiline(
        &mut w,
        "",
        "Node-Selectors",
        &sorted_pairs(pod, &["spec", "nodeSelector"]),
    );
    tolerations(&mut w, "", array_at(pod, &["spec", "tolerations"]));
    describe_events(&mut w, pod, None, events, now);
    TabWriter::DESCRIBE.format(&w)
}
