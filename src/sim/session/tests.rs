//! Tests of `session`.

use super::*;
use crate::sim::goal::{CallArg, Facts, Func};

fn replicas(s: &mut Session) -> String {
    s.run_line("kubectl get deploy web -o jsonpath='{.spec.replicas}'")
        .stdout
}

#[test]
fn a_paused_autoscaler_queues_its_hpa_and_scales_once_resumed() {
    let mut s = Session::new("field-fight", 1).unwrap();
    s.run_line("autoscaler 5");
    s.run_line("pause autoscaler");
    s.run_line("tick 30");
    assert_eq!(replicas(&mut s), "3", "a paused autoscaler must not write");
    assert_eq!(s.component_state(Component::Autoscaler), "paused");
    assert!(
        s.status_text()
            .contains("autoscaler         paused  level-triggered  queue 1"),
        "{}",
        s.status_text()
    );
    s.run_line("resume autoscaler");
    assert_eq!(s.component_state(Component::Autoscaler), "running");
    s.run_line("tick 1");
    assert_eq!(replicas(&mut s), "5");
}

#[test]
fn crashed_gitops_restarts_with_its_file() {
    let mut s = Session::new("field-fight", 1).unwrap();
    s.run_line("gitops every 10 client-side");
    s.run_line("tick 2");
    s.run_line("crash gitops");
    s.run_line("kubectl scale deploy web --replicas=7");
    s.run_line("tick 30");
    assert_eq!(replicas(&mut s), "7", "a crashed syncer must not write");
    assert!(
        s.status_text()
            .contains("gitops             crashed  gitops.yaml every 10s")
    );
    s.run_line("restart gitops");
    s.run_line("tick 1");
    assert_eq!(replicas(&mut s), "3");
}

const FORCE_WARNING: &str = "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n";

#[test]
fn apply_warns_of_the_missing_annotation_before_it_patches() {
    let mut s = Session::new("apply-semantics", 1).unwrap();
    s.run_line("kubectl replace -f web-minimal.yaml");
    let o = s.run_line("kubectl apply -f web.yaml");
    let chunks = o.chunks();
    assert_eq!(chunks.len(), 2, "{chunks:?}");
    assert!(
        chunks[0].0
            && chunks[0]
                .1
                .starts_with("Warning: resource deployments/web is missing")
    );
    assert_eq!(chunks[1], (false, "deployment.apps/web configured\n"));
}

#[test]
fn delete_warns_first_and_reports_errors_last() {
    let mut s = Session::new("self-healing", 1).unwrap();
    let pod = s.run_line("kubectl get pods -o name").stdout;
    let pod = pod
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("pod/")
        .to_string();
    let o = s.run_line(&format!(
        "kubectl delete pod nope {pod} --grace-period=0 --force --cascade=true"
    ));
    let deleted = format!("pod \"{pod}\" force deleted\n");
    assert_eq!(
        o.chunks(),
        vec![
            (
                true,
                "warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.\n"
            ),
            (true, FORCE_WARNING),
            (false, deleted.as_str()),
            (
                true,
                "Error from server (NotFound): pods \"nope\" not found\n"
            ),
        ]
    );
}

#[test]
fn resuming_a_writer_that_is_off_says_how_to_start_it() {
    let mut s = Session::new("field-fight", 1).unwrap();
    let o = s.run_line("resume gitops");
    assert_eq!(
        o.stderr,
        "error: the GitOps syncer is off; `gitops every N` starts it\n"
    );
    assert_eq!(s.component_state(Component::Gitops), "off");
}

#[test]
fn a_goal_that_held_only_while_kubectl_waited_is_met() {
    let mut s = Session::new("self-healing", 1).unwrap();
    s.set_goals(["pods(\"terminating\") >= 1"]).unwrap();
    let pod = s.run_line("kubectl get pods -o name").stdout;
    let pod = pod.lines().next().unwrap().to_string();
    let t0 = s.now();
    // Deleting a pod waits out its 30 s grace period: it is terminating meanwhile, and
    // gone when the command returns.
    let o = s.run_line(&format!("kubectl delete {pod}"));
    assert!(o.stderr.is_empty(), "{o:?}");
    assert!(s.now() > t0, "the delete waited");
    assert_eq!(
        s.run_line("kubectl get pods -o name")
            .stdout
            .lines()
            .count(),
        3
    );
    assert_eq!(s.call(Func::Pods, &[CallArg::Str("terminating".into())]), 0);
    assert_eq!(s.met(), [true]);
}

#[test]
fn a_restored_snapshot_replays_the_same_future() {
    let mut s = Session::new("self-healing", 3).unwrap();
    s.run_line("snapshot a");
    let run = |s: &mut Session| {
        s.run_line("kubectl scale deploy web --replicas=5");
        s.run_line("tick 4");
        s.run_line("kubectl get pods -o name").stdout
    };
    let first = run(&mut s);
    assert!(s.run_line("restore a").stderr.is_empty());
    assert_eq!(s.elapsed(), 0);
    // Same pod names: the generator was copied with the cluster, mid-sequence.
    assert_eq!(run(&mut s), first);
}

#[test]
fn reset_keeps_what_met_each_challenge_and_the_replay_skips_it() {
    let mut s = Session::new("self-healing", 1).unwrap();
    s.set_goals(["deploy.spec.replicas == 5"]).unwrap();
    s.run_line("tick 2");
    s.run_line("k scale deploy web --replicas=5");
    let met = Some(Met {
        at: 2,
        after: Some("kubectl scale deploy web --replicas=5".into()),
    });
    assert_eq!(s.met_by(), std::slice::from_ref(&met));
    s.run_line("reset");
    assert_eq!(replicas(&mut s), "3");
    assert_eq!((s.met(), s.met_by()), (&[true][..], &[met][..]));
    assert!(!s.export_script().contains("reset"));
}

#[test]
fn writes_between_two_seconds_do_not_pile_up_in_the_watch_log() {
    let mut s = Session::new("spec-status", 1).unwrap();
    for i in 0..300 {
        s.run_line(&format!("kubectl label deploy web l{i}=x"));
    }
    // Every watcher (the controllers' informers, the kubelet) has read them: none is kept.
    let kept = s.cluster.api.events_since(0).count();
    assert!(kept < 10, "{kept} watch events kept");
}

/// Events go an hour after they were last seen (`--event-ttl`), core/v1 ones by their
/// lastTimestamp and the scheduler's events/v1 ones by their eventTime, while newer ones
/// stay.
#[test]
fn events_expire_an_hour_after_they_were_last_seen() {
    let mut s = Session::new("self-healing", 1).unwrap();
    let count = |s: &Session, reason: &str| {
        s.cluster
            .api
            .list(Kind::Event)
            .filter(|e| e["reason"] == reason)
            .count()
    };
    assert_eq!(count(&s, "Scheduled"), 3);
    assert_eq!(count(&s, "SuccessfulCreate"), 3);
    s.run_line("tick 1800");
    s.run_line("kubectl delete pods -l app=web --wait=false");
    s.run_line("tick 1790");
    assert_eq!(count(&s, "Scheduled"), 6, "nothing is an hour old yet");
    s.run_line("tick 120");
    assert_eq!(count(&s, "Scheduled"), 3, "the first pods' events are gone");
    assert_eq!(count(&s, "SuccessfulCreate"), 3);
    s.run_line("tick 1800");
    assert_eq!(count(&s, "Scheduled"), 0);
}
