//! A pod's QoS class, as the API server sets `status.qosClass` on create
//! (`ComputePodQOS`, pkg/apis/core/helper/qos; pod-level resources are alpha in 1.32 and
//! off).

use serde_json::Value;

use super::quantity::Quantity;

/// Guaranteed, Burstable or BestEffort, from the containers' and init containers' CPU
/// and memory requests and limits (other resources do not count; zero counts as unset).
/// Guaranteed: every container limits both, and per resource the requests add up to
/// the limits. BestEffort: nobody asks for any.
pub fn class(spec: &Value) -> &'static str {
    let mut requests = Totals::default();
    let mut limits = Totals::default();
    let mut guaranteed = true;
    let containers = ["containers", "initContainers"]
        .iter()
        .filter_map(|k| spec.get(*k).and_then(Value::as_array))
        .flatten();
    for c in containers {
        let resources = &c["resources"];
        requests.add(&resources["requests"]);
        let found = limits.add(&resources["limits"]);
        if found != (true, true) {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    let matches = |r: Option<i128>, l: Option<i128>| r.is_none() || r == l;
    if guaranteed
        && matches(requests.cpu, limits.cpu)
        && matches(requests.memory, limits.memory)
        && requests.len() == limits.len()
    {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Sums of positive CPU and memory quantities, in billionths.
#[derive(Default)]
struct Totals {
    cpu: Option<i128>,
    memory: Option<i128>,
}

impl Totals {
    /// Adds a resource list's positive CPU and memory; says which of the two it had.
    fn add(&mut self, list: &Value) -> (bool, bool) {
        let add = |total: &mut Option<i128>, key| match list.get(key).and_then(nanos) {
            Some(n) if n > 0 => {
                *total = Some(total.unwrap_or(0) + n);
                true
            }
            _ => false,
        };
        (add(&mut self.cpu, "cpu"), add(&mut self.memory, "memory"))
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn len(&self) -> usize {
        usize::from(self.cpu.is_some()) + usize::from(self.memory.is_some())
    }
}

/// A quantity in billionths; `None` if it is not one (validation refuses those).
fn nanos(v: &Value) -> Option<i128> {
    Quantity::from_json(v).ok().map(|q| q.nanos())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn spec(containers: Value) -> Value {
        json!({"containers": containers})
    }

    #[test]
    fn qos_classes() {
        let both = json!({"cpu": "500m", "memory": "128Mi"});
        assert_eq!(class(&spec(json!([{"name": "a"}]))), "BestEffort");
        assert_eq!(
            class(&spec(json!([{"resources": {"requests": {"cpu": "0"}}}]))),
            "BestEffort",
            "zero is unset"
        );
        assert_eq!(
            class(&spec(
                json!([{"resources": {"requests": {"ephemeral-storage": "1Gi"}}}])
            )),
            "BestEffort",
            "only CPU and memory count"
        );
        assert_eq!(
            class(&spec(
                json!([{"resources": {"requests": both, "limits": both}}])
            )),
            "Guaranteed"
        );
        assert_eq!(
            class(&spec(json!([{"resources": {
                "requests": {"cpu": "0.5", "memory": "128Mi"},
                "limits": {"cpu": "500m", "memory": "0.125Gi"}}}]))),
            "Guaranteed",
            "equal quantities written differently"
        );
        assert_eq!(
            class(&spec(
                json!([{"resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1"}}}])
            )),
            "Burstable",
            "memory not limited"
        );
        assert_eq!(
            class(&spec(
                json!([{"resources": {"requests": both, "limits": both}}, {"name": "b"}])
            )),
            "Burstable",
            "a container without limits"
        );
        assert_eq!(
            class(&spec(json!([{"resources": {
                "requests": {"cpu": "250m", "memory": "128Mi"}, "limits": both}}]))),
            "Burstable",
            "requests below the limits"
        );
        let init = json!({"containers": [{"resources": {"requests": both, "limits": both}}],
            "initContainers": [{"resources": {"requests": {"cpu": "1"}}}]});
        assert_eq!(class(&init), "Burstable", "init containers count");
    }
}
