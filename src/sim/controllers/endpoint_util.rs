//! What the endpoints and EndpointSlice controllers share (k8s.io/endpointslice/util and
//! pkg/api/v1/pod, 1.32): which pods a Service selects, which of them belong in its
//! endpoints, the port a Service port reaches on a pod, and the
//! `endpoints.kubernetes.io/last-change-trigger-time` each write carries.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use crate::sim::time::parse_rfc3339;

pub const LAST_CHANGE_TRIGGER_TIME: &str = "endpoints.kubernetes.io/last-change-trigger-time";

/// Whether a Service's `spec.selector` (a plain map) selects `labels`. A Service without
/// a selector (or with an empty one, which the API stores as none) selects nothing: its
/// endpoints are written by hand.
pub fn service_selects(selector: &Value, labels: &Value) -> bool {
    let Some(sel) = selector.as_object().filter(|m| !m.is_empty()) else {
        return false;
    };
    sel.iter()
        .all(|(k, v)| labels.get(k).is_some_and(|l| l == v && l.is_string()))
}

/// The pods of `service`, in name order, as the pod lister lists them.
pub fn selected_pods<'a>(informer: &'a Informer, service: &Value) -> Vec<&'a Stored> {
    let selector = &service["spec"]["selector"];
    let mut pods: Vec<&Stored> = informer
        .values_shared(Kind::Pod)
        .map(|p| &**p)
        .filter(|p| service_selects(selector, &p.facts().labels))
        .collect();
    pods.sort_unstable_by(|a, b| a.name().cmp(b.name()));
    pods
}

/// The names of the Services that select a pod with `labels`.
/// Most clusters the benchmarks drive have no Services: this reads no pod then.
pub fn services_for(informer: &Informer, labels: &Value) -> Vec<String> {
    informer
        .values_shared(Kind::Service)
        .filter(|s| {
            s.field("spec")
                .is_some_and(|spec| service_selects(&spec["selector"], labels))
        })
        .map(|s| s.name().to_string())
        .collect()
}

/// A pod's handler (`GetServicesToUpdateOnPodChange`): the Services that select it, before
/// or after the change, queued once each.
pub fn enqueue_services_of(informer: &mut Informer, d: &Delta) {
    let mut names = services_for(informer, &d.object.facts().labels);
    if let Some(old) = &d.old {
        names.extend(services_for(informer, &old.facts().labels));
    }
    names.sort();
    names.dedup();
    for n in names {
        informer.enqueue(&n);
    }
}

