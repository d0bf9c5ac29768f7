//! StatefulSets under random command streams (proptest) on the statefulset scenario, with
//! every controller running: with OrderedReady, the controller never creates pod N+1
//! unless pods 0..N exist, run, are Ready and are not terminating, checked on every pod
//! creation in the API server's watch log (not just between commands); and a pod's name,
//! claim and hostname always match its ordinal.

mod watch_support;

use std::collections::HashMap;

use kubedrill::sim::api::EventType;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use proptest::prelude::*;
use serde_json::Value;

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (0u32..6).prop_map(|n| format!("kubectl scale sts web --replicas={n}")),
        2 => (0u32..6).prop_map(|i| format!("kubectl delete pod web-{i} --wait=false")),
        1 => Just("kubectl set image sts/web app=nginx:1.28".to_string()),
        1 => Just("kubectl set image sts/web app=nginx:nonexistent".to_string()),
        1 => Just("kubectl set image sts/web app=example.com/app:slow-start-6".to_string()),
        1 => Just("kubectl rollout undo sts/web".to_string()),
        1 => (0u32..4).prop_map(|p| format!(
            "kubectl patch sts web -p '{{\"spec\":{{\"updateStrategy\":{{\"rollingUpdate\":{{\"partition\":{p}}}}}}}}}'"
        )),
        1 => (1u32..4).prop_map(|n| format!("node-down node-{n}")),
        1 => (1u32..4).prop_map(|n| format!("node-up node-{n}")),
        3 => (1u64..8).prop_map(|n| format!("tick {n}")),
        1 => Just("tick 60".to_string()),
    ]
}

fn ready_and_running(p: &Value) -> bool {
    p["status"]["phase"] == "Running"
        && p["metadata"]["deletionTimestamp"].is_null()
        && p["status"]["conditions"].as_array().is_some_and(|cs| {
            cs.iter()
                .any(|c| c["type"] == "Ready" && c["status"] == "True")
        })
}

fn ordinal(name: &str) -> Option<u32> {
    name.strip_prefix("web-")?.parse().ok()
}

/// Replays the pod events since `from` over `pods` (name to object), checking each
/// creation against the pods before it.
fn check_creations(
    s: &Session,
    from: u64,
    pods: &mut HashMap<String, Value>,
    after: &str,
) -> Result<(), TestCaseError> {
    for e in s.cluster.api.events_since(from) {
        if e.kind != Kind::Pod {
            continue;
        }
        let p = e.object.value();
        let name = watch_support::name(p);
        match e.event {
            EventType::Added => {
                let n = ordinal(&name).unwrap_or(0);
                for j in 0..n {
                    let before = pods.get(&format!("web-{j}"));
                    prop_assert!(
                        before.is_some_and(ready_and_running),
                        "after {after}: web-{n} created while web-{j} is {}",
                        before.map_or("missing".to_string(), |b| format!(
                            "{} ready={}",
                            b["status"]["phase"],
                            ready_and_running(b)
                        ))
                    );
                }
                // The identity the ordinal gives.
                prop_assert_eq!(&p["spec"]["hostname"], &Value::from(name.clone()));
                prop_assert_eq!(
                    &p["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"],
                    &Value::from(format!("data-{name}"))
                );
                pods.insert(name, p.clone());
            }
            EventType::Deleted => {
                pods.remove(&name);
            }
            _ => {
                pods.insert(name, p.clone());
            }
        }
    }
    Ok(())
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("statefulset", 1).unwrap();
    let mut pods = watch_support::pods_by_name(&s);
    for st in steps {
        let from = watch_support::run_watched(&mut s, st);
        check_creations(&s, from, &mut pods, st)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn ordered_ready_never_creates_pod_n_plus_1_before_pod_n_is_ready(
        steps in prop::collection::vec(step(), 1..25)
    ) {
        run(&steps)?;
    }
}

/// The check does catch an out-of-order creation: with Parallel management, a scale-up
/// creates web-3, web-4 and web-5 together, before any of them is Ready.
#[test]
fn the_check_catches_parallel_creation() {
    let mut s = Session::new("statefulset", 1).unwrap();
    s.run_line("kubectl delete sts web --cascade=orphan");
    s.run_line("kubectl apply -f web-parallel.yaml");
    let mut pods = watch_support::pods_by_name(&s);
    let from = watch_support::run_watched(&mut s, "kubectl scale sts web --replicas=6");
    assert!(check_creations(&s, from, &mut pods, "scale").is_err());
}
