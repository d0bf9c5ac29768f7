//! The scheduler (kube-scheduler with its default plugins, reduced to what the demo
//! shows): a queue of pods with no node; for each, the filters run on every node
//! ([`filter`]: the node's first failing filter is its reason), the feasible nodes are
//! scored ([`score`]: the default profile's plugins and weights) and the pod is bound to
//! the best, ties going to the first node in name order (kube-scheduler picks among equal
//! scores at random). A pod that fits nowhere gets a FailedScheduling event and waits
//! until the cluster changes: a node added or changed, a pod deleted. There is no
//! preemption: pods here all have priority 0.

mod cache;
mod filter;
mod score;

use std::collections::BTreeMap;

use serde_json::Value;

use super::controller::Controller;
use crate::sim::HashMap;
use crate::sim::api::{ApiServer, EventType, EventV1};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use cache::{Placed, Usage, contribution, terminal};
pub use cache::{Requests, requests};
pub use filter::PodTerms;
use filter::{filter, fit_error};

/// ReplicaSets for the spreading score's default selector (a pod's controller's; see
/// `default_selector`).
pub const WATCHES: &[Kind] = &[Kind::Pod, Kind::Node, Kind::ReplicaSet];
/// The scheduler's name, its events' source and the `schedulerName` it serves.
pub const COMPONENT: &str = "default-scheduler";
/// `reportingInstance`: the scheduler's name and its host's (the demo's control plane).
pub const INSTANCE: &str = "default-scheduler-control-plane";

#[derive(Clone)]
pub struct Scheduler {
    pub informer: Informer,
    pub client: RateLimit,
    /// Pods tried and found to fit nowhere, retried when the cluster changes, in the
    /// order they failed (the queue's PrioritySort: equal priorities by the time a pod
    /// went back to the queue).
    unschedulable: BTreeMap<u64, String>,
    failed_at: HashMap<String, u64>,
    failures: u64,
    /// kube-scheduler's cache: each node's allocatable and the requests of the pods bound
    /// to it, kept up to date from the watch rather than summed again for every pod.
    cache: BTreeMap<String, Usage>,
    /// Pods bound by this scheduler whose binding it has not yet seen come back through
    /// the watch ("assumed" pods): already counted in `cache`.
    assumed: crate::sim::HashSet<String>,
}

impl Scheduler {
    pub fn new(resync: u64) -> Self {
        Scheduler {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            unschedulable: BTreeMap::new(),
            failed_at: HashMap::default(),
            failures: 0,
            cache: BTreeMap::new(),
            assumed: Default::default(),
        }
    }

    /// Whether the pod is the scheduler's to place: no node, not being deleted, and
    /// asking for this scheduler.
    fn wants(pod: &Stored) -> bool {
        pod.pod_node().is_none()
            && !pod.facts().deleting
            && pod
                .unfilled("spec")
                .and_then(|s| s["schedulerName"].as_str())
                .is_none_or(|n| n == COMPONENT)
    }

    /// Pods tried and left unplaced, waiting for the cluster to change.
    pub fn pending(&self) -> usize {
        self.unschedulable.len()
    }

    /// Every unschedulable pod back to the queue, first failed first: something changed
    /// that may let it fit.
    fn retry(&mut self) {
        self.failed_at.clear();
        for name in std::mem::take(&mut self.unschedulable).into_values() {
            self.informer.enqueue(&name);
        }
    }

    fn forget(&mut self, name: &str) {
        if let Some(seq) = self.failed_at.remove(name) {
            self.unschedulable.remove(&seq);
        }
    }

    fn park(&mut self, name: String) {
        self.forget(&name);
        self.failures += 1;
        self.failed_at.insert(name.clone(), self.failures);
        self.unschedulable.insert(self.failures, name);
    }

    /// What the cache should hold, summed from scratch: for tests of the cache.
    fn recomputed(&self) -> BTreeMap<String, Usage> {
        let mut usage: BTreeMap<String, Usage> = self
            .informer
            .values_shared(Kind::Node)
            .map(|n| (n.name().to_string(), Usage::of(n.value())))
            .collect();
        for p in self.informer.values_shared(Kind::Pod) {
            if let Some((node, r)) = contribution(p)
                && let Some(u) = usage.get_mut(node)
            {
                u.add(&r);
            }
        }
        usage
    }

