//! Nodes (v1): pkg/registry/core/node/strategy.go and `printNode`. Cluster-scoped; no
//! generation; status is a subresource the kubelet writes. The demo's nodes are
//! registered by the scenario, as kubelets register themselves.

use serde_json::Value;

use super::{Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::table::{Lookup, describe_node, rows};

pub struct Node;

impl Strategy for Node {
    fn namespace(&self) -> Option<&'static str> {
        None
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::NODE)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 5 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "STATUS",
            "ROLES",
            "AGE",
            "VERSION",
            "INTERNAL-IP",
            "EXTERNAL-IP",
            "OS-IMAGE",
            "KERNEL-VERSION",
            "CONTAINER-RUNTIME",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 5] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::node(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let name = obj["metadata"]["name"].as_str().unwrap_or("");
        let lease = reader
            .objects(Kind::Lease)
            .into_iter()
            .find(|l| l["metadata"]["name"] == name);
        // spec.nodeName=<node>,status.phase!=Succeeded,status.phase!=Failed
        let pods: Vec<&Value> = reader
            .objects(Kind::Pod)
            .into_iter()
            .filter(|p| p["spec"]["nodeName"] == name)
            .filter(|p| !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed")))
            .collect();
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_node(obj, lease, &pods, &events, now))
    }
}
