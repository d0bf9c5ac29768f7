//! kubectl's `-o json` and `-o yaml` printers, byte for byte, and manifest parsing.
//!
//! kubectl prints with Go's `encoding/json` and `sigs.k8s.io/yaml` (go-yaml v2): both are
//! reproduced here because serde's own formatting differs (escapes, float forms, quoting,
//! line folding at 80 columns, key order).

pub(crate) mod go_number;
mod go_string;
mod json;
mod manifest;
mod yaml;
mod yaml_scalar;

pub use go_string::{go_print, go_quote};
pub use json::{to_json, to_json_compact, write_string as write_json_string};
pub use manifest::{ManifestError, parse_manifest};
pub use yaml::to_yaml;

use serde_json::{Map, Value, json};

/// The wrapper kubectl prints around several objects with `-o json|yaml`.
pub fn list_wrapper(items: Vec<Value>) -> Value {
    let mut list = Map::new();
    list.insert("apiVersion".into(), json!("v1"));
    list.insert("items".into(), Value::Array(items));
    list.insert("kind".into(), json!("List"));
    list.insert("metadata".into(), json!({"resourceVersion": ""}));
    Value::Object(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_wrapper_as_kubectl_prints_it() {
        let list = list_wrapper(vec![json!({"kind": "Pod"})]);
        assert_eq!(
            to_yaml(&list),
            "apiVersion: v1\nitems:\n- kind: Pod\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
        assert_eq!(
            to_json(&list_wrapper(vec![])),
            "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n"
        );
    }
}
