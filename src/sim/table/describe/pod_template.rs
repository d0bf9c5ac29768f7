//! `DescribePodTemplate` and the container, volume and toleration blocks under it.

use super::super::fields::{array_at, at, bool_at, int_at, sorted_pairs, str_at};
use super::{annotations_multiline, int_or_string, labels_multiline};
use serde_json::Value;

/// `DescribePodTemplate` for kubectl 1.30+ (with Node-Selectors and Tolerations).
pub(super) fn pod_template(w: &mut String, template: &Value) {
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
        containers(w, "  ", "Init Containers", init, &[]);
    }
    containers(
        w,
        "  ",
        "Containers",
        array_at(template, &["spec", "containers"]),
        &[],
    );
    volumes(w, "  ", array_at(template, &["spec", "volumes"]));
    labels_multiline(
        w,
        "  ",
        "Node-Selectors",
        &sorted_pairs(template, &["spec", "nodeSelector"]),
    );
    tolerations(w, "  ", array_at(template, &["spec", "tolerations"]));
    let priority = str_at(template, &["spec", "priorityClassName"]);
    if !priority.is_empty() {
        *w += &format!("  Priority Class Name:\t{priority}\n");
    }
}

/// `describeContainers`: under a template (`space` "  ") or a pod (`space` ""), where
/// `statuses` adds each container's ID, image ID and state.
pub(super) fn containers(
    w: &mut String,
    space: &str,
    label: &str,
    list: &[Value],
    statuses: &[Value],
) {
    let none = if list.is_empty() { " <none>" } else { "" };
    *w += &format!("{space}{label}:{none}\n");
    let name_indent = if space.is_empty() { "" } else { " " };
    for c in list {
        let name = str_at(c, &["name"]);
        let status = statuses.iter().find(|s| str_at(s, &["name"]) == name);
        *w += &format!("  {name_indent}{name}:\n");
        if let Some(st) = status {
            *w += &format!("    Container ID:\t{}\n", str_at(st, &["containerID"]));
        }
        *w += &format!("    Image:\t{}\n", str_at(c, &["image"]));
        if let Some(st) = status {
            *w += &format!("    Image ID:\t{}\n", str_at(st, &["imageID"]));
        }
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
        if let Some(st) = status {
            container_state(w, "State", at(st, &["state"]));
            if let Some(last) = at(st, &["lastState"]).filter(|l| l.get("terminated").is_some()) {
                container_state(w, "Last State", Some(last));
            }
            let ready = if bool_at(st, &["ready"]) {
                "True"
            } else {
                "False"
            };
            *w += &format!("    Ready:\t{ready}\n");
            *w += &format!("    Restart Count:\t{}\n", int_at(st, &["restartCount"]));
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

/// `describeStatus`: a container's state and, at six spaces, what the state holds.
fn container_state(w: &mut String, title: &str, state: Option<&Value>) {
    let at_time = |v: &Value, f: &str| {
        crate::sim::time::parse_rfc3339(str_at(v, &[f])).map_or_else(
            || crate::sim::time::rfc1123z(super::GO_ZERO_TIME_UNIX),
            crate::sim::time::rfc1123z,
        )
    };
    let state = state.unwrap_or(&Value::Null);
    if let Some(r) = at(state, &["running"]).filter(|v| v.is_object()) {
        *w += &format!("    {title}:\tRunning\n");
        *w += &format!("      Started:\t{}\n", at_time(r, "startedAt"));
    } else if let Some(wt) = at(state, &["waiting"]).filter(|v| v.is_object()) {
        *w += &format!("    {title}:\tWaiting\n");
        let reason = str_at(wt, &["reason"]);
        if !reason.is_empty() {
            *w += &format!("      Reason:\t{reason}\n");
        }
    } else if let Some(t) = at(state, &["terminated"]).filter(|v| v.is_object()) {
        *w += &format!("    {title}:\tTerminated\n");
        for (label, field) in [("Reason", "reason"), ("Message", "message")] {
            let v = str_at(t, &[field]);
            if !v.is_empty() {
                *w += &format!("      {label}:\t{v}\n");
            }
        }
        *w += &format!("      Exit Code:\t{}\n", int_at(t, &["exitCode"]));
        let signal = int_at(t, &["signal"]);
        if signal > 0 {
            *w += &format!("      Signal:\t{signal}\n");
        }
        *w += &format!("      Started:\t{}\n", at_time(t, "startedAt"));
        *w += &format!("      Finished:\t{}\n", at_time(t, "finishedAt"));
    } else {
        *w += &format!("    {title}:\tWaiting\n");
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

/// `describeVolumes`, under a template (`space` "  ") or a pod (`space` "").
pub(super) fn volumes(w: &mut String, space: &str, list: &[Value]) {
    if list.is_empty() {
        *w += &format!("{space}Volumes:\t<none>\n");
        return;
    }
    *w += &format!("{space}Volumes:\n");
    let name_indent = if space.is_empty() { "" } else { " " };
    for v in list {
        *w += &format!("  {name_indent}{}:\n", str_at(v, &["name"]));
        if let Some(e) = at(v, &["emptyDir"]) {
            *w += "    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n";
            *w += &format!("    Medium:\t{}\n", str_at(e, &["medium"]));
            let limit = str_at(e, &["sizeLimit"]);
            *w += &format!(
                "    SizeLimit:\t{}\n",
                if limit.is_empty() { "<unset>" } else { limit }
            );
        } else if let Some(c) = at(v, &["persistentVolumeClaim"]) {
            *w += "    Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n";
            *w += &format!("    ClaimName:\t{}\n", str_at(c, &["claimName"]));
            *w += &format!("    ReadOnly:\t{}\n", bool_at(c, &["readOnly"]));
        } else if let Some(c) = at(v, &["configMap"]) {
            *w += "    Type:\tConfigMap (a volume populated by a ConfigMap)\n";
            *w += &format!("    Name:\t{}\n", str_at(c, &["name"]));
            *w += &format!("    Optional:\t{}\n", bool_at(c, &["optional"]));
        } else if let Some(s) = at(v, &["secret"]) {
            *w += "    Type:\tSecret (a volume populated by a Secret)\n";
            *w += &format!("    SecretName:\t{}\n", str_at(s, &["secretName"]));
            *w += &format!("    Optional:\t{}\n", bool_at(s, &["optional"]));
        } else if let Some(p) = at(v, &["projected"]) {
            *w += "    Type:\tProjected (a volume that contains injected data from multiple sources)\n";
            // Optional is a *bool printed with %v: `<nil>` when unset.
            let optional = |o: &Value| match at(o, &["optional"]) {
                Some(Value::Bool(b)) => b.to_string(),
                _ => "<nil>".to_string(),
            };
            for src in array_at(p, &["sources"]) {
                if let Some(s) = at(src, &["secret"]) {
                    *w += &format!("    SecretName:\t{}\n", str_at(s, &["name"]));
                    *w += &format!("    SecretOptionalName:\t{}\n", optional(s));
                } else if at(src, &["downwardAPI"]).is_some() {
                    *w += "    DownwardAPI:\ttrue\n";
                } else if let Some(c) = at(src, &["configMap"]) {
                    *w += &format!("    ConfigMapName:\t{}\n", str_at(c, &["name"]));
                    *w += &format!("    ConfigMapOptional:\t{}\n", optional(c));
                } else if let Some(t) = at(src, &["serviceAccountToken"]) {
                    *w += &format!(
                        "    TokenExpirationSeconds:\t{}\n",
                        int_at(t, &["expirationSeconds"])
                    );
                }
            }
        }
    }
}

/// `printTolerationsMultilineWithIndent`, at `space`.
pub(super) fn tolerations(w: &mut String, space: &str, list: &[Value]) {
    *w += &format!("{space}Tolerations:\t");
    if list.is_empty() {
        *w += "<none>\n";
        return;
    }
    let mut sorted: Vec<&Value> = list.iter().collect();
    sorted.sort_by(|a, b| str_at(a, &["key"]).cmp(str_at(b, &["key"])));
    for (i, t) in sorted.into_iter().enumerate() {
        if i != 0 {
            *w += &format!("{space}\t");
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
        // A bare `operator: Exists` tolerates everything, and prints so without a space.
        if str_at(t, &["operator"]) == "Exists" && value.is_empty() {
            *w += if str_at(t, &["key"]).is_empty() && effect.is_empty() {
                "op=Exists"
            } else {
                " op=Exists"
            };
        }
        if let Some(secs) = at(t, &["tolerationSeconds"]).and_then(Value::as_i64) {
            *w += &format!(" for {secs}s");
        }
        *w += "\n";
    }
}
