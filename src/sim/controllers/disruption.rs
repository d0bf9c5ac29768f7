//! The disruption controller (kube-controller-manager's `pkg/controller/disruption`):
//! for each PodDisruptionBudget it counts the pods its selector matches and writes how
//! many may be disrupted now. `desiredHealthy` is `minAvailable` (an integer, or a
//! percentage of the expected pods rounded up) or the expected pods minus `maxUnavailable`
//! (rounded up); the expected pods are the selected pods for an integer `minAvailable`,
//! else the sum of their controllers' replicas. `currentHealthy` counts Ready pods that are
//! not being deleted and not recently evicted; `disruptionsAllowed` is the difference,
//! never below 0. The Eviction API (`api/eviction.rs`) spends those disruptions and
//! records each evicted pod in `disruptedPods`, which this controller clears once the pod
//! is deleted, or after 2 minutes with a `NotDeleted` event.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::controller::Controller;
use crate::sim::api::{ApiServer, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::kinds::pdb::{selects, set_condition};
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::{parse_rfc3339, sim_unix};

pub const WATCHES: &[Kind] = &[
    Kind::PodDisruptionBudget,
    Kind::Pod,
    Kind::ReplicaSet,
    Kind::Deployment,
];
/// The source of its events (kube-controller-manager's shared "controllermanager").
pub const COMPONENT: &str = "controllermanager";
/// `DeletionTimeout`: how long an eviction counts against the budget before the pod
/// must be gone.
pub const DELETION_TIMEOUT: u64 = 120;

#[derive(Clone)]
pub struct DisruptionController {
    pub informer: Informer,
    pub client: RateLimit,
}

fn pod_labels(p: &Stored) -> &Value {
    &p.facts().labels
}

impl DisruptionController {
    pub fn new(resync: u64) -> Self {
        DisruptionController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
        }
    }

    fn budgets_for(&self, labels: &Value) -> Vec<String> {
        self.informer
            .iter(Kind::PodDisruptionBudget)
            .filter(|b| selects(&b["spec"]["selector"], labels))
            .map(|b| obj::name(b).to_string())
            .collect()
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::PodDisruptionBudget => self.informer.enqueue(d.object.name()),
                Kind::Pod => {
                    let mut names: BTreeSet<String> = self
                        .budgets_for(pod_labels(&d.object))
                        .into_iter()
                        .collect();
                    if let Some(old) = &d.old {
                        names.extend(self.budgets_for(pod_labels(old)));
                    }
                    for n in names {
                        self.informer.enqueue(&n);
                    }
                }
                // ReplicaSets and Deployments are only read (their replicas are the
                // expected pods); the controller registers no handlers for them.
                _ => {}
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            n += self.sync(api, &name, now);
        }
        n
    }

    /// The replicas the pods' controllers want (`getExpectedScale`): each controller
    /// counted once, a ReplicaSet's Deployment standing for it. Pods with no controller
    /// are unmanaged; a controller that cannot be found is an error.
    fn expected_scale(&self, pods: &[&Stored]) -> Result<(i64, usize), String> {
        // Most pods share a ReplicaSet: each owner is looked up once.
        let mut owners: crate::sim::HashSet<&str> = Default::default();
        let mut counted: crate::sim::HashSet<String> = Default::default();
        let mut total = 0;
        let mut unmanaged = 0;
        for p in pods {
            let Some(uid) = p.controller_uid() else {
                unmanaged += 1;
                continue;
            };
            if !owners.insert(uid) {
                continue;
            }
            let Some(rs) = self
                .informer
                .name_by_uid(Kind::ReplicaSet, uid)
                .and_then(|n| self.informer.get(Kind::ReplicaSet, n))
            else {
                return Err(format!("found no controllers for pod {:?}", p.name()));
            };
            let owner = obj::controller_uid(rs).and_then(|d| {
                self.informer
                    .name_by_uid(Kind::Deployment, d)
                    .and_then(|n| self.informer.get(Kind::Deployment, n))
            });
            let (key, replicas) = match owner {
                Some(d) => (obj::uid(d).to_string(), obj::int(d, &["spec", "replicas"])),
                None => (uid.to_string(), obj::int(rs, &["spec", "replicas"])),
            };
            if counted.insert(key) {
                total += replicas.unwrap_or(1);
            }
        }
        Ok((total, unmanaged))
    }

    /// `sync` of one budget.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(pdb) = self.informer.get(Kind::PodDisruptionBudget, name).cloned() else {
            return 0;
        };
        let selector = &pdb["spec"]["selector"];
        // The API interns label sets (equal labels, one allocation): the selector is
        // matched once per set, not once per pod.
        let mut matched: crate::sim::HashMap<*const Value, bool> = Default::default();
        let pods: Vec<&Stored> = self
            .informer
            .values_shared(Kind::Pod)
            .filter(|p| {
                let labels = &p.facts().labels;
                *matched
                    .entry(std::sync::Arc::as_ptr(labels))
                    .or_insert_with(|| selects(selector, labels))
            })
            .map(|p| &**p)
            .collect();
        let mut events: Vec<(&str, &str, String)> = Vec::new();
        if pods.is_empty() {
            events.push(("Normal", "NoPods", "No matching pods found".into()));
        }
        let spec = &pdb["spec"];
        let max_unavailable = spec.get("maxUnavailable").filter(|v| !v.is_null());
        let min_available = spec.get("minAvailable").filter(|v| !v.is_null());
        let counts: Result<(i64, i64), String> = match (max_unavailable, min_available) {
            (Some(max), _) => self.expected_scale(&pods).map(|(expected, unmanaged)| {
                if unmanaged > 0 {
                    events.push(("Warning", "UnmanagedPods", unmanaged_message(selector)));
                }
                let max = obj::scaled_int_or_percent(max, expected, true).unwrap_or(0);
                (expected, (expected - max).max(0))
            }),
            (None, Some(min @ Value::String(_))) => {
                self.expected_scale(&pods).map(|(expected, unmanaged)| {
                    if unmanaged > 0 {
                        events.push(("Warning", "UnmanagedPods", unmanaged_message(selector)));
                    }
                    (
                        expected,
                        obj::scaled_int_or_percent(min, expected, true).unwrap_or(0),
                    )
                })
            }
            (None, Some(min)) => Ok((pods.len() as i64, min.as_i64().unwrap_or(0))),
            (None, None) => Ok((0, 0)),
        };
        // disruptedPods: entries for pods gone or already being deleted are dropped; one
        // older than the deletion timeout is dropped with a NotDeleted event.
        let mut disrupted = Map::new();
        let mut not_deleted = Vec::new();
        let mut recheck: Option<u64> = None;
        if let Some(map) = pdb["status"]["disruptedPods"].as_object() {
            for (pod, at) in map {
                let Some(p) = pods.iter().find(|p| p.name() == pod) else {
                    continue;
                };
                if p.facts().deleting {
                    continue;
                }
                let when = at.as_str().and_then(parse_rfc3339).unwrap_or(0);
                let expires = when + DELETION_TIMEOUT as i64;
                if expires <= sim_unix(now) {
                    not_deleted.push(pod.clone());
                    continue;
                }
                let due = now + (expires - sim_unix(now)) as u64;
                recheck = Some(recheck.map_or(due, |r| r.min(due)));
                disrupted.insert(pod.clone(), at.clone());
            }
        }
        let healthy = pods
            .iter()
            .filter(|p| !p.facts().deleting && p.pod().ready && !disrupted.contains_key(p.name()))
            .count() as i64;
        let mut next = pdb.clone();
        let status = &mut next["status"];
        match counts {
            Ok((expected, desired)) => {
                let allowed = if expected <= 0 {
                    0
                } else {
                    (healthy - desired).max(0)
                };
                status["currentHealthy"] = json!(healthy);
                status["desiredHealthy"] = json!(desired);
                status["expectedPods"] = json!(expected);
                status["disruptionsAllowed"] = json!(allowed);
                status["observedGeneration"] = pdb["metadata"]["generation"].clone();
                let (state, reason) = if allowed > 0 {
                    ("True", "SufficientPods")
                } else {
                    ("False", "InsufficientPods")
                };
                set_condition(status, state, reason, "", now);
            }
            Err(e) => {
                events.push((
                    "Warning",
                    "CalculateExpectedPodCountFailed",
                    format!("Failed to calculate the number of expected pods: {e}"),
                ));
                // failSafe: no disruptions, and observedGeneration stays behind.
                status["disruptionsAllowed"] = json!(0);
                set_condition(status, "False", "SyncFailed", &e, now);
            }
        }
        if disrupted.is_empty() {
            if let Some(s) = status.as_object_mut() {
                s.remove("disruptedPods");
            }
        } else {
            status["disruptedPods"] = Value::Object(disrupted);
        }
        for (type_, reason, message) in &events {
            api.record_event(
                &pdb,
                Kind::PodDisruptionBudget,
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
        for pod in not_deleted {
            if let Ok(p) = api.get_shared(Kind::Pod, &pod) {
                // The namespace twice, as the 1.32 source formats it.
                api.record_event(
                    &*p,
                    Kind::Pod,
                    Note {
                        type_: "Warning",
                        reason: "NotDeleted",
                        message: "Pod was expected by PDB default/default to be deleted but it wasn't",
                        component: COMPONENT,
                        field_path: None,
                    },
                    now,
                );
            }
        }
        if let Some(at) = recheck {
            self.informer.enqueue_after(name, at);
        }
        if next == pdb {
            return 0;
        }
        self.client.spend(1);
        usize::from(api.update_status(Kind::PodDisruptionBudget, next).is_ok())
    }
}

fn unmanaged_message(selector: &Value) -> String {
    format!(
        "Pods selected by this PodDisruptionBudget (selector: {}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
        crate::sim::table::selector_text(selector)
    )
}

impl Controller for DisruptionController {
    super::controller::controller_basics!(DisruptionController, Component::Disruption);
    fn resync(&mut self) {
        super::controller::enqueue_all(&mut self.informer, Kind::PodDisruptionBudget);
    }
}
