//! The kubelet's prober as a learner meets it in the probes scenario, second by second: a
//! liveness probe that gives a slow starter too little time restarts it, at once the first
//! time and then after a back-off that doubles from 10 s; a startup probe with room for the
//! slow start prevents every restart; readiness decides which pods the Service's endpoints
//! list as ready, and a container with no readiness probe is ready as soon as it runs.

use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use serde_json::Value;

/// The first pod of the new template (the oldest).
fn new_pod(s: &Session, old_hash: &str) -> Option<Value> {
    s.objects(Kind::Pod)
        .filter(|p| p["metadata"]["labels"]["pod-template-hash"] != old_hash)
        .min_by_key(|p| {
            (
                p["metadata"]["creationTimestamp"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                p["metadata"]["name"].as_str().unwrap_or("").to_string(),
            )
        })
        .cloned()
}

fn hash_of_first(s: &Session) -> String {
    s.objects(Kind::Pod)
        .next()
        .and_then(|p| p["metadata"]["labels"]["pod-template-hash"].as_str())
        .unwrap_or("")
        .to_string()
}

fn restarts(p: &Value) -> i64 {
    p["status"]["containerStatuses"][0]["restartCount"]
        .as_i64()
        .unwrap_or(0)
}

#[test]
fn a_liveness_probe_restarts_a_slow_starter_with_a_growing_back_off() {
    let mut s = Session::new("probes", 1).unwrap();
    let old = hash_of_first(&s);
    s.run_line("kubectl apply -f slow-liveness.yaml");
    // Seconds spent in CrashLoopBackOff, one entry per wait.
    let mut waits: Vec<u64> = Vec::new();
    let mut in_wait = false;
    let mut last_restarts = 0;
    for _ in 0..300 {
        s.run_line("tick 1");
        let Some(p) = new_pod(&s, &old) else { continue };
        let cs = &p["status"]["containerStatuses"][0];
        let waiting = cs["state"]["waiting"]["reason"] == "CrashLoopBackOff";
        match (waiting, in_wait) {
            (true, false) => waits.push(1),
            (true, true) => *waits.last_mut().unwrap() += 1,
            _ => {}
        }
        in_wait = waiting;
        assert!(restarts(&p) >= last_restarts, "restartCount went down");
        last_restarts = restarts(&p);
        // Never ready: the app needs 40 s, the probe kills it after about 20.
        assert_eq!(cs["ready"], false);
    }
    // The first restart is at once; then the kubelet waits 10 s, 20 s, 40 s, ...
    assert!(last_restarts >= 5, "{last_restarts} restarts");
    assert_eq!(&waits[..3], &[10, 20, 40], "waits {waits:?}");
}

#[test]
fn a_startup_probe_gives_the_slow_starter_its_time() {
    let mut s = Session::new("probes", 1).unwrap();
    let old = hash_of_first(&s);
    s.run_line("kubectl apply -f slow-startup.yaml");
    s.run_line("tick 30");
    let p = new_pod(&s, &old).unwrap();
    assert_eq!(p["status"]["containerStatuses"][0]["started"], false);
    s.run_line("tick 150");
    for p in s.objects(Kind::Pod) {
        assert_eq!(restarts(p), 0, "{}", p["metadata"]["name"]);
    }
    let d = s.object(Kind::Deployment, "web").unwrap();
    assert_eq!(d["status"]["updatedReplicas"], 3);
    assert_eq!(d["status"]["availableReplicas"], 3);
}

#[test]
fn readiness_decides_the_ready_endpoints_and_no_probe_means_ready_at_once() {
    let mut s = Session::new("probes", 1).unwrap();
    let old = hash_of_first(&s);
    s.run_line("kubectl apply -f never-ready.yaml");
    s.run_line("tick 60");
    let p = new_pod(&s, &old).unwrap();
    let name = p["metadata"]["name"].clone();
    let ready_in_slice = s
        .objects(Kind::EndpointSlice)
        .flat_map(|sl| sl["endpoints"].as_array().cloned().unwrap_or_default())
        .find(|e| e["targetRef"]["name"] == name)
        .map(|e| e["conditions"]["ready"].clone());
    assert_eq!(ready_in_slice, Some(Value::Bool(false)));
    assert_eq!(p["status"]["phase"], "Running");

    let mut s = Session::new("probes", 1).unwrap();
    let old = hash_of_first(&s);
    s.run_line("kubectl apply -f no-readiness.yaml");
    s.run_line("tick 3");
    // The app needs 30 s, but with no readiness probe the pod is Ready when it runs.
    let p = new_pod(&s, &old).unwrap();
    let ready = p["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["type"] == "Ready" && c["status"] == "True");
    assert!(ready, "{p}");
}

/// A restarted kubelet finds its containers still running: restart counts and last
/// states stay, nothing restarts because the kubelet did.
#[test]
fn a_kubelet_restart_keeps_the_containers_runs() {
    let mut s = Session::new("probes", 1).unwrap();
    let old = hash_of_first(&s);
    s.run_line("kubectl apply -f slow-liveness.yaml");
    s.run_line("tick 70");
    let before = restarts(&new_pod(&s, &old).unwrap());
    assert!(before >= 2, "{before}");
    s.run_line("crash kubelet");
    s.run_line("restart kubelet");
    s.run_line("tick 1");
    let p = new_pod(&s, &old).unwrap();
    assert!(restarts(&p) >= before, "{p}");
    // The nginx pods were running before and still are, ready and never restarted.
    let ready_old = s
        .objects(Kind::Pod)
        .filter(|p| p["metadata"]["labels"]["pod-template-hash"] == old.as_str())
        .filter(|p| restarts(p) == 0 && p["status"]["containerStatuses"][0]["ready"] == true)
        .count();
    assert_eq!(ready_old, 3);
}

/// Requests reach a pod at the port the EndpointSlice gives: a Service whose target port
/// the app does not listen on has endpoints, yet every request fails.
#[test]
fn traffic_to_a_port_nobody_listens_on_fails() {
    let mut s = Session::new("service-endpoints", 1).unwrap();
    s.run_line("kubectl apply -f service.yaml");
    s.run_line("tick 3");
    s.run_line("traffic 10");
    s.run_line("tick 3");
    let ok = s.run_line("traffic").stdout;
    assert!(ok.contains("in all: 30 answered, 0 failed"), "{ok}");
    let out = s.run_line(
        "kubectl patch svc web --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/ports/0/targetPort\",\"value\":9999}]'",
    );
    assert!(out.stderr.is_empty(), "{out:?}");
    s.run_line("traffic 10");
    s.run_line("tick 3");
    let bad = s.run_line("traffic").stdout;
    assert!(bad.contains("in all: 0 answered, 30 failed"), "{bad}");
}
