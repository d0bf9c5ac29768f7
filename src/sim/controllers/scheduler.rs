//! The scheduler (kube-scheduler with its default plugins, reduced to what the demo
//! shows): a queue of pods with no node; for each, the filters run on every node (the
//! node's first failing filter is its reason: NodeUnschedulable, TaintToleration,
//! NodeAffinity, then NodeResourcesFit), the feasible nodes are scored by
//! NodeResourcesFit's LeastAllocated strategy (the mean free share of CPU and memory after
//! placing the pod) and the pod is bound to the best, ties going to the first node in name
//! order (kube-scheduler picks among equal scores at random). A pod that fits nowhere gets
//! a FailedScheduling event and waits until the cluster changes: a node added or changed,
//! a pod deleted. There is no preemption: pods here all have priority 0.

use std::collections::BTreeMap;

use serde_json::Value;

use super::controller::Controller;
use crate::sim::HashMap;
use crate::sim::api::{ApiServer, EventType, EventV1};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::quantity;
use crate::sim::stored::Stored;
use crate::sim::taints;

pub const WATCHES: &[Kind] = &[Kind::Pod, Kind::Node];
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

/// What a pod asks of a node: CPU in millicores, memory in bytes, and one pod slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Requests {
    pub cpu_milli: i128,
    pub memory: i128,
}

/// A pod's effective requests (see [`quantity::pod_totals`]).
pub fn requests(spec: &Value) -> Requests {
    let [cpu, _, memory, _] = quantity::pod_totals(spec);
    Requests {
        cpu_milli: cpu / 1_000_000,
        memory: memory / 1_000_000_000,
    }
}

/// Why a node cannot take a pod, as the filter plugins word it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Reason {
    /// NodeUnschedulable.
    Unschedulable,
    /// TaintToleration: the first taint the pod does not tolerate.
    Taint(String),
    /// NodeAffinity (nodeSelector or required node affinity).
    Affinity,
    /// NodeResourcesFit: each resource short, in the plugin's order.
    Insufficient(Vec<&'static str>),
}

impl Reason {
    fn texts(&self) -> Vec<String> {
        match self {
            Reason::Unschedulable => vec!["node(s) were unschedulable".into()],
            Reason::Taint(t) => vec![format!("node(s) had untolerated taint {{{t}}}")],
            Reason::Affinity => vec!["node(s) didn't match Pod's node affinity/selector".into()],
            Reason::Insufficient(r) => r
                .iter()
                .map(|r| match *r {
                    "pods" => "Too many pods".to_string(),
                    r => format!("Insufficient {r}"),
                })
                .collect(),
        }
    }

    /// Whether evicting lower-priority pods could help (only a shortage can).
    fn resolvable(&self) -> bool {
        matches!(self, Reason::Insufficient(_))
    }
}

