//! Progress (B9): the Progressing condition a sync writes, and the requeue that checks a
//! stalled rollout once its deadline has passed. Mirrors kube-controller-manager's
//! `pkg/controller/deployment/progress.go` (syncRolloutStatus, requeueStuckDeployment), with
//! sync.go's checkPausedConditions, which writes the same condition.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::{parse_rfc3339, rfc3339, sim_unix};

use super::util::set_condition;
use super::{DeploymentController, Path};

impl DeploymentController {
    /// requeueStuckDeployment: while a rollout with a Progressing condition is neither
    /// complete nor timed out, check again one second after its deadline.
    pub(super) fn requeue_if_stuck(
        &mut self,
        d: &Value,
        conditions: &[Value],
        status: &serde_json::Map<String, Value>,
        now: u64,
    ) {
        let name = obj::name(d).to_string();
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let get = |k: &str| status.get(k).and_then(Value::as_i64).unwrap_or(0);
        let complete = get("updatedReplicas") == replicas
            && get("replicas") == replicas
            && get("availableReplicas") == replicas;
        let cond = conditions.iter().find(|c| c["type"] == "Progressing");
        let last = cond.and_then(|c| c["lastUpdateTime"].as_str().and_then(parse_rfc3339));
        if let (Some(c), Some(last)) = (cond, last)
            && !complete
            && c["reason"] != "ProgressDeadlineExceeded"
        {
            let deadline = obj::int(d, &["spec", "progressDeadlineSeconds"]).unwrap_or(600);
            let after = last.saturating_add(deadline) - sim_unix(now);
            // Under a second: the source requeues at once (rate limited); a tick here.
            let at = now + u64::try_from(after.max(0)).unwrap_or(0) + 1;
            // AddAfter, through the informer's delayed queue (lost on a crash).
            self.informer.enqueue_after(&name, at);
        }
    }

