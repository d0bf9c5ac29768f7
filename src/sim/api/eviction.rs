//! POST pods/NAME/eviction (pkg/registry/core/pod/storage/eviction.go, policy/v1
//! Eviction): a delete that first asks the pod's PodDisruptionBudget. A pod that is
//! Pending, finished or already being deleted is deleted at once; so is a pod no budget
//! selects. A pod two budgets select is refused (500). A pod that is not Ready may go
//! when its budget is healthy, or always with `unhealthyPodEvictionPolicy: AlwaysAllow`.
//! Otherwise the budget must allow a disruption: the eviction spends one, records the
//! pod in `disruptedPods`, and deletes it; with none left it is refused with 429. Every
//! eviction that deletes marks the pod with a `DisruptionTarget` condition first.
//!
//! A plain DELETE of a pod asks no budget: that is the difference the demo shows.

use serde_json::{Value, json};

use super::*;
use crate::sim::kind::Kind;
use crate::sim::kinds::pdb::{selects, set_condition};
use crate::sim::time::rfc3339;

/// The message of the 429 (`createTooManyRequestsError`, and the one for no disruptions
/// left).
pub const BUDGET_VIOLATION: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";

/// `UpdatePodCondition` of a True `DisruptionTarget` condition; false when the pod has it
/// already.
pub fn add_disruption_target(status: &mut Value, reason: &str, message: &str, now: u64) -> bool {
    let condition = json!({
        "type": "DisruptionTarget",
        "status": "True",
        "lastProbeTime": null,
        "lastTransitionTime": rfc3339(now),
        "reason": reason,
        "message": message,
    });
    let list = super::binding::conditions(status);
    match list.iter_mut().find(|c| c["type"] == "DisruptionTarget") {
        Some(c) if c["status"] == "True" && c["reason"] == reason && c["message"] == message => {
            false
        }
        Some(c) => {
            // The transition time stays when the status does not change.
            let keep = (c["status"] == "True").then(|| c["lastTransitionTime"].clone());
            *c = condition;
            if let Some(t) = keep {
                c["lastTransitionTime"] = t;
            }
            true
        }
        None => {
            list.push(condition);
            true
        }
    }
}

impl ApiServer {
    /// Evicts pod `name` with the grace period the Eviction's DeleteOptions carry; a dry
    /// run decides and writes nothing.
    pub fn evict(
        &mut self,
        name: &str,
        grace: Option<i64>,
        dry_run: bool,
        now: u64,
    ) -> Result<(), ApiError> {
        let pod = self.get_shared(Kind::Pod, name)?;
        // canIgnorePDB.
        let phase = pod.pod_phase().unwrap_or("");
        if matches!(phase, "Succeeded" | "Failed" | "Pending") || pod.facts().deleting {
            return self.evict_delete(name, grace, dry_run, now);
        }
        let labels = pod.facts().labels.clone();
        let budgets: Vec<&Value> = self
            .list(Kind::PodDisruptionBudget)
            .filter(|b| selects(&b["spec"]["selector"], &labels))
            .collect();
        // The one copy of the budget, which becomes its next version.
        let mut pdb = match budgets.as_slice() {
            [] => return self.evict_delete(name, grace, dry_run, now),
            [one] => (*one).clone(),
            _ => {
                return Err(ApiError {
                    reason: Reason::Unknown,
                    message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into(),
                });
            }
        };
        let int = |p: &[&str]| obj::int(&pdb, p).unwrap_or(0);
        if !pod.pod().ready {
            let always = pdb["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow";
            let desired = int(&["status", "desiredHealthy"]);
            if always || (int(&["status", "currentHealthy"]) >= desired && desired > 0) {
                return self.evict_delete(name, grace, dry_run, now);
            }
        }
        // checkAndDecrement.
        let too_many = || ApiError {
            reason: Reason::TooManyRequests,
            message: BUDGET_VIOLATION.into(),
        };
        if int(&["status", "observedGeneration"]) < int(&["metadata", "generation"]) {
            return Err(too_many());
        }
        let allowed = int(&["status", "disruptionsAllowed"]);
        if allowed < 0 {
            return Err(ApiError {
                reason: Reason::Forbidden,
                message: format!(
                    "poddisruptionbudgets.policy \"{}\" is forbidden: pdb disruptions allowed is negative",
                    obj::name(&pdb)
                ),
            });
        }
        if allowed == 0 {
            return Err(too_many());
        }
        if dry_run {
            return Ok(());
        }
        let next = &mut pdb;
        next["status"]["disruptionsAllowed"] = json!(allowed - 1);
        if allowed == 1 {
            set_condition(&mut next["status"], "False", "InsufficientPods", "", now);
        }
        if !next["status"]["disruptedPods"].is_object() {
            next["status"]["disruptedPods"] = json!({});
        }
        next["status"]["disruptedPods"][name] = json!(rfc3339(now));
        self.as_manager("kube-apiserver", Some("status"), |api| {
            api.update_status(Kind::PodDisruptionBudget, pdb)
        })?;
        self.evict_delete(name, grace, dry_run, now)
    }

    /// `addConditionAndDeletePod`: the DisruptionTarget condition, then the delete.
    fn evict_delete(
        &mut self,
        name: &str,
        grace: Option<i64>,
        dry_run: bool,
        now: u64,
    ) -> Result<(), ApiError> {
        if dry_run {
            return Ok(());
        }
        let pod = self.get_shared(Kind::Pod, name)?;
        let mut status = pod.field("status").cloned().unwrap_or(Value::Null);
        if add_disruption_target(
            &mut status,
            "EvictionByEvictionAPI",
            "Eviction API: evicting",
            now,
        ) {
            self.store_pod_status(&pod, status)?;
        }
        self.delete_shared(Kind::Pod, name, grace, now).map(|_| ())
    }
}
