//! The ReplicaSet controller (k8s-semantics C1-C7): claims pods, keeps the active count at
//! `spec.replicas` with expectations and slow-start batches, and reports status.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Value, json};

mod status;

use status::{
    LabelMemo, backoff_seconds, status_for, status_for_failure, status_of_active, with_failure,
    write_status,
};

use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Trigger;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;

use super::controller::Controller;
use super::pods::{deletion_order, is_active};
use crate::sim::directive::Component;
use crate::sim::{HashMap, HashSet};

pub const WATCHES: &[Kind] = &[Kind::ReplicaSet, Kind::Pod];
pub const COMPONENT: &str = "replicaset-controller";
/// C3: at most this many creates or deletes per sync.
const BURST: i64 = 500;
/// C6: expectations expire after five minutes.
const EXPECTATION_TTL: u64 = 300;

#[derive(Default, Clone, Copy)]
struct Expectation {
    adds: i64,
    dels: i64,
    set_at: u64,
}

/// Active pods per node (`""` for none) of every ReplicaSet that shares `rs`'s controller
/// owner, or of `rs` alone when it has none.
fn related_on_nodes(informer: &Informer, rs: &Value) -> HashMap<String, usize> {
    let owner = obj::controller_uid(rs);
    let siblings: Vec<String> = match owner {
        Some(o) => informer
            .owned_by(Kind::ReplicaSet, o)
            .map(|r| r.uid().to_string())
            .collect(),
        None => vec![obj::uid(rs).to_string()],
    };
    let mut counts: HashMap<String, usize> = HashMap::default();
    for uid in &siblings {
        for p in informer.owned_by(Kind::Pod, uid) {
            if p.pod().active {
                *counts
                    .entry(p.pod_node().unwrap_or("").to_string())
                    .or_default() += 1;
            }
        }
    }
    counts
}

/// Two name-ordered lists merged into one (names are unique across them).
fn merged<'a>(
    a: impl Iterator<Item = &'a Arc<Stored>>,
    b: impl Iterator<Item = &'a Arc<Stored>>,
) -> Vec<&'a Stored> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    let mut out = Vec::new();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.name() <= y.name() => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(o) => out.push(&**o),
            None => return out,
        }
    }
}

/// Pods owned by the ReplicaSet after adoption and release (C1), read from the cache
/// without copying them, and the writes that adoption and release take. Only its own pods
/// and ownerless ones can be claimed, so only those are visited (in name order, as a full
/// scan would meet them).
fn claim<'a>(informer: &'a Informer, rs: &Value) -> (Vec<&'a Stored>, Vec<Op>) {
    let uid = obj::uid(rs);
    let selector = &rs["spec"]["selector"];
    // Pods of one ReplicaSet share one labels map (see LabelSets): each distinct one is
    // checked once.
    let mut seen = LabelMemo::default();
    let mut owned = Vec::new();
    let mut writes = Vec::new();
    let candidates = merged(
        informer.owned_by(Kind::Pod, uid),
        informer.orphans(Kind::Pod),
    );
    for pod in candidates {
        let matches = seen.check(&pod.facts().labels, |l| {
            obj::selector_matches_labels(selector, l)
        });
        match pod.controller_uid() {
            Some(u) if u == uid && matches => owned.push(pod),
            // Labels no longer match: release it.
            Some(u) if u == uid => writes.push(Op::Release(pod.name().to_string())),
            None if matches && !pod.facts().deleting => {
                owned.push(pod);
                writes.push(Op::Adopt(pod.name().to_string()));
            }
            _ => {}
        }
    }
    (owned, writes)
}

/// One request a sync still has to make. A real worker makes them in this order (adoption
/// and release, then the slow-start batches or the concurrent deletes, then status), each
/// waiting in the client's rate limiter; the demo keeps the ones still waiting.
#[derive(Debug, Clone, PartialEq)]
enum Op {
    Adopt(String),
    Release(String),
    /// A pod from the template, in slow-start batch N.
    Create(usize),
    Delete(String),
    Status(Value),
}

/// A sync whose requests are not all made yet: its ReplicaSet key stays processing, so
/// changes to it wait for the sync to end (the work queue's dirty set), as in client-go.
#[derive(Clone)]
struct Busy {
    key: String,
    /// The ReplicaSet as the sync read it: its template and owner reference are used.
    rs: Arc<Stored>,
    ops: VecDeque<Op>,
    /// Whether a create of this sync failed: the sync returns an error.
    failed: bool,
}

