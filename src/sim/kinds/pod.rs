//! Pods (v1): pkg/registry/core/pod/strategy.go and the pod printer. No generation here;
//! a new pod starts Pending with its QoS class; deletion is graceful (the kubelet confirms
//! it); the kubelet's status writes may set labels.

use serde_json::{Value, json};

use super::{Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::stored::Stored;
use crate::sim::table::{Lookup, describe_pod, rows};
use crate::sim::{defaults, validation};

pub struct Pod;

/// A new pod's status: Pending, with the QoS class its spec gives.
pub fn pending_status(spec: &Value) -> Value {
    json!({"phase": "Pending", "qosClass": crate::sim::qos::class(spec)})
}

impl Strategy for Pod {
    fn default(&self, obj: &mut Value) {
        defaults::pod(obj);
    }

    /// Admission runs on a pod of its own; one made from a template shares the
    /// template's admitted spec.
    fn prepare_for_create(&self, obj: &mut Value, template_spec: Option<&Value>) {
        if template_spec.is_none() {
            defaults::admit_pod(obj);
        }
        let status = pending_status(template_spec.unwrap_or(&obj["spec"]));
        obj["status"] = status;
    }

    fn validate(&self, obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        validation::pod(obj)
    }

    fn status_writes_labels(&self) -> bool {
        true
    }

    fn graceful_deletion(&self) -> bool {
        true
    }

    /// A pod that has finished goes at once; otherwise the request's grace period, or
    /// the pod's own `terminationGracePeriodSeconds` (30 by default).
    fn deletion_grace(&self, obj: &Stored, requested: Option<i64>) -> Option<i64> {
        if matches!(obj.pod_phase(), Some("Succeeded" | "Failed")) {
            return Some(0);
        }
        let default = obj
            .unfilled("spec")
            .and_then(|s| crate::sim::obj::int(s, &["terminationGracePeriodSeconds"]))
            .unwrap_or(30);
        Some(requested.unwrap_or(default))
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::POD)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 4 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "READY",
            "STATUS",
            "RESTARTS",
            "AGE",
            "IP",
            "NODE",
            "NOMINATED NODE",
            "READINESS GATES",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 4] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::pod(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_pod(obj, &events, now))
    }
}
