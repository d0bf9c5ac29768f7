//! The Deployment controller (k8s-semantics B1-B12): ReplicaSets per template, rolling
//! updates with surge and unavailability, proportional scaling, status and conditions.
//! This file mirrors kube-controller-manager's `pkg/controller/deployment/
//! deployment_controller.go`: the controller, its event handlers, the work queue and
//! syncDeployment, which picks the path a sync takes. The paths live beside it as upstream
//! splits them: `sync` (sync.go), `rolling` (rolling.go), `recreate` (recreate.go),
//! `progress` (progress.go) and `util` (util/deployment_util.go). rollback.go has no
//! counterpart: apps/v1 has no `spec.rollbackTo`, and `kubectl rollout undo` is kubectl's own
//! (its rollback.go, under src/sim/kubectl/).

mod progress;
mod recreate;
mod rolling;
mod sync;
mod util;

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType};
use crate::sim::client::RateLimit;
use crate::sim::directive::Trigger;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;

use super::claim;
use super::controller::Controller;
use crate::sim::directive::Component;
use util::{
    DESIRED, deployment_complete, sort_oldest_first, spec_replicas, strategy, template_without_hash,
};

pub use util::fenceposts;

pub const WATCHES: &[Kind] = &[Kind::Deployment, Kind::ReplicaSet, Kind::Pod];
pub const COMPONENT: &str = "deployment-controller";

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
                        let labels = &d.object.facts().labels;
                        claim::enqueue_adopters(&mut self.informer, Kind::Deployment, labels);
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

    /// syncDeployment: a deleting Deployment gets its status only; a paused one or a
    /// scaling event takes `sync`'s path ([`Self::scale`]); any other rolls out by its
    /// strategy ([`Self::rollout_recreate`], [`Self::rollout_rolling`]).
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
        let adopted = claim::adopt_replicasets(&self.informer, api, &d);
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
        let created_new = if path == Path::Sync {
            self.scale(api, &d, &mut rss, new_idx, now);
            false
        } else if !rolling {
            let Some(created) =
                self.rollout_recreate(api, &d, &mut rss, &mut new_idx, replicas, surge, now)
            else {
                return;
            };
            created
        } else {
            let Some(created) = self.rollout_rolling(
                api,
                &d,
                &mut rss,
                &mut new_idx,
                replicas,
                surge,
                max_unavailable,
                now,
            ) else {
                return;
            };
            created
        };
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
}

/// Which syncDeployment path a sync took: syncStatusOnly (deleting), sync (paused or a
/// scaling event) or a rollout; only a rollout estimates progress (B4, B9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    StatusOnly,
    Sync,
    Rollout,
}

impl Controller for DeploymentController {
    super::controller::controller_basics!(DeploymentController, Component::Deployment);
    fn resync(&mut self) {
        DeploymentController::resync(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::session::Session;

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
