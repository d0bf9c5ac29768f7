//! The kubelet's node half: each node registers itself (its Node and its Lease in
//! `kube-node-lease`), renews its lease as its heartbeat, and reports node status. The
//! pod half is [`super::kubelet`].
//!
//! Timings are the kubelet's defaults: the lease lasts 40 s (`nodeLeaseDurationSeconds`)
//! and is renewed every quarter of that, 10 s; node status is posted when it changes or
//! every 5 minutes (`nodeStatusReportFrequency`).

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, Note, Ref};
use crate::sim::kind::Kind;
use crate::sim::time::{rfc3339, rfc3339_micro};

/// `nodeLeaseDurationSeconds`.
pub const LEASE_SECONDS: u64 = 40;
/// The lease is renewed every quarter of its duration.
pub const RENEW_SECONDS: u64 = LEASE_SECONDS / 4;
/// `nodeStatusReportFrequency`: status unchanged is posted again this often.
pub const REPORT_SECONDS: u64 = 300;
/// The kubelet version the demo's nodes run.
pub const KUBELET_VERSION: &str = "v1.32.0";

/// A node as a scenario describes it.
#[derive(Debug, Clone, Copy)]
pub struct NodeSpec {
    pub name: &'static str,
    /// Capacity (and allocatable: the demo reserves nothing for the system).
    pub cpu: &'static str,
    pub memory: &'static str,
    pub labels: &'static [(&'static str, &'static str)],
    /// (key, value, effect).
    pub taints: &'static [(&'static str, &'static str, &'static str)],
}

#[derive(Debug, Clone)]
struct Agent {
    name: String,
    /// Whether its kubelet runs (the `node-down` directive stops it).
    up: bool,
    renewed: u64,
    reported: u64,
    /// `spec.unschedulable` as it last saw it (`lastNodeUnschedulable`).
    unschedulable: bool,
}

/// The kubelets of the cluster's nodes.
#[derive(Debug, Clone, Default)]
pub struct NodeAgents {
    agents: Vec<Agent>,
}

/// The Node a kubelet registers.
pub fn node_object(spec: &NodeSpec, index: usize, now: u64) -> Value {
    let ts = rfc3339(now);
    let mut labels = serde_json::Map::new();
    for (k, v) in [
        ("beta.kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/hostname", spec.name),
        ("kubernetes.io/os", "linux"),
    ]
    .into_iter()
    .chain(spec.labels.iter().copied())
    {
        labels.insert(k.to_string(), Value::from(v));
    }
    let taints: Vec<Value> = spec
        .taints
        .iter()
        .map(|(k, v, e)| {
            let mut t = json!({"key": k, "effect": e});
            if !v.is_empty() {
                t["value"] = json!(v);
            }
            t
        })
        .collect();
    let mut spec_json = json!({});
    if !taints.is_empty() {
        spec_json["taints"] = Value::Array(taints);
    }
    let condition = |type_: &str, status: &str, reason: &str, message: &str| {
        json!({
            "type": type_, "status": status, "reason": reason, "message": message,
            "lastHeartbeatTime": ts, "lastTransitionTime": ts,
        })
    };
    let capacity = json!({"cpu": spec.cpu, "memory": spec.memory, "pods": "110"});
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": spec.name,
            "labels": labels,
            "annotations": {
                "volumes.kubernetes.io/controller-managed-attach-detach": "true",
            },
        },
        "spec": spec_json,
        "status": {
            "capacity": capacity,
            "allocatable": capacity,
            "conditions": [
                condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
                    "kubelet has sufficient memory available"),
                condition("DiskPressure", "False", "KubeletHasNoDiskPressure",
                    "kubelet has no disk pressure"),
                condition("PIDPressure", "False", "KubeletHasSufficientPID",
                    "kubelet has sufficient PID available"),
                condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
            ],
            "addresses": [
                {"type": "InternalIP", "address": format!("172.18.0.{}", index + 2)},
                {"type": "Hostname", "address": spec.name},
            ],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": format!("{:08x}-0000-4000-8000-{:012x}", index + 1, index + 1),
                "containerRuntimeVersion": "containerd://1.7.24",
                "kernelVersion": "6.1.0-28-amd64",
                // Still reported in 1.32: DisableNodeKubeProxyVersion is off by default.
                "kubeProxyVersion": KUBELET_VERSION,
                "kubeletVersion": KUBELET_VERSION,
                "machineID": format!("{:032x}", index + 1),
                "operatingSystem": "linux",
                "osImage": "Debian GNU/Linux 12 (bookworm)",
                "systemUUID": format!("{:08x}-0000-4000-8000-{:012x}", index + 101, index + 101),
            },
        },
    })
}

