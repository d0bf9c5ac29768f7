//! DELETE: graceful deletion, the propagation policy's finalizers, and removal once
//! nothing holds an object.

use std::sync::Arc;

use serde_json::{Value, json};

use super::admission::Operation;
use super::update::write_request;
use super::*;
use crate::sim::deletion::Propagation;
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use crate::sim::time::rfc3339;

impl ApiServer {
    /// DELETE. Pods are deleted gracefully (H4): `deletionTimestamp` is set and the kubelet
    /// removes the pod after the grace period; 0 removes it at once. Objects with
    /// finalizers stay until they are removed (H5). Dependents are collected by
    /// the garbage collector ([`crate::sim::gc::collect`]).
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
    /// ([`crate::sim::gc::collect`]).
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
        let old = self.get_shared(kind, name)?;
        // A custom object the converter cannot read cannot be deleted either.
        if matches!(kind, Kind::Custom(_)) {
            self.read_custom(kind, old.value())?;
        }
        let read = Arc::clone(&old);
        let request = move || write_request(kind, &read, Operation::Delete);
        self.admitted(request, now, |api| {
            api.mutate(&mut Value::Null)?;
            api.validate_admitted(None)?;
            api.delete_checked(kind, name, old, grace, propagation, now)
        })
    }

    /// The kubelet's final DELETE of a pod whose containers are gone (grace period 0):
    /// admitted like any other, so a webhook that refuses DELETEs keeps the pod
    /// Terminating. Whether it may go.
    pub fn admit_removal(&mut self, kind: Kind, name: &str, now: u64) -> bool {
        if !self.admission_active() {
            return true;
        }
        let Ok(old) = self.get_shared(kind, name) else {
            return true;
        };
        let request = || write_request(kind, &old, Operation::Delete);
        self.admitted(request, now, |api| {
            api.mutate(&mut Value::Null)?;
            api.validate_admitted(None)
        })
        .is_ok()
    }

    /// [`Self::delete_propagating_shared`] once admitted.
    fn delete_checked(
        &mut self,
        kind: Kind,
        name: &str,
        mut old: Arc<Stored>,
        grace: Option<i64>,
        propagation: Propagation,
        now: u64,
    ) -> Result<Arc<Stored>, ApiError> {
        if !old.facts().deleting
            && let Some(marked) = crate::sim::kinds::of(kind).prepare_for_delete(old.value(), now)
        {
            // The registry's own Delete: stored as it made it, the store's marking skipped.
            return self.store_changed(kind, name, marked.into());
        }
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
        if let Some(grace) = crate::sim::kinds::of(kind).deletion_grace(&old, grace) {
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
    pub(super) fn mark_deleting(
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
        crate::sim::kinds::of(kind).after_delete(obj.value(), &mut self.cluster_ips);
        self.emit(kind, EventType::Deleted, &obj);
        if kind == Kind::CustomResourceDefinition {
            self.refresh_definition(name);
        }
        obj
    }
}
