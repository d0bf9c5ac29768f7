//! What a DELETE asks for and what the API server allows while it is carried out: the
//! propagation policy and its finalizers (k8s-semantics H5, H6). A leaf shared by the API
//! server, which enforces it, and the garbage collector, which acts on it.

use std::collections::HashSet;

use serde_json::Value;

use super::kind::Kind;
use super::obj;
use super::status::ApiError;

/// `propagationPolicy` of a DELETE; kubectl sends it from `--cascade`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagation {
    #[default]
    Background,
    Foreground,
    Orphan,
}

/// The finalizer the API server adds for `Orphan`.
pub const ORPHAN: &str = "orphan";
/// The finalizer the API server adds for `Foreground`.
pub const FOREGROUND: &str = "foregroundDeletion";

impl Propagation {
    /// The finalizer that carries this policy on the deleting owner, if any.
    pub fn finalizer(self) -> Option<&'static str> {
        match self {
            Propagation::Background => None,
            Propagation::Foreground => Some(FOREGROUND),
            Propagation::Orphan => Some(ORPHAN),
        }
    }

    /// kubectl's `--cascade` value (cmdutil.GetCascadingStrategy): the three names, or a
    /// deprecated boolean with the warning kubectl prints for it.
    pub fn from_cascade(v: &str) -> Result<(Propagation, Option<String>), String> {
        let deprecated = |b: bool, to: &str| {
            Some(format!(
                "warning: --cascade={b} is deprecated (boolean value) and can be replaced with --cascade={to}.\n"
            ))
        };
        match v {
            "background" => Ok((Propagation::Background, None)),
            "foreground" => Ok((Propagation::Foreground, None)),
            "orphan" => Ok((Propagation::Orphan, None)),
            // strconv.ParseBool's spellings.
            "1" | "t" | "T" | "true" | "TRUE" | "True" => {
                Ok((Propagation::Background, deprecated(true, "background")))
            }
            "0" | "f" | "F" | "false" | "FALSE" | "False" => {
                Ok((Propagation::Orphan, deprecated(false, "orphan")))
            }
            _ => Err(format!(
                "error: invalid cascade value ({v}). Must be \"background\", \"foreground\", or \"orphan\""
            )),
        }
    }
}

pub fn finalizers(o: &Value) -> impl Iterator<Item = &str> {
    obj::path(o, &["metadata", "finalizers"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

pub fn has_finalizer(o: &Value, f: &str) -> bool {
    finalizers(o).any(|x| x == f)
}

/// H5: finalizers may be removed from an object being deleted, never added.
pub fn check_finalizers(kind: Kind, old: &Value, new: &Value) -> Result<(), ApiError> {
    if !obj::is_deleting(old) {
        return Ok(());
    }
    let before: HashSet<&str> = finalizers(old).collect();
    let added: Vec<String> = finalizers(new)
        .filter(|f| !before.contains(f))
        .map(|f| format!("{f:?}"))
        .collect();
    if added.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid(format!(
        "The {} \"{}\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
        kind.kind_name(),
        obj::name(old),
        added.join(", ")
    )))
}
