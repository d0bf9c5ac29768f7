//! Jobs under random command streams (proptest) on the jobs scenario, with every
//! controller running: the Job controller never has more of a Job's pods active (not
//! finished, not being deleted) than its parallelism; checked at every pod creation in
//! the API server's watch log, against the Job's spec as of that write.

mod watch_support;

use std::collections::HashMap;

use kubedrill::sim::api::EventType;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use proptest::prelude::*;
use serde_json::Value;

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop_oneof![
            Just("batch.yaml"),
            Just("flaky.yaml"),
            Just("restarts.yaml"),
            Just("deadline.yaml"),
            Just("exit-codes.yaml"),
            Just("cleanup.yaml"),
        ]
        .prop_map(|f| format!("kubectl apply -f {f}")),
        2 => (0u32..5).prop_map(|n| format!(
            "kubectl patch job batch -p '{{\"spec\":{{\"parallelism\":{n}}}}}'"
        )),
        1 => prop_oneof![Just("true"), Just("false")].prop_map(|b| format!(
            "kubectl patch job batch -p '{{\"spec\":{{\"suspend\":{b}}}}}'"
        )),
        1 => Just("kubectl delete pod -l job-name=batch --wait=false".to_string()),
        1 => Just("kubectl delete job batch --wait=false".to_string()),
        1 => (1u32..4).prop_map(|n| format!("node-down node-{n}")),
        1 => (1u32..4).prop_map(|n| format!("node-up node-{n}")),
        1 => prop_oneof![Just("pause"), Just("resume"), Just("crash"), Just("restart")]
            .prop_map(|v| format!("{v} job")),
        3 => (1u64..8).prop_map(|n| format!("tick {n}")),
        1 => Just("tick 40".to_string()),
    ]
}

fn active(p: &Value) -> bool {
    p["metadata"]["deletionTimestamp"].is_null()
        && !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed"))
}

fn owner(p: &Value) -> String {
    p.pointer("/metadata/ownerReferences/0/uid")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn check(
    s: &Session,
    from: u64,
    pods: &mut HashMap<String, Value>,
    parallelism: &mut HashMap<String, i64>,
    after: &str,
) -> Result<(), TestCaseError> {
    for e in s.cluster.api.events_since(from) {
        let v = e.object.value();
        if e.kind == Kind::Job {
            let uid = v["metadata"]["uid"].as_str().unwrap_or("").to_string();
            let p = v["spec"]["parallelism"].as_i64().unwrap_or(1);
            parallelism.insert(uid, p);
            continue;
        }
        if e.kind != Kind::Pod {
            continue;
        }
        let name = watch_support::name(v);
        if e.event == EventType::Deleted {
            pods.remove(&name);
            continue;
        }
        pods.insert(name.clone(), v.clone());
        if e.event == EventType::Added {
            let job = owner(v);
            let Some(most) = parallelism.get(&job) else {
                continue;
            };
            let running = pods
                .values()
                .filter(|q| active(q) && owner(q) == job)
                .count() as i64;
            prop_assert!(
                running <= *most,
                "after {after}: {name} made {running} active pods for a Job of parallelism {most}"
            );
        }
    }
    Ok(())
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("jobs", 1).unwrap();
    let mut pods = watch_support::pods_by_name(&s);
    let mut parallelism: HashMap<String, i64> = s
        .objects(Kind::Job)
        .map(|j| {
            (
                j["metadata"]["uid"].as_str().unwrap_or("").to_string(),
                j["spec"]["parallelism"].as_i64().unwrap_or(1),
            )
        })
        .collect();
    for st in steps {
        let from = watch_support::run_watched(&mut s, st);
        check(&s, from, &mut pods, &mut parallelism, st)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_job_never_runs_more_pods_than_its_parallelism(steps in prop::collection::vec(step(), 1..30)) {
        run(&steps)?;
    }
}

/// The check fails when it should: a Job whose parallelism is lowered while its pods
/// run has more active pods than the new value for a moment, and a pod created then
/// would be caught; here the pods stay, so the replay sees the count exceed it.
#[test]
fn the_count_sees_every_active_pod_of_a_job() {
    let mut s = Session::new("jobs", 1).unwrap();
    let mut pods = watch_support::pods_by_name(&s);
    let job = s.object(Kind::Job, "batch").unwrap().clone();
    let uid = job["metadata"]["uid"].as_str().unwrap().to_string();
    // As if the Job allowed one pod: its two running pods already exceed that, and the
    // next pod it creates (after the first two finish, in the warm-up's 5 s) is checked.
    let mut parallelism = HashMap::from([(uid, 0)]);
    let from = watch_support::run_watched(&mut s, "tick 10");
    assert!(check(&s, from, &mut pods, &mut parallelism, "tick 10").is_err());
}
