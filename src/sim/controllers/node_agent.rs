//! The kubelet's node half: each node registers itself (its Node and its Lease in
//! `kube-node-lease`), renews its lease as its heartbeat, and reports node status. The
//! pod half is [`super::kubelet`].
//!
//! Timings are the kubelet's defaults: the lease lasts 40 s (`nodeLeaseDurationSeconds`)
//! and is renewed every quarter of that, 10 s; node status is posted when it changes or
//! every 5 minutes (`nodeStatusReportFrequency`).

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
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
            });
        }
        NodeAgents { agents }
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// One simulated second: each running kubelet renews its lease when due and posts
    /// its status when the report period has passed.
    pub fn tick(&mut self, api: &mut ApiServer, now: u64) {
        for a in self.agents.iter_mut().filter(|a| a.up) {
            if now >= a.renewed + RENEW_SECONDS {
                a.renewed = now;
                if let Ok(mut lease) = api.get(Kind::Lease, &a.name).cloned() {
                    lease["spec"]["renewTime"] = json!(rfc3339_micro(now));
                    let _ = api.update(Kind::Lease, lease, None);
                }
            }
            if now >= a.reported + REPORT_SECONDS {
                a.reported = now;
                if let Ok(mut node) = api.get(Kind::Node, &a.name).cloned()
                    && let Some(conditions) = node["status"]["conditions"].as_array_mut()
                {
                    for c in conditions {
                        c["lastHeartbeatTime"] = json!(rfc3339(now));
                    }
                    let _ = api.update_status(Kind::Node, node);
                }
            }
        }
    }
}
