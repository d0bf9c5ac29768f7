//! ValidateValidatingWebhookConfiguration and ValidateMutatingWebhookConfiguration
//! (pkg/apis/admissionregistration/validation, 1.32) in the source's order: per webhook its
//! name, rules, failurePolicy, matchPolicy, sideEffects, timeoutSeconds, selectors,
//! reinvocationPolicy, clientConfig; then its admissionReviewVersions and a repeated
//! name. What the demo does not simulate is refused first, in its own words.

use serde_json::Value;

use super::meta::dns1035_label;
use super::{Kind, invalid, meta};
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

/// supportedOperations.List(): sorted.
const OPERATIONS: [&str; 5] = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];

/// Rules the demo cannot apply: on subresources other than /scale (status writes would
/// reach them), or on `*`, events, leases or nodes (writes that skip the demo's admission).
pub(super) fn unmodelled_rules(rules: &Value) -> Result<(), ApiError> {
    for rule in rules.as_array().into_iter().flatten() {
        for r in rule["resources"].as_array().into_iter().flatten() {
            let r = r.as_str().unwrap_or("");
            let (res, sub) = r.split_once('/').unwrap_or((r, ""));
            let what = if (res == "*" && sub.is_empty())
                || ["events", "leases", "nodes"].contains(&res)
            {
                format!(
                    "does not send admission the events, leases and nodes its components write, so a rule on {r:?} cannot be simulated: name the resources (pods, deployments, ...)"
                )
            } else if !sub.is_empty() && sub != "scale" {
                format!(
                    "sends admission writes to whole objects and to /scale only, not to the {r:?} a rule names (status writes would reach it)"
                )
            } else {
                continue;
            };
            return Err(ApiError::invalid(format!(
                "error: kubedrill's demo {what}; this is valid on a real cluster (1.32)"
            )));
        }
    }
    Ok(())
}

/// What the demo's API server cannot do with a webhook: call a URL outside the cluster,
/// evaluate CEL match conditions, or send it writes to subresources other than /scale.
fn unmodelled(o: &Value) -> Result<(), ApiError> {
    let refuse = |what: String| {
        Err(ApiError::invalid(format!(
            "error: kubedrill's demo {what}; this is valid on a real cluster (1.32)"
        )))
    };
    for hook in o["webhooks"].as_array().into_iter().flatten() {
        if hook
            .pointer("/clientConfig/url")
            .is_some_and(|u| !u.is_null())
        {
            return refuse(
                "calls webhooks through a Service in the cluster (clientConfig.service) only: nothing answers at a clientConfig.url".into(),
            );
        }
        if hook["matchConditions"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
        {
            return refuse(
                "does not evaluate a webhook's matchConditions (only a ValidatingAdmissionPolicy's CEL)"
                    .into(),
            );
        }
        unmodelled_rules(&hook["rules"])?;
    }
    Ok(())
}

pub fn webhook_configuration(kind: Kind, o: &Value) -> Result<(), ApiError> {
    unmodelled(o)?;
    let mutating = kind == Kind::MutatingWebhookConfiguration;
    let mut errs = Vec::new();
    let name = o
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    for m in meta::dns1123_subdomain(name) {
        errs.push(format!(
            "metadata.name: Invalid value: {}: {m}",
            go_quote(name)
        ));
    }
    meta::object_meta(&mut errs, o);
    let mut names = Vec::new();
    for (i, hook) in o["webhooks"].as_array().into_iter().flatten().enumerate() {
        let at = format!("webhooks[{i}]");
        webhook(&mut errs, &at, hook, mutating);
        review_versions(&mut errs, &at, &hook["admissionReviewVersions"]);
        let n = hook["name"].as_str().unwrap_or("");
        if !n.is_empty() {
            if names.contains(&n) {
                errs.push(format!("{at}.name: Duplicate value: {}", go_quote(n)));
            } else {
                names.push(n);
            }
        }
    }
    invalid(kind, o, errs)
}

pub(super) fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|s| s.as_str().unwrap_or(""))
        .collect()
}

/// `[]string{"a", "b"}` as field.Invalid prints a list value.
fn go_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

pub(super) fn not_supported(errs: &mut Vec<String>, at: &str, v: &str, supported: &[&str]) {
    let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
    errs.push(format!(
        "{at}: Unsupported value: {}: supported values: {}",
        go_quote(v),
        list.join(", ")
    ));
}

