//! One module per kind, each declaring its strategy as kube-apiserver's registry does
//! (pkg/registry/<group>/<kind>/strategy.go) together with its server-side printing
//! (pkg/printers/internalversion): defaults, validation, which writes move
//! `metadata.generation`, whether status is a subresource, graceful deletion, the fields
//! the kind declares, its `get` columns and rows, and its `describe`.
//!
//! The API server (`api/`) asks [`of`] for a kind's strategy and never matches on kinds
//! itself, so adding a kind is: a variant and its names in `kind.rs`, a module here, and
//! its line in [`of`]. docs/simulator.md walks through it.
//!
//! Imports run one way: `kind` (a leaf) <- `defaults`, `validation`, `schema`, `table`
//! <- `kinds` <- `api`.

mod controllerrevision;
mod crd;
pub mod cronjob;
mod custom;
pub mod daemonset;
mod deployment;
mod endpoints;
mod endpointslice;
mod event;
mod hpa;
pub mod job;
mod lease;
mod node;
pub mod pdb;
mod pod;
mod policy;
pub mod pvc;
mod replicaset;
pub mod service;
mod statefulset;
mod webhook;

use serde_json::Value;

use crate::sim::ipalloc::ClusterIps;
pub use crate::sim::kind::Kind;
use crate::sim::schema::Type;
use crate::sim::status::ApiError;
use crate::sim::stored::Stored;
use crate::sim::table::{Lookup, TableOpts};
pub use pod::pending_status;

/// Which writes move `metadata.generation` (A2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// The kind keeps no generation (pods here, events).
    None,
    /// A change of `spec`.
    Spec,
    /// A change of `spec` or of the annotations (a Deployment's are copied to its
    /// ReplicaSets, so a change to them is a change of intent).
    SpecOrAnnotations,
    /// A change of the named top-level field (a webhook configuration's `webhooks`).
    Field(&'static str),
    /// A change of anything but metadata (a custom object: with the status subresource,
    /// status is kept from the stored object, so then that is its spec and the rest).
    AllButMetadata,
}

/// What a describer reads beside the object: the stored objects of another kind.
pub trait Reader {
    fn objects(&self, kind: Kind) -> Vec<&Value>;
}

/// The pods `obj`'s `spec.selector` matches, as kubectl lists them for a workload's
/// describe.
fn selected_pods<'a>(obj: &Value, reader: &'a dyn Reader) -> Vec<&'a Value> {
    let selector = obj.pointer("/spec/selector").unwrap_or(&Value::Null);
    reader
        .objects(Kind::Pod)
        .into_iter()
        .filter(|p| crate::sim::obj::selector_matches(selector, p))
        .collect()
}

