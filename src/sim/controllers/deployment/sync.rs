//! sync.go's half of a sync: the new ReplicaSet (getNewReplicaSet, with hash collisions),
//! scaling a ReplicaSet and proportional scaling (B4), cleanup of old ReplicaSets (B11),
//! and the status write (B7-B10, syncDeploymentStatus). Mirrors kube-controller-manager's
//! `pkg/controller/deployment/sync.go`.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, Note, Reason};
use crate::sim::controllers::hash::pod_template_hash;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::rfc3339;

use super::util::{
    DESIRED, MAX, REVISION, revision, set_condition, spec_replicas, status_int, strategy,
    template_without_hash,
};
use super::{COMPONENT, DeploymentController, Path};

/// B6: a `ScalingReplicaSet` event on the Deployment.
fn scaling_event(api: &mut ApiServer, d: &Value, msg: &str, now: u64) {
    let note = Note {
        type_: "Normal",
        reason: "ScalingReplicaSet",
        message: msg,
        component: COMPONENT,
        field_path: None,
    };
    api.record_event(d, Kind::Deployment, note, now);
}

impl DeploymentController {
    /// [`Self::create_new_rs`], appended to `rss`: whether this sync created it, or `None`
    /// when it could be neither made nor found.
    pub(super) fn add_new_rs(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut Vec<Arc<Stored>>,
        replicas: i64,
        surge: i64,
        now: u64,
    ) -> Option<bool> {
        let (rs, created) = self.create_new_rs(api, d, rss, replicas, surge, now)?;
        rss.push(rs);
        Some(created)
    }

    fn create_new_rs(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &[Arc<Stored>],
        replicas: i64,
        surge: i64,
        now: u64,
    ) -> Option<(Arc<Stored>, bool)> {
        let collisions = obj::int(d, &["status", "collisionCount"]).unwrap_or(0);
        let hash = pod_template_hash(&d["spec"]["template"], collisions);
        let name = format!("{}-{hash}", obj::name(d));
        let mut template = d["spec"]["template"].clone();
        obj::set(
            &mut template,
            &["metadata", "labels", "pod-template-hash"],
            json!(hash),
        );
        let mut selector = d["spec"]["selector"].clone();
        obj::set(
            &mut selector,
            &["matchLabels", "pod-template-hash"],
            json!(hash),
        );
        let mut annotations = serde_json::Map::new();
        if let Some(a) = obj::path(d, &["metadata", "annotations"]).and_then(Value::as_object) {
            for (k, v) in a {
                let skipped = k == "kubectl.kubernetes.io/last-applied-configuration"
                    || k.starts_with("deployment.kubernetes.io/");
                if !skipped {
                    annotations.insert(k.clone(), v.clone());
                }
            }
        }
        let next_revision = rss.iter().map(|r| revision(r)).max().unwrap_or(0) + 1;
        let d_replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        annotations.insert(DESIRED.into(), json!(d_replicas.to_string()));
        annotations.insert(MAX.into(), json!((d_replicas + surge).to_string()));
        annotations.insert(REVISION.into(), json!(next_revision.to_string()));
        let mut labels = template["metadata"]["labels"].clone();
        if !labels.is_object() {
            labels = json!({});
        }
        let mut rs = json!({
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {
                "annotations": annotations,
                "labels": labels,
                "name": name,
                "ownerReferences": [obj::owner_ref(d, "Deployment")],
            },
            "spec": {
                "replicas": replicas,
                "selector": selector,
                "template": template,
            },
        });
        if let Some(m) = d["spec"].get("minReadySeconds") {
            rs["spec"]["minReadySeconds"] = m.clone();
        }
        crate::sim::defaults::replica_set(&mut rs);
        match api.create_shared(Kind::ReplicaSet, rs, now) {
            Ok(rs) => {
                if replicas > 0 {
                    // v1.31+ wording (kubernetes#125118 put "from" before "to").
                    let msg = format!(
                        "Scaled up replica set {} from 0 to {replicas}",
                        obj::name(&rs)
                    );
                    scaling_event(api, d, &msg, now);
                }
                Some((rs, true))
            }
            Err(e) if e.reason == Reason::AlreadyExists => self.name_taken(api, d, &name),
            Err(e) => {
                let msg = format!("Failed to create new replica set \"{name}\": {e}");
                api.record_event(
                    d,
                    Kind::Deployment,
                    Note {
                        type_: "Warning",
                        reason: "ReplicaSetCreateError",
                        message: &msg,
                        component: COMPONENT,
                        field_path: None,
                    },
                    now,
                );
                None
            }
        }
    }

