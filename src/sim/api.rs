//! The API server: storage, resourceVersion, generation, the status subresource,
//! optimistic concurrency, graceful deletion, cascading deletion and the watch stream
//! (k8s-semantics A1-A8, E, H4-H6).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, LazyLock};

use super::rng::SimRng;
use rand::RngExt;
use serde_json::{Value, json};

use super::HashMap;
use super::controllers::podstatus::Starting;
use super::defaults;
use super::deletion::Propagation;
use super::kind::Kind;
use super::managed::{self, ManagedField};
use super::obj;
use super::objects::Objects;
use super::recorder::{Incoming, Recorders};
use super::stored::{self, Draft, Entries, LabelSets, Stored};

/// The user agent, and so the field manager, of the built-in controllers (F8).
pub const CONTROLLER_MANAGER: &str = "kube-controller-manager";
use super::time::rfc3339;

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
}

/// The object an Event is about.
pub trait Involved {
    fn name(&self) -> &str;
    fn uid(&self) -> &str;
    fn resource_version(&self) -> &str;
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
    pub(crate) rng: SimRng,
    /// Simulated seconds, for managedFields times; the cluster keeps it current.
    pub clock: u64,
    /// The components' event correlators (see `record_event`).
    recorders: Recorders,
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
}

/// ReplicaSet specs whose admitted pod template is kept: more than the ReplicaSets a
/// rollout creates pods for at once.
const POD_TEMPLATES: usize = 8;

/// What every pod of one ReplicaSet spec is created with, made on its first pod.
struct PodTemplate {
    /// The metadata the controller gives its pods (`GetPodFromTemplate`).
    meta: Value,
    /// The template's spec defaulted and admitted (see [`crate::sim::stored::Filled`]);
    /// `None` if admission needs the pod itself.
    spec: Option<Arc<Value>>,
    /// `meta` as shared entries with interned labels, if [`Entries`] holds all its keys.
    entries: Option<(Entries, Arc<Value>)>,
    /// What the pods' status starts as (their QoS class is the template's).
    status: Arc<Value>,
}

/// A new pod's status: Pending, with the QoS class its spec gives.
fn pending_status(spec: &Value) -> Value {
    json!({"phase": "Pending", "qosClass": super::qos::class(spec)})
}

/// Values every pod made from a template has.
struct PodShared {
    api_version: Arc<Value>,
    kind: Arc<Value>,
    namespace: Arc<Value>,
}

static POD_SHARED: LazyLock<PodShared> = LazyLock::new(|| PodShared {
    api_version: Arc::new(Value::from("v1")),
    kind: Arc::new(Value::from("Pod")),
    namespace: Arc::new(Value::from("default")),
});

/// How often the API server draws a generated name before giving up
/// (`maxNameGenerationCreateAttempts` in k8s.io/apiserver).
const GENERATE_NAME_ATTEMPTS: usize = 8;

pub use super::names::NAME_ALPHABET;

