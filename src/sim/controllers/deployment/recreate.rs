//! rolloutRecreate (B5): every old ReplicaSet to zero, then, once none of their pods is
//! left, the new one at full size. Mirrors kube-controller-manager's
//! `pkg/controller/deployment/recreate.go`.

use std::sync::Arc;

use serde_json::Value;

use crate::sim::api::ApiServer;
use crate::sim::controllers::claim;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;

use super::DeploymentController;
use super::util::{spec_replicas, status_int};

impl DeploymentController {
    /// B5 rolloutRecreate: the old ReplicaSets go to zero first, and the new one is made
    /// (or scaled up) only once none of their pods is left, terminating ones included: that
    /// wait is the point of Recreate. Returns whether this sync created the new set, or
    /// `None` when it could be neither made nor found (the sync stops there).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rollout_recreate(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut Vec<Arc<Stored>>,
        new_idx: &mut Option<usize>,
        replicas: i64,
        surge: i64,
        now: u64,
    ) -> Option<bool> {
        let mut created_new = false;
        if let Some(ni) = *new_idx
            && let Some(rs) = claim::refresh_new_rs(api, d, rss, ni)
        {
            rss[ni] = rs;
        }
        let scaled_down = self.scale_down_old(api, d, rss, *new_idx, now);
        if !scaled_down && !self.old_pods_running(rss, *new_idx) {
            if new_idx.is_none() {
                let created = self.add_new_rs(api, d, rss, replicas, surge, now)?;
                *new_idx = Some(rss.len() - 1);
                created_new = created;
            }
            if let Some(ni) = *new_idx {
                let mut rs = rss[ni].clone();
                self.scale_rs(api, d, &mut rs, replicas, now);
                rss[ni] = rs;
            }
        }
        Some(created_new)
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
}
