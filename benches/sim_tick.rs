//! One simulated second with a Deployment of 100, 1,000 and 10,000 replicas, in steady
//! state and during a rolling update.
//!
//! - `steady/N`: `Cluster::tick` on a converged Deployment of N ready pods, run for many
//!   consecutive seconds, so the 30 s resync and the minutely event expiry are in the mean.
//! - `rollout/N`: one iteration is a whole rolling update of N pods (default strategy,
//!   25% surge and unavailability): the image change, then ticks until every replica is
//!   updated and available. The time reported is that rollout's cost divided by its
//!   simulated seconds, i.e. the mean cost of a second of rollout. Rollouts run back to
//!   back, so pods of the last one are still terminating, as they would be. The
//!   controllers wait for kube-controller-manager's default client rate limit (20
//!   requests per second, bursts of 30), as on a default cluster.
//! - `rollout-unlimited/N`: the same with a rate limit that never binds, so every write
//!   the rollout needs is made as soon as a controller wants it: the per-write cost.
//! - `nodes-steady/NODES/PODS` and `nodes-rollout/NODES/PODS`: the same on 10 and 100
//!   nodes, each kubelet renewing its lease and the scheduler placing every new pod.
//! - `nodes-drain/NODES/PODS`: one iteration is `kubectl drain` of the next node, to its
//!   end, through the Eviction API and a PodDisruptionBudget (maxUnavailable 10%, so a
//!   node's pods all go in its first second), then `uncordon`; the time reported is the
//!   mean cost of a simulated second of drain (the evictions, the replacements created
//!   and scheduled, the disruption controller's recounts, the node lifecycle controller's
//!   taints; the uncordon that resets the node between drains is not timed).
//!   `nodes-drain-one`: the same with maxUnavailable 1, so drain evicts one pod,
//!   is refused (429) until its replacement is Ready, and retries every 5 s.
//! - `service-rollout/NODES/PODS`: `nodes-rollout` with a Service in front of the pods,
//!   so the endpoints and EndpointSlice controllers follow every pod that starts, turns
//!   Ready or terminates; `service-steady/NODES/PODS` the same cluster at rest.
//! - `sts-steady/NODES/PODS`: a converged StatefulSet of PODS pods, one claim each;
//!   `sts-rollout/NODES/PODS`: one iteration is a whole rolling update of it (one pod at a
//!   time, highest ordinal first), reported as the mean cost of a simulated second.
//! - `job-run/NODES/PODS`: one iteration is a whole Job of PODS completions, a tenth of them
//!   at a time, each pod running `sleep 5` (created, scheduled, run, exited, counted
//!   through the tracking finalizer), from creation to Complete, reported as the mean cost
//!   of a simulated second; the finished Job is then deleted with its pods.
//! - `operator-hot-loop`: one simulated second of the operator scenario with the WebApp
//!   operator's hot-loop bug on: the operator and the Deployment controller overwrite the
//!   Deployment `shop` in turn, about 20 writes a second each, as fast as their clients'
//!   rate limits let them, every write seen by both through the watch.

use std::time::{Duration, Instant};

use kubedrill::sim::cluster::Cluster;
use serde_json::json;

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};

#[path = "simdrive.rs"]
mod simdrive;
use simdrive::{
    Limit, converged, converged_on, converged_stateful, drain, job_run, nodes_only, rollout,
    stateful_rollout, with_budget, with_service,
};

