//! The Deployment controller (k8s-semantics B1-B12): ReplicaSets per template, rolling
//! updates with surge and unavailability, proportional scaling, status and conditions.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType, Note, Reason};
use crate::sim::client::RateLimit;
use crate::sim::directive::Trigger;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::{parse_rfc3339, rfc3339, sim_unix};

use super::hash::pod_template_hash;

pub const WATCHES: &[Kind] = &[Kind::Deployment, Kind::ReplicaSet, Kind::Pod];
pub const COMPONENT: &str = "deployment-controller";
const REVISION: &str = "deployment.kubernetes.io/revision";
const DESIRED: &str = "deployment.kubernetes.io/desired-replicas";
const MAX: &str = "deployment.kubernetes.io/max-replicas";

/// Oldest first, as the controller sorts ReplicaSets by creation time.
fn sort_oldest_first(rss: &mut [Arc<Stored>]) {
    rss.sort_by(|a, b| {
        let ta = obj::str(a, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
        let tb = obj::str(b, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
        ta.cmp(&tb).then(obj::name(a).cmp(obj::name(b)))
    });
}

/// A percentage or absolute value (`IntOrString`), resolved against `total`.
fn resolve(v: &Value, total: i64, round_up: bool) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or(0),
        Value::String(s) => {
            let pct: i64 = s.trim_end_matches('%').parse().unwrap_or(0);
            let x = pct.saturating_mul(total);
            if round_up {
                x.saturating_add(99) / 100
            } else {
                x / 100
            }
        }
        _ => 0,
    }
}