fn webhook(errs: &mut Vec<String>, at: &str, hook: &Value, mutating: bool) {
    let name = hook["name"].as_str().unwrap_or("");
    if name.is_empty() {
        errs.push(format!("{at}.name: Required value"));
    } else if let sub @ [_, ..] = meta::dns1123_subdomain(name).as_slice() {
        errs.push(format!(
            "{at}.name: Invalid value: {}: {}",
            go_quote(name),
            sub.join(",")
        ));
    } else if name.split('.').count() < 3 {
        errs.push(format!(
            "{at}.name: Invalid value: {}: should be a domain with at least three segments separated by dots",
            go_quote(name)
        ));
    }
    for (i, rule) in hook["rules"].as_array().into_iter().flatten().enumerate() {
        rule_errors(errs, &format!("{at}.rules[{i}]"), rule);
    }
    let set = |f: &str| {
        hook.get(f)
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().unwrap_or(""))
    };
    if let Some(p) = set("failurePolicy")
        && !["Fail", "Ignore"].contains(&p)
    {
        not_supported(errs, &format!("{at}.failurePolicy"), p, &["Fail", "Ignore"]);
    }
    if let Some(p) = set("matchPolicy")
        && !["Equivalent", "Exact"].contains(&p)
    {
        not_supported(
            errs,
            &format!("{at}.matchPolicy"),
            p,
            &["Equivalent", "Exact"],
        );
    }
    match set("sideEffects") {
        None => errs.push(format!(
            "{at}.sideEffects: Required value: must specify one of None, NoneOnDryRun"
        )),
        Some(s) if !["None", "NoneOnDryRun"].contains(&s) => {
            not_supported(
                errs,
                &format!("{at}.sideEffects"),
                s,
                &["None", "NoneOnDryRun"],
            );
        }
        Some(_) => {}
    }
    if let Some(t) = hook.get("timeoutSeconds").and_then(Value::as_i64)
        && !(1..=30).contains(&t)
    {
        errs.push(format!(
            "{at}.timeoutSeconds: Invalid value: {t}: the timeout value must be between 1 and 30 seconds"
        ));
    }
    for sel in ["namespaceSelector", "objectSelector"] {
        selector(errs, &format!("{at}.{sel}"), &hook[sel]);
    }
    if mutating
        && let Some(p) = set("reinvocationPolicy")
        && !["IfNeeded", "Never"].contains(&p)
    {
        not_supported(
            errs,
            &format!("{at}.reinvocationPolicy"),
            p,
            &["IfNeeded", "Never"],
        );
    }
    client_config(errs, at, &hook["clientConfig"]);
}

/// validateRuleWithOperations and validateRule (subresources allowed).
pub(super) fn rule_errors(errs: &mut Vec<String>, at: &str, rule: &Value) {
    let ops = strings(&rule["operations"]);
    if ops.is_empty() {
        errs.push(format!("{at}.operations: Required value"));
    }
    if ops.len() > 1 && ops.contains(&"*") {
        errs.push(format!(
            "{at}.operations: Invalid value: {}: if '*' is present, must not specify other operations",
            go_list(&ops)
        ));
    }
    for (i, op) in ops.iter().enumerate() {
        if !OPERATIONS.contains(op) {
            not_supported(errs, &format!("{at}.operations[{i}]"), op, &OPERATIONS);
        }
    }
    for (field, what) in [("apiGroups", "API groups"), ("apiVersions", "API versions")] {
        let list = strings(&rule[field]);
        if list.is_empty() {
            errs.push(format!("{at}.{field}: Required value"));
        }
        if list.len() > 1 && list.contains(&"*") {
            errs.push(format!(
                "{at}.{field}: Invalid value: {}: if '*' is present, must not specify other {what}",
                go_list(&list)
            ));
        }
        if field == "apiVersions" {
            for (i, v) in list.iter().enumerate() {
                if v.is_empty() {
                    errs.push(format!("{at}.apiVersions[{i}]: Required value"));
                }
            }
        }
    }
    resources(
        errs,
        &format!("{at}.resources"),
        &strings(&rule["resources"]),
    );
    if let Some(s) = rule.get("scope").filter(|v| !v.is_null()) {
        let s = s.as_str().unwrap_or("");
        if !["*", "Cluster", "Namespaced"].contains(&s) {
            not_supported(
                errs,
                &format!("{at}.scope"),
                s,
                &["*", "Cluster", "Namespaced"],
            );
        }
    }
}

