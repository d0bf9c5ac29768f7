//! apiextensions-apiserver, the part of kube-apiserver that serves CustomResourceDefinitions
//! and the kinds they add: the CRD object's defaults and validation (`crd`), a version's
//! structural schema with pruning and defaulting (`schema`), validation of custom objects
//! against it with CEL rules (`validate`), and the printer columns `kubectl get` shows
//! (`columns`). The API server (`api/custom.rs`) drives them; the naming, establishing
//! and finalizing controllers are in `controllers/apiextensions.rs`.

pub mod columns;
pub mod crd;
pub mod schema;
pub mod validate;

pub use crd::{CLEANUP_FINALIZER, Definition, Version};
