//! The node lifecycle controller (kube-controller-manager's
//! `pkg/controller/nodelifecycle`): it watches each node's heartbeats (its Lease's
//! `renewTime` and its Ready condition's `lastHeartbeatTime`), and when none has come for
//! the grace period it marks the node's conditions Unknown, marks the node's pods not
//! ready and taints the node: `NoSchedule` at once (so the scheduler stops placing pods
//! there) and `NoExecute` through its zone's rate limiter (so the taint eviction
//! controller evicts the pods that do not tolerate it). It also keeps the `NoSchedule`
//! taints of node conditions and of a cordoned node (`spec.unschedulable`).
//!
//! Timings are kube-controller-manager 1.32's defaults, in simulated seconds:
//! `--node-monitor-period` 5 s, `--node-monitor-grace-period` 50 s,
//! `--node-eviction-rate` 0.1 (one node tainted every 10 s in a zone), and the zone rules
//! of `ComputeZoneState` (`--unhealthy-zone-threshold` 0.55,
//! `--large-cluster-size-threshold` 50, `--secondary-node-eviction-rate` 0.01). The demo's
//! nodes carry no zone label, so they form one zone.

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Value, json};

use super::controller::Controller;
use crate::sim::api::{ApiServer, EventType, Note, Ref};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::taints::{self, NOT_READY, UNREACHABLE};
use crate::sim::time::rfc3339;

pub const WATCHES: &[Kind] = &[Kind::Node, Kind::Lease, Kind::Pod];
/// The controller's event source (`node-controller`, its name in kube-controller-manager).
pub const COMPONENT: &str = "node-controller";
/// `--node-monitor-period`.
pub const MONITOR_PERIOD: u64 = 5;
/// `--node-monitor-grace-period` (50 s since 1.32; 40 s before).
pub const GRACE_PERIOD: u64 = 50;
/// `--node-eviction-rate` 0.1 nodes a second: one token every 10 s, burst 1.
const EVICTION_INTERVAL: u64 = 10;
/// `--secondary-node-eviction-rate` 0.01, for a large zone in partial disruption.
const SECONDARY_EVICTION_INTERVAL: u64 = 100;
const UNHEALTHY_ZONE_THRESHOLD: f64 = 0.55;
const LARGE_CLUSTER_SIZE_THRESHOLD: usize = 50;

/// The conditions the kubelet posts, which go Unknown when it stops posting.
const KUBELET_CONDITIONS: [&str; 4] = ["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"];
pub const UNKNOWN_REASON: &str = "NodeStatusUnknown";
pub const UNKNOWN_MESSAGE: &str = "Kubelet stopped posting node status.";

/// `nodeConditionToTaintKeyStatusMap`: the NoSchedule taint for a condition's status.
fn condition_taint(type_: &str, status: &str) -> Option<&'static str> {
    match (type_, status) {
        ("Ready", "False") => Some(NOT_READY),
        ("Ready", "Unknown") => Some(UNREACHABLE),
        ("MemoryPressure", "True") => Some(taints::MEMORY_PRESSURE),
        ("DiskPressure", "True") => Some(taints::DISK_PRESSURE),
        ("NetworkUnavailable", "True") => Some(taints::NETWORK_UNAVAILABLE),
        ("PIDPressure", "True") => Some(taints::PID_PRESSURE),
        _ => None,
    }
}

/// The NoSchedule taint keys the controller owns.
fn managed_no_schedule(key: &str) -> bool {
    [
        NOT_READY,
        UNREACHABLE,
        taints::MEMORY_PRESSURE,
        taints::DISK_PRESSURE,
        taints::NETWORK_UNAVAILABLE,
        taints::PID_PRESSURE,
        taints::UNSCHEDULABLE,
    ]
    .contains(&key)
}

/// What the controller last saw of a node's kubelet.
#[derive(Debug, Clone, Default)]
struct Health {
    /// When it last saw a sign of life (`probeTimestamp`), on its own clock.
    probe: u64,
    renew: Option<String>,
    heartbeat: Option<String>,
}

