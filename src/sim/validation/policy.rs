//! ValidateValidatingAdmissionPolicy and ValidateValidatingAdmissionPolicyBinding
//! (pkg/apis/admissionregistration/validation, 1.31-1.32) in the source's order. Each CEL
//! expression is compiled; a compile error is `Invalid value: "EXPR": compilation failed:
//! ...`. What the demo does not simulate (params, and so paramKind and paramRef) is refused
//! first in its own words.

use serde_json::Value;

use super::webhook::{not_supported, rule_errors, selector, strings};
use super::{Kind, invalid, meta};
use crate::sim::cel;
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

const ACTIONS: [&str; 3] = ["Audit", "Deny", "Warn"];

fn refuse_params(o: &Value, field: &str) -> Result<(), ApiError> {
    if o["spec"].get(field).is_some_and(|v| !v.is_null()) {
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo has no parameter resources, so a policy's spec.{field} cannot be simulated; this is valid on a real cluster (1.32)"
        )));
    }
    Ok(())
}

/// What each kind of expression may refer to (createEnvForOpts): validations and
/// variables everything, messageExpression no authorizer, matchConditions no variables.
const FULL: &[&str] = &[
    "object",
    "oldObject",
    "request",
    "namespaceObject",
    "authorizer",
    "variables",
];
const MESSAGE: &[&str] = &[
    "object",
    "oldObject",
    "request",
    "namespaceObject",
    "variables",
];
const CONDITION: &[&str] = &[
    "object",
    "oldObject",
    "request",
    "namespaceObject",
    "authorizer",
];

/// An expression compiled, or the field error kube-apiserver gives.
fn expression(errs: &mut Vec<String>, at: &str, expr: &str, declared: &[&str]) {
    if let Err(e) = cel::compile_declared(expr, declared) {
        errs.push(format!(
            "{at}: Invalid value: {}: compilation failed: {e}",
            go_quote(expr)
        ));
    }
}

/// validateMatchResources: selectors, then each rule list.
fn match_resources(errs: &mut Vec<String>, at: &str, m: &Value) {
    if let Some(p) = m.get("matchPolicy").filter(|v| !v.is_null()) {
        let p = p.as_str().unwrap_or("");
        if !["Equivalent", "Exact"].contains(&p) {
            not_supported(
                errs,
                &format!("{at}.matchPolicy"),
                p,
                &["Equivalent", "Exact"],
            );
        }
    }
    for sel in ["namespaceSelector", "objectSelector"] {
        selector(errs, &format!("{at}.{sel}"), &m[sel]);
    }
    for list in ["resourceRules", "excludeResourceRules"] {
        for (i, r) in m[list].as_array().into_iter().flatten().enumerate() {
            rule_errors(errs, &format!("{at}.{list}[{i}]"), r);
        }
    }
}