impl ApiServer {
    pub fn new(rng: SimRng) -> Self {
        ApiServer {
            objects: BTreeMap::new(),
            rv: 1000,
            log: VecDeque::new(),
            log_base: 0,
            event_seq: 0,
            rng,
            clock: 0,
            recorders: Recorders::default(),
            labels: LabelSets::default(),
            manager: (CONTROLLER_MANAGER.to_string(), None),
            pod_templates: VecDeque::new(),
            shared_pod_meta: true,
            parsed: HashMap::default(),
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

    /// F4/F7: a non-apply write takes ownership of what it changed. Tracked for
    /// Deployments, the objects the demo's questions are about.
    fn track_update(&mut self, kind: Kind, old: &Value, new: &mut Value) {
        let (manager, sub) = &self.manager;
        let time = rfc3339(self.clock);
        track_managed(
            &mut self.parsed,
            kind,
            old,
            new,
            |entries, before, after| {
                managed::record_update(entries, before, after, manager, sub.as_deref(), &time)
            },
        );
    }

    /// F4: a `/status` write is an Update with `subresource: status` by the writer's
    /// manager (`kube-controller-manager` for the controllers, kubectl's for
    /// `--subresource=status`). Tracked for Deployments, as [`Self::track_update`].
    fn track_status_update(&mut self, kind: Kind, old: &Value, new: &mut Value) {
        let time = rfc3339(self.clock);
        let manager = &self.manager.0;
        track_managed(
            &mut self.parsed,
            kind,
            old,
            new,
            |entries, before, after| {
                managed::record_status_update(entries, before, after, manager, &time)
            },
        );
    }

    /// Stores an object whose managedFields the caller computed (server-side apply).
    pub fn put_applied(&mut self, kind: Kind, obj: Value) -> Result<Value, ApiError> {
        let name = obj::name(&obj).to_string();
        let old = self.get_shared(kind, &name)?;
        let mut obj = obj;
        super::defaults::apply(kind, &mut obj);
        super::validation::spec(kind, &obj, Some(&old))?;
        set_generation(kind, &old, &mut obj);
        for f in ["uid", "creationTimestamp", "namespace"] {
            if let Some(v) = obj::path(&old, &["metadata", f]) {
                obj::set(&mut obj, &["metadata", f], v.clone());
            }
        }
        if let Some(st) = old.get("status") {
            obj::set(&mut obj, &["status"], st.clone());
        }
        self.store_modified(kind, name, old, obj).map(unshare)
    }

    pub fn resource_version(&self) -> u64 {
        self.rv
    }

    /// A6: the optimistic-concurrency check of every write whose object carries a
    /// resourceVersion: it must be the stored one, else 409 Conflict. The check follows
    /// the patch itself, so a patch that sets a stale version fails here.
    pub fn check_precondition(
        &self,
        kind: Kind,
        name: &str,
        rv: Option<&str>,
    ) -> Result<(), ApiError> {
        let stored = self.get_shared(kind, name)?;
        let current = stored.meta("resourceVersion").and_then(Value::as_str);
        match rv {
            Some(rv) if current != Some(rv) => Err(ApiError::conflict(kind, name)),
            _ => Ok(()),
        }
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
        let seq = self.next_seq();
        self.log.push_back(WatchEvent {
            seq,
            kind,
            event,
            object: Arc::clone(object),
        });
    }

    fn push_random_suffix(&mut self, s: &mut String, n: usize) {
        for _ in 0..n {
            s.push(NAME_ALPHABET[self.rng.random_range(0..NAME_ALPHABET.len())] as char);
        }
    }

    fn uid(&mut self) -> String {
        let b: [u8; 16] = self.rng.random();
        let mut h = String::with_capacity(32);
        super::names::push_hex(&mut h, &b);
        uuid_v4(&h)
    }

    /// A1: POST. Assigns name (from generateName), uid, creationTimestamp, generation 1 for
    /// kinds that have it, and wipes status for workloads.
    pub fn create(&mut self, kind: Kind, obj: Value, now: u64) -> Result<Value, ApiError> {
        self.create_shared(kind, obj, now).map(unshare)
    }

    /// [`Self::create`], returning the stored object without copying it.
    pub fn create_shared(
        &mut self,
        kind: Kind,
        obj: Value,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        self.create_with(kind, obj, None, now)
    }

    /// A ReplicaSet's pod: [`Self::create_shared`] of a pod with the metadata `meta`
    /// makes and the template's spec from `rs_spec` (the ReplicaSet's `spec`), which
    /// stores the same object. What the pods of one template share is made once, on the
    /// first: the spec defaulted and admitted, each pod with its own service-account volume
    /// name (see [`crate::sim::stored::Filled`]), and the metadata as entries (see
    /// [`Entries`]), each pod with its own name, uid and creationTimestamp.
    pub fn create_pod_from(
        &mut self,
        rs_spec: &Arc<Value>,
        meta: impl FnOnce() -> Value,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let template = match self
            .pod_templates
            .iter()
            .find(|(k, _)| Arc::ptr_eq(k, rs_spec))
        {
            Some((_, t)) => Arc::clone(t),
            None => {
                let t = Arc::new(self.pod_template(rs_spec, meta()));
                if self.pod_templates.len() == POD_TEMPLATES {
                    self.pod_templates.pop_front();
                }
                self.pod_templates
                    .push_back((Arc::clone(rs_spec), Arc::clone(&t)));
                t
            }
        };
        if self.shared_pod_meta
            && let (Some(spec), Some(entries)) = (&template.spec, &template.entries)
        {
            return self.create_templated_pod(&template, spec, entries, now);
        }
        let spec = template.spec.clone();
        let mut pod = obj::object([
            ("apiVersion", Value::from("v1")),
            ("kind", Value::from("Pod")),
            ("metadata", template.meta.clone()),
        ]);
        if spec.is_none() {
            pod["spec"] = rs_spec["template"]["spec"].clone();
        }
        self.create_with(Kind::Pod, pod, spec, now)
    }

    fn pod_template(&mut self, rs_spec: &Value, meta: Value) -> PodTemplate {
        let labels = self
            .labels
            .intern(meta.get("labels").unwrap_or(&Value::Null));
        // Each pod's own entries come on top; a template that brings one of them is
        // created as plain JSON.
        let own = |k: &String| {
            matches!(
                k.as_str(),
                "name" | "namespace" | "uid" | "creationTimestamp"
            )
        };
        let entries = meta
            .as_object()
            .filter(|m| !m.keys().any(own))
            .and_then(|m| {
                m.iter()
                    .map(|(k, v)| {
                        let v = if k == "labels" {
                            Arc::clone(&labels)
                        } else {
                            Arc::new(v.clone())
                        };
                        Some((stored::entry_key(k)?, v))
                    })
                    .collect::<Option<Vec<_>>>()
                    .and_then(Entries::new)
            });
        let spec = defaults::admitted_template(&rs_spec["template"]["spec"]).map(Arc::new);
        PodTemplate {
            status: Arc::new(pending_status(spec.as_deref().unwrap_or(&Value::Null))),
            spec,
            entries: entries.map(|e| (e, labels)),
            meta,
        }
    }

    /// [`Self::create_with`] of a pod made from a template's shared parts.
    fn create_templated_pod(
        &mut self,
        template: &PodTemplate,
        spec: &Arc<Value>,
        (entries, labels): &(Entries, Arc<Value>),
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let kind = Kind::Pod;
        let prefix = obj::str(&template.meta, &["generateName"]).unwrap_or("");
        let name = self.generate_name(kind, prefix)?;
        if self.objects.get(&kind).is_some_and(|m| m.contains(&name)) {
            return Err(ApiError::already_exists(kind, &name));
        }
        let uid = self.uid();
        let shared = &*POD_SHARED;
        let meta = entries.merged(vec![
            ("name", Arc::new(Value::from(name.as_str()))),
            ("namespace", Arc::clone(&shared.namespace)),
            ("uid", Arc::new(Value::from(uid))),
            ("creationTimestamp", Arc::new(Value::from(rfc3339(now)))),
        ]);
        let volume = defaults::service_account_volume(&name);
        let mut pod = Draft::templated_pod(
            [&shared.api_version, &shared.kind, &template.status],
            meta,
            spec,
            volume,
        );
        // Defaulting, admission and validation were the template's (validation checks
        // only workloads), and pods have no managedFields here.
        self.bump(&mut pod);
        let pod = Stored::with_labels(kind, pod, Arc::clone(labels));
        Ok(self.store_created(kind, &name, pod))
    }

    /// Stores a new object and tells the watchers.
    fn store_created(&mut self, kind: Kind, name: &str, obj: Stored) -> Arc<Stored> {
        let obj = Arc::new(obj);
        self.emit(kind, EventType::Added, &obj);
        self.objects
            .entry(kind)
            .or_default()
            .insert(name, Arc::clone(&obj));
        obj
    }

    /// A name from `prefix` (metadata.generateName) that no object of `kind` has.
    fn generate_name(&mut self, kind: Kind, prefix: &str) -> Result<String, ApiError> {
        if prefix.is_empty() {
            return Err(ApiError::invalid(format!(
                "{} \"\" is invalid: metadata.name: Required value: name or generateName is required",
                kind.kind_name()
            )));
        }
        // RetryGenerateName (KEP-4420, GA in 1.32): a generated name that is taken is
        // drawn again, up to 8 attempts, before the create fails with AlreadyExists.
        // Five characters clash often once thousands of pods exist.
        let mut name = String::new();
        for _ in 0..GENERATE_NAME_ATTEMPTS {
            name.clear();
            name.push_str(prefix);
            self.push_random_suffix(&mut name, 5);
            if !self.objects.get(&kind).is_some_and(|m| m.contains(&name)) {
                break;
            }
        }
        Ok(name)
    }

    /// Creates `obj`; a pod with `pod_spec` gets that admitted template as its spec.
    fn create_with(
        &mut self,
        kind: Kind,
        mut obj: Value,
        pod_spec: Option<Arc<Value>>,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let mut name = obj::name(&obj).to_string();
        if name.is_empty() {
            let prefix = obj::str(&obj, &["metadata", "generateName"]).unwrap_or("");
            name = self.generate_name(kind, prefix)?;
            obj::set(&mut obj, &["metadata", "name"], json!(name));
        }
        obj::set(&mut obj, &["metadata", "namespace"], json!("default"));
        if matches!(kind, Kind::Deployment | Kind::ReplicaSet) {
            obj::set(&mut obj, &["metadata", "generation"], json!(1));
            obj::set(&mut obj, &["status"], json!({}));
        }
        if pod_spec.is_none() {
            defaults::apply(kind, &mut obj);
            if kind == Kind::Pod {
                defaults::admit_pod(&mut obj);
            }
        }
        if kind == Kind::Pod {
            let spec = pod_spec.as_deref().unwrap_or(&obj["spec"]);
            let status = pending_status(spec);
            obj::set(&mut obj, &["status"], status);
        }
        super::validation::spec(kind, &obj, None)?;
        // etcd3 store.Create refuses a resourceVersion before it writes, with a plain
        // error (storage.ErrResourceVersionSetOnCreate) that reaches the client as a 500.
        if obj::str(&obj, &["metadata", "resourceVersion"]).is_some_and(|rv| !rv.is_empty()) {
            return Err(ApiError {
                reason: Reason::Unknown,
                message: "resourceVersion should not be set on objects to be created".into(),
            });
        }
        // Validation and the resourceVersion check come first; the name is taken only in
        // the storage transaction that would write it.
        if self.objects.get(&kind).is_some_and(|m| m.contains(&name)) {
            return Err(ApiError::already_exists(kind, &name));
        }
        let uid = self.uid();
        obj::set(&mut obj, &["metadata", "uid"], json!(uid));
        obj::set(
            &mut obj,
            &["metadata", "creationTimestamp"],
            json!(rfc3339(now)),
        );
        // Updates own the defaulted fields too; a create by server-side apply brings its
        // own managedFields.
        if tracks_managed_fields(kind) && obj::path(&obj, &["metadata", "managedFields"]).is_none()
        {
            self.track_update(kind, &managed::zero_object(), &mut obj);
        }
        let mut obj = Draft::from(obj);
        if let Some(spec) = pod_spec {
            obj.set_pod_spec(spec, defaults::service_account_volume(&name));
        }
        self.bump(&mut obj);
        let obj = Stored::from_draft(kind, obj, &mut self.labels);
        Ok(self.store_created(kind, &name, obj))
    }

    /// A2/A6/A7: PUT on the main endpoint. Status in the request is ignored; generation
    /// moves only for spec (and, for Deployments, annotation) changes. With `rv`, a stale
    /// version is a 409; without one the last write wins.
    pub fn update(&mut self, kind: Kind, obj: Value, rv: Option<&str>) -> Result<Value, ApiError> {
        self.update_shared(kind, obj, rv).map(unshare)
    }

    /// [`Self::update`], returning the stored object without copying it.
    pub fn update_shared(
        &mut self,
        kind: Kind,
        mut obj: Value,
        rv: Option<&str>,
    ) -> Result<Arc<Stored>, ApiError> {
        let name = obj::name(&obj).to_string();
        self.check_precondition(kind, &name, rv)?;
        let old = self.get_shared(kind, &name)?;
        // Fields the server owns cannot be changed by a client.
        for f in [
            "uid",
            "creationTimestamp",
            "namespace",
            "generation",
            "deletionTimestamp",
        ] {
            match obj::path(&old, &["metadata", f]) {
                Some(v) => obj::set(&mut obj, &["metadata", f], v.clone()),
                None => {
                    obj::remove(&mut obj, &["metadata", f]);
                }
            }
        }
        match old.get("status") {
            Some(s) => obj::set(&mut obj, &["status"], s.clone()),
            None => {
                obj::remove(&mut obj, &["status"]);
            }
        }
        super::defaults::apply(kind, &mut obj);
        super::validation::spec(kind, &obj, Some(&old))?;
        super::deletion::check_finalizers(kind, &old, &obj)?;
        self.track_update(kind, &old, &mut obj);
        set_generation(kind, &old, &mut obj);
        self.store_modified(kind, name, old, obj)
    }

    /// A3: PUT on `/status`. Spec (and a Deployment's labels) come from the stored object;
    /// generation never moves.
    pub fn update_status(&mut self, kind: Kind, mut obj: Value) -> Result<Value, ApiError> {
        let name = obj::name(&obj).to_string();
        let old = self.get_shared(kind, &name)?;
        let mut keep = old.value().clone();
        if let Some(s) = obj.get("status") {
            obj::set(&mut keep, &["status"], s.clone());
        }
        if let Some(a) = obj::path(&obj, &["metadata", "annotations"]) {
            obj::set(&mut keep, &["metadata", "annotations"], a.clone());
        }
        if kind == Kind::Pod {
            // The kubelet's writes: pods carry no spec changes here either.
            if let Some(l) = obj::path(&obj, &["metadata", "labels"]) {
                obj::set(&mut keep, &["metadata", "labels"], l.clone());
            }
        }
        obj = keep;
        super::validation::status(kind, &obj)?;
        self.track_status_update(kind, &old, &mut obj);
        self.store_modified(kind, name, old, obj).map(unshare)
    }

    /// A `/status` write by a controller that edits the stored object's status (and
    /// annotations) in place: what [`Self::update_status`] stores for the same result,
    /// with one copy of the object instead of three.
    pub(crate) fn update_status_with(
        &mut self,
        kind: Kind,
        name: &str,
        f: impl FnOnce(&mut Value),
    ) -> Result<Arc<Stored>, ApiError> {
        let old = self.get_shared(kind, name)?;
        let mut obj = old.value().clone();
        f(&mut obj);
        // The controllers write only a changed status; an unchanged one is no write.
        if obj == **old {
            return Ok(old);
        }
        self.store_status(kind, name, old, obj)
    }

    /// A `/status` write by a controller of `obj`, a changed copy of `old` (the stored
    /// object): what [`Self::update_status`] stores for the same result, without copying.
    pub(crate) fn store_status(
        &mut self,
        kind: Kind,
        name: &str,
        old: Arc<Stored>,
        mut obj: Value,
    ) -> Result<Arc<Stored>, ApiError> {
        super::validation::status(kind, &obj)?;
        self.track_status_update(kind, &old, &mut obj);
        // The callers compared already: `obj` differs from `old`.
        self.store_changed(kind, name, Draft::from(obj))
    }

    /// A pod's status as the kubelet writes it: the next version shares the pod's
    /// metadata and spec with `old` (pods have no status validation or managedFields here).
    pub(crate) fn store_pod_status(
        &mut self,
        old: &Stored,
        status: Value,
    ) -> Result<Arc<Stored>, ApiError> {
        let mut draft = old.draft();
        draft.set("status", status);
        self.store_changed(Kind::Pod, old.name(), draft)
    }

    /// [`Self::store_pod_status`] of a status the kubelet keeps typed.
    pub(crate) fn store_starting(
        &mut self,
        old: &Stored,
        status: Starting,
    ) -> Result<Arc<Stored>, ApiError> {
        let mut draft = old.draft();
        draft.set_pod_status(status);
        self.store_changed(Kind::Pod, old.name(), draft)
    }

    /// Metadata-only write by the server itself (ownerReferences, finalizers, labels).
    pub fn update_metadata(
        &mut self,
        kind: Kind,
        name: &str,
        f: impl FnOnce(&mut Value),
    ) -> Result<Value, ApiError> {
        self.update_metadata_shared(kind, name, f).map(unshare)
    }

    /// [`Self::update_metadata`], returning the stored object without copying it.
    pub fn update_metadata_shared(
        &mut self,
        kind: Kind,
        name: &str,
        f: impl FnOnce(&mut Value),
    ) -> Result<Arc<Stored>, ApiError> {
        let old = self.get_shared(kind, name)?;
        let mut obj = old.value().clone();
        f(&mut obj);
        self.store_modified(kind, name.to_string(), old, obj)
    }

    fn store_modified(
        &mut self,
        kind: Kind,
        name: String,
        old: Arc<Stored>,
        obj: Value,
    ) -> Result<Arc<Stored>, ApiError> {
        // A write that changes nothing is not persisted: same resourceVersion, no event.
        let obj = Draft::from(obj);
        if obj.same_as(&old) {
            return Ok(old);
        }
        self.store_changed(kind, &name, obj)
    }

    /// [`Self::store_modified`] for a write its caller knows changes the object: a
    /// pod's deep comparison is a fifth of a rollout's cost.
    fn store_changed(
        &mut self,
        kind: Kind,
        name: &str,
        mut obj: Draft,
    ) -> Result<Arc<Stored>, ApiError> {
        self.bump(&mut obj);
        let obj = Arc::new(Stored::from_draft(kind, obj, &mut self.labels));
        // H5: with finalizers gone, a deleting object is removed.
        let finalizers_empty = obj
            .meta("finalizers")
            .and_then(Value::as_array)
            .is_none_or(|a| a.is_empty());
        if obj.facts().deleting && finalizers_empty && kind != Kind::Pod {
            self.emit(kind, EventType::Deleted, &obj);
            if let Some(m) = self.objects.get_mut(&kind) {
                m.remove(name);
            }
            return Ok(obj);
        }
        self.emit(kind, EventType::Modified, &obj);
        self.objects
            .entry(kind)
            .or_default()
            .insert(name, Arc::clone(&obj));
        Ok(obj)
    }

    /// DELETE. Pods are deleted gracefully (H4): `deletionTimestamp` is set and the kubelet
    /// removes the pod after the grace period; 0 removes it at once. Objects with
    /// finalizers stay until they are removed (H5). Dependents are collected by
    /// the garbage collector ([`super::gc::collect`]).
    pub fn delete(
        &mut self,
        kind: Kind,
        name: &str,
        grace: Option<i64>,
        now: u64,
    ) -> Result<Value, ApiError> {
        self.delete_propagating(kind, name, grace, Propagation::Background, now)
    }

    /// [`Self::delete`], returning the object without copying it.
    pub fn delete_shared(
        &mut self,
        kind: Kind,
        name: &str,
        grace: Option<i64>,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        self.delete_propagating_shared(kind, name, grace, Propagation::Background, now)
    }

    /// DELETE with a `propagationPolicy`: orphan and foreground add their finalizer on the
    /// first delete, so the owner stays until the garbage collector has done its part
    /// ([`super::gc::collect`]).
    pub fn delete_propagating(
        &mut self,
        kind: Kind,
        name: &str,
        grace: Option<i64>,
        propagation: Propagation,
        now: u64,
    ) -> Result<Value, ApiError> {
        self.delete_propagating_shared(kind, name, grace, propagation, now)
            .map(unshare)
    }

    /// [`Self::delete_propagating`], returning the object without copying it.
    pub fn delete_propagating_shared(
        &mut self,
        kind: Kind,
        name: &str,
        grace: Option<i64>,
        propagation: Propagation,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let mut old = self.get_shared(kind, name)?;
        if let Some(f) = propagation.finalizer()
            && !old.facts().deleting
        {
            let mut with_finalizer = old.draft();
            let list = with_finalizer
                .edit("metadata")
                .as_object_mut()
                .map(|m| m.entry("finalizers").or_insert_with(|| json!([])));
            if let Some(Value::Array(a)) = list
                && !a.iter().any(|x| x == f)
            {
                a.push(json!(f));
            }
            old = Arc::new(Stored::from_draft(kind, with_finalizer, &mut self.labels));
        }
        let has_finalizers = old
            .meta("finalizers")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        if kind == Kind::Pod {
            let terminal = matches!(old.pod_phase(), Some("Succeeded" | "Failed"));
            let default = old
                .unfilled("spec")
                .and_then(|s| obj::int(s, &["terminationGracePeriodSeconds"]))
                .unwrap_or(30);
            let grace = if terminal {
                0
            } else {
                grace.unwrap_or(default)
            };
            if grace > 0 || has_finalizers {
                return self.mark_deleting(kind, name, old, now + grace as u64, grace);
            }
            return Ok(self.remove(kind, name));
        }
        if has_finalizers {
            return self.mark_deleting(kind, name, old, now, 0);
        }
        Ok(self.remove(kind, name))
    }

    /// Sets `deletionTimestamp` once (a repeat delete changes nothing); A4: the first one
    /// bumps generation on kinds that have it.
    fn mark_deleting(
        &mut self,
        kind: Kind,
        name: &str,
        old: Arc<Stored>,
        at: u64,
        grace: i64,
    ) -> Result<Arc<Stored>, ApiError> {
        if old.facts().deleting {
            return Ok(old);
        }
        let mut obj = old.draft();
        obj.set_meta("deletionTimestamp", json!(rfc3339(at)));
        obj.set_meta("deletionGracePeriodSeconds", json!(grace));
        if let Some(g) = old.meta("generation").and_then(Value::as_i64) {
            obj.set_meta("generation", json!(g + 1));
        }
        // deletionTimestamp was unset (checked above): this is a change.
        self.store_changed(kind, name, obj)
    }

    /// Removes an object outright (the kubelet's final delete, or a delete with no grace),
    /// returning it as last stored.
    pub fn remove(&mut self, kind: Kind, name: &str) -> Arc<Stored> {
        let Some(obj) = self.objects.get_mut(&kind).and_then(|m| m.remove(name)) else {
            return Arc::new(Stored::new(kind, Value::Null));
        };
        // The deletion takes a resourceVersion, but the watch event carries the object
        // as last stored: nothing in the demo reads a deleted object's version, and
        // writing it in would copy the object (the informers still hold it).
        self.rv += 1;
        self.emit(kind, EventType::Deleted, &obj);
        obj
    }

    /// H6: what background cascading deletion deletes: dependents whose controller owner
    /// no longer exists (the collector deletes them, pods gracefully).
    pub fn garbage(&self) -> Vec<(Kind, String)> {
        let live: std::collections::HashSet<&str> = [Kind::Deployment, Kind::ReplicaSet]
            .iter()
            .flat_map(|k| self.list_shared(*k).map(|o| o.uid()))
            .collect();
        [Kind::ReplicaSet, Kind::Pod]
            .into_iter()
            .flat_map(|kind| {
                self.list_shared(kind)
                    .filter(|o| !o.facts().deleting)
                    .filter(|o| o.controller_uid().is_some_and(|u| !live.contains(u)))
                    .map(move |o| (kind, o.name().to_string()))
            })
            .collect()
    }

    /// Events expire an hour after they were last seen (kube-apiserver's default
    /// `--event-ttl`).
    pub fn expire_events(&mut self, now: u64) {
        const TTL: i64 = 3600;
        let cutoff = crate::sim::time::sim_unix(now) - TTL;
        let Some(events) = self.objects.get_mut(&Kind::Event) else {
            return;
        };
        events.retain(|e| {
            e["lastTimestamp"]
                .as_str()
                .and_then(crate::sim::time::parse_rfc3339)
                .is_none_or(|t| t > cutoff)
        });
    }

    /// Records a core/v1 Event as a component's event broadcaster does: through its
    /// correlator (aggregation, counting, spam filter; see [`super::recorder`]), then as a
    /// create or, for a repeat, a patch of the event it repeats.
    pub fn record_event(
        &mut self,
        involved: &(impl Involved + ?Sized),
        kind: Kind,
        note: Note<'_>,
        now: u64,
    ) {
        let Note {
            type_,
            reason,
            message,
            component,
        } = note;
        let involved_name = involved.name();
        let incoming = Incoming {
            component,
            kind: kind.kind_name(),
            name: involved_name,
            uid: involved.uid(),
            type_,
            reason,
            message,
        };
        let Some(o) = self.recorders.correlate(&incoming, now) else {
            return;
        };
        let ts = json!(rfc3339(now));
        self.rv += 1;
        let stored = o.earlier.as_ref().and_then(|(name, _)| {
            self.objects
                .get_mut(&Kind::Event)
                .and_then(|m| m.get_mut(name))
        });
        if let Some(e) = stored {
            let mut repeat = e.draft();
            repeat.set("count", json!(o.count));
            repeat.set("lastTimestamp", ts);
            repeat.set("message", json!(o.message));
            repeat.set_meta("resourceVersion", json!(self.rv.to_string()));
            *e = Arc::new(Stored::from_draft(Kind::Event, repeat, &mut self.labels));
            return;
        }
        // A repeat of an event the API has since expired is created again under its old
        // name and first time (recordEvent falls back to Create on NotFound).
        let (name, first) = match o.earlier {
            Some((name, first)) => (name, json!(rfc3339(first))),
            None => {
                self.event_seq += 1;
                // The recorder names an event `<object>.<%x of UnixNano>`; events of one
                // simulated second are told apart by microseconds.
                let nanos = crate::sim::time::sim_unix(now) as u64 * 1_000_000_000
                    + (self.event_seq % 1_000_000) * 1_000;
                let name = format!("{involved_name}.{nanos:x}");
                (name, ts.clone())
            }
        };
        self.recorders.written(component, &o.key, &name);
        let api_version = if kind == Kind::Pod { "v1" } else { "apps/v1" };
        // client-go builds an aggregate event without the reporting controller.
        let reporting = if o.aggregate { "" } else { component };
        let event = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "count": o.count,
            "firstTimestamp": first,
            "lastTimestamp": ts,
            "involvedObject": {
                "apiVersion": api_version,
                "kind": kind.kind_name(),
                "name": involved_name,
                "namespace": "default",
                "resourceVersion": involved.resource_version(),
                "uid": involved.uid(),
            },
            "message": o.message,
            // A core/v1 Event's eventTime is a non-pointer MicroTime: null when unset.
            "eventTime": null,
            "metadata": {
                "creationTimestamp": ts,
                "name": name,
                "namespace": "default",
                "resourceVersion": self.rv.to_string(),
                "uid": derived_uid(&name),
            },
            "reason": reason,
            "reportingComponent": reporting,
            "reportingInstance": "",
            "source": {"component": component},
            "type": type_,
        });
        self.objects.entry(Kind::Event).or_default().insert(
            &name,
            Arc::new(Stored::interned(Kind::Event, event, &mut self.labels)),
        );
    }

