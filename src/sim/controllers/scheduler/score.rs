//! The score plugins of kube-scheduler 1.32's default profile that can tell the demo's
//! nodes apart, each normalised to 0..=100 and weighted as the profile weights it
//! (`pkg/scheduler/apis/config/v1/default_plugins.go`):
//!
//! | plugin | weight | here |
//! |---|---|---|
//! | TaintToleration | 3 | fewer untolerated `PreferNoSchedule` taints is better |
//! | NodeAffinity | 2 | the summed weights of matching preferred terms |
//! | NodeResourcesFit | 1 | LeastAllocated over CPU and memory, missing requests counted as 100m / 200Mi |
//! | PodTopologySpread | 2 | the system default constraints: fewer pods of the same owner on the node (maxSkew 3) and in its zone (maxSkew 5) |
//! | NodeResourcesBalancedAllocation | 1 | CPU and memory used in equal shares, as requested |
//!
//! InterPodAffinity and ImageLocality score nothing here (no pod affinity is modelled and
//! the demo's nodes report no images), so every node gets the same from them. The pod
//! goes to the node with the highest sum; kube-scheduler picks among equal sums at
//! random, the demo takes the first in name order so that a scenario always plays the
//! same.

use std::collections::BTreeMap;

use serde_json::Value;

use super::cache::{Requests, Usage};
use super::filter::{PodTerms, term_matches};
use crate::sim::HashMap;
use crate::sim::obj::selector_matches_labels;
use crate::sim::taints;

const MAX: i64 = 100;
const HOSTNAME: &str = "kubernetes.io/hostname";
const ZONE: &str = "topology.kubernetes.io/zone";
/// `systemDefaultConstraints`: ScheduleAnyway on both keys.
const DEFAULT_SPREAD: [(&str, i64); 2] = [(HOSTNAME, 3), (ZONE, 5)];

/// A node the score plugins read: what the cache holds of it, and whether the pod passed
/// the filters there.
pub struct Node<'a> {
    pub name: &'a str,
    pub usage: &'a Usage,
    pub feasible: bool,
}

/// The pod being placed, as the plugins read it.
pub struct Pod<'a> {
    pub spec: &'a Value,
    pub terms: &'a PodTerms<'a>,
    pub want: Requests,
    pub nonzero: Requests,
    /// `DefaultSelector`: the selectors a pod must match to count as the same workload
    /// (its controller's); empty for a pod without one, which turns the spreading score
    /// off.
    pub selectors: Vec<&'a Value>,
}

/// The feasible node the pod goes to: the highest weighted sum, the first in name order
/// among equals.
pub fn best<'a>(pod: &Pod, nodes: &[Node<'a>]) -> Option<&'a str> {
    let feasible: Vec<&Node<'a>> = nodes.iter().filter(|n| n.feasible).collect();
    // `getAllTolerationPreferNoSchedule`: the tolerations for that effect or for all.
    let tolerations: Vec<Value> = pod
        .terms
        .tolerations
        .iter()
        .filter(|t| matches!(t["effect"].as_str(), None | Some("" | "PreferNoSchedule")))
        .cloned()
        .collect();
    let taint = normalise(
        &feasible
            .iter()
            .map(|n| prefer_no_schedule(&tolerations, n))
            .collect::<Vec<_>>(),
        true,
    );
    let affinity = normalise(
        &feasible
            .iter()
            .map(|n| preferred_affinity(pod, n))
            .collect::<Vec<_>>(),
        false,
    );
    let spread = spread(pod, nodes, &feasible);
    let mut best: Option<(i64, &'a str)> = None;
    for (i, n) in feasible.iter().enumerate() {
        let total = 3 * taint[i]
            + 2 * affinity[i]
            + least_allocated(pod.nonzero, n.usage)
            + 2 * spread[i]
            + balanced(pod.want, n.usage);
        if best.is_none_or(|(s, _)| total > s) {
            best = Some((total, n.name));
        }
    }
    best.map(|(_, name)| name)
}

/// `DefaultNormalizeScore`: scaled so the highest is 100 (all left alone when every score
/// is 0), and turned around when lower is better.
fn normalise(raw: &[i64], reverse: bool) -> Vec<i64> {
    let max = raw.iter().copied().max().unwrap_or(0);
    raw.iter()
        .map(|&s| {
            let s = if max == 0 { s } else { MAX * s / max };
            if reverse { MAX - s } else { s }
        })
        .collect()
}

/// TaintToleration's score: the node's `PreferNoSchedule` taints that none of
/// `tolerations` tolerates.
fn prefer_no_schedule(tolerations: &[Value], n: &Node) -> i64 {
    n.usage
        .taints
        .iter()
        .filter(|t| t["effect"] == "PreferNoSchedule" && !taints::tolerates(tolerations, t))
        .count() as i64
}

