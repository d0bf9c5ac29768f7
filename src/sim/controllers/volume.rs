//! Claims and volumes, the demo's stand-in for three parts of a real cluster:
//! kube-controller-manager's persistentvolume-binder with the default StorageClass's
//! dynamic provisioner (a Pending claim of class `standard` is bound at once to a volume
//! named `pvc-<claim uid>`, with the size and access modes it asked for), and its
//! pvc-protection controller (a deleted claim keeps its `kubernetes.io/pvc-protection`
//! finalizer while a pod that has not finished still mounts it).
//!
//! PersistentVolumes themselves are not objects in the demo.

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::kinds::pvc::{DEFAULT_STORAGE_CLASS, PROTECTION_FINALIZER};
use crate::sim::obj;

pub const WATCHES: &[Kind] = &[Kind::PersistentVolumeClaim, Kind::Pod];
/// The source of its events.
pub const COMPONENT: &str = "persistentvolume-controller";

#[derive(Clone)]
pub struct VolumeController {
    pub informer: Informer,
    pub client: RateLimit,
}

/// The claims a pod mounts.
fn claims_of(pod: &Value) -> impl Iterator<Item = &str> {
    pod["spec"]["volumes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["persistentVolumeClaim"]["claimName"].as_str())
}

impl VolumeController {
    pub fn new(resync: u64) -> Self {
        VolumeController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::PersistentVolumeClaim => self.informer.enqueue(d.object.name()),
                // A pod that stops or goes may free a claim being deleted.
                // Only a claim being deleted waits on pods: with none cached, pods are
                // no news.
                Kind::Pod
                    if self
                        .informer
                        .values_shared(Kind::PersistentVolumeClaim)
                        .next()
                        .is_some() =>
                {
                    let names: Vec<String> =
                        claims_of(d.object.value()).map(str::to_string).collect();
                    for n in names {
                        self.informer.enqueue(&n);
                    }
                }
                _ => {}
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, _now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            n += self.sync(api, &name);
        }
        n
    }

    fn sync(&mut self, api: &mut ApiServer, name: &str) -> usize {
        let Some(claim) = self
            .informer
            .get(Kind::PersistentVolumeClaim, name)
            .cloned()
        else {
            return 0;
        };
        if obj::is_deleting(&claim) {
            let in_use = self.informer.iter(Kind::Pod).any(|p| {
                !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed"))
                    && claims_of(p).any(|c| c == name)
            });
            if in_use {
                return 0;
            }
            self.client.spend(1);
            let _ = api.update_metadata(Kind::PersistentVolumeClaim, name, |c| {
                if let Some(f) = c["metadata"]["finalizers"].as_array_mut() {
                    f.retain(|x| x != PROTECTION_FINALIZER);
                }
            });
            return 1;
        }
        let pending = claim["status"]["phase"] == "Pending";
        let unbound = claim["spec"]["volumeName"]
            .as_str()
            .is_none_or(str::is_empty);
        if !pending || !unbound || claim["spec"]["storageClassName"] != DEFAULT_STORAGE_CLASS {
            return 0;
        }
        // The provisioner makes the volume; the binder binds both ways.
        let volume = format!("pvc-{}", obj::uid(&claim));
        self.client.spend(2);
        let mut next = claim.clone();
        next["spec"]["volumeName"] = json!(volume);
        if api.update(Kind::PersistentVolumeClaim, next, None).is_err() {
            return 1;
        }
        let modes = claim["spec"]["accessModes"].clone();
        let size = claim["spec"]["resources"]["requests"]["storage"].clone();
        let _ = api.update_status_with(Kind::PersistentVolumeClaim, name, |c| {
            c["status"] =
                json!({"phase": "Bound", "accessModes": modes, "capacity": {"storage": size}});
        });
        2
    }
}

impl super::Controller for VolumeController {
    super::controller::controller_basics!(VolumeController, Component::Volume);
    fn resync(&mut self) {
        super::controller::enqueue_all(&mut self.informer, Kind::PersistentVolumeClaim);
    }
}
