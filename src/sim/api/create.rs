//! POST: creating objects (rest.BeforeCreate and the registry's create path): names
//! generated from `generateName`, uids, defaults, validation, the resourceVersion check,
//! and ReplicaSet pods made from a shared template.

use std::sync::{Arc, LazyLock};

use rand::RngExt;
use serde_json::{Value, json};

use super::events::uuid_v4;
use super::*;
use crate::sim::defaults;
use crate::sim::kind::Kind;
use crate::sim::kinds::{self, Generation};
use crate::sim::managed::{self};
use crate::sim::obj;
use crate::sim::stored::{self, Draft, Entries, Stored};
use crate::sim::time::rfc3339;

/// ReplicaSet specs whose admitted pod template is kept: more than the ReplicaSets a
/// rollout creates pods for at once.
pub(super) const POD_TEMPLATES: usize = 8;

/// What every pod of one ReplicaSet spec is created with, made on its first pod.
pub(super) struct PodTemplate {
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

/// Values every pod made from a template has.
pub(super) struct PodShared {
    api_version: Arc<Value>,
    kind: Arc<Value>,
    namespace: Arc<Value>,
}

pub(super) static POD_SHARED: LazyLock<PodShared> = LazyLock::new(|| PodShared {
    api_version: Arc::new(Value::from("v1")),
    kind: Arc::new(Value::from("Pod")),
    namespace: Arc::new(Value::from("default")),
});

/// How often the API server draws a generated name before giving up
/// (`maxNameGenerationCreateAttempts` in k8s.io/apiserver).
pub(super) const GENERATE_NAME_ATTEMPTS: usize = 8;

impl ApiServer {
    pub(super) fn push_random_suffix(&mut self, s: &mut String, n: usize) {
        for _ in 0..n {
            s.push(NAME_ALPHABET[self.names_rng.random_range(0..NAME_ALPHABET.len())] as char);
        }
    }

    pub(super) fn uid(&mut self) -> String {
        let b: [u8; 16] = self.rng.random();
        let mut h = String::with_capacity(32);
        crate::sim::names::push_hex(&mut h, &b);
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
        // Admission sees, and may patch, the whole pod: no shared template then.
        if self.admission_active() {
            let pod = obj::object([
                ("apiVersion", Value::from("v1")),
                ("kind", Value::from("Pod")),
                ("metadata", template.meta.clone()),
                ("spec", rs_spec["template"]["spec"].clone()),
            ]);
            return self.create_with(Kind::Pod, pod, None, now);
        }
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

    pub(super) fn pod_template(&mut self, rs_spec: &Value, meta: Value) -> PodTemplate {
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
            status: Arc::new(crate::sim::kinds::pending_status(
                spec.as_deref().unwrap_or(&Value::Null),
            )),
            spec,
            entries: entries.map(|e| (e, labels)),
            meta,
        }
    }