/// NodeAffinity's score: the weights of the preferred terms the node's labels match.
fn preferred_affinity(pod: &Pod, n: &Node) -> i64 {
    let labels = &n.usage.labels;
    pod.terms
        .preferred
        .iter()
        .filter(|t| term_matches(&t["preference"], labels, &n.usage.name))
        .map(|t| t["weight"].as_i64().unwrap_or(0))
        .sum()
}

/// `leastRequestedScore` for CPU and memory, averaged: the share left free once the pod
/// is placed, counting missing requests at their defaults.
fn least_allocated(nonzero: Requests, u: &Usage) -> i64 {
    let free = |alloc: i128, used: i128| {
        if alloc <= 0 || used > alloc {
            0
        } else {
            ((alloc - used) * MAX as i128) / alloc
        }
    };
    ((free(u.alloc.cpu_milli, u.nonzero.cpu_milli + nonzero.cpu_milli)
        + free(u.alloc.memory, u.nonzero.memory + nonzero.memory))
        / 2) as i64
}

/// `balancedResourceScorer`: 100 less the spread between the CPU and memory shares
/// requested once the pod is placed (each capped at 1), as the requests stand.
fn balanced(want: Requests, u: &Usage) -> i64 {
    let share =
        |alloc: i128, used: i128| (alloc > 0).then(|| (used as f64 / alloc as f64).min(1.0));
    let cpu = share(u.alloc.cpu_milli, u.used.cpu_milli + want.cpu_milli);
    let memory = share(u.alloc.memory, u.used.memory + want.memory);
    let std = match (cpu, memory) {
        (Some(c), Some(m)) => ((c - m) / 2.0).abs(),
        _ => 0.0,
    };
    ((1.0 - std) * MAX as f64) as i64
}

/// PodTopologySpread's score with the system default constraints (pods with constraints
/// of their own are not modelled, and get no spreading score): for each constraint whose
/// key the node has, the matching pods in its domain times `ln(domains + 2)`, plus
/// `maxSkew - 1`; rounded, then turned around so that the emptiest node scores 100.
fn spread(pod: &Pod, nodes: &[Node], feasible: &[&Node]) -> Vec<i64> {
    let has_own = pod.spec["topologySpreadConstraints"]
        .as_array()
        .is_some_and(|c| !c.is_empty());
    if has_own || pod.selectors.is_empty() {
        return vec![0; feasible.len()];
    }
    // Label sets are interned: each is matched against the selectors once.
    let mut matched: HashMap<*const Value, bool> = HashMap::default();
    let mut count_on = |u: &Usage| -> i64 {
        u.label_sets
            .iter()
            .filter(|(k, (labels, _))| {
                *matched.entry(**k).or_insert_with(|| {
                    pod.selectors
                        .iter()
                        .all(|s| selector_matches_labels(s, &labels.0))
                })
            })
            .map(|(_, (_, n))| i64::from(*n))
            .sum()
    };
    let mut raw = vec![0f64; feasible.len()];
    for (key, max_skew) in DEFAULT_SPREAD {
        if key == HOSTNAME {
            let weight = ((feasible.len() + 2) as f64).ln();
            for (i, n) in feasible.iter().enumerate() {
                if label(n, key).is_some() {
                    raw[i] += count_on(n.usage) as f64 * weight + (max_skew - 1) as f64;
                }
            }
            continue;
        }
        // Only nodes with the key score on it; with none among the feasible, the
        // constraint adds nothing.
        if feasible.iter().all(|n| label(n, key).is_none()) {
            continue;
        }
        // Domains are the values the feasible nodes have (a node without the key is in
        // the domain "", which only counts towards the weight), with the matching pods
        // on every node the pod's node selector and required affinity admit
        // (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
        let mut domains: BTreeMap<&str, i64> = BTreeMap::new();
        for n in feasible {
            domains.insert(label(n, key).unwrap_or_default(), 0);
        }
        for n in nodes {
            let Some(v) = label(n, key) else { continue };
            if let Some(c) = domains.get_mut(v)
                && pod.terms.admits(&n.usage.labels, &n.usage.name)
            {
                *c += count_on(n.usage);
            }
        }
        let weight = ((domains.len() + 2) as f64).ln();
        for (i, n) in feasible.iter().enumerate() {
            if let Some(v) = label(n, key) {
                raw[i] += domains[v] as f64 * weight + (max_skew - 1) as f64;
            }
        }
    }
    let raw: Vec<i64> = raw.iter().map(|s| s.round() as i64).collect();
    let (min, max) = (
        raw.iter().copied().min().unwrap_or(0),
        raw.iter().copied().max().unwrap_or(0),
    );
    raw.iter()
        .map(|&s| {
            if max == 0 {
                MAX
            } else {
                MAX * (max + min - s) / max
            }
        })
        .collect()
}

fn label<'a>(n: &Node<'a>, key: &str) -> Option<&'a str> {
    n.usage.labels[key].as_str()
}

