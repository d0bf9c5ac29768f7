//! PUT and PATCH: updates of the main endpoint, `/status` and metadata, with their
//! preconditions, generation rule and managedFields (the registry's update path).

use std::sync::Arc;

use serde_json::{Value, json};

use super::admission::Operation;
use super::*;
use crate::sim::HashMap;
use crate::sim::controllers::podstatus::Starting;
use crate::sim::kind::Kind;
use crate::sim::kinds::{self, Generation};
use crate::sim::managed::{self, ManagedField};
use crate::sim::obj;
use crate::sim::stored::{Draft, Stored};
use crate::sim::time::rfc3339;

/// The resourceVersion a client's object carries, if any: an empty one (or none) asks for
/// an unconditional update (A7).
pub fn precondition(o: &Value) -> Option<&str> {
    obj::str(o, &["metadata", "resourceVersion"]).filter(|rv| !rv.is_empty())
}

/// The request a write of `old`'s object (an UPDATE or a DELETE) makes, for admission.
pub(super) fn write_request(
    kind: Kind,
    old: &Stored,
    op: super::admission::Operation,
) -> super::admission::Request {
    super::admission::Request {
        op,
        kind,
        namespace: old
            .meta("namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        name: old.name().to_string(),
        old: Some(old.value().clone()),
    }
}

/// A2: a write moves `metadata.generation` when its kind's strategy says the change
/// counts (`kinds::Generation`); kinds that keep none are left alone.
pub(super) fn set_generation(kind: Kind, old: &Value, new: &mut Value) {
    let counts = match kinds::of(kind).generation() {
        Generation::None => return,
        Generation::Spec => old.get("spec") != new.get("spec"),
        Generation::Field(f) => old.get(f) != new.get(f),
        Generation::AllButMetadata => {
            fn rest(v: &Value) -> Option<Vec<(&String, &Value)>> {
                v.as_object()
                    .map(|m| m.iter().filter(|(k, _)| *k != "metadata").collect())
            }
            rest(old) != rest(new)
        }
        Generation::SpecOrAnnotations => {
            old.get("spec") != new.get("spec")
                || obj::path(old, &["metadata", "annotations"])
                    != obj::path(new, &["metadata", "annotations"])
        }
    };
    let g = obj::int(old, &["metadata", "generation"]).unwrap_or(0);
    obj::set(
        new,
        &["metadata", "generation"],
        json!(g + i64::from(counts)),
    );
}

/// Runs `record` on a Deployment's managedFields entries and both sides of a write with
/// managedFields taken out, then puts the entries back on `new` (none: no field).
pub(super) fn track_managed(
    parsed: &mut ParsedManagedFields,
    kind: Kind,
    old: &Value,
    new: &mut Value,
    record: impl FnOnce(&mut Vec<ManagedField>, &Value, &Value),
) {
    if !kinds::of(kind).tracks_managed_fields() {
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
pub(super) type ParsedManagedFields = HashMap<(Kind, String), (Value, Vec<ManagedField>)>;

/// Objects whose parsed managedFields are kept.
pub(super) const PARSED_KEPT: usize = 64;

impl ApiServer {
    /// F4/F7: a non-apply write takes ownership of what it changed. Tracked for
    /// Deployments, the objects the demo's questions are about.
    pub(super) fn track_update(&mut self, kind: Kind, old: &Value, new: &mut Value) {
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
    pub(super) fn track_status_update(&mut self, kind: Kind, old: &Value, new: &mut Value) {
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
        let now = self.clock;
        self.admitted(
            || write_request(kind, &old, Operation::Update),
            now,
            |api| api.put_applied_checked(kind, name, old.clone(), obj),
        )
    }

    fn put_applied_checked(
        &mut self,
        kind: Kind,
        name: String,
        old: Arc<Stored>,
        mut obj: Value,
    ) -> Result<Value, ApiError> {
        kinds::of(kind).begin_update(&mut obj, &old);
        kinds::of(kind).default(&mut obj);
        self.mutate(&mut obj)?;
        kinds::of(kind).validate(&obj, Some(&old))?;
        self.validate_admitted(Some(&obj))?;
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
        obj: Value,
        rv: Option<&str>,
    ) -> Result<Arc<Stored>, ApiError> {
        let name = obj::name(&obj).to_string();
        self.check_precondition(kind, &name, rv)?;
        let old = self.get_shared(kind, &name)?;
        // rest.BeforeUpdate: a strategy that allows no unconditional update needs the
        // version the client read.
        if precondition(&obj).is_none() && !kinds::of(kind).allow_unconditional_update() {
            return Err(ApiError::invalid(format!(
                "The {} \"{name}\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update",
                kind.kind_name()
            )));
        }
        let now = self.clock;
        self.admitted(
            || write_request(kind, &old, Operation::Update),
            now,
            |api| api.update_checked(kind, name, old.clone(), obj),
        )
    }

    fn update_checked(
        &mut self,
        kind: Kind,
        name: String,
        old: Arc<Stored>,
        mut obj: Value,
    ) -> Result<Arc<Stored>, ApiError> {
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
        if self.status_is_subresource(kind) {
            match old.get("status") {
                Some(s) => obj::set(&mut obj, &["status"], s.clone()),
                None => {
                    obj::remove(&mut obj, &["status"]);
                }
            }
        }
        kinds::of(kind).begin_update(&mut obj, &old);
        kinds::of(kind).default(&mut obj);
        self.decode_custom_object(kind, &mut obj, Some(&old))?;
        self.mutate(&mut obj)?;
        kinds::of(kind).validate(&obj, Some(&old))?;
        // A custom object's old self is the stored one as the request's version reads it
        // (with today's defaults: a default added since its write is no change of spec).
        let old_view = self.request_view(kind, old.value(), &obj)?;
        let old_value = old_view.as_ref().unwrap_or(old.value());
        self.validate_custom(kind, &obj, Some(old_value))?;
        self.validate_admitted(Some(&obj))?;
        crate::sim::deletion::check_finalizers(kind, &old, &obj)?;
        self.track_update(kind, &old, &mut obj);
        set_generation(kind, old_value, &mut obj);
        self.to_storage(kind, &mut obj);
        self.store_modified(kind, name, old, obj)
    }

    /// A3: PUT on `/status`. Spec (and a Deployment's labels) come from the stored object;
    /// generation never moves.
    pub fn update_status(&mut self, kind: Kind, mut obj: Value) -> Result<Value, ApiError> {
        let name = obj::name(&obj).to_string();
        let old = self.get_shared(kind, &name)?;
        if matches!(kind, Kind::Custom(_)) {
            return self
                .update_custom_status(kind, &name, old, obj)
                .map(unshare);
        }
        let mut keep = old.value().clone();
        if let Some(s) = obj.get("status") {
            obj::set(&mut keep, &["status"], s.clone());
        }
        if let Some(a) = obj::path(&obj, &["metadata", "annotations"]) {
            obj::set(&mut keep, &["metadata", "annotations"], a.clone());
        }
        if kinds::of(kind).status_writes_labels() {
            // The kubelet's writes: pods carry no spec changes here either.
            if let Some(l) = obj::path(&obj, &["metadata", "labels"]) {
                obj::set(&mut keep, &["metadata", "labels"], l.clone());
            }
        }
        obj = keep;
        // The body is decoded, and so defaulted, as on the main endpoint.
        kinds::of(kind).default(&mut obj);
        kinds::of(kind).validate_status(&obj)?;
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
        kinds::of(kind).validate_status(&obj)?;
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

    /// A write of one top-level field by a system writer of a kind that keeps no
    /// managedFields and validates nothing there (a kubelet renewing its Lease): the next
    /// version shares every other field with the stored one.
    pub(crate) fn store_field(
        &mut self,
        kind: Kind,
        name: &str,
        key: &str,
        f: impl FnOnce(&mut Value),
    ) -> Result<Arc<Stored>, ApiError> {
        let old = self.get_shared(kind, name)?;
        let mut draft = old.draft();
        f(draft.edit(key));
        self.store_changed(kind, name, draft)
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
        let now = self.clock;
        self.admitted(
            || write_request(kind, &old, Operation::Update),
            now,
            |api| {
                api.mutate(&mut obj)?;
                api.validate_admitted(Some(&obj))?;
                api.store_modified(kind, name.to_string(), old.clone(), obj)
            },
        )
    }

    pub(super) fn store_modified(
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
    pub(super) fn store_changed(
        &mut self,
        kind: Kind,
        name: &str,
        obj: Draft,
    ) -> Result<Arc<Stored>, ApiError> {
        let stored = self.store_draft(kind, name, obj);
        if kind == Kind::CustomResourceDefinition {
            self.refresh_definition(name);
        }
        stored
    }

    fn store_draft(
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
        // A gracefully deleted object (a pod) waits for its node instead.
        if obj.facts().deleting && finalizers_empty && !kinds::of(kind).graceful_deletion() {
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
}