/// What a Service's endpoints are computed from, as one number: the Service, its pods,
/// the objects `extra` lists, each by name and resourceVersion. The same number as at the
/// last sync means nothing an endpoint reads has changed (the periodic resync, a pod
/// write that moved no endpoint field twice), and the sync is skipped.
pub fn fingerprint(service: &Stored, pods: &[&Stored], extra: &[&Stored]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for o in std::iter::once(service)
        .chain(pods.iter().copied())
        .chain(extra.iter().copied())
    {
        o.name().hash(&mut h);
        o.meta("resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
            .hash(&mut h);
    }
    h.finish()
}

/// `ShouldPodBeInEndpoints`: not terminal, has an IP, and (unless terminating pods are
/// included) not being deleted.
pub fn should_be_in_endpoints(pod: &Stored, include_terminating: bool) -> bool {
    if matches!(pod.pod_phase(), Some("Succeeded" | "Failed")) {
        return false;
    }
    if pod_ip(pod).is_none() {
        return false;
    }
    include_terminating || !pod.facts().deleting
}

pub use super::app::pod_ip;

/// `FindPort`: a numeric target port as it is; a named one looked up among the pod's
/// container ports of the same protocol.
pub fn find_port(pod: &Stored, service_port: &Value) -> Option<i64> {
    match &service_port["targetPort"] {
        Value::Number(n) => n.as_i64(),
        Value::String(name) => {
            let protocol = service_port["protocol"].as_str().unwrap_or("TCP");
            let spec = pod.field("spec")?;
            spec["containers"]
                .as_array()?
                .iter()
                .flat_map(|c| c["ports"].as_array().into_iter().flatten())
                .find(|p| {
                    p["name"].as_str() == Some(name)
                        && p["protocol"].as_str().unwrap_or("TCP") == protocol
                })
                .and_then(|p| p["containerPort"].as_i64())
        }
        _ => None,
    }
}

/// The Ready condition's lastTransitionTime, the pod's trigger time.
fn pod_trigger_time(pod: &Stored) -> Option<i64> {
    if let Some(s) = pod.starting() {
        return Some(crate::sim::time::sim_unix(s.ready_changed()));
    }
    let status = pod.field("status")?;
    status["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Ready")
        .and_then(|c| c["lastTransitionTime"].as_str())
        .and_then(parse_rfc3339)
}

#[derive(Debug, Clone, Default)]
struct ServiceState {
    service: Option<i64>,
    pods: BTreeMap<String, i64>,
}

/// `TriggerTimeTracker`: the time of the oldest change a sync picks up, so a write says
/// since when its endpoints were due. A Service seen for the first time gives its
/// creationTimestamp.
#[derive(Debug, Clone, Default)]
pub struct TriggerTimes {
    states: BTreeMap<String, ServiceState>,
}

impl TriggerTimes {
    /// `ComputeEndpointLastChangeTriggerTime`, as Unix seconds; `None` for no change.
    pub fn compute(&mut self, service: &Value, pods: &[&Stored]) -> Option<i64> {
        let name = crate::sim::obj::name(service).to_string();
        let known = self.states.contains_key(&name);
        let state = self.states.entry(name).or_default();
        let mut min_changed: Option<i64> = None;
        let mut now_pods = BTreeMap::new();
        for p in pods {
            if let Some(t) = pod_trigger_time(p) {
                now_pods.insert(p.name().to_string(), t);
                if state.pods.get(p.name()).is_none_or(|last| t > *last) {
                    min_changed = Some(min_changed.map_or(t, |m| m.min(t)));
                }
            }
        }
        let created = service["metadata"]["creationTimestamp"]
            .as_str()
            .and_then(parse_rfc3339);
        if let Some(t) = created
            && state.service.is_none_or(|last| t > last)
        {
            min_changed = Some(min_changed.map_or(t, |m| m.min(t)));
        }
        state.pods = now_pods;
        state.service = created;
        if !known {
            return created;
        }
        min_changed
    }

    pub fn forget(&mut self, service: &str) {
        self.states.remove(service);
    }
}

/// A trigger time as the annotation writes it (`RFC3339Nano` of a whole second).
pub fn trigger_text(unix: i64) -> String {
    crate::sim::time::unix_rfc3339(unix)
}

/// The [`super::Controller`] of a controller keyed by Service name, with `informer`,
/// `client`, `triggers` and `synced` fields: a crash loses the trigger times and the
/// inputs last seen, a resync queues every Service, and its workers run once the other
/// controllers are quiet (see `after_the_others`).
macro_rules! service_keyed_controller {
    ($ty:ty, $component:expr) => {
        impl super::controller::Controller for $ty {
            super::controller::controller_basics!($ty, $component);
            fn crash(&mut self) {
                self.informer.crash();
                self.synced.clear();
                self.triggers = super::endpoint_util::TriggerTimes::default();
            }
            fn after_the_others(&self) -> bool {
                true
            }
            fn resync(&mut self) {
                let all: Vec<String> = self
                    .informer
                    .iter(crate::sim::kind::Kind::Service)
                    .map(|s| crate::sim::obj::name(s).to_string())
                    .collect();
                for n in all {
                    self.informer.enqueue(&n);
                }
            }
        }
    };
}
pub(crate) use service_keyed_controller;
