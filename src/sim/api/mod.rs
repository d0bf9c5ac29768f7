//! The API server: storage, resourceVersion, generation, the status subresource,
//! optimistic concurrency, graceful deletion, cascading deletion and the watch stream
//! (k8s-semantics A1-A8, E, H4-H6). The verbs are in `create`, `update`, `delete`; the
//! event log in `events`.

mod admission;
mod binding;
mod create;
mod custom;
pub mod decode;
mod delete;
mod events;
mod events_v1;
pub mod eviction;
mod policy;
pub use admission::RequestTrace;
pub use custom::{Fields, not_served};
pub use events_v1::EventV1;
mod update;

use create::PodTemplate;
pub use events::{ObjectType, derived_uid};
use update::ParsedManagedFields;
pub use update::precondition;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use super::rng::SimRng;
use serde_json::{Value, json};

use super::HashMap;
use super::kind::Kind;
use super::obj;
use super::objects::Objects;
use super::recorder::Recorders;
use super::stored::{Draft, LabelSets, Stored};

/// The user agent, and so the field manager, of the built-in controllers (F8).
pub const CONTROLLER_MANAGER: &str = "kube-controller-manager";

pub use super::status::{ApiError, Reason};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    Added,
    Modified,
    Deleted,
}

/// One entry of the watch stream: the object as stored after the write. Stored objects
/// are immutable and shared with the watch log and the informer caches, never copied.
#[derive(Debug, Clone)]
pub struct WatchEvent {
    pub seq: u64,
    pub kind: Kind,
    pub event: EventType,
    pub object: Arc<Stored>,
}

/// What an Event says: `Normal`/`Warning`, the reason, the message, the reporting component.
pub struct Note<'a> {
    pub type_: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
    pub component: &'a str,
    /// The part of the object the event is about: the kubelet's events name a container
    /// (`spec.containers{app}`), shown under SUBOBJECT.
    pub field_path: Option<&'a str>,
}

impl<'a> Note<'a> {
    /// A controller's note about a whole object (no field path).
    pub fn about(type_: &'a str, reason: &'a str, message: &'a str, component: &'a str) -> Self {
        Note {
            type_,
            reason,
            message,
            component,
            field_path: None,
        }
    }
}

/// The object an Event is about.
pub trait Involved {
    fn name(&self) -> &str;
    fn uid(&self) -> &str;
    fn resource_version(&self) -> &str;
    /// `involvedObject.namespace`: the demo's objects all live in `default`.
    fn namespace(&self) -> &str {
        "default"
    }
    /// Whether the reference was built by hand, so its empty fields are left out.
    fn bare(&self) -> bool {
        false
    }
}

/// An object reference a recorder builds by hand rather than from the object: the node
/// lifecycle controller names a Node with its name as uid and no namespace
/// (`RecordNodeStatusChange`), the taint eviction controller a Pod with no uid.
#[derive(Debug, Clone, Copy)]
pub struct Ref<'a> {
    pub name: &'a str,
    pub uid: &'a str,
    pub namespace: &'a str,
}

impl Involved for Ref<'_> {
    fn name(&self) -> &str {
        self.name
    }
    fn uid(&self) -> &str {
        self.uid
    }
    fn resource_version(&self) -> &str {
        ""
    }
    fn namespace(&self) -> &str {
        self.namespace
    }
    fn bare(&self) -> bool {
        true
    }
}

impl Involved for Value {
    fn name(&self) -> &str {
        obj::name(self)
    }

    fn uid(&self) -> &str {
        obj::uid(self)
    }

    fn resource_version(&self) -> &str {
        obj::str(self, &["metadata", "resourceVersion"]).unwrap_or("")
    }
}

/// A stored object answers from its facts: most Events a controller records are dropped
/// by the spam filter, which needs only the name and uid.
impl Involved for Stored {
    fn name(&self) -> &str {
        Stored::name(self)
    }

    fn uid(&self) -> &str {
        Stored::uid(self)
    }

