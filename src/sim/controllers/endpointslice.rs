//! The EndpointSlice controller (kube-controller-manager's `pkg/controller/endpointslice`
//! with k8s.io/endpointslice's reconciler, 1.32): for each Service with a selector it
//! keeps EndpointSlices listing the selected pods that have an IP, each with its
//! conditions: `serving` is the pod's Ready condition, `terminating` whether it is being
//! deleted, and `ready` is `serving and not terminating`. Terminating pods stay listed
//! (so a proxy can drain them); a pod without an IP, or on a node that is gone, is left
//! out. Slices hold 100 endpoints at most and are grouped by the ports the pods expose;
//! a Service with no endpoints keeps one empty placeholder slice. Slices are named from
//! `<service>-` by the API server; one that would be deleted while another is created is
//! reused under its name. Deleting the Service deletes its slices through their owner
//! reference (the garbage collector).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::endpoint_util::{
    LAST_CHANGE_TRIGGER_TIME, TriggerTimes, enqueue_services_of, find_port, fingerprint, pod_ip,
    selected_pods, should_be_in_endpoints, trigger_text,
};
use crate::sim::api::ApiServer;
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::kinds::service::{HEADLESS_LABEL, SERVICE_NAME_LABEL};
use crate::sim::obj;
use crate::sim::stored::Stored;

pub const WATCHES: &[Kind] = &[Kind::Service, Kind::Pod, Kind::EndpointSlice, Kind::Node];
/// The controller's name, in `endpointslice.kubernetes.io/managed-by` and its events.
pub const COMPONENT: &str = "endpointslice-controller.k8s.io";
pub const MANAGED_BY_LABEL: &str = "endpointslice.kubernetes.io/managed-by";
/// `--max-endpoints-per-slice`'s default.
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;

#[derive(Clone)]
pub struct EndpointSliceController {
    pub informer: Informer,
    pub client: RateLimit,
    triggers: TriggerTimes,
    /// Each Service's inputs at its last sync (see [`fingerprint`]).
    synced: crate::sim::HashMap<String, u64>,
}

/// An endpoint's identity in the desired set (`hashEndpoint`): its addresses and the pod
/// it names.
fn endpoint_key(e: &Value) -> String {
    let mut key = String::new();
    for a in e["addresses"].as_array().into_iter().flatten() {
        key.push_str(a.as_str().unwrap_or(""));
        key.push(',');
    }
    key.push('|');
    key.push_str(e["targetRef"]["name"].as_str().unwrap_or(""));
    key
}

impl EndpointSliceController {
    pub fn new(resync: u64) -> Self {
        EndpointSliceController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            triggers: TriggerTimes::default(),
            synced: Default::default(),
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::Service => self.informer.enqueue(d.object.name()),
                Kind::Pod => enqueue_services_of(&mut self.informer, &d),
                Kind::EndpointSlice => {
                    let labels = &d.object.facts().labels;
                    if labels[MANAGED_BY_LABEL] == COMPONENT
                        && let Some(svc) = labels[SERVICE_NAME_LABEL].as_str()
                    {
                        self.informer.enqueue(svc);
                    }
                }
                // Nodes are read for their zone; their changes move no endpoint here.
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

    /// `podToEndpoint`.
    fn endpoint(svc: &Value, pod: &Stored, ip: &str, node: &Value) -> Value {
        let ready_cond = pod.pod().ready;
        let terminating = pod.facts().deleting;
        // "ready" is never true for a terminating pod, unless the Service publishes
        // not-ready addresses.
        let publish = svc["spec"]["publishNotReadyAddresses"] == true;
        let mut e = json!({
            "addresses": [ip],
            "conditions": {
                "ready": publish || (ready_cond && !terminating),
                "serving": ready_cond,
                "terminating": terminating,
            },
            "targetRef": {
                "kind": "Pod",
                "namespace": "default",
                "name": pod.name(),
                "uid": pod.uid(),
            },
        });
        if let Some(n) = pod.pod_node() {
            e["nodeName"] = json!(n);
        }
        // ShouldSetHostname: a pod that names this Service as its subdomain.
        if let Some(spec) = pod.field("spec")
            && let Some(h) = spec["hostname"].as_str().filter(|h| !h.is_empty())
            && spec["subdomain"] == svc["metadata"]["name"]
        {
            e["hostname"] = json!(h);
        }
        if let Some(zone) = node["metadata"]["labels"]["topology.kubernetes.io/zone"]
            .as_str()
            .filter(|z| !z.is_empty())
        {
            e["zone"] = json!(zone);
        }
        e
    }

    /// `getEndpointPorts`: each Service port the pod has, named (`""` when unnamed).
    fn ports(svc: &Value, pod: &Stored) -> Value {
        let ports: Vec<Value> = svc["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|sp| {
                let port = find_port(pod, sp)?;
                Some(json!({
                    "name": sp["name"].as_str().unwrap_or(""),
                    "port": port,
                    "protocol": sp["protocol"].as_str().unwrap_or("TCP"),
                }))
            })
            .collect();
        Value::Array(ports)
    }

