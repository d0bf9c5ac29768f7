//! `kubectl label` and `kubectl annotate` (kubectl pkg/cmd/label, annotate).

use serde_json::{Value, json};

use super::args::{MetaChange, Target};
use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::obj;

pub(super) fn label(
    cluster: &mut Cluster,
    t: &Target,
    changes: &[MetaChange],
    overwrite: bool,
    annotate: bool,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let field = if annotate { "annotations" } else { "labels" };
    let mut next = cur.clone();
    let mut conflicts = Vec::new();
    for c in changes {
        match c {
            MetaChange::Set(k, v) => {
                let existing = obj::str(&cur, &["metadata", field, k]);
                if let Some(old) = existing
                    && old != v
                    && !overwrite
                {
                    conflicts.push((k.clone(), old.to_string()));
                    continue;
                }
                obj::set(&mut next, &["metadata", field, k], json!(v));
            }
            MetaChange::Remove(k) => {
                obj::remove(&mut next, &["metadata", field, k]);
            }
        }
    }
    if let Some((k, old)) = conflicts.first() {
        return Outcome::default().err(if annotate {
            format!("error: --overwrite is false but found the following declared annotation(s): '{k}' already has a value ({old})\n")
        } else {
            format!("error: '{k}' already has a value ({old}), and --overwrite is false\n")
        });
    }
    let kg = t.kind.kind_group();
    if next == cur {
        return Outcome::default().out(if annotate {
            format!("{kg}/{name} annotated\n")
        } else {
            format!("{kg}/{name} not labeled\n")
        });
    }
    // updateDataChangeMsg: without --overwrite, a label write that leaves the object
    // shorter (a removal) is reported as "unlabeled".
    let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
    let done = if annotate {
        "annotated"
    } else if !overwrite && size(&next) < size(&cur) {
        "unlabeled"
    } else {
        "labeled"
    };
    update_then(cluster, t.kind, next, format!("{kg}/{name} {done}\n"))
}
