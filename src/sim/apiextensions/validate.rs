//! A custom object checked against its version's schema, as kube-apiserver 1.32 checks
//! it (apiextensions-apiserver `pkg/apiserver/validation`, kube-openapi's validators,
//! `pkg/apiserver/schema/cel/validation.go`): OpenAPI value validations, then the
//! `x-kubernetes-validations` rules, unless an earlier error blocks them.
//!
//! kube-openapi reports in Go map order; the demo sorts by field path. On an update,
//! an error about a value the update did not change is dropped (validation ratcheting,
//! beta and on by default since 1.30), except for rules that read `oldSelf`.

use serde_json::Value;

use super::schema::{Rule, Schema, is_machinery, join};
use crate::sim::output::go_number::go_g_float;
use crate::sim::output::go_quote;

/// One field error, printed as kubectl prints a cause.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FieldError {
    pub path: String,
    pub body: String,
    /// NotSupported, Required, TooLong, TooMany and TypeInvalid stop CEL from running
    /// (hasBlockingErr in the custom resource strategy).
    pub blocking: bool,
    /// A failing rule that does not read oldSelf, on a value the update left unchanged:
    /// ratcheting returns it to the client as a warning, not an error.
    pub warning: bool,
}

impl FieldError {
    pub fn text(&self) -> String {
        format!("{}: {}", self.path, self.body)
    }
}

/// `%v` of a JSON number as Go prints the decoded int64 or float64.
fn go_number(v: &Value) -> String {
    match v.as_i64() {
        Some(i) => i.to_string(),
        None => go_g_float(v.as_f64().unwrap_or(0.0)),
    }
}

/// A value as field.Error prints it: strings quoted, numbers and booleans bare.
fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Number(_) => go_number(v),
        Value::Bool(b) => b.to_string(),
        Value::Null => "\"null\"".into(),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(go_value).collect();
            format!("[]interface {{}}{{{}}}", items.join(", "))
        }
        Value::Object(_) => "map[string]interface {}{...}".into(),
    }
}

/// Validates `new` (with `old`, the stored object, on an update) against `schema`,
/// starting at the object's root.
pub fn validate(schema: &Schema, new: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    openapi(schema, new, "", &mut errs);
    if let Some(old) = old {
        errs.retain(|e| !ratcheted(&e.path, new, old));
    }
    if errs.iter().any(|e| e.blocking) {
        errs.sort();
        errs.push(FieldError {
            path: "<nil>".into(),
            body: "Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation".into(),
            blocking: false,
            warning: false,
        });
        return errs;
    }
    rules(schema, new, old, "", &mut errs);
    errs.sort();
    errs
}

/// Ratcheting: whether an error at `path` (`spec.items[0].x`) sits in a node the update
/// left unchanged, itself or an ancestor reached through object fields (lists are not
/// correlated here, as upstream does not correlate atomic lists). A node that is
/// unchanged takes its children's errors, a missing required field's included, with it.
fn ratcheted(path: &str, new: &Value, old: &Value) -> bool {
    if path.is_empty() || path == "<nil>" {
        return false;
    }
    let (mut n, mut o) = (new, old);
    for part in path.split('.') {
        if part.contains('[') {
            return false;
        }
        match (n.get(part), o.get(part)) {
            (Some(a), Some(b)) if a == b => return true,
            (Some(a), Some(b)) => (n, o) = (a, b),
            _ => return false,
        }
    }
    false
}

/// Each `default` in a schema checked against the schema of its own node, as CRD
/// validation checks them (defaulting/validation.go), under `<path>.default`.
pub fn defaults(s: &Schema, path: &str, out: &mut Vec<String>) {
    if let Some(d) = &s.default {
        let mut errs = Vec::new();
        openapi(s, d, &format!("{path}.default"), &mut errs);
        errs.sort();
        out.extend(errs.iter().map(FieldError::text));
    }
    for (k, p) in &s.properties {
        defaults(p, &format!("{path}.properties[{k}]"), out);
    }
    if let Some(i) = &s.items {
        defaults(i, &format!("{path}.items"), out);
    }
    if let Some(a) = &s.additional {
        defaults(a, &format!("{path}.additionalProperties"), out);
    }
}

fn err(errs: &mut Vec<FieldError>, path: &str, body: String, blocking: bool) {
    errs.push(FieldError {
        path: path.to_string(),
        body,
        blocking,
        warning: false,
    });
}

