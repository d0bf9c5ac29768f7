//! StatefulSets (apps/v1): pkg/registry/apps/statefulset/strategy.go and
//! `printStatefulSet`. A new set starts with the zero status (whose `replicas` and
//! `availableReplicas` are not omitempty) and generation 1; a spec change moves
//! generation; status is a subresource; managedFields are tracked.

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_stateful_set, rows};
use crate::sim::{defaults, validation};

pub struct StatefulSet;

impl Strategy for StatefulSet {
    fn default(&self, obj: &mut Value) {
        defaults::stateful_set(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({"availableReplicas": 0, "replicas": 0});
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::stateful_set(obj, old)
    }

    fn validate_status(&self, obj: &Value) -> Result<(), ApiError> {
        validation::status(Kind::StatefulSet, obj)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::STATEFUL_SET)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 2 columns.
        const WIDE: &[&str] = &["NAME", "READY", "AGE", "CONTAINERS", "IMAGES"];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 2] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::stateful_set(obj, now)
    }

    /// kubectl counts the pods its selector lists and it controls.
    fn describe(&self, set: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let pods = super::selected_pods(set, reader);
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_stateful_set(set, &pods, &events, now))
    }
}
