//! Endpoints under random command streams (proptest) on the service-endpoints scenario,
//! with the controllers running: after every line, an EndpointSlice endpoint is `ready`
//! only for a pod that exists, is not being deleted and has its Ready condition True
//! (`ready = serving and not terminating`); `serving` is the pod's Ready condition; an
//! Endpoints object lists as ready addresses only Ready pods that are not terminating; and
//! every endpoint belongs to a pod the Service's selector selects.

use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use proptest::prelude::*;
use serde_json::Value;

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (0u32..6).prop_map(|n| format!("kubectl scale deploy web --replicas={n}")),
        2 => (0usize..6).prop_map(|i| format!("delete-pod {i}")),
        1 => Just("kubectl delete pod -l app=web --wait=false".to_string()),
        1 => (1u32..4).prop_map(|n| format!("node-down node-{n}")),
        1 => (1u32..4).prop_map(|n| format!("node-up node-{n}")),
        1 => Just("kubectl set image deploy/web app=nginx:1.28".to_string()),
        1 => Just("kubectl set image deploy/web app=nginx:nonexistent".to_string()),
        1 => Just("kubectl set image deploy/web app=example.com/app:ignores-sigterm".to_string()),
        1 => Just("kubectl patch svc web -p '{\"spec\":{\"selector\":{\"app\":\"other\"}}}'".to_string()),
        1 => Just("kubectl patch svc web -p '{\"spec\":{\"selector\":{\"app\":\"web\"}}}'".to_string()),
        // A pod leaves the Service (and its ReplicaSet) by its labels, or comes back.
        1 => (0usize..6).prop_map(|i| format!("relabel-pod {i} app=other")),
        1 => (0usize..6).prop_map(|i| format!("relabel-pod {i} app=web")),
        3 => (1u64..8).prop_map(|n| format!("tick {n}")),
        1 => Just("tick 60".to_string()),
    ]
}

fn pod_ready(p: &Value) -> bool {
    p["status"]["conditions"].as_array().is_some_and(|cs| {
        cs.iter()
            .any(|c| c["type"] == "Ready" && c["status"] == "True")
    })
}

fn check_endpoints(s: &Session, after: &str) -> Result<(), TestCaseError> {
    let pods: Vec<&Value> = s.objects(Kind::Pod).collect();
    let pod = |name: &str| pods.iter().find(|p| p["metadata"]["name"] == name).copied();
    let selector = s
        .object(Kind::Service, "web")
        .map(|svc| svc["spec"]["selector"].clone())
        .unwrap_or(Value::Null);
    for slice in s.objects(Kind::EndpointSlice) {
        for e in slice["endpoints"].as_array().into_iter().flatten() {
            let name = e["targetRef"]["name"].as_str().unwrap_or("");
            let p = pod(name);
            prop_assert!(
                p.is_some(),
                "after {after}: endpoint for missing pod {name}"
            );
            let p = p.unwrap_or(&Value::Null);
            let deleting = !p["metadata"]["deletionTimestamp"].is_null();
            let c = &e["conditions"];
            prop_assert_eq!(
                c["ready"].as_bool(),
                Some(pod_ready(p) && !deleting),
                "after {}: {} ready",
                after,
                name
            );
            prop_assert_eq!(c["serving"].as_bool(), Some(pod_ready(p)));
            prop_assert_eq!(c["terminating"].as_bool(), Some(deleting));
            let labels = &p["metadata"]["labels"];
            let selected = selector
                .as_object()
                .is_some_and(|m| m.iter().all(|(k, v)| &labels[k] == v));
            prop_assert!(selected, "after {after}: {name} is not selected");
        }
    }
    for ep in s.objects(Kind::Endpoints) {
        for ss in ep["subsets"].as_array().into_iter().flatten() {
            for a in ss["addresses"].as_array().into_iter().flatten() {
                let name = a["targetRef"]["name"].as_str().unwrap_or("");
                let p = pod(name).unwrap_or(&Value::Null);
                prop_assert!(
                    pod_ready(p) && p["metadata"]["deletionTimestamp"].is_null(),
                    "after {after}: {name} listed ready in Endpoints"
                );
            }
        }
    }
    Ok(())
}

/// Probed pods: readiness going up and down, restarts, back-offs.
fn probe_step() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop_oneof![
            Just("slow-liveness.yaml"),
            Just("slow-startup.yaml"),
            Just("never-ready.yaml"),
            Just("no-readiness.yaml"),
            Just("fails-later.yaml"),
            Just("web.yaml"),
        ]
        .prop_map(|f| format!("kubectl apply -f {f}")),
        1 => (0u32..5).prop_map(|n| format!("kubectl scale deploy web --replicas={n}")),
        1 => (0usize..5).prop_map(|i| format!("delete-pod {i}")),
        4 => (1u64..15).prop_map(|n| format!("tick {n}")),
    ]
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("service-endpoints", 1).unwrap();
    s.run_line("kubectl apply -f service.yaml");
    run_on(s, steps)
}

fn run_on(mut s: Session, steps: &[String]) -> Result<(), TestCaseError> {
    check_endpoints(&s, "apply")?;
    for st in steps {
        let mut names: Vec<String> = s
            .objects(Kind::Pod)
            .map(|p| p["metadata"]["name"].as_str().unwrap_or("").to_string())
            .collect();
        names.sort();
        let pick = |i: &str| names.get(i.parse::<usize>().unwrap_or(0)).cloned();
        let line = if let Some(i) = st.strip_prefix("delete-pod ") {
            match pick(i) {
                Some(n) => format!("kubectl delete pod {n} --wait=false"),
                None => continue,
            }
        } else if let Some(rest) = st.strip_prefix("relabel-pod ") {
            let (i, label) = rest.split_once(' ').unwrap_or((rest, "app=web"));
            match pick(i) {
                Some(n) => format!("kubectl label pod {n} {label} --overwrite"),
                None => continue,
            }
        } else {
            st.clone()
        };
        s.run_line(&line);
        check_endpoints(&s, &line)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn an_endpoint_is_ready_only_for_a_ready_pod_that_is_not_terminating(
        steps in prop::collection::vec(step(), 1..25)
    ) {
        run(&steps)?;
    }

    #[test]
    fn the_same_holds_while_probes_move_readiness(
        steps in prop::collection::vec(probe_step(), 1..25)
    ) {
        run_on(Session::new("probes", 1).unwrap(), &steps)?;
    }
}

/// The stream's own check can fail: a slice whose controller is paused goes stale, and
/// the same check then finds a ready endpoint for a pod that is gone.
#[test]
fn the_check_catches_a_stale_slice() {
    let mut s = Session::new("service-endpoints", 1).unwrap();
    s.run_line("kubectl apply -f service.yaml");
    s.run_line("tick 3");
    s.run_line("pause endpointslice");
    s.run_line("kubectl delete pod -l app=web --wait=false");
    s.run_line("tick 2");
    assert!(check_endpoints(&s, "delete").is_err());
}
