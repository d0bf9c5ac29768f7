//! A DaemonSet's rolling update (pkg/controller/daemon/update.go `rollingUpdate`, 1.32):
//! with maxSurge 0, old pods are deleted, at most maxUnavailable nodes without an available
//! pod at a time, and the next sync creates their replacements; with maxSurge, a new pod
//! starts beside the old one on at most maxSurge nodes at a time, and the old one goes once
//! the new one is available.

use serde_json::Value;

use super::{DaemonSetController, View, is_updated, should_run};
use crate::sim::api::ApiServer;
use crate::sim::kinds::daemonset::template_generation;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

/// GetScaledValueFromIntOrPercent, rounding up (0 for a value validation would refuse).
fn scaled(v: &Value, total: i64) -> i64 {
    obj::scaled_int_or_percent(v, total, true).unwrap_or(0)
}

/// SurgeCount: maxSurge scaled to `n` nodes (0 unless RollingUpdate).
pub fn surge_count(ds: &Value, n: i64) -> i64 {
    if ds["spec"]["updateStrategy"]["type"] != "RollingUpdate" {
        return 0;
    }
    scaled(
        &ds["spec"]["updateStrategy"]["rollingUpdate"]["maxSurge"],
        n,
    )
}

/// UnavailableCount: maxUnavailable scaled to `n` nodes.
fn unavailable_count(ds: &Value, n: i64) -> i64 {
    if ds["spec"]["updateStrategy"]["type"] != "RollingUpdate" {
        return 0;
    }
    scaled(
        &ds["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"],
        n,
    )
}

/// findUpdatedPodsOnNode: the node's one new and one old pod (not being deleted); `None`
/// when it has two of either.
fn updated_on_node<'a>(
    pods: &'a [std::sync::Arc<Stored>],
    hash: &str,
    generation: i64,
) -> Option<(Option<&'a Stored>, Option<&'a Stored>)> {
    let (mut new, mut old) = (None, None);
    for p in pods.iter().filter(|p| !p.facts().deleting) {
        let slot = if is_updated(p.value(), hash, generation) {
            &mut new
        } else {
            &mut old
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(&**p);
    }
    Some((new, old))
}

impl DaemonSetController {
    pub(super) fn rolling_update(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        view: &mut View,
        hash: &str,
        now: u64,
    ) {
        let min_ready = obj::int(ds, &["spec", "minReadySeconds"]).unwrap_or(0);
        let available = |p: &Stored| p.pod().available(min_ready, sim_unix(now));
        let generation = template_generation(ds);
        // updatedDesiredNodeCounts: every node that should run a pod is counted, with or
        // without one.
        let mut desired = 0;
        for node in &view.nodes {
            if should_run(ds, node).0 {
                desired += 1;
                view.by_node.entry(obj::name(node).to_string()).or_default();
            }
        }
        let mut max_unavailable = unavailable_count(ds, desired);
        let max_surge = surge_count(ds, desired);
        if desired > 0 && max_unavailable == 0 && max_surge == 0 {
            max_unavailable = 1;
        }
        let node_of = |name: &str| view.nodes.iter().find(|n| obj::name(n) == name);
        if max_surge == 0 {
            let mut unavailable = 0;
            let mut replace: Vec<String> = Vec::new();
            let mut candidates: Vec<String> = Vec::new();
            for pods in view.by_node.values() {
                let Some((new, old)) = updated_on_node(pods, hash, generation) else {
                    unavailable += 1;
                    continue;
                };
                match (new, old) {
                    (None, None) | (Some(_), Some(_)) => unavailable += 1,
                    (Some(n), None) => {
                        if !available(n) {
                            unavailable += 1;
                        }
                    }
                    (None, Some(o)) => {
                        if !available(o) {
                            replace.push(o.name().to_string());
                            unavailable += 1;
                        } else if unavailable < max_unavailable {
                            candidates.push(o.name().to_string());
                        }
                    }
                }
            }
            let room = (max_unavailable - unavailable).max(0) as usize;
            replace.extend(candidates.into_iter().take(room));
            self.sync_nodes(api, ds, &replace, &[], hash, now);
            return;
        }
        let mut delete: Vec<String> = Vec::new();
        let mut should_not_run: Vec<String> = Vec::new();
        let mut candidates: Vec<String> = Vec::new();
        let mut allowed: Vec<String> = Vec::new();
        let (mut surge, mut num_available) = (0, 0);
        for (node, pods) in &view.by_node {
            let Some((new, old)) = updated_on_node(pods, hash, generation) else {
                surge += 1;
                continue;
            };
            match (old, new) {
                (Some(o), _) if available(o) => num_available += 1,
                (None, Some(n)) if available(n) => num_available += 1,
                _ => {}
            }
            let runs = || node_of(node).is_some_and(|n| should_run(ds, n).0);
            match (old, new) {
                (None, _) => {}
                (Some(o), None) => {
                    if !available(o) {
                        if runs() {
                            allowed.push(node.clone());
                        } else {
                            delete.push(o.name().to_string());
                        }
                    } else if !runs() {
                        should_not_run.push(o.name().to_string());
                    } else if surge < max_surge {
                        candidates.push(node.clone());
                    }
                }
                (Some(o), Some(n)) => {
                    if !available(n) {
                        surge += 1;
                    } else {
                        delete.push(o.name().to_string());
                    }
                }
            }
        }
        // Pods on nodes that no longer want one go only while every wanted node keeps an
        // available pod.
        let deletable = (num_available - desired).max(0) as usize;
        delete.extend(should_not_run.into_iter().take(deletable));
        let room = (max_surge - surge).max(0) as usize;
        allowed.extend(candidates.into_iter().take(room));
        self.sync_nodes(api, ds, &delete, &allowed, hash, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn percentages_round_up() {
        assert_eq!(scaled(&json!("25%"), 3), 1);
        assert_eq!(scaled(&json!("50%"), 3), 2);
        assert_eq!(scaled(&json!(2), 3), 2);
        assert_eq!(scaled(&json!("0%"), 3), 0);
    }
}