fn openapi(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    if v.is_null() && s.nullable {
        return;
    }
    let actual = Schema::json_type(v);
    if let Some(t) = s.type_.as_deref().filter(|t| !t.is_empty()) {
        let fits = actual == t || (t == "number" && actual == "integer");
        if !fits && !s.int_or_string {
            err(
                errs,
                path,
                format!(
                    "Invalid value: \"{actual}\": {path} in body must be of type {t}: \"{actual}\""
                ),
                true,
            );
            return;
        }
    }
    if s.int_or_string && !matches!(actual, "integer" | "string") {
        err(
            errs,
            path,
            format!(
                "Invalid value: \"{actual}\": {path} in body must be of type integer,string: \"{actual}\""
            ),
            true,
        );
        return;
    }
    if !s.enum_.is_empty() && !s.enum_.contains(v) {
        // field.NotSupported takes the valid values as strings and quotes each.
        let supported: Vec<String> = s
            .enum_
            .iter()
            .map(|e| match e {
                Value::String(x) => go_quote(x),
                other => go_quote(&go_value(other)),
            })
            .collect();
        err(
            errs,
            path,
            format!(
                "Unsupported value: {}: supported values: {}",
                go_value(v),
                supported.join(", ")
            ),
            true,
        );
    }
    match v {
        Value::Number(_) => number(s, v, path, errs),
        Value::String(text) => string(s, text, path, errs),
        Value::Array(a) => {
            if let Some(max) = s.max_items.filter(|m| a.len() as u64 > *m) {
                err(
                    errs,
                    path,
                    format!("Too many: {}: must have at most {max} items", a.len()),
                    true,
                );
            }
            if let Some(min) = s.min_items.filter(|m| (a.len() as u64) < *m) {
                err(
                    errs,
                    path,
                    format!(
                        "Invalid value: {}: {path} in body should have at least {min} items",
                        go_value(v)
                    ),
                    false,
                );
            }
            if let Some(items) = &s.items {
                for (i, x) in a.iter().enumerate() {
                    openapi(items, x, &format!("{path}[{i}]"), errs);
                }
            }
        }
        Value::Object(m) => {
            for r in &s.required {
                if !m.contains_key(r) {
                    err(errs, &join(path, r), "Required value".into(), true);
                }
            }
            if let Some(max) = s.max_properties.filter(|x| m.len() as u64 > *x) {
                err(
                    errs,
                    path,
                    format!("Too many: {}: must have at most {max} items", m.len()),
                    true,
                );
            }
            for (k, x) in m {
                if is_machinery(path, k) {
                    continue;
                }
                if let Some(child) = s.child(k) {
                    openapi(child, x, &join(path, k), errs);
                }
            }
        }
        _ => {}
    }
}

fn number(s: &Schema, v: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let n = v.as_f64().unwrap_or(0.0);
    let shown = go_number(v);
    if let Some(min) = s.minimum {
        let (bad, words) = if s.exclusive_minimum {
            (n <= min, "greater than")
        } else {
            (n < min, "greater than or equal to")
        };
        if bad {
            err(
                errs,
                path,
                format!(
                    "Invalid value: {shown}: {path} in body should be {words} {}",
                    go_g_float(min)
                ),
                false,
            );
        }
    }
    if let Some(max) = s.maximum {
        let (bad, words) = if s.exclusive_maximum {
            (n >= max, "less than")
        } else {
            (n > max, "less than or equal to")
        };
        if bad {
            err(
                errs,
                path,
                format!(
                    "Invalid value: {shown}: {path} in body should be {words} {}",
                    go_g_float(max)
                ),
                false,
            );
        }
    }
    if let Some(m) = s
        .multiple_of
        .filter(|m| *m != 0.0 && (n / m).fract() != 0.0)
    {
        err(
            errs,
            path,
            format!(
                "Invalid value: {shown}: {path} in body should be a multiple of {}",
                go_g_float(m)
            ),
            false,
        );
    }
}

