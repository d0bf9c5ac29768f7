//! The Endpoints object and the EndpointSlices as the 1.32 controllers shape them, for
//! the Services a learner writes by hand: a multi-port Service (one subset, both ports),
//! a headless Service without ports (bare addresses), and a Service that publishes
//! not-ready addresses (ready in both, however the pods are).

use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use serde_json::Value;

fn session() -> Session {
    let mut s = Session::new("service-endpoints", 1).unwrap();
    s.run_line("tick 3");
    s
}

/// Moves web's pods to the Service `app`: each relabelled by name.
fn relabel(s: &mut Session, app: &str) {
    let names: Vec<String> = s
        .objects(Kind::Pod)
        .filter_map(|p| p["metadata"]["name"].as_str().map(str::to_string))
        .collect();
    for n in names {
        let out = s.run_line(&format!("kubectl label pod {n} app={app} --overwrite"));
        assert!(out.stderr.is_empty(), "{out:?}");
    }
}

fn ep(s: &Session, name: &str) -> Value {
    s.object(Kind::Endpoints, name)
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn a_multi_port_service_has_one_subset_with_both_ports() {
    let mut s = session();
    let out = s.run_line("kubectl create service clusterip two --tcp=80:80,443:80");
    assert!(out.stderr.is_empty(), "{out:?}");
    relabel(&mut s, "two");
    s.run_line("tick 1");
    let e = ep(&s, "two");
    let subsets = e["subsets"].as_array().expect("subsets");
    assert_eq!(subsets.len(), 1, "{e}");
    assert_eq!(subsets[0]["ports"].as_array().map(Vec::len), Some(2), "{e}");
    assert!(!subsets[0]["addresses"].as_array().unwrap().is_empty());
}

#[test]
fn a_headless_service_without_ports_lists_bare_addresses() {
    let mut s = session();
    let out = s.run_line("kubectl create service clusterip hl --clusterip=None");
    assert!(out.stderr.is_empty(), "{out:?}");
    relabel(&mut s, "hl");
    s.run_line("tick 1");
    let e = ep(&s, "hl");
    assert_eq!(
        e["metadata"]["labels"]["service.kubernetes.io/headless"],
        ""
    );
    let subsets = e["subsets"].as_array().expect("subsets");
    assert_eq!(subsets.len(), 1, "{e}");
    assert!(subsets[0].get("ports").is_none(), "{e}");
    assert_eq!(subsets[0]["addresses"].as_array().map(Vec::len), Some(3));
    let get = s.run_line("kubectl get ep hl").stdout;
    assert!(get.contains("10.244.0."), "{get}");
}

#[test]
fn publishing_not_ready_addresses_makes_every_endpoint_ready() {
    let mut s = session();
    s.run_line("kubectl apply -f service.yaml");
    s.run_line("kubectl patch svc web -p '{\"spec\":{\"publishNotReadyAddresses\":true}}'");
    // A new pod that is running but not yet Ready.
    s.run_line("kubectl scale deploy web --replicas=4");
    s.run_line("tick 1");
    let slices: Vec<Value> = s
        .objects(Kind::EndpointSlice)
        .flat_map(|sl| sl["endpoints"].as_array().cloned().unwrap_or_default())
        .collect();
    assert_eq!(slices.len(), 4, "{slices:?}");
    assert!(
        slices.iter().all(|e| e["conditions"]["ready"] == true),
        "{slices:?}"
    );
    assert!(
        slices.iter().any(|e| e["conditions"]["serving"] == false),
        "{slices:?}"
    );
    let e = ep(&s, "web");
    assert_eq!(
        e["subsets"][0]["addresses"].as_array().map(Vec::len),
        Some(4),
        "{e}"
    );
}
