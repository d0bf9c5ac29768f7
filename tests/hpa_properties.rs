//! The HPA under random command streams (proptest) on the hpa scenario: loads and ramps,
//! metrics-server stopping, behavior applied and removed, bounds patched, web scaled by
//! hand, the controller crashing. Every rescale the HPA controller records (its
//! SuccessfulRescale events, read from the API server's watch log as they are written)
//! lands within the HPA's minReplicas and maxReplicas as of that write, and, for an HPA
//! without `behavior`, a metric-driven scale-up goes to at most max(2 x current, 4) replicas.

mod watch_support;

use kubedrill::sim::api::EventType;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use proptest::prelude::*;

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (0u32..4000).prop_map(|m| format!("metrics web load {m}m")),
        1 => (0u32..1500).prop_map(|m| format!("metrics web cpu {m}m")),
        1 => (0u32..3000, 1u32..300).prop_map(|(m, s)| format!(
            "metrics web load 100m to {m}m over {s}s"
        )),
        1 => prop_oneof![Just("metrics down"), Just("metrics up"), Just("metrics web idle")]
            .prop_map(str::to_string),
        1 => prop_oneof![Just("hpa-behavior.yaml"), Just("hpa.yaml")]
            .prop_map(|f| format!("kubectl apply -f {f}")),
        1 => (1u32..5, 5u32..13).prop_map(|(lo, hi)| format!(
            "kubectl patch hpa web -p '{{\"spec\":{{\"minReplicas\":{lo},\"maxReplicas\":{hi}}}}}'"
        )),
        1 => (0u32..15).prop_map(|n| format!("kubectl scale deploy web --replicas={n}")),
        1 => prop_oneof![Just("pause"), Just("resume"), Just("crash"), Just("restart")]
            .prop_map(|v| format!("{v} autoscaler")),
        4 => (1u64..40).prop_map(|n| format!("tick {n}")),
        1 => Just("tick 300".to_string()),
    ]
}

/// What the checks remember between writes.
#[derive(Default)]
struct Seen {
    min: i64,
    max: i64,
    behavior: bool,
    /// web's spec.replicas as of the last write.
    replicas: i64,
    /// The HPA's writes checked so far.
    rescales: usize,
}

/// Replays the watch log from `from`. Within a line that is not `kubectl scale`, only the
/// HPA controller changes web's spec.replicas (through `/scale`): each such change is one
/// rescale, checked against the HPA's spec as of that write.
fn check(s: &Session, from: u64, seen: &mut Seen, after: &str) -> Result<(), TestCaseError> {
    let by_hand = after.starts_with("kubectl scale");
    for e in s.cluster.api.events_since(from) {
        let v = e.object.value();
        match e.kind {
            Kind::HorizontalPodAutoscaler if e.event != EventType::Deleted => {
                seen.min = v["spec"]["minReplicas"].as_i64().unwrap_or(1);
                seen.max = v["spec"]["maxReplicas"].as_i64().unwrap_or(0);
                seen.behavior = !v["spec"]["behavior"].is_null();
            }
            Kind::Deployment => {
                let n = v["spec"]["replicas"].as_i64().unwrap_or(1);
                let before = std::mem::replace(&mut seen.replicas, n);
                if n == before || by_hand {
                    continue;
                }
                seen.rescales += 1;
                prop_assert!(
                    (seen.min..=seen.max).contains(&n),
                    "after {after}: the HPA wrote {n} outside {}..={}",
                    seen.min,
                    seen.max
                );
                // From within the bounds, a metric-driven scale-up without behavior
                // (from outside them, the HPA first moves to the bound).
                let inside = (seen.min..=seen.max).contains(&before);
                if !seen.behavior && inside && n > before {
                    prop_assert!(
                        n <= (2 * before).max(4),
                        "after {after}: the HPA went from {before} to {n}, beyond max(2 x current, 4)"
                    );
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn start() -> (Session, Seen) {
    let s = Session::new("hpa", 1).unwrap();
    let hpa = s.object(Kind::HorizontalPodAutoscaler, "web").unwrap();
    let r = s.object(Kind::Deployment, "web").unwrap()["spec"]["replicas"]
        .as_i64()
        .unwrap();
    let seen = Seen {
        min: hpa["spec"]["minReplicas"].as_i64().unwrap(),
        max: hpa["spec"]["maxReplicas"].as_i64().unwrap(),
        behavior: false,
        replicas: r,
        rescales: 0,
    };
    (s, seen)
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let (mut s, mut seen) = start();
    for st in steps {
        let from = watch_support::run_watched(&mut s, st);
        check(&s, from, &mut seen, st)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_rescale_stays_within_the_bounds_and_the_rate(steps in prop::collection::vec(step(), 1..30)) {
        run(&steps)?;
    }
}

/// The check sees the HPA's writes and fails when it should: a heavy load takes web from
/// 3 to 6, which passes; told the maximum is 5 it fails, and told web had 1 replica
/// before, it catches a jump past max(2 x current, 4).
#[test]
fn the_check_catches_a_rescale_past_its_bounds() {
    let heavy = |seen: &mut Seen| {
        let (mut s, _) = start();
        watch_support::run_watched(&mut s, "metrics web load 1800m");
        let from = watch_support::run_watched(&mut s, "tick 20");
        check(&s, from, seen, "tick 20")
    };
    let (_, mut seen) = start();
    assert!(heavy(&mut seen).is_ok());
    assert_eq!(seen.rescales, 1);
    let (_, mut seen) = start();
    seen.max = 5;
    assert!(heavy(&mut seen).is_err());
    let (_, mut seen) = start();
    seen.replicas = 1;
    seen.min = 1;
    assert!(heavy(&mut seen).is_err());
}
