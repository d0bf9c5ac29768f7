//! `kubectl describe deployment` (kubectl 1.32 describe.go): lines are written with tabs as
//! kubectl's PrefixWriter does, then aligned by the describe tabwriter.

use super::fields::{array_at, at, bool_at, int_at, selector_string, since, sorted_pairs, str_at};
use super::tabwriter::TabWriter;
use crate::sim::time;
use serde_json::Value;

const MAX_ANNOTATION_LEN: usize = 140;
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The describe text for `deploy`. `rss` and `events` may hold unrelated objects: only the
/// ReplicaSets it controls and the events about it are shown.
pub fn describe_deployment(deploy: &Value, rss: &[Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    let created = time::parse_rfc3339(str_at(deploy, &["metadata", "creationTimestamp"]))
        .map_or_else(String::new, time::rfc1123z);
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
    let conditions = array_at(deploy, &["status", "conditions"]);
    if !conditions.is_empty() {
        w += "Conditions:\n  Type\tStatus\tReason\n";
        w += "  ----\t------\t------\n";
        for c in conditions {
            w += &format!(
                "  {} \t{}\t{}\n",
                str_at(c, &["type"]),
                str_at(c, &["status"]),
                str_at(c, &["reason"])
            );
        }
    }
    let (old, new) = split_replica_sets(deploy, rss);
    w += &format!("OldReplicaSets:\t{}\n", replica_sets_cell(&old));
    w += &format!(
        "NewReplicaSet:\t{}\n",
        replica_sets_cell(&new.into_iter().collect::<Vec<_>>())
    );
    describe_events(&mut w, deploy, events, now);
    TabWriter::DESCRIBE.format(&w)
}

/// `intstr.String()`: an int prints as a number, a string as itself.
fn int_or_string(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "0".to_string(),
    }
}

