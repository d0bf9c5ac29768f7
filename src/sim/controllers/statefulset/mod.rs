//! The StatefulSet controller (kube-controller-manager's `pkg/controller/statefulset`,
//! 1.32): pods with stable names and claims, created in ordinal order and one at a time
//! (OrderedReady) or all at once (Parallel), removed from the highest ordinal down, and
//! replaced from the highest ordinal down to the partition on a rolling update; its
//! history kept as ControllerRevisions.
//!
//! `mod.rs` holds the controller (handlers, queue, the requests it makes and their
//! events), `control.rs` the reconcile (`UpdateStatefulSet`), `identity.rs` a pod's
//! identity and storage.

mod control;
pub mod identity;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::status::Reason;

pub const WATCHES: &[Kind] = &[
    Kind::StatefulSet,
    Kind::Pod,
    Kind::ControllerRevision,
    Kind::PersistentVolumeClaim,
];
/// The source of its events.
pub const COMPONENT: &str = "statefulset-controller";

#[derive(Clone)]
pub struct StatefulSetController {
    pub informer: Informer,
    pub client: RateLimit,
    /// The second the cluster is at (for requeues after minReadySeconds).
    now: u64,
    /// Pods this controller created, for the demo's counters.
    pub created: u64,
    /// A request of the sync under way failed: the key goes back on the queue
    /// (AddRateLimited; the demo retries the next second).
    failed: bool,
}

