//! A pod's QoS class, as the API server sets `status.qosClass` on create
//! (`ComputePodQOS`, pkg/apis/core/helper/qos; pod-level resources are alpha in 1.32 and
//! off), and the resource quantities it compares.

use serde_json::Value;

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

/// A quantity (`500m`, `1.5`, `128Mi`, `2e3`, or a JSON number) in billionths, rounded
/// up; `None` if it is not one (the API server would have refused it).
pub fn nanos(v: &Value) -> Option<i128> {
    let text;
    let s = match v {
        Value::String(s) => s.as_str(),
        Value::Number(n) => {
            text = n.to_string();
            text.as_str()
        }
        _ => return None,
    };
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-')))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let (negative, digits) = match number.as_bytes().first()? {
        b'-' => (true, &number[1..]),
        b'+' => (false, &number[1..]),
        _ => (false, number),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty()
        || !(whole.bytes().chain(fraction.bytes())).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // Binary suffixes multiply, decimal ones (and exponents) shift the point.
    let (multiplier, exponent): (i128, i32) = match suffix {
        "Ki" => (1 << 10, 0),
        "Mi" => (1 << 20, 0),
        "Gi" => (1 << 30, 0),
        "Ti" => (1 << 40, 0),
        "Pi" => (1 << 50, 0),
        "Ei" => (1 << 60, 0),
        "n" => (1, -9),
        "u" => (1, -6),
        "m" => (1, -3),
        "" => (1, 0),
        "k" => (1, 3),
        "M" => (1, 6),
        "G" => (1, 9),
        "T" => (1, 12),
        "P" => (1, 15),
        "E" => (1, 18),
        e => (1, e.strip_prefix(['e', 'E'])?.parse().ok()?),
    };
    // The digits as an integer of `scale` decimal places, then in billionths.
    let mut value: i128 = 0;
    for b in whole.bytes().chain(fraction.bytes()) {
        value = value.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    let scale = fraction.len() as i32 - exponent - 9;
    let mut value = value.checked_mul(multiplier)?;
    if scale > 0 {
        let divisor = 10i128.checked_pow(scale as u32)?;
        value = (value + divisor - 1) / divisor;
    } else {
        value = value.checked_mul(10i128.checked_pow((-scale) as u32)?)?;
    }
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn quantities_in_billionths() {
        let n = |v: Value| nanos(&v);
        assert_eq!(n(json!("500m")), n(json!("0.5")));
        assert_eq!(n(json!("1")), Some(1_000_000_000));
        assert_eq!(n(json!(2)), Some(2_000_000_000));
        assert_eq!(n(json!("1Gi")), n(json!("1024Mi")));
        assert_eq!(n(json!("1k")), n(json!("1e3")));
        assert_eq!(n(json!("1.5Ki")), Some(1536 * 1_000_000_000));
        assert_eq!(n(json!("100n")), Some(100));
        assert_eq!(n(json!("0.1n")), Some(1), "rounded up");
        assert_eq!(n(json!("-1")), Some(-1_000_000_000));
        for bad in [
            json!("abc"),
            json!("1x"),
            json!(""),
            json!("."),
            json!(true),
        ] {
            assert_eq!(n(bad.clone()), None, "{bad}");
        }
    }

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