fn lease_object(node: &Value, now: u64) -> Value {
    let name = node["metadata"]["name"].as_str().unwrap_or("");
    json!({
        "apiVersion": "coordination.k8s.io/v1",
        "kind": "Lease",
        "metadata": {
            "name": name,
            "ownerReferences": [{
                "apiVersion": "v1", "kind": "Node", "name": name,
                "uid": node["metadata"]["uid"],
            }],
        },
        "spec": {
            "holderIdentity": name,
            "leaseDurationSeconds": LEASE_SECONDS,
            "renewTime": rfc3339_micro(now),
        },
    })
}

/// The most nodes `node-add` lets a demo have.
pub const MAX_NODES: usize = 10;

impl NodeAgents {
    /// Each node registers: its Node, then its Lease.
    pub fn register(api: &mut ApiServer, nodes: &[NodeSpec], now: u64) -> Self {
        let mut agents = Vec::new();
        for (i, spec) in nodes.iter().enumerate() {
            let Ok(node) = api.create(Kind::Node, node_object(spec, i, now), now) else {
                continue;
            };
            let _ = api.create(Kind::Lease, lease_object(&node, now), now);
            agents.push(Agent {
                name: spec.name.to_string(),
                up: true,
                renewed: now,
                reported: now,
                unschedulable: false,
            });
        }
        NodeAgents { agents }
    }

    /// `node-add`: a new node's kubelet registers it (2 CPUs, 4 GiB, nothing else), as
    /// the scenarios' own nodes did, and starts heartbeating.
    pub fn join(&mut self, api: &mut ApiServer, name: &str, now: u64) -> Result<(), String> {
        if self.agents.iter().any(|a| a.name == name) {
            return Err(format!("error: node `{name}` is already registered\n"));
        }
        if self.agents.len() >= MAX_NODES {
            return Err(format!(
                "error: kubedrill's demo runs at most {MAX_NODES} nodes\n"
            ));
        }
        let spec = NodeSpec {
            name: "",
            cpu: "2",
            memory: "4Gi",
            labels: &[],
            taints: &[],
        };
        let mut node = node_object(&spec, self.agents.len(), now);
        node["metadata"]["name"] = json!(name);
        node["metadata"]["labels"]["kubernetes.io/hostname"] = json!(name);
        if let Some(a) = node["status"]["addresses"].as_array_mut() {
            for x in a.iter_mut().filter(|x| x["type"] == "Hostname") {
                x["address"] = json!(name);
            }
        }
        let node = api
            .create(Kind::Node, node, now)
            .map_err(|e| format!("{}\n", e.message))?;
        let _ = api.create(Kind::Lease, lease_object(&node, now), now);
        self.agents.push(Agent {
            name: name.to_string(),
            up: true,
            renewed: now,
            reported: now,
            unschedulable: false,
        });
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// The nodes' names, in the order they registered.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.agents.iter().map(|a| a.name.as_str())
    }

    /// Whether the node's kubelet runs.
    pub fn is_up(&self, name: &str) -> bool {
        self.agents.iter().any(|a| a.name == name && a.up)
    }

    /// `node-down` / `node-up`: the node's kubelet stops reaching the API server, or
    /// reaches it again; back, it renews its lease and posts its status at once, each
    /// condition that changes with its event (the kubelet's condition setters).
    pub fn set_up(
        &mut self,
        api: &mut ApiServer,
        name: &str,
        up: bool,
        now: u64,
    ) -> Result<(), String> {
        let Some(a) = self.agents.iter_mut().find(|a| a.name == name) else {
            let names: Vec<&str> = self.agents.iter().map(|a| a.name.as_str()).collect();
            return Err(format!(
                "error: no node `{name}`; the nodes are {}\n",
                names.join(", ")
            ));
        };
        if a.up == up {
            return Err(format!(
                "error: {name}'s kubelet is already {}\n",
                if up { "running" } else { "stopped" }
            ));
        }
        a.up = up;
        if up {
            a.renewed = now;
            a.reported = now;
            renew(api, name, now);
            post_status(api, name, now);
        }
        Ok(())
    }

