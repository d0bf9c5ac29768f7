//! DaemonSets (apps/v1): pkg/registry/apps/daemonset/strategy.go and `printDaemonSet`. A
//! new set starts with the zero status (its four counts are not omitempty), generation 1
//! and template generation 1; a template change moves both generations, any other spec
//! change only `metadata.generation`. apps/v1 shows the template generation as the
//! `deprecated.daemonset.template.generation` annotation.

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_daemon_set, rows};
use crate::sim::{defaults, obj, validation};

pub struct DaemonSet;

/// The annotation apps/v1 carries the internal `spec.templateGeneration` in.
pub const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

fn set_template_generation(obj: &mut Value, n: i64) {
    obj::set(
        obj,
        &["metadata", "annotations", TEMPLATE_GENERATION],
        json!(n.to_string()),
    );
}

/// The set's template generation (1 when the annotation is missing or unreadable).
pub fn template_generation(obj: &Value) -> i64 {
    obj::str(obj, &["metadata", "annotations", TEMPLATE_GENERATION])
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

impl Strategy for DaemonSet {
    fn default(&self, obj: &mut Value) {
        defaults::daemon_set(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({
            "currentNumberScheduled": 0, "desiredNumberScheduled": 0,
            "numberMisscheduled": 0, "numberReady": 0,
        });
        set_template_generation(obj, 1);
    }

    /// PrepareForUpdate: the template generation is the server's, moved by one when the
    /// template changes.
    fn begin_update(&self, obj: &mut Value, old: &Value) {
        let was = template_generation(old);
        let changed = obj["spec"]["template"] != old["spec"]["template"];
        set_template_generation(obj, if changed { was + 1 } else { was });
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::daemon_set(obj, old)
    }

    fn validate_status(&self, obj: &Value) -> Result<(), ApiError> {
        validation::status(Kind::DaemonSet, obj)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::DAEMON_SET)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 3 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "DESIRED",
            "CURRENT",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "NODE SELECTOR",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 3] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::daemon_set(obj, now)
    }

    /// kubectl counts the pods its selector lists and it controls.
    fn describe(&self, set: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let pods = super::selected_pods(set, reader);
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_daemon_set(set, &pods, &events, now))
    }
}
