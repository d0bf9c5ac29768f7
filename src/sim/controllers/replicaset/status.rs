//! The ReplicaSet's status as a sync computes it (calculateStatus in
//! pkg/controller/replicaset/replica_set_utils.go): the counts of its pods, and the
//! ReplicaFailure condition a failed create adds; and the back-off of a failed sync.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

/// Answers about label sets, by the shared copy's address: a sync sees a handful.
#[derive(Default)]
pub(super) struct LabelMemo(Vec<(*const Value, bool)>);

impl LabelMemo {
    pub(super) fn check(&mut self, labels: &Arc<Value>, f: impl FnOnce(&Value) -> bool) -> bool {
        let at = Arc::as_ptr(labels);
        if let Some((_, answer)) = self.0.iter().find(|(p, _)| *p == at) {
            return *answer;
        }
        let answer = f(labels);
        self.0.push((at, answer));
        answer
    }
}

/// C2: the status the claimed pods add up to.
pub(super) fn status_for(rs: &Value, pods: &[&Stored], now: u64) -> Value {
    let active: Vec<&Stored> = pods.iter().copied().filter(|p| p.pod().active).collect();
    status_of_active(rs, &active, now)
}

/// [`status_for`] from the claimed pods that are active.
pub(super) fn status_of_active(rs: &Value, active: &[&Stored], now: u64) -> Value {
    let min_ready = obj::int(rs, &["spec", "minReadySeconds"]).unwrap_or(0);
    let template_labels = &rs["spec"]["template"]["metadata"]["labels"];
    let mut seen = LabelMemo::default();
    let fully = active
        .iter()
        .filter(|p| {
            seen.check(&p.facts().labels, |labels| {
                template_labels
                    .as_object()
                    .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)))
            })
        })
        .count();
    let now_unix = sim_unix(now);
    let ready = active.iter().filter(|p| p.pod().ready).count();
    // Available is Ready for minReadySeconds (H3): with none, every Ready pod.
    let available = active
        .iter()
        .filter(|p| p.pod().available(min_ready, now_unix))
        .count();
    let mut status = json!({
        "observedGeneration": obj::int(rs, &["metadata", "generation"]).unwrap_or(1),
        "replicas": active.len(),
    });
    // The API omits zero counts (omitempty); only `replicas` is always there.
    if fully > 0 {
        status["fullyLabeledReplicas"] = json!(fully);
    }
    if ready > 0 {
        status["readyReplicas"] = json!(ready);
    }
    if available > 0 {
        status["availableReplicas"] = json!(available);
    }
    status
}

/// The status a failed sync writes when it had planned none: the one it read.
pub(super) fn status_for_failure(rs: &Stored) -> Value {
    rs.value()["status"].clone()
}

/// Writes a status the caller found changed (see [`status_op`]).
pub(super) fn write_status(api: &mut ApiServer, rs: &Value, status: Value) {
    let _ = api.update_status_with(Kind::ReplicaSet, obj::name(rs), |next| {
        next["status"] = status;
    });
}

/// workqueue.DefaultControllerRateLimiter's per-item back-off: 5 ms doubling per failure
/// of the key, at most 1000 s; in whole simulated seconds, at least the next one.
pub(super) fn backoff_seconds(failures: u32) -> u64 {
    let ms = 5u64.saturating_mul(1u64 << failures.min(40));
    ms.min(1_000_000).div_ceil(1000).max(1)
}

/// calculateStatus of a sync whose manageReplicas failed: a ReplicaFailure condition is
/// added with the error, unless one is there already (its message is not refreshed).
pub(super) fn with_failure(rs: &Value, mut status: Value, message: &str, now: u64) -> Value {
    let existing = rs["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["type"] == "ReplicaFailure")
        .cloned();
    let cond = existing.unwrap_or_else(|| {
        json!({"lastTransitionTime": crate::sim::time::rfc3339(now), "message": message,
            "reason": "FailedCreate", "status": "True", "type": "ReplicaFailure"})
    });
    status["conditions"] = json!([cond]);
    status
}
