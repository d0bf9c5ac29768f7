//! `kubectl describe node` (kubectl 1.32 describe.go `describeNode`, l. 3698-3795, and
//! `describeNodeResource`, l. 4210-4290): the node, its lease, conditions, addresses,
//! resources and system info, the pods on it with their share of the node, and its events.

use serde_json::Value;

use super::super::fields::{array_at, at, since, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{GO_ZERO_TIME_UNIX, annotations_multiline, describe_events, labels_multiline};
use crate::sim::quantity;
use crate::sim::time;

pub(super) fn rfc1123z(s: &str) -> String {
    time::parse_rfc3339(s).map_or_else(|| time::rfc1123z(GO_ZERO_TIME_UNIX), time::rfc1123z)
}

/// `findNodeRoles`: sorted, without repeats.
fn roles(node: &Value) -> String {
    let mut roles: Vec<String> = sorted_pairs(node, &["metadata", "labels"])
        .into_iter()
        .filter_map(|(k, v)| match k.strip_prefix("node-role.kubernetes.io/") {
            Some(r) if !r.is_empty() => Some(r.to_string()),
            Some(_) => None,
            None => (k == "kubernetes.io/role" && !v.is_empty()).then_some(v),
        })
        .collect();
    roles.sort();
    roles.dedup();
    if roles.is_empty() {
        "<none>".into()
    } else {
        roles.join(",")
    }
}

/// `Taint.ToString`: `key=value:Effect`, or `key:Effect` without a value.
fn taint(t: &Value) -> String {
    let (k, v, e) = (
        str_at(t, &["key"]),
        str_at(t, &["value"]),
        str_at(t, &["effect"]),
    );
    if v.is_empty() {
        format!("{k}:{e}")
    } else {
        format!("{k}={v}:{e}")
    }
}

/// A sum of requests or limits as `Quantity.String()` prints it, with its share of the
/// node's allocatable, truncated.
fn cell(total_nanos: i128, alloc_nanos: i128, memory: bool) -> String {
    let shown = if memory {
        binary_si(total_nanos / 1_000_000_000)
    } else {
        let milli = total_nanos / 1_000_000;
        if milli % 1000 == 0 {
            (milli / 1000).to_string()
        } else {
            format!("{milli}m")
        }
    };
    let pct = if alloc_nanos == 0 {
        0
    } else {
        (total_nanos as f64 / alloc_nanos as f64 * 100.0) as i64
    };
    format!("{shown} ({pct}%)")
}

/// Bytes as a BinarySI quantity prints (CanonicalizeBytes): the largest binary suffix
/// that divides it exactly, no suffix under 1Ki.
fn binary_si(bytes: i128) -> String {
    if bytes.abs() < 1024 {
        return bytes.to_string();
    }
    let mut n = bytes;
    let mut i = 0;
    while n % 1024 == 0 && i < 6 {
        n /= 1024;
        i += 1;
    }
    format!("{n}{}", ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][i])
}

