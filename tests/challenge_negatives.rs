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
    let goals: Vec<String> = q.demo.challenges.iter().map(|c| c.goal.clone()).collect();
    s.set_goals(&goals).unwrap();
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
