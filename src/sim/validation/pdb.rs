//! ValidatePodDisruptionBudget (pkg/apis/policy/validation): its metadata, then
//! ValidatePodDisruptionBudgetSpec.

use serde_json::Value;

use super::{int_or_percent_field, invalid, meta};
use crate::sim::kind::Kind;
use crate::sim::status::ApiError;

/// The values `spec.unhealthyPodEvictionPolicy` takes.
const EVICTION_POLICIES: [&str; 2] = ["AlwaysAllow", "IfHealthyBudget"];

pub fn pdb(o: &Value) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    let spec = &o["spec"];
    let min = spec.get("minAvailable").filter(|v| !v.is_null());
    let max = spec.get("maxUnavailable").filter(|v| !v.is_null());
    if min.is_some() && max.is_some() {
        // The Go message prints the internal spec with %#v, pointer addresses and all;
        // the demo prints what can be reproduced.
        errs.push(
            "spec: Invalid value: policy.PodDisruptionBudgetSpec{...}: minAvailable and maxUnavailable cannot be both set"
                .into(),
        );
    }
    if let Some(v) = min {
        int_or_percent_field(&mut errs, "spec.minAvailable", v, true);
    }
    if let Some(v) = max {
        int_or_percent_field(&mut errs, "spec.maxUnavailable", v, true);
    }
    if let Some(sel) = spec.get("selector").filter(|s| !s.is_null()) {
        for (i, e) in sel["matchExpressions"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let op = e["operator"].as_str().unwrap_or("");
            if !["In", "NotIn", "Exists", "DoesNotExist"].contains(&op) {
                errs.push(format!(
                    "spec.selector.matchExpressions[{i}].operator: Invalid value: {op:?}: not a valid selector operator"
                ));
            }
        }
    }
    if let Some(p) = spec
        .get("unhealthyPodEvictionPolicy")
        .filter(|v| !v.is_null())
    {
        let p = p.as_str().unwrap_or("");
        if !EVICTION_POLICIES.contains(&p) {
            errs.push(format!(
                "spec.unhealthyPodEvictionPolicy: Unsupported value: {p:?}: supported values: \"AlwaysAllow\", \"IfHealthyBudget\""
            ));
        }
    }
    invalid(Kind::PodDisruptionBudget, o, errs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn budget(spec: Value) -> Value {
        json!({"metadata": {"name": "web"}, "spec": spec})
    }

    #[test]
    fn a_budget_names_one_bound_within_range() {
        assert!(
            pdb(&budget(
                json!({"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}})
            ))
            .is_ok()
        );
        assert!(pdb(&budget(json!({"maxUnavailable": "50%"}))).is_ok());
        let both = pdb(&budget(json!({"minAvailable": 1, "maxUnavailable": 1}))).unwrap_err();
        assert!(
            both.message
                .ends_with("minAvailable and maxUnavailable cannot be both set"),
            "{}",
            both.message
        );
        let neg = pdb(&budget(json!({"minAvailable": -1}))).unwrap_err();
        assert_eq!(
            neg.message,
            "The PodDisruptionBudget \"web\" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"
        );
        let pct = pdb(&budget(json!({"maxUnavailable": "150%"}))).unwrap_err();
        assert!(
            pct.message.ends_with("must not be greater than 100%"),
            "{}",
            pct.message
        );
        let policy = pdb(&budget(
            json!({"minAvailable": 1, "unhealthyPodEvictionPolicy": "Never"}),
        ))
        .unwrap_err();
        assert!(
            policy.message.contains("Unsupported value: \"Never\""),
            "{}",
            policy.message
        );
    }
}
