//! Deployments (apps/v1): pkg/registry/apps/deployment/strategy.go and the Deployment
//! printer. Generation moves on a spec change and on an annotation change (A2); status is a
//! subresource; managedFields are tracked.

use serde_json::Value;

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_deployment, rows};
use crate::sim::{defaults, validation};

pub struct Deployment;

impl Strategy for Deployment {
    fn default(&self, obj: &mut Value) {
        defaults::deployment(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = serde_json::json!({});
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::workload(Kind::Deployment, obj, old)
    }

    fn validate_status(&self, obj: &Value) -> Result<(), ApiError> {
        validation::status(Kind::Deployment, obj)
    }

    fn generation(&self) -> Generation {
        Generation::SpecOrAnnotations
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::DEPLOYMENT)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 3 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 3] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::deployment(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let owned = |k| reader.objects(k).into_iter().cloned().collect::<Vec<_>>();
        Some(describe_deployment(
            obj,
            &owned(Kind::ReplicaSet),
            &owned(Kind::Event),
            now,
        ))
    }
}