/// `--concurrent-replicaset-syncs`: ReplicaSets synced at once.
pub const WORKERS: usize = 5;

#[derive(Clone)]
pub struct ReplicaSetController {
    pub informer: Informer,
    /// kube-controller-manager's client for this controller.
    pub client: RateLimit,
    expectations: HashMap<String, Expectation>,
    busy: Vec<Busy>,
    dirty: HashSet<String>,
    /// The busy sync whose request goes next: workers take turns at the rate limiter.
    turn: usize,
    /// Pods this controller created, for the demo's counters.
    pub created: u64,
    /// Failed syncs of each key since its last good one (the rate limiter's memory).
    failures: HashMap<String, u32>,
}

/// C3 slow start: batches of 1, 2, 4, ... adding up to `n`.
pub fn slow_start_batches(n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let (mut left, mut size) = (n, 1);
    while left > 0 {
        let b = size.min(left);
        out.push(b);
        left -= b;
        size *= 2;
    }
    out
}

impl ReplicaSetController {
    pub fn new(resync: u64) -> Self {
        ReplicaSetController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            expectations: HashMap::default(),
            busy: Vec::new(),
            dirty: HashSet::default(),
            turn: 0,
            created: 0,
            failures: HashMap::default(),
        }
    }

    /// The name of the cached ReplicaSet with this uid (a shared string, not a copy).
    fn rs_by_uid(&self, uid: &str) -> Option<Arc<str>> {
        self.informer.name_by_uid(Kind::ReplicaSet, uid).cloned()
    }

    /// Requests waiting for the rate limiter.
    pub fn waiting(&self) -> usize {
        self.busy.iter().map(|b| b.ops.len()).sum()
    }

    /// Event handlers: map each delta to the ReplicaSet keys it concerns, and observe
    /// the controller's own creates and deletes for its expectations.
    pub fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            let owner = match d.kind {
                Kind::Pod => d.object.controller_uid().and_then(|u| self.rs_by_uid(u)),
                _ => None,
            };
            // Expectations follow the controller's own writes in either mode.
            if let Some(rs) = &owner {
                let (adds, dels) = super::controller::observed(&d);
                if adds + dels > 0 {
                    let e = match self.expectations.get_mut(&**rs) {
                        Some(e) => e,
                        None => self.expectations.entry(rs.to_string()).or_default(),
                    };
                    e.adds -= adds;
                    e.dels -= dels;
                }
            }
            if self.informer.trigger == Trigger::Edge {
                self.informer.deltas.push_back(d);
                continue;
            }
            match d.kind {
                Kind::ReplicaSet => self.informer.enqueue(obj::name(&d.object)),
                Kind::Pod => {
                    match &owner {
                        Some(rs) => self.informer.enqueue(rs),
                        None => {
                            // An orphan (or a released pod): every ReplicaSet that could adopt it.
                            let matching: Vec<String> = self
                                .informer
                                .list(Kind::ReplicaSet)
                                .into_iter()
                                .filter(|r| {
                                    obj::selector_matches(&r["spec"]["selector"], &d.object)
                                })
                                .map(|r| obj::name(r).to_string())
                                .collect();
                            for m in matching {
                                self.informer.enqueue(&m);
                            }
                        }
                    }
                    // A pod released from an owner also wakes the old owner.
                    if let Some(old_owner) = d
                        .old
                        .as_ref()
                        .and_then(|o| o.controller_uid())
                        .and_then(|u| self.rs_by_uid(u))
                        && Some(&old_owner) != owner.as_ref()
                    {
                        self.informer.enqueue(&old_owner);
                    }
                }
                _ => {}
            }
        }
    }

    /// Resync: every cached ReplicaSet is queued again (edge mode sees no change in it).
    pub fn resync(&mut self) {
        if self.informer.trigger == Trigger::Level {
            let names: Vec<String> = self
                .informer
                .list(Kind::ReplicaSet)
                .iter()
                .map(|r| obj::name(r).to_string())
                .collect();
            for n in names {
                self.informer.enqueue(&n);
            }
        }
    }

    /// The process dies: syncs waiting for the rate limiter never make their remaining
    /// requests.
    pub fn crash(&mut self) {
        self.informer.crash();
        self.expectations.clear();
        self.busy.clear();
        self.dirty.clear();
        // A new process starts with a new rate limiter.
        self.failures.clear();
    }

    /// Runs the workers while the rate limiter lets them: first the requests of syncs
    /// already under way, then new keys (or, edge-triggered, deltas). Returns how many
    /// requests and syncs were made.
    pub fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        if self.informer.state != RunState::Running {
            return 0;
        }
        let mut n = self.pump(api, now);
        while self.client.ready() {
            match self.informer.trigger {
                Trigger::Level => {
                    if self.busy.len() >= WORKERS {
                        break;
                    }
                    let Some(key) = self.next_idle_key() else {
                        break;
                    };
                    self.sync(&key, now);
                }
                Trigger::Edge => {
                    let Some(d) = self.informer.deltas.pop_front() else {
                        break;
                    };
                    self.edge(api, &d, now);
                }
            }
            n += 1 + self.pump(api, now);
        }
        n
    }

    /// The next queued key no worker holds; a held one is marked dirty instead.
    fn next_idle_key(&mut self) -> Option<String> {
        while let Some(k) = self.informer.pop() {
            if self.busy.iter().any(|b| b.key == k) {
                self.dirty.insert(k);
            } else {
                return Some(k);
            }
        }
        None
    }

    /// Makes waiting requests, the busy syncs taking turns, until the limiter says wait.
    fn pump(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while self.client.ready() && !self.busy.is_empty() {
            let i = self.turn % self.busy.len();
            if let Some(op) = self.busy[i].ops.pop_front() {
                let before = api.resource_version();
                let rs = Arc::clone(&self.busy[i].rs);
                let (dropped, error) = self.request(api, &rs, op, now);
                if dropped > 0 {
                    // C3: a failed create skips the later batches, and expects them no more.
                    let busy = &mut self.busy[i];
                    busy.failed = true;
                    // The status this sync writes carries the failure.
                    let planned = busy.ops.iter().position(|o| matches!(o, Op::Status(_)));
                    let status = match planned.and_then(|p| busy.ops.remove(p)) {
                        Some(Op::Status(s)) => s,
                        _ => status_for_failure(&busy.rs),
                    };
                    let status = with_failure(busy.rs.value(), status, &error, now);
                    if let Some(op) = status_op(busy.rs.value(), status) {
                        busy.ops.push_back(op);
                    }
                    let before_len = busy.ops.len();
                    busy.ops
                        .retain(|o| !matches!(o, Op::Create(b) if *b >= dropped));
                    let skipped = (before_len - busy.ops.len()) as i64;
                    if let Some(e) = self.expectations.get_mut(&busy.key) {
                        e.adds -= skipped;
                    }
                }
                // A request costs a token even when it fails.
                self.client.spend((api.resource_version() - before).max(1));
                n += 1;
            }
            if self.busy[i].ops.is_empty() {
                let done = self.busy.remove(i);
                if done.failed {
                    // The sync returned its error: AddRateLimited.
                    let n = self.failures.entry(done.key.clone()).or_insert(0);
                    self.informer
                        .enqueue_after(&done.key, now + backoff_seconds(*n));
                    *n += 1;
                } else {
                    self.failures.remove(&done.key);
                }
                if self.dirty.remove(&done.key) {
                    self.informer.enqueue(&done.key);
                }
            } else {
                self.turn = i + 1;
            }
        }
        n
    }

    /// Makes one request. Returns, for a create that failed, its batch number plus one
    /// and the error.
    fn request(
        &mut self,
        api: &mut ApiServer,
        stored: &Stored,
        op: Op,
        now: u64,
    ) -> (usize, String) {
        let rs = stored.value();
        let uid = stored.uid();
        match op {
            Op::Adopt(pod) => {
                // The patch carries the pod's uid as a precondition; a pod another
                // controller took meanwhile is left alone.
                let free = api
                    .get_shared(Kind::Pod, &pod)
                    .is_ok_and(|p| p.controller_uid().is_none() && !p.facts().deleting);
                if free {
                    let r = obj::owner_ref(rs, "ReplicaSet");
                    let _ = api.update_metadata_shared(Kind::Pod, &pod, |p| {
                        obj::set(p, &["metadata", "ownerReferences"], json!([r]));
                    });
                }
            }
            Op::Release(pod) => {
                let ours = api
                    .get_shared(Kind::Pod, &pod)
                    .is_ok_and(|p| p.controller_uid() == Some(uid));
                if ours {
                    let _ = api.update_metadata_shared(Kind::Pod, &pod, |p| {
                        obj::remove(p, &["metadata", "ownerReferences"]);
                    });
                }
            }
            Op::Create(batch) => {
                if let Err(e) = self.create_pod(api, stored, now) {
                    if let Some(e) = self.expectations.get_mut(obj::name(rs)) {
                        e.adds -= 1;
                    }
                    return (batch + 1, e);
                }
            }
            Op::Delete(pod) => self.delete_pod(api, stored, &pod, now),
            Op::Status(status) => write_status(api, rs, status),
        }
        (0, String::new())
    }

    /// Queues a sync's requests; with none, it ends at once.
    fn start(&mut self, key: &str, rs: &Arc<Stored>, ops: Vec<Op>) {
        if ops.is_empty() {
            return;
        }
        match self.busy.iter_mut().find(|b| b.key == key) {
            // Edge-triggered handling adds to what is still waiting, from the newer read.
            Some(b) => {
                b.ops.extend(ops);
                b.rs = Arc::clone(rs);
            }
            None => self.busy.push(Busy {
                key: key.to_string(),
                rs: Arc::clone(rs),
                ops: ops.into(),
                failed: false,
            }),
        }
    }

    fn satisfied(&self, rs: &str, now: u64) -> bool {
        self.expectations
            .get(rs)
            .is_none_or(|e| (e.adds <= 0 && e.dels <= 0) || now >= e.set_at + EXPECTATION_TTL)
    }

    fn sync(&mut self, name: &str, now: u64) {
        let Some(rs) = self.informer.get_shared(Kind::ReplicaSet, name).cloned() else {
            self.expectations.remove(name);
            return;
        };
        if obj::is_deleting(&rs) {
            // A ReplicaSet being deleted (say in the foreground) neither creates nor
            // deletes pods, but still reports the ones it owns as they go.
            let uid = obj::uid(&rs);
            let status = {
                let owned: Vec<&Stored> = self
                    .informer
                    .owned_by(Kind::Pod, uid)
                    .map(|p| &**p)
                    .collect();
                status_for(&rs, &owned, now)
            };
            let ops = status_op(&rs, status).into_iter().collect();
            self.start(name, &rs, ops);
            return;
        }
        let want = obj::int(&rs, &["spec", "replicas"]).unwrap_or(1);
        let satisfied = self.satisfied(name, now);
        // Read everything from the cache first; the requests follow.
        let (mut ops, status, create, victims, recheck) = {
            let (pods, claims) = claim(&self.informer, &rs);
            let active: Vec<&Stored> = pods.iter().copied().filter(|p| p.pod().active).collect();
            let diff = active.len() as i64 - want;
            let mut victims = Vec::new();
            if satisfied && diff > 0 {
                // The C5 ranking, each pod's key computed once; only the first `diff`
                // need ordering.
                // Rule 5 counts the active pods of every ReplicaSet of the same
                // Deployment on each node (getPodsRankedByRelatedPodsOnSameNode).
                let on_node = related_on_nodes(&self.informer, &rs);
                let mut ranked: Vec<_> = active
                    .iter()
                    .map(|p| {
                        let node = p.pod_node();
                        let doubled = on_node.get(node.unwrap_or("")).copied().unwrap_or(0);
                        (p.pod().deletion_key(p.uid(), node.is_some(), doubled), *p)
                    })
                    .collect();
                let k = diff.min(BURST) as usize;
                if k < ranked.len() {
                    ranked.select_nth_unstable_by(k, |a, b| a.0.cmp(&b.0));
                    ranked.truncate(k);
                }
                ranked.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                victims = ranked.iter().map(|(_, p)| p.name().to_string()).collect();
            }
            let create = if satisfied && diff < 0 {
                (-diff).min(BURST)
            } else {
                0
            };
            let recheck = super::claim::available_check_at(&rs, &pods, now);
            (
                claims,
                status_of_active(&rs, &active, now),
                create,
                victims,
                recheck,
            )
        };
        if let Some(at) = recheck {
            self.informer.enqueue_after(name, at);
        }
        if create > 0 {
            ops.extend(self.plan_creates(name, create, now));
        }
        if !victims.is_empty() {
            ops.extend(self.plan_deletes(name, victims, now));
        }
        // The status the sync computed from the pods it started with, written last.
        ops.extend(status_op(&rs, status));
        self.start(name, &rs, ops);
    }

    /// C3/C6: expect `n` creations, made in slow-start batches.
    fn plan_creates(&mut self, rs: &str, n: i64, now: u64) -> Vec<Op> {
        self.expectations.insert(
            rs.to_string(),
            Expectation {
                adds: n,
                dels: 0,
                set_at: now,
            },
        );
        slow_start_batches(n)
            .into_iter()
            .enumerate()
            .flat_map(|(i, b)| std::iter::repeat_n(Op::Create(i), b as usize))
            .collect()
    }

    /// C6: expect the victims' deletions, all requested at once.
    fn plan_deletes(&mut self, rs: &str, victims: Vec<String>, now: u64) -> Vec<Op> {
        self.expectations.insert(
            rs.to_string(),
            Expectation {
                adds: 0,
                dels: victims.len() as i64,
                set_at: now,
            },
        );
        victims.into_iter().map(Op::Delete).collect()
    }

    /// Creates one pod from the template; the API's error if it refused (recorded as
    /// RealPodControl records it: `FailedCreate`, `Error creating: ...`).
    fn create_pod(&mut self, api: &mut ApiServer, stored: &Stored, now: u64) -> Result<(), String> {
        // GetPodFromTemplate: the template's labels, annotations and finalizers, and
        // the ReplicaSet as controller owner. Made once per ReplicaSet spec.
        let meta = || {
            let name = stored.name();
            let template = &stored.value()["spec"]["template"]["metadata"];
            let mut meta = obj::object([
                ("generateName", Value::String(format!("{name}-"))),
                ("labels", template["labels"].clone()),
                (
                    "ownerReferences",
                    Value::Array(vec![obj::owner_ref_to(name, stored.uid(), "ReplicaSet")]),
                ),
            ]);
            for key in ["annotations", "finalizers"] {
                if let Some(v) = template.get(key) {
                    meta[key] = v.clone();
                }
            }
            meta
        };
        let created = match stored.field_shared("spec") {
            Some(spec) => api.create_pod_from(spec, meta, now),
            None => {
                let pod = obj::object([
                    ("apiVersion", Value::from("v1")),
                    ("kind", Value::from("Pod")),
                    ("metadata", meta()),
                    ("spec", stored.value()["spec"]["template"]["spec"].clone()),
                ]);
                api.create_shared(Kind::Pod, pod, now)
            }
        };
        let p = match created {
            Ok(p) => p,
            Err(e) => {
                let msg = format!("Error creating: {}", e.message);
                api.record_event(
                    stored,
                    Kind::ReplicaSet,
                    Note::about("Warning", "FailedCreate", &msg, COMPONENT),
                    now,
                );
                return Err(e.message);
            }
        };
        self.created += 1;
        let msg = format!("Created pod: {}", p.name());
        api.record_event(
            stored,
            Kind::ReplicaSet,
            Note {
                type_: "Normal",
                reason: "SuccessfulCreate",
                message: &msg,
                component: COMPONENT,
                field_path: None,
            },
            now,
        );
        Ok(())
    }

    fn delete_pod(&mut self, api: &mut ApiServer, rs: &Stored, victim: &str, now: u64) {
        if api.delete_shared(Kind::Pod, victim, None, now).is_ok() {
            let msg = format!("Deleted pod: {victim}");
            api.record_event(
                rs,
                Kind::ReplicaSet,
                Note {
                    type_: "Normal",
                    reason: "SuccessfulDelete",
                    message: &msg,
                    component: COMPONENT,
                    field_path: None,
                },
                now,
            );
        }
    }

    /// The edge-triggered teaching variant: acts only on what each event changed. A pod
    /// deletion creates one pod; a new ReplicaSet creates its replicas; a replica change
    /// creates or deletes the difference. Nothing else, so a lost event is never made good.
    fn edge(&mut self, api: &mut ApiServer, d: &Delta, now: u64) {
        let name = obj::name(&d.object).to_string();
        match d.kind {
            Kind::ReplicaSet
                if d.event == EventType::Added
                    && d.object["status"].get("observedGeneration").is_none() =>
            {
                let n = obj::int(&d.object, &["spec", "replicas"]).unwrap_or(1);
                let ops = self.plan_creates(&name, n, now);
                self.start(&name, &d.object, ops);
            }
            Kind::ReplicaSet if d.event == EventType::Modified => {
                let new = obj::int(&d.object, &["spec", "replicas"]).unwrap_or(1);
                let old = d
                    .old
                    .as_ref()
                    .and_then(|o| obj::int(o, &["spec", "replicas"]))
                    .unwrap_or(new);
                if new > old {
                    let ops = self.plan_creates(&name, new - old, now);
                    self.start(&name, &d.object, ops);
                } else if new < old {
                    let rs = d.object.clone();
                    let mut victims: Vec<Value> = self
                        .informer
                        .list(Kind::Pod)
                        .into_iter()
                        .filter(|p| obj::controller_uid(p) == Some(obj::uid(&rs)) && is_active(p))
                        .cloned()
                        .collect();
                    victims.sort_by(deletion_order);
                    let names: Vec<String> = victims
                        .iter()
                        .take((old - new) as usize)
                        .map(|p| obj::name(p).to_string())
                        .collect();
                    let ops = self.plan_deletes(&name, names, now);
                    self.start(&name, &rs, ops);
                }
            }
            Kind::Pod => {
                let newly_deleting = match d.event {
                    EventType::Modified => {
                        obj::is_deleting(&d.object)
                            && !d.old.as_ref().is_some_and(|o| obj::is_deleting(o))
                    }
                    EventType::Deleted => d.old.as_ref().is_some_and(|o| !obj::is_deleting(o)),
                    EventType::Added => false,
                };
                let owner = obj::controller_uid(&d.object).and_then(|u| self.rs_by_uid(u));
                if let (true, Some(rs_name)) = (newly_deleting, owner)
                    && let Some(rs) = self
                        .informer
                        .get_shared(Kind::ReplicaSet, &rs_name)
                        .cloned()
                {
                    let ops = self.plan_creates(&rs_name, 1, now);
                    self.start(&rs_name, &rs, ops);
                }
            }
            _ => {}
        }
        // Status is still reported from the cache, so the learner sees the shortfall.
        let names: Vec<String> = match d.kind {
            Kind::ReplicaSet => vec![name],
            _ => obj::controller_uid(&d.object)
                .and_then(|u| self.rs_by_uid(u))
                .map(|n| n.to_string())
                .into_iter()
                .collect(),
        };
        for n in names {
            if let Some(rs) = self.informer.get_shared(Kind::ReplicaSet, &n).cloned() {
                let pods: Vec<&Stored> = self
                    .informer
                    .owned_by(Kind::Pod, obj::uid(&rs))
                    .map(|p| &**p)
                    .collect();
                let status = status_for(&rs, &pods, now);
                if let Some(Op::Status(status)) = status_op(&rs, status) {
                    let before = api.resource_version();
                    write_status(api, &rs, status);
                    self.client.spend(api.resource_version() - before);
                }
            }
        }
    }
}

/// The status write a sync ends with, if the status changed: the one place it is compared.
fn status_op(rs: &Value, status: Value) -> Option<Op> {
    (rs.get("status") != Some(&status)).then_some(Op::Status(status))
}

impl Controller for ReplicaSetController {
    super::controller::controller_basics!(ReplicaSetController, Component::ReplicaSet);
    fn resync(&mut self) {
        ReplicaSetController::resync(self);
    }
    fn crash(&mut self) {
        ReplicaSetController::crash(self);
    }
    fn waiting(&self) -> usize {
        ReplicaSetController::waiting(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_doubles() {
        assert_eq!(slow_start_batches(1), [1]);
        assert_eq!(slow_start_batches(7), [1, 2, 4]);
        assert_eq!(slow_start_batches(10), [1, 2, 4, 3]);
        assert!(slow_start_batches(0).is_empty());
    }
}
