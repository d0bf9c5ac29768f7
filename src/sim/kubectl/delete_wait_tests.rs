//! `kubectl delete` waits for the objects to be gone (`--wait`, default true), advancing
//! simulated time; `--timeout` and the demo's cap end the wait with kubectl's error.

use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::session::Session;

use super::args::go_duration_secs;
use super::wait::DELETE_WAIT_CAP;

fn count(s: &Session, k: Kind) -> usize {
    s.cluster.api.list(k).count()
}

#[test]
fn foreground_delete_returns_once_the_dependents_are_gone() {
    let mut s = Session::new("ownership", 1).unwrap();
    let t0 = s.now();
    let o = s.run_line("kubectl delete deploy web --cascade=foreground");
    assert_eq!(o.stdout, "deployment.apps \"web\" deleted\n");
    assert_eq!(o.stderr, "");
    assert_eq!(
        (
            count(&s, Kind::Deployment),
            count(&s, Kind::ReplicaSet),
            count(&s, Kind::Pod)
        ),
        (0, 0, 0)
    );
    // nginx stops within a second of its stop signal; the command blocked that long.
    assert!(s.now() > t0 && s.now() <= t0 + 2, "{}", s.now() - t0);
    // Pods whose image ignores SIGTERM are killed at the end of their 30 s grace period.
    let mut s = Session::new("ownership", 1).unwrap();
    s.run_line("kubectl set image deploy/web app=example.com/app:ignores-sigterm");
    s.run_line("kubectl rollout status deploy/web");
    s.run_line("tick 40");
    let t0 = s.now();
    s.run_line("kubectl delete deploy web --cascade=foreground");
    assert_eq!(count(&s, Kind::Pod), 0);
    assert!(s.now() >= t0 + 30 && s.now() <= t0 + 32, "{}", s.now() - t0);
}

#[test]
fn no_wait_returns_at_once_and_background_has_nothing_to_wait_for() {
    let mut s = Session::new("ownership", 1).unwrap();
    let t0 = s.now();
    s.run_line("kubectl delete deploy web --cascade=foreground --wait=false");
    assert_eq!(s.now(), t0);
    assert_eq!(count(&s, Kind::Deployment), 1);
    let mut s = Session::new("ownership", 1).unwrap();
    s.run_line("kubectl delete deploy web");
    // Background: the Deployment is gone at once; its pods still terminate.
    assert_eq!(s.now(), t0);
    assert!(s.cluster.api.list(Kind::Pod).all(obj::is_deleting));
}

#[test]
fn a_finalizer_nobody_removes_times_out() {
    let mut s = Session::new("ownership", 1).unwrap();
    s.run_line(
        r#"kubectl patch deploy web --type=merge -p '{"metadata":{"finalizers":["example.com/protect"]}}'"#,
    );
    let t0 = s.now();
    let o = s.run_line("kubectl delete deploy web --timeout=20s");
    assert_eq!(o.stdout, "deployment.apps \"web\" deleted\n");
    assert_eq!(
        o.stderr,
        "error: timed out waiting for the condition on deployments/web\n"
    );
    assert_eq!(s.now(), t0 + 20);
    let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
    assert!(obj::is_deleting(d));
    // No --timeout: kubectl would wait a week; the demo stops at its cap.
    let o = s.run_line("kubectl delete deploy web");
    assert_eq!(
        o.stderr,
        "error: timed out waiting for the condition on deployments/web\n"
    );
    assert_eq!(s.now(), t0 + 20 + DELETE_WAIT_CAP);
}

#[test]
fn pods_are_waited_for_until_their_grace_period_ends() {
    let mut s = Session::new("self-healing", 1).unwrap();
    s.run_line("tick 5");
    let t0 = s.now();
    let o = s.run_line("kubectl delete pods -l app=web --now");
    assert_eq!(o.stdout.lines().count(), 3);
    // --now is a 1 s grace period.
    assert!(s.now() > t0 && s.now() <= t0 + 2, "{}", s.now() - t0);
    assert!(s.cluster.api.list(Kind::Pod).all(|p| !obj::is_deleting(p)));
}

#[test]
fn go_durations() {
    assert_eq!(go_duration_secs("0"), Ok(0));
    assert_eq!(go_duration_secs("90s"), Ok(90));
    assert_eq!(go_duration_secs("1m30s"), Ok(90));
    assert_eq!(go_duration_secs("1.5h"), Ok(5400));
    assert_eq!(go_duration_secs("1500ms"), Ok(1));
    assert_eq!(
        go_duration_secs("30"),
        Err("time: missing unit in duration \"30\"".into())
    );
    assert_eq!(
        go_duration_secs("5x"),
        Err("time: unknown unit \"x\" in duration \"5x\"".into())
    );
    assert_eq!(
        go_duration_secs("abc"),
        Err("time: invalid duration \"abc\"".into())
    );
    let mut s = Session::new("ownership", 1).unwrap();
    let o = s.run_line("kubectl delete deploy web --timeout=soon");
    assert_eq!(
        o.stderr,
        "error: invalid argument \"soon\" for \"--timeout\" flag: time: invalid duration \"soon\"\nSee 'kubectl delete --help' for usage.\n"
    );
    assert_eq!(count(&s, Kind::Deployment), 1);
}