    /// A component's process is gone: its event correlator starts afresh.
    pub fn forget_recorder(&mut self, component: &str) {
        self.recorders.forget(component);
    }
}

/// A UUID (v4 layout) derived from a name, for objects whose uid should not draw from the
/// seeded stream (that would change every later random name).
fn derived_uid(seed: &str) -> String {
    use super::names::{FNV64_BASIS, fnv64a};
    uuid_v4(&format!(
        "{:016x}{:016x}",
        fnv64a(seed.as_bytes(), FNV64_BASIS),
        fnv64a(seed.as_bytes(), 0x8422_2325_cbf2_9ce4)
    ))
}

/// 32 hex digits in the UUID v4 layout.
fn uuid_v4(h: &str) -> String {
    let mut u = String::with_capacity(36);
    for (sep, part) in [
        ("", &h[0..8]),
        ("-", &h[8..12]),
        ("-4", &h[13..16]),
        ("-a", &h[17..20]),
        ("-", &h[20..32]),
    ] {
        u.push_str(sep);
        u.push_str(part);
    }
    u
}

/// The caller's own copy of a stored object.
fn unshare(o: Arc<Stored>) -> Value {
    Arc::unwrap_or_clone(o).into_value()
}

/// The resourceVersion a client's object carries, if any: an empty one (or none) asks for
/// an unconditional update (A7).
pub fn precondition(o: &Value) -> Option<&str> {
    obj::str(o, &["metadata", "resourceVersion"]).filter(|rv| !rv.is_empty())
}

