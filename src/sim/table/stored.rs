//! Tables read stored objects in place, so `kubectl get pods` over 10,000 pods builds no
//! pod's JSON: metadata entry by entry, status as stored, and a pod's spec as its template
//! has it (the API server adds each pod its own service-account volume, which no table
//! column reads; its node, which one does, is read from the pod).

use serde_json::Value;

use super::fields::Lookup;
use crate::sim::stored::Stored;

impl Lookup for Stored {
    fn lookup(&self, path: &[&str]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        let root = match *first {
            "metadata" => match rest.split_first() {
                Some((key, rest)) => return self.meta(key)?.lookup(rest),
                None => self.field("metadata")?,
            },
            // The node is the pod's own, not its template's.
            "spec" if rest == ["nodeName"] => return self.pod_node_value(),
            "spec" => self.unfilled("spec")?,
            field => self.field(field)?,
        };
        root.lookup(rest)
    }
}
