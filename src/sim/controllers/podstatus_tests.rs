//! The kubelet's typed statuses are the JSON its JSON path writes, and a ReplicaSet's pods
//! with metadata kept as shared entries are the pods plain JSON makes: one session run
//! with both and a twin with neither, every pod compared after every command.

use crate::sim::kind::Kind;
use crate::sim::session::Session;

/// Names of the pods, in name order, that are not yet Ready.
fn starting(s: &Session) -> Vec<String> {
    s.cluster
        .api
        .list_shared(Kind::Pod)
        .filter(|p| !p.pod().ready && !p.facts().deleting)
        .map(|p| p.name().to_string())
        .collect()
}

fn ready(s: &Session) -> Vec<String> {
    s.cluster
        .api
        .list_shared(Kind::Pod)
        .filter(|p| p.pod().ready && !p.facts().deleting)
        .map(|p| p.name().to_string())
        .collect()
}

#[test]
fn typed_and_json_statuses_are_the_same_pods() {
    let mut typed = Session::new("self-healing", 11).unwrap();
    let mut json = Session::new("self-healing", 11).unwrap();
    // The pods of the warm-up are typed in both; every pod from here on is JSON in the
    // twin.
    json.cluster.kubelet.typed = false;
    json.cluster.api.shared_pod_meta = false;
    let mut lines: Vec<String> = ["kubectl scale deploy web --replicas=8", "tick 1"]
        .map(String::from)
        .to_vec();
    let run = |lines: &mut Vec<String>, typed: &mut Session, json: &mut Session| {
        for line in lines.drain(..) {
            let (a, b) = (typed.run_line(&line), json.run_line(&line));
            assert_eq!(a.stdout, b.stdout, "{line}");
            assert_eq!(a.stderr, b.stderr, "{line}");
            let pods = |s: &Session| -> Vec<serde_json::Value> {
                s.cluster.api.list(Kind::Pod).cloned().collect()
            };
            assert_eq!(pods(typed), pods(json), "after {line}");
        }
    };
    run(&mut lines, &mut typed, &mut json);
    // Another client writes the status of a pod still starting; the kubelet goes on
    // from that JSON.
    let pod = starting(&typed)
        .first()
        .cloned()
        .expect("a pod still starting");
    lines.extend([
        format!(
            r#"kubectl patch pod {pod} --subresource=status --type=merge -p '{{"status":{{"message":"hi"}}}}'"#
        ),
        "tick 1".into(),
        "tick 2".into(),
        "kubectl get pods -o wide".into(),
    ]);
    run(&mut lines, &mut typed, &mut json);
    // A finalizer keeps a deleted pod: the kubelet writes its terminal status.
    let pod = ready(&typed)[0].clone();
    lines.extend([
        format!(r#"kubectl patch pod {pod} -p '{{"metadata":{{"finalizers":["example.com/hold"]}}}}'"#),
        format!("kubectl delete pod {pod} --wait=false"),
        "tick 31".into(),
        format!(r#"kubectl patch pod {pod} --type=json -p '[{{"op":"remove","path":"/metadata/finalizers"}}]'"#),
        "crash kubelet".into(),
        "kubectl set image deploy/web app=nginx:1.28".into(),
        "tick 2".into(),
        "restart kubelet".into(),
        "tick 20".into(),
        "kubectl set image deploy/web app=nginx:nonexistent".into(),
        "tick 15".into(),
        "kubectl rollout undo deploy/web".into(),
        "tick 40".into(),
        "kubectl get pods".into(),
    ]);
    run(&mut lines, &mut typed, &mut json);
    // Metadata edits on pods kept as entries: a label, a deletion cost the scale-down
    // ranks by, a release from the ReplicaSet by a label the selector no longer matches.
    let pods = ready(&typed);
    lines.extend([
        format!("kubectl label pod {} tier=front", pods[0]),
        format!(
            "kubectl annotate pod {} controller.kubernetes.io/pod-deletion-cost=-100",
            pods[1]
        ),
        format!("kubectl label pod {} app=other --overwrite", pods[2]),
        "tick 3".into(),
        "kubectl scale deploy web --replicas=5".into(),
        "tick 40".into(),
        "kubectl get pods --show-labels".into(),
        // Limits: each pod's requests and QoS class come from the admitted template.
        r#"kubectl patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"app","resources":{"limits":{"cpu":"1","memory":"64Mi"}}}]}}}}'"#.into(),
        "tick 2".into(),
        "kubectl get pods -o yaml".into(),
        "tick 40".into(),
    ]);
    run(&mut lines, &mut typed, &mut json);
    assert!(
        typed
            .cluster
            .api
            .list_shared(Kind::Pod)
            .any(|p| p.starting().is_some()),
        "the typed session keeps statuses typed"
    );
    let entries = |s: &Session| {
        s.cluster
            .api
            .list_shared(Kind::Pod)
            .any(|p| p.meta_entries())
    };
    assert!(
        entries(&typed),
        "the typed session keeps metadata as entries"
    );
    assert!(
        !entries(&json),
        "the twin's pods of the last scale-up are plain JSON"
    );
    assert!(
        json.cluster
            .api
            .list_shared(Kind::Pod)
            .filter(|p| !p.name().is_empty())
            .any(|p| p.starting().is_none()),
        "the twin writes JSON"
    );
}