    /// Whether the incremental cache equals a fresh sum (the scheduler's property test
    /// checks it after every command).
    pub fn cache_is_consistent(&self) -> bool {
        let fresh = self.recomputed();
        fresh.len() == self.cache.len()
            && fresh
                .iter()
                .all(|(n, u)| self.cache.get(n).is_some_and(|c| c == u))
    }

    /// A pod's change to the cache: its requests leave its old node and join its new one.
    /// A pod this scheduler assumed is already counted where it was bound.
    fn track(&mut self, old: Option<&Stored>, new: Option<&Stored>) {
        // Most pod events are status writes: same node, same template, still running.
        if let (Some(o), Some(n)) = (old, new)
            && o.pod_node() == n.pod_node()
            && std::ptr::eq(
                o.unfilled("spec").unwrap_or(&Value::Null),
                n.unfilled("spec").unwrap_or(&Value::Null),
            )
            && terminal(o) == terminal(n)
            && o.facts().deleting == n.facts().deleting
            && std::sync::Arc::ptr_eq(&o.facts().labels, &n.facts().labels)
            && !(n.pod_node().is_some() && self.assumed.contains(n.name()))
        {
            return;
        }
        let name = new
            .or(old)
            .map(|p| p.name().to_string())
            .unwrap_or_default();
        let confirmed = new.is_some_and(|n| n.pod_node().is_some()) && self.assumed.remove(&name);
        let before = if confirmed {
            None
        } else {
            old.and_then(contribution)
        };
        let after = if confirmed {
            None
        } else {
            new.and_then(contribution)
        };
        if before == after {
            return;
        }
        if let Some((node, r)) = before
            && let Some(u) = self.cache.get_mut(node)
        {
            u.sub(&r);
        }
        if let Some((node, r)) = after
            && let Some(u) = self.cache.get_mut(node)
        {
            u.add(&r);
        }
    }

    /// schedulingCycle for one pod: filters, scores, and the node it goes to with what
    /// the pod adds there (its requests read once, for the filters, the scores and the
    /// cache), or why none will take it.
    fn place(
        &self,
        pod: &Stored,
        usage: &BTreeMap<String, Usage>,
    ) -> Result<(String, Placed), String> {
        let spec = pod.unfilled("spec").unwrap_or(&Value::Null);
        let placed = Placed::new(spec, &pod.facts().labels);
        let want = placed.req;
        let terms = PodTerms::of(spec);
        let mut reasons = Vec::new();
        // The cache holds every node, in name order.
        let mut nodes = Vec::with_capacity(usage.len());
        for (name, u) in usage {
            let reason = filter(&terms, want, u);
            let feasible = reason.is_none();
            reasons.extend(reason);
            nodes.push(score::Node {
                name,
                usage: u,
                feasible,
            });
        }
        let pod = score::Pod {
            spec,
            terms: &terms,
            want,
            nonzero: placed.nonzero,
            selectors: self.default_selector(pod).into_iter().collect(),
        };
        match score::best(&pod, &nodes) {
            Some(name) => Ok((name.to_string(), placed)),
            None => Err(fit_error(usage.len(), &reasons)),
        }
    }

    /// `helper.DefaultSelector`, what the default spreading counts as the pod's siblings:
    /// the selector of its controller, looked up by the name in its controller reference
    /// (kube-scheduler also merges the selectors of Services selecting the pod, and
    /// follows ReplicationControllers and StatefulSets, none of which the demo has). A pod
    /// with no controller has none, and is not spread.
    fn default_selector(&self, pod: &Stored) -> Option<&Value> {
        let owner = pod
            .meta("ownerReferences")?
            .as_array()?
            .iter()
            .find(|r| r["controller"] == true)?;
        if owner["kind"] != "ReplicaSet" || owner["apiVersion"] != "apps/v1" {
            return None;
        }
        let rs = self
            .informer
            .get_shared(Kind::ReplicaSet, owner["name"].as_str()?)?;
        rs.field("spec")
            .map(|s| &s["selector"])
            .filter(|s| s.is_object())
    }

