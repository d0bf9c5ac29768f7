//! The cost of a simulated second of rolling update, outside criterion, for profilers and
//! instruction counters (see docs/sim-performance.md):
//! `cargo run --release --example rollout_cost -- PODS ROLLOUTS`
//! With ROLLOUTS 0 it only builds the converged Deployment, so the difference between two
//! runs under `valgrind --tool=cachegrind` is the rollouts' own count.
#[path = "../benches/simdrive.rs"]
mod simdrive;

fn main() {
    let mut args = std::env::args().skip(1);
    let pods: i64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rollouts: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let mut c = simdrive::converged(pods);
    let writes = c.api.next_seq();
    let t = std::time::Instant::now();
    let secs: u32 = (0..rollouts)
        .map(|i| simdrive::rollout(&mut c, 29 + i, pods))
        .sum();
    let spent = t.elapsed();
    println!(
        "{pods} pods, {rollouts} rollouts: {secs} simulated seconds, {} watch events, {:?} per simulated second",
        c.api.next_seq() - writes,
        spent / secs.max(1)
    );
}
