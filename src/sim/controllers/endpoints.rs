//! The endpoints controller (kube-controller-manager's `pkg/controller/endpoint`, 1.32):
//! the older, single-object view of a Service's endpoints, still kept in step beside the
//! EndpointSlices. One Endpoints object per Service with a selector, named as the
//! Service and labelled with its labels. Ready pods are `addresses`, the others
//! `notReadyAddresses`; unlike the slices, a pod being deleted is dropped at once
//! (unless the Service publishes not-ready addresses). Addresses are sorted by IP as text
//! (`RepackSubsets`). Deleting the Service deletes its Endpoints.

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
use crate::sim::kinds::service::HEADLESS_LABEL;

pub const WATCHES: &[Kind] = &[Kind::Service, Kind::Pod, Kind::Endpoints];
/// The source of its events.
pub const COMPONENT: &str = "endpoint-controller";

#[derive(Clone)]
pub struct EndpointsController {
    pub informer: Informer,
    pub client: RateLimit,
    triggers: TriggerTimes,
    /// Each Service's inputs at its last sync (see [`fingerprint`]).
    synced: crate::sim::HashMap<String, u64>,
}

impl EndpointsController {
    pub fn new(resync: u64) -> Self {
        EndpointsController {
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
                // Only a deleted Endpoints object is put back (`onEndpointsDelete`): a hand
                // edit stands until the next change of the Service or its pods.
                Kind::Endpoints if d.event == crate::sim::api::EventType::Deleted => {
                    self.informer.enqueue(d.object.name())
                }
                Kind::Pod => enqueue_services_of(&mut self.informer, &d),
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

    /// The subsets of `svc`: one per set of ports, addresses sorted by IP then uid.
    fn subsets(svc: &Value, pods: &[&crate::sim::stored::Stored]) -> Vec<Value> {
        let publish = svc["spec"]["publishNotReadyAddresses"].as_bool() == Some(true);
        // RepackSubsets: the addresses offering the same ports share a subset, as
        // (ports, ready addresses, not-ready addresses).
        let mut groups: Vec<(Value, Vec<Value>, Vec<Value>)> = Vec::new();
        let service_ports = svc["spec"]["ports"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        let headless = crate::sim::validation::headless(svc);
        for pod in pods {
            if !should_be_in_endpoints(pod, publish) {
                continue;
            }
            let Some(ip) = pod_ip(pod) else { continue };
            let mut address = json!({
                "ip": ip,
                "targetRef": {"kind": "Pod", "namespace": "default", "name": pod.name(), "uid": pod.uid()},
            });
            if let Some(n) = pod.pod_node() {
                address["nodeName"] = json!(n);
            }
            let ready = publish || pod.pod().ready;
            let ports: Vec<Value> = service_ports
                .iter()
                .filter_map(|sp| {
                    let port = find_port(pod, sp)?;
                    let mut p =
                        json!({"port": port, "protocol": sp["protocol"].as_str().unwrap_or("TCP")});
                    if let Some(n) = sp["name"].as_str().filter(|n| !n.is_empty()) {
                        p["name"] = json!(n);
                    }
                    Some(p)
                })
                .collect();
            // A headless Service may have no ports: its addresses stand alone.
            if ports.is_empty() && !(service_ports.is_empty() && headless) {
                continue;
            }
            let ports = Value::Array(ports);
            let i = match groups.iter().position(|g| g.0 == ports) {
                Some(i) => i,
                None => {
                    groups.push((ports, Vec::new(), Vec::new()));
                    groups.len() - 1
                }
            };
            if ready {
                groups[i].1.push(address);
            } else {
                groups[i].2.push(address);
            }
        }
        let key = |a: &Value| {
            (
                a["ip"].as_str().unwrap_or("").to_string(),
                a["targetRef"]["uid"].as_str().unwrap_or("").to_string(),
            )
        };
        groups
            .into_iter()
            .map(|(ports, mut ready, mut not_ready)| {
                ready.sort_by_cached_key(key);
                not_ready.sort_by_cached_key(key);
                let mut s = json!({});
                if ports.as_array().is_some_and(|p| !p.is_empty()) {
                    s["ports"] = ports;
                }
                if !ready.is_empty() {
                    s["addresses"] = Value::Array(ready);
                }
                if !not_ready.is_empty() {
                    s["notReadyAddresses"] = Value::Array(not_ready);
                }
                s
            })
            .collect()
    }

    /// `syncService`.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(svc) = self.informer.get(Kind::Service, name).cloned() else {
            self.triggers.forget(name);
            self.client.spend(1);
            return usize::from(api.delete(Kind::Endpoints, name, None, now).is_ok());
        };
        if svc["spec"]["selector"]
            .as_object()
            .is_none_or(|m| m.is_empty())
        {
            return 0;
        }
        let pods = selected_pods(&self.informer, &svc);
        let print = self.informer.get_shared(Kind::Service, name).map(|s| {
            let own: Vec<&crate::sim::stored::Stored> = self
                .informer
                .get_shared(Kind::Endpoints, name)
                .map(|e| &**e)
                .into_iter()
                .collect();
            fingerprint(s, &pods, &own)
        });
        if print.is_some() && self.synced.get(name) == print.as_ref() {
            return 0;
        }
        if let Some(p) = print {
            self.synced.insert(name.to_string(), p);
        }
        let subsets = Self::subsets(&svc, &pods);
        let trigger = self.triggers.compute(&svc, &pods);
        let labels = svc["metadata"]["labels"].clone();
        let current = self.informer.get(Kind::Endpoints, name);
        if let Some(cur) = current {
            let mut cur_labels = cur["metadata"]["labels"].clone();
            if let Some(m) = cur_labels.as_object_mut() {
                m.remove(HEADLESS_LABEL);
            }
            let no_labels = |v: &Value| v.as_object().is_none_or(|m| m.is_empty());
            let same_labels =
                cur_labels == labels || (no_labels(&cur_labels) && no_labels(&labels));
            let cur_subsets = cur["subsets"].as_array().map_or(&[][..], Vec::as_slice);
            if same_labels && cur_subsets == subsets.as_slice() {
                return 0;
            }
        }
        let exists = current.is_some();
        let mut next = current.cloned().unwrap_or_else(|| {
            json!({
                "apiVersion": "v1",
                "kind": "Endpoints",
                "metadata": {"name": name, "namespace": "default"},
            })
        });
        if subsets.is_empty() {
            if let Some(m) = next.as_object_mut() {
                m.remove("subsets");
            }
        } else {
            next["subsets"] = Value::Array(subsets);
        }
        let mut labels = labels.as_object().cloned().unwrap_or_default();
        if crate::sim::validation::headless(&svc) {
            labels.insert(HEADLESS_LABEL.into(), json!(""));
        } else {
            labels.remove(HEADLESS_LABEL);
        }
        let meta = &mut next["metadata"];
        if labels.is_empty() {
            if let Some(m) = meta.as_object_mut() {
                m.remove("labels");
            }
        } else {
            meta["labels"] = Value::Object(labels);
        }
        let mut annotations = meta["annotations"].as_object().cloned().unwrap_or_default();
        match trigger {
            Some(t) => {
                annotations.insert(LAST_CHANGE_TRIGGER_TIME.into(), json!(trigger_text(t)));
            }
            None => {
                annotations.remove(LAST_CHANGE_TRIGGER_TIME);
            }
        }
        if annotations.is_empty() {
            if let Some(m) = meta.as_object_mut() {
                m.remove("annotations");
            }
        } else {
            meta["annotations"] = Value::Object(annotations);
        }
        self.client.spend(1);
        let written = if exists {
            api.update(Kind::Endpoints, next, None).is_ok()
        } else {
            api.create(Kind::Endpoints, next, now).is_ok()
        };
        if !written {
            // Tried again at the next change or resync.
            self.synced.remove(name);
        }
        usize::from(written)
    }
}

super::endpoint_util::service_keyed_controller!(EndpointsController, Component::Endpoints);