    /// One simulated second: each running kubelet renews its lease when due and posts
    /// its status when the report period has passed.
    pub fn tick(&mut self, api: &mut ApiServer, now: u64) {
        for a in self.agents.iter_mut().filter(|a| a.up) {
            if now >= a.renewed + RENEW_SECONDS {
                a.renewed = now;
                renew(api, &a.name, now);
                // The status sync of the same period notices a cordon
                // (`recordNodeSchedulableEvent`).
                let unschedulable = api
                    .get(Kind::Node, &a.name)
                    .is_ok_and(|n| n["spec"]["unschedulable"] == true);
                if unschedulable != a.unschedulable {
                    a.unschedulable = unschedulable;
                    let event = if unschedulable {
                        "NodeNotSchedulable"
                    } else {
                        "NodeSchedulable"
                    };
                    record_node_event(api, &a.name, event, now);
                }
            }
            if now >= a.reported + REPORT_SECONDS {
                a.reported = now;
                post_status(api, &a.name, now);
            }
        }
    }
}

fn renew(api: &mut ApiServer, name: &str, now: u64) {
    let _ = api.store_field(Kind::Lease, name, "spec", |spec| {
        spec["renewTime"] = json!(rfc3339_micro(now));
    });
}

/// The kubelet's condition setters, in their order: the status each condition should
/// have, and its reason, message and event when it changes to it.
const SETTERS: [(&str, &str, &str, &str, &str); 4] = [
    (
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
        "NodeHasSufficientMemory",
    ),
    (
        "DiskPressure",
        "False",
        "KubeletHasNoDiskPressure",
        "kubelet has no disk pressure",
        "NodeHasNoDiskPressure",
    ),
    (
        "PIDPressure",
        "False",
        "KubeletHasSufficientPID",
        "kubelet has sufficient PID available",
        "NodeHasSufficientPID",
    ),
    (
        "Ready",
        "True",
        "KubeletReady",
        "kubelet is posting ready status",
        "NodeReady",
    ),
];

/// A status update of a kubelet that was away: every condition's heartbeat now, and each
/// one the node lifecycle controller changed set back, recorded as the kubelet does
/// (`Node NAME status is now: NodeReady`).
fn post_status(api: &mut ApiServer, name: &str, now: u64) {
    let Ok(mut node) = api.get(Kind::Node, name).cloned() else {
        return;
    };
    let Some(conditions) = node["status"]["conditions"].as_array_mut() else {
        return;
    };
    let mut changed = Vec::new();
    for (type_, status, reason, message, event) in SETTERS {
        let Some(c) = conditions.iter_mut().find(|c| c["type"] == type_) else {
            continue;
        };
        c["lastHeartbeatTime"] = json!(rfc3339(now));
        if c["status"] != status {
            c["status"] = json!(status);
            c["reason"] = json!(reason);
            c["message"] = json!(message);
            c["lastTransitionTime"] = json!(rfc3339(now));
            changed.push(event);
        }
    }
    if api.update_status(Kind::Node, node).is_err() {
        return;
    }
    for event in changed {
        record_node_event(api, name, event, now);
    }
}

/// `recordNodeStatusEvent`: `Node NAME status is now: EVENT`, on a reference that carries
/// the node's name as its uid.
fn record_node_event(api: &mut ApiServer, name: &str, event: &str, now: u64) {
    let message = format!("Node {name} status is now: {event}");
    api.record_event(
        &Ref {
            name,
            uid: name,
            namespace: "",
        },
        Kind::Node,
        Note {
            type_: "Normal",
            reason: event,
            message: &message,
            component: super::kubelet::COMPONENT,
            field_path: None,
        },
        now,
    );
}
