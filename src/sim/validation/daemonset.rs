//! ValidateDaemonSet / ValidateDaemonSetUpdate (pkg/apis/apps/validation, 1.32) and the
//! apps/v1 strategy's immutable selector: what a hand-written DaemonSet can trip, in the
//! order the source checks it.

use serde_json::Value;

use super::{
    Kind, always_restarts, decodes, go_label_selector, go_string_map, int_or_percent,
    int_or_percent_field, invalid, meta, nonnegative, normal_selector, pod, quantities,
    template_meta,
};
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

/// `%#v` of an internal `intstr.IntOrString` (its String() has a pointer receiver, so
/// field.Error prints the struct).
fn go_int_or_string(v: &Value) -> String {
    match v {
        Value::String(s) => format!(
            "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
            go_quote(s)
        ),
        other => format!(
            "intstr.IntOrString{{Type:0, IntVal:{}, StrVal:\"\"}}",
            other.as_i64().unwrap_or(0)
        ),
    }
}

pub fn daemon_set(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    quantities(Kind::DaemonSet, o)?;
    let spec = &o["spec"];
    decodes(Kind::DaemonSet, spec)?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    let selector = spec.get("selector").filter(|s| !s.is_null());
    let template_labels = obj::path(spec, &["template", "metadata", "labels"]);
    match selector {
        None => errs.push("spec.selector: Required value".into()),
        Some(s) => {
            if !obj::selector_matches_labels(s, template_labels.unwrap_or(&Value::Null)) {
                errs.push(format!(
                    "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
                    go_string_map(template_labels)
                ));
            }
            let n = s["matchLabels"].as_object().map_or(0, |m| m.len())
                + s["matchExpressions"].as_array().map_or(0, Vec::len);
            if n == 0 {
                errs.push(format!(
                    "spec.selector: Invalid value: {}: empty selector is invalid for daemonset",
                    go_label_selector(s)
                ));
            }
        }
    }
    template_meta(&mut errs, spec);
    pod::pod_spec(&mut errs, "spec.template.spec", &spec["template"]["spec"]);
    always_restarts(&mut errs, spec, "DaemonSet");
    nonnegative(
        &mut errs,
        "spec.minReadySeconds",
        spec["minReadySeconds"].as_i64(),
    );
    update_strategy(&mut errs, &spec["updateStrategy"]);
    nonnegative(
        &mut errs,
        "spec.revisionHistoryLimit",
        spec["revisionHistoryLimit"].as_i64(),
    );
    if let (Some(old), Some(new)) = (old, selector)
        && old["spec"].get("selector").map(normal_selector) != Some(normal_selector(new))
    {
        errs.push(format!(
            "spec.selector: Invalid value: {}: field is immutable",
            go_label_selector(new)
        ));
    }
    invalid(Kind::DaemonSet, o, errs)
}

/// ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet: exactly one of
/// maxSurge and maxUnavailable non-zero, each at most 100%.
fn update_strategy(errs: &mut Vec<String>, s: &Value) {
    match s["type"].as_str().unwrap_or("") {
        "OnDelete" => {}
        "RollingUpdate" => {
            let Some(r) = s.get("rollingUpdate").filter(|r| !r.is_null()) else {
                errs.push("spec.updateStrategy.rollingUpdate: Required value".into());
                return;
            };
            for f in ["maxUnavailable", "maxSurge"] {
                let field = format!("spec.updateStrategy.rollingUpdate.{f}");
                int_or_percent_field(errs, &field, &r[f], true);
            }
            let unavailable = int_or_percent(&r["maxUnavailable"]).unwrap_or(0) != 0;
            let surge = int_or_percent(&r["maxSurge"]).unwrap_or(0) != 0;
            match (unavailable, surge) {
                (true, true) => errs.push(format!(
                    "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: {}: may not be set when maxUnavailable is non-zero",
                    go_int_or_string(&r["maxSurge"])
                )),
                (false, false) => errs.push(
                    "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"
                        .into(),
                ),
                _ => {}
            }
        }
        other => errs.push(format!(
            "spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{{Type:{}, RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}}: supported values: \"RollingUpdate\", \"OnDelete\"",
            go_quote(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ds(strategy: Value) -> Value {
        let mut d = json!({"metadata": {"name": "agent"}, "spec": {
            "selector": {"matchLabels": {"app": "agent"}},
            "updateStrategy": strategy,
            "template": {"metadata": {"labels": {"app": "agent"}},
                "spec": {"restartPolicy": "Always", "containers": [{"name": "a", "image": "busybox"}]}}}});
        crate::sim::defaults::daemon_set(&mut d);
        d
    }

    #[test]
    fn exactly_one_of_surge_and_unavailable() {
        let both = ds(
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}}),
        );
        let e = daemon_set(&both, None).unwrap_err().message;
        assert!(e.contains("spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:\"\"}: may not be set when maxUnavailable is non-zero"), "{e}");
        let neither = ds(
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}),
        );
        let e = daemon_set(&neither, None).unwrap_err().message;
        assert!(
            e.ends_with("maxUnavailable: Required value: cannot be 0 when maxSurge is 0"),
            "{e}"
        );
        let surge = ds(
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}}),
        );
        assert!(daemon_set(&surge, None).is_ok());
    }
}
