//! A node whose kubelet stops, as kube-controller-manager 1.32 handles it: NotReady after
//! the 50 s grace period, tainted, its pods evicted 300 s later by their default
//! tolerations; and the exceptions that matter in an interview: a kubelet back in time
//! cancels the evictions, every node down at once evicts nothing, and a pod that tolerates
//! the taint for ever stays.

use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use serde_json::Value;

fn session() -> Session {
    Session::new("node-failure", 1).unwrap()
}

fn run(s: &mut Session, lines: &[&str]) {
    for l in lines {
        let o = s.run_line(l);
        assert!(o.stderr.is_empty(), "`{l}`: {}", o.stderr);
    }
}

fn ready(s: &Session, node: &str) -> String {
    let n = s.object(Kind::Node, node).unwrap();
    n["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Ready")
        .map(|c| c["status"].as_str().unwrap().to_string())
        .unwrap()
}

fn taint_keys(s: &Session, node: &str) -> Vec<String> {
    s.object(Kind::Node, node).unwrap()["spec"]["taints"]
        .as_array()
        .map(|ts| {
            ts.iter()
                .map(|t| {
                    format!(
                        "{}:{}",
                        t["key"].as_str().unwrap(),
                        t["effect"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn pods_on(s: &Session, node: &str) -> Vec<Value> {
    s.objects(Kind::Pod)
        .filter(|p| p["spec"]["nodeName"] == node)
        .cloned()
        .collect()
}

fn deleting(p: &Value) -> bool {
    !p["metadata"]["deletionTimestamp"].is_null()
}

fn events(s: &Session, reason: &str) -> Vec<String> {
    s.objects(Kind::Event)
        .filter(|e| e["reason"] == reason)
        .map(|e| e["message"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_lost_node_goes_unknown_after_the_grace_period_and_its_pods_after_their_tolerations() {
    let mut s = session();
    run(&mut s, &["node-down node-2", "tick 49"]);
    assert_eq!(
        ready(&s, "node-2"),
        "True",
        "still inside the 50 s grace period"
    );
    run(&mut s, &["tick 6"]);
    assert_eq!(ready(&s, "node-2"), "Unknown");
    assert_eq!(
        taint_keys(&s, "node-2"),
        ["node.kubernetes.io/unreachable:NoSchedule"]
    );
    let pod = &pods_on(&s, "node-2")[0];
    assert_eq!(
        pod["status"]["phase"], "Running",
        "the API still says Running"
    );
    run(&mut s, &["tick 5"]);
    assert!(
        taint_keys(&s, "node-2").contains(&"node.kubernetes.io/unreachable:NoExecute".to_string())
    );
    run(&mut s, &["tick 299"]);
    assert!(
        pods_on(&s, "node-2").iter().all(|p| !deleting(p)),
        "300 s not yet up"
    );
    run(&mut s, &["tick 1"]);
    let on = pods_on(&s, "node-2");
    assert!(on.iter().all(deleting), "evicted at 300 s: {on:?}");
    assert_eq!(events(&s, "TaintManagerEviction").len(), 1);
    // The kubelet is gone, so nothing finishes the deletion: Terminating until it is back.
    run(&mut s, &["tick 120"]);
    assert_eq!(pods_on(&s, "node-2").len(), 1);
    run(&mut s, &["node-up node-2", "tick 1"]);
    assert!(pods_on(&s, "node-2").is_empty());
}

#[test]
fn a_kubelet_back_before_the_tolerations_run_out_cancels_the_evictions() {
    let mut s = session();
    run(&mut s, &["node-down node-2", "tick 120"]);
    assert_eq!(ready(&s, "node-2"), "Unknown");
    run(&mut s, &["node-up node-2", "tick 5"]);
    assert_eq!(ready(&s, "node-2"), "True");
    assert!(
        taint_keys(&s, "node-2").is_empty(),
        "{:?}",
        taint_keys(&s, "node-2")
    );
    let cancelled = events(&s, "TaintManagerEviction");
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
    assert!(cancelled[0].starts_with("Cancelling deletion of Pod default/"));
    // Its pod is Ready again, with the time it first became ready.
    let pod = &pods_on(&s, "node-2")[0];
    let cond = |t: &str| {
        pod["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == t)
            .cloned()
            .unwrap()
    };
    assert_eq!(cond("Ready")["status"], "True");
    assert_eq!(
        cond("Ready")["lastTransitionTime"],
        cond("ContainersReady")["lastTransitionTime"]
    );
    run(&mut s, &["tick 600"]);
    assert!(pods_on(&s, "node-2").iter().all(|p| !deleting(p)));
}

#[test]
fn every_node_down_at_once_evicts_nothing() {
    let mut s = session();
    run(
        &mut s,
        &[
            "node-down node-1",
            "node-down node-2",
            "node-down node-3",
            "tick 600",
        ],
    );
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(ready(&s, n), "Unknown");
        assert!(
            !taint_keys(&s, n).iter().any(|t| t.ends_with(":NoExecute")),
            "master disruption mode keeps no NoExecute taint: {:?}",
            taint_keys(&s, n)
        );
    }
    assert!(s.objects(Kind::Pod).all(|p| !deleting(p)));
}

#[test]
fn a_pod_that_tolerates_unreachable_for_ever_stays() {
    let mut s = session();
    run(
        &mut s,
        &[
            "kubectl patch deploy web --type=json -p '[{\"op\":\"add\",\"path\":\"/spec/template/spec/tolerations\",\"value\":[{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}]}]'",
            "tick 60",
        ],
    );
    let on: Vec<String> = pods_on(&s, "node-2")
        .iter()
        .filter(|p| !deleting(p))
        .map(|p| p["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(on.len(), 1, "{on:?}");
    run(&mut s, &["node-down node-2", "tick 900"]);
    let pod = s.object(Kind::Pod, &on[0]).unwrap();
    assert!(!deleting(pod), "tolerated for ever: never evicted");
}

#[test]
fn with_the_node_lifecycle_controller_paused_a_dead_node_still_reads_ready() {
    let mut s = session();
    run(
        &mut s,
        &["pause node-lifecycle", "node-down node-2", "tick 120"],
    );
    assert_eq!(ready(&s, "node-2"), "True", "nobody watches the heartbeats");
    assert!(taint_keys(&s, "node-2").is_empty());
    run(&mut s, &["resume node-lifecycle", "tick 5"]);
    assert_eq!(
        ready(&s, "node-2"),
        "Unknown",
        "the next monitor pass catches up"
    );
}