/// `printLabelsMultilineWithIndent`: first pair after the title, the rest on `\t` lines.
fn labels_multiline(w: &mut String, indent: &str, title: &str, pairs: &[(String, String)]) {
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
fn annotations_multiline(w: &mut String, title: &str, obj: &Value, path: &[&str]) {
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

/// `DescribePodTemplate` for kubectl 1.30+ (with Node-Selectors and Tolerations).
fn pod_template(w: &mut String, template: &Value) {
    *w += "Pod Template:\n";
    labels_multiline(
        w,
        "",
        "  Labels",
        &sorted_pairs(template, &["metadata", "labels"]),
    );
    if at(template, &["metadata", "annotations"])
        .is_some_and(|a| a.as_object().is_some_and(|m| !m.is_empty()))
    {
        annotations_multiline(w, "  Annotations", template, &["metadata", "annotations"]);
    }
    let sa = str_at(template, &["spec", "serviceAccountName"]);
    if !sa.is_empty() {
        *w += &format!("  Service Account:\t{sa}\n");
    }
    let init = array_at(template, &["spec", "initContainers"]);
    if !init.is_empty() {
        containers(w, "Init Containers", init);
    }
    containers(w, "Containers", array_at(template, &["spec", "containers"]));
    volumes(w, array_at(template, &["spec", "volumes"]));
    labels_multiline(
        w,
        "  ",
        "Node-Selectors",
        &sorted_pairs(template, &["spec", "nodeSelector"]),
    );
    tolerations(w, array_at(template, &["spec", "tolerations"]));
    let priority = str_at(template, &["spec", "priorityClassName"]);
    if !priority.is_empty() {
        *w += &format!("  Priority Class Name:\t{priority}\n");
    }
}

fn containers(w: &mut String, label: &str, list: &[Value]) {
    let none = if list.is_empty() { " <none>" } else { "" };
    *w += &format!("  {label}:{none}\n");
    for c in list {
        *w += &format!("   {}:\n", str_at(c, &["name"]));
        *w += &format!("    Image:\t{}\n", str_at(c, &["image"]));
        let ports = array_at(c, &["ports"]);
        let port_list = |field: &str| {
            ports
                .iter()
                .map(|p| {
                    let proto = match str_at(p, &["protocol"]) {
                        "" => "TCP",
                        other => other,
                    };
                    format!("{}/{proto}", int_at(p, &[field]))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (single, plural, field) in [
            ("Port", "Ports", "containerPort"),
            ("Host Port", "Host Ports", "hostPort"),
        ] {
            let text = port_list(field);
            if text.contains(',') {
                *w += &format!("    {plural}:\t{text}\n");
            } else {
                *w += &format!(
                    "    {single}:\t{}\n",
                    if text.is_empty() { "<none>" } else { &text }
                );
            }
        }
        for (title, field) in [("Command", "command"), ("Args", "args")] {
            let items = array_at(c, &[field]);
            if !items.is_empty() {
                *w += &format!("    {title}:\n");
                for item in items {
                    for line in item.as_str().unwrap_or("").split('\n') {
                        *w += &format!("      {line}\n");
                    }
                }
            }
        }
        for (title, field) in [("Limits", "limits"), ("Requests", "requests")] {
            let pairs = sorted_pairs(c, &["resources", field]);
            if !pairs.is_empty() {
                *w += &format!("    {title}:\n");
            }
            for (name, quantity) in pairs {
                *w += &format!("      {name}:\t{quantity}\n");
            }
        }
        for (title, field) in [
            ("Liveness", "livenessProbe"),
            ("Readiness", "readinessProbe"),
            ("Startup", "startupProbe"),
        ] {
            if let Some(p) = at(c, &[field]).filter(|p| p.is_object()) {
                *w += &format!("    {title}:\t{}\n", describe_probe(p));
            }
        }
        let env = array_at(c, &["env"]);
        *w += &format!(
            "    Environment:{}\n",
            if env.is_empty() { "\t<none>" } else { "" }
        );
        for e in env {
            let name = str_at(e, &["name"]);
            if let Some(from) = at(e, &["valueFrom"]) {
                *w += &format!("      {name}:\t{}\n", env_value_from(from));
                continue;
            }
            for (i, line) in str_at(e, &["value"]).split('\n').enumerate() {
                if i == 0 {
                    *w += &format!("      {name}:\t{line}\n");
                } else {
                    *w += &format!("      \t{line}\n");
                }
            }
        }
        let mut mounts: Vec<&Value> = array_at(c, &["volumeMounts"]).iter().collect();
        *w += &format!(
            "    Mounts:{}\n",
            if mounts.is_empty() { "\t<none>" } else { "" }
        );
        mounts.sort_by(|a, b| str_at(a, &["mountPath"]).cmp(str_at(b, &["mountPath"])));
        for m in mounts {
            let mut flags = vec![if bool_at(m, &["readOnly"]) {
                "ro".to_string()
            } else {
                "rw".to_string()
            }];
            let sub = str_at(m, &["subPath"]);
            if !sub.is_empty() {
                flags.push(format!("path={sub:?}"));
            }
            *w += &format!(
                "      {} from {} ({})\n",
                str_at(m, &["mountPath"]),
                str_at(m, &["name"]),
                flags.join(",")
            );
        }
    }
}

fn env_value_from(from: &Value) -> String {
    if let Some(f) = at(from, &["fieldRef"]) {
        return format!(
            " ({}:{})",
            str_at(f, &["apiVersion"]),
            str_at(f, &["fieldPath"])
        );
    }
    if let Some(s) = at(from, &["secretKeyRef"]) {
        return format!(
            "<set to the key '{}' in secret '{}'>  Optional: {}",
            str_at(s, &["key"]),
            str_at(s, &["name"]),
            bool_at(s, &["optional"])
        );
    }
    if let Some(c) = at(from, &["configMapKeyRef"]) {
        return format!(
            "<set to the key '{}' of config map '{}'>  Optional: {}",
            str_at(c, &["key"]),
            str_at(c, &["name"]),
            bool_at(c, &["optional"])
        );
    }
    String::new()
}

/// `DescribeProbe` for exec, httpGet and tcpSocket probes.
fn describe_probe(p: &Value) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        int_at(p, &["initialDelaySeconds"]),
        int_at(p, &["timeoutSeconds"]),
        int_at(p, &["periodSeconds"]),
        int_at(p, &["successThreshold"]),
        int_at(p, &["failureThreshold"]),
    );
    if let Some(exec) = at(p, &["exec"]) {
        let cmd: Vec<&str> = array_at(exec, &["command"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        return format!("exec [{}] {attrs}", cmd.join(" "));
    }
    if let Some(h) = at(p, &["httpGet"]) {
        let scheme = match str_at(h, &["scheme"]).to_lowercase() {
            s if s.is_empty() => "http".to_string(),
            s => s,
        };
        let port = int_or_string(h.get("port"));
        let host = str_at(h, &["host"]);
        return format!(
            "http-get {scheme}://{host}:{port}{} {attrs}",
            str_at(h, &["path"])
        );
    }
    if let Some(t) = at(p, &["tcpSocket"]) {
        return format!(
            "tcp-socket {}:{} {attrs}",
            str_at(t, &["host"]),
            int_or_string(t.get("port"))
        );
    }
    format!("unknown {attrs}")
}

fn volumes(w: &mut String, list: &[Value]) {
    if list.is_empty() {
        *w += "  Volumes:\t<none>\n";
        return;
    }
    *w += "  Volumes:\n";
    for v in list {
        *w += &format!("   {}:\n", str_at(v, &["name"]));
        if let Some(e) = at(v, &["emptyDir"]) {
            *w += "    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n";
            *w += &format!("    Medium:\t{}\n", str_at(e, &["medium"]));
            let limit = str_at(e, &["sizeLimit"]);
            *w += &format!(
                "    SizeLimit:\t{}\n",
                if limit.is_empty() { "<unset>" } else { limit }
            );
        } else if let Some(c) = at(v, &["configMap"]) {
            *w += "    Type:\tConfigMap (a volume populated by a ConfigMap)\n";
            *w += &format!("    Name:\t{}\n", str_at(c, &["name"]));
            *w += &format!("    Optional:\t{}\n", bool_at(c, &["optional"]));
        } else if let Some(s) = at(v, &["secret"]) {
            *w += "    Type:\tSecret (a volume populated by a Secret)\n";
            *w += &format!("    SecretName:\t{}\n", str_at(s, &["secretName"]));
            *w += &format!("    Optional:\t{}\n", bool_at(s, &["optional"]));
        }
    }
}

fn tolerations(w: &mut String, list: &[Value]) {
    *w += "  Tolerations:\t";
    if list.is_empty() {
        *w += "<none>\n";
        return;
    }
    for (i, t) in list.iter().enumerate() {
        if i != 0 {
            *w += "  \t";
        }
        *w += str_at(t, &["key"]);
        let value = str_at(t, &["value"]);
        if !value.is_empty() {
            *w += &format!("={value}");
        }
        let effect = str_at(t, &["effect"]);
        if !effect.is_empty() {
            *w += &format!(":{effect}");
        }
        if str_at(t, &["operator"]) == "Exists" && value.is_empty() {
            *w += " op=Exists";
        }
        if let Some(secs) = at(t, &["tolerationSeconds"]).and_then(Value::as_i64) {
            *w += &format!(" for {secs}s");
        }
        *w += "\n";
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

/// Controlled ReplicaSets split as `GetAllReplicaSets` does: the new one (oldest matching
/// template) and the old ones that still want pods.
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
    let mut matching: Vec<&Value> = owned
        .iter()
        .copied()
        .filter(|rs| matches_template(deploy, rs))
        .collect();
    matching.sort_by(|a, b| {
        let key = |v: &Value| {
            (
                time::parse_rfc3339(str_at(v, &["metadata", "creationTimestamp"])).unwrap_or(0),
                str_at(v, &["metadata", "name"]).to_string(),
            )
        };
        key(a).cmp(&key(b))
    });
    let new = matching.first().copied();
    let old = owned
        .into_iter()
        .filter(|rs| !new.is_some_and(|n| std::ptr::eq(n, *rs)))
        .filter(|rs| int_at(rs, &["spec", "replicas"]) != 0)
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

/// `DescribeEvents`: sorted by lastTimestamp; Age is since the first occurrence.
fn describe_events(w: &mut String, deploy: &Value, events: &[Value], now: u64) {
    let name = str_at(deploy, &["metadata", "name"]);
    let uid = str_at(deploy, &["metadata", "uid"]);
    let mut mine: Vec<&Value> = events
        .iter()
        .filter(|e| {
            let obj = at(e, &["involvedObject"]).unwrap_or(&Value::Null);
            str_at(obj, &["kind"]) == "Deployment"
                && str_at(obj, &["name"]) == name
                && (uid.is_empty()
                    || str_at(obj, &["uid"]).is_empty()
                    || str_at(obj, &["uid"]) == uid)
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
            "" => str_at(e, &["reportingController"]),
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
