//! `kubectl rollout history|undo` for StatefulSets and DaemonSets (kubectl
//! polymorphichelpers history.go `StatefulSetHistoryViewer` and `DaemonSetHistoryViewer`,
//! rollback.go `StatefulSetRollbacker` and `DaemonSetRollbacker`): the set's
//! ControllerRevisions, and a rollback that patches a revision's template back.

use serde_json::Value;

use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::controllers::history;
use crate::sim::kind::Kind;
use crate::sim::obj;

/// controlledHistory: the revisions the set's selector lists that it controls, by number.
fn revisions(cluster: &Cluster, set: &Value) -> Vec<Value> {
    let uid = obj::uid(set);
    let mut v: Vec<&Value> = cluster
        .api
        .list(Kind::ControllerRevision)
        .filter(|r| obj::selector_matches(&set["spec"]["selector"], r))
        .filter(|r| obj::controller_uid(r) == Some(uid))
        .collect();
    history::sort(&mut v);
    v.into_iter().cloned().collect()
}

/// printHistory's overview: one line per revision number, its change cause.
pub(super) fn history(cluster: &Cluster, kind: Kind, set: &Value) -> Outcome {
    let revs = revisions(cluster, set);
    let head = format!("{}/{} ", kind.kind_group(), obj::name(set));
    if revs.is_empty() {
        return Outcome::default().out(format!("{head}\nNo rollout history found.\n"));
    }
    let mut s = format!("{head}\nREVISION  CHANGE-CAUSE\n");
    // Revisions keyed by number: a repeated number shows once, the last listed.
    let mut seen: Vec<(i64, &Value)> = Vec::new();
    for r in &revs {
        match seen.iter_mut().find(|(n, _)| *n == history::number(r)) {
            Some(slot) => slot.1 = r,
            None => seen.push((history::number(r), r)),
        }
    }
    for (n, r) in seen {
        let cause = obj::str(
            r,
            &["metadata", "annotations", "kubernetes.io/change-cause"],
        )
        .filter(|c| !c.is_empty())
        .unwrap_or("<none>");
        s.push_str(&format!("{n:<10}{cause}\n"));
    }
    s.push('\n');
    Outcome::default().out(s)
}

/// StatefulSetRollbacker.Rollback: the second newest revision by default, or the one
/// asked for; skipped when the set's template already is that revision's.
pub(super) fn undo(cluster: &mut Cluster, kind: Kind, set: &Value, to_revision: i64) -> Outcome {
    let kg = kind.kind_group();
    let name = obj::name(set).to_string();
    if to_revision < 0 {
        return Outcome::default().err(format!(
            "error: unable to find specified revision {to_revision} in history\n"
        ));
    }
    let revs = revisions(cluster, set);
    if to_revision == 0 && revs.len() <= 1 {
        return Outcome::default().err("error: no last revision to roll back to\n");
    }
    let target = if to_revision == 0 {
        revs.get(revs.len() - 2)
    } else {
        revs.iter().find(|r| history::number(r) == to_revision)
    };
    let Some(target) = target else {
        return Outcome::default().err(format!(
            "error: unable to find specified revision {to_revision} in history\n"
        ));
    };
    if history::template_patch(set) == target["data"] {
        return Outcome::default().out(format!(
            "{kg}/{name} skipped rollback (current template already matches revision {to_revision})\n"
        ));
    }
    // The revision's data is a strategic merge patch that replaces the template whole.
    let mut next = set.clone();
    next["spec"]["template"] = history::revision_template(target);
    update_then(cluster, kind, next, format!("{kg}/{name} rolled back\n"))
}
