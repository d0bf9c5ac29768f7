//! ControllerRevisions (apps/v1): pkg/registry/apps/controllerrevision/strategy.go and
//! `printControllerRevision`. Written only by the controllers that keep histories; `data`
//! is immutable, `revision` may move (a rollback renumbers a revision). kubectl has no
//! describer for them (its generic one prints the raw object), nor does the demo.

use serde_json::Value;

use super::Strategy;
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, rows};

pub struct ControllerRevision;

impl Strategy for ControllerRevision {
    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        crate::sim::validation::controller_revision(obj, old)
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "CONTROLLER", "REVISION", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::controller_revision(obj, now)
    }
}