fn string(s: &Schema, text: &str, path: &str, errs: &mut Vec<FieldError>) {
    let chars = text.chars().count() as u64;
    if let Some(max) = s.max_length.filter(|m| chars > *m) {
        err(
            errs,
            path,
            format!("Too long: may not be more than {max} bytes"),
            true,
        );
    }
    if let Some(min) = s.min_length.filter(|m| chars < *m) {
        err(
            errs,
            path,
            format!(
                "Invalid value: {}: {path} in body should be at least {min} chars long",
                go_quote(text)
            ),
            false,
        );
    }
    if let Some((p, re)) = &s.pattern
        && !re.is_match(text)
    {
        err(
            errs,
            path,
            format!(
                "Invalid value: {}: {path} in body should match '{p}'",
                go_quote(text)
            ),
            false,
        );
    }
}

/// The CEL rules, each run with `self` the node's value (and `oldSelf` the old object's
/// value at the same place, for an update): a node's own rules, then its children's.
fn rules(s: &Schema, v: &Value, old: Option<&Value>, path: &str, errs: &mut Vec<FieldError>) {
    if v.is_null() {
        return;
    }
    let type_ = s.type_.clone().unwrap_or_default();
    for r in &s.rules {
        check_rule(r, &type_, v, old, path, errs);
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if is_machinery(path, k) {
                    continue;
                }
                if let Some(child) = s.child(k) {
                    let old_child = old.and_then(|o| o.get(k));
                    rules(child, x, old_child, &join(path, k), errs);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = &s.items {
                // List items correlate with the old list's only by key; the demo reads
                // none, so transition rules on items do not run (as for an atomic list).
                for (i, x) in a.iter().enumerate() {
                    rules(items, x, None, &format!("{path}[{i}]"), errs);
                }
            }
        }
        _ => {}
    }
}

