//! The cells of each kind's `get` row (printers.go), read through [`Lookup`] so a stored
//! object is read in place. Cells are always built wide; `get_table` cuts them to the
//! shown columns.

use super::fields::{
    Lookup, array_at, at, int_at, join_pairs, selector_string, since, sorted_pairs, str_at,
};
use super::pod_status::pod_cells;

fn name<T: Lookup + ?Sized>(obj: &T) -> String {
    str_at(obj, &["metadata", "name"]).to_string()
}

fn age<T: Lookup + ?Sized>(obj: &T, now: u64) -> String {
    since(obj, &["metadata", "creationTimestamp"], now)
}

/// CONTAINERS and IMAGES cells of a pod template.
fn container_cells<T: Lookup + ?Sized>(obj: &T) -> (String, String) {
    let containers = array_at(obj, &["spec", "template", "spec", "containers"]);
    let join = |field: &str| {
        containers
            .iter()
            .map(|c| str_at(c, &[field]))
            .collect::<Vec<_>>()
            .join(",")
    };
    (join("name"), join("image"))
}

pub fn deployment<T: Lookup + ?Sized>(d: &T, now: u64) -> Vec<String> {
    let (containers, images) = container_cells(d);
    vec![
        name(d),
        format!(
            "{}/{}",
            int_at(d, &["status", "readyReplicas"]),
            int_at(d, &["spec", "replicas"])
        ),
        int_at(d, &["status", "updatedReplicas"]).to_string(),
        int_at(d, &["status", "availableReplicas"]).to_string(),
        age(d, now),
        containers,
        images,
        selector_string(at(d, &["spec", "selector"])),
    ]
}

pub fn replica_set<T: Lookup + ?Sized>(rs: &T, now: u64) -> Vec<String> {
    let (containers, images) = container_cells(rs);
    let selector = match selector_string(at(rs, &["spec", "selector"])) {
        s if s.is_empty() => "<none>".to_string(),
        s => s,
    };
    vec![
        name(rs),
        int_at(rs, &["spec", "replicas"]).to_string(),
        int_at(rs, &["status", "replicas"]).to_string(),
        int_at(rs, &["status", "readyReplicas"]).to_string(),
        age(rs, now),
        containers,
        images,
        selector,
    ]
}

fn or_none(s: &str) -> String {
    if s.is_empty() { "<none>" } else { s }.to_string()
}

pub fn pod<T: Lookup + ?Sized>(pod: &T, now: u64) -> Vec<String> {
    let cells = pod_cells(pod, now);
    let ip = array_at(pod, &["status", "podIPs"])
        .first()
        .map(|p| str_at(p, &["ip"]))
        .filter(|ip| !ip.is_empty())
        .unwrap_or_else(|| str_at(pod, &["status", "podIP"]));
    let gates = array_at(pod, &["spec", "readinessGates"]);
    let gates_cell = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let conditions = array_at(pod, &["status", "conditions"]);
        let true_count = gates
            .iter()
            .filter(|g| {
                let t = str_at(g, &["conditionType"]);
                conditions
                    .iter()
                    .any(|c| str_at(c, &["type"]) == t && str_at(c, &["status"]) == "True")
            })
            .count();
        format!("{true_count}/{}", gates.len())
    };
    vec![
        name(pod),
        cells.ready,
        cells.status,
        cells.restarts,
        age(pod, now),
        or_none(ip),
        or_none(str_at(pod, &["spec", "nodeName"])),
        or_none(str_at(pod, &["status", "nominatedNodeName"])),
        gates_cell,
    ]
}

