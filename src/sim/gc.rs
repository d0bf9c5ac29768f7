//! The garbage collector's cascading modes (k8s-semantics H6; kube-controller-manager's
//! garbagecollector): background (the owner goes at once, dependents are collected after
//! it), foreground (the owner stays, carrying the `foregroundDeletion` finalizer, until
//! every dependent that blocks it is gone) and orphan (the owner's references are removed
//! from its dependents, which stay).

use std::collections::HashSet;

use serde_json::Value;

use super::api::{ApiError, ApiServer};
use super::kind::Kind;
use super::obj;

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

/// Kinds that can own something in the demo, and kinds that can be owned.
const OWNERS: [Kind; 2] = [Kind::Deployment, Kind::ReplicaSet];
const DEPENDENTS: [Kind; 2] = [Kind::ReplicaSet, Kind::Pod];

fn finalizers(o: &Value) -> impl Iterator<Item = &str> {
    obj::path(o, &["metadata", "finalizers"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn has_finalizer(o: &Value, f: &str) -> bool {
    finalizers(o).any(|x| x == f)
}

fn refs(o: &Value) -> impl Iterator<Item = &Value> {
    obj::path(o, &["metadata", "ownerReferences"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Dependents of `uid` (any ownerReference to it), with whether that reference blocks
/// the owner's foreground deletion.
fn dependents(api: &ApiServer, uid: &str) -> Vec<(Kind, String, bool)> {
    DEPENDENTS
        .iter()
        .flat_map(|k| api.list(*k).map(move |o| (*k, o)))
        .filter_map(|(k, o)| {
            let r = refs(o).find(|r| r["uid"] == uid)?;
            let blocks = r["blockOwnerDeletion"] == Value::Bool(true);
            Some((k, obj::name(o).to_string(), blocks))
        })
        .collect()
}

/// True while some owner waits for the collector (so `settle` keeps running it).
pub fn pending(api: &ApiServer) -> bool {
    OWNERS.iter().any(|k| {
        api.list(*k).any(|o| {
            obj::is_deleting(o) && (has_finalizer(o, ORPHAN) || has_finalizer(o, FOREGROUND))
        })
    })
}

fn remove_finalizer(api: &mut ApiServer, kind: Kind, name: &str, f: &str) {
    let _ = api.update_metadata(kind, name, |o| {
        if let Some(a) = o["metadata"]["finalizers"].as_array_mut() {
            a.retain(|x| x != f);
        }
    });
}

/// One pass of the collector: orphan and foreground owners first, then the background
/// collection of dependents whose owner is gone.
pub fn collect(api: &mut ApiServer, now: u64) {
    for kind in OWNERS {
        let waiting: Vec<(String, String, bool)> = api
            .list(kind)
            .filter(|o| obj::is_deleting(o))
            .filter_map(|o| {
                let orphan = has_finalizer(o, ORPHAN);
                (orphan || has_finalizer(o, FOREGROUND)).then(|| {
                    (obj::name(o).to_string(), obj::uid(o).to_string(), orphan)
                })
            })
            .collect();
        for (name, uid, orphan) in waiting {
            let deps = dependents(api, &uid);
            if orphan {
                // orphanDependents: drop the reference to the owner, then its finalizer.
                for (k, n, _) in &deps {
                    let _ = api.update_metadata(*k, n, |o| {
                        if let Some(a) = o["metadata"]["ownerReferences"].as_array_mut() {
                            a.retain(|r| r["uid"] != uid.as_str());
                            if a.is_empty() {
                                obj::remove(o, &["metadata", "ownerReferences"]);
                            }
                        }
                    });
                }
                remove_finalizer(api, kind, &name, ORPHAN);
                continue;
            }
            // Foreground: dependents that own something are deleted in the foreground
            // too, the rest in the background; the owner goes once nothing blocks it.
            let owners: HashSet<String> = OWNERS
                .iter()
                .flat_map(|k| api.list(*k).map(|o| obj::uid(o).to_string()))
                .collect();
            for (k, n, _) in &deps {
                let Ok(d) = api.get(*k, n) else { continue };
                if obj::is_deleting(d) {
                    continue;
                }
                let d_uid = obj::uid(d).to_string();
                let has_deps = owners.contains(&d_uid) && !dependents(api, &d_uid).is_empty();
                let p = if has_deps {
                    Propagation::Foreground
                } else {
                    Propagation::Background
                };
                let _ = api.delete_propagating(*k, n, None, p, now);
            }
            if !dependents(api, &uid).iter().any(|(_, _, blocks)| *blocks) {
                remove_finalizer(api, kind, &name, FOREGROUND);
            }
        }
    }
    api.collect_garbage(now);
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
