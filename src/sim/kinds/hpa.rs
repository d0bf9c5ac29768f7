//! HorizontalPodAutoscalers (autoscaling/v2): pkg/registry/autoscaling/
//! horizontalpodautoscaler/strategy.go, SetDefaults_HorizontalPodAutoscaler and
//! `printHorizontalPodAutoscaler`. A create starts from an empty status (which reads back
//! as `currentMetrics: null` and `desiredReplicas: 0`); status is a subresource; only a
//! spec change moves `metadata.generation`.

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_hpa, rows};
use crate::sim::{defaults, validation};

pub struct HorizontalPodAutoscaler;

impl Strategy for HorizontalPodAutoscaler {
    fn default(&self, obj: &mut Value) {
        defaults::horizontal_pod_autoscaler(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({"currentMetrics": null, "desiredReplicas": 0});
    }

    fn validate(&self, obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        validation::horizontal_pod_autoscaler(obj)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::HORIZONTAL_POD_AUTOSCALER)
    }

    /// No column of printHorizontalPodAutoscaler is wide-only.
    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &[
            "NAME",
            "REFERENCE",
            "TARGETS",
            "MINPODS",
            "MAXPODS",
            "REPLICAS",
            "AGE",
        ]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::hpa(obj, now)
    }

    fn describe(&self, hpa: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_hpa(hpa, &events, now))
    }
}
