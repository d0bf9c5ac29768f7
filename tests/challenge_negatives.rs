//! Challenges that could be met the wrong way are not: for each, a plausible script that
//! misses the point leaves the challenge unmet (the scripts that meet them are in
//! tests/fixtures/challenges/).

use kubedrill::content::{self, Question};
use kubedrill::sim::catalog::SimCatalog;
use kubedrill::sim::session::Session;

fn question(id: &str) -> Question {
    let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
    assert!(loaded.is_clean(), "{}", loaded.render(false));
    loaded.deck.question(id).expect("shipped question").clone()
}

/// Runs the question's setup, then `script`, and returns which challenges are met.
fn met_after(id: &str, script: &[&str]) -> Vec<bool> {
    let q = question(id);
    let mut s = Session::new(&q.demo.scenario, 1).unwrap();
    for l in &q.demo.setup {
        s.run_line(l);
    }
    let goals = q.demo.challenges.iter().map(|c| c.goal.as_str());
    s.set_goals(goals).unwrap();
    for l in script {
        s.run_line(l);
    }
    s.met().to_vec()
}

#[test]
fn a_background_delete_is_not_a_foreground_one() {
    let met = met_after(
        "cascading-deletion",
        &["kubectl delete deploy web", "tick 40"],
    );
    assert_eq!(met, [false, false, false]);
}

#[test]
fn recreating_after_a_cascading_delete_starts_new_pods_and_does_not_count_as_adoption() {
    let met = met_after(
        "cascading-deletion",
        &[
            "kubectl delete deploy web",
            "kubectl create -f web.yaml",
            "tick 40",
        ],
    );
    assert!(!met[2]);
}

#[test]
fn without_a_deletion_cost_the_two_new_pods_go() {
    let met = met_after(
        "scale-down-victims",
        &[
            "kubectl scale deploy web --replicas=5",
            "tick 5",
            "kubectl annotate pod web-85cc69484d-b9z74 controller.kubernetes.io/pod-deletion-cost=-5",
            "kubectl scale deploy web --replicas=3",
            "tick 5",
        ],
    );
    // Marking an old pod as cheap loses it and one new pod: two survivors but the marked
    // pod is gone, so the goal (a marked pod still there) is not met.
    assert!(!met[1]);
    let met = met_after(
        "scale-down-victims",
        &[
            "kubectl scale deploy web --replicas=5",
            "tick 5",
            "kubectl scale deploy web --replicas=3",
            "tick 5",
        ],
    );
    assert_eq!(met, [false, false]);
}

#[test]
fn a_good_image_change_is_not_a_recovered_stuck_rollout() {
    let met = met_after(
        "progress-deadline",
        &["kubectl set image deploy/web app=nginx:1.28", "tick 700"],
    );
    assert_eq!(met, [false, false, false]);
}

#[test]
fn deleting_without_a_finalizer_holds_nothing() {
    let met = met_after(
        "finalizers-stuck-deletion",
        &["kubectl delete deploy web", "tick 40"],
    );
    assert_eq!(met, [false, false, false]);
}

#[test]
fn a_rollout_with_the_default_surge_does_not_count_as_surge_free() {
    let met = met_after(
        "rolling-update-surge-unavailable",
        &["kubectl set image deploy/web app=nginx:1.28", "tick 30"],
    );
    assert_eq!(met, [true, false, false]);
}

#[test]
fn without_min_ready_seconds_ready_and_available_agree() {
    let met = met_after(
        "min-ready-seconds",
        &["kubectl set image deploy/web app=nginx:1.28", "tick 30"],
    );
    assert_eq!(met, [false, false]);
}