pub fn admission_policy(o: &Value) -> Result<(), ApiError> {
    refuse_params(o, "paramKind")?;
    let m = &o["spec"]["matchConstraints"];
    for list in ["resourceRules", "excludeResourceRules"] {
        super::webhook::unmodelled_rules(&m[list])?;
    }
    let spec = &o["spec"];
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    if let Some(p) = spec.get("failurePolicy").and_then(Value::as_str)
        && !["Fail", "Ignore"].contains(&p)
    {
        not_supported(&mut errs, "spec.failurePolicy", p, &["Fail", "Ignore"]);
    }
    match spec.get("matchConstraints").filter(|m| m.is_object()) {
        None => errs.push("spec.matchConstraints: Required value".into()),
        Some(m) => {
            match_resources(&mut errs, "spec.matchConstraints", m);
            if m["resourceRules"].as_array().is_none_or(Vec::is_empty) {
                errs.push("spec.matchConstraints.resourceRules: Required value".into());
            }
        }
    }
    for (i, c) in spec["matchConditions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = format!("spec.matchConditions[{i}]");
        match c["expression"].as_str().unwrap_or("") {
            "" => errs.push(format!("{at}.expression: Required value")),
            e => expression(&mut errs, &format!("{at}.expression"), e, CONDITION),
        }
        if c["name"].as_str().unwrap_or("").is_empty() {
            errs.push(format!("{at}.name: Required value"));
        }
    }
    for (i, v) in spec["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = format!("spec.variables[{i}]");
        let name = v["name"].as_str().unwrap_or("");
        let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if name.is_empty() {
            errs.push(format!("{at}.name: Required value: name is not specified"));
        } else if !identifier {
            errs.push(format!(
                "{at}.name: Invalid value: {}: name is not a valid CEL identifier",
                go_quote(name)
            ));
        }
        match v["expression"].as_str().unwrap_or("").trim() {
            "" => errs.push(format!(
                "{at}.expression: Required value: expression is not specified"
            )),
            e => expression(&mut errs, &format!("{at}.expression"), e, FULL),
        }
    }
    let validations = spec["validations"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if validations.is_empty()
        && spec["auditAnnotations"]
            .as_array()
            .is_none_or(Vec::is_empty)
    {
        for f in ["validations", "auditAnnotations"] {
            errs.push(format!(
                "spec.{f}: Required value: validations or auditAnnotations must contain at least one item"
            ));
        }
    }
    for (i, v) in validations.iter().enumerate() {
        let at = format!("spec.validations[{i}]");
        let expr = v["expression"].as_str().unwrap_or("");
        if expr.trim().is_empty() {
            errs.push(format!(
                "{at}.expression: Required value: expression is not specified"
            ));
        } else {
            expression(&mut errs, &format!("{at}.expression"), expr, FULL);
        }
        if let Some(me) = v.get("messageExpression").and_then(Value::as_str)
            && !me.is_empty()
        {
            if me.trim().is_empty() {
                errs.push(format!(
                    "{at}.messageExpression: Invalid value: {}: must be non-empty if specified",
                    go_quote(me)
                ));
            } else {
                expression(&mut errs, &format!("{at}.messageExpression"), me, MESSAGE);
            }
        }
        // An empty message is no message; one of spaces, or with a line break, is refused.
        if let Some(m) = v.get("message").and_then(Value::as_str)
            && !m.is_empty()
        {
            if m.trim().is_empty() {
                errs.push(format!(
                    "{at}.message: Invalid value: {}: message must be non-empty if specified",
                    go_quote(m)
                ));
            } else if m.trim().contains(['\n', '\r']) {
                errs.push(format!(
                    "{at}.message: Invalid value: {}: message must not contain line breaks",
                    go_quote(m)
                ));
            }
        }
        if let Some(r) = v.get("reason").and_then(Value::as_str)
            && !["Forbidden", "Invalid", "RequestEntityTooLarge"].contains(&r)
        {
            not_supported(
                &mut errs,
                &format!("{at}.reason"),
                r,
                &["Forbidden", "Invalid", "RequestEntityTooLarge"],
            );
        }
    }
    invalid(Kind::ValidatingAdmissionPolicy, o, errs)
}

pub fn admission_policy_binding(o: &Value) -> Result<(), ApiError> {
    refuse_params(o, "paramRef")?;
    let m = &o["spec"]["matchResources"];
    for list in ["resourceRules", "excludeResourceRules"] {
        super::webhook::unmodelled_rules(&m[list])?;
    }
    let spec = &o["spec"];
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    match spec["policyName"].as_str().unwrap_or("") {
        "" => errs.push("spec.policyName: Required value".into()),
        name => {
            for m in meta::dns1123_subdomain(name) {
                errs.push(format!(
                    "spec.policyName: Invalid value: {}: {m}",
                    go_quote(name)
                ));
            }
        }
    }
    // The source spells this path `matchResouces`.
    if let Some(m) = spec.get("matchResources").filter(|m| m.is_object()) {
        match_resources(&mut errs, "spec.matchResouces", m);
    }
    let actions = strings(&spec["validationActions"]);
    if actions.is_empty() {
        errs.push(
            "spec.validationActions: Required value: at least one validation action is required"
                .into(),
        );
    }
    let mut seen = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        if !ACTIONS.contains(a) {
            not_supported(
                &mut errs,
                &format!("spec.validationActions[{i}]"),
                a,
                &ACTIONS,
            );
        } else if seen.contains(a) {
            errs.push(format!(
                "spec.validationActions[{i}]: Duplicate value: {}",
                go_quote(a)
            ));
        }
        seen.push(a);
    }
    if actions.contains(&"Deny") && actions.contains(&"Warn") {
        let list: Vec<String> = actions.iter().map(|a| go_quote(a)).collect();
        errs.push(format!(
            "spec.validationActions: Invalid value: []admissionregistration.ValidationAction{{{}}}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
            list.join(", ")
        ));
    }
    invalid(Kind::ValidatingAdmissionPolicyBinding, o, errs)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn policy(validations: Value) -> Value {
        json!({"metadata": {"name": "max-replicas"}, "spec": {"failurePolicy": "Fail",
            "matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
                "operations": ["CREATE", "UPDATE"], "resources": ["deployments"], "scope": "*"}]},
            "validations": validations}})
    }

    fn msg(r: Result<(), ApiError>) -> String {
        r.map_or_else(|e| e.message, |()| "ok".into())
    }

    #[test]
    fn a_policy_needs_compiling_expressions() {
        let ok = policy(json!([{"expression": "object.spec.replicas <= 5"}]));
        assert_eq!(msg(admission_policy(&ok)), "ok");
        let bad = policy(json!([{"expression": "object.spec.replicas <= "}]));
        let e = msg(admission_policy(&bad));
        assert!(e.starts_with("The ValidatingAdmissionPolicy \"max-replicas\" is invalid: spec.validations[0].expression: Invalid value: \"object.spec.replicas <= \": compilation failed: ERROR: <input>:1:"), "{e}");
        let none = policy(json!([]));
        assert!(msg(admission_policy(&none)).contains("* spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"));
    }

    #[test]
    fn a_variable_is_named_as_a_cel_identifier() {
        let mut p = policy(json!([{"expression": "variables.max >= 1"}]));
        p["spec"]["variables"] = json!([{"name": "max-replicas", "expression": "5"}]);
        let e = msg(admission_policy(&p));
        assert!(e.ends_with("spec.variables[0].name: Invalid value: \"max-replicas\": name is not a valid CEL identifier"), "{e}");
        p["spec"]["variables"] = json!([{"name": "max", "expression": "5"}]);
        assert_eq!(msg(admission_policy(&p)), "ok");
    }

    #[test]
    fn a_binding_needs_actions_and_not_both_deny_and_warn() {
        let b = |actions: Value| {
            msg(admission_policy_binding(&json!({"metadata": {"name": "b"},
                "spec": {"policyName": "max-replicas", "validationActions": actions}})))
        };
        assert_eq!(b(json!(["Deny"])), "ok");
        assert!(b(json!([])).ends_with(
            "spec.validationActions: Required value: at least one validation action is required"
        ));
        assert!(b(json!(["Deny", "Warn"])).ends_with("[]admissionregistration.ValidationAction{\"Deny\", \"Warn\"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"));
        assert!(b(json!(["Block"])).contains(
            "Unsupported value: \"Block\": supported values: \"Audit\", \"Deny\", \"Warn\""
        ));
    }
}