impl StatefulSetController {
    pub fn new(resync: u64) -> Self {
        StatefulSetController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            now: 0,
            created: 0,
            failed: false,
        }
    }

    /// The set named by a pod's controller reference, if it is one of ours (read from the
    /// stored pod's facts: building its JSON for every pod event would cost more than the
    /// event).
    fn owner_of(&self, pod: &crate::sim::stored::Stored) -> Option<String> {
        let uid = pod.controller_uid()?;
        self.informer
            .name_by_uid(Kind::StatefulSet, uid)
            .map(|n| n.to_string())
    }

    /// Event handlers (addPod, updatePod, deletePod, and the set's own).
    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::StatefulSet => self.informer.enqueue(d.object.name()),
                Kind::Pod => self.pod_changed(&d),
                _ => {}
            }
        }
    }

    fn pod_changed(&mut self, d: &Delta) {
        let old_owner = d.old.as_ref().and_then(|o| self.owner_of(o));
        if let Some(old) = &old_owner {
            self.informer.enqueue(old);
        }
        match self.owner_of(&d.object) {
            Some(set) => {
                self.informer.enqueue(&set);
                // A pod newly Ready is looked at again once minReadySeconds have passed.
                let was_ready = d.old.as_ref().is_some_and(|o| o.pod().ready);
                let min_ready = self
                    .informer
                    .get(Kind::StatefulSet, &set)
                    .and_then(|s| obj::int(s, &["spec", "minReadySeconds"]))
                    .unwrap_or(0);
                if d.event == EventType::Modified
                    && !was_ready
                    && d.object.pod().ready
                    && min_ready > 0
                {
                    self.informer
                        .enqueue_after(&set, self.now + min_ready as u64 + 1);
                }
            }
            None if d.event != EventType::Deleted && d.object.controller_uid().is_none() => {
                let labels = &d.object.facts().labels;
                super::claim::enqueue_adopters(&mut self.informer, Kind::StatefulSet, labels);
            }
            None => {}
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            self.failed = false;
            n += 1 + self.sync(api, &name, now);
            if self.failed {
                self.informer.enqueue_after(&name, now + 1);
            }
        }
        n
    }

    /// Spends a request from the client's budget.
    fn spend(&mut self) {
        self.client.spend(1);
    }

    fn event(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        type_: &str,
        reason: &str,
        message: &str,
        now: u64,
    ) {
        api.record_event(
            set,
            Kind::StatefulSet,
            Note {
                type_: if type_ == "Normal" {
                    "Normal"
                } else {
                    "Warning"
                },
                reason,
                message,
                component: COMPONENT,
                field_path: None,
            },
            now,
        );
    }

    /// recordPodEvent: `<verb> Pod <pod> in StatefulSet <set> successful`, or failed with
    /// the error.
    fn pod_event(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        verb: &str,
        pod: &str,
        err: Option<&str>,
        now: u64,
    ) {
        let title = format!("{}{}", verb[..1].to_ascii_uppercase(), &verb[1..]);
        match err {
            None => {
                let msg = format!(
                    "{verb} Pod {pod} in StatefulSet {} successful",
                    obj::name(set)
                );
                self.event(api, set, "Normal", &format!("Successful{title}"), &msg, now);
            }
            Some(e) => {
                let msg = format!(
                    "{verb} Pod {pod} in StatefulSet {} failed error: {e}",
                    obj::name(set)
                );
                self.event(api, set, "Warning", &format!("Failed{title}"), &msg, now);
            }
        }
    }

    /// createPersistentVolumeClaims: each missing claim of the pod created; a claim being
    /// deleted is an error. Returns the errors' text, joined as an aggregate prints them.
    fn create_claims(
        &mut self,
        api: &mut ApiServer,
        set: &Value,
        ordinal: i64,
        now: u64,
    ) -> Option<String> {
        let pod = identity::pod_name(set, ordinal);
        let mut errs = Vec::new();
        for (_, claim) in identity::claims(set, ordinal) {
            let name = obj::name(&claim).to_string();
            match self.informer.get(Kind::PersistentVolumeClaim, &name) {
                Some(existing) => {
                    if obj::is_deleting(existing) {
                        errs.push(format!("pvc {name} is being deleted"));
                    }
                }
                None => {
                    self.spend();
                    match api.create(Kind::PersistentVolumeClaim, claim, now) {
                        Ok(_) => {
                            let msg = format!(
                                "create Claim {name} Pod {pod} in StatefulSet {} success",
                                obj::name(set)
                            );
                            self.event(api, set, "Normal", "SuccessfulCreate", &msg, now);
                        }
                        Err(e) if e.reason == Reason::AlreadyExists => {
                            errs.push(format!("failed to create PVC {name}: {}", e.message));
                        }
                        Err(e) => {
                            errs.push(format!("failed to create PVC {name}: {}", e.message));
                            let msg = format!(
                                "create Claim {name} for Pod {pod} in StatefulSet {} failed error: {}",
                                obj::name(set),
                                e.message
                            );
                            self.event(api, set, "Warning", "FailedCreate", &msg, now);
                        }
                    }
                }
            }
        }
        self.failed |= !errs.is_empty();
        aggregate(&errs)
    }

    /// CreateStatefulPod: the claims, then the pod, then the claims' owners as the
    /// retention policy says. Returns whether it failed.
    fn create_pod(&mut self, api: &mut ApiServer, set: &Value, pod: Value, now: u64) -> bool {
        let name = obj::name(&pod).to_string();
        let ordinal = identity::ordinal(&name).unwrap_or(0);
        if let Some(e) = self.create_claims(api, set, ordinal, now) {
            self.pod_event(api, set, "create", &name, Some(&e), now);
            self.failed = true;
            return true;
        }
        self.spend();
        match api.create(Kind::Pod, pod, now) {
            Ok(created) => {
                self.created += 1;
                self.fix_claims(api, set, &created, now);
                self.pod_event(api, set, "create", &name, None, now);
                false
            }
            // Sunk: the next sync sees the pod.
            Err(e) if e.reason == Reason::AlreadyExists => true,
            Err(e) => {
                self.pod_event(api, set, "create", &name, Some(&e.message), now);
                self.failed = true;
                true
            }
        }
    }

    /// DeleteStatefulPod.
    fn delete_pod(&mut self, api: &mut ApiServer, set: &Value, pod: &str, now: u64) {
        self.spend();
        let err = api.delete(Kind::Pod, pod, None, now).err();
        // A pod already gone is no failure to report.
        if err.as_ref().is_some_and(|e| e.reason == Reason::NotFound) {
            return;
        }
        self.pod_event(
            api,
            set,
            "delete",
            pod,
            err.as_ref().map(|e| e.message.as_str()),
            now,
        );
    }

    /// UpdatePodClaimForRetentionPolicy: each existing claim of `pod` given the owners
    /// the policy asks for (with a warning for a claim another controller owns).
    fn fix_claims(&mut self, api: &mut ApiServer, set: &Value, pod: &Value, now: u64) {
        let Some(ordinal) = identity::ordinal(obj::name(pod)) else {
            return;
        };
        for name in identity::claim_names(set, ordinal) {
            let Some(claim) = api.get(Kind::PersistentVolumeClaim, &name).ok().cloned() else {
                continue;
            };
            if identity::unexpected_controller(&claim, set, pod) {
                let msg = format!(
                    "PersistentVolumeClaim {name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim"
                );
                self.event(api, set, "Warning", "ConflictingController", &msg, now);
            }
            if !identity::claim_owner_up_to_date(&claim, set, pod) {
                let refs = identity::claim_refs_for_policy(&claim, set, pod);
                self.spend();
                let _ = api.update_metadata(Kind::PersistentVolumeClaim, &name, |c| {
                    if refs.is_empty() {
                        obj::remove(c, &["metadata", "ownerReferences"]);
                    } else {
                        c["metadata"]["ownerReferences"] = json!(refs);
                    }
                });
            }
        }
    }

    /// ClaimsMatchRetentionPolicy, from the cache.
    fn claims_match(&self, set: &Value, pod: &Value) -> bool {
        let Some(ordinal) = identity::ordinal(obj::name(pod)) else {
            return true;
        };
        identity::claim_names(set, ordinal).iter().all(|n| {
            self.informer
                .get(Kind::PersistentVolumeClaim, n)
                .is_none_or(|c| identity::claim_owner_up_to_date(c, set, pod))
        })
    }
}

/// utilerrors.NewAggregate's text: one error alone, or `[a, b]`.
fn aggregate(errs: &[String]) -> Option<String> {
    match errs {
        [] => None,
        [one] => Some(one.clone()),
        many => Some(format!("[{}]", many.join(", "))),
    }
}

impl super::Controller for StatefulSetController {
    super::controller::controller_basics!(StatefulSetController, Component::StatefulSet);
    fn tick(&mut self, now: u64) {
        self.now = now;
    }
    fn resync(&mut self) {
        crate::sim::controllers::controller::enqueue_all(&mut self.informer, Kind::StatefulSet);
    }
}
