//! The HPA's decisions against a table worked out by hand from the Kubernetes 1.32 source
//! (pkg/controller/podautoscaler/replica_calculator.go GetResourceReplicas and
//! calcPlainMetricReplicas; horizontal.go normalizeDesiredReplicas and
//! normalizeDesiredReplicasWithBehaviors). Each row says what the source computes and why,
//! including its float64 edges (a ratio of exactly 1.1 is outside the tolerance in 1.32).

use kubedrill::sim::controllers::podautoscaler::replicas::{Target, resource_replicas};
use kubedrill::sim::controllers::podautoscaler::{Memory, Rules};
use kubedrill::sim::metrics::PodMetrics;
use kubedrill::sim::time::sim_unix;
use serde_json::{Value, json};

/// A pod of the table: its CPU request, when it started and became Ready (simulated
/// seconds), whether it is Ready, and its sample (millicores), if metrics-server has one.
struct P {
    request: &'static str,
    started: u64,
    ready_at: u64,
    ready: bool,
    usage: Option<i64>,
}

const NOW: u64 = 1_000;

fn old(usage: i64) -> P {
    P {
        request: "100m",
        started: 0,
        ready_at: 2,
        ready: true,
        usage: Some(usage),
    }
}

fn ts(t: u64) -> String {
    kubedrill::sim::time::rfc3339(t)
}

fn pods(ps: &[P]) -> (Vec<Value>, Vec<PodMetrics>) {
    let mut objs = Vec::new();
    let mut samples = Vec::new();
    for (i, p) in ps.iter().enumerate() {
        let name = format!("web-{i}");
        objs.push(json!({
            "metadata": {"name": name},
            "spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": p.request}}}]},
            "status": {
                "phase": "Running",
                "startTime": ts(p.started),
                "conditions": [{"type": "Ready", "status": if p.ready {"True"} else {"False"},
                                "lastTransitionTime": ts(p.ready_at)}],
            },
        }));
        if let Some(u) = p.usage {
            samples.push(PodMetrics {
                pod: name,
                timestamp: NOW - 5,
                window: 15,
                containers: vec![("app".into(), u)],
            });
        }
    }
    (objs, samples)
}

fn decide(current: i32, target: Target, ps: &[P]) -> (i32, Option<i32>) {
    let (objs, samples) = pods(ps);
    let refs: Vec<&Value> = objs.iter().collect();
    let p = resource_replicas(current, target, &refs, Ok(&samples), sim_unix(NOW)).unwrap();
    (p.replicas, p.utilization)
}