/// validateResources: wildcards may not overlap what they already cover.
fn resources(errs: &mut Vec<String>, at: &str, list: &[&str]) {
    if list.is_empty() {
        errs.push(format!("{at}: Required value"));
    }
    let (mut res_wild_sub, mut sub_wild_res) = (Vec::new(), Vec::new());
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, rs) in list.iter().enumerate() {
        if rs.is_empty() {
            errs.push(format!("{at}[{i}]: Required value"));
            continue;
        }
        double |= *rs == "*/*";
        single |= *rs == "*";
        let Some((res, sub)) = rs.split_once('/') else {
            plain = *rs != "*";
            continue;
        };
        if res_wild_sub.contains(&res) {
            errs.push(format!(
                "{at}[{i}]: Invalid value: {}: if '{res}/*' is present, must not specify {rs}",
                go_quote(rs)
            ));
        }
        if sub_wild_res.contains(&sub) {
            errs.push(format!(
                "{at}[{i}]: Invalid value: {}: if '*/{sub}' is present, must not specify {rs}",
                go_quote(rs)
            ));
        }
        if sub == "*" {
            res_wild_sub.push(res);
        }
        if res == "*" {
            sub_wild_res.push(sub);
        }
    }
    if list.len() > 1 && double {
        errs.push(format!(
            "{at}: Invalid value: {}: if '*/*' is present, must not specify other resources",
            go_list(list)
        ));
    }
    if single && plain {
        errs.push(format!(
            "{at}: Invalid value: {}: if '*' is present, must not specify other resources without subresources",
            go_list(list)
        ));
    }
}

/// ValidateLabelSelector: matchLabels, then each requirement's operator and values.
pub(super) fn selector(errs: &mut Vec<String>, at: &str, sel: &Value) {
    meta::labels(errs, &format!("{at}.matchLabels"), sel.get("matchLabels"));
    for (i, e) in sel["matchExpressions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let path = format!("{at}.matchExpressions[{i}]");
        let op = e["operator"].as_str().unwrap_or("");
        let values = e["values"].as_array().map_or(0, Vec::len);
        match op {
            "In" | "NotIn" if values == 0 => errs.push(format!(
                "{path}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
            )),
            "Exists" | "DoesNotExist" if values > 0 => errs.push(format!(
                "{path}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(format!(
                "{path}.operator: Invalid value: {}: not a valid selector operator",
                go_quote(other)
            )),
        }
    }
}

/// Exactly one of url or service; a service needs its name and namespace, a path that
/// starts with `/`, a port in range.
fn client_config(errs: &mut Vec<String>, at: &str, cc: &Value) {
    let svc = cc.get("service").filter(|s| !s.is_null());
    let Some(svc) = svc else {
        errs.push(format!(
            "{at}.clientConfig: Required value: exactly one of url or service is required"
        ));
        return;
    };
    let at = format!("{at}.clientConfig.service");
    if svc["name"].as_str().unwrap_or("").is_empty() {
        errs.push(format!(
            "{at}.name: Required value: service name is required"
        ));
    }
    if svc["namespace"].as_str().unwrap_or("").is_empty() {
        errs.push(format!(
            "{at}.namespace: Required value: service namespace is required"
        ));
    }
    if let Some(port) = svc.get("port").and_then(Value::as_i64)
        && !(1..=65535).contains(&port)
    {
        errs.push(format!(
            "{at}.port: Invalid value: {port}: port is not valid: must be between 1 and 65535, inclusive"
        ));
    }
    if let Some(p) = svc.get("path").and_then(Value::as_str) {
        service_path(errs, &format!("{at}.path"), p);
    }
}

/// ValidateWebhookService's path: `/` or empty is the root; otherwise it starts with `/`
/// and each segment is a DNS subdomain.
fn service_path(errs: &mut Vec<String>, at: &str, path: &str) {
    if path.is_empty() || path == "/" {
        return;
    }
    let q = go_quote(path);
    if path == "//" {
        errs.push(format!(
            "{at}: Invalid value: {q}: segment[0] may not be empty"
        ));
        return;
    }
    if !path.starts_with('/') {
        errs.push(format!("{at}: Invalid value: {q}: must start with a '/'"));
    }
    let rest = path.get(1..).unwrap_or("");
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    for (i, step) in rest.split('/').enumerate() {
        if step.is_empty() {
            errs.push(format!(
                "{at}: Invalid value: {q}: segment[{i}] may not be empty"
            ));
            continue;
        }
        for m in meta::dns1123_subdomain(step) {
            errs.push(format!("{at}: Invalid value: {q}: segment[{i}]: {m}"));
        }
    }
}

