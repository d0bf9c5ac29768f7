//! ValidateService and ValidateServiceUpdate (pkg/apis/core/validation, 1.32): the checks a
//! ClusterIP Service written by hand can trip, in the source's order. The demo serves
//! ClusterIP and headless Services only; other types are refused in its own words.

use serde_json::Value;

use super::invalid;
use super::meta::{dns1035_label, dns1123_label, labels, object_meta};
use super::pod::{PORT_RANGE, not_supported, one_of, port_name};
use crate::sim::kind::Kind;
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

/// Go's `%#v` of a `[]string`.
fn go_strings(v: &Value) -> String {
    let items: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| go_quote(s.as_str().unwrap_or("")))
        .collect();
    if v.is_null() {
        "[]string(nil)".into()
    } else {
        format!("[]string{{{}}}", items.join(", "))
    }
}

/// Go's `%#v` of the `core.ServicePort` key the duplicate check builds (protocol and port
/// only).
fn port_key(protocol: &str, port: i64) -> String {
    format!(
        "core.ServicePort{{Name:\"\", Protocol:{}, AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}",
        go_quote(protocol)
    )
}

pub fn headless(o: &Value) -> bool {
    o["spec"]["clusterIPs"][0].as_str() == Some("None")
}

pub fn service(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    if let Some(old) = old {
        cluster_ips_update(&mut errs, old, o);
    }
    let name = o["metadata"]["name"].as_str().unwrap_or("");
    for m in dns1035_label(name) {
        errs.push(format!(
            "metadata.name: Invalid value: {}: {m}",
            go_quote(name)
        ));
    }
    object_meta(&mut errs, o);
    let spec = &o["spec"];
    let kind = spec["type"].as_str().unwrap_or("");
    let ports = spec["ports"].as_array().map_or(&[][..], Vec::as_slice);
    if ports.is_empty() && !headless(o) && kind != "ExternalName" {
        errs.push("spec.ports: Required value".into());
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let q = format!("spec.ports[{i}]");
        match p["name"].as_str().filter(|n| !n.is_empty()) {
            None if ports.len() > 1 => errs.push(format!("{q}.name: Required value")),
            None => {}
            Some(n) => {
                for m in dns1123_label(n) {
                    errs.push(format!("{q}.name: Invalid value: {}: {m}", go_quote(n)));
                }
                if names.contains(&n) {
                    errs.push(format!("{q}.name: Duplicate value: {}", go_quote(n)));
                } else {
                    names.push(n);
                }
            }
        }
        let port = p["port"].as_i64().unwrap_or(0);
        if !(1..=65535).contains(&port) {
            errs.push(format!("{q}.port: Invalid value: {port}: {PORT_RANGE}"));
        }
        match p["protocol"].as_str() {
            None | Some("") => errs.push(format!("{q}.protocol: Required value")),
            Some(_) => one_of(
                &mut errs,
                &format!("{q}.protocol"),
                &p["protocol"],
                &["SCTP", "TCP", "UDP"],
            ),
        }
        match &p["targetPort"] {
            Value::String(s) => {
                for m in port_name(s) {
                    errs.push(format!(
                        "{q}.targetPort: Invalid value: {}: {m}",
                        go_quote(s)
                    ));
                }
            }
            v => {
                let t = v.as_i64().unwrap_or(0);
                if !(1..=65535).contains(&t) {
                    errs.push(format!("{q}.targetPort: Invalid value: {t}: {PORT_RANGE}"));
                }
            }
        }
    }
    if spec.get("selector").is_some_and(|s| !s.is_null()) {
        labels(&mut errs, "spec.selector", spec.get("selector"));
    }
    match spec["sessionAffinity"].as_str() {
        None | Some("") => errs.push("spec.sessionAffinity: Required value".into()),
        Some(_) => one_of(
            &mut errs,
            "spec.sessionAffinity",
            &spec["sessionAffinity"],
            &["ClientIP", "None"],
        ),
    }
    if spec["sessionAffinity"] == "None"
        && spec
            .get("sessionAffinityConfig")
            .is_some_and(|c| !c.is_null())
    {
        errs.push(
            "spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None"
                .into(),
        );
    }
    cluster_ips(&mut errs, spec);
    match kind {
        "" => errs.push("spec.type: Required value".into()),
        "ClusterIP" => {}
        "NodePort" | "LoadBalancer" | "ExternalName" => {
            // A real server takes these; saying it refuses them would teach something false.
            return Err(ApiError::invalid(format!(
                "kubedrill's demo serves ClusterIP Services only (and headless ones, clusterIP: None), not type {kind}"
            )));
        }
        other => not_supported(
            &mut errs,
            "spec.type",
            other,
            &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
        ),
    }
    if kind == "ClusterIP" {
        for (i, p) in ports.iter().enumerate() {
            if p["nodePort"].as_i64().is_some_and(|n| n != 0) {
                errs.push(format!(
                    "spec.ports[{i}].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"
                ));
            }
        }
    }
    let mut seen: Vec<(&str, i64)> = Vec::new();
    for (i, p) in ports.iter().enumerate() {
        let key = (
            p["protocol"].as_str().unwrap_or(""),
            p["port"].as_i64().unwrap_or(0),
        );
        if seen.contains(&key) {
            errs.push(format!(
                "spec.ports[{i}]: Duplicate value: {}",
                port_key(key.0, key.1)
            ));
        }
        seen.push(key);
    }
    invalid(Kind::Service, o, errs)
}

