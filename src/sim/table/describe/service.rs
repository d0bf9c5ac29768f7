//! `kubectl describe` of a Service, its Endpoints and its EndpointSlices (kubectl 1.32
//! describe.go `describeService`, `describeEndpoints`, `describeEndpointSliceV1`). A
//! Service's `Endpoints:` line is read from its EndpointSlices, as kubectl has since 1.31
//! (kubernetes/kubernetes#124598), not from the Endpoints object.

use serde_json::Value;

use super::super::fields::{array_at, at, int_at, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline};

fn head(w: &mut String, obj: &Value) {
    *w += &format!("Name:\t{}\n", str_at(obj, &["metadata", "name"]));
    *w += &format!("Namespace:\t{}\n", str_at(obj, &["metadata", "namespace"]));
    labels_multiline(w, "", "Labels", &sorted_pairs(obj, &["metadata", "labels"]));
    annotations_multiline(w, "Annotations", obj, &["metadata", "annotations"]);
}

fn strings(v: &Value, path: &[&str]) -> Vec<String> {
    array_at(v, path)
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// `net.JoinHostPort`.
fn host_port(ip: &str, port: i64) -> String {
    if ip.contains(':') {
        format!("[{ip}]:{port}")
    } else {
        format!("{ip}:{port}")
    }
}

/// `formatEndpointSlices` for the port named `port`: each ready endpoint's first
/// address with the slice's port, three at most; `<none>` with no slices. Its quirk is
/// kept: it notices the list is full before it skips a not-ready endpoint, so three
/// ready endpoints and one not ready read `... + 0 more...`.
fn endpoint_slices(slices: &[&Value], port: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    let (mut list, mut more, mut count) = (Vec::new(), false, 0);
    let ready = |e: &Value| at(e, &["conditions", "ready"]).and_then(Value::as_bool) != Some(false);
    for s in slices {
        let ports = array_at(*s, &["ports"]);
        let endpoints = array_at(*s, &["endpoints"]);
        let chosen: Vec<Option<i64>> = if ports.is_empty() {
            vec![None]
        } else {
            ports
                .iter()
                .filter(|p| str_at(*p, &["name"]) == port)
                .map(|p| Some(int_at(p, &["port"])))
                .collect()
        };
        for p in chosen {
            for e in endpoints {
                if list.len() == 3 {
                    more = true;
                }
                if !ready(e) {
                    continue;
                }
                if !more {
                    let addr = array_at(e, &["addresses"])
                        .first()
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    list.push(match p {
                        Some(p) => host_port(addr, p),
                        None => addr.to_string(),
                    });
                }
                count += 1;
            }
        }
    }
    let text = list.join(",");
    if more {
        format!("{text} + {} more...", count - 3)
    } else {
        text
    }
}

pub fn describe_service(svc: &Value, slices: &[&Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    head(&mut w, svc);
    let selector = sorted_pairs(svc, &["spec", "selector"]);
    let selector = if selector.is_empty() {
        "<none>".to_string()
    } else {
        super::super::fields::join_pairs(&selector)
    };
    w += &format!("Selector:\t{selector}\n");
    w += &format!("Type:\t{}\n", str_at(svc, &["spec", "type"]));
    if let Some(p) = at(svc, &["spec", "ipFamilyPolicy"]).and_then(Value::as_str) {
        w += &format!("IP Family Policy:\t{p}\n");
    }
    let join = |v: Vec<String>| {
        if v.is_empty() {
            "<none>".to_string()
        } else {
            v.join(",")
        }
    };
    w += &format!(
        "IP Families:\t{}\n",
        join(strings(svc, &["spec", "ipFamilies"]))
    );
    w += &format!("IP:\t{}\n", str_at(svc, &["spec", "clusterIP"]));
    w += &format!("IPs:\t{}\n", join(strings(svc, &["spec", "clusterIPs"])));
    let external = strings(svc, &["spec", "externalIPs"]);
    if !external.is_empty() {
        w += &format!("External IPs:\t{}\n", external.join(","));
    }
    for p in array_at(svc, &["spec", "ports"]) {
        let name = match str_at(p, &["name"]) {
            "" => "<unset>",
            n => n,
        };
        let proto = str_at(p, &["protocol"]);
        w += &format!("Port:\t{name}\t{}/{proto}\n", int_at(p, &["port"]));
        match at(p, &["targetPort"]) {
            Some(Value::String(s)) => w += &format!("TargetPort:\t{s}/{proto}\n"),
            other => {
                let n = other.and_then(Value::as_i64).unwrap_or(0);
                w += &format!("TargetPort:\t{n}/{proto}\n");
            }
        }
        w += &format!(
            "Endpoints:\t{}\n",
            endpoint_slices(slices, str_at(p, &["name"]))
        );
    }
    w += &format!(
        "Session Affinity:\t{}\n",
        str_at(svc, &["spec", "sessionAffinity"])
    );
    if let Some(p) = at(svc, &["spec", "internalTrafficPolicy"]).and_then(Value::as_str) {
        w += &format!("Internal Traffic Policy:\t{p}\n");
    }
    describe_events(&mut w, svc, Some("Service"), events, now);
    TabWriter::DESCRIBE.format(&w)
}

pub fn describe_endpoints(ep: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    head(&mut w, ep);
    w += "Subsets:\n";
    for ss in array_at(ep, &["subsets"]) {
        let ips = |field: &str| {
            let v: Vec<&str> = array_at(ss, &[field])
                .iter()
                .map(|a| str_at(a, &["ip"]))
                .collect();
            match v.join(",") {
                s if s.is_empty() => "<none>".to_string(),
                s => s,
            }
        };
        w += &format!("  Addresses:\t{}\n", ips("addresses"));
        w += &format!("  NotReadyAddresses:\t{}\n", ips("notReadyAddresses"));
        let ports = array_at(ss, &["ports"]);
        if !ports.is_empty() {
            w += "  Ports:\n    Name\tPort\tProtocol\n    ----\t----\t--------\n";
            for p in ports {
                let name = match str_at(p, &["name"]) {
                    "" => "<unset>",
                    n => n,
                };
                w += &format!(
                    "    {name}\t{}\t{}\n",
                    int_at(p, &["port"]),
                    str_at(p, &["protocol"])
                );
            }
        }
        w += "\n";
    }
    describe_events(&mut w, ep, Some("Endpoints"), events, now);
    TabWriter::DESCRIBE.format(&w)
}

pub fn describe_endpoint_slice(s: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    head(&mut w, s);
    w += &format!("AddressType:\t{}\n", str_at(s, &["addressType"]));
    let ports = array_at(s, &["ports"]);
    if ports.is_empty() {
        w += "Ports: <unset>\n";
    } else {
        w += "Ports:\n  Name\tPort\tProtocol\n  ----\t----\t--------\n";
        for p in ports {
            let name = match str_at(p, &["name"]) {
                "" => "<unset>".to_string(),
                n => n.to_string(),
            };
            let port = at(p, &["port"])
                .and_then(Value::as_i64)
                .map_or("<unset>".to_string(), |n| n.to_string());
            w += &format!("  {name}\t{port}\t{}\n", str_at(p, &["protocol"]));
        }
    }
    let endpoints = array_at(s, &["endpoints"]);
    if endpoints.is_empty() {
        w += "Endpoints: <none>\n";
    } else {
        w += "Endpoints:\n";
        let or_unset = |v: Option<&Value>| {
            v.and_then(Value::as_str)
                .map_or("<unset>".to_string(), str::to_string)
        };
        for e in endpoints {
            let addresses = strings(e, &["addresses"]).join(", ");
            let addresses = if addresses.is_empty() {
                "<none>".to_string()
            } else {
                addresses
            };
            w += &format!("  - Addresses:\t{addresses}\n");
            w += "    Conditions:\n";
            let ready = at(e, &["conditions", "ready"])
                .and_then(Value::as_bool)
                .map_or("<unset>".to_string(), |b| b.to_string());
            w += &format!("      Ready:\t{ready}\n");
            w += &format!("    Hostname:\t{}\n", or_unset(at(e, &["hostname"])));
            if let Some(t) = at(e, &["targetRef"]).filter(|t| t.is_object()) {
                w += &format!(
                    "    TargetRef:\t{}/{}\n",
                    str_at(t, &["kind"]),
                    str_at(t, &["name"])
                );
            }
            w += &format!("    NodeName:\t{}\n", or_unset(at(e, &["nodeName"])));
            w += &format!("    Zone:\t{}\n", or_unset(at(e, &["zone"])));
        }
    }
    describe_events(&mut w, s, Some("EndpointSlice"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
