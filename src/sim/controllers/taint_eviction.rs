//! The taint eviction controller (kube-controller-manager's
//! `pkg/controller/tainteviction`, the "taint manager" of older releases): a pod on a node
//! with `NoExecute` taints is deleted at once if it does not tolerate one of them, after
//! the shortest `tolerationSeconds` of the tolerations that match if it does (counted from
//! when the controller first saw it so), and never if those tolerate for ever. Every pod
//! carries the DefaultTolerationSeconds admission plugin's 300 s for
//! `node.kubernetes.io/not-ready` and `unreachable`, which is why pods of a lost node go
//! five minutes after its taint. Before deleting, it marks the pod with a
//! `DisruptionTarget` condition; a taint removed in time cancels the deletion.

use std::collections::BTreeMap;

use serde_json::Value;

use super::controller::Controller;
use crate::sim::api::eviction::add_disruption_target;
use crate::sim::api::{ApiServer, EventType, Note, Ref};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use crate::sim::taints;

pub const WATCHES: &[Kind] = &[Kind::Pod, Kind::Node];
/// Its name in kube-controller-manager, and its events' source.
pub const COMPONENT: &str = "taint-eviction-controller";

#[derive(Clone)]
pub struct TaintEviction {
    pub informer: Informer,
    pub client: RateLimit,
    /// Pods with a deletion scheduled: when it was scheduled and when it is due.
    scheduled: BTreeMap<String, (u64, u64)>,
}

/// A node's NoExecute taints.
fn no_execute(node: &Value) -> Vec<&Value> {
    taints::of_node(node)
        .iter()
        .filter(|t| t["effect"] == "NoExecute")
        .collect()
}

impl TaintEviction {
    pub fn new(resync: u64) -> Self {
        TaintEviction {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            scheduled: BTreeMap::new(),
        }
    }

    /// Pods scheduled for deletion, with the second each is due.
    pub fn scheduled(&self) -> impl Iterator<Item = (&str, u64)> {
        self.scheduled
            .iter()
            .map(|(n, (_, due))| (n.as_str(), *due))
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            let name = d.object.name();
            match (d.kind, d.event) {
                (Kind::Pod, EventType::Deleted) => {
                    self.scheduled.remove(name);
                }
                (Kind::Pod, _) if d.object.pod_node().is_some() => {
                    self.informer.enqueue(&format!("pod/{name}"));
                }
                (Kind::Node, EventType::Deleted) => {}
                (Kind::Node, _) => {
                    let taints = no_execute(d.object.value());
                    let changed = d
                        .old
                        .as_ref()
                        .map_or(!taints.is_empty(), |o| no_execute(o.value()) != taints);
                    if changed {
                        self.informer.enqueue(&format!("node/{name}"));
                    }
                }
                _ => {}
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(key) = super::controller::next_key(&mut self.informer, &self.client) {
            if let Some(node) = key.strip_prefix("node/") {
                let mut pods: Vec<String> = self
                    .informer
                    .values_shared(Kind::Pod)
                    .filter(|p| p.pod_node() == Some(node))
                    .map(|p| p.name().to_string())
                    .collect();
                pods.sort_unstable();
                for pod in pods {
                    n += self.process_pod(api, &pod, now);
                }
            } else if let Some(pod) = key.strip_prefix("pod/") {
                n += self.process_pod(api, pod, now);
            }
        }
        n
    }

    /// `processPodOnNode`: what the node's NoExecute taints mean for one pod.
    fn process_pod(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(pod) = self.informer.get_shared(Kind::Pod, name).cloned() else {
            self.scheduled.remove(name);
            return 0;
        };
        if pod.facts().deleting {
            self.scheduled.remove(name);
            return 0;
        }
        let Some(node) = pod
            .pod_node()
            .and_then(|n| self.informer.get(Kind::Node, n))
        else {
            return 0;
        };
        let node_taints = no_execute(node);
        if node_taints.is_empty() {
            return self.cancel(api, name, now);
        }
        let spec = pod.unfilled("spec").unwrap_or(&Value::Null);
        match taints::toleration_seconds(taints::of_pod(spec), &node_taints) {
            // A taint it does not tolerate: deleted now.
            None => self.evict(api, &pod, now),
            Some(None) => self.cancel(api, name, now),
            Some(Some(secs)) => match self.scheduled.get(name) {
                Some(&(_, due)) if now >= due => self.evict(api, &pod, now),
                // Scheduled already: the first deadline stands.
                Some(_) => 0,
                None => {
                    let due = now + secs;
                    self.scheduled.insert(name.to_string(), (now, due));
                    if secs == 0 {
                        return self.evict(api, &pod, now);
                    }
                    self.informer.enqueue_after(&format!("pod/{name}"), due);
                    0
                }
            },
        }
    }

    /// `cancelWorkWithEvent`: a scheduled deletion called off.
    fn cancel(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        if self.scheduled.remove(name).is_none() {
            return 0;
        }
        record(
            api,
            name,
            &format!("Cancelling deletion of Pod default/{name}"),
            now,
        );
        0
    }

    /// `deletePodHandler`: the event, then `addConditionAndDeletePod`.
    fn evict(&mut self, api: &mut ApiServer, pod: &Stored, now: u64) -> usize {
        let name = pod.name().to_string();
        self.scheduled.remove(&name);
        record(
            api,
            &name,
            &format!("Marking for deletion Pod default/{name}"),
            now,
        );
        if let Ok(current) = api.get_shared(Kind::Pod, &name) {
            let mut status = current.field("status").cloned().unwrap_or(Value::Null);
            if add_disruption_target(
                &mut status,
                "DeletionByTaintManager",
                "Taint manager: deleting due to NoExecute taint",
                now,
            ) {
                self.client.spend(1);
                let _ = api.store_pod_status(&current, status);
            }
        }
        self.client.spend(1);
        usize::from(api.delete(Kind::Pod, &name, None, now).is_ok())
    }
}

/// The controller's events name the pod by namespace and name only.
fn record(api: &mut ApiServer, pod: &str, message: &str, now: u64) {
    api.record_event(
        &Ref {
            name: pod,
            uid: "",
            namespace: "default",
        },
        Kind::Pod,
        Note {
            type_: "Normal",
            reason: "TaintManagerEviction",
            message,
            component: COMPONENT,
            field_path: None,
        },
        now,
    );
}

impl Controller for TaintEviction {
    super::controller::controller_basics!(TaintEviction, Component::TaintEviction);
    /// The controller has no resync of its own; the demo's looks at every tainted node
    /// again.
    fn resync(&mut self) {
        let names: Vec<String> = self
            .informer
            .iter(Kind::Node)
            .filter(|n| !no_execute(n).is_empty())
            .map(|n| format!("node/{}", crate::sim::obj::name(n)))
            .collect();
        for k in names {
            self.informer.enqueue(&k);
        }
    }
    fn crash(&mut self) {
        self.informer_mut().crash();
        // Scheduled deletions are timers in memory: a restart schedules them afresh.
        self.scheduled.clear();
    }
}
