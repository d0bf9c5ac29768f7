//! `kubectl taint` (kubectl 1.32 pkg/cmd/taint): each node's taints rebuilt as
//! `reorganizeTaints` does (the new taints first, then the old ones they do not replace,
//! then the removals), refused when a taint exists already without `--overwrite`, and
//! sent as a patch; the line says `tainted`, `untainted` or `modified`.

use serde_json::{Value, json};

use super::args::{DryRun, Nodes, TaintSpec};
use super::cmdutil::Outcome;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::status::ApiError;
use crate::sim::taints;

fn taint_value(t: &TaintSpec) -> Value {
    let mut v = json!({"key": t.key, "effect": t.effect});
    if !t.value.is_empty() {
        v["value"] = json!(t.value);
    }
    v
}

/// `reorganizeTaints`: the operation word and the node's new taints, or the errors of
/// removals that found nothing.
fn reorganize(
    old: &[Value],
    overwrite: bool,
    add: &[TaintSpec],
    remove: &[TaintSpec],
) -> (&'static str, Vec<Value>, Vec<String>) {
    let mut new: Vec<Value> = add.iter().map(taint_value).collect();
    for o in old {
        if !new.iter().any(|n| taints::same(n, o)) {
            new.push(o.clone());
        }
    }
    let added = old.len() != new.len();
    let mut errs = Vec::new();
    let mut removed = false;
    for r in remove {
        let before = new.len();
        new.retain(|t| {
            !(t["key"] == r.key.as_str()
                && (r.effect.is_empty() || t["effect"] == r.effect.as_str()))
        });
        // deleteTaints keeps only the last removal's result, as kubectl does.
        removed = new.len() != before;
        if !removed {
            errs.push(format!("taint {:?} not found", r.to_text()));
        }
    }
    let word = if (added && removed) || overwrite {
        "modified"
    } else if added {
        "tainted"
    } else {
        "untainted"
    };
    (word, new, errs)
}

pub fn taint(
    cluster: &mut Cluster,
    nodes: &Nodes,
    all: bool,
    add: &[TaintSpec],
    remove: &[TaintSpec],
    overwrite: bool,
    dry_run: DryRun,
) -> Outcome {
    let mut names: Vec<String> = Vec::new();
    if all {
        names.extend(
            cluster
                .api
                .list(Kind::Node)
                .map(|n| obj::name(n).to_string()),
        );
    }
    for n in &nodes.names {
        if cluster.api.get(Kind::Node, n).is_err() {
            return Outcome::default().api_error(&ApiError::not_found(Kind::Node, n), None);
        }
        names.push(n.clone());
    }
    if let Some(sel) = &nodes.selector {
        names.extend(
            cluster
                .api
                .list(Kind::Node)
                .filter(|n| obj::label_query_matches_labels(sel, Some(&n["metadata"]["labels"])))
                .map(|n| obj::name(n).to_string()),
        );
    }
    let mut out = Outcome::default();
    for name in names {
        let Ok(node) = cluster.api.get(Kind::Node, &name).cloned() else {
            continue;
        };
        let old = taints::of_node(&node).to_vec();
        if !overwrite {
            let exists: Vec<&str> = add
                .iter()
                .filter(|t| {
                    old.iter()
                        .any(|o| o["key"] == t.key.as_str() && o["effect"] == t.effect.as_str())
                })
                .map(|t| t.key.as_str())
                .collect();
            if !exists.is_empty() {
                return out.err(format!(
                    "error: node {name} already has {} taint(s) with same effect(s) and --overwrite is false\n",
                    exists.join(",")
                ));
            }
        }
        let (word, new, errs) = reorganize(&old, overwrite, add, remove);
        if !errs.is_empty() {
            let msg = match errs.as_slice() {
                [one] => format!("error: {one}\n"),
                many => many.iter().map(|e| format!("{e}\n")).collect(),
            };
            return out.err(msg);
        }
        let mut next = node.clone();
        taints::set_on_node(&mut next, new);
        if dry_run == DryRun::None
            && let Err(e) = cluster.api.update(Kind::Node, next, None)
        {
            return out.api_error(&e, None);
        }
        out = out.out(format!("node/{name} {word}{}\n", dry_run.suffix()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(key: &str, value: &str, effect: &str) -> TaintSpec {
        TaintSpec {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
        }
    }

    #[test]
    fn new_taints_come_first_and_the_word_follows_kubectl() {
        let old = vec![json!({"key": "a", "effect": "NoSchedule"})];
        let (word, new, errs) = reorganize(&old, false, &[spec("b", "x", "NoExecute")], &[]);
        assert_eq!(word, "tainted");
        assert_eq!(new[0]["key"], "b");
        assert_eq!(new[1]["key"], "a");
        assert!(errs.is_empty());
        let (word, new, _) = reorganize(&old, false, &[], &[spec("a", "", "")]);
        assert_eq!((word, new.len()), ("untainted", 0));
        let (_, _, errs) = reorganize(&old, false, &[], &[spec("z", "", "NoSchedule")]);
        assert_eq!(errs, ["taint \"z:NoSchedule\" not found"]);
        let (word, _, _) = reorganize(&old, true, &[spec("a", "y", "NoSchedule")], &[]);
        assert_eq!(word, "modified");
    }
}
