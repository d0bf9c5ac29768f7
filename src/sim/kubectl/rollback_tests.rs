//! `kubectl rollout undo` against kubectl's rollback.go: annotations, paused Deployments,
//! the skipped-rollback message.

use crate::sim::kind::Kind;
use crate::sim::session::Session;

fn run(s: &mut Session, lines: &[&str]) -> String {
    let mut out = String::new();
    for l in lines {
        let o = s.run_line(l);
        out.push_str(&o.stdout);
        out.push_str(&o.stderr);
    }
    out
}

fn annotation(s: &Session, key: &str) -> Option<String> {
    let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
    d["metadata"]["annotations"][key].as_str().map(String::from)
}

#[test]
fn undo_takes_the_replicasets_annotations_and_keeps_the_revision() {
    let mut s = Session::new("rollout", 1).unwrap();
    run(
        &mut s,
        &[
            "tick 2",
            "kubectl set image deploy/web app=nginx:1.28",
            r#"kubectl annotate deploy web kubernetes.io/change-cause="nginx 1.28""#,
            "kubectl rollout status deploy/web",
        ],
    );
    assert_eq!(
        annotation(&s, "kubernetes.io/change-cause").as_deref(),
        Some("nginx 1.28")
    );
    let out = run(&mut s, &["kubectl rollout undo deploy/web"]);
    assert_eq!(out, "deployment.apps/web rolled back\n");
    // Revision 1 had no change-cause, so the Deployment loses its own.
    assert_eq!(annotation(&s, "kubernetes.io/change-cause"), None);
    let out = run(
        &mut s,
        &[
            "kubectl rollout status deploy/web",
            "kubectl rollout history deploy/web",
        ],
    );
    assert!(
        out.ends_with("REVISION  CHANGE-CAUSE\n2         nginx 1.28\n3         <none>\n\n"),
        "{out}"
    );
    assert_eq!(
        annotation(&s, "deployment.kubernetes.io/revision").as_deref(),
        Some("3")
    );
    // Rolling back again brings the change-cause back with revision 2's template.
    run(
        &mut s,
        &[
            "kubectl rollout undo deploy/web",
            "kubectl rollout status deploy/web",
        ],
    );
    assert_eq!(
        annotation(&s, "kubernetes.io/change-cause").as_deref(),
        Some("nginx 1.28")
    );
}

#[test]
fn undo_refuses_a_paused_deployment_and_changes_nothing() {
    let mut s = Session::new("rollout", 1).unwrap();
    run(
        &mut s,
        &[
            "kubectl set image deploy/web app=nginx:1.28",
            "kubectl rollout status deploy/web",
            "kubectl rollout pause deploy/web",
        ],
    );
    let before = s.cluster.api.get(Kind::Deployment, "web").unwrap().clone();
    let o = s.run_line("kubectl rollout undo deploy/web");
    assert_eq!(o.stdout, "");
    assert_eq!(
        o.stderr,
        "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/web' and try again\n"
    );
    assert_eq!(s.cluster.api.get(Kind::Deployment, "web").unwrap(), &before);
    // A missing revision is reported before the paused check, as deploymentRevision runs first.
    let o = s.run_line("kubectl rollout undo deploy/web --to-revision=7");
    assert_eq!(
        o.stderr,
        "error: unable to find specified revision 7 in history\n"
    );
}

#[test]
fn skipped_rollback_names_the_requested_revision_zero_by_default() {
    let mut s = Session::new("rollout", 1).unwrap();
    run(
        &mut s,
        &[
            "kubectl set image deploy/web app=nginx:1.28",
            "kubectl rollout status deploy/web",
        ],
    );
    let o = s.run_line("kubectl rollout undo deploy/web --to-revision=2");
    assert_eq!(
        o.stdout,
        "deployment.apps/web skipped rollback (current template already matches revision 2)\n"
    );
    // With the Deployment controller stopped, the template can go back to revision 1's
    // while revision 2 is still the newest: the default target, the second newest, is
    // revision 1 and already matches; kubectl prints the flag's value, 0.
    run(
        &mut s,
        &[
            "pause deployment",
            "kubectl set image deploy/web app=nginx:1.27",
        ],
    );
    let o = s.run_line("kubectl rollout undo deploy/web");
    assert_eq!(
        o.stdout,
        "deployment.apps/web skipped rollback (current template already matches revision 0)\n"
    );
}
