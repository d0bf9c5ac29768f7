//! `kubectl describe` (kubectl pkg/cmd/describe): Deployments, ReplicaSets, pods and nodes, with
//! kubectl's fallback to names that start with the one given.

use serde_json::Value;

use super::cmdutil::Outcome;
use crate::sim::api::ApiError;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;

pub fn describe(
    cluster: &Cluster,
    kind: Kind,
    names: &[String],
    selector: Option<&str>,
    namespace: &str,
) -> Outcome {
    // A cluster-scoped kind is in no namespace, so `-n` does not narrow it; `-l` keeps
    // the objects whose labels match.
    let here = |o: &Value| {
        crate::sim::kinds::in_namespace(kind, o["metadata"]["namespace"].as_str(), namespace)
            && selector
                .is_none_or(|s| obj::label_query_matches_labels(s, o.pointer("/metadata/labels")))
    };
    let all = || cluster.api.list(kind).filter(|o| here(o));
    if names.is_empty() {
        let found: Vec<&Value> = all().collect();
        if found.is_empty() {
            return Outcome::default()
                .err(format!("No resources found in {namespace} namespace.\n"));
        }
        return Outcome::default().out(joined(cluster, kind, &found));
    }
    let lookup = |n: &str| cluster.api.get(kind, n).ok().filter(|o| here(o));
    if let [name] = names
        && lookup(name).is_none()
    {
        // DescribeMatchingResources: one name not found is read as a prefix; each match
        // is followed by a newline.
        let matches: Vec<&Value> = all()
            .filter(|o| obj::name(o).starts_with(name.as_str()))
            .collect();
        if matches.is_empty() {
            return Outcome::default().api(&ApiError::not_found(kind, name), None);
        }
        let mut o = Outcome::default();
        for m in matches {
            o = o.out(format!("{}\n", one(cluster, kind, m)));
        }
        return o;
    }
    let found: Vec<&Value> = names.iter().filter_map(|n| lookup(n)).collect();
    let mut o = Outcome::default().out(joined(cluster, kind, &found));
    for n in names.iter().filter(|n| lookup(n).is_none()) {
        o = o.api(&ApiError::not_found(kind, n), None);
    }
    o
}

/// Descriptions separated by a blank line and one more, none after the last.
fn joined(cluster: &Cluster, kind: Kind, objs: &[&Value]) -> String {
    objs.iter()
        .map(|x| one(cluster, kind, x))
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn one(cluster: &Cluster, kind: Kind, x: &Value) -> String {
    // A custom object is read at the version kubectl asks for.
    let read;
    let x = if matches!(kind, Kind::Custom(_)) {
        match cluster.api.read_custom(kind, x) {
            Ok(v) => {
                read = v;
                &read
            }
            Err(e) => return format!("Error from server: {}", e.message),
        }
    } else {
        x
    };
    // `args` refuses kinds without a describer before this runs.
    crate::sim::kinds::of(kind)
        .describe(x, &cluster.api, cluster.now())
        .unwrap_or_default()
}
