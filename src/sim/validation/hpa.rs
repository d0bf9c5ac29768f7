//! ValidateHorizontalPodAutoscaler (pkg/apis/autoscaling/validation, 1.32), in the order
//! the source checks: the name, min and max replicas, the scale target reference, each
//! metric and its target, then the scaling rules of `behavior`. The demo's metrics-server
//! serves CPU only, so any other metric is refused in the demo's own words first.

use serde_json::Value;

use super::{Kind, invalid, meta};
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

const METRIC_TYPES: &str =
    "\"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"";
/// Where each metric type keeps its source.
const SOURCES: [(&str, &str); 5] = [
    ("Object", "object"),
    ("External", "external"),
    ("Pods", "pods"),
    ("Resource", "resource"),
    ("ContainerResource", "containerResource"),
];

/// The int32 fields decode as the server's JSON decoder decodes them.
fn decodes(o: &Value) -> Result<(), ApiError> {
    let spec = &o["spec"];
    let go = |v: &Value, f: &str| super::job::go_int(Kind::HorizontalPodAutoscaler, v, f, "int32");
    go(
        &spec["minReplicas"],
        "HorizontalPodAutoscalerSpec.spec.minReplicas",
    )?;
    go(
        &spec["maxReplicas"],
        "HorizontalPodAutoscalerSpec.spec.maxReplicas",
    )?;
    for dir in ["scaleUp", "scaleDown"] {
        let rules = &spec["behavior"][dir];
        go(
            &rules["stabilizationWindowSeconds"],
            "HPAScalingRules.spec.behavior.stabilizationWindowSeconds",
        )?;
        for p in rules["policies"].as_array().into_iter().flatten() {
            go(&p["value"], "HPAScalingPolicy.spec.behavior.policies.value")?;
            go(
                &p["periodSeconds"],
                "HPAScalingPolicy.spec.behavior.policies.periodSeconds",
            )?;
        }
    }
    for m in spec["metrics"].as_array().into_iter().flatten() {
        let target = &m["resource"]["target"];
        go(
            &target["averageUtilization"],
            "MetricTarget.spec.metrics.resource.target.averageUtilization",
        )?;
        for f in ["value", "averageValue"] {
            if let Some(v) = target.get(f).filter(|v| !v.is_null())
                && let Err(e) = crate::sim::quantity::Quantity::from_json(v)
            {
                return Err(ApiError {
                    reason: crate::sim::status::Reason::BadRequest,
                    message: format!(
                        "HorizontalPodAutoscaler in version \"v2\" cannot be handled as a HorizontalPodAutoscaler: {e}"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// What the demo does not simulate: metrics other than a pod's CPU.
fn unmodelled(spec: &Value) -> Result<(), ApiError> {
    for m in spec["metrics"].as_array().into_iter().flatten() {
        let t = m["type"].as_str().unwrap_or("");
        let name = m["resource"]["name"].as_str().unwrap_or("");
        let what = match t {
            "Resource" if name == "cpu" || name.is_empty() => continue,
            "Resource" => format!("a {name} metric"),
            "" => continue,
            other => format!("a {other} metric"),
        };
        if SOURCES.iter().any(|(ty, _)| *ty == t) {
            return Err(ApiError::invalid(format!(
                "error: kubedrill's demo serves CPU resource metrics only: {what} is valid on a real cluster (1.32), but the demo's metrics-server has no such data"
            )));
        }
    }
    Ok(())
}

pub fn horizontal_pod_autoscaler(o: &Value) -> Result<(), ApiError> {
    decodes(o)?;
    let spec = &o["spec"];
    unmodelled(spec)?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    let min = spec["minReplicas"].as_i64();
    let max = spec["maxReplicas"].as_i64().unwrap_or(0);
    if let Some(m) = min.filter(|m| *m < 1) {
        errs.push(format!(
            "spec.minReplicas: Invalid value: {m}: must be greater than or equal to 1"
        ));
    }
    if max < 1 {
        errs.push(format!(
            "spec.maxReplicas: Invalid value: {max}: must be greater than 0"
        ));
    }
    if min.is_some_and(|m| max < m) {
        errs.push(format!(
            "spec.maxReplicas: Invalid value: {max}: must be greater than or equal to `minReplicas`"
        ));
    }
    let target = &spec["scaleTargetRef"];
    for f in ["kind", "name"] {
        let v = target[f].as_str().unwrap_or("");
        if v.is_empty() {
            errs.push(format!("spec.scaleTargetRef.{f}: Required value"));
        } else {
            for msg in path_segment(v) {
                errs.push(format!(
                    "spec.scaleTargetRef.{f}: Invalid value: {}: {msg}",
                    go_quote(v)
                ));
            }
        }
    }
    let metrics = spec["metrics"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for (i, m) in metrics.iter().enumerate() {
        metric(&mut errs, &format!("spec.metrics[{i}]"), m);
    }
    // Scaling to zero needs a metric that does not come from the pods.
    if min == Some(0)
        && !metrics
            .iter()
            .any(|m| m["type"] == "Object" || m["type"] == "External")
    {
        errs.push(
            "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas".into(),
        );
    }
    for dir in ["scaleUp", "scaleDown"] {
        let rules = &spec["behavior"][dir];
        if rules.is_object() {
            scaling_rules(&mut errs, &format!("spec.behavior.{dir}"), rules);
        }
    }
    invalid(Kind::HorizontalPodAutoscaler, o, errs)
}

/// IsValidPathSegmentName.
fn path_segment(s: &str) -> Vec<String> {
    if s == "." || s == ".." {
        return vec![format!("may not be '{s}'")];
    }
    ["/", "%"]
        .iter()
        .filter(|c| s.contains(**c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

fn metric(errs: &mut Vec<String>, at: &str, m: &Value) {
    let t = m["type"].as_str().unwrap_or("");
    if t.is_empty() {
        errs.push(format!(
            "{at}.type: Required value: must specify a metric source type"
        ));
    }
    if !SOURCES.iter().any(|(ty, _)| *ty == t) {
        errs.push(format!(
            "{at}.type: Unsupported value: {}: supported values: {METRIC_TYPES}",
            go_quote(t)
        ));
    }
    let set: Vec<&str> = SOURCES
        .iter()
        .map(|(_, f)| *f)
        .filter(|f| m.get(*f).is_some_and(|v| !v.is_null()))
        .collect();
    if let Some((_, own)) = SOURCES.iter().find(|(ty, _)| *ty == t) {
        if !set.contains(own) {
            errs.push(format!(
                "{at}.{own}: Required value: must populate information for the given metric source"
            ));
        }
        for other in set.iter().filter(|f| *f != own) {
            errs.push(format!(
                "{at}.{other}: Forbidden: must populate the given metric source only"
            ));
        }
    }
    let r = &m["resource"];
    if t == "Resource" && r.is_object() {
        let at = format!("{at}.resource");
        if r["name"].as_str().is_none_or(str::is_empty) {
            errs.push(format!(
                "{at}.name: Required value: must specify a resource name"
            ));
        }
        metric_target(errs, &format!("{at}.target"), &r["target"]);
    }
}

fn metric_target(errs: &mut Vec<String>, at: &str, t: &Value) {
    let ty = t["type"].as_str().unwrap_or("");
    if ty.is_empty() {
        errs.push(format!(
            "{at}.type: Required value: must specify a metric target type"
        ));
    }
    if !["Utilization", "Value", "AverageValue"].contains(&ty) {
        errs.push(format!(
            "{at}.type: Invalid value: {}: must be either Utilization, Value, or AverageValue",
            go_quote(ty)
        ));
    }
    for f in ["value", "averageValue"] {
        if let Some(v) = t.get(f).filter(|v| !v.is_null())
            && crate::sim::quantity::nanos(Some(v)) <= 0
        {
            let shown = crate::sim::quantity::canonical(v).unwrap_or_default();
            errs.push(format!(
                "{at}.{f}: Invalid value: \"{shown}\": must be positive"
            ));
        }
    }
    let util = t["averageUtilization"].as_i64();
    if let Some(u) = util.filter(|u| *u < 1) {
        errs.push(format!(
            "{at}.averageUtilization: Invalid value: {u}: must be greater than 0"
        ));
    }
    let avg = t.get("averageValue").is_some_and(|v| !v.is_null());
    match (util.is_some(), avg) {
        (false, false) => errs.push(format!(
            "{at}.averageUtilization: Required value: must set either a target raw value or a target utilization"
        )),
        (true, true) => errs.push(format!(
            "{at}.averageValue: Forbidden: may not set both a target raw value and a target utilization"
        )),
        _ => {}
    }
}

fn scaling_rules(errs: &mut Vec<String>, at: &str, r: &Value) {
    if let Some(w) = r["stabilizationWindowSeconds"].as_i64() {
        if w < 0 {
            errs.push(format!(
                "{at}.stabilizationWindowSeconds: Invalid value: {w}: must be greater than or equal to zero"
            ));
        } else if w > 3600 {
            errs.push(format!(
                "{at}.stabilizationWindowSeconds: Invalid value: {w}: must be less than or equal to 3600"
            ));
        }
    }
    if let Some(p) = r["selectPolicy"].as_str()
        && !["Max", "Min", "Disabled"].contains(&p)
    {
        errs.push(format!(
            "{at}.selectPolicy: Unsupported value: {}: supported values: \"Disabled\", \"Max\", \"Min\"",
            go_quote(p)
        ));
    }
    let policies = r["policies"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if policies.is_empty() {
        errs.push(format!(
            "{at}.policies: Required value: must specify at least one Policy"
        ));
    }
    for (i, p) in policies.iter().enumerate() {
        let at = format!("{at}.policies[{i}]");
        let t = p["type"].as_str().unwrap_or("");
        if !["Pods", "Percent"].contains(&t) {
            errs.push(format!(
                "{at}.type: Unsupported value: {}: supported values: \"Percent\", \"Pods\"",
                go_quote(t)
            ));
        }
        let value = p["value"].as_i64().unwrap_or(0);
        if value <= 0 {
            errs.push(format!(
                "{at}.value: Invalid value: {value}: must be greater than zero"
            ));
        }
        let period = p["periodSeconds"].as_i64().unwrap_or(0);
        if period <= 0 {
            errs.push(format!(
                "{at}.periodSeconds: Invalid value: {period}: must be greater than zero"
            ));
        } else if period > 1800 {
            errs.push(format!(
                "{at}.periodSeconds: Invalid value: {period}: must be less than or equal to 1800"
            ));
        }
    }
}