#[test]
fn an_ordinary_delete_is_not_a_delete_while_the_controller_is_down() {
    let met = met_after(
        "deleted-pod-returns",
        &["kubectl delete pods -l app=web", "tick 10"],
    );
    assert!(met[0], "the plain delete-and-return challenge is met");
    assert!(!met[3] && !met[4], "{met:?}");
    // Crashing and restarting first, then deleting, is still not a delete while down.
    let met = met_after(
        "deleted-pod-returns",
        &[
            "crash replicaset",
            "restart replicaset",
            "kubectl delete pods -l app=web",
            "tick 10",
        ],
    );
    assert!(!met[3], "{met:?}");
}

#[test]
fn catching_up_needs_the_controller_to_have_fallen_behind() {
    // An edit the running controller processes at once is not catching up.
    let met = met_after(
        "spec-vs-status",
        &["kubectl scale deploy web --replicas=5", "tick 5"],
    );
    assert_eq!(met, [false, false, false]);
    // Paused, edited, resumed: behind, then caught up.
    let met = met_after(
        "spec-vs-status",
        &[
            "pause deployment",
            "kubectl scale deploy web --replicas=5",
            "resume deployment",
            "tick 5",
        ],
    );
    assert!(met[0] && met[2], "{met:?}");
}

#[test]
fn the_rollout_that_adds_the_prestop_sleep_is_not_a_clean_rollout() {
    // Adding the hook under load drops requests: the pods it replaces have no hook.
    let met = met_after(
        "rollout-drops-requests",
        &[
            "traffic 30",
            "tick 5",
            "kubectl apply -f web-prestop.yaml",
            "tick 40",
        ],
    );
    assert_eq!(met, [true, false]);
    // Restarting the count after the rollout, or part-way through it, proves nothing.
    for script in [
        &[
            "kubectl apply -f web-prestop.yaml",
            "tick 30",
            "traffic 30",
            "tick 40",
        ][..],
        &[
            "kubectl apply -f web-prestop.yaml",
            "tick 30",
            "kubectl set image deploy/web app=nginx:1.28",
            "tick 8",
            "traffic 30",
            "tick 40",
        ][..],
    ] {
        assert!(
            !met_after("rollout-drops-requests", script)[1],
            "{script:?}"
        );
    }
}

#[test]
fn pods_that_exit_on_sigterm_leave_nothing_to_fall_back_to() {
    let met = met_after(
        "endpointslice-conditions",
        &[
            "traffic 30",
            "tick 2",
            "kubectl delete pods -l app=web --wait=false",
            "tick 10",
        ],
    );
    assert_eq!(met, [false, false]);
}

#[test]
fn a_drain_is_clean_only_under_load_the_prestop_sleep_covers() {
    // The proxies slower than the 5 s sleep: the evicted pod drops requests.
    let met = met_after(
        "zero-downtime-shutdown",
        &[
            "traffic 30 web delay 8",
            "tick 10",
            "kubectl drain node-1 --ignore-daemonsets",
            "tick 40",
        ],
    );
    assert!(!met[1], "{met:?}");
    // Load started after the drain measured nothing about it.
    let met = met_after(
        "zero-downtime-shutdown",
        &[
            "kubectl drain node-1 --ignore-daemonsets",
            "traffic 30",
            "tick 60",
        ],
    );
    assert_eq!(met, [false, false]);
}

#[test]
fn without_min_ready_seconds_the_service_and_the_deployment_agree() {
    let met = met_after(
        "ready-without-readiness-probe",
        &["kubectl scale deploy web --replicas=4", "tick 3"],
    );
    assert_eq!(met, [true, false]);
}

#[test]
fn deleting_a_pod_does_not_take_it_out_of_the_service() {
    let met = met_after(
        "service-finds-pods",
        &[
            "kubectl apply -f service.yaml",
            "tick 2",
            "kubectl delete pod web-77666df665-767ch",
            "tick 3",
        ],
    );
    assert_eq!(met, [false, false, false]);
}

