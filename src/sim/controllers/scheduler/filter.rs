//! The filter plugins (NodeUnschedulable, TaintToleration, NodeAffinity,
//! NodeResourcesFit), in kube-scheduler's order, and FitError's message for a pod that
//! passes on no node.

use serde_json::Value;

use super::cache::{Requests, Usage};
use crate::sim::taints;

/// Why a node cannot take a pod, as the filter plugins word it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Reason {
    /// NodeUnschedulable.
    Unschedulable,
    /// TaintToleration: the first taint the pod does not tolerate.
    Taint(String),
    /// NodeAffinity (nodeSelector or required node affinity).
    Affinity,
    /// NodeResourcesFit: each resource short, in the plugin's order.
    Insufficient(Vec<&'static str>),
}

impl Reason {
    fn texts(&self) -> Vec<String> {
        match self {
            Reason::Unschedulable => vec!["node(s) were unschedulable".into()],
            Reason::Taint(t) => vec![format!("node(s) had untolerated taint {{{t}}}")],
            Reason::Affinity => vec!["node(s) didn't match Pod's node affinity/selector".into()],
            Reason::Insufficient(r) => r
                .iter()
                .map(|r| match *r {
                    "pods" => "Too many pods".to_string(),
                    r => format!("Insufficient {r}"),
                })
                .collect(),
        }
    }

    /// Whether evicting lower-priority pods could help (only a shortage can).
    fn resolvable(&self) -> bool {
        matches!(self, Reason::Insufficient(_))
    }
}

/// One node selector term: its `matchExpressions` against the node's labels and its
/// `matchFields` against the node's fields (only `metadata.name` is a field selector key
/// for nodes), all ANDed; a term with neither matches nothing.
pub(super) fn term_matches(term: &Value, labels: &Value, node_name: &str) -> bool {
    let list = |k: &str| term[k].as_array().map(Vec::as_slice).unwrap_or_default();
    let (exprs, fields) = (list("matchExpressions"), list("matchFields"));
    let values = |e: &Value| crate::sim::obj::strings(e.get("values"));
    let exprs_ok = exprs.iter().all(|e| {
        let key = e["key"].as_str().unwrap_or("");
        requirement(e, labels.get(key).and_then(Value::as_str), &values(e))
    });
    let fields_ok = fields.iter().all(|e| {
        let have = (e["key"] == "metadata.name").then_some(node_name);
        requirement(e, have, &values(e))
    });
    exprs_ok && fields_ok && !(exprs.is_empty() && fields.is_empty())
}

/// One NodeSelectorRequirement against the value the node has for its key.
fn requirement(e: &Value, have: Option<&str>, values: &[String]) -> bool {
    let listed = |h: &str| values.iter().any(|v| v == h);
    match e["operator"].as_str().unwrap_or("") {
        "In" => have.is_some_and(listed),
        "NotIn" => have.is_none_or(|h| !listed(h)),
        "Exists" => have.is_some(),
        "DoesNotExist" => have.is_none(),
        "Gt" | "Lt" => {
            let (Some(h), Some(v)) = (
                have.and_then(|h| h.parse::<i64>().ok()),
                values.first().and_then(|v| v.parse::<i64>().ok()),
            ) else {
                return false;
            };
            if e["operator"] == "Gt" { h > v } else { h < v }
        }
        _ => false,
    }
}

/// What the filters and scores read of a pod's spec, looked up once per pod rather than
/// once per node.
pub struct PodTerms<'a> {
    pub tolerations: &'a [Value],
    node_selector: Option<&'a serde_json::Map<String, Value>>,
    /// Required node affinity's terms (ORed); `None` without a required affinity.
    required: Option<&'a [Value]>,
    /// Preferred node affinity's weighted terms.
    pub preferred: &'a [Value],
}

impl<'a> PodTerms<'a> {
    pub fn of(spec: &'a Value) -> Self {
        let node_affinity = &spec["affinity"]["nodeAffinity"];
        PodTerms {
            tolerations: taints::of_pod(spec),
            node_selector: spec["nodeSelector"].as_object(),
            required:
                node_affinity["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
                    .as_array()
                    .map(Vec::as_slice),
            preferred: node_affinity["preferredDuringSchedulingIgnoredDuringExecution"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default(),
        }
    }

    /// NodeAffinity's filter: the nodeSelector and the required affinity admit the node
    /// with these labels and this name.
    pub fn admits(&self, labels: &Value, node_name: &str) -> bool {
        let selector_ok = self
            .node_selector
            .is_none_or(|sel| sel.iter().all(|(k, v)| labels.get(k) == Some(v)));
        // Terms are ORed; a required affinity with no terms matches nothing.
        let affinity_ok = self
            .required
            .is_none_or(|t| t.iter().any(|term| term_matches(term, labels, node_name)));
        selector_ok && affinity_ok
    }
}

/// The first reason the node `usage` describes cannot take `pod` with its `want`, if any.
pub(super) fn filter(pod: &PodTerms, want: Requests, usage: &Usage) -> Option<Reason> {
    if usage.unschedulable {
        let cordon = taints::taint(taints::UNSCHEDULABLE, "NoSchedule");
        if !taints::tolerates(pod.tolerations, &cordon) {
            return Some(Reason::Unschedulable);
        }
    }
    for t in &usage.taints {
        let effect = t["effect"].as_str().unwrap_or("");
        if matches!(effect, "NoSchedule" | "NoExecute") && !taints::tolerates(pod.tolerations, t) {
            let key = t["key"].as_str().unwrap_or("");
            let value = t["value"].as_str().unwrap_or("");
            return Some(Reason::Taint(format!("{key}: {value}")));
        }
    }
    if !pod.admits(&usage.labels, &usage.name) {
        return Some(Reason::Affinity);
    }
    let short = usage.short(want);
    (!short.is_empty()).then_some(Reason::Insufficient(short))
}

/// FitError's message (framework/types.go `FitError.Error`): how many nodes are
/// available, then `<count> <reason>` for each reason, sorted as strings (digits too), then
/// what preemption found, in the same form.
pub(super) fn fit_error(nodes: usize, reasons: &[Reason]) -> String {
    let sorted = |counts: std::collections::BTreeMap<String, usize>| {
        let mut list: Vec<String> = counts.iter().map(|(t, n)| format!("{n} {t}")).collect();
        list.sort();
        list.join(", ")
    };
    let mut filters: std::collections::BTreeMap<String, usize> = Default::default();
    let mut preemption: std::collections::BTreeMap<String, usize> = Default::default();
    for r in reasons {
        for t in r.texts() {
            *filters.entry(t).or_default() += 1;
        }
        // Pods here all have priority 0, so no node has a victim to evict.
        let p = if r.resolvable() {
            "No preemption victims found for incoming pod"
        } else {
            "Preemption is not helpful for scheduling"
        };
        *preemption.entry(p.to_string()).or_default() += 1;
    }
    format!(
        "0/{nodes} nodes are available: {}. preemption: 0/{nodes} nodes are available: {}.",
        sorted(filters),
        sorted(preemption)
    )
}
