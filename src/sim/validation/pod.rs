//! ValidatePodSpec (Kubernetes 1.32 `pkg/apis/core/validation`) for what a pod spec in the
//! demo carries: each container's name, image, termination message policy, ports,
//! environment names, pull policy and resources, in the order validateContainerCommon
//! checks them, duplicate names, then the pod's restart and DNS policies and
//! activeDeadlineSeconds. Fields the API server defaults before it validates (protocol,
//! pull policy, restart policy, ...) are never missing here, so their Required errors
//! cannot occur. Volumes, probes, security contexts and affinity are not checked.

use serde_json::Value;

use super::meta::dns1123_label;
use crate::sim::output::go_quote;
use crate::sim::quantity::Quantity;

/// field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`.
pub(super) fn not_supported(errs: &mut Vec<String>, path: &str, value: &str, supported: &[&str]) {
    let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
    errs.push(format!(
        "{path}: Unsupported value: {}: supported values: {}",
        go_quote(value),
        list.join(", ")
    ));
}

/// An enum field the server defaulted: only a value outside `supported` is an error.
pub(super) fn one_of(errs: &mut Vec<String>, path: &str, value: &Value, supported: &[&str]) {
    if let Some(v) = value.as_str().filter(|v| !supported.contains(v)) {
        not_supported(errs, path, v, supported);
    }
}

/// IsValidPortName.
pub(super) fn port_name(name: &str) -> Vec<&'static str> {
    let mut errs = Vec::new();
    if name.len() > 15 {
        errs.push("must be no more than 15 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if !name.chars().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)");
    }
    if name.contains("--") {
        errs.push("must not contain consecutive hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') {
        errs.push("must not begin or end with a hyphen");
    }
    errs
}

pub(super) const PORT_RANGE: &str = "must be between 1 and 65535, inclusive";

/// validateContainerPorts.
fn ports(errs: &mut Vec<String>, path: &str, ports: &Value) {
    let mut names: Vec<&str> = Vec::new();
    for (j, port) in ports.as_array().into_iter().flatten().enumerate() {
        let q = format!("{path}[{j}]");
        if let Some(name) = port["name"].as_str().filter(|n| !n.is_empty()) {
            let bad = port_name(name);
            for m in &bad {
                errs.push(format!("{q}.name: Invalid value: {}: {m}", go_quote(name)));
            }
            if bad.is_empty() {
                if names.contains(&name) {
                    errs.push(format!("{q}.name: Duplicate value: {}", go_quote(name)));
                } else {
                    names.push(name);
                }
            }
        }
        match port["containerPort"].as_i64() {
            None | Some(0) => errs.push(format!("{q}.containerPort: Required value")),
            Some(p) if !(1..=65535).contains(&p) => errs.push(format!(
                "{q}.containerPort: Invalid value: {p}: {PORT_RANGE}"
            )),
            Some(_) => {}
        }
        if let Some(p) = port["hostPort"]
            .as_i64()
            .filter(|p| *p != 0 && !(1..=65535).contains(p))
        {
            errs.push(format!("{q}.hostPort: Invalid value: {p}: {PORT_RANGE}"));
        }
        one_of(
            errs,
            &format!("{q}.protocol"),
            &port["protocol"],
            &["SCTP", "TCP", "UDP"],
        );
    }
}

/// ValidateEnv's names, with RelaxedEnvironmentVariableValidation (on by default in 1.32):
/// printable ASCII but '='.
fn env(errs: &mut Vec<String>, path: &str, env: &Value) {
    for (k, e) in env.as_array().into_iter().flatten().enumerate() {
        match e["name"].as_str() {
            None | Some("") => errs.push(format!("{path}[{k}].name: Required value")),
            Some(n) if !n.chars().all(|c| (' '..='~').contains(&c) && c != '=') => {
                errs.push(format!(
                    "{path}[{k}].name: Invalid value: {}: a valid environment variable name must consist only of printable ASCII characters other than '='",
                    go_quote(n)
                ));
            }
            Some(_) => {}
        }
    }
}

