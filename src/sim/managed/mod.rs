//! Server-side apply field ownership (`metadata.managedFields`) on an apps/v1 Deployment held
//! as a `serde_json::Value`: sections F4-F8 and G3 of the semantics reference, modelled on
//! structured-merge-diff's `Updater`.
//!
//! A [`FieldSet`] holds the owned paths: leaf fields (scalars, atomic lists, empty objects) and
//! the items of keyed lists. An applier owns leaves only; an Update also owns each object or
//! keyed list it created (absent before), shown as `".": {}` (see `compare_update`). Fields the
//! server owns (`apiVersion`, `kind`, `metadata.name`/`namespace`/`uid`/`resourceVersion`/
//! `generation`/`creationTimestamp`/`managedFields`, `status`) are never tracked.
//!
//! The files follow structured-merge-diff's own split: `fieldpath` holds sets of field
//! paths and their JSON form (its `fieldpath` package), `schema` and `typed` what the
//! Deployment's schema says and how objects are walked, compared and merged (its `schema` and
//! `typed` packages), and `update` and `conflict` the operations that change ownership
//! (its `merge` package); `managers` is the `metadata.managedFields` entry as the API server
//! encodes it, and `csaupgrade` kubectl's client-side apply migration.

mod conflict;
mod csaupgrade;
mod fieldpath;
mod lastapplied;
mod managers;
mod schema;
mod typed;
mod update;

#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
mod test_support;

pub use conflict::{ApplyConflict, Conflict};
pub use csaupgrade::migrate_client_side;
pub use fieldpath::{FieldSet, FieldsError, Path, PathElement, path_string};
pub use lastapplied::apply_forgiving;
pub use managers::{ManagedField, Operation, managed_fields_value, sort_entries};
pub use schema::{list_keys, smd_path};
pub use typed::zero_object;
pub use update::{apply, record_status_update, record_update};

/// The only API version the simulator serves Deployments in.
pub const API_VERSION: &str = "apps/v1";
/// kubectl's manager for client-side apply (an Update).
pub const CLIENT_SIDE_APPLY_MANAGER: &str = "kubectl-client-side-apply";
/// kubectl's default manager for server-side apply.
pub const KUBECTL_MANAGER: &str = "kubectl";