    /// `newEndpointSlice`: generated name, the Service's labels and the reserved ones, the
    /// Service as controlling owner.
    fn new_slice(svc: &Value, ports: &Value) -> Value {
        let mut labels = svc["metadata"]["labels"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        labels.retain(|k, _| {
            !matches!(
                k.as_str(),
                SERVICE_NAME_LABEL | MANAGED_BY_LABEL | HEADLESS_LABEL
            )
        });
        if crate::sim::validation::headless(svc) {
            labels.insert(HEADLESS_LABEL.into(), json!(""));
        }
        labels.insert(SERVICE_NAME_LABEL.into(), svc["metadata"]["name"].clone());
        labels.insert(MANAGED_BY_LABEL.into(), json!(COMPONENT));
        let name = obj::name(svc);
        json!({
            "apiVersion": "discovery.k8s.io/v1",
            "kind": "EndpointSlice",
            "metadata": {
                "generateName": format!("{name}-"),
                "namespace": "default",
                "labels": labels,
                "ownerReferences": [{
                    "apiVersion": "v1",
                    "kind": "Service",
                    "name": name,
                    "uid": obj::uid(svc),
                    "controller": true,
                    "blockOwnerDeletion": true,
                }],
            },
            "addressType": "IPv4",
            // Stored through protobuf, an empty list reads back as null.
            "endpoints": Value::Null,
            "ports": if ports.as_array().is_some_and(|p| !p.is_empty()) { ports.clone() } else { Value::Null },
        })
    }

    /// `reconcile` of one Service.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(svc) = self.informer.get(Kind::Service, name).cloned() else {
            self.triggers.forget(name);
            return 0;
        };
        if svc["spec"]["selector"]
            .as_object()
            .is_none_or(|m| m.is_empty())
        {
            return 0;
        }
        let pods = selected_pods(&self.informer, &svc);
        // The slices, and the nodes the endpoints read their zones from, count as inputs.
        // The Service's slices, in name order as the lister lists them.
        let mut slices: Vec<&Stored> = self
            .informer
            .values_shared(Kind::EndpointSlice)
            .filter(|s| s.facts().labels[SERVICE_NAME_LABEL] == *name)
            .map(|s| &**s)
            .collect();
        slices.sort_unstable_by(|a, b| a.name().cmp(b.name()));
        let mut extra = slices.clone();
        let mut nodes: Vec<&Stored> = self
            .informer
            .values_shared(Kind::Node)
            .map(|n| &**n)
            .collect();
        nodes.sort_unstable_by(|a, b| a.name().cmp(b.name()));
        extra.extend(nodes);
        let print = self
            .informer
            .get_shared(Kind::Service, name)
            .map(|s| fingerprint(s, &pods, &extra));
        if print.is_some() && self.synced.get(name) == print.as_ref() {
            return 0;
        }
        let trigger = self.triggers.compute(&svc, &pods);
        // Desired endpoints by the ports they expose, in pod order.
        let mut desired: BTreeMap<String, (Value, Vec<Value>)> = BTreeMap::new();
        for pod in &pods {
            if !should_be_in_endpoints(pod, true) {
                continue;
            }
            let Some(ip) = pod_ip(pod) else { continue };
            // A pod whose node is gone is left out (the pod GC will remove it).
            let Some(node) = pod
                .pod_node()
                .and_then(|n| self.informer.get(Kind::Node, n))
            else {
                continue;
            };
            let ports = Self::ports(&svc, pod);
            let entry = desired
                .entry(ports.to_string())
                .or_insert_with(|| (ports, Vec::new()));
            entry.1.push(Self::endpoint(&svc, pod, ip, node));
        }
        let existing: Vec<Value> = slices
            .iter()
            .filter(|s| s.facts().labels[MANAGED_BY_LABEL] == COMPONENT)
            .map(|s| s.value().clone())
            .collect();
        let existing_count = existing.len();
        let mut by_ports: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut to_delete: Vec<Value> = Vec::new();
        for s in existing {
            if owned_by(&s, &svc) {
                let key = match &s["ports"] {
                    Value::Null => "[]".to_string(),
                    p => p.to_string(),
                };
                by_ports.entry(key).or_default().push(s);
            } else {
                to_delete.push(s);
            }
        }
        let (mut to_create, mut to_update) = (Vec::new(), Vec::new());
        for (key, (ports, endpoints)) in desired {
            let slices = by_ports.remove(&key).unwrap_or_default();
            let (c, u, d) = self.by_port_mapping(&svc, &ports, slices, endpoints);
            to_create.extend(c);
            to_update.extend(u);
            to_delete.extend(d);
        }
        to_delete.extend(by_ports.into_values().flatten());
        if existing_count == to_delete.len() && to_create.is_empty() {
            let placeholder = Self::new_slice(&svc, &Value::Null);
            let same = |s: &Value| {
                s["metadata"]["labels"] == placeholder["metadata"]["labels"]
                    && s["ports"].as_array().is_none_or(|p| p.is_empty())
                    && s["endpoints"].as_array().is_none_or(|e| e.is_empty())
            };
            if to_delete.len() == 1 && same(&to_delete[0]) {
                to_delete.clear();
            } else {
                to_create.push(placeholder);
            }
        }
        // finalize: a slice to delete that this Service owns is reused for one to
        // create, under its name (one owned by an older Service of the same name is
        // left to the garbage collector).
        let mut i = 0;
        while i < to_delete.len() && !to_create.is_empty() {
            if owned_by(&to_delete[i], &svc) && to_delete[i]["addressType"] == "IPv4" {
                let old = to_delete.remove(i);
                if let Some(mut new) = to_create.pop() {
                    new["metadata"]["name"] = old["metadata"]["name"].clone();
                    to_update.push(new);
                }
            } else {
                i += 1;
            }
        }
        let annotate = |s: &mut Value| {
            let ann = &mut s["metadata"]["annotations"];
            if !ann.is_object() {
                *ann = json!({});
            }
            match trigger {
                Some(t) => ann[LAST_CHANGE_TRIGGER_TIME] = json!(trigger_text(t)),
                None => {
                    if let Some(m) = ann.as_object_mut() {
                        m.remove(LAST_CHANGE_TRIGGER_TIME);
                    }
                }
            }
            if ann.as_object().is_some_and(|m| m.is_empty())
                && let Some(m) = s["metadata"].as_object_mut()
            {
                m.remove("annotations");
            }
        };
        let mut writes = 0;
        let attempted = to_create.len() + to_update.len() + to_delete.len();
        for mut s in to_create {
            annotate(&mut s);
            self.client.spend(1);
            writes += usize::from(api.create(Kind::EndpointSlice, s, now).is_ok());
        }
        for mut s in to_update {
            annotate(&mut s);
            self.client.spend(1);
            writes += usize::from(api.update(Kind::EndpointSlice, s, None).is_ok());
        }
        for s in to_delete {
            self.client.spend(1);
            writes += usize::from(
                api.delete(Kind::EndpointSlice, obj::name(&s), None, now)
                    .is_ok(),
            );
        }
        // Inputs are marked seen only when every write went through.
        match print {
            Some(p) if writes == attempted => {
                self.synced.insert(name.to_string(), p);
            }
            _ => {
                self.synced.remove(name);
            }
        }
        writes
    }

    /// `reconcileByPortMapping`: existing slices keep the endpoints still desired (updated
    /// where their conditions moved); emptied slices go; new endpoints fill the slices being
    /// updated, then the unchanged slice closest to full, then new slices.
    fn by_port_mapping(
        &self,
        svc: &Value,
        ports: &Value,
        existing: Vec<Value>,
        desired: Vec<Value>,
    ) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
        let (mut update, mut unchanged, mut delete) = (Vec::new(), Vec::new(), Vec::new());
        let fresh = Self::new_slice(svc, ports);
        // The desired set by identity; taken endpoints leave holes, so the rest keep their
        // (pod) order.
        let index: crate::sim::HashMap<String, usize> = desired
            .iter()
            .enumerate()
            .map(|(i, d)| (endpoint_key(d), i))
            .collect();
        let mut desired: Vec<Option<Value>> = desired.into_iter().map(Some).collect();
        for s in existing {
            let mut kept = Vec::new();
            let mut changed = false;
            let old = s["endpoints"].as_array().map_or(&[][..], Vec::as_slice);
            for e in old {
                if let Some(d) = index.get(&endpoint_key(e)).and_then(|i| desired[*i].take()) {
                    changed |= d != *e;
                    kept.push(d);
                }
            }
            let old_len = old.len();
            let labels_changed = s["metadata"]["labels"] != fresh["metadata"]["labels"];
            let relabel = |mut next: Value| {
                next["metadata"]["labels"] = fresh["metadata"]["labels"].clone();
                next
            };
            if changed || kept.len() != old_len {
                if kept.is_empty() {
                    delete.push(s);
                } else {
                    let mut next = relabel(s);
                    next["endpoints"] = Value::Array(kept);
                    update.push(next);
                }
            } else if labels_changed {
                update.push(relabel(s));
            } else {
                unchanged.push(s);
            }
        }
        let mut desired: Vec<Value> = desired.into_iter().flatten().collect();
        let len = |s: &Value| s["endpoints"].as_array().map_or(0, Vec::len);
        if !desired.is_empty() && !update.is_empty() {
            update.sort_by_key(|s| std::cmp::Reverse(len(s)));
            for s in &mut update {
                fill(s, &mut desired);
            }
        }
        let mut create = Vec::new();
        while !desired.is_empty() {
            let target = (desired.len() < MAX_ENDPOINTS_PER_SLICE)
                .then(|| {
                    // getSliceToFill: the unchanged slice closest to full that takes them all.
                    unchanged
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| len(s) + desired.len() <= MAX_ENDPOINTS_PER_SLICE)
                        .min_by_key(|(_, s)| MAX_ENDPOINTS_PER_SLICE - (len(s) + desired.len()))
                        .map(|(i, _)| i)
                })
                .flatten();
            match target {
                Some(i) => {
                    let mut s = unchanged.remove(i);
                    fill(&mut s, &mut desired);
                    update.push(s);
                }
                None => {
                    let mut s = fresh.clone();
                    fill(&mut s, &mut desired);
                    create.push(s);
                }
            }
        }
        (create, update, delete)
    }
}

/// `ownedBy`: the slice names the Service as an owner.
fn owned_by(slice: &Value, svc: &Value) -> bool {
    slice["metadata"]["ownerReferences"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|o| o["uid"] == svc["metadata"]["uid"] && o["kind"] == "Service")
}

/// Moves desired endpoints into `slice` until it is full.
fn fill(slice: &mut Value, desired: &mut Vec<Value>) {
    if !slice["endpoints"].is_array() {
        slice["endpoints"] = json!([]);
    }
    if let Some(list) = slice["endpoints"].as_array_mut() {
        let room = MAX_ENDPOINTS_PER_SLICE
            .saturating_sub(list.len())
            .min(desired.len());
        list.extend(desired.drain(..room));
    }
}

super::endpoint_util::service_keyed_controller!(EndpointSliceController, Component::EndpointSlice);
