//! `UpdateStatefulSet` (stateful_set_control.go, 1.32): the revisions, the replicas and
//! condemned pods, the status, and the history kept.

use serde_json::{Value, json};

use super::StatefulSetController;
use super::identity::{self, pod_revision};
use crate::sim::api::ApiServer;
use crate::sim::controllers::history;
use crate::sim::controllers::pods::PodFacts;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;
use std::sync::Arc;

/// A pod as the reconcile reads it: the cached object (shared, not copied), or one still
/// to create.
enum Slot {
    Cached(Arc<Stored>),
    New(Value),
}

impl Slot {
    fn pod(&self) -> &Value {
        match self {
            Slot::Cached(p) => p.value(),
            Slot::New(v) => v,
        }
    }
    fn created(&self) -> bool {
        matches!(self, Slot::Cached(_))
    }
    fn phase(&self) -> &str {
        match self {
            Slot::Cached(p) => p.pod_phase().unwrap_or(""),
            Slot::New(_) => "",
        }
    }
    fn facts(&self) -> PodFacts {
        match self {
            Slot::Cached(p) => p.pod(),
            Slot::New(_) => PodFacts::default(),
        }
    }
    fn terminating(&self) -> bool {
        match self {
            Slot::Cached(p) => p.facts().deleting,
            Slot::New(_) => false,
        }
    }
    /// isRunningAndReady.
    fn running_and_ready(&self) -> bool {
        self.phase() == "Running" && self.facts().ready
    }
    /// isRunningAndAvailable (IsPodAvailable: Ready for minReadySeconds).
    fn available(&self, min_ready: i64, now: u64) -> bool {
        self.facts().available(min_ready, sim_unix(now))
    }
    /// isHealthy.
    fn healthy(&self) -> bool {
        self.running_and_ready() && !self.terminating()
    }
    fn name(&self) -> &str {
        obj::name(self.pod())
    }
}

/// The counts `updateStatus` adds up over the pods.
#[derive(Default, PartialEq, Clone, Copy)]
struct Counts {
    replicas: i64,
    ready: i64,
    available: i64,
    current: i64,
    updated: i64,
}

fn count(slots: &[&Slot], min_ready: i64, current: &str, update: &str, now: u64) -> Counts {
    let mut c = Counts::default();
    for s in slots {
        let created = !s.phase().is_empty();
        if created {
            c.replicas += 1;
        }
        if s.running_and_ready() {
            c.ready += 1;
            if s.available(min_ready, now) {
                c.available += 1;
            }
        }
        if created && !s.terminating() {
            let rev = pod_revision(s.pod());
            c.current += i64::from(rev == current);
            c.updated += i64::from(rev == update);
        }
    }
    c
}

