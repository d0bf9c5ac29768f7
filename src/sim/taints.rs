//! Taints and tolerations as k8s.io/api's `Toleration.ToleratesTaint` and
//! `v1helper.TolerationsTolerateTaint` match them, shared by the scheduler's
//! TaintToleration filter, the node lifecycle controller and the taint eviction
//! controller.

use serde_json::{Value, json};

/// The taints the node lifecycle controller manages (`v1.TaintNode*`).
pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
pub const NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";
pub const MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";
pub const DISK_PRESSURE: &str = "node.kubernetes.io/disk-pressure";
pub const PID_PRESSURE: &str = "node.kubernetes.io/pid-pressure";
pub const NETWORK_UNAVAILABLE: &str = "node.kubernetes.io/network-unavailable";

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

/// `Toleration.ToleratesTaint`: the effect matches (an empty one matches all), the key
/// matches (an empty key with `Exists` matches all), and the value is equal, or anything
/// with `Exists`.
pub fn tolerates_one(toleration: &Value, taint: &Value) -> bool {
    let effect = str_of(toleration, "effect");
    if !effect.is_empty() && effect != str_of(taint, "effect") {
        return false;
    }
    let key = str_of(toleration, "key");
    if !key.is_empty() && key != str_of(taint, "key") {
        return false;
    }
    match str_of(toleration, "operator") {
        "Exists" => true,
        // Equal is the default operator.
        "" | "Equal" => str_of(toleration, "value") == str_of(taint, "value"),
        _ => false,
    }
}

/// Whether any of `tolerations` tolerates `taint`.
pub fn tolerates(tolerations: &[Value], taint: &Value) -> bool {
    tolerations.iter().any(|t| tolerates_one(t, taint))
}

/// A pod spec's tolerations.
pub fn of_pod(spec: &Value) -> &[Value] {
    spec["tolerations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// A node's taints.
pub fn of_node(node: &Value) -> &[Value] {
    // Indexed, not `Value::pointer`: the scheduler reads this for every node it tries.
    node["spec"]["taints"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Replaces a node's taints; an empty list leaves `spec.taints` out, as the API stores it.
pub fn set_on_node(node: &mut Value, list: Vec<Value>) {
    if list.is_empty() {
        if let Some(spec) = node.get_mut("spec").and_then(Value::as_object_mut) {
            spec.remove("taints");
        }
    } else {
        node["spec"]["taints"] = Value::Array(list);
    }
}

/// Whether two taints are the same taint: key and effect (`Taint.MatchTaint`).
pub fn same(a: &Value, b: &Value) -> bool {
    str_of(a, "key") == str_of(b, "key") && str_of(a, "effect") == str_of(b, "effect")
}

/// A taint with no value.
pub fn taint(key: &str, effect: &str) -> Value {
    json!({"key": key, "effect": effect})
}

/// How long a pod tolerates the NoExecute `taints` of its node (the taint eviction
/// controller's `GetMatchingTolerations`, the first toleration that tolerates each taint,
/// and `getMinTolerationTime`): `None` when one of them is not tolerated at all (evict
/// now); `Some(None)` when the tolerations used are for ever; `Some(Some(s))` for the
/// shortest `tolerationSeconds` among them (0 or less evicts at once).
pub fn toleration_seconds(tolerations: &[Value], taints: &[&Value]) -> Option<Option<u64>> {
    let mut min: Option<u64> = None;
    for t in taints {
        let used = tolerations.iter().find(|x| tolerates_one(x, t))?;
        if let Some(s) = used["tolerationSeconds"].as_i64() {
            let s = s.max(0) as u64;
            min = Some(min.map_or(s, |m| m.min(s)));
        }
    }
    Some(min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_keys_and_effects_match_as_kubernetes_does() {
        let gpu = json!({"key": "dedicated", "value": "gpu", "effect": "NoSchedule"});
        let cases = [
            (json!({"key": "dedicated", "value": "gpu"}), true),
            (
                json!({"key": "dedicated", "operator": "Equal", "value": "cpu"}),
                false,
            ),
            (json!({"key": "dedicated", "operator": "Exists"}), true),
            (json!({"operator": "Exists"}), true),
            (
                json!({"key": "dedicated", "operator": "Exists", "effect": "NoExecute"}),
                false,
            ),
            (json!({"key": "other", "operator": "Exists"}), false),
        ];
        for (t, want) in cases {
            assert_eq!(tolerates_one(&t, &gpu), want, "{t}");
        }
        // An Equal toleration with no value matches a taint with none.
        let bare = taint(UNREACHABLE, "NoExecute");
        assert!(tolerates_one(
            &json!({"key": UNREACHABLE, "effect": "NoExecute"}),
            &bare
        ));
    }

    #[test]
    fn the_shortest_matching_toleration_wins() {
        let unreachable = taint(UNREACHABLE, "NoExecute");
        let defaults = [
            json!({"key": NOT_READY, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}),
            json!({"key": UNREACHABLE, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}),
        ];
        assert_eq!(
            toleration_seconds(&defaults, &[&unreachable]),
            Some(Some(300))
        );
        // The first toleration that matches a taint is the one used.
        let mut short = vec![json!({"operator": "Exists", "tolerationSeconds": -5})];
        short.extend(defaults.iter().cloned());
        assert_eq!(toleration_seconds(&short, &[&unreachable]), Some(Some(0)));
        let mut forever = vec![json!({"operator": "Exists"})];
        forever.extend(defaults.iter().cloned());
        assert_eq!(toleration_seconds(&forever, &[&unreachable]), Some(None));
        assert_eq!(toleration_seconds(&[], &[&unreachable]), None);
    }
}