/// ValidateServiceClusterIPsRelatedFields, for single-stack IPv4: `clusterIP` and
/// `clusterIPs[0]` agree, each address is an IP (or a lone `None`), at most two.
fn cluster_ips(errs: &mut Vec<String>, spec: &Value) {
    let ips: Vec<&str> = spec["clusterIPs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().unwrap_or(""))
        .collect();
    let shown = go_strings(&spec["clusterIPs"]);
    match spec["clusterIP"].as_str().filter(|s| !s.is_empty()) {
        Some(_) if ips.is_empty() => errs.push("spec.clusterIPs: Required value".into()),
        Some(ip) if ips[0] != ip => errs.push(format!(
            "spec.clusterIPs: Invalid value: {shown}: first value must match `clusterIP`"
        )),
        None if !ips.is_empty() => errs.push(format!(
            "spec.clusterIPs: Invalid value: {shown}: must be empty when `clusterIP` is not specified"
        )),
        _ => {}
    }
    for (f, v) in spec["ipFamilies"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        one_of(errs, &format!("spec.ipFamilies[{f}]"), v, &["IPv4", "IPv6"]);
    }
    let mut bad = false;
    for (i, ip) in ips.iter().enumerate() {
        if i == 0 && *ip == "None" {
            if ips.len() > 1 {
                bad = true;
                errs.push(format!(
                    "spec.clusterIPs: Invalid value: {shown}: 'None' must be the first and only value"
                ));
            }
            continue;
        }
        if ip.parse::<std::net::IpAddr>().is_err() {
            bad = true;
            errs.push(format!(
                "spec.clusterIPs[{i}]: Invalid value: {}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                go_quote(ip)
            ));
        }
    }
    if ips.len() > 2 {
        errs.push(format!(
            "spec.clusterIPs: Invalid value: {shown}: may only hold up to 2 values"
        ));
    }
    if !bad && ips.len() == 2 {
        let v4 = |s: &str| s.parse::<std::net::Ipv4Addr>().is_ok();
        if v4(ips[0]) == v4(ips[1]) {
            errs.push(format!(
                "spec.clusterIPs: Invalid value: {shown}: may specify no more than one IP for each IP family"
            ));
        }
    }
}

/// validateUpgradeDowngradeClusterIPs: a cluster IP, once set, stays.
fn cluster_ips_update(errs: &mut Vec<String>, old: &Value, new: &Value) {
    if headless(old) && headless(new) {
        return;
    }
    let empty = Vec::new();
    let before = old["spec"]["clusterIPs"].as_array().unwrap_or(&empty);
    let after = new["spec"]["clusterIPs"].as_array().unwrap_or(&empty);
    let shown = go_strings(&new["spec"]["clusterIPs"]);
    if before.len() == after.len() {
        for (i, ip) in before.iter().enumerate() {
            if Some(ip) != after.get(i) {
                errs.push(format!(
                    "spec.clusterIPs[{i}]: Invalid value: {shown}: may not change once set"
                ));
            }
        }
    } else if after.is_empty() {
        errs.push(format!(
            "spec.clusterIPs[0]: Invalid value: {shown}: primary clusterIP can not be unset"
        ));
    } else if before.first() != after.first() {
        errs.push(format!(
            "spec.clusterIPs[0]: Invalid value: {shown}: may not change once set"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn svc(spec: Value) -> Value {
        json!({"metadata": {"name": "web"}, "spec": spec})
    }

    fn err(v: &Value) -> String {
        service(v, None).unwrap_err().message
    }

    #[test]
    fn a_defaulted_clusterip_service_is_valid() {
        let s = svc(
            json!({"type": "ClusterIP", "sessionAffinity": "None", "selector": {"app": "web"},
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 8080}]}),
        );
        assert_eq!(service(&s, None), Ok(()));
    }

    #[test]
    fn ports_need_names_when_there_are_several_and_may_not_repeat() {
        let s = svc(json!({"type": "ClusterIP", "sessionAffinity": "None",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80},
                      {"port": 80, "protocol": "TCP", "targetPort": 80}]}));
        assert_eq!(
            err(&s),
            "The Service \"web\" is invalid: \n* spec.ports[0].name: Required value\n* spec.ports[1].name: Required value\n* spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}"
        );
    }

    #[test]
    fn a_service_without_ports_is_refused_unless_headless() {
        let s = svc(json!({"type": "ClusterIP", "sessionAffinity": "None"}));
        assert_eq!(
            err(&s),
            "The Service \"web\" is invalid: spec.ports: Required value"
        );
        let h = svc(
            json!({"type": "ClusterIP", "sessionAffinity": "None", "clusterIP": "None", "clusterIPs": ["None"]}),
        );
        assert_eq!(service(&h, None), Ok(()));
    }

    #[test]
    fn the_cluster_ip_may_not_change_once_set() {
        let old = svc(
            json!({"type": "ClusterIP", "sessionAffinity": "None", "clusterIPs": ["10.96.4.5"],
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}),
        );
        let mut new = old.clone();
        new["spec"]["clusterIP"] = json!("10.96.4.6");
        new["spec"]["clusterIPs"] = json!(["10.96.4.6"]);
        assert_eq!(
            service(&new, Some(&old)).unwrap_err().message,
            "The Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: []string{\"10.96.4.6\"}: may not change once set"
        );
    }

    #[test]
    fn cluster_ip_and_cluster_ips_must_agree_and_stay_single_stack() {
        let base = json!({"type": "ClusterIP", "sessionAffinity": "None",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]});
        let mut s = svc(base.clone());
        s["spec"]["clusterIP"] = json!("10.96.0.5");
        s["spec"]["clusterIPs"] = json!(["10.96.0.6"]);
        assert!(err(&s).ends_with(
            "spec.clusterIPs: Invalid value: []string{\"10.96.0.6\"}: first value must match `clusterIP`"
        ));
        s["spec"]["clusterIPs"] = json!(["10.96.0.5", "10.96.0.7"]);
        assert!(err(&s).ends_with("may specify no more than one IP for each IP family"));
        s["spec"]["clusterIP"] = json!("None");
        s["spec"]["clusterIPs"] = json!(["None", "10.96.0.7"]);
        assert!(err(&s).ends_with("'None' must be the first and only value"));
    }

    #[test]
    fn a_service_name_is_a_dns_1035_label() {
        let mut s = svc(json!({"type": "ClusterIP", "sessionAffinity": "None",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}));
        s["metadata"]["name"] = json!("1web");
        assert!(err(&s).starts_with(
            "The Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label"
        ));
    }
}