/// A zone's state (`ComputeZoneState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ZoneState {
    Normal,
    PartialDisruption,
    FullDisruption,
}

#[derive(Clone)]
pub struct NodeLifecycle {
    pub informer: Informer,
    pub client: RateLimit,
    health: BTreeMap<String, Health>,
    /// Nodes waiting for their NoExecute taint, in the order they went not ready (the
    /// zone's `RateLimitedTimedQueue`).
    to_taint: VecDeque<String>,
    /// When the zone's rate limiter next has a token.
    token_at: u64,
    /// Seconds between two tokens; `None` stops tainting (a small zone in partial
    /// disruption).
    interval: Option<u64>,
    monitor_due: bool,
    /// Every node is not ready: the controller stops tainting and lifts its NoExecute
    /// taints ("master disruption mode"), since the fault is more likely its own.
    all_down: bool,
}

/// The Ready condition's status of a node, `Unknown` when it has none.
fn ready_status(node: &Value) -> &str {
    condition(node, "Ready")
        .and_then(|c| c["status"].as_str())
        .unwrap_or("Unknown")
}

fn condition<'a>(node: &'a Value, type_: &str) -> Option<&'a Value> {
    node["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == type_)
}

/// The NoExecute taint a node with this Ready status gets, and the one it replaces.
fn no_execute_for(ready: &str) -> Option<(&'static str, &'static str)> {
    match ready {
        "False" => Some((NOT_READY, UNREACHABLE)),
        "Unknown" => Some((UNREACHABLE, NOT_READY)),
        _ => None,
    }
}

fn has_taint(node: &Value, key: &str, effect: &str) -> bool {
    taints::of_node(node)
        .iter()
        .any(|t| taints::same(t, &taints::taint(key, effect)))
}

