//! `kubectl expose` (kubectl's pkg/cmd/expose, 1.32): a Service for the pods of a
//! Deployment, ReplicaSet or pod, or beside another Service. The selector is the
//! object's (a Deployment's `matchLabels`; a pod's labels), the labels are the object's
//! own, the port is `--port` or the object's single container port (several become
//! `port-1`, `port-2`, ...), and the target port is `--target-port` or the port itself.

use serde_json::{Map, Value, json};

use super::args::{DryRun, ExposeOpts, Output, Target};
use super::cmdutil::*;
use super::create::finish_create;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;

/// `MakeLabels`: `k=v` pairs, sorted, comma-separated.
fn make_labels(m: &Value) -> String {
    let mut pairs: Vec<String> = m
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
        .collect();
    pairs.sort();
    pairs.join(",")
}

/// `parseLabels`: `k=v,k2=v2` into a map.
fn parse_labels(spec: &str) -> Result<Map<String, Value>, String> {
    if spec.is_empty() {
        return Err("no label spec passed".into());
    }
    let mut out = Map::new();
    for pair in spec.split(',') {
        let parts: Vec<&str> = pair.split('=').collect();
        let [k, v] = parts.as_slice() else {
            return Err(format!("unexpected label spec: {pair}"));
        };
        if k.is_empty() {
            return Err("unexpected empty label key".into());
        }
        out.insert(k.to_string(), json!(v));
    }
    Ok(out)
}

/// `MapBasedSelectorForObject`, `PortsForObject` and `ProtocolsForObject` for `obj`.
fn introspect(kind: Kind, obj: &Value) -> Result<(String, Vec<(String, String)>), String> {
    let containers_ports = |spec: &Value| -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for c in spec["containers"].as_array().into_iter().flatten() {
            for p in c["ports"].as_array().into_iter().flatten() {
                let port = p["containerPort"].as_i64().unwrap_or(0).to_string();
                let proto = p["protocol"].as_str().unwrap_or("TCP").to_string();
                if !out.iter().any(|(q, _)| *q == port) {
                    out.push((port, proto));
                }
            }
        }
        out
    };
    match kind {
        Kind::Deployment | Kind::ReplicaSet => {
            let sel = &obj["spec"]["selector"];
            let labels = &sel["matchLabels"];
            let what = if kind == Kind::Deployment {
                "deployment"
            } else {
                "replicaset"
            };
            if labels.as_object().is_none_or(|m| m.is_empty()) {
                return Err(format!(
                    "invalid {what}: no selectors, therefore cannot be exposed"
                ));
            }
            if sel["matchExpressions"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
            {
                return Err(format!(
                    "couldn't convert expressions - \"{}\" to map-based selector format",
                    sel["matchExpressions"]
                ));
            }
            Ok((
                make_labels(labels),
                containers_ports(&obj["spec"]["template"]["spec"]),
            ))
        }
        Kind::Pod => {
            let labels = &obj["metadata"]["labels"];
            if labels.as_object().is_none_or(|m| m.is_empty()) {
                return Err("the pod has no labels and cannot be exposed".into());
            }
            Ok((make_labels(labels), containers_ports(&obj["spec"])))
        }
        Kind::Service => {
            let sel = &obj["spec"]["selector"];
            if sel.is_null() {
                return Err("the service has no pod selector set".into());
            }
            let ports = obj["spec"]["ports"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    (
                        p["port"].as_i64().unwrap_or(0).to_string(),
                        p["protocol"].as_str().unwrap_or("TCP").to_string(),
                    )
                })
                .collect();
            Ok((make_labels(sel), ports))
        }
        other => Err(format!("cannot expose a {}", other.kind_name())),
    }
}

pub(super) fn expose(
    cluster: &mut Cluster,
    target: &Target,
    opts: &ExposeOpts,
    dry_run: DryRun,
    output: Option<&Output>,
) -> Outcome {
    let fail = |m: String| Outcome::default().err(format!("error: {m}\n"));
    let name = target.names.first().cloned().unwrap_or_default();
    let obj = match cluster.api.get(target.kind, &name) {
        Ok(o) => o.clone(),
        Err(e) => return Outcome::default().api(&e, None),
    };
    // The object's selector is read only when --selector does not give one.
    let (selector, ports) = match (introspect(target.kind, &obj), &opts.selector) {
        (Ok((_, ports)), Some(given)) => (given.clone(), ports),
        (Err(_), Some(given)) => (given.clone(), Vec::new()),
        (Ok(x), None) => x,
        (Err(e), None) => {
            return fail(format!(
                "couldn't retrieve selectors via --selector flag or introspection: {e}"
            ));
        }
    };
    let headless = opts.cluster_ip.as_deref() == Some("None");
    let port_list: Vec<String> = match &opts.port {
        Some(p) => p.split(',').map(str::to_string).collect(),
        None if ports.is_empty() && !headless => {
            return fail("couldn't find port via --port flag or introspection".into());
        }
        None => ports.iter().map(|(p, _)| p.clone()).collect(),
    };
    let mut svc_ports = Vec::new();
    for (i, p) in port_list.iter().enumerate() {
        let Ok(port) = p.parse::<i64>() else {
            return fail(format!("strconv.Atoi: parsing {p:?}: invalid syntax"));
        };
        let protocol = opts.protocol.clone().unwrap_or_else(|| {
            ports
                .iter()
                .find(|(q, _)| q == p)
                .map_or("TCP".to_string(), |(_, proto)| proto.clone())
        });
        let mut sp = json!({"port": port, "protocol": protocol});
        if port_list.len() > 1 {
            sp["name"] = json!(format!("port-{}", i + 1));
        }
        sp["targetPort"] = match &opts.target_port {
            Some(t) => t.parse::<i64>().map_or_else(|_| json!(t), |n| json!(n)),
            None => json!(port),
        };
        svc_ports.push(sp);
    }
    let selector = match parse_labels(&selector) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let labels = match &opts.labels {
        Some(l) => match parse_labels(l) {
            Ok(m) => Value::Object(m),
            Err(e) => return fail(e),
        },
        None => obj["metadata"]["labels"].clone(),
    };
    // DNS1035LabelMaxLength; names are ASCII, counted in chars all the same.
    let svc_name = opts
        .name
        .clone()
        .unwrap_or_else(|| name.chars().take(63).collect());
    let mut svc = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": svc_name},
        "spec": {"ports": svc_ports, "selector": selector},
    });
    if labels.as_object().is_some_and(|m| !m.is_empty()) {
        svc["metadata"]["labels"] = labels;
    }
    if let Some(a) = &opts.session_affinity {
        if a != "None" && a != "ClientIP" {
            return fail(format!("unknown session affinity: {a}"));
        }
        svc["spec"]["sessionAffinity"] = json!(a);
    }
    if let Some(ip) = &opts.cluster_ip {
        svc["spec"]["clusterIP"] = json!(ip);
    }
    let failed = |e: &crate::sim::api::ApiError| Outcome::default().api(e, None);
    finish_create(
        cluster,
        Kind::Service,
        svc,
        dry_run,
        output,
        "exposed",
        failed,
    )
}