fn check_rule(
    r: &Rule,
    type_: &str,
    v: &Value,
    old: Option<&Value>,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    if r.transition && old.is_none() {
        return;
    }
    // Ratcheting: a failing rule that does not read oldSelf, on a value the update left
    // as it was, is a warning upstream, not an error (one that cannot run is an error).
    let ratchets = !r.transition && old == Some(v);
    let mut vars: Vec<(&str, &Value)> = vec![("self", v)];
    if let Some(o) = old {
        vars.push(("oldSelf", o));
    }
    let shown = if path.is_empty() { "<nil>" } else { path };
    let error_string = r.message.as_deref().map_or(r.rule.trim(), str::trim);
    match r.program.check(&vars) {
        Ok(true) => {}
        Err(e) => err(
            errs,
            shown,
            format!(
                "Invalid value: {}: {e} evaluating rule: {error_string}",
                go_quote(type_)
            ),
            false,
        ),
        Ok(false) => {
            let at = match r.field_path.as_deref() {
                Some(fp) => {
                    let tail = fp.trim_start_matches('.');
                    join(path, tail)
                }
                None => shown.to_string(),
            };
            let default = match &r.message {
                Some(m) => m.trim().to_string(),
                None => format!("failed rule: {}", r.rule.trim()),
            };
            let detail = r
                .message_expression
                .as_ref()
                .and_then(|me| me.eval_json(&[("self", v)]).ok())
                .and_then(|m| m.as_str().map(|s| s.trim().to_string()))
                .filter(|m| !m.is_empty() && !m.contains('\n'))
                .unwrap_or(default);
            let body = match r.reason.as_deref() {
                Some("FieldValueForbidden") => format!("Forbidden: {detail}"),
                Some("FieldValueRequired") => format!("Required value: {detail}"),
                Some("FieldValueDuplicate") => format!("Duplicate value: {}", go_quote(type_)),
                _ => format!("Invalid value: {}: {detail}", go_quote(type_)),
            };
            errs.push(FieldError {
                path: at,
                body,
                blocking: false,
                warning: ratchets,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema(v: Value) -> Schema {
        let mut errs = Vec::new();
        let s = Schema::parse(&v, "s", true, &mut errs);
        assert!(errs.is_empty(), "{errs:?}");
        s
    }

    fn texts(e: Vec<FieldError>) -> Vec<String> {
        e.iter().map(FieldError::text).collect()
    }

    fn webapp() -> Schema {
        schema(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "required": ["image"],
            "x-kubernetes-validations": [
                {"rule": "self.minReplicas <= self.maxReplicas", "message": "min must be <= max"},
                {"rule": "self.image == oldSelf.image", "message": "image is immutable", "reason": "FieldValueForbidden", "fieldPath": ".image"}],
            "properties": {
                "image": {"type": "string", "minLength": 1, "maxLength": 20},
                "replicas": {"type": "integer", "minimum": 0, "maximum": 10},
                "minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"},
                "mode": {"type": "string", "enum": ["a", "b"]},
                "name": {"type": "string", "pattern": "^[a-z]+$"}}}}}),
        )
    }

    #[test]
    fn openapi_errors_in_kube_openapi_words_sorted_by_path() {
        let o = json!({"spec": {"image": "nginx", "replicas": -1, "name": "ABC",
            "minReplicas": 1, "maxReplicas": 2}});
        assert_eq!(
            texts(validate(&webapp(), &o, None)),
            [
                "spec.name: Invalid value: \"ABC\": spec.name in body should match '^[a-z]+$'",
                "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0",
            ]
        );
    }

    #[test]
    fn a_blocking_error_skips_the_rules_and_says_so() {
        let o =
            json!({"spec": {"replicas": "3", "mode": "fast", "minReplicas": 5, "maxReplicas": 1}});
        assert_eq!(
            texts(validate(&webapp(), &o, None)),
            [
                "spec.image: Required value",
                "spec.mode: Unsupported value: \"fast\": supported values: \"a\", \"b\"",
                "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
                "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ]
        );
    }

    #[test]
    fn rules_run_with_self_and_transition_rules_only_on_update() {
        let o = json!({"spec": {"image": "nginx", "minReplicas": 5, "maxReplicas": 1}});
        assert_eq!(
            texts(validate(&webapp(), &o, None)),
            ["spec: Invalid value: \"object\": min must be <= max"]
        );
        let old = json!({"spec": {"image": "httpd", "minReplicas": 1, "maxReplicas": 2}});
        let new = json!({"spec": {"image": "nginx", "minReplicas": 1, "maxReplicas": 2}});
        assert_eq!(
            texts(validate(&webapp(), &new, Some(&old))),
            ["spec.image: Forbidden: image is immutable"]
        );
    }

    #[test]
    fn a_rule_failing_on_an_unchanged_value_is_a_warning() {
        let s = schema(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "x-kubernetes-validations": [{"rule": "self.n < 5", "message": "n must be below 5"}],
            "properties": {"n": {"type": "integer"}, "m": {"type": "integer"}}}}}),
        );
        let old = json!({"spec": {"n": 7}, "metadata": {"labels": {}}});
        let mut new = old.clone();
        new["metadata"]["labels"]["a"] = json!("b");
        let out = validate(&s, &new, Some(&old));
        assert_eq!(out.len(), 1);
        assert!(out[0].warning);
        assert_eq!(
            out[0].text(),
            "spec: Invalid value: \"object\": n must be below 5"
        );
        new["spec"]["m"] = json!(1);
        assert!(
            !validate(&s, &new, Some(&old))[0].warning,
            "spec changed: an error"
        );
    }

    #[test]
    fn an_unchanged_invalid_value_is_let_through_on_update() {
        let old =
            json!({"spec": {"image": "nginx", "replicas": 50, "minReplicas": 1, "maxReplicas": 2}});
        let mut new = old.clone();
        new["spec"]["mode"] = json!("a");
        assert!(validate(&webapp(), &new, Some(&old)).is_empty());
        new["spec"]["replicas"] = json!(60);
        assert_eq!(validate(&webapp(), &new, Some(&old)).len(), 1);
    }

    #[test]
    fn a_field_newly_required_under_an_unchanged_parent_is_ratcheted() {
        let s = schema(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "required": ["tier"], "properties": {"tier": {"type": "string"}, "n": {"type": "integer"}}}}}),
        );
        let old = json!({"metadata": {"labels": {}}, "spec": {"n": 1}});
        let mut new = old.clone();
        new["metadata"]["labels"] = json!({"a": "b"});
        assert!(
            validate(&s, &new, Some(&old)).is_empty(),
            "a label change passes"
        );
        new["spec"]["n"] = json!(2);
        assert_eq!(
            validate(&s, &new, Some(&old))[0].text(),
            "spec.tier: Required value"
        );
    }

    #[test]
    fn a_rule_that_cannot_run_says_why_with_the_rule() {
        let s = schema(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-validations": [{"rule": "self.size > 1"}]}}}),
        );
        let e = texts(validate(&s, &json!({"spec": {}}), None));
        assert_eq!(
            e,
            ["spec: Invalid value: \"object\": no such key: size evaluating rule: self.size > 1"]
        );
    }
}