impl NodeLifecycle {
    pub fn new(resync: u64) -> Self {
        NodeLifecycle {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            health: BTreeMap::new(),
            to_taint: VecDeque::new(),
            token_at: 0,
            interval: Some(EVICTION_INTERVAL),
            monitor_due: false,
            all_down: false,
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            let name = d.object.name();
            match (d.kind, d.event) {
                (Kind::Node, EventType::Deleted) => {
                    self.health.remove(name);
                    self.to_taint.retain(|n| n != name);
                }
                // The NoSchedule pass runs on every node change (nodeUpdateQueue).
                (Kind::Node, _) => self.informer.enqueue(&format!("node/{name}")),
                // A pod placed on a node that is not ready is marked not ready too
                // (podUpdated, processPod).
                (Kind::Pod, EventType::Added | EventType::Modified) => {
                    if let Some(node) = d.object.pod_node()
                        && self
                            .informer
                            .get(Kind::Node, node)
                            .is_some_and(|n| ready_status(n) != "True")
                        && d.object.pod().ready
                    {
                        self.informer.enqueue(&format!("pod/{name}"));
                    }
                }
                _ => {}
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        // Stopped, it neither works its queue nor watches the nodes' health.
        if self.informer.state != RunState::Running {
            return 0;
        }
        let mut n = 0;
        while let Some(key) = super::controller::next_key(&mut self.informer, &self.client) {
            if let Some(node) = key.strip_prefix("node/") {
                n += self.no_schedule_pass(api, node, now);
            } else if let Some(pod) = key.strip_prefix("pod/") {
                let node = api
                    .get_shared(Kind::Pod, pod)
                    .ok()
                    .and_then(|p| p.pod_node().map(str::to_string));
                if let Some(node) = node {
                    n += self.mark_pods_not_ready(api, &node, Some(pod), now);
                }
            }
        }
        if std::mem::take(&mut self.monitor_due) {
            n += self.monitor(api, now);
        }
        n + self.no_execute_pass(api, now)
    }

    /// `doNoScheduleTaintingPass`: the node's NoSchedule taints made to match its
    /// conditions and `spec.unschedulable`.
    fn no_schedule_pass(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Ok(node) = api.get(Kind::Node, name) else {
            return 0;
        };
        let mut want: Vec<&str> = node["status"]["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| condition_taint(c["type"].as_str()?, c["status"].as_str()?))
            .collect();
        if node["spec"]["unschedulable"] == true {
            want.push(taints::UNSCHEDULABLE);
        }
        let current = taints::of_node(node);
        let owned = |t: &Value| {
            t["effect"] == "NoSchedule" && managed_no_schedule(t["key"].as_str().unwrap_or(""))
        };
        let stale = current
            .iter()
            .any(|t| owned(t) && !want.iter().any(|k| t["key"] == *k));
        let missing: Vec<&str> = want
            .iter()
            .copied()
            .filter(|k| !has_taint(node, k, "NoSchedule"))
            .collect();
        if !stale && missing.is_empty() {
            return 0;
        }
        let mut next: Vec<Value> = current
            .iter()
            .filter(|t| !owned(t) || want.iter().any(|k| t["key"] == *k))
            .cloned()
            .collect();
        // Every taint the controller adds carries the time it was added
        // (`SwapNodeControllerTaint`).
        next.extend(
            missing
                .iter()
                .map(|k| json!({"key": k, "effect": "NoSchedule", "timeAdded": rfc3339(now)})),
        );
        let mut node = node.clone();
        taints::set_on_node(&mut node, next);
        self.client.spend(1);
        usize::from(api.update(Kind::Node, node, None).is_ok())
    }

    /// `monitorNodeHealth`, every monitor period: each node's health from its
    /// heartbeats, its conditions made Unknown after the grace period, its NoExecute taint
    /// queued or lifted from the Ready status it had when the pass began (so a node that
    /// turns Unknown is queued one period later), its pods marked not ready, and then the
    /// zone's state.
    fn monitor(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        let names: Vec<String> = self
            .informer
            .iter(Kind::Node)
            .map(|v| crate::sim::obj::name(v).to_string())
            .collect();
        let mut states = Vec::with_capacity(names.len());
        for name in names {
            // Read in place; copied only for the rare write.
            let Some(node) = self.informer.get_shared(Kind::Node, &name).cloned() else {
                continue;
            };
            let node = node.value();
            let renew = self
                .informer
                .get(Kind::Lease, &name)
                .and_then(|l| l["spec"]["renewTime"].as_str());
            let heartbeat = condition(node, "Ready").and_then(|c| c["lastHeartbeatTime"].as_str());
            let h = self.health.entry(name.clone()).or_insert(Health {
                probe: now,
                ..Health::default()
            });
            // A renewed lease or a new heartbeat: the kubelet is alive.
            if renew.is_some() && renew != h.renew.as_deref() {
                h.renew = renew.map(str::to_string);
                h.probe = now;
            }
            if heartbeat != h.heartbeat.as_deref() {
                h.heartbeat = heartbeat.map(str::to_string);
                h.probe = now;
            }
            let observed = ready_status(node).to_string();
            let mut current = observed.clone();
            if now > h.probe + GRACE_PERIOD {
                let mut next = node.clone();
                if mark_unknown(&mut next, now) {
                    self.client.spend(1);
                    if api.update_status(Kind::Node, next).is_ok() {
                        n += 1;
                        current = "Unknown".into();
                    }
                }
            }
            n += self.taint_base_eviction(api, &name, &observed, now);
            if observed == "True" && current != "True" {
                let uid = crate::sim::obj::uid(node).to_string();
                record_status_change(api, &name, &uid, "NodeNotReady", now);
                n += self.mark_pods_not_ready(api, &name, None, now);
            }
            states.push(current);
        }
        n + self.handle_disruption(api, &states, now)
    }

    /// `processTaintBaseEviction`: a node not ready is queued for its NoExecute taint, or
    /// has it swapped at once if it carries the other one; a ready node loses both.
    fn taint_base_eviction(
        &mut self,
        api: &mut ApiServer,
        name: &str,
        observed: &str,
        now: u64,
    ) -> usize {
        match no_execute_for(observed) {
            Some((want, opposite)) => {
                let Ok(node) = api.get(Kind::Node, name) else {
                    return 0;
                };
                if has_taint(node, opposite, "NoExecute") {
                    return self.swap_no_execute(api, name, want, now);
                }
                if !has_taint(node, want, "NoExecute") && !self.to_taint.iter().any(|x| x == name) {
                    self.to_taint.push_back(name.to_string());
                }
                0
            }
            None => {
                self.to_taint.retain(|x| x != name);
                self.lift_no_execute(api, name)
            }
        }
    }

    /// `handleDisruption`: the zone's state sets its tainting rate; when every node is
    /// not ready the controller assumes the fault is its own, lifts its NoExecute taints
    /// and stops ("master disruption mode"), and on leaving that mode gives every node a
    /// fresh grace period.
    fn handle_disruption(&mut self, api: &mut ApiServer, states: &[String], now: u64) -> usize {
        let ready = states.iter().filter(|s| *s == "True").count();
        let not_ready = states.len() - ready;
        let zone = if ready == 0 && not_ready > 0 {
            ZoneState::FullDisruption
        } else if not_ready > 2
            && not_ready as f64 / states.len() as f64 >= UNHEALTHY_ZONE_THRESHOLD
        {
            ZoneState::PartialDisruption
        } else {
            ZoneState::Normal
        };
        let mut n = 0;
        if zone == ZoneState::FullDisruption {
            if !self.all_down {
                self.all_down = true;
                self.interval = None;
                let names: Vec<String> = self.health.keys().cloned().collect();
                for name in names {
                    n += self.lift_no_execute(api, &name);
                }
            }
            return n;
        }
        if std::mem::take(&mut self.all_down) {
            for h in self.health.values_mut() {
                h.probe = now;
            }
        }
        self.interval = match zone {
            ZoneState::PartialDisruption if states.len() <= LARGE_CLUSTER_SIZE_THRESHOLD => None,
            ZoneState::PartialDisruption => Some(SECONDARY_EVICTION_INTERVAL),
            _ => Some(EVICTION_INTERVAL),
        };
        n
    }

    /// `doNoExecuteTaintingPass`: queued nodes tainted as fast as the zone's limiter
    /// lets them (kube-controller-manager tries every 100 ms; here, every settle).
    fn no_execute_pass(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(interval) = self.interval
            && now >= self.token_at
            && self.client.ready()
            && let Some(name) = self.to_taint.pop_front()
        {
            self.token_at = now + interval;
            let Some(status) = api.get(Kind::Node, &name).ok().map(ready_status) else {
                continue;
            };
            if let Some((want, _)) = no_execute_for(status) {
                n += self.swap_no_execute(api, &name, want, now);
            }
        }
        n
    }

    /// `SwapNodeControllerTaint`: the NoExecute taint `want`, stamped with the time it
    /// was added, in place of the controller's other NoExecute taint.
    fn swap_no_execute(&mut self, api: &mut ApiServer, name: &str, want: &str, now: u64) -> usize {
        let Ok(node) = api.get(Kind::Node, name) else {
            return 0;
        };
        let mut next: Vec<Value> = taints::of_node(node)
            .iter()
            .filter(|t| !reachability_taint(t))
            .cloned()
            .collect();
        next.push(json!({"key": want, "effect": "NoExecute", "timeAdded": rfc3339(now)}));
        let mut node = node.clone();
        taints::set_on_node(&mut node, next);
        self.client.spend(1);
        usize::from(api.update(Kind::Node, node, None).is_ok())
    }

    /// `markNodeAsReachable`: the controller's NoExecute taints removed.
    fn lift_no_execute(&mut self, api: &mut ApiServer, name: &str) -> usize {
        let Ok(node) = api.get(Kind::Node, name) else {
            return 0;
        };
        let current = taints::of_node(node);
        if !current.iter().any(reachability_taint) {
            return 0;
        }
        let next: Vec<Value> = current
            .iter()
            .filter(|t| !reachability_taint(t))
            .cloned()
            .collect();
        let mut node = node.clone();
        taints::set_on_node(&mut node, next);
        self.client.spend(1);
        usize::from(api.update(Kind::Node, node, None).is_ok())
    }

    /// `MarkPodsNotReady`: the Ready condition of each pod on the node (or of `only`)
    /// made False, with a `NodeNotReady` event for each.
    fn mark_pods_not_ready(
        &mut self,
        api: &mut ApiServer,
        node: &str,
        only: Option<&str>,
        now: u64,
    ) -> usize {
        let mut names: Vec<String> = self
            .informer
            .values_shared(Kind::Pod)
            .filter(|p| p.pod_node() == Some(node) && only.is_none_or(|o| o == p.name()))
            .map(|p| p.name().to_string())
            .collect();
        names.sort_unstable();
        let mut n = 0;
        for name in names {
            let Ok(pod) = api.get_shared(Kind::Pod, &name) else {
                continue;
            };
            let mut status = pod.field("status").cloned().unwrap_or(Value::Null);
            let Some(ready) = status["conditions"]
                .as_array_mut()
                .and_then(|cs| cs.iter_mut().find(|c| c["type"] == "Ready"))
            else {
                continue;
            };
            if ready["status"] == "False" {
                continue;
            }
            ready["status"] = json!("False");
            ready["lastTransitionTime"] = json!(rfc3339(now));
            self.client.spend(1);
            if api.store_pod_status(&pod, status).is_ok() {
                n += 1;
                api.record_event(
                    &*pod,
                    Kind::Pod,
                    Note {
                        type_: "Warning",
                        reason: "NodeNotReady",
                        message: "Node is not ready",
                        component: COMPONENT,
                        field_path: None,
                    },
                    now,
                );
            }
        }
        n
    }
}

/// The node's conditions the kubelet posts made Unknown (`tryUpdateNodeHealth`): their
/// heartbeat stays the last one seen, the transition is now. False when all already are.
fn mark_unknown(node: &mut Value, now: u64) -> bool {
    let Some(conditions) = node
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    let mut changed = false;
    for c in conditions.iter_mut() {
        if KUBELET_CONDITIONS.iter().any(|t| c["type"] == *t) && c["status"] != "Unknown" {
            c["status"] = json!("Unknown");
            c["reason"] = json!(UNKNOWN_REASON);
            c["message"] = json!(UNKNOWN_MESSAGE);
            c["lastTransitionTime"] = json!(rfc3339(now));
            changed = true;
        }
    }
    changed
}

/// The controller's own NoExecute taints, not-ready and unreachable, which it swaps and
/// lifts as the Ready condition moves.
fn reachability_taint(t: &Value) -> bool {
    t["effect"] == "NoExecute" && (t["key"] == NOT_READY || t["key"] == UNREACHABLE)
}

/// `RecordNodeStatusChange`: a Normal event on the node, referenced by name and uid with
/// no namespace.
fn record_status_change(api: &mut ApiServer, node: &str, uid: &str, status: &str, now: u64) {
    let message = format!("Node {node} status is now: {status}");
    api.record_event(
        &Ref {
            name: node,
            uid,
            namespace: "",
        },
        Kind::Node,
        Note {
            type_: "Normal",
            reason: status,
            message: &message,
            component: COMPONENT,
            field_path: None,
        },
        now,
    );
}

impl Controller for NodeLifecycle {
    super::controller::controller_basics!(NodeLifecycle, Component::NodeLifecycle);
    /// Every node's NoSchedule taints checked again.
    fn resync(&mut self) {
        let names: Vec<String> = self
            .informer
            .iter(Kind::Node)
            .map(|v| format!("node/{}", crate::sim::obj::name(v)))
            .collect();
        for k in names {
            self.informer.enqueue(&k);
        }
    }
    /// `wait.Until(monitorNodeHealth, nodeMonitorPeriod)`.
    fn tick(&mut self, now: u64) {
        if now.is_multiple_of(MONITOR_PERIOD) {
            self.monitor_due = true;
        }
    }
    fn crash(&mut self) {
        self.informer_mut().crash();
        // Health is in memory: a restarted controller starts every node's clock again.
        self.health.clear();
        self.to_taint.clear();
        self.monitor_due = false;
        self.all_down = false;
    }
}