    pub fn handle(&mut self, mut deltas: Vec<Delta>) {
        // Nodes first: a relist delivers pods before nodes, and a pod's requests are
        // counted on a node the cache knows.
        deltas.sort_by_key(|d| d.kind != Kind::Node);
        for d in deltas {
            match (d.kind, d.event) {
                (Kind::Pod, EventType::Deleted) => self.track(Some(&d.object), None),
                (Kind::Pod, _) => self.track(d.old.as_deref(), Some(&d.object)),
                (Kind::Node, EventType::Deleted) => {
                    self.cache.remove(d.object.name());
                }
                (Kind::Node, _) => {
                    let fresh = Usage::of(d.object.value());
                    let u = self.cache.entry(d.object.name().to_string()).or_default();
                    u.set_node(fresh);
                }
                _ => {}
            }
            match (d.kind, d.event) {
                (Kind::Pod, EventType::Deleted) => {
                    self.forget(d.object.name());
                    // Its resources are free again.
                    if d.object.pod_node().is_some() {
                        self.retry();
                    }
                }
                (Kind::Pod, _) => {
                    if Self::wants(&d.object) {
                        if !self.failed_at.contains_key(d.object.name()) {
                            self.informer.enqueue(d.object.name());
                        }
                    } else {
                        self.forget(d.object.name());
                    }
                }
                (Kind::Node, _) => self.retry(),
                _ => {}
            }
        }
    }

    /// The scheduler has no periodic resync of its own; unschedulable pods are flushed
    /// back to the queue after a while (podMaxInUnschedulablePodsDuration), which the
    /// demo's resync stands for.
    pub fn resync(&mut self) {
        self.retry();
    }

    pub fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        if self.informer.state != RunState::Running {
            return 0;
        }
        // A bare cluster (the benchmarks'; every scenario has nodes): pods run where
        // the kubelet stand-in is, unscheduled.
        if self.informer.values_shared(Kind::Node).next().is_none() {
            while self.informer.pop().is_some() {}
            return 0;
        }
        // What the nodes hold is summed once per batch of work, not on every call.
        if self.informer.queue_len() == 0 {
            return 0;
        }
        let mut usage = std::mem::take(&mut self.cache);
        let mut n = 0;
        while self.client.ready() {
            let Some(name) = self.informer.pop() else {
                break;
            };
            let Some(pod) = self.informer.get_shared(Kind::Pod, &name).cloned() else {
                continue;
            };
            if !Self::wants(&pod) {
                continue;
            }
            n += 1;
            match self.place(&pod, &usage) {
                Ok((node, placed)) => {
                    self.client.spend(1);
                    if api.bind(&name, &node, now).is_ok() {
                        if let Some(u) = usage.get_mut(&node) {
                            u.add(&placed);
                            self.assumed.insert(name.clone());
                        }
                        let msg = format!("Successfully assigned default/{name} to {node}");
                        note(api, &pod, "Normal", "Scheduled", &msg, now);
                    }
                }
                Err(message) => {
                    self.client.spend(1);
                    api.mark_unschedulable(&name, &message, now);
                    note(api, &pod, "Warning", "FailedScheduling", &message, now);
                    self.park(name);
                }
            }
        }
        self.cache = usage;
        n
    }
}

/// The scheduler's recorder: events.k8s.io/v1, reporting as its profile's scheduler on
/// its host.
fn note(api: &mut ApiServer, pod: &Stored, type_: &str, reason: &str, message: &str, now: u64) {
    let action = if reason == "Scheduled" {
        "Binding"
    } else {
        "Scheduling"
    };
    // FailedScheduling notes are cut to 1024 bytes (truncateMessage).
    let note = if message.len() > 1024 {
        let mut cut = 1024 - " ...".len();
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{} ...", &message[..cut])
    } else {
        message.to_string()
    };
    api.record_event_v1(
        pod,
        Kind::Pod,
        EventV1 {
            type_,
            reason,
            action,
            note: &note,
            controller: COMPONENT,
            instance: INSTANCE,
        },
        now,
    );
}

impl Controller for Scheduler {
    super::controller::controller_basics!(Scheduler, Component::Scheduler);
    fn resync(&mut self) {
        Scheduler::resync(self);
    }
    /// The cache and the assumed pods are memory: a restarted scheduler rebuilds them
    /// from its relist.
    fn crash(&mut self) {
        self.informer.crash();
        self.cache.clear();
        self.assumed.clear();
    }
}
