//! rolloutRolling (B5): a new ReplicaSet scaled up within the surge and old ones scaled
//! down within the unavailability budget. Mirrors kube-controller-manager's
//! `pkg/controller/deployment/rolling.go`.

use std::sync::Arc;

use serde_json::Value;

use crate::sim::api::ApiServer;
use crate::sim::controllers::claim;
use crate::sim::obj;
use crate::sim::stored::Stored;

use super::DeploymentController;
use super::util::{spec_replicas, status_int};

impl DeploymentController {
    /// rolloutRolling: the new ReplicaSet, made when missing with what the surge leaves
    /// room for, then one step of [`Self::rolling`]. Returns whether this sync created the
    /// new set, or `None` when it could be neither made nor found (the sync stops there).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rollout_rolling(
        &mut self,
        api: &mut ApiServer,
        d: &Value,
        rss: &mut Vec<Arc<Stored>>,
        new_idx: &mut Option<usize>,
        replicas: i64,
        surge: i64,
        max_unavailable: i64,
        now: u64,
    ) -> Option<bool> {
        let mut created_new = false;
        if new_idx.is_none() {
            let old_total: i64 = rss.iter().map(|r| spec_replicas(r)).sum();
            let initial = if old_total > 0 {
                (replicas + surge - old_total).clamp(0, replicas)
            } else {
                replicas
            };
            let created = self.add_new_rs(api, d, rss, initial, surge, now)?;
            *new_idx = Some(rss.len() - 1);
            created_new = created;
        }
        if let Some(ni) = *new_idx
            && !created_new
            && let Some(rs) = claim::refresh_new_rs(api, d, rss, ni)
        {
            rss[ni] = rs;
        }
        if let Some(ni) = *new_idx {
            self.rolling(api, d, rss, ni, surge, max_unavailable, now);
        }
        Some(created_new)
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
}
