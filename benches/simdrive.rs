//! A Deployment driven through rolling updates, shared by the `sim_tick` benchmark and the
//! `rollout_cost` example.

use kubedrill::sim::client::{DEFAULT_BURST, DEFAULT_QPS};
use kubedrill::sim::cluster::Cluster;
use kubedrill::sim::controllers::node_agent::{NodeAgents, NodeSpec};
use kubedrill::sim::kind::Kind;
use kubedrill::sim::obj;
use kubedrill::sim::scenario::deployment;
use serde_json::json;

/// kube-controller-manager's client rate limit (`--kube-api-qps`, `--kube-api-burst`) of a
/// run: its default, or one high enough never to bind.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    Default,
    Unlimited,
}

const UNLIMITED: u32 = 1_000_000;

/// A Deployment `web` of `replicas` pods, all available, whose controllers then run with
/// `limit`. It is built without one, so that setup is quick at any size.
pub fn converged(replicas: i64, limit: Limit) -> Cluster {
    converged_on(replicas, limit, 0)
}

/// [`converged`] on `nodes` nodes (none: the scheduler idles and pods run unscheduled),
/// each with room for its share of the pods, so the scheduler places every one.
pub fn converged_on(replicas: i64, limit: Limit, nodes: usize) -> Cluster {
    let mut c = Cluster::new(1);
    c.set_client_limit(UNLIMITED, UNLIMITED);
    let specs: Vec<NodeSpec> = (0..nodes)
        .map(|i| NodeSpec {
            name: Box::leak(format!("node-{}", i + 1).into_boxed_str()),
            cpu: "64",
            memory: "256Gi",
            labels: &[],
            taints: &[],
        })
        .collect();
    c.nodes = NodeAgents::register(&mut c.api, &specs, 0);
    c.api
        .create(
            Kind::Deployment,
            deployment("web", "nginx:1.27", replicas),
            0,
        )
        .unwrap();
    c.settle();
    for _ in 0..5 {
        c.tick();
    }
    let d = c.api.get(Kind::Deployment, "web").unwrap();
    assert_eq!(
        obj::int(d, &["status", "availableReplicas"]),
        Some(replicas),
        "the steady state is all replicas available"
    );
    match limit {
        Limit::Default => c.set_client_limit(DEFAULT_QPS, DEFAULT_BURST),
        Limit::Unlimited => {}
    }
    c
}

/// Runs one rolling update to completion; returns the simulated seconds it took.
pub fn rollout(c: &mut Cluster, image: u32, n: i64) -> u32 {
    let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
    d["spec"]["template"]["spec"]["containers"][0]["image"] = json!(format!("nginx:1.{image}"));
    c.api.update(Kind::Deployment, d, None).unwrap();
    c.settle();
    let done = |c: &Cluster| {
        let d = c.api.get(Kind::Deployment, "web").unwrap();
        ["updatedReplicas", "replicas", "availableReplicas"]
            .iter()
            .all(|f| obj::int(d, &["status", f]) == Some(n))
    };
    let mut secs = 0;
    while secs == 0 || !done(c) {
        c.tick();
        secs += 1;
        assert!(secs < 7200, "rollout of {n} did not finish");
    }
    secs
}
