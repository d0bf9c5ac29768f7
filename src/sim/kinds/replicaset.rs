//! ReplicaSets (apps/v1): pkg/registry/apps/replicaset/strategy.go and the ReplicaSet
//! printer. Generation moves on a spec change; status is a subresource.

use serde_json::Value;

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_replicaset, rows};
use crate::sim::{defaults, validation};

pub struct ReplicaSet;

impl Strategy for ReplicaSet {
    fn default(&self, obj: &mut Value) {
        defaults::replica_set(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = serde_json::json!({});
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::workload(Kind::ReplicaSet, obj, old)
    }

    fn validate_status(&self, obj: &Value) -> Result<(), ApiError> {
        validation::status(Kind::ReplicaSet, obj)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::REPLICA_SET)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 3 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "DESIRED",
            "CURRENT",
            "READY",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 3] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::replica_set(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let pods = super::selected_pods(obj, reader);
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_replicaset(obj, &pods, &events, now))
    }
}
