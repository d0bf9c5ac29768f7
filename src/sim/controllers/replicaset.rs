//! The ReplicaSet controller (k8s-semantics C1-C7): claims pods, keeps the active count at
//! `spec.replicas` with expectations and slow-start batches, and reports status.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::directive::Trigger;
use crate::sim::informer::{Delta, Informer, RunState};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

use super::pods::{deletion_order, is_active};

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
/// without copying them. Only its own pods and ownerless ones can be claimed, so only
/// those are visited (in name order, as a full scan would meet them).
fn claim<'a>(informer: &'a Informer, api: &mut ApiServer, rs: &Value) -> Vec<&'a Stored> {
    let uid = obj::uid(rs);
    let selector = &rs["spec"]["selector"];
    // Pods of one ReplicaSet share one labels map (see LabelSets): each distinct one is
    // checked once.
    let mut seen = LabelMemo::default();
    let mut owned = Vec::new();
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
            Some(u) if u == uid => {
                // Labels no longer match: release it.
                let _ = api.update_metadata_shared(Kind::Pod, pod.name(), |p| {
                    obj::remove(p, &["metadata", "ownerReferences"]);
                });
            }
            None if matches && !pod.facts().deleting => {
                let r = obj::owner_ref(rs, "ReplicaSet");
                if api
                    .update_metadata_shared(Kind::Pod, pod.name(), |p| {
                        obj::set(p, &["metadata", "ownerReferences"], json!([r]));
                    })
                    .is_ok()
                {
                    owned.push(pod);
                }
            }
            _ => {}
        }
    }
    owned
}

/// Answers about label sets, by the shared copy's address: a sync sees a handful.
#[derive(Default)]
struct LabelMemo(Vec<(*const Value, bool)>);

impl LabelMemo {
    fn check(&mut self, labels: &Arc<Value>, f: impl FnOnce(&Value) -> bool) -> bool {
        let at = Arc::as_ptr(labels);
        if let Some((_, answer)) = self.0.iter().find(|(p, _)| *p == at) {
            return *answer;
        }
        let answer = f(labels);
        self.0.push((at, answer));
        answer
    }
}

/// C2: the status the claimed pods add up to.
fn status_for(rs: &Value, pods: &[&Stored], now: u64) -> Value {
    let active: Vec<&Stored> = pods.iter().copied().filter(|p| p.pod().active).collect();
    status_of_active(rs, &active, now)
}

/// [`status_for`] from the claimed pods that are active.
fn status_of_active(rs: &Value, active: &[&Stored], now: u64) -> Value {
    let min_ready = obj::int(rs, &["spec", "minReadySeconds"]).unwrap_or(0);
    let template_labels = &rs["spec"]["template"]["metadata"]["labels"];
    let mut seen = LabelMemo::default();
    let fully = active
        .iter()
        .filter(|p| {
            seen.check(&p.facts().labels, |labels| {
                template_labels
                    .as_object()
                    .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)))
            })
        })
        .count();
    let now_unix = sim_unix(now);
    let ready = active.iter().filter(|p| p.pod().ready).count();
    // Available is Ready for minReadySeconds (H3): with none, every Ready pod.
    let available = active
        .iter()
        .filter(|p| p.pod().available(min_ready, now_unix))
        .count();
    let mut status = json!({
        "observedGeneration": obj::int(rs, &["metadata", "generation"]).unwrap_or(1),
        "replicas": active.len(),
    });
    // The API omits zero counts (omitempty); only `replicas` is always there.
    if fully > 0 {
        status["fullyLabeledReplicas"] = json!(fully);
    }
    if ready > 0 {
        status["readyReplicas"] = json!(ready);
    }
    if available > 0 {
        status["availableReplicas"] = json!(available);
    }
    status
}

/// Writes status only when something changed.
fn write_status(api: &mut ApiServer, rs: &Value, status: Value) {
    if rs.get("status") != Some(&status) {
        let _ = api.update_status_with(Kind::ReplicaSet, obj::name(rs), |next| {
            next["status"] = status;
        });
    }
}