/// A fast app with no startup probe rolls out without restarts too, but that is not the
/// startup probe at work; and a pod that is ready after all does not show a stuck rollout.
#[test]
fn the_probe_challenges_need_the_probe_they_name() {
    let met = met_after(
        "readiness-liveness-startup",
        &["kubectl apply -f no-readiness.yaml", "tick 120"],
    );
    assert_eq!(met, [false, false, false]);
    // A crash loop that a startup probe then ends meets the first two, not the third.
    let met = met_after(
        "readiness-liveness-startup",
        &[
            "kubectl apply -f slow-liveness.yaml",
            "tick 70",
            "kubectl apply -f slow-startup.yaml",
            "tick 240",
        ],
    );
    assert_eq!(met, [true, true, false]);
}

/// A broken StatefulSet rollout needs both steps: a rollback alone leaves web-2 broken,
/// and deleting web-2 without one brings it back broken.
#[test]
fn a_stuck_statefulset_needs_the_rollback_and_the_delete() {
    let broken = ["kubectl set image sts/web app=nginx:nonexistent", "tick 30"];
    let undo_only: Vec<&str> = broken
        .iter()
        .copied()
        .chain(["kubectl rollout undo sts/web", "tick 120"])
        .collect();
    assert_eq!(
        met_after("statefulset-stuck-rollout", &undo_only),
        [true, false]
    );
    let delete_only: Vec<&str> = broken
        .iter()
        .copied()
        .chain(["kubectl delete pod web-2", "tick 120"])
        .collect();
    assert_eq!(
        met_after("statefulset-stuck-rollout", &delete_only),
        [true, false]
    );
}

/// A scale-down and up recreates web-2 too, but that is not a deleted pod coming back;
/// and a canary left at partition 2 is not a finished rollout.
#[test]
fn statefulset_identity_and_rollout_challenges_need_their_own_steps() {
    let met = met_after(
        "statefulset-identity",
        &[
            "kubectl scale sts web --replicas=2",
            "tick 3",
            "kubectl scale sts web --replicas=3",
            "tick 5",
        ],
    );
    assert_eq!(met, [false, false]);
    let met = met_after(
        "statefulset-rolling-update",
        &[
            "kubectl patch sts web -p '{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"partition\":2}}}}'",
            "kubectl set image sts/web app=nginx:1.28",
            "tick 30",
        ],
    );
    assert_eq!(met, [false, true, false]);
}

/// Without the Delete policy a scale-down leaves the claims; and bringing the node back
/// recovers web-1 without the force the second node-failure challenge asks for.
#[test]
fn claims_stay_without_the_policy_and_node_up_is_not_a_forced_recovery() {
    let met = met_after(
        "statefulset-volume-lifecycle",
        &["kubectl scale sts web --replicas=2", "tick 5"],
    );
    assert_eq!(met, [false, false]);
    let met = met_after(
        "statefulset-node-failure",
        &["node-down node-2", "tick 400", "node-up node-2", "tick 30"],
    );
    assert_eq!(met, [true, false]);
}

/// A maxUnavailable rollout never has two live agents on a node, and a cordon is no
/// NoExecute taint.
#[test]
fn daemonset_challenges_need_the_surge_and_the_noexecute_taint() {
    let met = met_after(
        "daemonset-rolling-update",
        &[
            "kubectl set image ds/agent agent=fluent/fluent-bit:3.2",
            "tick 20",
        ],
    );
    assert_eq!(met, [true, false, false]);
    let met = met_after(
        "daemonset-placement",
        &[
            "kubectl cordon node-1",
            "kubectl taint nodes node-2 maintenance=true:NoSchedule",
            "tick 10",
        ],
    );
    assert_eq!(met, [false, false, false]);
}

/// A refused drain leaves the node cordoned but is no drain; and a node that is only
/// cordoned keeps counting in DESIRED, so nothing is misscheduled.
#[test]
fn a_refused_drain_and_a_cordon_are_not_the_maintenance_challenges() {
    let met = met_after(
        "daemonset-node-maintenance",
        &["kubectl drain node-1", "kubectl cordon node-2", "tick 70"],
    );
    assert_eq!(met, [false, false]);
}