/// validateContainerCommon, for the fields the demo's containers have.
fn container(errs: &mut Vec<String>, p: &str, c: &Value) {
    match c["name"].as_str().filter(|n| !n.is_empty()) {
        None => errs.push(format!("{p}.name: Required value")),
        Some(n) => {
            for m in dns1123_label(n) {
                errs.push(format!("{p}.name: Invalid value: {}: {m}", go_quote(n)));
            }
        }
    }
    if c["image"].as_str().is_none_or(str::is_empty) {
        errs.push(format!("{p}.image: Required value"));
    }
    one_of(
        errs,
        &format!("{p}.terminationMessagePolicy"),
        &c["terminationMessagePolicy"],
        &["File", "FallbackToLogsOnError"],
    );
    ports(errs, &format!("{p}.ports"), &c["ports"]);
    env(errs, &format!("{p}.env"), &c["env"]);
    one_of(
        errs,
        &format!("{p}.imagePullPolicy"),
        &c["imagePullPolicy"],
        &["Always", "IfNotPresent", "Never"],
    );
    resources(errs, &format!("{p}.resources"), &c["resources"]);
}

/// ValidatePodSpec at `path` (`spec.template.spec` for a workload's template).
pub(super) fn pod_spec(errs: &mut Vec<String>, path: &str, spec: &Value) {
    let containers = spec["containers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if containers.is_empty() {
        errs.push(format!("{path}.containers: Required value"));
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, c) in containers.iter().enumerate() {
        let p = format!("{path}.containers[{i}]");
        container(errs, &p, c);
        let name = c["name"].as_str().unwrap_or("");
        if names.contains(&name) {
            errs.push(format!("{p}.name: Duplicate value: {}", go_quote(name)));
        }
        names.push(name);
    }
    for (i, c) in spec["initContainers"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let p = format!("{path}.initContainers[{i}]");
        container(errs, &p, c);
        // Init container names share the pod's name space; empty ones are not recorded.
        if let Some(name) = c["name"].as_str().filter(|n| !n.is_empty()) {
            if names.contains(&name) {
                errs.push(format!("{p}.name: Duplicate value: {}", go_quote(name)));
            }
            names.push(name);
        }
    }
    one_of(
        errs,
        &format!("{path}.restartPolicy"),
        &spec["restartPolicy"],
        &["Always", "OnFailure", "Never"],
    );
    one_of(
        errs,
        &format!("{path}.dnsPolicy"),
        &spec["dnsPolicy"],
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
    );
    if let Some(d) = spec["activeDeadlineSeconds"]
        .as_i64()
        .filter(|d| !(1..=i64::from(i32::MAX)).contains(d))
    {
        errs.push(format!(
            "{path}.activeDeadlineSeconds: Invalid value: {d}: must be between 1 and 2147483647, inclusive"
        ));
    }
}

/// ValidateResourceRequirements for CPU, memory and the like: no negative quantity, and
/// no request above its limit. Quantities print in canonical form, as the API's do.
pub(super) fn resources(errs: &mut Vec<String>, path: &str, r: &Value) {
    let read = |list: &str| -> Vec<(String, Quantity)> {
        r[list]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.clone(), Quantity::from_json(v).ok()?)))
            .collect()
    };
    let (limits, requests) = (read("limits"), read("requests"));
    for (list, items) in [("limits", &limits), ("requests", &requests)] {
        for (name, q) in items.iter().filter(|(_, q)| q.nanos() < 0) {
            errs.push(format!(
                "{path}.{list}[{name}]: Invalid value: \"{}\": must be greater than or equal to 0",
                q.canonical()
            ));
        }
    }
    for (name, request) in &requests {
        if let Some((_, limit)) = limits.iter().find(|(n, _)| n == name)
            && request.nanos() > limit.nanos()
        {
            errs.push(format!(
                "{path}.requests: Invalid value: \"{}\": must be less than or equal to {name} limit of {}",
                request.canonical(),
                limit.canonical()
            ));
        }
    }
}
