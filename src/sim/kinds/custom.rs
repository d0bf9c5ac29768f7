//! Objects of the kinds CRDs add: apiextensions-apiserver `pkg/registry/customresource`.
//! What depends on the CRD (its schema, printer columns, whether status is a subresource)
//! the API server reads from the served definition (`api/custom.rs`); what is the same for
//! every custom kind is here: the scope, generation moving with any change outside
//! metadata, and kubectl's generic describer.

use serde_json::Value;

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::table::{Lookup, describe_generic};

/// A custom kind's strategy; the scope comes from its CRD.
pub struct CustomResource {
    namespaced: bool,
}

pub static NAMESPACED: CustomResource = CustomResource { namespaced: true };
pub static CLUSTER: CustomResource = CustomResource { namespaced: false };

impl Strategy for CustomResource {
    fn namespace(&self) -> Option<&'static str> {
        self.namespaced.then_some("default")
    }

    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn generation(&self) -> Generation {
        Generation::AllButMetadata
    }

    /// The API server builds a custom kind's table from its CRD (see `kubectl get`).
    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        vec![
            super::cell(obj, &["metadata", "name"]),
            crate::sim::time::age(&super::cell(obj, &["metadata", "creationTimestamp"]), now),
        ]
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
        Some(describe_generic(obj, kind, &events, now))
    }
}