/// A Job that fails by its backoffLimit is neither a pod failure policy's FailJob nor a
/// deadline; a Job that only finishes is no Job made by hand.
#[test]
fn a_job_failing_its_retries_is_not_the_policy_or_the_deadline() {
    let met = met_after(
        "job-failure-policy-and-cleanup",
        &["kubectl apply -f flaky.yaml", "tick 60"],
    );
    assert_eq!(met, [false, false, false]);
    let met = met_after("job-completions-and-retries", &["tick 30"]);
    assert_eq!(met, [true, false, false]);
}

/// Overlapping runs under Allow are no Forbid, and an hour of suspension (60 missed
/// times) is not more than 100.
#[test]
fn allowed_overlaps_and_a_short_suspension_are_not_the_cronjob_challenges() {
    let met = met_after(
        "cronjob-concurrency-and-missed-runs",
        &[
            "kubectl apply -f slow.yaml",
            "tick 200",
            "kubectl apply -f hello.yaml",
            "kubectl patch cj hello -p '{\"spec\":{\"suspend\":true}}'",
            "tick 3600",
            "kubectl patch cj hello -p '{\"spec\":{\"suspend\":false}}'",
            "tick 1",
        ],
    );
    assert_eq!(met[1..], [false, false]);
}

/// Scaling web by hand is undone by the HPA at its next sync, and a load that moves it to
/// four is no swing kept inside the tolerance.
#[test]
fn scaling_by_hand_or_too_much_load_is_not_the_hpa_arithmetic() {
    let met = met_after(
        "hpa-algorithm",
        &["kubectl scale deploy web --replicas=4", "tick 90"],
    );
    assert_eq!(met, [false, false, false]);
    let met = met_after("hpa-algorithm", &["metrics web load 400m", "tick 90"]);
    assert_eq!(met, [true, true, false]);
}

/// The legacy rate limit says ScaleUpLimit too, but without a behavior of the learner's
/// own; and a metrics-server that merely reports less is no failing metric.
#[test]
fn the_legacy_limit_and_a_quiet_load_are_not_behavior_or_failure() {
    let met = met_after(
        "hpa-stabilization-and-behavior",
        &["metrics web load 5000m", "tick 30"],
    );
    assert_eq!(met[1..], [false, false]);
    let met = met_after("hpa-not-scaling", &["metrics web idle", "tick 60"]);
    assert_eq!(met, [false, false, false]);
}

/// A webhook that denies is no webhook that is down, and failing open needs a call that
/// failed: switching to Ignore while the server answers meets nothing.
#[test]
fn a_denial_or_an_idle_ignore_is_not_a_webhook_outage() {
    let met = met_after(
        "admission-webhook-down",
        &[
            "webhook policy deny pods need limits",
            "kubectl delete pod -l app=web --wait=false",
            "tick 3",
        ],
    );
    assert_eq!(met, [false, false, false]);
    let met = met_after(
        "admission-webhook-down",
        &[
            r#"kubectl patch validatingwebhookconfiguration policy --type=json -p '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]'"#,
            "kubectl delete pod -l app=web --wait=false",
            "tick 3",
        ],
    );
    assert_eq!(met, [false, false, false]);
}

/// Scaling past the cap without the policy ever refusing anything is not the challenge,
/// nor is a refusal the learner then respects.
#[test]
fn a_scale_without_a_refusal_or_a_refusal_without_a_scale_is_not_the_policy_bypass() {
    let met = met_after(
        "admission-chain",
        &[
            "kubectl apply -f max-replicas.yaml",
            "kubectl scale deploy web --replicas=8",
        ],
    );
    assert!(!met[3]);
    let met = met_after(
        "admission-chain",
        &[
            "kubectl apply -f max-replicas.yaml",
            r#"kubectl patch deploy web -p '{"spec":{"replicas":9}}'"#,
        ],
    );
    assert!(!met[3]);
}

