//! PodDisruptionBudgets (policy/v1): pkg/registry/policy/poddisruptionbudget/strategy.go
//! and `printPodDisruptionBudget`. A new budget starts with an empty status and
//! generation 1; a spec change moves generation; status is a subresource the disruption
//! controller writes.

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_pdb, rows};
use crate::sim::time::rfc3339;
use crate::sim::validation;

pub struct PodDisruptionBudget;

impl Strategy for PodDisruptionBudget {
    /// PrepareForCreate: the status is the zero value, whose counts are not omitempty.
    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({
            "currentHealthy": 0, "desiredHealthy": 0, "disruptionsAllowed": 0, "expectedPods": 0,
        });
    }

    fn validate(&self, obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        validation::pdb(obj)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::POD_DISRUPTION_BUDGET)
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &[
            "NAME",
            "MIN AVAILABLE",
            "MAX UNAVAILABLE",
            "ALLOWED DISRUPTIONS",
            "AGE",
        ]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::pdb(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_pdb(obj, &events, now))
    }
}

/// Whether `selector` (a budget's `spec.selector`) selects a pod with `labels`: in
/// policy/v1 an empty selector selects every pod, a missing one none.
pub fn selects(selector: &Value, labels: &Value) -> bool {
    !selector.is_null() && crate::sim::obj::selector_matches_labels(selector, labels)
}

/// `UpdateDisruptionAllowedCondition` / `SetStatusCondition`: the DisruptionAllowed
/// condition, its transition time moving only when its status does.
pub fn set_condition(status: &mut Value, state: &str, reason: &str, message: &str, now: u64) {
    let generation = status["observedGeneration"].clone();
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    let Some(list) = status["conditions"].as_array_mut() else {
        return;
    };
    let mut cond = json!({
        "type": "DisruptionAllowed",
        "status": state,
        "lastTransitionTime": rfc3339(now),
        "reason": reason,
        "message": message,
    });
    if !generation.is_null() {
        cond["observedGeneration"] = generation;
    }
    match list.iter_mut().find(|c| c["type"] == "DisruptionAllowed") {
        Some(c) => {
            if c["status"] == state {
                cond["lastTransitionTime"] = c["lastTransitionTime"].clone();
            }
            *c = cond;
        }
        None => list.push(cond),
    }
}
