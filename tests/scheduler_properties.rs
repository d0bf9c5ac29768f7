//! The scheduler's promises under random command streams (proptest) on the scheduling
//! scenario: no pod is ever bound to a node it does not fit (the requests of the pods on
//! a node never exceed its allocatable), to a node whose NoSchedule or NoExecute taints it
//! does not tolerate, or to one its nodeSelector does not match; and a pod left unbound
//! has a reason on record (PodScheduled False, Unschedulable). The scheduler's cache of
//! what each node holds always equals a fresh sum.

use kubedrill::sim::controllers::scheduler::requests;
use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use kubedrill::sim::taints;
use proptest::prelude::*;
use serde_json::Value;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..14).prop_map(|n| format!("kubectl scale deploy web --replicas={n}")),
        Just("kubectl delete pods -l app=web --wait=false".to_string()),
        Just("kubectl patch deploy web --type=merge -p '{\"spec\":{\"template\":{\"spec\":{\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}]}}}}'".to_string()),
        Just("kubectl patch deploy web --type=merge -p '{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"disktype\":\"ssd\"}}}}}'".to_string()),
        Just("kubectl patch deploy web --type=json -p '[{\"op\":\"remove\",\"path\":\"/spec/template/spec/nodeSelector\"}]'".to_string()),
        (1u32..4).prop_map(|n| format!("kubectl patch deploy web --type=json -p '[{{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/resources/requests/cpu\",\"value\":\"{}m\"}}]'", 250 * n)),
        Just("pause scheduler".to_string()),
        Just("resume scheduler".to_string()),
        Just("crash scheduler".to_string()),
        Just("restart scheduler".to_string()),
        (1u64..8).prop_map(|n| format!("tick {n}")),
    ]
}

fn tolerated(pod: &Value, taint: &Value) -> bool {
    taints::tolerates(taints::of_pod(&pod["spec"]), taint)
}

fn check(lines: &[String]) -> Result<(), TestCaseError> {
    let mut s = Session::new("scheduling", 1).unwrap();
    for l in lines {
        s.run_line(l);
        prop_assert!(
            s.cluster.scheduler.cache_is_consistent(),
            "the scheduler's cache of what each node holds drifted from a fresh sum after `{l}`"
        );
        let nodes: Vec<Value> = s.cluster.api.list(Kind::Node).cloned().collect();
        let pods: Vec<Value> = s.cluster.api.list(Kind::Pod).cloned().collect();
        for node in &nodes {
            let name = node["metadata"]["name"].as_str().unwrap_or("");
            let on: Vec<&Value> = pods
                .iter()
                .filter(|p| p["spec"]["nodeName"] == name)
                .filter(|p| !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed")))
                .collect();
            let cpu: i128 = on.iter().map(|p| requests(&p["spec"]).cpu_milli).sum();
            prop_assert!(cpu <= 2000, "{name} holds {cpu}m of 2000m after `{l}`");
            for p in &on {
                let taints = node["spec"]["taints"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                for t in taints.iter().filter(|t| t["effect"] != "PreferNoSchedule") {
                    prop_assert!(
                        tolerated(p, t),
                        "{} on {name} does not tolerate {t} after `{l}`",
                        p["metadata"]["name"]
                    );
                }
                if let Some(sel) = p["spec"]["nodeSelector"].as_object() {
                    for (k, v) in sel {
                        prop_assert_eq!(
                            &node["metadata"]["labels"][k],
                            v,
                            "{} on {} after `{}`",
                            p["metadata"]["name"],
                            name,
                            l
                        );
                    }
                }
            }
        }
    }
    // Once the scheduler has run, an unbound pod says why.
    s.run_line("resume scheduler");
    s.run_line("tick 2");
    for p in s.cluster.api.list(Kind::Pod) {
        if p["spec"]["nodeName"].is_null() && p["metadata"]["deletionTimestamp"].is_null() {
            let cond = p["status"]["conditions"]
                .as_array()
                .and_then(|c| c.iter().find(|c| c["type"] == "PodScheduled"));
            prop_assert!(
                cond.is_some_and(|c| c["reason"] == "Unschedulable"),
                "{} is unbound with no reason: {}",
                p["metadata"]["name"],
                p["status"]
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn no_pod_lands_where_it_does_not_fit_or_is_not_tolerated(
        lines in prop::collection::vec(line(), 1..20)
    ) {
        check(&lines)?;
    }
}
