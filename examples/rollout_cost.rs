//! The cost of a simulated second of rolling update, outside criterion, for profilers and
//! instruction counters (see docs/sim-performance.md):
//! `cargo run --release --example rollout_cost -- PODS ROLLOUTS [unlimited]`
//! (`unlimited`: the controllers' client rate limit never binds; by default it is
//! kube-controller-manager's, 20 requests per second with bursts of 30).
//! With ROLLOUTS 0 it only builds the converged Deployment, so the difference between two
//! runs under `valgrind --tool=cachegrind` is the rollouts' own count.
// The benchmark's driver; this example uses only its rollout half.
#[allow(dead_code)]
#[path = "../benches/simdrive.rs"]
mod simdrive;

fn main() {
    let mut args = std::env::args().skip(1);
    let pods: i64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rollouts: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let limit = match args.next().as_deref() {
        Some("unlimited") => simdrive::Limit::Unlimited,
        _ => simdrive::Limit::Default,
    };
    let mut c = simdrive::converged(pods, limit);
    let writes = c.api.next_seq();
    let t = std::time::Instant::now();
    let secs: u32 = (0..rollouts)
        .map(|i| {
            let t = std::time::Instant::now();
            let s = simdrive::rollout(&mut c, 29 + i, pods);
            if std::env::var_os("ROLLOUT_EACH").is_some() {
                eprintln!(
                    "rollout {i}: {s} s, {:?} per simulated second, {} events stored",
                    t.elapsed() / s,
                    c.api.count(kubedrill::sim::kind::Kind::Event)
                );
            }
            s
        })
        .sum();
    let spent = t.elapsed();
    println!(
        "{pods} pods, {rollouts} rollouts ({limit:?} client limit): {secs} simulated seconds, {} watch events, {:?} per simulated second",
        c.api.next_seq() - writes,
        spent / secs.max(1)
    );
}