/// A string field of a row's object, empty when absent.
fn cell(obj: &dyn Lookup, path: &[&str]) -> String {
    obj.lookup(path)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

/// What the API server and the printers ask of a kind.
pub trait Strategy: Sync {
    /// The namespace its objects live in: the demo's `default`, none for cluster-scoped
    /// kinds (nodes), or the one namespace the system keeps them in (node leases in
    /// `kube-node-lease`).
    fn namespace(&self) -> Option<&'static str> {
        Some("default")
    }

    /// Other namespaces an object of the kind may be created in (the demo keeps one
    /// namespace per kind, but Leases live in `kube-node-lease` and `kube-system`).
    fn other_namespaces(&self) -> &'static [&'static str] {
        &[]
    }

    /// SetDefaults_*: run on every create and update before validation.
    fn default(&self, _obj: &mut Value) {}

    /// PrepareForCreate: what the server sets on a new object besides defaults (a pod's
    /// Pending status, an empty status for a workload).
    fn prepare_for_create(&self, _obj: &mut Value, _template_spec: Option<&Value>) {}

    /// BeginCreate of the kind's REST storage: what it allocates once the object is
    /// valid (a Service's cluster IP, from `ips`), or why it cannot.
    fn begin_create(&self, _obj: &mut Value, _ips: &mut ClusterIps) -> Result<(), ApiError> {
        Ok(())
    }

    /// BeginUpdate: what the storage carries over from the stored object when a write
    /// leaves it out (a Service's allocated cluster IP), before defaults and validation.
    fn begin_update(&self, _obj: &mut Value, _old: &Value) {}

    /// A registry's own Delete on the first DELETE (a CRD's: its cleanup finalizer and
    /// Terminating condition, and a deletionTimestamp with no grace period or generation
    /// bump): the object to store instead of the store's marking, or none.
    fn prepare_for_delete(&self, _obj: &Value, _now: u64) -> Option<Value> {
        None
    }

    /// AfterDelete: gives back what `begin_create` allocated.
    fn after_delete(&self, _obj: &Value, _ips: &mut ClusterIps) {}

    /// Whether the uid is drawn before PrepareForCreate, as rest.BeforeCreate draws it for
    /// every kind; the demo draws it late (after validation) for the kinds that do not
    /// read it, so a refused create takes no uid.
    fn uid_before_create(&self) -> bool {
        false
    }

    /// DefaultGarbageCollectionPolicy: what a DELETE that names no propagation policy
    /// does with the object's dependents, and the warning the server sends with it.
    fn default_propagation(&self) -> (crate::sim::deletion::Propagation, Option<&'static str>) {
        (crate::sim::deletion::Propagation::Background, None)
    }

    /// Validate (create, `old` none) and ValidateUpdate.
    fn validate(&self, _obj: &Value, _old: Option<&Value>) -> Result<(), ApiError> {
        Ok(())
    }

    /// ValidateUpdate of the status subresource.
    fn validate_status(&self, _obj: &Value) -> Result<(), ApiError> {
        Ok(())
    }

    fn generation(&self) -> Generation {
        Generation::None
    }

    /// Whether a `/status` write may also set labels (the kubelet's pod status writes).
    fn status_writes_labels(&self) -> bool {
        false
    }

    /// AllowUnconditionalUpdate: whether a PUT without a resourceVersion is accepted (the
    /// last write wins); CRDs and custom objects refuse it.
    fn allow_unconditional_update(&self) -> bool {
        true
    }

    /// Whether deletion is graceful: the object stays, with a deletionTimestamp, until
    /// its node confirms (pods); otherwise it goes once its finalizers are gone.
    fn graceful_deletion(&self) -> bool {
        false
    }

    /// CheckGracefulDelete: the grace period a delete of `obj` gets, given the one the
    /// request asked for; `None` where deletion is not graceful.
    fn deletion_grace(&self, _obj: &Stored, _requested: Option<i64>) -> Option<i64> {
        None
    }

    /// Whether managedFields are tracked (the demo keeps them for the kinds its
    /// questions write by hand).
    fn tracks_managed_fields(&self) -> bool {
        false
    }

    /// The fields the kind declares; `None` for kinds nobody writes by hand.
    fn schema(&self) -> Option<&'static Type> {
        None
    }

    /// The `get` table's columns, narrow or wide.
    fn columns(&self, wide: bool) -> &'static [&'static str];

    /// One `get` row; cells past the shown columns are cut.
    fn row(&self, obj: &dyn Lookup, now: u64, wide: bool) -> Vec<String>;

    /// `kubectl describe`; `None` where kubectl has no describer for the kind.
    fn describe(&self, _obj: &Value, _reader: &dyn Reader, _now: u64) -> Option<String> {
        None
    }
}

/// Whether an object of `kind` whose own namespace is `ns` shows under `-n namespace`:
/// cluster-scoped kinds show everywhere.
pub fn in_namespace(kind: Kind, ns: Option<&str>, namespace: &str) -> bool {
    let s = of(kind);
    match s.namespace() {
        None => true,
        Some(default) => ns.unwrap_or(default) == namespace,
    }
}

/// The strategy of `kind`.
pub fn of(kind: Kind) -> &'static dyn Strategy {
    match kind {
        Kind::Deployment => &deployment::Deployment,
        Kind::ReplicaSet => &replicaset::ReplicaSet,
        Kind::Pod => &pod::Pod,
        Kind::Event => &event::Event,
        Kind::Node => &node::Node,
        Kind::Lease => &lease::Lease,
        Kind::PodDisruptionBudget => &pdb::PodDisruptionBudget,
        Kind::Service => &service::Service,
        Kind::Endpoints => &endpoints::Endpoints,
        Kind::EndpointSlice => &endpointslice::EndpointSlice,
        Kind::StatefulSet => &statefulset::StatefulSet,
        Kind::ControllerRevision => &controllerrevision::ControllerRevision,
        Kind::PersistentVolumeClaim => &pvc::PersistentVolumeClaim,
        Kind::DaemonSet => &daemonset::DaemonSet,
        Kind::Job => &job::Job,
        Kind::CronJob => &cronjob::CronJob,
        Kind::HorizontalPodAutoscaler => &hpa::HorizontalPodAutoscaler,
        Kind::MutatingWebhookConfiguration => &webhook::MUTATING,
        Kind::ValidatingWebhookConfiguration => &webhook::VALIDATING,
        Kind::ValidatingAdmissionPolicy => &policy::POLICY,
        Kind::ValidatingAdmissionPolicyBinding => &policy::BINDING,
        Kind::CustomResourceDefinition => &crd::CustomResourceDefinition,
        Kind::Custom(c) if c.names().namespaced => &custom::NAMESPACED,
        Kind::Custom(_) => &custom::CLUSTER,
    }
}

/// The `get` table of `objects`, all of `kind`; empty (no header) for none, where the
/// caller prints `No resources found in default namespace.` to stderr.
pub fn get_table<T: Lookup>(kind: Kind, objects: &[T], now: u64, opts: &TableOpts) -> String {
    let s = of(kind);
    crate::sim::table::get_table(
        s.columns(opts.wide),
        kind.kind_group(),
        objects,
        |o| s.row(o, now, opts.wide),
        opts,
    )
}
