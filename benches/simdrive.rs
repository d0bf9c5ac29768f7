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
/// each with room for its share of the pods, so the scheduler places every one, about as
/// many on each node.
pub fn converged_on(replicas: i64, limit: Limit, nodes: usize) -> Cluster {
    let mut c = cluster_on(nodes);
    let mut web = deployment("web", "nginx:1.27", replicas);
    if nodes > 0 {
        // Requests, so that LeastAllocated spreads the pods evenly over the nodes (with
        // none, every node scores the same and ties go to the first by name).
        web["spec"]["template"]["spec"]["containers"][0]["resources"] =
            json!({"requests": {"cpu": "100m", "memory": "64Mi"}});
    }
    c.api.create(Kind::Deployment, web, 0).unwrap();
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

/// A budget over web's pods with this `maxUnavailable` ("10%": a tenth of them may be
/// disrupted at once, as a platform team might set for a large stateless service; 1: one
/// at a time, the most common budget).
pub fn with_budget(c: &mut Cluster, max_unavailable: serde_json::Value) {
    create_settled(
        c,
        Kind::PodDisruptionBudget,
        json!({
            "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "web"},
            "spec": {"maxUnavailable": max_unavailable, "selector": {"matchLabels": {"app": "web"}}},
        }),
    );
}

/// A Service `web` in front of the Deployment's pods, its endpoints settled.
pub fn with_service(c: &mut Cluster) {
    create_settled(
        c,
        Kind::Service,
        json!({
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "web"},
            "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]},
        }),
    );
}

/// Creates `obj` and lets the controllers react to it.
fn create_settled(c: &mut Cluster, kind: Kind, obj: serde_json::Value) {
    c.api.create(kind, obj, c.now()).unwrap();
    c.settle();
}

/// `kubectl drain NODE` run to its end through the Eviction API, then the node
/// uncordoned; returns the simulated seconds the drain took and the time it took to run,
/// the uncordon (the benchmark's reset between drains) left out.
pub fn drain(c: &mut Cluster, node: &str) -> (u32, std::time::Duration) {
    use kubedrill::sim::kubectl::{args, exec};
    let files = exec::Files::new();
    let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    let cmd = args::parse(&words(&format!("drain {node}"))).unwrap();
    let t = std::time::Instant::now();
    let mut o = exec::run(c, &files, &cmd);
    let mut secs = 0;
    while o.is_waiting() {
        c.tick();
        secs += 1;
        o = o.resume(c);
        assert!(secs < 3600, "drain of {node} did not finish");
    }
    let spent = t.elapsed();
    assert!(!o.failed, "drain of {node} failed: {}", o.stderr);
    let cmd = args::parse(&words(&format!("uncordon {node}"))).unwrap();
    exec::run(c, &files, &cmd);
    (secs.max(1), spent)
}

/// A cluster with no rate limits on `nodes` nodes of 64 CPUs and 256 GiB each.
fn cluster_on(nodes: usize) -> Cluster {
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
    c
}

/// A StatefulSet `db` of `replicas` pods on `nodes` nodes, converged: Parallel, so the
/// pods start together, with one claim each (what a rollout then replaces one at a time,
/// under either policy, is the same).
pub fn converged_stateful(replicas: i64, nodes: usize) -> Cluster {
    let mut c = cluster_on(nodes);
    let set = json!({
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": "db"},
        "spec": {
            "replicas": replicas, "serviceName": "db", "podManagementPolicy": "Parallel",
            "selector": {"matchLabels": {"app": "db"}},
            "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{
                "name": "app", "image": "nginx:1.27",
                "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]}},
            "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {
                "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}],
        },
    });
    c.api.create(Kind::StatefulSet, set, c.now()).unwrap();
    c.settle();
    let ready = |c: &Cluster| {
        let s = c.api.get(Kind::StatefulSet, "db").unwrap();
        obj::int(s, &["status", "readyReplicas"]) == Some(replicas)
    };
    let mut secs = 0;
    while !ready(&c) {
        c.tick();
        secs += 1;
        assert!(secs < 600, "StatefulSet of {replicas} did not converge");
    }
    c.set_client_limit(DEFAULT_QPS, DEFAULT_BURST);
    c
}

/// A rolling update of the StatefulSet `db` to `nginx:1.<image>`, ticked to its end;
/// returns the simulated seconds it took.
pub fn stateful_rollout(c: &mut Cluster, image: u32, n: i64) -> u32 {
    let mut s = c.api.get(Kind::StatefulSet, "db").unwrap().clone();
    s["spec"]["template"]["spec"]["containers"][0]["image"] = json!(format!("nginx:1.{image}"));
    c.api.update(Kind::StatefulSet, s, None).unwrap();
    c.settle();
    let done = |c: &Cluster| {
        let s = c.api.get(Kind::StatefulSet, "db").unwrap();
        obj::int(s, &["status", "updatedReplicas"]) == Some(n)
            && obj::int(s, &["status", "readyReplicas"]) == Some(n)
            && s["status"]["currentRevision"] == s["status"]["updateRevision"]
    };
    let mut secs = 0;
    while secs == 0 || !done(c) {
        c.tick();
        secs += 1;
        assert!(
            secs < 20 * n as u32 + 60,
            "StatefulSet rollout of {n} did not finish"
        );
    }
    secs
}

/// An empty cluster of `nodes` nodes whose controllers wait for the default rate limit.
pub fn nodes_only(nodes: usize) -> Cluster {
    let mut c = cluster_on(nodes);
    c.set_client_limit(DEFAULT_QPS, DEFAULT_BURST);
    c
}

/// Runs a Job of `completions` pods, `parallelism` at a time, each `sleep 5`, on a
/// cluster of `nodes` nodes, from its creation to its Complete condition, then deletes it
/// with its pods; returns the simulated seconds it ran.
pub fn job_run(c: &mut Cluster, run: u32, completions: i64, parallelism: i64) -> u32 {
    let name = format!("batch-{run}");
    let job = json!({
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": name},
        "spec": {
            "completions": completions, "parallelism": parallelism,
            "template": {"spec": {"restartPolicy": "Never", "containers": [{
                "name": "worker", "image": "busybox:1.36",
                "command": ["sh", "-c", "sleep 5"],
                "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}]}},
        },
    });
    c.api.create(Kind::Job, job, c.now()).unwrap();
    c.settle();
    let complete = |c: &Cluster| {
        c.api.get(Kind::Job, &name).is_ok_and(|j| {
            j["status"]["conditions"]
                .as_array()
                .is_some_and(|cs| cs.iter().any(|x| x["type"] == "Complete"))
        })
    };
    let mut secs = 0;
    while !complete(c) {
        c.tick();
        secs += 1;
        assert!(
            secs < 20 * completions as u32 + 60,
            "Job {name} did not finish"
        );
    }
    c.api
        .delete(Kind::Job, &name, None, c.now())
        .expect("the Job is there");
    c.settle();
    secs
}
