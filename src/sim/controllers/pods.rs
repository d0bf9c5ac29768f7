//! What controllers need to know about pods: active, ready, available (C1, H3) and the
//! scale-down ranking (C5).

use std::cmp::Ordering;

use serde_json::Value;

use crate::sim::obj::{self, Meta};
use crate::sim::time::parse_rfc3339;

/// C1: not terminating and not Succeeded or Failed.
pub fn is_active(pod: &Value) -> bool {
    active(obj::is_deleting(pod), phase(&pod["status"]))
}

fn active(deleting: bool, phase: Option<&str>) -> bool {
    !deleting && !matches!(phase, Some("Succeeded" | "Failed"))
}

fn phase(status: &Value) -> Option<&str> {
    status.get("phase").and_then(Value::as_str)
}

/// The pod's Ready condition (the first), if it is True.
fn ready_condition(status: &Value) -> Option<&Value> {
    status
        .get("conditions")?
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Ready")
        .filter(|c| c["status"] == "True")
}

pub fn is_ready(pod: &Value) -> bool {
    ready_condition(&pod["status"]).is_some()
}

/// Unix seconds at which a True condition last changed.
fn since(condition: &Value) -> Option<i64> {
    condition["lastTransitionTime"]
        .as_str()
        .and_then(parse_rfc3339)
}

/// H3: Ready, and Ready for longer than minReadySeconds.
pub fn is_available(pod: &Value, min_ready_seconds: i64, now_unix: i64) -> bool {
    let ready = ready_condition(&pod["status"]);
    available(
        ready.is_some(),
        ready.and_then(since),
        min_ready_seconds,
        now_unix,
    )
}

fn available(ready: bool, since: Option<i64>, min_ready_seconds: i64, now_unix: i64) -> bool {
    ready
        && (min_ready_seconds == 0
            || since.is_some_and(|t| t.saturating_add(min_ready_seconds) < now_unix))
}

fn deletion_cost(meta: &(impl Meta + ?Sized)) -> i64 {
    meta.entry("annotations")
        .and_then(|a| a.get("controller.kubernetes.io/pod-deletion-cost"))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn restarts(status: &Value) -> i64 {
    status
        .get("containerStatuses")
        .and_then(Value::as_array)
        .map_or(0, |a| {
            a.iter().filter_map(|c| c["restartCount"].as_i64()).sum()
        })
}

fn created(meta: &(impl Meta + ?Sized)) -> i64 {
    meta.entry("creationTimestamp")
        .and_then(Value::as_str)
        .and_then(parse_rfc3339)
        .unwrap_or(0)
}

/// What the ReplicaSet controller asks of a pod (C1, C5, H3), read once per stored
/// version (see [`crate::sim::stored`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PodFacts {
    pub active: bool,
    pub ready: bool,
    /// Unix second the pod became Ready.
    pub ready_since: Option<i64>,
    pub phase_rank: u8,
    pub deletion_cost: i64,
    pub restarts: i64,
    /// Unix second of creationTimestamp.
    pub created: i64,
}

impl PodFacts {
    pub fn of(pod: &Value) -> Self {
        Self::from_parts(&pod["metadata"], &pod["status"])
    }

    /// The facts of a pod with this metadata and status.
    pub fn from_parts(meta: &Value, status: &Value) -> Self {
        Self::of_meta(meta).with_status(obj::is_deleting_in(meta), status)
    }

    /// The facts a pod's metadata gives (see [`Self::with_status`] for the rest).
    pub fn of_meta(meta: &(impl Meta + ?Sized)) -> Self {
        PodFacts {
            deletion_cost: deletion_cost(meta),
            created: created(meta),
            ..PodFacts::default()
        }
    }

    /// These facts with the ones a status gives read again from `status` (the metadata's
    /// are kept): what a status write changes. One pass over the conditions.
    pub fn with_status(self, deleting: bool, status: &Value) -> Self {
        let phase = phase(status);
        let ready = ready_condition(status);
        PodFacts {
            active: active(deleting, phase),
            ready: ready.is_some(),
            ready_since: ready.and_then(since),
            phase_rank: match phase {
                Some("Pending") | None => 0,
                Some("Unknown") => 1,
                _ => 2,
            },
            restarts: restarts(status),
            ..self
        }
    }