/// `iters` rollouts back to back, each to the next image; the time returned is that of
/// `iters` simulated seconds of rollout (criterion divides by `iters`).
fn per_second(rolling: &mut Cluster, image: &mut u32, n: i64, iters: u64) -> Duration {
    let (mut spent, mut secs) = (Duration::ZERO, 0u32);
    for _ in 0..iters {
        *image += 1;
        let t = Instant::now();
        secs += rollout(rolling, *image, n);
        spent += t.elapsed();
    }
    spent * iters as u32 / secs
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sim_second");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    for n in [100i64, 1_000, 10_000] {
        // Clusters are built inside the closures, which run only for benchmarks that
        // the command line's filter selects.
        g.sampling_mode(SamplingMode::Auto);
        g.bench_with_input(BenchmarkId::new("steady", n), &n, |b, _| {
            let mut steady = converged(n, Limit::Default);
            b.iter(|| steady.tick())
        });
        g.sampling_mode(SamplingMode::Flat);
        for (name, limit) in [
            ("rollout", Limit::Default),
            ("rollout-unlimited", Limit::Unlimited),
        ] {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                let mut rolling = converged(n, limit);
                let mut image = 28;
                b.iter_custom(|iters| per_second(&mut rolling, &mut image, n, iters))
            });
        }
    }
    for (nodes, n) in [(10usize, 100i64), (100, 1_000)] {
        let id = format!("{nodes}/{n}");
        g.sampling_mode(SamplingMode::Auto);
        g.bench_with_input(BenchmarkId::new("nodes-steady", &id), &n, |b, _| {
            let mut steady = converged_on(n, Limit::Default, nodes);
            b.iter(|| steady.tick())
        });
        g.sampling_mode(SamplingMode::Flat);
        g.bench_with_input(BenchmarkId::new("nodes-rollout", &id), &n, |b, _| {
            let mut rolling = converged_on(n, Limit::Default, nodes);
            let mut image = 28;
            b.iter_custom(|iters| per_second(&mut rolling, &mut image, n, iters))
        });
    }
    for (nodes, n) in [(10usize, 100i64), (100, 1_000)] {
        let id = format!("{nodes}/{n}");
        g.sampling_mode(SamplingMode::Auto);
        g.bench_with_input(BenchmarkId::new("service-steady", &id), &n, |b, _| {
            let mut steady = converged_on(n, Limit::Default, nodes);
            with_service(&mut steady);
            b.iter(|| steady.tick())
        });
        g.sampling_mode(SamplingMode::Flat);
        g.bench_with_input(BenchmarkId::new("service-rollout", &id), &n, |b, _| {
            let mut rolling = converged_on(n, Limit::Default, nodes);
            with_service(&mut rolling);
            let mut image = 28;
            b.iter_custom(|iters| per_second(&mut rolling, &mut image, n, iters))
        });
    }
    for (nodes, n) in [(10usize, 100i64), (100, 1_000)] {
        let id = format!("{nodes}/{n}");
        g.sampling_mode(SamplingMode::Auto);
        g.bench_with_input(BenchmarkId::new("sts-steady", &id), &n, |b, _| {
            let mut steady = converged_stateful(n, nodes);
            b.iter(|| steady.tick())
        });
        g.sampling_mode(SamplingMode::Flat);
        g.bench_with_input(BenchmarkId::new("sts-rollout", &id), &n, |b, _| {
            let mut rolling = converged_stateful(n, nodes);
            let mut image = 28;
            b.iter_custom(|iters| {
                let (mut spent, mut secs) = (Duration::ZERO, 0u32);
                for _ in 0..iters {
                    image += 1;
                    let t = Instant::now();
                    secs += stateful_rollout(&mut rolling, image, n);
                    spent += t.elapsed();
                }
                spent * iters as u32 / secs
            })
        });
    }
    for (nodes, n) in [(10usize, 100i64), (100, 1_000)] {
        let id = format!("{nodes}/{n}");
        g.sampling_mode(SamplingMode::Flat);
        g.bench_with_input(BenchmarkId::new("job-run", &id), &n, |b, _| {
            let mut c = nodes_only(nodes);
            let mut run = 0;
            b.iter_custom(|iters| {
                let (mut spent, mut secs) = (Duration::ZERO, 0u32);
                for _ in 0..iters {
                    run += 1;
                    let t = Instant::now();
                    secs += job_run(&mut c, run, n, n / 10);
                    spent += t.elapsed();
                }
                spent * iters as u32 / secs
            })
        });
    }
    for (name, budget) in [("nodes-drain", json!("10%")), ("nodes-drain-one", json!(1))] {
        for (nodes, n) in [(10usize, 100i64), (100, 1_000)] {
            let id = format!("{nodes}/{n}");
            g.bench_with_input(BenchmarkId::new(name, &id), &n, |b, _| {
                let mut c = converged_on(n, Limit::Default, nodes);
                with_budget(&mut c, budget.clone());
                let mut next = 0;
                b.iter_custom(|iters| {
                    let (mut spent, mut secs) = (Duration::ZERO, 0u32);
                    for _ in 0..iters {
                        next = next % nodes + 1;
                        let (s, t) = drain(&mut c, &format!("node-{next}"));
                        secs += s;
                        spent += t;
                    }
                    spent * iters as u32 / secs
                })
            });
        }
    }
    g.bench_function("operator-hot-loop", |b| {
        let mut s = kubedrill::sim::session::Session::new("operator", 1).unwrap();
        s.run_line("operator bug hot-loop");
        s.run_line("tick 5");
        b.iter(|| s.cluster.tick())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
