//! POST pods/NAME/binding: the scheduler's one write (pkg/registry/core/pod/storage
//! `BindingREST`, `assignPod`): `spec.nodeName` set and the PodScheduled condition made
//! True, refused for a pod already assigned or being deleted.

use serde_json::{Value, json};

use super::*;
use crate::sim::kind::Kind;
use crate::sim::time::rfc3339;

impl ApiServer {
    /// Binds pod `name` to `node`.
    pub fn bind(&mut self, name: &str, node: &str, now: u64) -> Result<(), ApiError> {
        let pod = self.get_shared(Kind::Pod, name)?;
        if pod.facts().deleting {
            return Err(ApiError::conflict_message(format!(
                "Operation cannot be fulfilled on pods/binding \"{name}\": pod {name} is being deleted, cannot be assigned to a host"
            )));
        }
        if let Some(current) = pod.pod_node() {
            return Err(ApiError::conflict_message(format!(
                "Operation cannot be fulfilled on pods/binding \"{name}\": pod {name} is already assigned to node \"{current}\""
            )));
        }
        let mut draft = pod.draft();
        draft.set_pod_node(node);
        let status = draft.edit("status");
        set_scheduled(status, now);
        self.store_changed(Kind::Pod, name, draft)?;
        Ok(())
    }

    /// The scheduler's verdict on a pod it could not place: PodScheduled False, reason
    /// Unschedulable, with the FailedScheduling message (the scheduler's status patch).
    pub fn mark_unschedulable(&mut self, name: &str, message: &str, now: u64) {
        let Ok(pod) = self.get_shared(Kind::Pod, name) else {
            return;
        };
        let status = pod.field("status").cloned().unwrap_or(Value::Null);
        let mut next = status.clone();
        let conditions = conditions(&mut next);
        let cond = json!({
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": message,
            "lastProbeTime": null,
            "lastTransitionTime": rfc3339(now),
        });
        match conditions.iter_mut().find(|c| c["type"] == "PodScheduled") {
            Some(c) if c["status"] == "False" && c["message"] == message => return,
            Some(c) => {
                // The transition time stays when only the message changes.
                let keep = (c["status"] == "False").then(|| c["lastTransitionTime"].clone());
                *c = cond;
                if let Some(t) = keep {
                    c["lastTransitionTime"] = t;
                }
            }
            None => conditions.push(cond),
        }
        let _ = self.store_pod_status(&pod, next);
    }
}

/// A pod status's conditions, made an empty list where there were none.
pub(super) fn conditions(status: &mut Value) -> &mut Vec<Value> {
    if !status.is_object() {
        *status = json!({});
    }
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    match &mut status["conditions"] {
        Value::Array(a) => a,
        _ => unreachable!("made an array just above"),
    }
}

/// PodScheduled True as of `now`, replacing an Unschedulable one.
fn set_scheduled(status: &mut Value, now: u64) {
    let conditions = conditions(status);
    conditions.retain(|c| c["type"] != "PodScheduled");
    conditions.push(json!({
        "type": "PodScheduled",
        "status": "True",
        "lastProbeTime": null,
        "lastTransitionTime": rfc3339(now),
    }));
}