    /// B3, getNewReplicaSet on AlreadyExists: the cached ReplicaSet of that name is the new
    /// one if this Deployment controls it and its template matches (a slow cache); any
    /// other is a hash collision, so `status.collisionCount` goes up by one and the sync
    /// fails. The status write's update event brings the Deployment back, and the next
    /// attempt hashes the template with the new count. No event is recorded.
    fn name_taken(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        name: &str,
    ) -> Option<(Arc<Stored>, bool)> {
        let rs = self.informer.get_shared(Kind::ReplicaSet, name)?;
        if obj::controller_uid(rs) == Some(obj::uid(d))
            && template_without_hash(&rs["spec"]["template"])
                == template_without_hash(&d["spec"]["template"])
        {
            return Some((Arc::clone(rs), false));
        }
        // UpdateStatus of the cached copy: a stale one conflicts and changes nothing.
        let current = api.get(Kind::Deployment, obj::name(d)).ok()?;
        if current["metadata"]["resourceVersion"] != d["metadata"]["resourceVersion"] {
            return None;
        }
        let mut next = current.clone();
        let count = obj::int(d, &["status", "collisionCount"]).unwrap_or(0) + 1;
        next["status"]["collisionCount"] = json!(count);
        let _ = api.update_status(Kind::Deployment, next);
        None
    }

    /// Sets an RS's replicas and the annotations recording the Deployment's size.
    pub(super) fn scale_rs(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rs: &mut Arc<Stored>,
        to: i64,
        now: u64,
    ) {
        let from = spec_replicas(rs);
        let d_replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let (_, surge, _) = strategy(d);
        let desired = d_replicas.to_string();
        let max = (d_replicas + surge).to_string();
        let annotations_current = obj::str(rs, &["metadata", "annotations", DESIRED])
            == Some(desired.as_str())
            && obj::str(rs, &["metadata", "annotations", MAX]) == Some(max.as_str());
        if from == to && annotations_current {
            return;
        }
        let Ok(current) = api.get(Kind::ReplicaSet, obj::name(rs)) else {
            return;
        };
        let mut next = current.clone();
        next["spec"]["replicas"] = json!(to);
        obj::set(
            &mut next,
            &["metadata", "annotations", DESIRED],
            json!(desired),
        );
        obj::set(&mut next, &["metadata", "annotations", MAX], json!(max));
        if let Ok(updated) = api.update_shared(Kind::ReplicaSet, next, None) {
            if from != to {
                let dir = if to > from { "up" } else { "down" };
                let msg = format!(
                    "Scaled {dir} replica set {} from {from} to {to}",
                    obj::name(rs)
                );
                scaling_event(api, d, &msg, now);
            }
            *rs = updated;
        }
    }