/// validateAdmissionReviewVersions: v1 requires the list, with one the server knows.
fn review_versions(errs: &mut Vec<String>, at: &str, v: &Value) {
    let list = strings(v);
    let at = format!("{at}.admissionReviewVersions");
    if list.is_empty() {
        errs.push(format!(
            "{at}: Required value: must specify one of v1, v1beta1"
        ));
        return;
    }
    let mut seen = Vec::new();
    for (i, v) in list.iter().enumerate() {
        if seen.contains(v) {
            errs.push(format!(
                "{at}[{i}]: Invalid value: {}: duplicate version",
                go_quote(v)
            ));
            continue;
        }
        seen.push(v);
        for m in dns1035_label(v) {
            errs.push(format!("{at}[{i}]: Invalid value: {}: {m}", go_quote(v)));
        }
    }
    if !list.iter().any(|v| ["v1", "v1beta1"].contains(v)) {
        errs.push(format!(
            "{at}: Invalid value: {}: must include at least one of v1, v1beta1",
            go_list(&list)
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::sim::defaults;

    fn check(mut o: Value) -> String {
        defaults::webhook_configuration(&mut o, false);
        webhook_configuration(Kind::ValidatingWebhookConfiguration, &o)
            .map_or_else(|e| e.message, |()| "ok".into())
    }

    fn hook(extra: Value) -> Value {
        let mut h = json!({"name": "pod-policy.example.com",
            "clientConfig": {"service": {"name": "policy", "namespace": "default", "path": "/validate"}},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}],
            "sideEffects": "None", "admissionReviewVersions": ["v1"]});
        for (k, v) in extra.as_object().into_iter().flatten() {
            h[k] = v.clone();
        }
        json!({"metadata": {"name": "pod-policy"}, "webhooks": [h]})
    }

    #[test]
    fn a_complete_configuration_is_valid() {
        assert_eq!(check(hook(json!({}))), "ok");
    }

    #[test]
    fn side_effects_and_review_versions_are_required_each_on_its_line() {
        let mut o = hook(json!({}));
        let h = o["webhooks"][0].as_object_mut().unwrap();
        h.remove("sideEffects");
        h.remove("admissionReviewVersions");
        assert_eq!(
            check(o),
            "The ValidatingWebhookConfiguration \"pod-policy\" is invalid: \n\
             * webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n\
             * webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"
        );
    }

    #[test]
    fn timeouts_names_and_policies_in_the_source_words() {
        let e = check(hook(json!({"timeoutSeconds": 31})));
        assert!(e.ends_with("webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"), "{e}");
        let e = check(hook(json!({"name": "policy.example"})));
        assert!(e.ends_with("webhooks[0].name: Invalid value: \"policy.example\": should be a domain with at least three segments separated by dots"), "{e}");
        let e = check(hook(json!({"failurePolicy": "Sometimes"})));
        assert!(e.ends_with("webhooks[0].failurePolicy: Unsupported value: \"Sometimes\": supported values: \"Fail\", \"Ignore\""), "{e}");
        let e = check(hook(
            json!({"rules": [{"operations": ["*", "CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]}),
        ));
        assert!(e.ends_with("webhooks[0].rules[0].operations: Invalid value: []string{\"*\", \"CREATE\"}: if '*' is present, must not specify other operations"), "{e}");
    }

    #[test]
    fn review_versions_are_dns_labels_and_one_must_be_known() {
        let e = check(hook(json!({"admissionReviewVersions": ["V1"]})));
        assert!(e.contains("* webhooks[0].admissionReviewVersions[0]: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters"), "{e}");
        assert!(e.ends_with("* webhooks[0].admissionReviewVersions: Invalid value: []string{\"V1\"}: must include at least one of v1, v1beta1"), "{e}");
    }

    #[test]
    fn what_the_demo_cannot_call_is_refused_in_its_words() {
        let e = check(hook(
            json!({"clientConfig": {"url": "https://example.com/validate"}}),
        ));
        assert!(
            e.contains("kubedrill's demo calls webhooks through a Service"),
            "{e}"
        );
        let e = check(hook(
            json!({"rules": [{"operations": ["UPDATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods/status"]}]}),
        ));
        assert!(e.contains("not to the \"pods/status\""), "{e}");
        let scale = hook(
            json!({"rules": [{"operations": ["UPDATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments/scale"]}]}),
        );
        assert_eq!(check(scale), "ok");
    }
}