impl StatefulSetController {
    /// `sync`: adoption, then `UpdateStatefulSet`. Returns the requests made.
    pub(super) fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(set) = self.informer.get(Kind::StatefulSet, name).cloned() else {
            return 0;
        };
        let before = api.next_seq();
        let deleting = obj::is_deleting(&set);
        let uid = obj::uid(&set).to_string();
        let selector = set["spec"]["selector"].clone();
        // adoptOrphanRevisions, then ClaimPods (members by name and selector).
        let mut revisions: Vec<Value> = Vec::new();
        for r in self.informer.iter(Kind::ControllerRevision) {
            if !obj::selector_matches(&selector, r) {
                continue;
            }
            match obj::controller_uid(r) {
                Some(u) if u != uid => {}
                _ => revisions.push(r.clone()),
            }
        }
        for r in revisions
            .iter_mut()
            .filter(|r| obj::controller_uid(r).is_none())
        {
            if deleting {
                continue;
            }
            let owner = obj::owner_ref(&set, "StatefulSet");
            self.spend();
            if let Ok(v) = api.update_metadata(Kind::ControllerRevision, obj::name(r), |c| {
                c["metadata"]["ownerReferences"] = json!([owner]);
            }) {
                *r = v;
            }
        }
        let pods = crate::sim::controllers::claim::claim_pods(
            &self.informer,
            api,
            &set,
            ("StatefulSet", None),
            |p| identity::is_member(&set, p.name()),
            &mut self.client,
        );
        let mut refs: Vec<&Value> = revisions.iter().collect();
        history::sort(&mut refs);
        let revisions: Vec<Value> = refs.into_iter().cloned().collect();
        let (current, update, collisions) = self.revisions(api, &set, &revisions, now);
        let status = self.update_set(api, &set, &current, &update, collisions, &pods, now);
        self.write_status(api, &set, status);
        self.truncate_history(api, &set, &pods, &revisions, &current, &update);
        (api.next_seq() - before) as usize
    }

    /// getStatefulSetRevisions: the revision the template makes (created, reused, or
    /// renumbered when an older one comes back), and the current one.
    fn revisions(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        revisions: &[Value],
        now: u64,
    ) -> (Value, Value, i64) {
        let mut collisions = obj::int(set, &["status", "collisionCount"]).unwrap_or(0);
        let refs: Vec<&Value> = revisions.iter().collect();
        let data = history::template_patch(set);
        let next = history::next_number(&refs);
        let equal: Vec<&Value> = refs
            .iter()
            .copied()
            .filter(|r| history::holds(r, &data))
            .collect();
        let update = match (equal.last(), refs.last()) {
            (Some(e), Some(latest)) if history::equal(latest, e) => (*latest).clone(),
            (Some(e), _) => {
                self.spend();
                api.update_metadata(Kind::ControllerRevision, obj::name(e), |c| {
                    c["revision"] = json!(next)
                })
                .unwrap_or_else(|_| (*e).clone())
            }
            (None, _) => loop {
                // CreateControllerRevision: a name taken by other data moves the count on.
                let rev = history::new_revision(set, "StatefulSet", data.clone(), next, collisions);
                self.spend();
                match api.create(Kind::ControllerRevision, rev.clone(), now) {
                    Ok(created) => break created,
                    Err(_) => match api.get(Kind::ControllerRevision, obj::name(&rev)) {
                        Ok(existing) if history::equal(existing, &rev) => break existing.clone(),
                        Ok(_) => collisions += 1,
                        Err(_) => break rev,
                    },
                }
            },
        };
        let current_name = obj::str(set, &["status", "currentRevision"]).unwrap_or("");
        let current = revisions
            .iter()
            .find(|r| obj::name(r) == current_name)
            .cloned()
            .unwrap_or_else(|| update.clone());
        (current, update, collisions)
    }

    /// `updateStatefulSet`: returns the status the pods add up to.
    #[allow(clippy::too_many_arguments)]
    fn update_set(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        current: &Value,
        update: &Value,
        collisions: i64,
        pods: &[Arc<Stored>],
        now: u64,
    ) -> Value {
        let (current_name, update_name) = (obj::name(current), obj::name(update));
        let min_ready = obj::int(set, &["spec", "minReadySeconds"]).unwrap_or(0);
        let start = identity::start_ordinal(set);
        let n = identity::replicas(set).max(0);
        let mut replicas: Vec<Option<Slot>> = (0..n).map(|_| None).collect();
        let mut condemned: Vec<Slot> = Vec::new();
        for p in pods {
            let Some(ord) = identity::ordinal(p.name()) else {
                continue;
            };
            let slot = Slot::Cached(Arc::clone(p));
            if ord >= start && ord < start + n {
                replicas[(ord - start) as usize] = Some(slot);
            } else {
                condemned.push(slot);
            }
        }
        // newVersionedStatefulSetPod: below the partition (or, without one, below the
        // current count) from the current revision, the rest from the update revision.
        let partition = set
            .pointer("/spec/updateStrategy/rollingUpdate/partition")
            .and_then(Value::as_i64);
        let rolling = set["spec"]["updateStrategy"]["type"] == "RollingUpdate";
        let current_count = obj::int(set, &["status", "currentReplicas"]).unwrap_or(0);
        let replicas: Vec<Slot> = replicas
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                s.unwrap_or_else(|| {
                    let ord = start + i as i64;
                    let below = match partition {
                        Some(p) => ord < start + p,
                        None => rolling && ord < start + current_count,
                    };
                    let rev = if below { current } else { update };
                    let template = history::revision_template(rev);
                    Slot::New(identity::new_pod(set, &template, ord, obj::name(rev)))
                })
            })
            .collect();
        condemned.sort_by_key(|s| std::cmp::Reverse(identity::ordinal(s.name()).unwrap_or(0)));
        let first_unhealthy = replicas
            .iter()
            .chain(condemned.iter().rev())
            .find(|s| !s.healthy())
            .map(|s| s.name().to_string());
        let all = |r: &[Slot], c: &[Slot]| -> Counts {
            let slots: Vec<&Slot> = r.iter().chain(c.iter()).collect();
            count(&slots, min_ready, current_name, update_name, now)
        };
        let mut counts = all(&replicas, &condemned);
        let status = |counts: Counts, current_adjust: i64| {
            status_json(
                set,
                current_name,
                update_name,
                collisions,
                counts,
                current_adjust,
            )
        };
        if obj::is_deleting(set) {
            return status(counts, 0);
        }
        let monotonic = set["spec"]["podManagementPolicy"] != "Parallel";
        // Each live replica, in ordinal order.
        // runForAll: OrderedReady stops at the first replica that says wait; Parallel
        // (slowStartBatch) only at an error (the demo stops at once, where Go finishes the
        // batch under way: only an API error shows the difference).
        for r in &replicas {
            let (exit, failed) = self.process_replica(api, set, r, monotonic, min_ready, now);
            if failed || (exit && monotonic) {
                counts = all(&replicas, &condemned);
                return status(counts, 0);
            }
        }
        // Condemned pods' claims get the owners the policy gives a scaled-down pod.
        // (fixPodClaim goes on after a fix: the condemned pod is deleted in the same sync.)
        for c in &condemned {
            if !self.claims_match(set, c.pod()) {
                self.fix_claims(api, set, c.pod(), now);
            }
        }
        // processCondemned, highest ordinal first.
        for c in &condemned {
            if c.terminating() {
                if monotonic {
                    return status(all(&replicas, &condemned), 0);
                }
                continue;
            }
            let first = first_unhealthy.as_deref() == Some(c.name());
            if monotonic && !first && (!c.running_and_ready() || !c.available(min_ready, now)) {
                return status(all(&replicas, &condemned), 0);
            }
            self.delete_pod(api, set, c.name(), now);
            if monotonic {
                return status(all(&replicas, &condemned), 0);
            }
        }
        counts = all(&replicas, &condemned);
        if set["spec"]["updateStrategy"]["type"] == "OnDelete" {
            return status(counts, 0);
        }
        // The rolling update: the highest ordinal not at the update revision goes first.
        let update_min = partition.unwrap_or(0).max(0) as usize;
        for target in (update_min..replicas.len()).rev() {
            let r = &replicas[target];
            if pod_revision(r.pod()) != update_name && !r.terminating() {
                if r.created() {
                    self.delete_pod(api, set, r.name(), now);
                }
                return status(counts, -1);
            }
            if !r.healthy() {
                return status(counts, 0);
            }
        }
        status(counts, 0)
    }

    /// processReplica: whether this sync should stop here (`shouldExit`), and whether a
    /// request failed.
    fn process_replica(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        r: &Slot,
        monotonic: bool,
        min_ready: i64,
        now: u64,
    ) -> (bool, bool) {
        if matches!(r.phase(), "Failed" | "Succeeded") {
            // A new pod comes on the next sync, once this one is gone.
            if !r.terminating() {
                self.delete_pod(api, set, r.name(), now);
            }
            return (true, false);
        }
        if !r.created() {
            if self.claim_is_stale(set, r.pod()) {
                return (true, false);
            }
            let failed = self.create_pod(api, set, r.pod().clone(), now);
            return (monotonic, failed);
        }
        if r.phase() == "Pending"
            && let Some(ord) = identity::ordinal(r.name())
        {
            if self.create_claims(api, set, ord, now).is_some() {
                return (true, true);
            }
            self.fix_claims(api, set, r.pod(), now);
        }
        if monotonic && (r.terminating() || !r.running_and_ready() || !r.available(min_ready, now))
        {
            return (true, false);
        }
        // The invariants (UpdateStatefulPod): identity (the pod-name label) and the claims'
        // owners; a pod that needed either is written and its update recorded.
        let identity_ok = identity::identity_matches(set, r.pod());
        let claims_ok = self.claims_match(set, r.pod());
        if identity_ok && claims_ok {
            return (false, false);
        }
        if !claims_ok {
            self.fix_claims(api, set, r.pod(), now);
        }
        let name = r.name().to_string();
        self.spend();
        let res = api.update_metadata(Kind::Pod, &name, |p| {
            p["metadata"]["labels"][identity::POD_NAME_LABEL] = json!(name.clone());
        });
        let err = res.err().map(|e| e.message);
        self.pod_event(api, set, "update", r.name(), err.as_deref(), now);
        (false, false)
    }

    /// PodClaimIsStale: with whenScaled Delete, a claim still owned by an earlier pod of
    /// the same name blocks the new pod until the garbage collector removes it.
    fn claim_is_stale(&self, set: &Value, pod: &Value) -> bool {
        if set["spec"]["persistentVolumeClaimRetentionPolicy"]["whenScaled"] != "Delete" {
            return false;
        }
        let Some(ord) = identity::ordinal(obj::name(pod)) else {
            return false;
        };
        identity::claims(set, ord).iter().any(|(_, t)| {
            self.informer
                .get(Kind::PersistentVolumeClaim, obj::name(t))
                .is_some_and(|c| {
                    c["metadata"]["ownerReferences"]
                        .as_array()
                        .is_some_and(|refs| {
                            refs.iter().any(|r| {
                                r["kind"] == "Pod"
                                    && r["name"] == obj::name(pod)
                                    && r["uid"] != pod["metadata"]["uid"]
                            })
                        })
                })
        })
    }

    /// updateStatefulSetStatus: completeRollingUpdate, then a write only when a counted
    /// field moved (`inconsistentStatus`).
    fn write_status(&mut self, api: &mut ApiServer, set: &Value, mut status: Value) {
        let want = identity::replicas(set);
        let n = |s: &Value, f: &str| s[f].as_i64().unwrap_or(0);
        if set["spec"]["updateStrategy"]["type"] == "RollingUpdate"
            && n(&status, "updatedReplicas") == want
            && n(&status, "readyReplicas") == want
            && n(&status, "replicas") == want
        {
            status["currentReplicas"] = status["updatedReplicas"].clone();
            status["currentRevision"] = status["updateRevision"].clone();
        }
        let old = &set["status"];
        let moved = n(&status, "observedGeneration") > n(old, "observedGeneration")
            || [
                "replicas",
                "currentReplicas",
                "readyReplicas",
                "updatedReplicas",
                "availableReplicas",
            ]
            .iter()
            .any(|f| n(&status, f) != n(old, f))
            || ["currentRevision", "updateRevision"]
                .iter()
                .any(|f| status[f] != old[f]);
        if !moved {
            return;
        }
        // Zero counts are omitempty, except replicas and availableReplicas.
        if let Some(m) = status.as_object_mut() {
            m.retain(|k, v| {
                matches!(
                    k.as_str(),
                    "replicas" | "availableReplicas" | "collisionCount"
                ) || v != &json!(0)
            });
        }
        self.spend();
        let _ = api.update_status_with(Kind::StatefulSet, obj::name(set), |s| s["status"] = status);
    }

    /// truncateHistory: revisions no pod, nor the current or update revision, uses, the
    /// oldest first, beyond revisionHistoryLimit.
    fn truncate_history(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        pods: &[Arc<Stored>],
        revisions: &[Value],
        current: &Value,
        update: &Value,
    ) {
        let live = |r: &Value| {
            let n = obj::name(r);
            n == obj::name(current)
                || n == obj::name(update)
                || pods.iter().any(|p| pod_revision(p.value()) == n)
        };
        let old: Vec<&Value> = revisions.iter().filter(|r| !live(r)).collect();
        let limit = obj::int(set, &["spec", "revisionHistoryLimit"])
            .unwrap_or(10)
            .max(0) as usize;
        if old.len() <= limit {
            return;
        }
        for r in &old[..old.len() - limit] {
            self.spend();
            let _ = api.delete(Kind::ControllerRevision, obj::name(r), None, api.clock);
        }
    }
}

fn status_json(
    set: &Value,
    current: &str,
    update: &str,
    collisions: i64,
    c: Counts,
    current_adjust: i64,
) -> Value {
    json!({
        "observedGeneration": obj::int(set, &["metadata", "generation"]).unwrap_or(1),
        "replicas": c.replicas,
        "readyReplicas": c.ready,
        "currentReplicas": c.current + current_adjust,
        "updatedReplicas": c.updated,
        "currentRevision": current,
        "updateRevision": update,
        "collisionCount": collisions,
        "availableReplicas": c.available,
    })
}