    /// B4 proportional scaling: extra replicas go to the largest sets in proportion to
    /// their size; scale-up favours newer sets, scale-down older ones.
    pub(super) fn scale(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut [Arc<Stored>],
        new_idx: Option<usize>,
        now: u64,
    ) {
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let active: Vec<usize> = (0..rss.len())
            .filter(|i| spec_replicas(&rss[*i]) > 0)
            .collect();
        if active.len() <= 1 {
            let target = active.first().copied().or(new_idx);
            if let Some(i) = target {
                let mut rs = rss[i].clone();
                self.scale_rs(api, d, &mut rs, replicas, now);
                rss[i] = rs;
            }
            return;
        }
        let (_, surge, _) = strategy(d);
        let allowed = replicas + surge;
        let total: i64 = active.iter().map(|i| spec_replicas(&rss[*i])).sum();
        let to_add = allowed - total;
        let mut order = active.clone();
        // Largest first; ties: newer first when adding, older first when removing.
        order.sort_by(|a, b| {
            let size = spec_replicas(&rss[*b]).cmp(&spec_replicas(&rss[*a]));
            if to_add > 0 {
                size.then(b.cmp(a))
            } else {
                size.then(a.cmp(b))
            }
        });
        let mut left = to_add;
        let mut targets: Vec<(usize, i64)> = Vec::new();
        for &i in &order {
            let spec = spec_replicas(&rss[i]);
            let annotated_max: i64 = obj::str(&rss[i], &["metadata", "annotations", MAX])
                .and_then(|s| s.parse().ok())
                .unwrap_or(total.max(1));
            let share = if annotated_max > 0 {
                (spec * allowed + annotated_max / 2) / annotated_max - spec
            } else {
                0
            };
            let share = if to_add > 0 {
                share.clamp(0, left)
            } else {
                share.clamp(left, 0)
            };
            left -= share;
            targets.push((i, spec + share));
        }
        if left != 0
            && let Some(first) = targets.first_mut()
        {
            first.1 = (first.1 + left).max(0);
        }
        for (i, to) in targets {
            let mut rs = rss[i].clone();
            self.scale_rs(api, d, &mut rs, to, now);
            rss[i] = rs;
        }
    }

    /// B11: keep `revisionHistoryLimit` old sets, dropping the lowest revisions first.
    pub(super) fn cleanup(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &[Arc<Stored>],
        new_idx: Option<usize>,
    ) {
        let limit = obj::int(d, &["spec", "revisionHistoryLimit"]).unwrap_or(10);
        let mut old: Vec<&Arc<Stored>> = rss
            .iter()
            .enumerate()
            .filter(|(i, rs)| {
                Some(*i) != new_idx && spec_replicas(rs) == 0 && status_int(rs, "replicas") == 0
            })
            .map(|(_, rs)| rs)
            .collect();
        if old.len() as i64 <= limit {
            return;
        }
        old.sort_by_key(|rs| revision(rs));
        let excess = old.len() - limit as usize;
        for rs in old.into_iter().take(excess) {
            let _ = api.delete_shared(Kind::ReplicaSet, obj::name(rs), None, 0);
        }
    }

    /// B7-B10.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn write_status(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &[Arc<Stored>],
        new_idx: Option<usize>,
        now: u64,
        created_new: bool,
        path: Path,
    ) {
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let (_, _, max_unavailable) = strategy(d);
        let sum = |f: &str| -> i64 { rss.iter().map(|rs| status_int(rs, f)).sum() };
        let total_spec: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
        let available = sum("availableReplicas");
        let updated = new_idx.map_or(0, |i| status_int(&rss[i], "replicas"));
        let mut status = serde_json::Map::new();
        let put = |s: &mut serde_json::Map<String, Value>, k: &str, v: i64| {
            if v != 0 {
                s.insert(k.into(), json!(v));
            }
        };
        put(&mut status, "availableReplicas", available);
        put(&mut status, "readyReplicas", sum("readyReplicas"));
        put(&mut status, "replicas", sum("replicas"));
        put(&mut status, "updatedReplicas", updated);
        put(
            &mut status,
            "unavailableReplicas",
            (total_spec - available).max(0),
        );
        if let Some(c) = d["status"].get("collisionCount") {
            status.insert("collisionCount".into(), c.clone());
        }
        status.insert(
            "observedGeneration".into(),
            d["metadata"]["generation"].clone(),
        );
        let mut conditions: Vec<Value> = d["status"]["conditions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let ts = rfc3339(now);
        if available >= replicas - max_unavailable {
            set_condition(
                &mut conditions,
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.",
                &ts,
                false,
            );
        } else {
            set_condition(
                &mut conditions,
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.",
                &ts,
                false,
            );
        }
        self.progressing(
            &mut conditions,
            d,
            rss,
            new_idx,
            &status,
            now,
            created_new,
            path,
        );
        if path == Path::Rollout {
            replica_failure(&mut conditions, rss, new_idx);
            self.requeue_if_stuck(d, &conditions, &status, now);
        }
        status.insert("conditions".into(), Value::Array(conditions));
        let rev = new_idx.map(|i| revision(&rss[i]).to_string());
        // An unchanged result is not persisted (the API's no-op write).
        let _ = api.update_status_with(Kind::Deployment, obj::name(d), |next| {
            next["status"] = Value::Object(status);
            if let Some(rev) = rev {
                obj::set(next, &["metadata", "annotations", REVISION], json!(rev));
            }
        });
    }
}