    /// B9, along the real code paths: checkPausedConditions (not while deleting), the
    /// condition getNewReplicaSet writes, and progress estimation, which only
    /// syncRolloutStatus does (the scaling and paused `sync` path and `syncStatusOnly`
    /// compute counts and Available only). A complete rollout is not re-estimated:
    /// scaling a finished Deployment leaves NewReplicaSetAvailable in place.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn progressing(
        &self,
        conds: &mut Vec<Value>,
        d: &Value,
        rss: &[Arc<Stored>],
        new_idx: Option<usize>,
        status: &serde_json::Map<String, Value>,
        now: u64,
        created_new: bool,
        path: Path,
    ) {
        let ts = rfc3339(now);
        let reason_of = |conds: &[Value]| -> Option<String> {
            conds
                .iter()
                .find(|c| c["type"] == "Progressing")
                .and_then(|c| c["reason"].as_str())
                .map(str::to_string)
        };
        let paused = d["spec"]["paused"] == json!(true);
        // checkPausedConditions: a timeout is never hidden by a pause.
        let reason = reason_of(conds);
        if path != Path::StatusOnly && reason.as_deref() != Some("ProgressDeadlineExceeded") {
            let paused_cond = reason.as_deref() == Some("DeploymentPaused");
            if paused && !paused_cond {
                set_condition(
                    conds,
                    "Progressing",
                    "Unknown",
                    "DeploymentPaused",
                    "Deployment is paused",
                    &ts,
                    false,
                );
            } else if !paused && paused_cond {
                set_condition(
                    conds,
                    "Progressing",
                    "Unknown",
                    "DeploymentResumed",
                    "Deployment is resumed",
                    &ts,
                    false,
                );
            }
        }
        // getNewReplicaSet: a created set, or a found one when no condition exists yet.
        let Some(ni) = new_idx else { return };
        let rs_name = obj::name(&rss[ni]);
        if created_new {
            set_condition(
                conds,
                "Progressing",
                "True",
                "NewReplicaSetCreated",
                &format!("Created new replica set \"{rs_name}\""),
                &ts,
                false,
            );
        } else if reason_of(conds).is_none() {
            set_condition(
                conds,
                "Progressing",
                "True",
                "FoundNewReplicaSet",
                &format!("Found new replica set \"{rs_name}\""),
                &ts,
                false,
            );
        }
        if path != Path::Rollout {
            return;
        }
        // syncRolloutStatus.
        let get = |k: &str| status.get(k).and_then(Value::as_i64).unwrap_or(0);
        let prev = |k: &str| obj::int(d, &["status", k]).unwrap_or(0);
        let current = conds.iter().find(|c| c["type"] == "Progressing").cloned();
        let reason = current.as_ref().and_then(|c| c["reason"].as_str());
        if get("replicas") == get("updatedReplicas") && reason == Some("NewReplicaSetAvailable") {
            return;
        }
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let complete = get("updatedReplicas") == replicas
            && get("replicas") == replicas
            && get("availableReplicas") == replicas;
        if complete {
            set_condition(
                conds,
                "Progressing",
                "True",
                "NewReplicaSetAvailable",
                &format!("ReplicaSet \"{rs_name}\" has successfully progressed."),
                &ts,
                false,
            );
            return;
        }
        // DeploymentProgressing compares with the status this sync started from.
        let progress = get("updatedReplicas") > prev("updatedReplicas")
            || get("replicas") - get("updatedReplicas")
                < prev("replicas") - prev("updatedReplicas")
            || get("readyReplicas") > prev("readyReplicas")
            || get("availableReplicas") > prev("availableReplicas");
        if progress {
            set_condition(
                conds,
                "Progressing",
                "True",
                "ReplicaSetUpdated",
                &format!("ReplicaSet \"{rs_name}\" is progressing."),
                &ts,
                true,
            );
            return;
        }
        // DeploymentTimedOut: no progress for progressDeadlineSeconds since the condition's
        // lastUpdateTime; never after a completed rollout, and only written once.
        let Some(c) = current.as_ref() else { return };
        if matches!(
            reason,
            Some("NewReplicaSetAvailable" | "ProgressDeadlineExceeded")
        ) {
            return;
        }
        let deadline = obj::int(d, &["spec", "progressDeadlineSeconds"]).unwrap_or(600);
        let last = c["lastUpdateTime"]
            .as_str()
            .and_then(parse_rfc3339)
            .unwrap_or(sim_unix(now));
        if sim_unix(now) > last + deadline {
            set_condition(
                conds,
                "Progressing",
                "False",
                "ProgressDeadlineExceeded",
                &format!("ReplicaSet \"{rs_name}\" has timed out progressing."),
                &ts,
                false,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::kind::Kind;
    use crate::sim::session::Session;

    fn condition(s: &Session, t: &str) -> Value {
        let d = s
            .cluster
            .api
            .get(Kind::Deployment, "web")
            .expect("web exists");
        d["status"]["conditions"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["type"] == t))
            .cloned()
            .unwrap_or(Value::Null)
    }

    #[test]
    fn b9_scaling_a_complete_deployment_leaves_new_replica_set_available() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        let before = condition(&s, "Progressing");
        assert_eq!(before["reason"], "NewReplicaSetAvailable");
        s.run_line("kubectl scale deploy web --replicas=10");
        let mut saw_unavailable = false;
        for _ in 0..8 {
            s.run_line("tick 1");
            // Not a single write of the condition: same reason, message and times.
            assert_eq!(condition(&s, "Progressing"), before);
            saw_unavailable |= condition(&s, "Available")["status"] == "False";
        }
        assert!(saw_unavailable, "Available drops while the new pods start");
        assert_eq!(condition(&s, "Available")["status"], "True");
    }

    #[test]
    fn b9_a_rollout_progresses_then_completes_and_pause_resume_round_trips() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        s.run_line("kubectl set image deploy/web app=nginx:1.28");
        s.run_line("tick 1");
        let mid = condition(&s, "Progressing");
        assert_eq!(mid["reason"], "ReplicaSetUpdated");
        // syncRolloutStatus removes and re-adds the refreshed condition: it is last.
        let d = s
            .cluster
            .api
            .get(Kind::Deployment, "web")
            .expect("web exists");
        assert_eq!(d["status"]["conditions"][1]["type"], "Progressing");
        s.run_line("tick 10");
        let done = condition(&s, "Progressing");
        assert_eq!(done["reason"], "NewReplicaSetAvailable");
        assert_eq!(done["lastTransitionTime"], mid["lastTransitionTime"]);
        s.run_line("kubectl rollout pause deploy/web");
        s.run_line("tick 1");
        let paused = condition(&s, "Progressing");
        assert_eq!(
            (&paused["status"], &paused["reason"]),
            (&json!("Unknown"), &json!("DeploymentPaused"))
        );
        // Resumed, the same sync finds the rollout complete again.
        s.run_line("kubectl rollout resume deploy/web");
        s.run_line("tick 1");
        assert_eq!(
            condition(&s, "Progressing")["reason"],
            "NewReplicaSetAvailable"
        );
    }

    #[test]
    fn b9_a_stalled_rollout_times_out_one_second_after_its_deadline() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        // No kubelet: the new pods never start, so the rollout stops making progress.
        s.run_line("pause kubelet");
        s.run_line("kubectl set image deploy/web app=nginx:1.28");
        s.run_line("tick 1");
        let last = condition(&s, "Progressing")["lastUpdateTime"]
            .as_str()
            .and_then(parse_rfc3339)
            .expect("a lastUpdateTime");
        let mut flipped_at = None;
        for _ in 0..700 {
            s.run_line("tick 1");
            if flipped_at.is_none() && condition(&s, "Progressing")["status"] == "False" {
                flipped_at = Some(sim_unix(s.now()));
            }
        }
        // requeueStuckDeployment's AddAfter, not the next resync, brings the check.
        assert_eq!(flipped_at, Some(last + 600 + 1));
        assert_eq!(
            condition(&s, "Progressing")["reason"],
            "ProgressDeadlineExceeded"
        );
    }

    #[test]
    fn b9_a_timeout_is_not_hidden_by_a_pause() {
        let mut conds = vec![json!({
            "type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
            "message": "m", "lastTransitionTime": "t", "lastUpdateTime": "t",
        })];
        let d = json!({"spec": {"paused": true, "replicas": 3}, "status": {"conditions": conds.clone()}});
        let c = DeploymentController::new(30);
        c.progressing(
            &mut conds,
            &d,
            &[],
            None,
            &serde_json::Map::new(),
            100,
            false,
            Path::Sync,
        );
        assert_eq!(conds[0]["reason"], "ProgressDeadlineExceeded");
    }
}
