//! PersistentVolumeClaims (core/v1): pkg/registry/core/persistentvolumeclaim/strategy.go,
//! the admission plugins that touch a new claim, and `printPersistentVolumeClaim`.
//!
//! The demo's cluster has one default StorageClass, `standard`, whose provisioner binds a
//! claim as soon as it exists (`controllers/volume.rs`); PersistentVolumes themselves are
//! not objects here, only the name a claim is bound to.

use serde_json::{Value, json};

use super::{Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_pvc, rows};
use crate::sim::{defaults, validation};

pub struct PersistentVolumeClaim;

/// The demo's default StorageClass.
pub const DEFAULT_STORAGE_CLASS: &str = "standard";
/// StorageObjectInUseProtection's finalizer: a claim a pod uses is not removed.
pub const PROTECTION_FINALIZER: &str = "kubernetes.io/pvc-protection";

impl Strategy for PersistentVolumeClaim {
    fn default(&self, obj: &mut Value) {
        defaults::persistent_volume_claim(obj);
    }

    /// PrepareForCreate clears the status (read back, defaulting makes it Pending);
    /// the DefaultStorageClass admission plugin names the default class when none is
    /// asked for, and StorageObjectInUseProtection adds its finalizer.
    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({"phase": "Pending"});
        if obj["spec"]
            .get("storageClassName")
            .is_none_or(Value::is_null)
        {
            obj["spec"]["storageClassName"] = json!(DEFAULT_STORAGE_CLASS);
        }
        let meta = &mut obj["metadata"];
        if !meta["finalizers"].is_array() {
            meta["finalizers"] = json!([]);
        }
        if let Some(f) = meta["finalizers"].as_array_mut()
            && !f.iter().any(|x| x == PROTECTION_FINALIZER)
        {
            f.push(json!(PROTECTION_FINALIZER));
        }
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::persistent_volume_claim(obj, old)
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::PERSISTENT_VOLUME_CLAIM)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last column.
        const WIDE: &[&str] = &[
            "NAME",
            "STATUS",
            "VOLUME",
            "CAPACITY",
            "ACCESS MODES",
            "STORAGECLASS",
            "VOLUMEATTRIBUTESCLASS",
            "AGE",
            "VOLUMEMODE",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 1] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::persistent_volume_claim(obj, now)
    }

    /// kubectl lists the pods that mount the claim, and those that own it.
    fn describe(&self, claim: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let name = &claim["metadata"]["name"];
        let owners: Vec<&Value> = claim["metadata"]["ownerReferences"]
            .as_array()
            .map(|o| o.iter().filter(|r| r["kind"] == "Pod").collect())
            .unwrap_or_default();
        let pods: Vec<&Value> = reader
            .objects(Kind::Pod)
            .into_iter()
            .filter(|p| {
                let mounts = p["spec"]["volumes"].as_array().is_some_and(|vs| {
                    vs.iter()
                        .any(|v| &v["persistentVolumeClaim"]["claimName"] == name)
                });
                mounts || owners.iter().any(|o| o["uid"] == p["metadata"]["uid"])
            })
            .collect();
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_pvc(claim, &pods, &events, now))
    }
}
