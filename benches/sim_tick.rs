//! One simulated second with a Deployment of 100, 1,000 and 10,000 replicas, in steady
//! state and during a rolling update.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kubedrill::sim::cluster::Cluster;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::scenario::deployment;
use serde_json::json;

fn converged(replicas: i64) -> Cluster {
    let mut c = Cluster::new(1);
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
    c
}

fn start_rollout(c: &mut Cluster) {
    let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
    d["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    c.api.update(Kind::Deployment, d, None).unwrap();
    c.settle();
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sim_second");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(3));
    for n in [100i64, 1_000, 10_000] {
        let mut steady = converged(n);
        g.bench_with_input(BenchmarkId::new("steady", n), &n, |b, _| {
            b.iter(|| steady.tick())
        });
        // A rollout of n pods takes many seconds; each iteration advances one of them,
        // restarting the rollout when it completes.
        let mut rolling = converged(n);
        start_rollout(&mut rolling);
        let mut image = 28;
        g.bench_with_input(BenchmarkId::new("rollout", n), &n, |b, _| {
            b.iter(|| {
                rolling.tick();
                let d = rolling.api.get(Kind::Deployment, "web").unwrap();
                if d["status"]["updatedReplicas"] == json!(n) && d["status"]["replicas"] == json!(n)
                {
                    image += 1;
                    let mut next = d.clone();
                    next["spec"]["template"]["spec"]["containers"][0]["image"] =
                        json!(format!("nginx:1.{image}"));
                    rolling.api.update(Kind::Deployment, next, None).unwrap();
                    rolling.settle();
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
