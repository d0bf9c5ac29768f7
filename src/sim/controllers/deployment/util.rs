//! Helpers shared by the Deployment controller's files: the revision and replica-count
//! annotations, maxSurge and maxUnavailable, template equality without the hash, and
//! conditions. Mirrors kube-controller-manager's
//! `pkg/controller/deployment/util/deployment_util.go` (and controller_utils.go's
//! ReplicaSetsByCreationTimestamp).

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::parse_rfc3339;

pub(super) const REVISION: &str = "deployment.kubernetes.io/revision";
pub(super) const DESIRED: &str = "deployment.kubernetes.io/desired-replicas";
pub(super) const MAX: &str = "deployment.kubernetes.io/max-replicas";

/// Oldest first, as the controller sorts ReplicaSets by creation time.
pub(super) fn sort_oldest_first(rss: &mut [Arc<Stored>]) {
    rss.sort_by(|a, b| {
        let ta = obj::str(a, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
        let tb = obj::str(b, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
        ta.cmp(&tb).then(obj::name(a).cmp(obj::name(b)))
    });
}

/// B2: surge rounds up, unavailable down; both 0 makes unavailable 1.
pub fn fenceposts(max_surge: &Value, max_unavailable: &Value, replicas: i64) -> (i64, i64) {
    let surge = obj::scaled_int_or_percent(max_surge, replicas, true).unwrap_or(0);
    let unavailable = obj::scaled_int_or_percent(max_unavailable, replicas, false).unwrap_or(0);
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

pub(super) fn strategy(d: &Value) -> (bool, i64, i64) {
    let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
    let s = &d["spec"]["strategy"];
    if s["type"] == "Recreate" {
        return (false, 0, 0);
    }
    let ru = &s["rollingUpdate"];
    let (surge, unavailable) = fenceposts(&ru["maxSurge"], &ru["maxUnavailable"], replicas);
    // MaxUnavailable is capped at replicas and is 0 with no replicas.
    (
        true,
        surge,
        if replicas == 0 {
            0
        } else {
            unavailable.min(replicas)
        },
    )
}

pub(super) fn spec_replicas(rs: &Value) -> i64 {
    obj::int(rs, &["spec", "replicas"]).unwrap_or(0)
}

pub(super) fn status_int(rs: &Value, f: &str) -> i64 {
    obj::int(rs, &["status", f]).unwrap_or(0)
}

pub(super) fn revision(rs: &Value) -> i64 {
    obj::str(rs, &["metadata", "annotations", REVISION])
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

pub(super) fn template_without_hash(t: &Value) -> Value {
    let mut t = t.clone();
    if let Some(l) = t
        .pointer_mut("/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        l.remove("pod-template-hash");
    }
    t
}

/// DeploymentComplete on the status a sync started from: every replica updated and
/// available, and the status observes the current generation.
pub(super) fn deployment_complete(d: &Value) -> bool {
    let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
    let st = |f: &str| obj::int(d, &["status", f]).unwrap_or(0);
    st("updatedReplicas") == replicas
        && st("replicas") == replicas
        && st("availableReplicas") == replicas
        && st("observedGeneration") >= obj::int(d, &["metadata", "generation"]).unwrap_or(0)
}

/// B10: an unchanged status and reason writes nothing (unless `refresh`, for
/// ReplicaSetUpdated, which syncRolloutStatus removes and re-adds); a change replaces the
/// condition at the end of the list, keeping lastTransitionTime while the status holds.
pub(super) fn set_condition(
    conds: &mut Vec<Value>,
    t: &str,
    status: &str,
    reason: &str,
    message: &str,
    ts: &str,
    refresh: bool,
) {
    let pos = conds.iter().position(|c| c["type"] == t);
    let mut transition = json!(ts);
    if let Some(i) = pos {
        let c = &conds[i];
        if c["status"] == status && c["reason"] == reason && !refresh {
            return;
        }
        if c["status"] == status {
            transition = c["lastTransitionTime"].clone();
        }
        conds.remove(i);
    }
    conds.push(json!({
        "lastTransitionTime": transition,
        "lastUpdateTime": ts,
        "message": message,
        "reason": reason,
        "status": status,
        "type": t,
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b2_rounding_table() {
        let pct = json!("25%");
        for (replicas, surge, unavailable) in [(1, 1, 0), (3, 1, 0), (4, 1, 1), (10, 3, 2)] {
            assert_eq!(
                fenceposts(&pct, &pct, replicas),
                (surge, unavailable),
                "replicas {replicas}"
            );
        }
        assert_eq!(fenceposts(&json!(0), &json!(0), 5), (0, 1));
        assert_eq!(fenceposts(&json!(2), &json!("50%"), 5), (2, 2));
    }
}
