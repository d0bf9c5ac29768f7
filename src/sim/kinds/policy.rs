//! ValidatingAdmissionPolicies and their bindings (admissionregistration.k8s.io/v1):
//! pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/strategy.go and
//! their printers. Cluster-scoped; a change of `spec` moves `metadata.generation`; a
//! policy's status is cleared on create (kube-controller-manager's type-checking
//! controller, which writes it, is not in the demo). kubectl describes both generically.
//! The API server evaluates them at admission (`api::policy`).

use serde_json::Value;

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_generic, rows};
use crate::sim::{defaults, validation};

pub struct AdmissionPolicy(pub Kind);

pub static POLICY: AdmissionPolicy = AdmissionPolicy(Kind::ValidatingAdmissionPolicy);
pub static BINDING: AdmissionPolicy = AdmissionPolicy(Kind::ValidatingAdmissionPolicyBinding);

impl AdmissionPolicy {
    fn binding(&self) -> bool {
        self.0 == Kind::ValidatingAdmissionPolicyBinding
    }
}

impl Strategy for AdmissionPolicy {
    fn namespace(&self) -> Option<&'static str> {
        None
    }

    fn default(&self, obj: &mut Value) {
        defaults::admission_policy(obj, self.binding());
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        if let Some(m) = obj.as_object_mut() {
            m.remove("status");
        }
    }

    fn validate(&self, obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        if self.binding() {
            validation::admission_policy_binding(obj)
        } else {
            validation::admission_policy(obj)
        }
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(if self.binding() {
            &types::VALIDATING_ADMISSION_POLICY_BINDING
        } else {
            &types::VALIDATING_ADMISSION_POLICY
        })
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        if self.binding() {
            &["NAME", "POLICYNAME", "PARAMREF", "AGE"]
        } else {
            &["NAME", "VALIDATIONS", "PARAMKIND", "AGE"]
        }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        if self.binding() {
            rows::admission_policy_binding(obj, now)
        } else {
            rows::admission_policy(obj, now)
        }
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_generic(obj, self.0.kind_name(), &events, now))
    }
}
