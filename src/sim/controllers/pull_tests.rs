//! A failing image pull as the kubelet reports it: the waiting reason and message, and
//! its events (image_manager.go, kuberuntime startContainer).

use serde_json::Value;

use crate::sim::kind::Kind;
use crate::sim::session::Session;

fn new_pod(s: &Session) -> Value {
    s.cluster
        .api
        .list(Kind::Pod)
        .find(|p| {
            p["spec"]["containers"][0]["image"]
                .as_str()
                .is_some_and(|i| i.contains("nonexistent"))
        })
        .unwrap()
        .clone()
}

fn waiting(s: &Session) -> (String, String) {
    let w = &new_pod(s)["status"]["containerStatuses"][0]["state"]["waiting"];
    (
        w["reason"].as_str().unwrap_or("").to_string(),
        w["message"].as_str().unwrap_or("").to_string(),
    )
}

/// (type, reason, message, count) of the kubelet's events about `pod`.
fn kubelet_events(s: &Session, pod: &str) -> Vec<(String, String, String, i64)> {
    s.cluster
        .api
        .list(Kind::Event)
        .filter(|e| e["source"]["component"] == "kubelet")
        .inspect(|e| {
            assert_eq!(e["involvedObject"]["kind"], "Pod");
            assert_eq!(e["involvedObject"]["name"], pod);
        })
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_string(),
                e["reason"].as_str().unwrap().to_string(),
                e["message"].as_str().unwrap().to_string(),
                e["count"].as_i64().unwrap(),
            )
        })
        .collect()
}

const NOT_FOUND: &str = "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:nonexistent\": failed to resolve reference \"docker.io/library/nginx:nonexistent\": docker.io/library/nginx:nonexistent: not found";

#[test]
fn a_failing_pull_alternates_with_back_off_and_records_kubelet_events() {
    let mut s = Session::new("rollout", 1).unwrap();
    s.run_line("kubectl set image deploy/web app=nginx:nonexistent");
    s.run_line("tick 1");
    // The first attempt: ErrImagePull with the runtime's error.
    assert_eq!(waiting(&s), ("ErrImagePull".into(), NOT_FOUND.into()));
    let pod = new_pod(&s)["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    s.run_line("tick 1");
    let backoff =
        format!("Back-off pulling image \"nginx:nonexistent\": ErrImagePull: {NOT_FOUND}");
    assert_eq!(waiting(&s), ("ImagePullBackOff".into(), backoff.clone()));
    // Retried 10 s after the first attempt, then 20 s after that.
    s.run_line("tick 9");
    assert_eq!(waiting(&s).0, "ErrImagePull");
    s.run_line("tick 19");
    assert_eq!(waiting(&s).0, "ImagePullBackOff");
    s.run_line("tick 1");
    assert_eq!(waiting(&s).0, "ErrImagePull");
    s.run_line("tick 1");
    assert_eq!(waiting(&s), ("ImagePullBackOff".into(), backoff));
    // Three attempts so far, each followed by a look during the back-off.
    let mut events = kubelet_events(&s, &pod);
    events.sort();
    let e = |t: &str, r: &str, m: &str| (t.to_string(), r.to_string(), m.to_string(), 3);
    assert_eq!(
        events,
        vec![
            e(
                "Normal",
                "BackOff",
                "Back-off pulling image \"nginx:nonexistent\""
            ),
            e("Normal", "Pulling", "Pulling image \"nginx:nonexistent\""),
            e("Warning", "Failed", "Error: ErrImagePull"),
            e("Warning", "Failed", "Error: ImagePullBackOff"),
            e(
                "Warning",
                "Failed",
                &format!("Failed to pull image \"nginx:nonexistent\": {NOT_FOUND}")
            ),
        ]
    );
    let table = s.run_line("kubectl get events").stdout;
    assert!(
        table.contains(&format!("Normal    BackOff             pod/{pod}")),
        "{table}"
    );
}

#[test]
fn the_runtime_error_names_the_normalized_reference() {
    let mut s = Session::new("rollout", 1).unwrap();
    s.run_line("kubectl set image deploy/web app=registry.example.com/team/nonexistent");
    s.run_line("tick 1");
    let full = "registry.example.com/team/nonexistent:latest";
    assert_eq!(
        waiting(&s).1,
        format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found"
        )
    );
}
