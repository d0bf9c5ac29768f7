//! What kubectl's RESTMapper knows when it reads a command: the built-in kinds, and the
//! custom kinds discovery listed (Established CRDs, their served versions) when the
//! command started. A CRD created by the same command is not known to it, so `kubectl
//! apply -f` of a CRD and an object of its kind creates the CRD and refuses the object
//! (`ensure CRDs are installed first`), as real kubectl does.
//!
//! The discovery a command runs with is set around its parsing and execution with
//! [`with_served`]: the argument parser and the manifest mapper are plain functions
//! deep in the command tree, and discovery is read-only context for them, like the
//! cached discovery document kubectl reads from disk.

use std::cell::RefCell;

use crate::sim::api::ApiServer;
use crate::sim::kind::{CustomKind, Kind};

/// One custom kind discovery lists, with its served versions.
#[derive(Clone, Debug)]
pub struct Served {
    pub kind: CustomKind,
    pub versions: Vec<String>,
}

thread_local! {
    static SERVED: RefCell<Vec<Served>> = const { RefCell::new(Vec::new()) };
}

/// What discovery lists on `api` now.
pub fn discover(api: &ApiServer) -> Vec<Served> {
    api.definitions()
        .filter(|d| d.established && d.versions.iter().any(|v| v.served))
        .filter_map(|d| {
            Some(Served {
                kind: d.kind()?,
                versions: d.served_versions(),
            })
        })
        .collect()
}

/// What discovery could list in a scenario: the kinds of the CRDs among its manifest
/// files, each with the versions the file serves. Content is checked against these, as a
/// learner would apply the files first.
pub fn scenario_kinds(files: &[(&str, &str)]) -> Vec<Served> {
    let mut out: Vec<Served> = Vec::new();
    for (_, text) in files {
        let Ok(objs) = crate::sim::output::parse_manifest(text) else {
            continue;
        };
        for o in objs
            .iter()
            .filter(|o| o["kind"] == "CustomResourceDefinition")
        {
            let Some(d) = crate::sim::apiextensions::Definition::from_crd(o) else {
                continue;
            };
            let Some(kind) = d.kind() else { continue };
            let versions = d.served_versions();
            match out.iter_mut().find(|s| s.kind == kind) {
                Some(s) => {
                    for v in versions {
                        if !s.versions.contains(&v) {
                            s.versions.push(v);
                        }
                    }
                }
                None => out.push(Served { kind, versions }),
            }
        }
    }
    out
}

/// Runs `f` with `served` as discovery, then restores what was there.
pub fn with_served<T>(served: Vec<Served>, f: impl FnOnce() -> T) -> T {
    let before = SERVED.with(|s| s.replace(served));
    let out = f();
    SERVED.with(|s| s.replace(before));
    out
}

/// The kind a word typed on the command line names: a built-in kind, or a custom kind
/// by its plural, singular, short name or kind.
pub fn resolve(word: &str) -> Option<Kind> {
    Kind::parse(word).or_else(|| {
        SERVED.with(|s| {
            s.borrow()
                .iter()
                .find(|x| x.kind.matches(word))
                .map(|x| Kind::Custom(x.kind))
        })
    })
}

/// The custom kind a manifest's `apiVersion` and `kind` map to.
pub fn map_custom(api_version: &str, kind: &str) -> Option<Kind> {
    let (group, version) = api_version.split_once('/')?;
    SERVED.with(|s| {
        s.borrow()
            .iter()
            .find(|x| {
                let n = x.kind.names();
                n.group == group && n.kind == kind && x.versions.iter().any(|v| v == version)
            })
            .map(|x| Kind::Custom(x.kind))
    })
}
