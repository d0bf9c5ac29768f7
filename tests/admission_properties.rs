//! Admission under random faults (proptest) on the admission scenario, every webhook set
//! to `failurePolicy: Ignore`: its servers go down, come back, answer slower than their
//! timeout or add labels, while the learner and the controllers write. A webhook that
//! fails open never blocks a write: no request is refused by admission, and kubectl never
//! shows a webhook error.

use kubedrill::sim::session::Session;
use proptest::prelude::*;

const IGNORE: &str = r#"kubectl patch validatingwebhookconfiguration policy --type=json -p '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]'"#;

fn server() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("policy"), Just("team")]
}

fn step() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => server().prop_map(|s| format!("webhook {s} down")),
        2 => server().prop_map(|s| format!("webhook {s} up")),
        2 => (server(), 1u64..20).prop_map(|(s, n)| format!("webhook {s} slow {n}")),
        1 => (server(), 0u8..3).prop_map(|(s, v)| format!("webhook {s} label tier=t{v}")),
        2 => Just("kubectl delete pod -l app=web --wait=false".to_string()),
        1 => (0u8..2).prop_map(|n| format!("kubectl scale deploy policy --replicas={n}")),
        1 => (0u8..2).prop_map(|n| format!("kubectl scale deploy team --replicas={n}")),
        2 => (1u8..6).prop_map(|n| format!("kubectl scale deploy web --replicas={n}")),
        1 => (0u8..4).prop_map(|n| format!("kubectl create deployment api{n} --image=nginx")),
        1 => Just("kubectl apply -f web.yaml".to_string()),
        1 => (0u8..3).prop_map(|n| format!("kubectl label deploy web --overwrite tier=t{n}")),
        4 => (1u64..20).prop_map(|n| format!("tick {n}")),
    ]
}

fn check(s: &Session, after: &str, printed: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        s.cluster.api.admission.refused,
        0,
        "after {}: admission refused a request with every webhook failing open",
        after
    );
    prop_assert!(
        !printed.contains("failed calling webhook"),
        "after {after}: kubectl showed a webhook error: {printed}"
    );
    Ok(())
}

/// The scenario with both webhooks failing open: policy (validating, patched to Ignore)
/// and team (mutating, on Deployments and pods).
fn failing_open() -> Session {
    let mut s = Session::new("admission", 1).unwrap();
    for line in [
        IGNORE,
        "webhook add mutating team on deployments,pods ignore timeout 3",
        "tick 5",
    ] {
        let out = s.run_line(line);
        assert!(out.stderr.is_empty(), "{line}: {}", out.stderr);
    }
    assert_eq!(
        s.webhook_report().matches("failurePolicy Ignore").count(),
        2
    );
    s
}

fn run(steps: &[String]) -> Result<(), TestCaseError> {
    let mut s = failing_open();
    for st in steps {
        if let Some(n) = st.strip_prefix("tick ").and_then(|n| n.parse::<u64>().ok()) {
            for _ in 0..n {
                s.run_line("tick 1");
                check(&s, st, "")?;
            }
        } else {
            let out = s.run_line(st);
            check(&s, st, &out.stderr)?;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_webhook_that_fails_open_never_blocks_a_write(steps in prop::collection::vec(step(), 1..25)) {
        run(&steps)?;
    }
}

/// The check fails when it should: the same fault under `failurePolicy: Fail` refuses
/// the pods web needs, and kubectl's own write shows the webhook error.
#[test]
fn a_webhook_that_fails_closed_is_caught() {
    let mut s = Session::new("admission", 1).unwrap();
    s.run_line("webhook policy down");
    s.run_line("kubectl delete pod -l app=web --wait=false");
    s.run_line("tick 2");
    assert!(check(&s, "down", "").is_err());
    let mut s = Session::new("admission", 1).unwrap();
    s.run_line("webhook policy down");
    s.run_line("kubectl create deployment api --image=nginx");
    s.run_line("tick 3");
    assert!(s.cluster.api.admission.refused > 0);
    assert!(
        s.run_line("kubectl get deploy api").stdout.contains("0/1"),
        "the Deployment exists, its pod does not"
    );
}
