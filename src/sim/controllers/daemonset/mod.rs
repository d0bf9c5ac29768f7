//! The DaemonSet controller (kube-controller-manager's `pkg/controller/daemon`, 1.32): one
//! pod on every node the template admits (node selector, required node affinity, and the
//! node's taints against the template's tolerations plus the ones the controller adds),
//! each pinned to its node by node affinity and placed by the scheduler; pods follow nodes
//! as they join, are relabelled or tainted; rolling updates by maxUnavailable or maxSurge
//! (`update.rs`); the template's history as ControllerRevisions.
//!
//! Go walks maps of nodes and pods in random order; the demo goes by node name.

mod update;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::kinds::daemonset::template_generation;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

use super::claim::claim_pods;
use super::hash::pod_template_hash;
use super::history;
use super::replicaset::slow_start_batches;
use super::scheduler::PodTerms;

pub const WATCHES: &[Kind] = &[
    Kind::DaemonSet,
    Kind::Pod,
    Kind::Node,
    Kind::ControllerRevision,
];
/// The source of its events.
pub const COMPONENT: &str = "daemonset-controller";
/// `controller-revision-hash`: the template hash on each pod and revision.
pub const HASH_LABEL: &str = "controller-revision-hash";
/// `pod-template-generation`: the template generation each pod was made from.
pub const GENERATION_LABEL: &str = "pod-template-generation";
/// The controller's `burstReplicas`: at most this many creates or deletes per sync.
const BURST: usize = 250;