/// syncRolloutStatus's last step (getReplicaFailures): the new ReplicaSet's
/// ReplicaFailure condition, else any other's, becomes the Deployment's, its update time
/// its transition time; with none, the Deployment's is removed.
fn replica_failure(conds: &mut Vec<Value>, rss: &[Arc<Stored>], new_idx: Option<usize>) {
    let failure = |rs: &Arc<Stored>| {
        rs.value()["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["type"] == "ReplicaFailure")
            .cloned()
    };
    let found = new_idx
        .and_then(|i| failure(&rss[i]))
        .or_else(|| rss.iter().find_map(failure));
    let Some(c) = found else {
        conds.retain(|c| c["type"] != "ReplicaFailure");
        return;
    };
    let ts = c["lastTransitionTime"].as_str().unwrap_or("").to_string();
    // SetDeploymentCondition keeps a condition whose status and reason are unchanged.
    let same = conds.iter().any(|d| {
        d["type"] == "ReplicaFailure" && d["status"] == c["status"] && d["reason"] == c["reason"]
    });
    if same {
        return;
    }
    set_condition(
        conds,
        "ReplicaFailure",
        c["status"].as_str().unwrap_or(""),
        c["reason"].as_str().unwrap_or(""),
        c["message"].as_str().unwrap_or(""),
        &ts,
        false,
    );
}

#[cfg(test)]
mod tests {
    use crate::sim::controllers::deployment::util::deployment_complete;
    use crate::sim::kind::Kind;
    use crate::sim::session::Session;

    #[test]
    fn b11_cleanup_waits_for_a_complete_rollout() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        s.run_line(
            r#"kubectl patch deploy web --type=merge -p '{"spec":{"revisionHistoryLimit":0}}'"#,
        );
        s.run_line("kubectl set image deploy/web app=nginx:1.28");
        for _ in 0..15 {
            s.run_line("tick 1");
            let rs_count = s.cluster.api.count(Kind::ReplicaSet);
            let d = s.cluster.api.get(Kind::Deployment, "web").expect("web");
            if !deployment_complete(d) {
                assert_eq!(rs_count, 2, "the old set stays while the rollout runs");
            }
        }
        // The old set, scaled to 0, goes once a sync starts from a complete status.
        assert_eq!(s.cluster.api.count(Kind::ReplicaSet), 1);
    }

    #[test]
    fn b11_a_paused_deployment_is_cleaned_up_too() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        s.run_line("kubectl set image deploy/web app=nginx:1.28");
        s.run_line("tick 15");
        assert_eq!(s.cluster.api.count(Kind::ReplicaSet), 2);
        s.run_line("kubectl rollout pause deploy/web");
        s.run_line(
            r#"kubectl patch deploy web --type=merge -p '{"spec":{"revisionHistoryLimit":0}}'"#,
        );
        s.run_line("tick 1");
        // sync() runs cleanupDeployment while paused.
        assert_eq!(s.cluster.api.count(Kind::ReplicaSet), 1);
    }
}
