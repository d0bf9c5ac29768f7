//! MutatingWebhookConfigurations and ValidatingWebhookConfigurations
//! (admissionregistration.k8s.io/v1): pkg/registry/admissionregistration/
//! {mutating,validating}webhookconfiguration/strategy.go and their printers. Cluster-scoped,
//! no status; `metadata.generation` moves when the webhooks change. kubectl has no
//! describer for them, so `describe` is the generic one. The API server reads them to
//! call the webhooks (`api::admission`).

use serde_json::Value;

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_generic, rows};
use crate::sim::{defaults, validation};

pub struct WebhookConfiguration(pub Kind);

pub static MUTATING: WebhookConfiguration =
    WebhookConfiguration(Kind::MutatingWebhookConfiguration);
pub static VALIDATING: WebhookConfiguration =
    WebhookConfiguration(Kind::ValidatingWebhookConfiguration);

impl Strategy for WebhookConfiguration {
    fn namespace(&self) -> Option<&'static str> {
        None
    }

    fn default(&self, obj: &mut Value) {
        defaults::webhook_configuration(obj, self.0 == Kind::MutatingWebhookConfiguration);
    }

    fn validate(&self, obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        validation::webhook_configuration(self.0, obj)
    }

    fn generation(&self) -> Generation {
        Generation::Field("webhooks")
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(match self.0 {
            Kind::MutatingWebhookConfiguration => &types::MUTATING_WEBHOOK_CONFIGURATION,
            _ => &types::VALIDATING_WEBHOOK_CONFIGURATION,
        })
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "WEBHOOKS", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::webhook_configuration(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_generic(obj, self.0.kind_name(), &events, now))
    }
}