/// The tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations), with no
/// tolerationSeconds: a daemon pod stays on a node that is not ready or unreachable.
fn daemon_tolerations(host_network: bool) -> Vec<Value> {
    let mut t: Vec<Value> = [
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ]
    .iter()
    .map(|(k, e)| json!({"key": k, "operator": "Exists", "effect": e}))
    .collect();
    if host_network {
        t.push(json!({"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}));
    }
    t
}

/// AddOrUpdateTolerationInPodSpec for each daemon toleration: one with the same key,
/// effect, operator and value is replaced, otherwise it is appended.
fn add_tolerations(spec: &mut Value) {
    let host_network = spec["hostNetwork"] == true;
    let mut list = spec["tolerations"].as_array().cloned().unwrap_or_default();
    for t in daemon_tolerations(host_network) {
        let same = |x: &Value| {
            ["key", "effect", "operator", "value"]
                .iter()
                .all(|f| x[*f].as_str().unwrap_or("") == t[*f].as_str().unwrap_or(""))
        };
        let mut found = false;
        for x in list.iter_mut().filter(|x| same(x)) {
            *x = t.clone();
            found = true;
        }
        if !found {
            list.push(t);
        }
    }
    spec["tolerations"] = Value::Array(list);
}

/// NodeShouldRunDaemonPod: whether a pod should run on `node`, and whether one already
/// there may keep running (only an untolerated NoExecute taint, or the selectors, say no).
pub fn should_run(ds: &Value, node: &Value) -> (bool, bool) {
    let mut spec = ds["spec"]["template"]["spec"].clone();
    let name = obj::name(node);
    if spec["nodeName"]
        .as_str()
        .is_some_and(|n| !n.is_empty() && n != name)
    {
        return (false, false);
    }
    add_tolerations(&mut spec);
    let labels = &node["metadata"]["labels"];
    if !PodTerms::of(&spec).admits(labels, name) {
        return (false, false);
    }
    let tolerations = crate::sim::taints::of_pod(&spec);
    let untolerated = |effects: &[&str]| {
        crate::sim::taints::of_node(node).iter().any(|t| {
            effects.contains(&t["effect"].as_str().unwrap_or(""))
                && !crate::sim::taints::tolerates(tolerations, t)
        })
    };
    if untolerated(&["NoSchedule", "NoExecute"]) {
        return (false, !untolerated(&["NoExecute"]));
    }
    (true, true)
}

/// GetTargetNodeName: the pod's node, or the one its node affinity pins it to.
pub fn target_node(pod: &Value) -> Option<&str> {
    if let Some(n) = pod["spec"]["nodeName"].as_str().filter(|n| !n.is_empty()) {
        return Some(n);
    }
    pod.pointer("/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms")?
        .as_array()?
        .iter()
        .flat_map(|t| t["matchFields"].as_array().into_iter().flatten())
        .find(|f| f["key"] == "metadata.name" && f["operator"] == "In")
        .and_then(|f| f["values"][0].as_str())
}

/// podByCreationTimestampAndPhase: scheduled pods first, then the oldest, then by name.
fn oldest_first(pods: &mut [Arc<Stored>]) {
    pods.sort_by(|a, b| {
        let scheduled = |p: &Stored| p.pod_node().is_none();
        scheduled(a)
            .cmp(&scheduled(b))
            .then(a.pod().created.cmp(&b.pod().created))
            .then_with(|| a.name().cmp(b.name()))
    });
}

/// IsPodUpdated: the pod carries the current hash, or the current template generation.
fn is_updated(pod: &Value, hash: &str, generation: i64) -> bool {
    let labels = &pod["metadata"]["labels"];
    (!hash.is_empty() && labels[HASH_LABEL] == hash)
        || labels[GENERATION_LABEL] == generation.to_string().as_str()
}

#[derive(Clone)]
pub struct DaemonSetController {
    pub informer: Informer,
    pub client: RateLimit,
    /// Creates and deletes each set still waits to see (ControllerExpectations).
    expectations: crate::sim::HashMap<String, (i64, i64)>,
    now: u64,
    /// Pods this controller created, for the demo's counters.
    pub created: u64,
    backoff: Backoff,
}

/// client-go's flowcontrol.Backoff as kube-controller-manager sets it up for failed
/// daemon pods: 1 s, doubling to 15 minutes, forgotten after twice that without a retry.
#[derive(Clone, Default)]
struct Backoff(crate::sim::HashMap<String, (u64, u64)>);

impl Backoff {
    const INITIAL: u64 = 1;
    const MAX: u64 = 15 * 60;

    /// IsInBackOffSinceUpdate: the seconds left to wait, if the key is backing off.
    fn waiting(&self, key: &str, now: u64) -> Option<u64> {
        let (delay, at) = *self.0.get(key)?;
        (now < at + delay).then(|| at + delay - now)
    }

    /// Next: the first delay, or the last one doubled.
    fn next(&mut self, key: &str, now: u64) {
        let e = self.0.entry(key.to_string()).or_insert((0, now));
        e.0 = if e.0 == 0 || now.saturating_sub(e.1) > 2 * Self::MAX {
            Self::INITIAL
        } else {
            (e.0 * 2).min(Self::MAX)
        };
        e.1 = now;
    }
}

/// What a sync read: the set's pods by target node (terminal pods being deleted left
/// out), and the nodes in name order.
struct View {
    by_node: BTreeMap<String, Vec<Arc<Stored>>>,
    nodes: Vec<Value>,
}

impl DaemonSetController {
    pub fn new(resync: u64) -> Self {
        DaemonSetController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            expectations: Default::default(),
            now: 0,
            created: 0,
            backoff: Backoff::default(),
        }
    }

    fn owner_of(&self, pod: &Stored) -> Option<String> {
        let uid = pod.controller_uid()?;
        self.informer
            .name_by_uid(Kind::DaemonSet, uid)
            .map(|n| n.to_string())
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::DaemonSet => self.informer.enqueue(d.object.name()),
                Kind::Pod => self.pod_changed(&d),
                // addNode, and updateNode when labels or taints moved: every set may now
                // want the node, or not.
                Kind::Node
                    if self
                        .informer
                        .values_shared(Kind::DaemonSet)
                        .next()
                        .is_some() =>
                {
                    let moved = match &d.old {
                        None => true,
                        Some(old) => {
                            let (a, b) = (old.value(), d.object.value());
                            a["metadata"]["labels"] != b["metadata"]["labels"]
                                || a["spec"]["taints"] != b["spec"]["taints"]
                        }
                    };
                    if moved && d.event != EventType::Deleted {
                        let all: Vec<String> = self
                            .informer
                            .iter(Kind::DaemonSet)
                            .map(|s| obj::name(s).to_string())
                            .collect();
                        for s in all {
                            self.informer.enqueue(&s);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn pod_changed(&mut self, d: &Delta) {
        if let Some(old) = d.old.as_ref().and_then(|o| self.owner_of(o)) {
            self.informer.enqueue(&old);
        }
        match self.owner_of(&d.object) {
            Some(ds) => {
                let (adds, dels) = super::controller::observed(d);
                if let Some(e) = self.expectations.get_mut(&ds) {
                    e.0 -= adds;
                    e.1 -= dels;
                }
                self.informer.enqueue(&ds);
            }
            // An orphan: every set whose selector matches may adopt it.
            None if d.event != EventType::Deleted && d.object.controller_uid().is_none() => {
                let labels = &d.object.facts().labels;
                super::claim::enqueue_adopters(&mut self.informer, Kind::DaemonSet, labels);
            }
            None => {}
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            n += 1 + self.sync(api, &name, now);
        }
        n
    }

    fn satisfied(&self, name: &str) -> bool {
        self.expectations
            .get(name)
            .is_none_or(|(a, d)| *a <= 0 && *d <= 0)
    }

    fn event(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        type_: &'static str,
        reason: &str,
        message: &str,
        now: u64,
    ) {
        api.record_event(
            ds,
            Kind::DaemonSet,
            Note {
                type_,
                reason,
                message,
                component: COMPONENT,
                field_path: None,
            },
            now,
        );
    }

    /// syncDaemonSet. Returns the requests made.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(ds) = self.informer.get(Kind::DaemonSet, name).cloned() else {
            self.expectations.remove(name);
            return 0;
        };
        let before = api.next_seq();
        let selector = &ds["spec"]["selector"];
        let everything = selector.as_object().is_some_and(|m| {
            m.values().all(|v| {
                v.as_object().is_some_and(|x| x.is_empty())
                    || v.as_array().is_some_and(|x| x.is_empty())
            })
        });
        if everything {
            self.event(
                api,
                &ds,
                "Warning",
                "SelectingAll",
                "This daemon set is selecting all pods. A non-empty selector is required.",
                now,
            );
            return 1;
        }
        if obj::is_deleting(&ds) {
            return 0;
        }
        let pods = claim_pods(
            &self.informer,
            api,
            &ds,
            ("DaemonSet", None),
            |_| true,
            &mut self.client,
        );
        let mut view = self.view(pods);
        let Some((cur, old)) = self.history(api, &ds) else {
            return (api.next_seq() - before) as usize;
        };
        let hash = cur["metadata"]["labels"][HASH_LABEL]
            .as_str()
            .unwrap_or("")
            .to_string();
        if !self.satisfied(name) {
            self.write_status(api, &ds, &view, &hash, false, now);
            return (api.next_seq() - before) as usize;
        }
        let wrote = self.manage(api, &ds, &view, &hash, now);
        if !wrote && self.satisfied(name) && ds["spec"]["updateStrategy"]["type"] == "RollingUpdate"
        {
            self.rolling_update(api, &ds, &mut view, &hash, now);
        }
        self.cleanup_history(api, &ds, &old, &view);
        // The status counts the pods as the cache has them, as the sync read them: this
        // sync's own writes show in the next.
        self.write_status(api, &ds, &view, &hash, true, now);
        (api.next_seq() - before) as usize
    }

    fn view(&self, pods: Vec<Arc<Stored>>) -> View {
        let mut by_node: BTreeMap<String, Vec<Arc<Stored>>> = BTreeMap::new();
        for p in pods {
            let terminal = matches!(p.pod_phase(), Some("Succeeded" | "Failed"));
            if terminal && p.facts().deleting {
                continue;
            }
            if let Some(n) = target_node(p.value()) {
                by_node.entry(n.to_string()).or_default().push(p);
            }
        }
        let mut nodes: Vec<Value> = self.informer.iter(Kind::Node).cloned().collect();
        nodes.sort_by(|a, b| obj::name(a).cmp(obj::name(b)));
        View { by_node, nodes }
    }

    /// manage: podsShouldBeOnNode for every node, then syncNodes. Returns whether it made
    /// any request.
    fn manage(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        view: &View,
        hash: &str,
        now: u64,
    ) -> bool {
        let mut create: Vec<String> = Vec::new();
        let mut delete: Vec<String> = Vec::new();
        let min_ready = obj::int(ds, &["spec", "minReadySeconds"]).unwrap_or(0);
        let surge = update::surge_count(ds, 1) > 0;
        for node in &view.nodes {
            let name = obj::name(node);
            let (run, keep) = should_run(ds, node);
            let pods = view.by_node.get(name);
            match (run, keep, pods) {
                (true, _, None) => create.push(name.to_string()),
                (_, true, Some(pods)) => {
                    let mut running: Vec<Arc<Stored>> = Vec::new();
                    for p in pods.iter().filter(|p| !p.facts().deleting) {
                        match p.pod_phase() {
                            Some("Failed") => {
                                // failedPodsBackoff: a node whose daemon pod keeps failing
                                // is retried 1 s, 2 s, 4 s ... up to 15 minutes apart.
                                let key = format!(
                                    "{}/{}/{name}",
                                    obj::uid(ds),
                                    obj::int(ds, &["status", "observedGeneration"]).unwrap_or(0)
                                );
                                if let Some(wait) = self.backoff.waiting(&key, now) {
                                    self.informer.enqueue_after(obj::name(ds), now + wait);
                                    continue;
                                }
                                self.backoff.next(&key, now);
                                let msg = format!(
                                    "Found failed daemon pod default/{} on node {name}, will try to kill it",
                                    p.name()
                                );
                                self.event(api, ds, "Warning", "FailedDaemonPod", &msg, now);
                                delete.push(p.name().to_string());
                            }
                            Some("Succeeded") => {
                                let msg = format!(
                                    "Found succeeded daemon pod default/{} on node {name}, will try to delete it",
                                    p.name()
                                );
                                self.event(api, ds, "Normal", "SucceededDaemonPod", &msg, now);
                                delete.push(p.name().to_string());
                            }
                            _ => running.push(Arc::clone(p)),
                        }
                    }
                    oldest_first(&mut running);
                    if !surge {
                        delete.extend(running.iter().skip(1).map(|p| p.name().to_string()));
                        continue;
                    }
                    if running.is_empty() && run {
                        create.push(name.to_string());
                    }
                    if running.len() <= 1 {
                        continue;
                    }
                    // With surge: the oldest new and the oldest old pod stay, the old one
                    // until it is not ready or the new one is available.
                    let (mut new, mut old): (Option<&Arc<Stored>>, Option<&Arc<Stored>>) =
                        (None, None);
                    for p in &running {
                        // Here Go compares the hash label alone.
                        let slot = if p.value()["metadata"]["labels"][HASH_LABEL] == hash {
                            &mut new
                        } else {
                            &mut old
                        };
                        match slot {
                            None => *slot = Some(p),
                            Some(_) => delete.push(p.name().to_string()),
                        }
                    }
                    if let (Some(n), Some(o)) = (new, old)
                        && (!o.pod().ready || n.pod().available(min_ready, sim_unix(now)))
                    {
                        delete.push(o.name().to_string());
                    }
                }
                (_, false, Some(pods)) => {
                    delete.extend(
                        pods.iter()
                            .filter(|p| !p.facts().deleting)
                            .map(|p| p.name().to_string()),
                    );
                }
                _ => {}
            }
        }
        // Unscheduled pods pinned to a node that no longer exists.
        for (n, pods) in &view.by_node {
            if view.nodes.iter().all(|x| obj::name(x) != n) {
                delete.extend(
                    pods.iter()
                        .filter(|p| p.pod_node().is_none())
                        .map(|p| p.name().to_string()),
                );
            }
        }
        self.sync_nodes(api, ds, &delete, &create, hash, now)
    }

    /// syncNodes: creates in slow-start batches and deletes, at most BURST of each, the
    /// expectations set first. Returns whether any request was made.
    pub(super) fn sync_nodes(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        delete: &[String],
        create: &[String],
        hash: &str,
        now: u64,
    ) -> bool {
        let create = &create[..create.len().min(BURST)];
        let delete = &delete[..delete.len().min(BURST)];
        if create.is_empty() && delete.is_empty() {
            return false;
        }
        let name = obj::name(ds).to_string();
        self.expectations
            .insert(name.clone(), (create.len() as i64, delete.len() as i64));
        let mut next = 0;
        for batch in slow_start_batches(create.len() as i64) {
            let mut failed = 0;
            for node in &create[next..next + batch as usize] {
                if !self.create_pod(api, ds, node, hash, now) {
                    failed += 1;
                }
            }
            next += batch as usize;
            if failed > 0 {
                // The skipped creates are expected no more.
                if let Some(e) = self.expectations.get_mut(&name) {
                    e.0 -= failed + (create.len() - next) as i64;
                }
                break;
            }
        }
        for pod in delete {
            self.client.spend(1);
            match api.delete(Kind::Pod, pod, None, now) {
                Ok(_) => {
                    let msg = format!("Deleted pod: {pod}");
                    self.event(api, ds, "Normal", "SuccessfulDelete", &msg, now);
                }
                Err(e) => {
                    if let Some(x) = self.expectations.get_mut(&name) {
                        x.1 -= 1;
                    }
                    if e.reason != crate::sim::status::Reason::NotFound {
                        let msg = format!("Error deleting: {}", e.message);
                        self.event(api, ds, "Warning", "FailedDelete", &msg, now);
                    }
                }
            }
        }
        true
    }

    /// A daemon pod for `node`: the template (CreatePodTemplate: the daemon tolerations,
    /// the template generation and hash labels), pinned to the node by node affinity.
    fn create_pod(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        node: &str,
        hash: &str,
        now: u64,
    ) -> bool {
        let t = &ds["spec"]["template"];
        let mut labels = t["metadata"]["labels"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        labels.insert(
            GENERATION_LABEL.into(),
            json!(template_generation(ds).to_string()),
        );
        labels.insert(HASH_LABEL.into(), json!(hash));
        let mut meta = json!({
            "generateName": format!("{}-", obj::name(ds)),
            "namespace": "default",
            "labels": labels,
            "ownerReferences": [obj::owner_ref(ds, "DaemonSet")],
        });
        for key in ["annotations", "finalizers"] {
            if let Some(v) = t["metadata"].get(key).filter(|v| !v.is_null()) {
                meta[key] = v.clone();
            }
        }
        let mut spec = t["spec"].clone();
        add_tolerations(&mut spec);
        // ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become one that
        // names the node; preferred terms stay.
        let term =
            json!({"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]});
        if !spec["affinity"].is_object() {
            spec["affinity"] = json!({});
        }
        if !spec["affinity"]["nodeAffinity"].is_object() {
            spec["affinity"]["nodeAffinity"] = json!({});
        }
        spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
            json!({"nodeSelectorTerms": [term]});
        let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec});
        self.client.spend(1);
        match api.create(Kind::Pod, pod, now) {
            Ok(p) => {
                self.created += 1;
                let msg = format!("Created pod: {}", obj::name(&p));
                self.event(api, ds, "Normal", "SuccessfulCreate", &msg, now);
                true
            }
            Err(e) => {
                let msg = format!("Error creating: {}", e.message);
                self.event(api, ds, "Warning", "FailedCreate", &msg, now);
                false
            }
        }
    }

    /// constructHistory: the revision whose data is the current template (created, or the
    /// newest of several kept and renumbered past the others), and the rest. `None` when
    /// a name collision sent the sync back to try again.
    fn history(&mut self, api: &mut ApiServer, ds: &Value) -> Option<(Value, Vec<Value>)> {
        let uid = obj::uid(ds);
        let data = history::template_patch(ds);
        let mut current: Vec<Value> = Vec::new();
        let mut old: Vec<Value> = Vec::new();
        for r in self.informer.iter(Kind::ControllerRevision) {
            if obj::controller_uid(r) != Some(uid)
                || !obj::selector_matches(&ds["spec"]["selector"], r)
            {
                continue;
            }
            if history::holds(r, &data) {
                current.push(r.clone());
            } else {
                old.push(r.clone());
            }
        }
        let next = old.iter().map(history::number).max().unwrap_or(0) + 1;
        let cur = if current.is_empty() {
            let collisions = obj::int(ds, &["status", "collisionCount"]).unwrap_or(0);
            let h = pod_template_hash(&ds["spec"]["template"], collisions);
            let name = format!("{}-{h}", obj::name(ds));
            let rev = history::revision_object(ds, "DaemonSet", name, (HASH_LABEL, &h), data, next);
            self.client.spend(1);
            match api.create(Kind::ControllerRevision, rev.clone(), now_of(api)) {
                Ok(c) => c,
                Err(_) => match api
                    .get(Kind::ControllerRevision, obj::name(&rev))
                    .ok()
                    .cloned()
                {
                    Some(existing) if history::equal(&existing, &rev) => existing,
                    _ => {
                        // A hash collision: count it and try again on the next sync.
                        self.client.spend(1);
                        let _ = api.update_status_with(Kind::DaemonSet, obj::name(ds), |d| {
                            d["status"]["collisionCount"] = json!(collisions + 1);
                        });
                        self.informer.enqueue_after(obj::name(ds), self.now + 1);
                        return None;
                    }
                },
            }
        } else {
            // dedupCurHistories: the highest revision stays.
            current.sort_by_key(history::number);
            let keep = current.pop().unwrap_or(Value::Null);
            for dup in &current {
                self.client.spend(1);
                let _ = api.delete(Kind::ControllerRevision, obj::name(dup), None, api.clock);
            }
            if history::number(&keep) < next {
                self.client.spend(1);
                api.update_metadata(Kind::ControllerRevision, obj::name(&keep), |c| {
                    c["revision"] = json!(next)
                })
                .unwrap_or(keep)
            } else {
                keep
            }
        };
        Some((cur, old))
    }

    /// cleanupHistory: old revisions beyond revisionHistoryLimit that no pod runs, the
    /// lowest first.
    fn cleanup_history(&mut self, api: &mut ApiServer, ds: &Value, old: &[Value], view: &View) {
        let limit = obj::int(ds, &["spec", "revisionHistoryLimit"])
            .unwrap_or(10)
            .max(0) as usize;
        if old.len() <= limit {
            return;
        }
        let live: Vec<&str> = view
            .by_node
            .values()
            .flatten()
            .filter_map(|p| p.value()["metadata"]["labels"][HASH_LABEL].as_str())
            .collect();
        let mut old: Vec<&Value> = old.iter().collect();
        history::sort(&mut old);
        let mut to_delete = old.len() - limit;
        for r in old {
            if to_delete == 0 {
                break;
            }
            let h = r["metadata"]["labels"][HASH_LABEL].as_str().unwrap_or("");
            if live.contains(&h) {
                continue;
            }
            self.client.spend(1);
            let _ = api.delete(Kind::ControllerRevision, obj::name(r), None, api.clock);
            to_delete -= 1;
        }
    }

    /// updateDaemonSetStatus: counted per node from the oldest pod there.
    fn write_status(
        &mut self,
        api: &mut ApiServer,
        ds: &Value,
        view: &View,
        hash: &str,
        observed: bool,
        now: u64,
    ) {
        let min_ready = obj::int(ds, &["spec", "minReadySeconds"]).unwrap_or(0);
        let generation = template_generation(ds);
        let (mut desired, mut current, mut mis, mut ready, mut updated, mut available) =
            (0, 0, 0, 0, 0, 0);
        for node in &view.nodes {
            let (run, _) = should_run(ds, node);
            let pods = view.by_node.get(obj::name(node)).filter(|p| !p.is_empty());
            match (run, pods) {
                (true, None) => desired += 1,
                (true, Some(pods)) => {
                    desired += 1;
                    current += 1;
                    let mut pods = pods.clone();
                    oldest_first(&mut pods);
                    let p = &pods[0];
                    if p.pod().ready {
                        ready += 1;
                        if p.pod().available(min_ready, sim_unix(now)) {
                            available += 1;
                        }
                    }
                    if is_updated(p.value(), hash, generation) {
                        updated += 1;
                    }
                }
                (false, Some(_)) => mis += 1,
                (false, None) => {}
            }
        }
        let unavailable = desired - available;
        let s = &ds["status"];
        let n = |f: &str| s[f].as_i64().unwrap_or(0);
        let generation_now = obj::int(ds, &["metadata", "generation"]).unwrap_or(1);
        let same = n("desiredNumberScheduled") == desired
            && n("currentNumberScheduled") == current
            && n("numberMisscheduled") == mis
            && n("numberReady") == ready
            && n("updatedNumberScheduled") == updated
            && n("numberAvailable") == available
            && n("numberUnavailable") == unavailable
            && n("observedGeneration") >= generation_now;
        if !same {
            let mut status = json!({
                "currentNumberScheduled": current,
                "desiredNumberScheduled": desired,
                "numberMisscheduled": mis,
                "numberReady": ready,
            });
            let observed_gen = if observed {
                generation_now
            } else {
                n("observedGeneration")
            };
            for (k, v) in [
                ("observedGeneration", observed_gen),
                ("updatedNumberScheduled", updated),
                ("numberAvailable", available),
                ("numberUnavailable", unavailable),
            ] {
                if v != 0 {
                    status[k] = json!(v);
                }
            }
            if let Some(c) = s.get("collisionCount").filter(|c| !c.is_null()) {
                status["collisionCount"] = c.clone();
            }
            self.client.spend(1);
            let _ =
                api.update_status_with(Kind::DaemonSet, obj::name(ds), |d| d["status"] = status);
        }
        if min_ready > 0 && ready != available {
            self.informer
                .enqueue_after(obj::name(ds), self.now + min_ready as u64);
        }
    }
}

/// The API server's clock, for a write made outside a sync's `now`.
fn now_of(api: &ApiServer) -> u64 {
    api.clock
}

impl super::Controller for DaemonSetController {
    super::controller::controller_basics!(DaemonSetController, Component::DaemonSet);
    fn tick(&mut self, now: u64) {
        self.now = now;
    }
    fn crash(&mut self) {
        self.informer.crash();
        self.expectations.clear();
        self.backoff = Backoff::default();
    }
    fn resync(&mut self) {
        crate::sim::controllers::controller::enqueue_all(&mut self.informer, Kind::DaemonSet);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_pods_back_off_doubling_to_fifteen_minutes() {
        let mut b = Backoff::default();
        assert_eq!(b.waiting("k", 0), None);
        b.next("k", 0);
        assert_eq!(b.waiting("k", 0), Some(1));
        assert_eq!(b.waiting("k", 1), None);
        b.next("k", 1);
        assert_eq!(b.waiting("k", 1), Some(2));
        for t in 2..20 {
            b.next("k", t);
        }
        assert_eq!(b.waiting("k", 19), Some(Backoff::MAX));
        // Forgotten after twice the maximum without a retry.
        b.next("k", 19 + 2 * Backoff::MAX + 1);
        assert_eq!(b.waiting("k", 19 + 2 * Backoff::MAX + 1), Some(1));
    }

    #[test]
    fn daemon_tolerations_replace_a_matching_one_and_add_the_rest() {
        let mut spec = serde_json::json!({"tolerations": [
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 5},
        ]});
        add_tolerations(&mut spec);
        let list = spec["tolerations"].as_array().unwrap();
        assert_eq!(list.len(), 6);
        assert!(list[0].get("tolerationSeconds").is_none(), "{list:?}");
    }
}