/// B2: surge rounds up, unavailable down; both 0 makes unavailable 1.
pub fn fenceposts(max_surge: &Value, max_unavailable: &Value, replicas: i64) -> (i64, i64) {
    let surge = resolve(max_surge, replicas, true);
    let unavailable = resolve(max_unavailable, replicas, false);
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

fn strategy(d: &Value) -> (bool, i64, i64) {
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

fn spec_replicas(rs: &Value) -> i64 {
    obj::int(rs, &["spec", "replicas"]).unwrap_or(0)
}

fn status_int(rs: &Value, f: &str) -> i64 {
    obj::int(rs, &["status", f]).unwrap_or(0)
}

fn revision(rs: &Value) -> i64 {
    obj::str(rs, &["metadata", "annotations", REVISION])
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn template_without_hash(t: &Value) -> Value {
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
fn deployment_complete(d: &Value) -> bool {
    let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
    let st = |f: &str| obj::int(d, &["status", f]).unwrap_or(0);
    st("updatedReplicas") == replicas
        && st("replicas") == replicas
        && st("availableReplicas") == replicas
        && st("observedGeneration") >= obj::int(d, &["metadata", "generation"]).unwrap_or(0)
}

/// B6: a `ScalingReplicaSet` event on the Deployment.
fn scaling_event(api: &mut ApiServer, d: &Value, msg: &str, now: u64) {
    let note = Note {
        type_: "Normal",
        reason: "ScalingReplicaSet",
        message: msg,
        component: COMPONENT,
    };
    api.record_event(d, Kind::Deployment, note, now);
}

#[derive(Clone)]
pub struct DeploymentController {
    pub informer: Informer,
    /// kube-controller-manager's client for this controller.
    pub client: RateLimit,
}

impl DeploymentController {
    pub fn new(resync: u64) -> Self {
        DeploymentController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
        }
    }

    /// requeueStuckDeployment: while a rollout with a Progressing condition is neither
    /// complete nor timed out, check again one second after its deadline.
    fn requeue_if_stuck(
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

    fn owner_of(&self, o: &Stored, kind: Kind) -> Option<String> {
        let uid = o.controller_uid()?;
        self.informer.name_by_uid(kind, uid).map(|n| n.to_string())
    }

    /// B12: Deployments, ReplicaSets, and pod deletions only (those wake a Recreate
    /// Deployment once its last pod is gone).
    pub fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            if self.informer.trigger == Trigger::Edge {
                // The teaching variant reacts only to a changed Deployment spec.
                let changed = d.kind == Kind::Deployment
                    && (d.event == EventType::Added
                        || d.old.as_ref().is_some_and(|o| {
                            o["metadata"]["generation"] != d.object["metadata"]["generation"]
                        }));
                if changed {
                    self.informer.deltas.push_back(d);
                }
                continue;
            }
            match d.kind {
                Kind::Deployment => self.informer.enqueue(d.object.name()),
                Kind::ReplicaSet => {
                    if let Some(dep) = self.owner_of(&d.object, Kind::Deployment) {
                        self.informer.enqueue(&dep);
                    } else if d.object.controller_uid().is_none() {
                        // An orphan: every Deployment that could adopt it.
                        for dep in super::claim::selecting(&self.informer, &d.object) {
                            self.informer.enqueue(&dep);
                        }
                    }
                }
                Kind::Pod if d.event == EventType::Deleted => {
                    // deletePod: only a Recreate Deployment waits on its pods, so only it
                    // is woken, and only once none of its pods are left in the cache.
                    let dep = self
                        .owner_of(&d.object, Kind::ReplicaSet)
                        .and_then(|rs| self.informer.get_shared(Kind::ReplicaSet, &rs))
                        .and_then(|rs| self.owner_of(rs, Kind::Deployment))
                        .and_then(|n| self.informer.get_shared(Kind::Deployment, &n).cloned());
                    if let Some(dep) = dep
                        && dep["spec"]["strategy"]["type"] == "Recreate"
                        && self.pod_count(&dep) == 0
                    {
                        self.informer.enqueue(obj::name(&dep));
                    }
                }
                _ => {}
            }
        }
    }

    pub fn resync(&mut self) {
        if self.informer.trigger == Trigger::Level {
            let names: Vec<String> = self
                .informer
                .list(Kind::Deployment)
                .iter()
                .map(|d| obj::name(d).to_string())
                .collect();
            for n in names {
                self.informer.enqueue(&n);
            }
        }
    }

    pub fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        if self.informer.state != RunState::Running {
            return 0;
        }
        let mut n = 0;
        // A sync makes a few requests at most: it starts while the client has tokens and
        // the ones it owes delay the next (see RateLimit).
        while self.client.ready() {
            let key = match self.informer.trigger {
                Trigger::Level => self.informer.pop(),
                Trigger::Edge => self
                    .informer
                    .deltas
                    .pop_front()
                    .map(|d| obj::name(&d.object).to_string()),
            };
            let Some(key) = key else { break };
            let before = api.resource_version();
            self.sync(api, &key, now);
            self.client.spend(api.resource_version() - before);
            n += 1;
        }
        n
    }

    /// getPodMapForDeployment's count: cached pods controlled by one of `d`'s ReplicaSets,
    /// terminating ones included.
    fn pod_count(&self, d: &Value) -> usize {
        self.informer
            .owned_by(Kind::ReplicaSet, obj::uid(d))
            .map(|rs| self.informer.owned_by(Kind::Pod, obj::uid(rs)).count())
            .sum()
    }

    fn owned_rss(&self, d: &Value) -> Vec<Arc<Stored>> {
        let mut rss: Vec<Arc<Stored>> = self
            .informer
            .owned_by(Kind::ReplicaSet, obj::uid(d))
            .cloned()
            .collect();
        sort_oldest_first(&mut rss);
        rss
    }

    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) {
        let Some(d) = self.informer.get_shared(Kind::Deployment, name).cloned() else {
            return;
        };
        let mut rss = self.owned_rss(&d);
        let template = template_without_hash(&d["spec"]["template"]);
        let mut new_idx = rss
            .iter()
            .position(|rs| template_without_hash(&rs["spec"]["template"]) == template);
        if obj::is_deleting(&d) {
            self.write_status(api, &d, &rss, new_idx, now, false, Path::StatusOnly);
            return;
        }
        // ClaimReplicaSets: orphans matching the selector are adopted (never while deleting).
        let adopted = super::claim::adopt_replicasets(&self.informer, api, &d);
        if !adopted.is_empty() {
            rss.extend(adopted);
            sort_oldest_first(&mut rss);
            new_idx = rss
                .iter()
                .position(|rs| template_without_hash(&rs["spec"]["template"]) == template);
        }
        let paused = d["spec"]["paused"] == json!(true);
        let replicas = obj::int(&d, &["spec", "replicas"]).unwrap_or(1);
        let (rolling, surge, max_unavailable) = strategy(&d);
        let mut created_new = false;

        let scaling_event = rss.iter().any(|rs| {
            spec_replicas(rs) > 0
                && obj::str(rs, &["metadata", "annotations", DESIRED])
                    .and_then(|s| s.parse::<i64>().ok())
                    != Some(replicas)
        });
        // isScalingEvent needs no new ReplicaSet: a template and replica change together
        // first resize the active set(s), and the next sync starts the rollout.
        let path = if paused || scaling_event {
            Path::Sync
        } else {
            Path::Rollout
        };
        let specs_before: Vec<i64> = rss.iter().map(|r| spec_replicas(r)).collect();
        if path == Path::Sync {
            self.scale(api, &d, &mut rss, new_idx, now);
        } else if !rolling {
            // B5 rolloutRecreate: the old ReplicaSets go to zero first, and the new one is
            // made (or scaled up) only once none of their pods is left, terminating ones
            // included: that wait is the point of Recreate.
            if let Some(ni) = new_idx
                && let Some(rs) = super::claim::refresh_new_rs(api, &d, &rss, ni)
            {
                rss[ni] = rs;
            }
            let scaled_down = self.scale_down_old(api, &d, &mut rss, new_idx, now);
            if !scaled_down && !self.old_pods_running(&rss, new_idx) {
                if new_idx.is_none() {
                    let Some(created) = self.add_new_rs(api, &d, &mut rss, replicas, surge, now)
                    else {
                        return;
                    };
                    new_idx = Some(rss.len() - 1);
                    created_new = created;
                }
                if let Some(ni) = new_idx {
                    let mut rs = rss[ni].clone();
                    self.scale_rs(api, &d, &mut rs, replicas, now);
                    rss[ni] = rs;
                }
            }
        } else {
            if new_idx.is_none() {
                let old_total: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
                let initial = if old_total > 0 {
                    (replicas + surge - old_total).clamp(0, replicas)
                } else {
                    replicas
                };
                let Some(created) = self.add_new_rs(api, &d, &mut rss, initial, surge, now) else {
                    return;
                };
                new_idx = Some(rss.len() - 1);
                created_new = created;
            }
            if let Some(ni) = new_idx
                && !created_new
                && let Some(rs) = super::claim::refresh_new_rs(api, &d, &rss, ni)
            {
                rss[ni] = rs;
            }
            if let Some(ni) = new_idx {
                self.rolling(api, &d, &mut rss, ni, surge, max_unavailable, now);
            }
        }
        // B11 runs where the source runs cleanupDeployment: in `sync` only while paused; in
        // a rollout only once the status this sync started from is complete and this sync
        // scaled nothing (rolloutRolling returns early after any scaling).
        let scaled = rss
            .iter()
            .zip(&specs_before)
            .any(|(rs, before)| spec_replicas(rs) != *before);
        let clean = match path {
            Path::Sync => paused,
            _ => !created_new && !scaled && deployment_complete(&d),
        };
        if clean {
            self.cleanup(api, &d, &rss, new_idx);
        }
        self.write_status(api, &d, &rss, new_idx, now, created_new, path);
    }

    /// [`Self::create_new_rs`], appended to `rss`: whether this sync created it, or `None`
    /// when it could be neither made nor found.
    fn add_new_rs(
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
        crate::sim::defaults::apply(Kind::ReplicaSet, &mut rs);
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
    fn scale_rs(
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

    /// B5.
    #[allow(clippy::too_many_arguments)]
    fn rolling(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut [Arc<Stored>],
        ni: usize,
        surge: i64,
        max_unavailable: i64,
        now: u64,
    ) {
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let total: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
        let new_spec = spec_replicas(&rss[ni]);
        // Scale up the new ReplicaSet within the surge.
        let up = (replicas + surge - total).min(replicas - new_spec);
        if up > 0 {
            let mut rs = rss[ni].clone();
            self.scale_rs(api, d, &mut rs, new_spec + up, now);
            rss[ni] = rs;
            return;
        }
        if new_spec > replicas {
            let mut rs = rss[ni].clone();
            self.scale_rs(api, d, &mut rs, replicas, now);
            rss[ni] = rs;
        }
        // Scale down old ReplicaSets within the unavailability budget.
        let min_available = replicas - max_unavailable;
        let new_unavailable = spec_replicas(&rss[ni]) - status_int(&rss[ni], "availableReplicas");
        let total: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
        let mut budget = total - min_available - new_unavailable;
        if budget <= 0 {
            return;
        }
        // First the unhealthy replicas of old sets, oldest first.
        for i in (0..rss.len()).filter(|i| *i != ni) {
            if budget <= 0 {
                break;
            }
            let spec = spec_replicas(&rss[i]);
            let unhealthy = spec - status_int(&rss[i], "availableReplicas");
            let cut = unhealthy.min(budget).max(0);
            if cut > 0 {
                let mut rs = rss[i].clone();
                self.scale_rs(api, d, &mut rs, spec - cut, now);
                rss[i] = rs;
                budget -= cut;
            }
        }
        // Then healthy ones, keeping minAvailable.
        let available: i64 = rss
            .iter()
            .map(|rs| status_int(rs, "availableReplicas"))
            .sum();
        let mut can_remove = (available - min_available).min(budget);
        for i in (0..rss.len()).filter(|i| *i != ni) {
            if can_remove <= 0 {
                break;
            }
            let spec = spec_replicas(&rss[i]);
            let cut = spec.min(can_remove);
            if cut > 0 {
                let mut rs = rss[i].clone();
                self.scale_rs(api, d, &mut rs, spec - cut, now);
                rss[i] = rs;
                can_remove -= cut;
            }
        }
    }

    /// scaleDownOldReplicaSetsForRecreate: every old ReplicaSet to zero. Returns whether
    /// any was scaled (the sync then only updates status).
    fn scale_down_old(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut [Arc<Stored>],
        new_idx: Option<usize>,
        now: u64,
    ) -> bool {
        let mut scaled = false;
        for i in (0..rss.len()).filter(|i| Some(*i) != new_idx) {
            if spec_replicas(&rss[i]) > 0 {
                let mut rs = rss[i].clone();
                self.scale_rs(api, d, &mut rs, 0, now);
                rss[i] = rs;
                scaled = true;
            }
        }
        scaled
    }

    /// oldPodsRunning: an old ReplicaSet still reports pods, or still owns a pod that is
    /// not Succeeded or Failed (a terminating pod is still Running).
    fn old_pods_running(&self, rss: &[Arc<Stored>], new_idx: Option<usize>) -> bool {
        (0..rss.len()).filter(|i| Some(*i) != new_idx).any(|i| {
            status_int(&rss[i], "replicas") > 0
                || self
                    .informer
                    .owned_by(Kind::Pod, obj::uid(&rss[i]))
                    .any(|p| {
                        !matches!(
                            obj::str(p, &["status", "phase"]),
                            Some("Succeeded" | "Failed")
                        )
                    })
        })
    }

    /// B4 proportional scaling: extra replicas go to the largest sets in proportion to
    /// their size; scale-up favours newer sets, scale-down older ones.
    fn scale(
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
    fn cleanup(
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
    fn write_status(
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

    /// B9, along the real code paths: checkPausedConditions (not while deleting), the
    /// condition getNewReplicaSet writes, and progress estimation, which only
    /// syncRolloutStatus does (the scaling and paused `sync` path and `syncStatusOnly`
    /// compute counts and Available only). A complete rollout is not re-estimated:
    /// scaling a finished Deployment leaves NewReplicaSetAvailable in place.
    #[allow(clippy::too_many_arguments)]
    fn progressing(
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

/// Which syncDeployment path a sync took: syncStatusOnly (deleting), sync (paused or a
/// scaling event) or a rollout; only a rollout estimates progress (B4, B9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    StatusOnly,
    Sync,
    Rollout,
}

/// B10: an unchanged status and reason writes nothing (unless `refresh`, for
/// ReplicaSetUpdated, which syncRolloutStatus removes and re-adds); a change replaces the
/// condition at the end of the list, keeping lastTransitionTime while the status holds.
fn set_condition(
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
    fn b4_a_scaling_event_needs_no_new_replica_set() {
        let mut s = Session::new("spec-status", 1).expect("scenario exists");
        let old = obj::name(
            s.cluster
                .api
                .list(Kind::ReplicaSet)
                .next()
                .expect("the first ReplicaSet"),
        )
        .to_string();
        s.run_line(
            r#"kubectl patch deploy web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":5},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"}]'"#,
        );
        let scaling: Vec<String> = s
            .cluster
            .api
            .list(Kind::Event)
            .filter(|e| e["reason"] == "ScalingReplicaSet")
            .filter_map(|e| e["message"].as_str().map(str::to_string))
            .collect();
        // syncDeployment's scaling path resizes the old set first; the rollout follows.
        assert_eq!(
            scaling[1],
            format!("Scaled up replica set {old} from 3 to 5")
        );
        assert!(scaling[2].starts_with("Scaled up replica set web-") && !scaling[2].contains(&old));
    }

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

    /// Runs `lines` in self-healing with the ReplicaSet controller paused and the
    /// Deployment's scale event lost, so only a pod deletion could wake the controller;
    /// returns `generation observedGeneration` after force-deleting `delete` pods.
    fn woken_by_pod_deletions(setup: &[&str], delete: usize) -> String {
        use crate::sim::session::Session;
        let mut s = Session::new("self-healing", 1).unwrap();
        for l in setup {
            s.run_line(l);
        }
        for l in [
            "pause replicaset",
            "drop deployment 1",
            "kubectl scale deploy web --replicas=5",
            "tick 2",
        ] {
            s.run_line(l);
        }
        let gens = r#"kubectl get deploy web -o jsonpath='{.metadata.generation} {.status.observedGeneration}'"#;
        let before = s.run_line(gens).stdout;
        let names = s.run_line("kubectl get pods -o name").stdout;
        let pods: Vec<&str> = names.lines().collect();
        assert!(pods.len() >= delete, "{names}");
        for p in &pods[..delete] {
            s.run_line(&format!("kubectl delete {p} --grace-period=0 --force"));
        }
        s.run_line("tick 1");
        format!("{before} -> {}", s.run_line(gens).stdout)
    }

    #[test]
    fn pod_deletion_does_not_wake_a_rolling_update_deployment() {
        // deletePod ignores RollingUpdate Deployments, even when their last pod goes.
        assert_eq!(woken_by_pod_deletions(&[], 1), "2 1 -> 2 1");
        assert_eq!(woken_by_pod_deletions(&[], 3), "2 1 -> 2 1");
    }

    #[test]
    fn pod_deletion_wakes_a_recreate_deployment_once_its_pods_are_gone() {
        let recreate = [
            r#"kubectl patch deploy web --type=merge -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'"#,
            "tick 2",
        ];
        assert_eq!(woken_by_pod_deletions(&recreate, 2), "3 2 -> 3 2");
        assert_eq!(woken_by_pod_deletions(&recreate, 3), "3 2 -> 3 3");
    }
}
