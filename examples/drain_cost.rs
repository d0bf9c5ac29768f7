//! The cost of a simulated second of `kubectl drain`, outside criterion, for profilers:
//! `cargo run --release --example drain_cost -- NODES PODS DRAINS`
//! (a PodDisruptionBudget of maxUnavailable 10% over the pods; each drain is of the next
//! node, uncordoned after).
// The benchmark's driver; this example uses only its node and drain half.
#[allow(dead_code)]
#[path = "../benches/simdrive.rs"]
mod simdrive;

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let pods: i64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let drains: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut c = simdrive::converged_on(pods, simdrive::Limit::Default, nodes);
    simdrive::with_budget(&mut c, serde_json::json!("10%"));
    let (mut secs, mut spent) = (0, std::time::Duration::ZERO);
    for i in 0..drains {
        let (s, t) = simdrive::drain(&mut c, &format!("node-{}", i % nodes + 1));
        secs += s;
        spent += t;
    }
    println!(
        "{nodes} nodes, {pods} pods, {drains} drains: {secs} simulated seconds, {:?} per simulated second",
        spent / secs.max(1)
    );
}