/// A2: a write moves `metadata.generation` only when the spec changed, or, for a
/// Deployment, its annotations (they are copied to ReplicaSets). Pods carry none here.
fn set_generation(kind: Kind, old: &Value, new: &mut Value) {
    if kind == Kind::Pod {
        return;
    }
    let spec_changed = old.get("spec") != new.get("spec");
    let ann_changed = kind == Kind::Deployment
        && obj::path(old, &["metadata", "annotations"])
            != obj::path(new, &["metadata", "annotations"]);
    let g = obj::int(old, &["metadata", "generation"]).unwrap_or(0);
    let g = if spec_changed || ann_changed {
        g + 1
    } else {
        g
    };
    obj::set(new, &["metadata", "generation"], json!(g));
}

/// managedFields are kept for Deployments, the objects the demo's questions are about.
fn tracks_managed_fields(kind: Kind) -> bool {
    kind == Kind::Deployment
}

/// Runs `record` on a Deployment's managedFields entries and both sides of a write with
/// managedFields taken out, then puts the entries back on `new` (none: no field).
fn track_managed(
    parsed: &mut ParsedManagedFields,
    kind: Kind,
    old: &Value,
    new: &mut Value,
    record: impl FnOnce(&mut Vec<ManagedField>, &Value, &Value),
) {
    if !tracks_managed_fields(kind) {
        return;
    }
    let stored = &old["metadata"]["managedFields"];
    let key = (kind, obj::name(old).to_string());
    let mut entries: Vec<ManagedField> = match parsed.remove(&key) {
        // What this function rendered last time for the object, and it is unchanged.
        Some((json, entries)) if json == *stored => entries,
        _ => stored
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| ManagedField::from_value(e).ok())
                    .collect()
            })
            .unwrap_or_default(),
    };
    // The comparisons skip managedFields (the server owns them): `old` keeps its own.
    obj::remove(new, &["metadata", "managedFields"]);
    record(&mut entries, old, new);
    if !entries.is_empty() {
        let json = managed::managed_fields_value(&entries);
        obj::set(new, &["metadata", "managedFields"], json.clone());
        if parsed.len() >= PARSED_KEPT {
            parsed.clear();
        }
        parsed.insert(key, (json, entries));
    }
}

/// The managedFields entries the API last wrote to each object, parsed, beside the JSON
/// written (see `track_managed`): a Deployment's status writes, a few a second during a
/// rollout, then skip reading its FieldsV1 again.
type ParsedManagedFields = HashMap<(Kind, String), (Value, Vec<ManagedField>)>;

/// Objects whose parsed managedFields are kept.
const PARSED_KEPT: usize = 64;

#[cfg(test)]
mod tests {
    use crate::sim::rng::SimRng;

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
        api.create(Kind::Pod, json!({"metadata": {"name": taken}}), 0)
            .unwrap();
        let pod = api
            .create(Kind::Pod, json!({"metadata": {"generateName": "web-"}}), 0)
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