pub fn event<T: Lookup + ?Sized>(e: &T, now: u64, wide: bool) -> Vec<String> {
    let first_seen = if str_at(e, &["firstTimestamp"]).is_empty() {
        since(e, &["eventTime"], now)
    } else {
        since(e, &["firstTimestamp"], now)
    };
    let mut last_seen = if str_at(e, &["lastTimestamp"]).is_empty() {
        first_seen.clone()
    } else {
        since(e, &["lastTimestamp"], now)
    };
    let mut count = int_at(e, &["count"]);
    if let Some(series) = at(e, &["series"]).filter(|s| s.is_object()) {
        last_seen = since(series, &["lastObservedTime"], now);
        count = int_at(series, &["count"]);
    } else if count == 0 {
        count = 1;
    }
    let kind = str_at(e, &["involvedObject", "kind"]).to_lowercase();
    let target = match str_at(e, &["involvedObject", "name"]) {
        "" => kind,
        n => format!("{kind}/{n}"),
    };
    let component = first_non_empty(
        str_at(e, &["source", "component"]),
        str_at(e, &["reportingComponent"]),
    );
    let host = first_non_empty(
        str_at(e, &["source", "host"]),
        str_at(e, &["reportingInstance"]),
    );
    let source = if host.is_empty() {
        component.to_string()
    } else {
        format!("{component}, {host}")
    };
    let message = str_at(e, &["message"]).trim().to_string();
    let (kind_type, reason) = (str_at(e, &["type"]), str_at(e, &["reason"]));
    // Narrow and wide orders differ, so choose here rather than truncating.
    if !wide {
        return vec![
            last_seen,
            kind_type.to_string(),
            reason.to_string(),
            target,
            message,
        ];
    }
    vec![
        last_seen,
        kind_type.to_string(),
        reason.to_string(),
        target,
        str_at(e, &["involvedObject", "fieldPath"]).to_string(),
        source,
        message,
        first_seen,
        count.to_string(),
        name(e),
    ]
}

fn first_non_empty<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.is_empty() { b } else { a }
}

