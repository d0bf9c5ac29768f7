//! DaemonSets under random command streams (proptest) on the daemonset scenario, with
//! every controller running: outside a surge (maxSurge 0), no node ever has two of the
//! DaemonSet's pods that are not being deleted, checked after every write in the API
//! server's watch log; with maxSurge, never more than two.

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

fn check(
    s: &Session,
    from: u64,
    pods: &mut HashMap<String, Value>,
    after: &str,
) -> Result<(), TestCaseError> {
    for e in s.cluster.api.events_since(from) {
        let surge = s
            .object(Kind::DaemonSet, "agent")
            .and_then(|d| {
                d.pointer("/spec/updateStrategy/rollingUpdate/maxSurge")
                    .cloned()
            })
            .is_some_and(|m| m != 0 && m != "0%");
        if e.kind != Kind::Pod {
            continue;
        }
        let p = e.object.value();
        let name = p["metadata"]["name"].as_str().unwrap_or("").to_string();
        if e.event == EventType::Deleted {
            pods.remove(&name);
            continue;
        }
        pods.insert(name, p.clone());
        let mut per_node: HashMap<String, usize> = HashMap::new();
        for p in pods.values().filter(|p| live(p)) {
            *per_node.entry(node_of(p)).or_default() += 1;
        }
        let most = if surge { 2 } else { 1 };
        for (node, n) in per_node {
            prop_assert!(
                n <= most,
                "after {after}: {n} live agent pods for {node} (surge allowed: {surge})"
            );
        }
    }
    Ok(())
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("daemonset", 1).unwrap();
    let mut pods: HashMap<String, Value> = s
        .objects(Kind::Pod)
        .map(|p| {
            (
                p["metadata"]["name"].as_str().unwrap_or("").to_string(),
                p.clone(),
            )
        })
        .collect();
    for st in steps {
        let from = s.cluster.api.next_seq();
        s.cluster.kubectl_watch = Some(from);
        s.run_line(st);
        check(&s, from, &mut pods, st)?;
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

/// The check does see two pods on a node: during a surge rollout each node briefly has
/// its old pod and the new one, which the same count flags when surge is not allowed.
#[test]
fn a_surge_puts_two_pods_on_a_node() {
    let mut s = Session::new("daemonset", 1).unwrap();
    s.run_line("kubectl apply -f agent-surge.yaml");
    s.run_line("tick 10");
    s.run_line("kubectl set image ds/agent agent=fluent/fluent-bit:3.2");
    let live_on = |s: &Session, node: &str| {
        s.objects(Kind::Pod)
            .filter(|p| live(p) && node_of(p) == node)
            .count()
    };
    assert!(
        (1..=3).any(|n| live_on(&s, &format!("node-{n}")) == 2),
        "the surge starts a second pod beside the first"
    );
}