    /// H3, as [`is_available`].
    pub fn available(&self, min_ready_seconds: i64, now_unix: i64) -> bool {
        available(self.ready, self.ready_since, min_ready_seconds, now_unix)
    }

    /// [`deletion_order`] as a sort key: keys compare as the order does. `assigned`: the
    /// pod has a node; `doubled`: how many active pods of its Deployment share that node.
    pub fn deletion_key(self, uid: &str, assigned: bool, doubled: usize) -> impl Ord + use<'_> {
        (
            // Unscheduled first.
            assigned,
            self.phase_rank,
            self.ready,
            self.deletion_cost,
            // More of its Deployment's pods on the same node first.
            std::cmp::Reverse(doubled),
            // Ready for less time first: the later Ready time goes first.
            std::cmp::Reverse(self.ready_since.unwrap_or(0)),
            std::cmp::Reverse(self.restarts),
            // Newer first.
            std::cmp::Reverse(self.created),
            uid,
        )
    }
}

/// C5 order, first to delete first, for pods whose neighbours are not counted (rule 5
/// then never separates two pods).
pub fn deletion_order(a: &Value, b: &Value) -> Ordering {
    let assigned = |p: &Value| {
        p["spec"]["nodeName"]
            .as_str()
            .is_some_and(|n| !n.is_empty())
    };
    let ka = PodFacts::of(a).deletion_key(obj::uid(a), assigned(a), 0);
    let kb = PodFacts::of(b).deletion_key(obj::uid(b), assigned(b), 0);
    ka.cmp(&kb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(name: &str, phase: &str, ready_at: Option<&str>, created: &str) -> Value {
        let mut conds = vec![];
        if let Some(t) = ready_at {
            conds.push(json!({"type": "Ready", "status": "True", "lastTransitionTime": t}));
        }
        json!({"metadata": {"name": name, "uid": name, "creationTimestamp": created},
               "status": {"phase": phase, "conditions": conds}})
    }

    fn first(mut pods: Vec<&Value>) -> &str {
        pods.sort_by(|a, b| deletion_order(a, b));
        obj::name(pods[0])
    }

    #[test]
    fn c5_ranking_rules() {
        let running = pod(
            "running",
            "Running",
            Some("2025-01-06T10:00:05Z"),
            "2025-01-06T10:00:00Z",
        );
        let pending = pod("pending", "Pending", None, "2025-01-06T09:00:00Z");
        assert_eq!(first(vec![&running, &pending]), "pending");
        let not_ready = pod("not-ready", "Running", None, "2025-01-06T09:00:00Z");
        assert_eq!(first(vec![&running, &not_ready]), "not-ready");
        let mut cheap = running.clone();
        cheap["metadata"]["name"] = json!("cheap");
        cheap["metadata"]["annotations"] =
            json!({"controller.kubernetes.io/pod-deletion-cost": "-5"});
        assert_eq!(first(vec![&running, &cheap]), "cheap");
        let recent = pod(
            "recent",
            "Running",
            Some("2025-01-06T10:05:00Z"),
            "2025-01-06T09:00:00Z",
        );
        assert_eq!(first(vec![&running, &recent]), "recent");
        let mut crashy = running.clone();
        crashy["metadata"]["name"] = json!("crashy");
        crashy["status"]["containerStatuses"] = json!([{"restartCount": 3}]);
        assert_eq!(first(vec![&running, &crashy]), "crashy");
        let mut newer = running.clone();
        newer["metadata"]["name"] = json!("newer");
        newer["metadata"]["creationTimestamp"] = json!("2025-01-06T10:00:01Z");
        assert_eq!(first(vec![&running, &newer]), "newer");
    }

    #[test]
    fn availability_waits_for_min_ready_seconds() {
        let p = pod(
            "p",
            "Running",
            Some("2025-01-06T10:00:00Z"),
            "2025-01-06T10:00:00Z",
        );
        let t = parse_rfc3339("2025-01-06T10:00:00Z").unwrap();
        assert!(is_available(&p, 0, t));
        assert!(!is_available(&p, 10, t + 10));
        assert!(is_available(&p, 10, t + 11));
    }
}