/// Why, the current replicas, the target, the pods, and what the source computes: the
/// replicas and the utilization it reports.
type Row = (&'static str, i32, Target, Vec<P>, i32, Option<i32>);

#[test]
fn replica_counts_follow_the_source() {
    use Target::{AverageValue, Utilization};
    let rows: Vec<Row> = vec![
        (
            "3 pods at 100% of request, target 50%: ratio 2, ceil(2 x 3) = 6",
            3,
            Utilization(50),
            vec![old(100), old(100), old(100)],
            6,
            Some(100),
        ),
        (
            "72% against 80%: |1 - 0.9| = 0.09999999999999998, within the 0.1 tolerance",
            4,
            Utilization(80),
            vec![old(72), old(72), old(72), old(72)],
            4,
            Some(72),
        ),
        (
            "88% against 80%: |1 - 1.1| = 0.10000000000000009, outside it in 1.32: ceil(1.1 x 4)",
            4,
            Utilization(80),
            vec![old(88), old(88), old(88), old(88)],
            5,
            Some(88),
        ),
        (
            "utilization is truncated first: 100m+100m+101m of 300m is 100%, not 100.33%",
            3,
            Utilization(100),
            vec![old(100), old(100), old(101)],
            3,
            Some(100),
        ),
        (
            "145% against 70% on 14 pods: 145/70 x 14 = 29.000000000000004, so 30",
            14,
            Utilization(70),
            (0..14).map(|_| old(145)).collect(),
            30,
            Some(145),
        ),
        (
            "a scale-down assumes a pod without metrics at 100% of its request: \
             (20+20+100)/300 = 46% of 50% -> 0.92, within tolerance, so 3 stay",
            3,
            Utilization(50),
            vec![
                old(20),
                old(20),
                P {
                    usage: None,
                    ..old(0)
                },
            ],
            3,
            Some(20),
        ),
        (
            "a scale-up assumes a pod without metrics at 0%: (200+200+0)/300 = 133% of \
             50% -> ceil(2.66 x 3) = 8",
            3,
            Utilization(50),
            vec![
                old(200),
                old(200),
                P {
                    usage: None,
                    ..old(0)
                },
            ],
            8,
            Some(200),
        ),
        (
            "a pod started 20 s ago whose sample began before it was Ready is unready; on a \
             scale-up it counts as 0%: (150+150+0)/300 = 100% of 50% -> ceil(2 x 3) = 6",
            3,
            Utilization(50),
            vec![
                old(150),
                old(150),
                P {
                    request: "100m",
                    started: NOW - 20,
                    ready_at: NOW - 12,
                    ready: true,
                    usage: Some(400),
                },
            ],
            6,
            Some(150),
        ),
        (
            "an unready pod's sample is left out of a scale-down and not filled in: \
             (20+20)/200 = 20% of 50%, ceil(0.4 x 2 ready pods) = 1",
            3,
            Utilization(50),
            vec![
                old(20),
                old(20),
                P {
                    request: "100m",
                    started: NOW - 20,
                    ready_at: NOW - 20,
                    ready: false,
                    usage: Some(90),
                },
            ],
            1,
            Some(20),
        ),
        (
            "filling in flips the direction: ratio 1.2 on two pods, but with the third at \
             0% it is 0.8, so nothing changes",
            3,
            Utilization(50),
            vec![
                old(60),
                old(60),
                P {
                    usage: None,
                    ..old(0)
                },
            ],
            3,
            Some(60),
        ),
        (
            "an average value target: 250m against 100m on 2 pods -> ceil(2.5 x 2) = 5",
            2,
            AverageValue(100),
            vec![old(250), old(250)],
            5,
            None,
        ),
    ];
    for (why, current, target, ps, want, util) in rows {
        assert_eq!(decide(current, target, &ps), (want, util), "{why}");
    }
}

#[test]
fn missing_requests_and_missing_metrics_are_errors_in_the_sources_words() {
    let (objs, samples) = pods(&[old(10)]);
    let mut bare = objs[0].clone();
    bare["spec"]["containers"][0]["resources"] = json!({});
    let err = resource_replicas(
        1,
        Target::Utilization(50),
        &[&bare],
        Ok(&samples),
        sim_unix(NOW),
    )
    .unwrap_err();
    assert_eq!(err, "missing request for cpu in container app of Pod web-0");
    let refs: Vec<&Value> = objs.iter().collect();
    let err =
        resource_replicas(1, Target::Utilization(50), &refs, Ok(&[]), sim_unix(NOW)).unwrap_err();
    assert_eq!(
        err,
        "unable to get metrics for resource cpu: no metrics returned from resource metrics API"
    );
}

/// Without `behavior`: the highest recommendation of the last 5 minutes, then at most
/// max(2 x current, 4) a sync, within min and max.
#[test]
fn without_behavior_scale_down_waits_five_minutes_and_scale_up_at_most_doubles() {
    let mut m = Memory::default();
    m.init(4, 0);
    // t=0 recorded 4; a recommendation of 20 from 4 is held to max(2 x 4, 4) = 8.
    let (r, c) = m.normalize((4, 20), (1, 50), 15);
    assert_eq!(r, 8);
    assert_eq!((c[1].2, c[1].1), ("ScaleUpLimit", true));
    // Load falls: 2 is recommended, but 20 (t=15) is within 300 s: hold at 20, capped by
    // the rate from 8: 16.
    let (r, c) = m.normalize((8, 2), (1, 50), 30);
    assert_eq!(r, 16);
    assert_eq!(c[0].2, "ScaleDownStabilized");
    // 300 s after the last high recommendation it may go down.
    let (r, _) = m.normalize((16, 2), (1, 50), 331);
    assert_eq!(r, 2);
}

/// With `behavior`: the scale-up policies bound the change per period, counting what the
/// HPA already added in it; the scale-down window holds the highest recommendation.
#[test]
fn behavior_policies_bound_each_period() {
    let up = Rules::from_json(&json!({
        "stabilizationWindowSeconds": 0, "selectPolicy": "Max",
        "policies": [{"type": "Pods", "value": 2, "periodSeconds": 60}],
    }));
    let down = Rules::from_json(&json!({
        "stabilizationWindowSeconds": 60, "selectPolicy": "Max",
        "policies": [{"type": "Pods", "value": 1, "periodSeconds": 30}],
    }));
    let mut m = Memory::default();
    m.init(3, 0);
    let (r, c) = m.normalize_with_behaviors((3, 9), (2, 10), (&up, &down), 15);
    assert_eq!(r, 5, "3 + 2 pods a minute");
    assert_eq!(c[1].2, "ScaleUpLimit");
    m.store_scale_event(Some((&up, &down)), 3, 5, 15);
    // 30 s later the minute has not passed: the period started at 3, so 3 + 2 = 5 still.
    let (r, _) = m.normalize_with_behaviors((5, 9), (2, 10), (&up, &down), 45);
    assert_eq!(r, 5);
    // After it, two more.
    let (r, _) = m.normalize_with_behaviors((5, 9), (2, 10), (&up, &down), 76);
    assert_eq!(r, 7);
    m.store_scale_event(Some((&up, &down)), 5, 7, 76);
    // Load drops: 9 was recommended within the 60 s window, so 7 stays.
    let (r, c) = m.normalize_with_behaviors((7, 2), (2, 10), (&up, &down), 91);
    assert_eq!(r, 7);
    assert_eq!(c[0].2, "ScaleDownStabilized");
    // Once the window is clear of high recommendations, one pod per 30 s.
    let (r, c) = m.normalize_with_behaviors((7, 2), (2, 10), (&up, &down), 200);
    assert_eq!(r, 6);
    assert_eq!(c[1].2, "ScaleDownLimit");
}