    /// [`Self::create_with`] of a pod made from a template's shared parts.
    pub(super) fn create_templated_pod(
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
    pub(super) fn store_created(&mut self, kind: Kind, name: &str, obj: Stored) -> Arc<Stored> {
        let obj = Arc::new(obj);
        self.emit(kind, EventType::Added, &obj);
        self.objects
            .entry(kind)
            .or_default()
            .insert(name, Arc::clone(&obj));
        if kind == Kind::CustomResourceDefinition {
            self.refresh_definition(name);
        }
        obj
    }

    /// A name from `prefix` (metadata.generateName) that no object of `kind` has.
    pub(super) fn generate_name(&mut self, kind: Kind, prefix: &str) -> Result<String, ApiError> {
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
    pub(super) fn create_with(
        &mut self,
        kind: Kind,
        obj: Value,
        pod_spec: Option<Arc<Value>>,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let request = || {
            let strategy = kinds::of(kind);
            let own = obj::str(&obj, &["metadata", "namespace"]).unwrap_or("");
            let namespace = match strategy.namespace() {
                Some(_) if strategy.other_namespaces().contains(&own) => own,
                Some(ns) => ns,
                None => "",
            };
            admission::Request {
                op: admission::Operation::Create,
                kind,
                namespace: namespace.to_string(),
                name: obj::name(&obj).to_string(),
                old: None,
            }
        };
        let request = request();
        self.admitted(
            || request,
            now,
            |api| api.create_checked(kind, obj, pod_spec, now),
        )
    }

    /// [`Self::create_with`] inside its request: defaults, mutating admission, validation,
    /// validating admission, storage.
    fn create_checked(
        &mut self,
        kind: Kind,
        mut obj: Value,
        pod_spec: Option<Arc<Value>>,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        let strategy = kinds::of(kind);
        if kind == Kind::CustomResourceDefinition
            && self.count(kind) >= crate::sim::kind::MAX_DEFINITIONS
        {
            return Err(ApiError {
                reason: Reason::Forbidden,
                message: format!(
                    "{} \"{}\" is forbidden: kubedrill's demo holds at most {} CustomResourceDefinitions",
                    kind.group_resource(),
                    obj::name(&obj),
                    crate::sim::kind::MAX_DEFINITIONS
                ),
            });
        }
        // rest.BeforeCreate: a cluster-scoped object's namespace is cleared.
        if let Some(ns) = strategy.namespace() {
            let own = obj::str(&obj, &["metadata", "namespace"]).unwrap_or("");
            if !strategy.other_namespaces().contains(&own) {
                obj::set(&mut obj, &["metadata", "namespace"], json!(ns));
            }
        } else if let Some(m) = obj["metadata"].as_object_mut() {
            m.remove("namespace");
        }
        if strategy.generation() != Generation::None {
            obj::set(&mut obj, &["metadata", "generation"], json!(1));
        }
        // A template's spec was defaulted with its ReplicaSet.
        if pod_spec.is_none() {
            strategy.default(&mut obj);
        }
        self.decode_custom_object(kind, &mut obj, None)?;
        self.mutate(&mut obj)?;
        // Store.create draws a generated name after mutating admission.
        let mut name = obj::name(&obj).to_string();
        if name.is_empty() {
            let prefix = obj::str(&obj, &["metadata", "generateName"]).unwrap_or("");
            name = self.generate_name(kind, prefix)?;
            obj::set(&mut obj, &["metadata", "name"], json!(name));
        }
        let early_uid = strategy.uid_before_create().then(|| self.uid());
        if let Some(uid) = &early_uid {
            obj::set(&mut obj, &["metadata", "uid"], json!(uid));
        }
        strategy.prepare_for_create(&mut obj, pod_spec.as_deref());
        match pod_spec {
            // A template's spec was validated with its ReplicaSet; the pod's own metadata
            // is what is new.
            Some(_) => crate::sim::validation::object_meta(kind, &obj)?,
            None => strategy.validate(&obj, None)?,
        }
        self.validate_custom(kind, &obj, None)?;
        self.validate_admitted(Some(&obj))?;
        self.to_storage(kind, &mut obj);
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
        let uid = early_uid.unwrap_or_else(|| self.uid());
        obj::set(&mut obj, &["metadata", "uid"], json!(uid));
        obj::set(
            &mut obj,
            &["metadata", "creationTimestamp"],
            json!(rfc3339(now)),
        );
        // Updates own the defaulted fields too; a create by server-side apply brings its
        // own managedFields.
        if strategy.tracks_managed_fields()
            && obj::path(&obj, &["metadata", "managedFields"]).is_none()
        {
            self.track_update(kind, &managed::zero_object(), &mut obj);
        }
        // The registry allocates after the handler has tracked the request's fields (a
        // Service's cluster IP is owned by nobody), and after every check above, so a
        // refused request takes no IP.
        strategy.begin_create(&mut obj, &mut self.cluster_ips)?;
        let mut obj = Draft::from(obj);
        if let Some(spec) = pod_spec {
            obj.set_pod_spec(spec, defaults::service_account_volume(&name));
        }
        self.bump(&mut obj);
        let obj = Stored::from_draft(kind, obj, &mut self.labels);
        Ok(self.store_created(kind, &name, obj))
    }
}