/// The describe text for `node`; `lease` is its lease in kube-node-lease if there is one,
/// `pods` the pods bound to it that have not finished, in list order.
pub fn describe_node(
    node: &Value,
    lease: Option<&Value>,
    pods: &[&Value],
    events: &[Value],
    now: u64,
) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(node, &["metadata", "name"]));
    w += &format!("Roles:\t{}\n", roles(node));
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(node, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", node, &["metadata", "annotations"]);
    w += &format!(
        "CreationTimestamp:\t{}\n",
        rfc1123z(str_at(node, &["metadata", "creationTimestamp"]))
    );
    let mut taints: Vec<&Value> = array_at(node, &["spec", "taints"]).iter().collect();
    taints.sort_by_key(|t| format!("{},{}", str_at(t, &["effect"]), str_at(t, &["key"])));
    w += "Taints:\t";
    if taints.is_empty() {
        w += "<none>\n";
    }
    for (i, t) in taints.iter().enumerate() {
        if i > 0 {
            w += "\t";
        }
        w += &format!("{}\n", taint(t));
    }
    w += &format!(
        "Unschedulable:\t{}\n",
        at(node, &["spec", "unschedulable"]).and_then(Value::as_bool) == Some(true)
    );
    let lease_time = |k: &str| {
        lease
            .and_then(|l| at(l, &["spec", k]))
            .and_then(Value::as_str)
            .map_or_else(|| "<unset>".to_string(), rfc1123z)
    };
    w += "Lease:\n";
    w += &format!(
        "  HolderIdentity:\t{}\n",
        lease
            .and_then(|l| at(l, &["spec", "holderIdentity"]))
            .and_then(Value::as_str)
            .unwrap_or("<unset>")
    );
    w += &format!("  AcquireTime:\t{}\n", lease_time("acquireTime"));
    w += &format!("  RenewTime:\t{}\n", lease_time("renewTime"));
    let conditions = array_at(node, &["status", "conditions"]);
    if !conditions.is_empty() {
        w += "Conditions:\n";
        w += "  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n";
        w += "  ----\t------\t-----------------\t------------------\t------\t-------\n";
        for c in conditions {
            w += &format!(
                "  {} \t{} \t{} \t{} \t{} \t{}\n",
                str_at(c, &["type"]),
                str_at(c, &["status"]),
                rfc1123z(str_at(c, &["lastHeartbeatTime"])),
                rfc1123z(str_at(c, &["lastTransitionTime"])),
                str_at(c, &["reason"]),
                str_at(c, &["message"]),
            );
        }
    }
    w += "Addresses:\n";
    for a in array_at(node, &["status", "addresses"]) {
        w += &format!("  {}:\t{}\n", str_at(a, &["type"]), str_at(a, &["address"]));
    }
    for (title, key) in [("Capacity", "capacity"), ("Allocatable", "allocatable")] {
        let list = sorted_pairs(node, &["status", key]);
        if list.is_empty() {
            continue;
        }
        w += &format!("{title}:\n");
        for (k, v) in list {
            w += &format!("  {k}:\t{v}\n");
        }
    }
    w += "System Info:\n";
    for (label, key) in [
        ("Machine ID", "machineID"),
        ("System UUID", "systemUUID"),
        ("Boot ID", "bootID"),
        ("Kernel Version", "kernelVersion"),
        ("OS Image", "osImage"),
        ("Operating System", "operatingSystem"),
        ("Architecture", "architecture"),
        ("Container Runtime Version", "containerRuntimeVersion"),
        ("Kubelet Version", "kubeletVersion"),
        ("Kube-Proxy Version", "kubeProxyVersion"),
    ] {
        w += &format!(
            "  {label}:\t{}\n",
            str_at(node, &["status", "nodeInfo", key])
        );
    }
    let cidr = str_at(node, &["spec", "podCIDR"]);
    if !cidr.is_empty() {
        w += &format!("PodCIDR:\t{cidr}\n");
    }
    let cidrs: Vec<&str> = array_at(node, &["spec", "podCIDRs"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !cidrs.is_empty() {
        w += &format!("PodCIDRs:\t{}\n", cidrs.join(","));
    }
    let provider = str_at(node, &["spec", "providerID"]);
    if !provider.is_empty() {
        w += &format!("ProviderID:\t{provider}\n");
    }
    // The node's share: allocatable, or capacity when it reports none.
    let alloc_key = if sorted_pairs(node, &["status", "allocatable"]).is_empty() {
        "capacity"
    } else {
        "allocatable"
    };
    let alloc = |r: &str| quantity::nanos(at(node, &["status", alloc_key, r]));
    let (alloc_cpu, alloc_mem) = (alloc("cpu"), alloc("memory"));
    w += &format!("Non-terminated Pods:\t({} in total)\n", pods.len());
    w += "  Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n";
    w += "  ---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n";
    let mut total = [0i128; 4];
    for p in pods {
        let r = quantity::pod_totals(&p["spec"]);
        for (t, v) in total.iter_mut().zip(r) {
            *t += v;
        }
        w += &format!(
            "  {}\t{}\t\t{}\t{}\t{}\t{}\t{}\n",
            str_at(p, &["metadata", "namespace"]),
            str_at(p, &["metadata", "name"]),
            cell(r[0], alloc_cpu, false),
            cell(r[1], alloc_cpu, false),
            cell(r[2], alloc_mem, true),
            cell(r[3], alloc_mem, true),
            since(p, &["metadata", "creationTimestamp"], now),
        );
    }
    w += "Allocated resources:\n";
    w += "  (Total limits may be over 100 percent, i.e., overcommitted.)\n";
    w += "  Resource\tRequests\tLimits\n";
    w += "  --------\t--------\t------\n";
    w += &format!(
        "  cpu\t{}\t{}\n",
        cell(total[0], alloc_cpu, false),
        cell(total[1], alloc_cpu, false)
    );
    w += &format!(
        "  memory\t{}\t{}\n",
        cell(total[2], alloc_mem, true),
        cell(total[3], alloc_mem, true)
    );
    w += "  ephemeral-storage\t0 (0%)\t0 (0%)\n";
    describe_events(&mut w, node, Some("Node"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
