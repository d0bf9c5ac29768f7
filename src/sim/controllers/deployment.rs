//! The Deployment controller (k8s-semantics B1-B12): ReplicaSets per template, rolling
//! updates with surge and unavailability, proportional scaling, status and conditions.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::directive::Trigger;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{parse_rfc3339, rfc3339, sim_unix};

use super::hash::pod_template_hash;

pub const WATCHES: &[Kind] = &[Kind::Deployment, Kind::ReplicaSet, Kind::Pod];
const COMPONENT: &str = "deployment-controller";
const REVISION: &str = "deployment.kubernetes.io/revision";
const DESIRED: &str = "deployment.kubernetes.io/desired-replicas";
const MAX: &str = "deployment.kubernetes.io/max-replicas";

/// A percentage or absolute value (`IntOrString`), resolved against `total`.
fn resolve(v: &Value, total: i64, round_up: bool) -> i64 {
    match v {
        Value::Number(n) => n.as_i64().unwrap_or(0),
        Value::String(s) => {
            let pct: i64 = s.trim_end_matches('%').parse().unwrap_or(0);
            let x = pct * total;
            if round_up { (x + 99) / 100 } else { x / 100 }
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

pub struct DeploymentController {
    pub informer: Informer,
}

impl DeploymentController {
    pub fn new(resync: u64) -> Self {
        DeploymentController {
            informer: Informer::new(WATCHES, resync),
        }
    }

    fn owner_of(&self, o: &Value, kind: Kind) -> Option<String> {
        let uid = obj::controller_uid(o)?;
        self.informer.name_by_uid(kind, uid).map(str::to_string)
    }

    /// B12: Deployments, ReplicaSets, and pod deletions only.
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
                Kind::Deployment => self.informer.enqueue(obj::name(&d.object)),
                Kind::ReplicaSet => {
                    if let Some(dep) = self.owner_of(&d.object, Kind::Deployment) {
                        self.informer.enqueue(&dep);
                    }
                }
                Kind::Pod if d.event == EventType::Deleted => {
                    let dep = self
                        .owner_of(&d.object, Kind::ReplicaSet)
                        .and_then(|rs| self.informer.get(Kind::ReplicaSet, &rs))
                        .and_then(|rs| self.owner_of(rs, Kind::Deployment));
                    if let Some(dep) = dep {
                        self.informer.enqueue(&dep);
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
        loop {
            let key = match self.informer.trigger {
                Trigger::Level => self.informer.pop(),
                Trigger::Edge => self
                    .informer
                    .deltas
                    .pop_front()
                    .map(|d| obj::name(&d.object).to_string()),
            };
            let Some(key) = key else { break };
            self.sync(api, &key, now);
            n += 1;
        }
        n
    }

    fn owned_rss(&self, d: &Value) -> Vec<Arc<Value>> {
        let mut rss: Vec<Arc<Value>> = self
            .informer
            .owned_by(Kind::ReplicaSet, obj::uid(d))
            .cloned()
            .collect();
        // Oldest first, as the controller sorts by creation time.
        rss.sort_by(|a, b| {
            let ta = obj::str(a, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
            let tb = obj::str(b, &["metadata", "creationTimestamp"]).and_then(parse_rfc3339);
            ta.cmp(&tb).then(obj::name(a).cmp(obj::name(b)))
        });
        rss
    }

    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) {
        let Some(d) = self.informer.get_shared(Kind::Deployment, name).cloned() else {
            return;
        };
        let mut rss = self.owned_rss(&d);
        if obj::is_deleting(&d) {
            self.write_status(api, &d, &rss, None, now, false);
            return;
        }
        let template = template_without_hash(&d["spec"]["template"]);
        let mut new_idx = rss
            .iter()
            .position(|rs| template_without_hash(&rs["spec"]["template"]) == template);
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
        if paused || (scaling_event && new_idx.is_some()) {
            self.scale(api, &d, &mut rss, new_idx, now);
        } else {
            if new_idx.is_none() {
                let old_total: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
                let initial = if !rolling && old_total > 0 {
                    0
                } else if rolling && old_total > 0 {
                    (replicas + surge - old_total).clamp(0, replicas)
                } else {
                    replicas
                };
                match self.create_new_rs(api, &d, &rss, initial, surge, now) {
                    Some(rs) => {
                        rss.push(rs);
                        new_idx = Some(rss.len() - 1);
                        created_new = true;
                    }
                    None => return,
                }
            }
            if let Some(ni) = new_idx {
                if rolling {
                    self.rolling(api, &d, &mut rss, ni, surge, max_unavailable, now);
                } else {
                    self.recreate(api, &d, &mut rss, ni, now);
                }
            }
        }
        if !paused {
            self.cleanup(api, &d, &rss, new_idx);
        }
        self.write_status(api, &d, &rss, new_idx, now, created_new);
    }

    fn create_new_rs(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &[Arc<Value>],
        replicas: i64,
        surge: i64,
        now: u64,
    ) -> Option<Arc<Value>> {
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
                    let msg = format!("Scaled up replica set {} to {replicas}", obj::name(&rs));
                    scaling_event(api, d, &msg, now);
                }
                Some(rs)
            }
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

    /// Sets an RS's replicas and the annotations recording the Deployment's size.
    fn scale_rs(&mut self, api: &mut ApiServer, d: &Value, rs: &mut Arc<Value>, to: i64, now: u64) {
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
                    "Scaled {dir} replica set {} to {to} from {from}",
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
        rss: &mut [Arc<Value>],
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

    fn recreate(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut [Arc<Value>],
        ni: usize,
        now: u64,
    ) {
        let mut old_running = 0;
        for i in (0..rss.len()).filter(|i| *i != ni) {
            old_running += status_int(&rss[i], "replicas");
            if spec_replicas(&rss[i]) > 0 {
                let mut rs = rss[i].clone();
                self.scale_rs(api, d, &mut rs, 0, now);
                rss[i] = rs;
            }
        }
        if old_running == 0 {
            let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
            let mut rs = rss[ni].clone();
            self.scale_rs(api, d, &mut rs, replicas, now);
            rss[ni] = rs;
        }
    }

    /// B4 proportional scaling: extra replicas go to the largest sets in proportion to
    /// their size; scale-up favours newer sets, scale-down older ones.
    fn scale(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut [Arc<Value>],
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
        rss: &[Arc<Value>],
        new_idx: Option<usize>,
    ) {
        let limit = obj::int(d, &["spec", "revisionHistoryLimit"]).unwrap_or(10);
        let mut old: Vec<&Arc<Value>> = rss
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
    fn write_status(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &[Arc<Value>],
        new_idx: Option<usize>,
        now: u64,
        created_new: bool,
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
        self.progressing(&mut conditions, d, rss, new_idx, &status, now, created_new);
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

    #[allow(clippy::too_many_arguments)]
    fn progressing(
        &self,
        conds: &mut Vec<Value>,
        d: &Value,
        rss: &[Arc<Value>],
        new_idx: Option<usize>,
        status: &serde_json::Map<String, Value>,
        now: u64,
        created_new: bool,
    ) {
        let ts = rfc3339(now);
        let replicas = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
        let get = |k: &str| status.get(k).and_then(Value::as_i64).unwrap_or(0);
        let prev = |k: &str| obj::int(d, &["status", k]).unwrap_or(0);
        let existing = conds.iter().find(|c| c["type"] == "Progressing").cloned();
        if d["spec"]["paused"] == json!(true) {
            set_condition(
                conds,
                "Progressing",
                "Unknown",
                "DeploymentPaused",
                "Deployment is paused",
                &ts,
                false,
            );
            return;
        }
        if existing
            .as_ref()
            .is_some_and(|c| c["reason"] == "DeploymentPaused")
        {
            set_condition(
                conds,
                "Progressing",
                "Unknown",
                "DeploymentResumed",
                "Deployment is resumed",
                &ts,
                false,
            );
            return;
        }
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
            return;
        }
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
        let old_replicas: i64 = rss
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != ni)
            .map(|(_, rs)| status_int(rs, "replicas"))
            .sum();
        let prev_old = prev("replicas") - prev("updatedReplicas");
        let progress = get("updatedReplicas") > prev("updatedReplicas")
            || get("readyReplicas") > prev("readyReplicas")
            || get("availableReplicas") > prev("availableReplicas")
            || old_replicas < prev_old;
        if progress || existing.is_none() {
            let reason = if existing.is_none() {
                "FoundNewReplicaSet"
            } else {
                "ReplicaSetUpdated"
            };
            let msg = if existing.is_none() {
                format!("Found new replica set \"{rs_name}\"")
            } else {
                format!("ReplicaSet \"{rs_name}\" is progressing.")
            };
            set_condition(conds, "Progressing", "True", reason, &msg, &ts, true);
            return;
        }
        // B9: no progress for progressDeadlineSeconds since the last update.
        let deadline = obj::int(d, &["spec", "progressDeadlineSeconds"]).unwrap_or(600);
        let last = existing
            .as_ref()
            .and_then(|c| c["lastUpdateTime"].as_str())
            .and_then(parse_rfc3339)
            .unwrap_or(sim_unix(now));
        let already_failed = existing
            .as_ref()
            .is_some_and(|c| c["reason"] == "ProgressDeadlineExceeded");
        if !already_failed
            && existing
                .as_ref()
                .is_some_and(|c| c["reason"] != "NewReplicaSetAvailable")
            && sim_unix(now) > last + deadline
        {
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

/// B10: an unchanged status and reason writes nothing (unless `refresh`, for
/// ReplicaSetUpdated); a change replaces the condition at the end of the list, keeping
/// lastTransitionTime when only the reason moved.
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
        if refresh && c["status"] == status && c["reason"] == reason {
            let mut c = c.clone();
            c["lastUpdateTime"] = json!(ts);
            c["message"] = json!(message);
            conds[i] = c;
            return;
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
