//! DaemonSets under random command streams (proptest) on the daemonset scenario, with
//! every controller running: outside a surge (maxSurge 0), the controller never creates
//! a pod for a node that still has a live one (not being deleted), and with maxSurge never
//! a third; checked at every pod creation in the API server's watch log, against the
//! DaemonSet's spec as of that write. (A pair made during a surge may outlive a switch to
//! maxUnavailable for a moment: the controller then deletes the younger one.)

mod watch_support;

use std::collections::HashMap;

use kubedrill::sim::api::EventType;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use proptest::prelude::*;
use serde_json::Value;

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop_oneof![
            Just("agent.yaml"),
            Just("agent-tolerates-gpu.yaml"),
            Just("agent-surge.yaml"),
            Just("agent-ssd-only.yaml"),
        ]
        .prop_map(|f| format!("kubectl apply -f {f}")),
        2 => prop_oneof![
            Just("fluent/fluent-bit:3.2"),
            Just("fluent/fluent-bit:3.3"),
            Just("fluent/fluent-bit:nonexistent"),
            Just("example.com/agent:slow-start-5"),
        ]
        .prop_map(|i| format!("kubectl set image ds/agent agent={i}")),
        1 => (1u32..5).prop_map(|n| format!("node-add node-{n}")),
        1 => ((1u32..5), prop_oneof![Just("NoSchedule"), Just("NoExecute")])
            .prop_map(|(n, e)| format!("kubectl taint nodes node-{n} maintenance=true:{e}")),
        1 => (1u32..5).prop_map(|n| format!("kubectl taint nodes node-{n} maintenance-")),
        1 => (1u32..5).prop_map(|n| format!("kubectl label node node-{n} disktype=ssd --overwrite")),
        1 => (1u32..5).prop_map(|n| format!("kubectl label node node-{n} disktype-")),
        1 => (1u32..5).prop_map(|n| format!("node-down node-{n}")),
        1 => (1u32..5).prop_map(|n| format!("node-up node-{n}")),
        1 => Just("kubectl delete pod -l app=agent --wait=false".to_string()),
        1 => Just("kubectl rollout undo ds/agent".to_string()),
        3 => (1u64..8).prop_map(|n| format!("tick {n}")),
        1 => Just("tick 60".to_string()),
    ]
}

/// The node a daemon pod is for: bound, or pinned by its node affinity.
fn node_of(p: &Value) -> String {
    p["spec"]["nodeName"].as_str().map_or_else(
        || {
            p.pointer("/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchFields/0/values/0")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        },
        str::to_string,
    )
}

fn live(p: &Value) -> bool {
    p["metadata"]["deletionTimestamp"].is_null()
        && !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed"))
}

fn surge_of(ds: &Value) -> bool {
    ds.pointer("/spec/updateStrategy/rollingUpdate/maxSurge")
        .is_some_and(|m| m != 0 && m != "0%")
}

fn check(
    s: &Session,
    from: u64,
    pods: &mut HashMap<String, Value>,
    surge: &mut bool,
    after: &str,
) -> Result<(), TestCaseError> {
    for e in s.cluster.api.events_since(from) {
        if e.kind == Kind::DaemonSet {
            *surge = e.event != EventType::Deleted && surge_of(e.object.value());
            continue;
        }
        if e.kind != Kind::Pod {
            continue;
        }
        let p = e.object.value();
        let name = watch_support::name(p);
        if e.event == EventType::Deleted {
            pods.remove(&name);
            continue;
        }
        if e.event == EventType::Added {
            let node = node_of(p);
            let there = pods
                .values()
                .filter(|q| live(q) && node_of(q) == node)
                .count();
            let most = if *surge { 1 } else { 0 };
            prop_assert!(
                there <= most,
                "after {after}: {name} created for {node}, which has {there} live agent pods (surge: {surge})"
            );
        }
        pods.insert(name, p.clone());
    }
    Ok(())
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("daemonset", 1).unwrap();
    let mut pods = watch_support::pods_by_name(&s);
    let mut surge = s.object(Kind::DaemonSet, "agent").is_some_and(surge_of);
    for st in steps {
        let from = watch_support::run_watched(&mut s, st);
        check(&s, from, &mut pods, &mut surge, st)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_node_runs_two_daemon_pods_outside_a_surge(
        steps in prop::collection::vec(step(), 1..25)
    ) {
        run(&steps)?;
    }
}

/// Two live pods on one node do happen, in a surge: each node briefly has its old pod and
/// the new one, and the counting above sees them (the property allows it only then).
#[test]
fn a_surge_puts_two_pods_on_a_node() {
    let mut s = Session::new("daemonset", 1).unwrap();
    s.run_line("kubectl apply -f agent-surge.yaml");
    s.run_line("tick 10");
    s.run_line("kubectl set image ds/agent agent=fluent/fluent-bit:3.2");
    let live_on = |node: &str| {
        s.objects(Kind::Pod)
            .filter(|p| live(p) && node_of(p) == node)
            .count()
    };
    assert!((1..=3).any(|n| live_on(&format!("node-{n}")) == 2));
}