#[cfg(test)]
mod tests {
    use super::super::cache::{Placed, nonzero_requests, requests};
    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    const NGINX: &str = r#"{"containers": [{"name": "app", "image": "nginx"}]}"#;

    fn node(name: &str, labels: Value) -> Value {
        json!({"metadata": {"name": name, "labels": labels},
               "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}})
    }

    /// Each node's cache entry, with `pods[i]` pods of `labels` (no requests) on node i.
    fn usages(objects: &[Value], pods: &[usize], labels: &Value) -> Vec<Usage> {
        let spec: Value = serde_json::from_str(NGINX).unwrap_or_default();
        let labels = Arc::new(labels.clone());
        objects
            .iter()
            .zip(pods)
            .map(|(o, n)| {
                let mut u = Usage::of(o);
                for _ in 0..*n {
                    u.add(&Placed::new(&spec, &labels));
                }
                u
            })
            .collect()
    }

    /// The node the pod with `spec` and `selectors` goes to among `objects`, all feasible.
    fn pick(spec: &Value, selectors: Vec<&Value>, objects: &[Value], usages: &[Usage]) -> String {
        let terms = PodTerms::of(spec);
        let pod = Pod {
            spec,
            terms: &terms,
            want: requests(spec),
            nonzero: nonzero_requests(spec),
            selectors,
        };
        let names: Vec<String> = objects
            .iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap_or("").to_string())
            .collect();
        let nodes: Vec<Node> = names
            .iter()
            .zip(usages)
            .map(|(name, usage)| Node {
                name,
                usage,
                feasible: true,
            })
            .collect();
        best(&pod, &nodes).unwrap_or("").to_string()
    }

    #[test]
    fn spreading_sends_the_next_replica_to_the_node_with_fewest_of_its_siblings() {
        // Two nodes, one already holding a replica with no requests: LeastAllocated alone
        // (with missing requests counted at 100m / 200Mi) and the default spreading both
        // favour the empty node.
        let spec: Value = serde_json::from_str(NGINX).unwrap_or_default();
        let objects = [
            node("node-1", json!({HOSTNAME: "node-1"})),
            node("node-2", json!({HOSTNAME: "node-2"})),
        ];
        let u = usages(&objects, &[1, 0], &json!({"app": "web"}));
        let selector = json!({"matchLabels": {"app": "web"}});
        assert_eq!(pick(&spec, vec![&selector], &objects, &u), "node-2");
        let terms = PodTerms::of(&spec);
        let pod = Pod {
            spec: &spec,
            terms: &terms,
            want: requests(&spec),
            nonzero: nonzero_requests(&spec),
            selectors: vec![&selector],
        };
        let nodes: Vec<Node> = ["node-1", "node-2"]
            .iter()
            .zip(&u)
            .map(|(name, usage)| Node {
                name,
                usage,
                feasible: true,
            })
            .collect();
        // ln(4) * 1 + 2 rounds to 3 against 2: (3 + 2 - s) * 100 / 3.
        assert_eq!(
            spread(&pod, &nodes, &nodes.iter().collect::<Vec<_>>()),
            vec![66, 100]
        );
        // With no requests, a node's free share still falls with each pod on it.
        assert!(least_allocated(pod.nonzero, &u[0]) < least_allocated(pod.nonzero, &u[1]));
    }

    #[test]
    fn zones_spread_too_when_nodes_are_labelled_with_one() {
        let spec: Value = serde_json::from_str(NGINX).unwrap_or_default();
        let selector = json!({"matchLabels": {"app": "web"}});
        let placed = |zones: [Option<&str>; 3]| {
            let objects: Vec<Value> = (1..=3)
                .map(|i| {
                    let name = format!("node-{i}");
                    let mut l = json!({HOSTNAME: name});
                    if let Some(z) = zones[i - 1] {
                        l[ZONE] = json!(z);
                    }
                    node(&name, l)
                })
                .collect();
            let u = usages(&objects, &[1, 0, 0], &json!({"app": "web"}));
            pick(&spec, vec![&selector], &objects, &u)
        };
        // node-2 shares node-1's zone, which already holds a replica.
        assert_eq!(placed([Some("a"), Some("a"), Some("b")]), "node-3");
        assert_eq!(placed([None, None, None]), "node-2");
    }

    #[test]
    fn an_untolerated_prefer_no_schedule_taint_outweighs_an_emptier_node() {
        let spec: Value = serde_json::from_str(NGINX).unwrap_or_default();
        let mut tainted = node("node-1", json!({}));
        tainted["spec"] =
            json!({"taints": [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}]});
        let objects = [tainted, node("node-2", json!({}))];
        let u = usages(&objects, &[0, 3], &json!({"app": "db"}));
        assert_eq!(pick(&spec, vec![], &objects, &u), "node-2");
        let tolerant =
            json!({"containers": [], "tolerations": [{"key": "spot", "operator": "Exists"}]});
        assert_eq!(pick(&tolerant, vec![], &objects, &u), "node-1");
    }
}