/// printNode: STATUS from the Ready condition (`Ready`, `NotReady` for False or Unknown,
/// `Unknown` without one) and `SchedulingDisabled` when cordoned; ROLES from the
/// `node-role.kubernetes.io/<role>` and `kubernetes.io/role` labels.
pub fn node<T: Lookup + ?Sized>(n: &T, now: u64) -> Vec<String> {
    let conditions = array_at(n, &["status", "conditions"]);
    let mut status: Vec<&str> = conditions
        .iter()
        .filter(|c| str_at(c, &["type"]) == "Ready")
        .map(|c| {
            if str_at(c, &["status"]) == "True" {
                "Ready"
            } else {
                "NotReady"
            }
        })
        .take(1)
        .collect();
    if status.is_empty() {
        status.push("Unknown");
    }
    if at(n, &["spec", "unschedulable"]).and_then(serde_json::Value::as_bool) == Some(true) {
        status.push("SchedulingDisabled");
    }
    let mut roles: Vec<String> = at(n, &["metadata", "labels"])
        .and_then(serde_json::Value::as_object)
        .map(|labels| {
            labels
                .iter()
                .filter_map(|(k, v)| {
                    if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
                        (!role.is_empty()).then(|| role.to_string())
                    } else if k == "kubernetes.io/role" {
                        v.as_str().filter(|r| !r.is_empty()).map(str::to_string)
                    } else {
                        None
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    roles.sort();
    roles.dedup();
    let address = |kind: &str| {
        array_at(n, &["status", "addresses"])
            .iter()
            .find(|a| str_at(a, &["type"]) == kind)
            .map_or_else(
                || "<none>".to_string(),
                |a| str_at(a, &["address"]).to_string(),
            )
    };
    let info = |field: &str| match str_at(n, &["status", "nodeInfo", field]) {
        "" => "<unknown>".to_string(),
        s => s.to_string(),
    };
    vec![
        name(n),
        status.join(","),
        if roles.is_empty() {
            "<none>".to_string()
        } else {
            roles.join(",")
        },
        age(n, now),
        str_at(n, &["status", "nodeInfo", "kubeletVersion"]).to_string(),
        address("InternalIP"),
        address("ExternalIP"),
        info("osImage"),
        info("kernelVersion"),
        info("containerRuntimeVersion"),
    ]
}

/// printLease: the holder (empty when the lease has none).
pub fn lease<T: Lookup + ?Sized>(l: &T, now: u64) -> Vec<String> {
    vec![
        name(l),
        str_at(l, &["spec", "holderIdentity"]).to_string(),
        age(l, now),
    ]
}

/// `IntOrString.String()`, or `N/A` when the field is unset (`printPodDisruptionBudget`).
fn int_or_string_cell<T: Lookup + ?Sized>(obj: &T, path: &[&str]) -> String {
    match at(obj, path) {
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(serde_json::Value::String(s)) => s.clone(),
        _ => "N/A".into(),
    }
}

/// printMutatingWebhook / printValidatingWebhook: the number of webhooks.
pub fn webhook_configuration<T: Lookup + ?Sized>(c: &T, now: u64) -> Vec<String> {
    vec![
        name(c),
        array_at(c, &["webhooks"]).len().to_string(),
        age(c, now),
    ]
}

/// printValidatingAdmissionPolicy: the validations, and the kind of its parameters.
pub fn admission_policy<T: Lookup + ?Sized>(p: &T, now: u64) -> Vec<String> {
    let param = at(p, &["spec", "paramKind"])
        .filter(|k| k.is_object())
        .map_or("<unset>".to_string(), |k| {
            format!(
                "{}/{}",
                k["apiVersion"].as_str().unwrap_or(""),
                k["kind"].as_str().unwrap_or("")
            )
        });
    vec![
        name(p),
        array_at(p, &["spec", "validations"]).len().to_string(),
        param,
        age(p, now),
    ]
}

/// printValidatingAdmissionPolicyBinding: its policy, and where its parameters come from
/// (the demo has none).
pub fn admission_policy_binding<T: Lookup + ?Sized>(b: &T, now: u64) -> Vec<String> {
    vec![
        name(b),
        str_at(b, &["spec", "policyName"]).to_string(),
        "<unset>".to_string(),
        age(b, now),
    ]
}

pub fn pdb<T: Lookup + ?Sized>(p: &T, now: u64) -> Vec<String> {
    vec![
        name(p),
        int_or_string_cell(p, &["spec", "minAvailable"]),
        int_or_string_cell(p, &["spec", "maxUnavailable"]),
        int_at(p, &["status", "disruptionsAllowed"]).to_string(),
        age(p, now),
    ]
}

/// printService: the first cluster IP (`<none>` without one), the external IPs a
/// ClusterIP Service lists (`<none>`), `port[:nodePort]/protocol` per port, and the
/// selector in wide output.
pub fn service<T: Lookup + ?Sized>(s: &T, now: u64) -> Vec<String> {
    let ips = array_at(s, &["spec", "clusterIPs"]);
    let internal = ips
        .first()
        .and_then(serde_json::Value::as_str)
        .unwrap_or("<none>");
    let external = array_at(s, &["spec", "externalIPs"])
        .iter()
        .filter_map(serde_json::Value::as_str)
        .collect::<Vec<_>>()
        .join(",");
    let ports = array_at(s, &["spec", "ports"])
        .iter()
        .map(|p| {
            let proto = str_at(p, &["protocol"]);
            match int_at(p, &["nodePort"]) {
                0 => format!("{}/{proto}", int_at(p, &["port"])),
                node => format!("{}:{node}/{proto}", int_at(p, &["port"])),
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    let selector = sorted_pairs(s, &["spec", "selector"]);
    let or_none = |s: String| if s.is_empty() { "<none>".into() } else { s };
    vec![
        name(s),
        str_at(s, &["spec", "type"]).to_string(),
        internal.to_string(),
        or_none(external),
        or_none(ports),
        age(s, now),
        or_none(join_pairs(&selector)),
    ]
}

/// `formatEndpoints`: the ready addresses as `ip:port` for every port of their subset (a
/// subset without ports lists bare IPs), three at most and then `+ N more...`; `<none>`
/// with no subsets at all. Not-ready addresses are not listed.
pub fn endpoints<T: Lookup + ?Sized>(e: &T, now: u64) -> Vec<String> {
    let subsets = array_at(e, &["subsets"]);
    let cell = if subsets.is_empty() {
        "<none>".to_string()
    } else {
        let mut list = Vec::new();
        let mut count = 0;
        for ss in subsets {
            let addresses = array_at(ss, &["addresses"]);
            let ports = array_at(ss, &["ports"]);
            let per_port: Vec<Option<i64>> = if ports.is_empty() {
                vec![None]
            } else {
                ports.iter().map(|p| Some(int_at(p, &["port"]))).collect()
            };
            for port in per_port {
                count += addresses.len();
                for a in addresses.iter().take(3usize.saturating_sub(list.len())) {
                    let ip = str_at(a, &["ip"]);
                    list.push(match port {
                        Some(p) if ip.contains(':') => format!("[{ip}]:{p}"),
                        Some(p) => format!("{ip}:{p}"),
                        None => ip.to_string(),
                    });
                }
            }
        }
        more(list, count, false)
    };
    vec![name(e), cell, age(e, now)]
}

/// `listWithMoreString`: up to three items joined, `+ N more...` past them, and the
/// placeholder when there are none (`<unset>` for EndpointSlices).
fn more(list: Vec<String>, count: usize, unset: bool) -> String {
    let shown = list.len();
    let text = list.join(",");
    if count > shown {
        format!("{text} + {} more...", count - shown)
    } else if text.is_empty() && unset {
        "<unset>".into()
    } else {
        text
    }
}

/// printEndpointSlice: the address type, the ports (the number, else the name, else
/// `*`) and every endpoint's addresses, ready or not, three of each at most.
pub fn endpoint_slice<T: Lookup + ?Sized>(s: &T, now: u64) -> Vec<String> {
    let ports_all = array_at(s, &["ports"]);
    let ports: Vec<String> = ports_all
        .iter()
        .take(3)
        .map(|p| match (at(p, &["port"]), at(p, &["name"])) {
            (Some(serde_json::Value::Number(n)), _) => n.to_string(),
            (_, Some(serde_json::Value::String(n))) => n.clone(),
            _ => "*".into(),
        })
        .collect();
    let addresses: Vec<&str> = array_at(s, &["endpoints"])
        .iter()
        .flat_map(|e| array_at(e, &["addresses"]))
        .filter_map(serde_json::Value::as_str)
        .collect();
    let shown: Vec<String> = addresses.iter().take(3).map(|a| a.to_string()).collect();
    vec![
        name(s),
        str_at(s, &["addressType"]).to_string(),
        more(ports, ports_all.len(), true),
        more(shown, addresses.len(), true),
        age(s, now),
    ]
}

pub fn stateful_set<T: Lookup + ?Sized>(s: &T, now: u64) -> Vec<String> {
    let (containers, images) = container_cells(s);
    vec![
        name(s),
        format!(
            "{}/{}",
            int_at(s, &["status", "readyReplicas"]),
            int_at(s, &["spec", "replicas"])
        ),
        age(s, now),
        containers,
        images,
    ]
}

/// `printControllerRevision`: its controller as `kind.group/name` (`formatResourceName`
/// with the kind), `<none>` when it has none.
pub fn controller_revision<T: Lookup + ?Sized>(r: &T, now: u64) -> Vec<String> {
    let controller = array_at(r, &["metadata", "ownerReferences"])
        .iter()
        .find(|o| o["controller"] == true)
        .map_or_else(
            || "<none>".to_string(),
            |o| {
                let group = str_at(o, &["apiVersion"])
                    .rsplit_once('/')
                    .map_or("", |(g, _)| g);
                let kind = str_at(o, &["kind"]).to_ascii_lowercase();
                let gk = if group.is_empty() {
                    kind
                } else {
                    format!("{kind}.{group}")
                };
                format!("{gk}/{}", str_at(o, &["name"]))
            },
        );
    vec![
        name(r),
        controller,
        int_at(r, &["revision"]).to_string(),
        age(r, now),
    ]
}

/// `printPersistentVolumeClaim`: capacity and access modes only once a volume is bound.
pub fn persistent_volume_claim<T: Lookup + ?Sized>(c: &T, now: u64) -> Vec<String> {
    let phase = if at(c, &["metadata", "deletionTimestamp"]).is_some_and(|v| !v.is_null()) {
        "Terminating"
    } else {
        str_at(c, &["status", "phase"])
    };
    let volume = str_at(c, &["spec", "volumeName"]);
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            str_at(c, &["status", "capacity", "storage"]).to_string(),
            access_modes_text(
                at(c, &["status", "accessModes"]).unwrap_or(&serde_json::Value::Null),
            ),
        )
    };
    let or_unset = |s: &str| if s.is_empty() { "<unset>" } else { s }.to_string();
    vec![
        name(c),
        phase.to_string(),
        volume.to_string(),
        capacity,
        modes,
        storage_class(c),
        or_unset(str_at(c, &["spec", "volumeAttributesClassName"])),
        age(c, now),
        or_unset(str_at(c, &["spec", "volumeMode"])),
    ]
}

/// GetPersistentVolumeClaimClass: the beta annotation wins over `storageClassName`.
pub fn storage_class<T: Lookup + ?Sized>(c: &T) -> String {
    match at(
        c,
        &[
            "metadata",
            "annotations",
            "volume.beta.kubernetes.io/storage-class",
        ],
    )
    .and_then(serde_json::Value::as_str)
    {
        Some(a) => a.to_string(),
        None => str_at(c, &["spec", "storageClassName"]).to_string(),
    }
}

/// GetAccessModesAsString: the short forms, in kubectl's fixed order.
pub fn access_modes_text(modes: &serde_json::Value) -> String {
    let has = |m: &str| modes.as_array().is_some_and(|a| a.iter().any(|x| x == m));
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(long, _)| has(long))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// `printDaemonSet`: the node selector as `labels.FormatLabels` prints it.
pub fn daemon_set<T: Lookup + ?Sized>(d: &T, now: u64) -> Vec<String> {
    let (containers, images) = container_cells(d);
    let node_selector = sorted_pairs(d, &["spec", "template", "spec", "nodeSelector"]);
    let node_selector = if node_selector.is_empty() {
        "<none>".to_string()
    } else {
        join_pairs(&node_selector)
    };
    let int = |f: &str| int_at(d, &["status", f]).to_string();
    vec![
        name(d),
        int("desiredNumberScheduled"),
        int("currentNumberScheduled"),
        int("numberReady"),
        int("updatedNumberScheduled"),
        int("numberAvailable"),
        node_selector,
        age(d, now),
        containers,
        images,
        selector_string(at(d, &["spec", "selector"])),
    ]
}

/// Whether the object has a condition of `type_` with status True.
fn condition_true<T: Lookup + ?Sized>(obj: &T, type_: &str) -> bool {
    array_at(obj, &["status", "conditions"])
        .iter()
        .any(|c| c["type"] == type_ && c["status"] == "True")
}

/// `printJob` (1.32): STATUS from the first of Complete, Failed, a deletion under way,
/// Suspended and FailureTarget that holds, else Running; COMPLETIONS as `succeeded/
/// completions` (`succeeded/1 of N` for a work queue with parallelism N); DURATION from
/// the start to the completion, or to now while there is none (a failed Job's keeps
/// growing).
pub fn job<T: Lookup + ?Sized>(j: &T, now: u64) -> Vec<String> {
    let status = if condition_true(j, "Complete") {
        "Complete"
    } else if condition_true(j, "Failed") {
        "Failed"
    } else if at(j, &["metadata", "deletionTimestamp"]).is_some_and(|t| !t.is_null()) {
        "Terminating"
    } else if condition_true(j, "Suspended") {
        "Suspended"
    } else if condition_true(j, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let succeeded = int_at(j, &["status", "succeeded"]);
    let completions = match at(j, &["spec", "completions"]).and_then(|c| c.as_i64()) {
        Some(c) => format!("{succeeded}/{c}"),
        None => match int_at(j, &["spec", "parallelism"]) {
            p if p > 1 => format!("{succeeded}/1 of {p}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let time = |f: &str| crate::sim::time::parse_rfc3339(str_at(j, &["status", f]));
    let duration = match (time("startTime"), time("completionTime")) {
        (None, _) => String::new(),
        (Some(s), None) => crate::sim::time::human_duration(crate::sim::time::sim_unix(now) - s),
        (Some(s), Some(c)) => crate::sim::time::human_duration(c - s),
    };
    let (containers, images) = container_cells(j);
    vec![
        name(j),
        status.to_string(),
        completions,
        duration,
        age(j, now),
        containers,
        images,
        selector_string(at(j, &["spec", "selector"])),
    ]
}

/// `printCronJob` (1.32): the schedule as written, the time zone or `<none>`, SUSPEND as
/// printBoolPtr, the active Jobs counted, the last schedule's age or `<none>`; the
/// selector of a CronJob's job template is always `<none>`.
pub fn cron_job<T: Lookup + ?Sized>(c: &T, now: u64) -> Vec<String> {
    let zone = match str_at(c, &["spec", "timeZone"]) {
        "" => "<none>".to_string(),
        z => z.to_string(),
    };
    let suspend = match at(c, &["spec", "suspend"]).and_then(|v| v.as_bool()) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    let last = if str_at(c, &["status", "lastScheduleTime"]).is_empty() {
        "<none>".to_string()
    } else {
        since(c, &["status", "lastScheduleTime"], now)
    };
    let containers = array_at(
        c,
        &[
            "spec",
            "jobTemplate",
            "spec",
            "template",
            "spec",
            "containers",
        ],
    );
    let join = |field: &str| {
        containers
            .iter()
            .map(|x| str_at(x, &[field]))
            .collect::<Vec<_>>()
            .join(",")
    };
    vec![
        name(c),
        str_at(c, &["spec", "schedule"]).to_string(),
        zone,
        suspend.to_string(),
        array_at(c, &["status", "active"]).len().to_string(),
        last,
        age(c, now),
        join("name"),
        join("image"),
        // FormatLabelSelector of the template's selector, which is never set.
        match at(c, &["spec", "jobTemplate", "spec", "selector"]) {
            Some(s) if !s.is_null() => selector_string(Some(s)),
            _ => "<none>".to_string(),
        },
    ]
}

/// printHorizontalPodAutoscaler's cells and formatHPAMetrics (1.32: each resource metric
/// as `cpu: current/target`, at most two, then `+ N more...`).
pub fn hpa<T: Lookup + ?Sized>(h: &T, now: u64) -> Vec<String> {
    let target = |f: &str| str_at(h, &["spec", "scaleTargetRef", f]).to_string();
    let specs = array_at(h, &["spec", "metrics"]);
    let statuses = array_at(h, &["status", "currentMetrics"]);
    let mut list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let current = statuses
                .get(i)
                .map(|s| &s["resource"])
                .filter(|r| r.is_object());
            match spec["type"].as_str().unwrap_or("") {
                "Resource" => {
                    let r = &spec["resource"];
                    let name = r["name"].as_str().unwrap_or("");
                    if let Some(avg) = r["target"].get("averageValue").filter(|v| !v.is_null()) {
                        let cur = current.map_or("<unknown>".to_string(), |c| {
                            quantity_or_nil(&c["current"]["averageValue"])
                        });
                        format!("{name}: {cur}/{}", quantity_or_nil(avg))
                    } else {
                        let cur = current
                            .and_then(|c| c["current"]["averageUtilization"].as_i64())
                            .map_or("<unknown>".to_string(), |u| format!("{u}%"));
                        let tgt = r["target"]["averageUtilization"]
                            .as_i64()
                            .map_or("<auto>".to_string(), |u| format!("{u}%"));
                        format!("{name}: {cur}/{tgt}")
                    }
                }
                _ => "<unknown type>".to_string(),
            }
        })
        .collect();
    let metrics = if list.is_empty() {
        "<none>".to_string()
    } else if list.len() > 2 {
        let more = list.len() - 2;
        list.truncate(2);
        format!("{} + {more} more...", list.join(", "))
    } else {
        list.join(", ")
    };
    let int = |p: &[&str]| at(h, p).and_then(|v| v.as_i64()).unwrap_or(0).to_string();
    vec![
        name(h),
        format!("{}/{}", target("kind"), target("name")),
        metrics,
        at(h, &["spec", "minReplicas"])
            .and_then(|v| v.as_i64())
            .map_or("<unset>".to_string(), |m| m.to_string()),
        int(&["spec", "maxReplicas"]),
        int(&["status", "currentReplicas"]),
        age(h, now),
    ]
}

/// Quantity.String(), `<nil>` for a missing one.
fn quantity_or_nil(v: &serde_json::Value) -> String {
    if v.is_null() {
        return "<nil>".to_string();
    }
    crate::sim::quantity::canonical(v).unwrap_or_default()
}
