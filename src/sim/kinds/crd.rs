//! CustomResourceDefinitions (apiextensions.k8s.io/v1): apiextensions-apiserver
//! `pkg/registry/customresourcedefinition` (strategy.go, etcd.go). Cluster-scoped; status
//! is written by the API server's own controllers (naming, establishing, finalizer), a
//! client's is ignored; `metadata.generation` moves with the spec; the storage version
//! joins `status.storedVersions` on every write and never leaves it by itself; the first
//! DELETE adds the cleanup finalizer and the Terminating condition. The table is the
//! default one (NAME, CREATED AT) and kubectl has no describer for it (generic).

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::apiextensions::crd;
use crate::sim::obj;
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_generic};
use crate::sim::time::rfc3339;

pub struct CustomResourceDefinition;

impl Strategy for CustomResourceDefinition {
    fn namespace(&self) -> Option<&'static str> {
        None
    }

    fn default(&self, obj: &mut Value) {
        crd::defaults(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        if let Some(m) = obj.as_object_mut() {
            m.remove("status");
        }
        crd::record_storage_version(obj);
    }

    fn begin_update(&self, obj: &mut Value, _old: &Value) {
        crd::record_storage_version(obj);
    }

    fn prepare_for_delete(&self, obj: &Value, now: u64) -> Option<Value> {
        let mut obj = obj.clone();
        obj::set(
            &mut obj,
            &["metadata", "deletionTimestamp"],
            json!(rfc3339(now)),
        );
        let finalizers = obj
            .pointer_mut("/metadata")
            .and_then(Value::as_object_mut)
            .map(|m| m.entry("finalizers").or_insert_with(|| json!([])));
        if let Some(Value::Array(a)) = finalizers
            && !a.iter().any(|f| f == crd::CLEANUP_FINALIZER)
        {
            a.push(json!(crd::CLEANUP_FINALIZER));
        }
        crate::sim::controllers::apiextensions::set_condition(
            &mut obj,
            "Terminating",
            "True",
            "InstanceDeletionPending",
            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
            now,
        );
        Some(obj)
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        crate::sim::validation::invalid(
            Kind::CustomResourceDefinition,
            obj,
            crd::validate(obj, old),
        )
    }

    fn allow_unconditional_update(&self) -> bool {
        false
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::CUSTOM_RESOURCE_DEFINITION)
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "CREATED AT"]
    }

    fn row(&self, obj: &dyn Lookup, _now: u64, _wide: bool) -> Vec<String> {
        vec![
            super::cell(obj, &["metadata", "name"]),
            super::cell(obj, &["metadata", "creationTimestamp"]),
        ]
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_generic(
            obj,
            "CustomResourceDefinition",
            &events,
            now,
        ))
    }
}