    fn resource_version(&self) -> &str {
        self.meta("resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

/// Who made a write, for managedFields and for the demo's own counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    Learner,
    Controller,
}

#[derive(Clone)]
pub struct ApiServer {
    objects: BTreeMap<Kind, Objects>,
    rv: u64,
    log: VecDeque<WatchEvent>,
    /// Sequence number of `log[0]`.
    log_base: u64,
    event_seq: u64,
    /// UIDs.
    pub(crate) rng: SimRng,
    /// Generated name suffixes, on a stream of their own: an object added elsewhere (a
    /// node, an event) draws a UID without renaming every pod after it.
    pub(crate) names_rng: SimRng,
    /// Services' cluster IPs, drawn from a third stream of the seed.
    pub(crate) cluster_ips: super::ipalloc::ClusterIps,
    /// Simulated seconds, for managedFields times; the cluster keeps it current.
    pub clock: u64,
    /// The components' event correlators (see `record_event`).
    recorders: Recorders,
    /// The events/v1 recorders' caches of what they wrote (see `record_event_v1`).
    series: HashMap<String, events_v1::SeriesEntry>,
    /// The second `series` was last pruned.
    series_pruned: Option<u64>,
    /// One shared copy of each stored label set.
    labels: LabelSets,
    /// The field manager (and subresource) of the writes now being made (F8); writers
    /// set it, and it falls back to the controllers' `kube-controller-manager`.
    manager: (String, Option<String>),
    /// What the pods of each recent ReplicaSet spec are created with, keyed by that
    /// spec's shared allocation (see `create_pod_from`).
    pod_templates: VecDeque<(Arc<Value>, Arc<PodTemplate>)>,
    /// Whether a ReplicaSet's pods keep their metadata as shared entries (see
    /// [`Entries`]); off, as plain JSON. The same objects either way: a test compares.
    pub shared_pod_meta: bool,
    /// The managedFields this server last wrote to each object, parsed.
    parsed: ParsedManagedFields,
    /// metrics.k8s.io, which the aggregation layer proxies to metrics-server.
    pub metrics: super::metrics::MetricsServer,
    /// The programs behind the admission webhooks' Services.
    pub webhooks: super::webhooks::WebhookServers,
    /// Dynamic admission's request log and the request under way.
    pub admission: admission::Admission,
    /// What each CustomResourceDefinition serves, by CRD name, kept in step with the
    /// stored CRDs.
    definitions: BTreeMap<String, Arc<crate::sim::apiextensions::Definition>>,
    /// Custom objects deleted so far: the garbage collector looks for their dependents
    /// when this moves (no built-in controller watches their kinds).
    pub custom_deletions: u64,
}

pub use super::names::NAME_ALPHABET;

impl ApiServer {
    pub fn new(rng: SimRng) -> Self {
        ApiServer {
            objects: BTreeMap::new(),
            rv: 1000,
            log: VecDeque::new(),
            log_base: 0,
            event_seq: 0,
            names_rng: rng.on_stream(1),
            cluster_ips: super::ipalloc::ClusterIps::new(rng.on_stream(2)),
            rng,
            clock: 0,
            recorders: Recorders::default(),
            series: HashMap::default(),
            series_pruned: None,
            labels: LabelSets::default(),
            manager: (CONTROLLER_MANAGER.to_string(), None),
            pod_templates: VecDeque::new(),
            shared_pod_meta: true,
            parsed: HashMap::default(),
            metrics: super::metrics::MetricsServer::default(),
            webhooks: super::webhooks::WebhookServers::default(),
            admission: admission::Admission::default(),
            definitions: BTreeMap::new(),
            custom_deletions: 0,
        }
    }

    /// Attributes the following writes to `manager` until [`Self::reset_manager`].
    pub fn set_manager(&mut self, manager: &str, subresource: Option<&str>) {
        self.manager = (manager.to_string(), subresource.map(str::to_string));
    }

    pub fn reset_manager(&mut self) {
        self.manager = (CONTROLLER_MANAGER.to_string(), None);
    }

    /// Runs `f` with writes attributed to `manager` (and `subresource`), as the
    /// `fieldManager` of a request would.
    pub fn as_manager<T>(
        &mut self,
        manager: &str,
        subresource: Option<&str>,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let saved = std::mem::replace(
            &mut self.manager,
            (manager.to_string(), subresource.map(str::to_string)),
        );
        let out = f(self);
        self.manager = saved;
        out
    }

    pub fn resource_version(&self) -> u64 {
        self.rv
    }

    pub fn get(&self, kind: Kind, name: &str) -> Result<&Value, ApiError> {
        self.objects
            .get(&kind)
            .and_then(|m| m.get(name))
            .map(|o| o.value())
            .ok_or_else(|| ApiError::not_found(kind, name))
    }

    /// The stored object itself, shared rather than copied.
    pub fn get_shared(&self, kind: Kind, name: &str) -> Result<Arc<Stored>, ApiError> {
        self.objects
            .get(&kind)
            .and_then(|m| m.get(name))
            .cloned()
            .ok_or_else(|| ApiError::not_found(kind, name))
    }

    /// Objects of a kind in name order, as the API lists them.
    pub fn list(&self, kind: Kind) -> impl Iterator<Item = &Value> {
        self.objects
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.values().map(|o| o.value()))
    }

    /// [`Self::list`], the stored objects themselves.
    pub fn list_shared(&self, kind: Kind) -> impl Iterator<Item = &Arc<Stored>> {
        self.objects.get(&kind).into_iter().flat_map(|m| m.values())
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.objects.get(&kind).map_or(0, Objects::len)
    }

    /// Watch events from `seq` on.
    pub fn events_since(&self, seq: u64) -> impl Iterator<Item = &WatchEvent> {
        let skip = seq.saturating_sub(self.log_base) as usize;
        self.log.iter().skip(skip)
    }

    pub fn next_seq(&self) -> u64 {
        self.log_base + self.log.len() as u64
    }

    /// Drops watch history every consumer has read.
    pub fn compact(&mut self, upto: u64) {
        while self.log_base < upto && !self.log.is_empty() {
            self.log.pop_front();
            self.log_base += 1;
        }
    }

    fn bump(&mut self, obj: &mut Draft) {
        self.rv += 1;
        obj.set_meta("resourceVersion", json!(self.rv.to_string()));
    }

    fn emit(&mut self, kind: Kind, event: EventType, object: &Arc<Stored>) {
        if event == EventType::Deleted && matches!(kind, Kind::Custom(_)) {
            self.custom_deletions += 1;
        }
        let seq = self.next_seq();
        self.log.push_back(WatchEvent {
            seq,
            kind,
            event,
            object: Arc::clone(object),
        });
    }
}

/// The caller's own copy of a stored object.
fn unshare(o: Arc<Stored>) -> Value {
    Arc::unwrap_or_clone(o).into_value()
}

/// Describers read other kinds' objects through the server.
impl crate::sim::kinds::Reader for ApiServer {
    fn objects(&self, kind: Kind) -> Vec<&Value> {
        self.list(kind).collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::defaults;
    use crate::sim::rng::SimRng;
    use crate::sim::time::rfc3339;

    use super::*;

    #[test]
    fn a_taken_generated_name_is_drawn_again() {
        // The name a generateName create would draw after one named create (which
        // draws a uid), from a twin with the same seed; then that name is taken first.
        let mut twin = ApiServer::new(SimRng::seed_from_u64(1));
        let _ = twin.uid();
        let mut taken = "web-".to_string();
        twin.push_random_suffix(&mut taken, 5);
        let mut api = ApiServer::new(SimRng::seed_from_u64(1));
        let spec = json!({"containers": [{"name": "app", "image": "nginx"}]});
        api.create(
            Kind::Pod,
            json!({"metadata": {"name": taken}, "spec": spec}),
            0,
        )
        .unwrap();
        let pod = api
            .create(
                Kind::Pod,
                json!({"metadata": {"generateName": "web-"}, "spec": spec}),
                0,
            )
            .expect("the clash is retried, not reported");
        let name = obj::name(&pod);
        assert_ne!(name, taken);
        assert!(name.starts_with("web-") && name.len() == taken.len());
        assert_eq!(api.count(Kind::Pod), 2);
    }

    /// A ReplicaSet spec whose template brings a volume and a mount of its own, so
    /// admission's come after them.
    fn rs_spec() -> Arc<Value> {
        Arc::new(json!({"replicas": 2, "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [
                {"name": "app", "image": "nginx:1.27",
                 "volumeMounts": [{"name": "cache", "mountPath": "/cache"}]},
                {"name": "sidecar", "image": "busybox"}],
                "volumes": [{"name": "cache", "emptyDir": {}}]}}}))
    }

    #[test]
    fn a_pod_from_a_template_is_the_pod_a_plain_create_stores() {
        let spec = rs_spec();
        let meta = || {
            json!({"generateName": "web-", "labels": {"app": "web"},
                "annotations": {"controller.kubernetes.io/pod-deletion-cost": "5"},
                "ownerReferences": [obj::owner_ref_to("web", "rs-uid", "ReplicaSet")]})
        };
        let mut plain = ApiServer::new(SimRng::seed_from_u64(7));
        let mut shared = ApiServer::new(SimRng::seed_from_u64(7));
        let mut pods = Vec::new();
        for now in [3, 4] {
            let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta(),
                "spec": spec["template"]["spec"]});
            let a = plain.create_shared(Kind::Pod, pod, now).unwrap();
            let b = shared.create_pod_from(&spec, meta, now).unwrap();
            assert_eq!(a.value(), b.value());
            assert_eq!(a.facts(), b.facts());
            assert_eq!(
                (b.controller_uid(), b.pod().deletion_cost, b.pod().created),
                (
                    Some("rs-uid"),
                    5,
                    super::super::time::parse_rfc3339(&rfc3339(now)).unwrap()
                )
            );
            // A graceful delete adds its entries; the object is the one plain JSON gives.
            let (a, b) = (
                plain.delete_shared(Kind::Pod, a.name(), None, now).unwrap(),
                shared
                    .delete_shared(Kind::Pod, b.name(), None, now)
                    .unwrap(),
            );
            assert_eq!(a.value(), b.value());
            assert_eq!(a.facts(), b.facts());
            assert!(b.facts().deleting);
            let volume = &b.value()["spec"]["volumes"][1]["name"];
            assert_eq!(volume, &json!(defaults::service_account_volume(b.name())));
            for c in 0..2 {
                let mounts = b.value()["spec"]["containers"][c]["volumeMounts"]
                    .as_array()
                    .unwrap();
                assert_eq!(mounts.last().unwrap()["name"], *volume);
            }
            pods.push(b);
        }
        assert_ne!(
            pods[0].value()["spec"],
            pods[1].value()["spec"],
            "each pod its own volume"
        );
        let template = |p: &Stored| p.unfilled("spec").unwrap() as *const Value;
        assert_eq!(
            template(&pods[0]),
            template(&pods[1]),
            "one admitted template"
        );
        // A write that changes the spec stores plain JSON, the pod's own names kept.
        let name = pods[0].name().to_string();
        let before = pods[0].value()["spec"].clone();
        let patched = shared
            .update_metadata_shared(Kind::Pod, &name, |p| {
                p["spec"]["activeDeadlineSeconds"] = json!(60);
            })
            .unwrap();
        let mut expected = before;
        expected["activeDeadlineSeconds"] = json!(60);
        assert_eq!(patched.value()["spec"], expected);
        let mut draft = pods[1].draft();
        assert!(draft.same_as(&pods[1]));
        draft.edit("spec")["activeDeadlineSeconds"] = json!(30);
        let edited = Stored::from_draft(Kind::Pod, draft, &mut LabelSets::default());
        let mut expected = pods[1].value()["spec"].clone();
        expected["activeDeadlineSeconds"] = json!(30);
        assert_eq!(edited.value()["spec"], expected);
        assert_eq!(edited.unfilled("spec"), Some(&expected), "plain JSON now");
    }
}