pub struct ReplicaSetController {
    pub informer: Informer,
    expectations: HashMap<String, Expectation>,
    /// Pods this controller created, for the demo's counters.
    pub created: u64,
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
            expectations: HashMap::new(),
            created: 0,
        }
    }

    fn rs_by_uid(&self, uid: &str) -> Option<String> {
        self.informer
            .name_by_uid(Kind::ReplicaSet, uid)
            .map(str::to_string)
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
                let was_deleting = d.old.as_ref().is_some_and(|o| o.facts().deleting);
                let e = self.expectations.entry(rs.clone()).or_default();
                match d.event {
                    EventType::Added => e.adds -= 1,
                    EventType::Deleted if !was_deleting => e.dels -= 1,
                    EventType::Modified if d.object.facts().deleting && !was_deleting => {
                        e.dels -= 1
                    }
                    _ => {}
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

    pub fn crash(&mut self) {
        self.informer.crash();
        self.expectations.clear();
    }

    /// Runs the workers until the queue is empty. Returns how many items were processed.
    pub fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        if self.informer.state != RunState::Running {
            return 0;
        }
        let mut n = 0;
        match self.informer.trigger {
            Trigger::Level => {
                while let Some(key) = self.informer.pop() {
                    self.sync(api, &key, now);
                    n += 1;
                }
            }
            Trigger::Edge => {
                while let Some(d) = self.informer.deltas.pop_front() {
                    self.edge(api, &d, now);
                    n += 1;
                }
            }
        }
        n
    }

    fn satisfied(&self, rs: &str, now: u64) -> bool {
        self.expectations
            .get(rs)
            .is_none_or(|e| (e.adds <= 0 && e.dels <= 0) || now >= e.set_at + EXPECTATION_TTL)
    }

    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) {
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
            write_status(api, &rs, status);
            return;
        }
        let want = obj::int(&rs, &["spec", "replicas"]).unwrap_or(1);
        let satisfied = self.satisfied(name, now);
        // Read everything from the cache first; act after.
        let (status, create, victims, recheck) = {
            let pods = claim(&self.informer, api, &rs);
            let active: Vec<&Stored> = pods.iter().copied().filter(|p| p.pod().active).collect();
            let diff = active.len() as i64 - want;
            let mut victims = Vec::new();
            if satisfied && diff > 0 {
                // The C5 ranking, each pod's key computed once; only the first `diff`
                // need ordering.
                let mut ranked: Vec<_> = active
                    .iter()
                    .map(|p| (p.pod().deletion_key(p.uid()), *p))
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
            self.create_pods(api, &rs, create, now);
        }
        if !victims.is_empty() {
            self.delete_pods(api, &rs, &victims, now);
        }
        write_status(api, &rs, status);
    }

    fn create_pods(&mut self, api: &mut ApiServer, rs: &Value, n: i64, now: u64) {
        let name = obj::name(rs).to_string();
        self.expectations.insert(
            name.clone(),
            Expectation {
                adds: n,
                dels: 0,
                set_at: now,
            },
        );
        let template = &rs["spec"]["template"];
        for batch in slow_start_batches(n) {
            for _ in 0..batch {
                let mut pod = json!({
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {
                        "generateName": format!("{name}-"),
                        "labels": template["metadata"]["labels"].clone(),
                        "ownerReferences": [obj::owner_ref(rs, "ReplicaSet")],
                    },
                    "spec": template["spec"].clone(),
                });
                if let Some(a) = template["metadata"].get("annotations") {
                    pod["metadata"]["annotations"] = a.clone();
                }
                if let Ok(p) = api.create_shared(Kind::Pod, pod, now) {
                    self.created += 1;
                    let msg = format!("Created pod: {}", p.name());
                    api.record_event(
                        rs,
                        Kind::ReplicaSet,
                        Note {
                            type_: "Normal",
                            reason: "SuccessfulCreate",
                            message: &msg,
                            component: COMPONENT,
                        },
                        now,
                    );
                }
            }
        }
    }

    fn delete_pods(&mut self, api: &mut ApiServer, rs: &Value, victims: &[String], now: u64) {
        let name = obj::name(rs).to_string();
        self.expectations.insert(
            name,
            Expectation {
                adds: 0,
                dels: victims.len() as i64,
                set_at: now,
            },
        );
        for v in victims {
            if api.delete_shared(Kind::Pod, v, None, now).is_ok() {
                let msg = format!("Deleted pod: {v}");
                api.record_event(
                    rs,
                    Kind::ReplicaSet,
                    Note {
                        type_: "Normal",
                        reason: "SuccessfulDelete",
                        message: &msg,
                        component: COMPONENT,
                    },
                    now,
                );
            }
        }
    }

    /// The edge-triggered teaching variant: acts only on what each event changed. A pod
    /// deletion creates one pod; a new ReplicaSet creates its replicas; a replica change
    /// creates or deletes the difference. Nothing else, so a lost event is never made good.
    fn edge(&mut self, api: &mut ApiServer, d: &Delta, now: u64) {
        match d.kind {
            Kind::ReplicaSet
                if d.event == EventType::Added
                    && d.object["status"].get("observedGeneration").is_none() =>
            {
                let n = obj::int(&d.object, &["spec", "replicas"]).unwrap_or(1);
                self.create_pods(api, &d.object, n, now);
            }
            Kind::ReplicaSet if d.event == EventType::Modified => {
                let new = obj::int(&d.object, &["spec", "replicas"]).unwrap_or(1);
                let old = d
                    .old
                    .as_ref()
                    .and_then(|o| obj::int(o, &["spec", "replicas"]))
                    .unwrap_or(new);
                if new > old {
                    self.create_pods(api, &d.object, new - old, now);
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
                    self.delete_pods(api, &rs, &names, now);
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
                    self.create_pods(api, &rs, 1, now);
                }
            }
            _ => {}
        }
        // Status is still reported from the cache, so the learner sees the shortfall.
        let names: Vec<String> = match d.kind {
            Kind::ReplicaSet => vec![obj::name(&d.object).to_string()],
            _ => obj::controller_uid(&d.object)
                .and_then(|u| self.rs_by_uid(u))
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
                write_status(api, &rs, status);
            }
        }
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