/// `matchExpressions` of one node selector term, against the node's labels.
fn term_matches(term: &Value, labels: &Value) -> bool {
    let exprs = term["matchExpressions"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    exprs.iter().all(|e| {
        let key = e["key"].as_str().unwrap_or("");
        let have = labels.get(key).and_then(Value::as_str);
        let values: Vec<&str> = e["values"]
            .as_array()
            .map(|v| v.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match e["operator"].as_str().unwrap_or("") {
            "In" => have.is_some_and(|h| values.contains(&h)),
            "NotIn" => have.is_none_or(|h| !values.contains(&h)),
            "Exists" => have.is_some(),
            "DoesNotExist" => have.is_none(),
            "Gt" | "Lt" => {
                let (Some(h), Some(v)) = (
                    have.and_then(|h| h.parse::<i64>().ok()),
                    values.first().and_then(|v| v.parse::<i64>().ok()),
                ) else {
                    return false;
                };
                if e["operator"] == "Gt" { h > v } else { h < v }
            }
            _ => false,
        }
    }) && !exprs.is_empty()
}

fn affinity_matches(spec: &Value, labels: &Value) -> bool {
    let selector_ok = spec["nodeSelector"]
        .as_object()
        .is_none_or(|sel| sel.iter().all(|(k, v)| labels.get(k) == Some(v)));
    let terms = spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        ["nodeSelectorTerms"]
        .as_array();
    // Terms are ORed; a required affinity with no terms matches nothing.
    let affinity_ok = terms.is_none_or(|t| t.iter().any(|term| term_matches(term, labels)));
    selector_ok && affinity_ok
}

/// What a node has allocatable, and what the pods bound to it request.
#[derive(Debug, Clone, Copy, Default)]
struct Usage {
    alloc: Requests,
    alloc_pods: i128,
    used: Requests,
    pods: i128,
}

impl Usage {
    fn of(node: &Value) -> Self {
        // Indexed, not `Value::pointer`, which allocates for every path it reads.
        let alloc = |k: &str| quantity::nanos(node["status"]["allocatable"].get(k));
        Usage {
            alloc: Requests {
                cpu_milli: alloc("cpu") / 1_000_000,
                memory: alloc("memory") / 1_000_000_000,
            },
            alloc_pods: alloc("pods") / 1_000_000_000,
            ..Usage::default()
        }
    }

    fn add(&mut self, r: Requests) {
        self.used.cpu_milli += r.cpu_milli;
        self.used.memory += r.memory;
        self.pods += 1;
    }

    fn sub(&mut self, r: Requests) {
        self.used.cpu_milli -= r.cpu_milli;
        self.used.memory -= r.memory;
        self.pods -= 1;
    }

    /// The resources `want` would overrun, in NodeResourcesFit's order.
    fn short(&self, want: Requests) -> Vec<&'static str> {
        let mut short = Vec::new();
        if self.pods + 1 > self.alloc_pods {
            short.push("pods");
        }
        if self.used.cpu_milli + want.cpu_milli > self.alloc.cpu_milli {
            short.push("cpu");
        }
        if self.used.memory + want.memory > self.alloc.memory {
            short.push("memory");
        }
        short
    }

    /// LeastAllocated: the mean share of CPU and memory left free once `want` is placed,
    /// 0 to 100.
    fn score(&self, want: Requests) -> i128 {
        let free = |alloc: i128, used: i128| {
            if alloc <= 0 {
                0
            } else {
                ((alloc - used).max(0) * 100) / alloc
            }
        };
        (free(self.alloc.cpu_milli, self.used.cpu_milli + want.cpu_milli)
            + free(self.alloc.memory, self.used.memory + want.memory))
            / 2
    }
}

/// The first reason `node` cannot take a pod with `spec` and `want`, if any.
fn filter(spec: &Value, want: Requests, node: &Value, usage: &Usage) -> Option<Reason> {
    let tolerations = taints::of_pod(spec);
    if node["spec"]["unschedulable"] == true {
        let cordon = taints::taint(taints::UNSCHEDULABLE, "NoSchedule");
        if !taints::tolerates(tolerations, &cordon) {
            return Some(Reason::Unschedulable);
        }
    }
    for t in taints::of_node(node) {
        let effect = t["effect"].as_str().unwrap_or("");
        if matches!(effect, "NoSchedule" | "NoExecute") && !taints::tolerates(tolerations, t) {
            let key = t["key"].as_str().unwrap_or("");
            let value = t["value"].as_str().unwrap_or("");
            return Some(Reason::Taint(format!("{key}: {value}")));
        }
    }
    if !affinity_matches(spec, &node["metadata"]["labels"]) {
        return Some(Reason::Affinity);
    }
    let short = usage.short(want);
    (!short.is_empty()).then_some(Reason::Insufficient(short))
}

/// FitError's message (framework/types.go `FitError.Error`): how many nodes are
/// available, then `<count> <reason>` for each reason, sorted as strings (digits too), then
/// what preemption found, in the same form.
fn fit_error(nodes: usize, reasons: &[Reason]) -> String {
    let sorted = |counts: std::collections::BTreeMap<String, usize>| {
        let mut list: Vec<String> = counts.iter().map(|(t, n)| format!("{n} {t}")).collect();
        list.sort();
        list.join(", ")
    };
    let mut filters: std::collections::BTreeMap<String, usize> = Default::default();
    let mut preemption: std::collections::BTreeMap<String, usize> = Default::default();
    for r in reasons {
        for t in r.texts() {
            *filters.entry(t).or_default() += 1;
        }
        // Pods here all have priority 0, so no node has a victim to evict.
        let p = if r.resolvable() {
            "No preemption victims found for incoming pod"
        } else {
            "Preemption is not helpful for scheduling"
        };
        *preemption.entry(p.to_string()).or_default() += 1;
    }
    format!(
        "0/{nodes} nodes are available: {}. preemption: 0/{nodes} nodes are available: {}.",
        sorted(filters),
        sorted(preemption)
    )
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
            .iter(Kind::Node)
            .map(|n| (crate::sim::obj::name(n).to_string(), Usage::of(n)))
            .collect();
        for p in self.informer.values_shared(Kind::Pod) {
            if let Some((node, r)) = contribution(p)
                && let Some(u) = usage.get_mut(node)
            {
                u.add(r);
            }
        }
        usage
    }

    /// Whether the incremental cache equals a fresh sum (the scheduler's property test
    /// checks it after every command).
    pub fn cache_is_consistent(&self) -> bool {
        let fresh = self.recomputed();
        fresh.len() == self.cache.len()
            && fresh.iter().all(|(n, u)| {
                self.cache
                    .get(n)
                    .is_some_and(|c| c.used == u.used && c.pods == u.pods && c.alloc == u.alloc)
            })
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
            u.sub(r);
        }
        if let Some((node, r)) = after
            && let Some(u) = self.cache.get_mut(node)
        {
            u.add(r);
        }
    }

    /// schedulingCycle for one pod: filters, scores, and the node it goes to, or why
    /// none will take it.
    fn place(&self, pod: &Stored, usage: &BTreeMap<String, Usage>) -> Result<String, String> {
        let spec = pod.unfilled("spec").unwrap_or(&Value::Null);
        let want = requests(spec);
        let mut reasons = Vec::new();
        let mut best: Option<(i128, &str)> = None;
        // The cache holds every node, in name order.
        for (name, u) in usage {
            let Some(node) = self.informer.get_shared(Kind::Node, name) else {
                continue;
            };
            match filter(spec, want, node.value(), u) {
                Some(r) => reasons.push(r),
                None => {
                    let score = u.score(want);
                    if best.is_none_or(|(s, _)| score > s) {
                        best = Some((score, name));
                    }
                }
            }
        }
        match best {
            Some((_, name)) => Ok(name.to_string()),
            None => Err(fit_error(usage.len(), &reasons)),
        }
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
                    u.alloc = fresh.alloc;
                    u.alloc_pods = fresh.alloc_pods;
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
        // A scenario without nodes is the demo's older, simpler world: pods run where
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
                Ok(node) => {
                    self.client.spend(1);
                    if api.bind(&name, &node, now).is_ok() {
                        if let Some(u) = usage.get_mut(&node) {
                            u.add(requests(pod.unfilled("spec").unwrap_or(&Value::Null)));
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

fn terminal(p: &Stored) -> bool {
    matches!(p.pod_phase(), Some("Succeeded" | "Failed"))
}

/// What a pod adds to its node's usage: its requests, while it is bound and not finished
/// (a terminating pod still holds its room).
fn contribution(p: &Stored) -> Option<(&str, Requests)> {
    if terminal(p) {
        return None;
    }
    let node = p.pod_node()?;
    Some((node, requests(p.unfilled("spec").unwrap_or(&Value::Null))))
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