/// A spec change the running operator processes is no stale report, and the status-update
/// bug with the operator down is only a stopped operator, not status dropped by the API
/// server.
#[test]
fn a_processed_change_or_a_bug_with_the_operator_down_is_not_a_stale_or_dropped_status() {
    let met = met_after(
        "operator-status-conditions",
        &[
            r#"kubectl patch webapp shop --type merge -p '{"spec":{"replicas":3}}'"#,
            "tick 10",
        ],
    );
    assert_eq!(met, [false, true, false]);
    let met = met_after(
        "operator-status-conditions",
        &[
            "kubectl scale deploy webapp-operator --replicas=0",
            "tick 3",
            "operator bug status-update",
            r#"kubectl patch webapp shop --type merge -p '{"spec":{"replicas":3}}'"#,
            "tick 15",
        ],
    );
    assert_eq!(met, [true, false, false]);
}

/// Removing v1 without migrating shop is no safe retirement, nor is a clean removal that
/// leaves the operator's client on v1: it stops reconciling, and observedGeneration stays.
#[test]
fn removing_v1_unmigrated_or_with_the_operator_on_v1_is_not_a_safe_retirement() {
    let met = met_after(
        "crd-versioning",
        &[
            "kubectl apply -f webapp-crd-v2.yaml",
            r#"kubectl patch crd webapps.example.com --subresource=status --type=json -p '[{"op":"replace","path":"/status/storedVersions","value":["v2"]}]'"#,
            "operator use v2",
            "kubectl apply -f webapp-crd-v2-only.yaml",
            r#"kubectl patch webapp shop --type merge -p '{"spec":{"tls":true}}'"#,
            "tick 20",
        ],
    );
    assert!(!met[2], "{met:?}");
    let met = met_after(
        "crd-versioning",
        &[
            "kubectl apply -f webapp-crd-v2.yaml",
            "kubectl annotate webapp shop migrated=v2",
            "tick 2",
            r#"kubectl patch crd webapps.example.com --subresource=status --type=json -p '[{"op":"replace","path":"/status/storedVersions","value":["v2"]}]'"#,
            "kubectl apply -f webapp-crd-v2-only.yaml",
            r#"kubectl patch webapp shop --type merge -p '{"spec":{"tls":true}}'"#,
            "tick 20",
        ],
    );
    assert!(!met[2], "{met:?}");
}

/// A hot-loop build with the operator scaled to zero sends nothing: no load, so nothing to
/// find or to fix.
#[test]
fn a_hot_loop_with_the_operator_down_is_no_load() {
    let met = met_after(
        "operator-api-load",
        &[
            "kubectl scale deploy webapp-operator --replicas=0",
            "tick 3",
            "operator bug hot-loop",
            "tick 15",
            "operator fix hot-loop",
            "tick 15",
        ],
    );
    assert_eq!(met, [false, false, false]);
}

/// Deleting shop while the operator runs is no deletion held for a missing operator, and
/// the no-finalizer build leaks nothing while the operator is down: nothing created a
/// record for blog.
#[test]
fn an_ordinary_delete_or_a_bug_with_the_operator_down_holds_and_leaks_nothing() {
    let met = met_after(
        "operator-finalizers",
        &["kubectl delete webapp shop", "tick 5"],
    );
    assert_eq!(met, [false, false, false]);
    let met = met_after(
        "operator-finalizers",
        &[
            "kubectl scale deploy webapp-operator --replicas=0",
            "tick 3",
            "operator bug no-finalizer",
            "kubectl apply -f blog.yaml",
            "tick 3",
            "kubectl delete webapp blog",
            "tick 3",
        ],
    );
    assert_eq!(met, [false, false, false]);
}
