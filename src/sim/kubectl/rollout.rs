//! `kubectl rollout` (kubectl pkg/cmd/rollout): history, undo, restart, pause and
//! resume; `status` waits through [`super::wait`].

use serde_json::{Value, json};

use super::args::{RolloutAction, Target};
use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::rfc3339;

/// Whether kubectl can roll the kind out: Deployments, StatefulSets and DaemonSets.
pub(super) fn rolls_out(kind: Kind) -> bool {
    matches!(kind, Kind::Deployment | Kind::StatefulSet | Kind::DaemonSet)
}

pub(super) fn rollout(
    cluster: &mut Cluster,
    action: RolloutAction,
    t: &Target,
    to_revision: Option<i64>,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let kg = t.kind.kind_group();
    // polymorphichelpers: only Deployments, StatefulSets and DaemonSets (of the kinds the
    // demo has) have a rollbacker, a history viewer and a restarter; only Deployments a
    // pauser and resumer.
    if !rolls_out(t.kind) {
        let refused = match action {
            RolloutAction::Undo | RolloutAction::History => {
                let what = if action == RolloutAction::Undo {
                    "rollbacker"
                } else {
                    "history viewer"
                };
                format!(
                    "error: no {what} has been implemented for \"{}\"\n",
                    t.kind.group_kind()
                )
            }
            // rollout_restart.go / rollout_pause.go: `error: <resource> "<name>" <why>`.
            _ => {
                let what = match action {
                    RolloutAction::Restart => "restarting",
                    RolloutAction::Pause => "pausing",
                    _ => "resuming",
                };
                format!(
                    "error: {} \"{name}\" {what} is not supported\n",
                    t.kind.group_resource()
                )
            }
        };
        return Outcome::default().err(refused);
    }
    match action {
        RolloutAction::Restart => {
            // kubectl's objectRestarter refuses before sending anything.
            if cur["spec"]["paused"] == json!(true) {
                return Outcome::default().err(format!(
                    "error: {} \"{name}\" can't restart paused deployment (run rollout resume first)\n",
                    t.kind.group_resource()
                ));
            }
            let mut next = cur.clone();
            obj::set(
                &mut next,
                &[
                    "spec",
                    "template",
                    "metadata",
                    "annotations",
                    "kubectl.kubernetes.io/restartedAt",
                ],
                json!(rfc3339(cluster.now())),
            );
            // The stamp has one-second precision: a second restart within the same second
            // makes an empty patch, which rollout_restart.go refuses before sending.
            if next == cur {
                return Outcome::default().err(format!(
                    "error: failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another\n"
                ));
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} restarted\n"))
        }
        RolloutAction::Pause | RolloutAction::Resume if t.kind != Kind::Deployment => {
            // objectpauser.go / objectresumer.go know only Deployments.
            let what = if action == RolloutAction::Pause {
                "pausing"
            } else {
                "resuming"
            };
            Outcome::default().err(format!(
                "error: {} \"{name}\" {what} is not supported\n",
                t.kind.group_resource()
            ))
        }
        RolloutAction::History if t.kind != Kind::Deployment => {
            super::rollout_revisions::history(cluster, t.kind, &cur)
        }
        RolloutAction::Undo if t.kind != Kind::Deployment => {
            super::rollout_revisions::undo(cluster, t.kind, &cur, to_revision.unwrap_or(0))
        }
        RolloutAction::Pause | RolloutAction::Resume => {
            let pause = action == RolloutAction::Pause;
            let word = if pause { "paused" } else { "resumed" };
            // kubectl's objectPauser and objectResumer refuse before sending anything
            // (polymorphichelpers/objectpauser.go, objectresumer.go); rollout_pause.go
            // wraps it as `error: <resource> "<name>" <why>`, and kubectl exits 1.
            if (cur["spec"]["paused"] == json!(true)) == pause {
                let why = if pause {
                    "is already paused"
                } else {
                    "is not paused"
                };
                return Outcome::default().err(format!(
                    "error: {} \"{name}\" {why}\n",
                    t.kind.group_resource()
                ));
            }
            let mut next = cur;
            if pause {
                next["spec"]["paused"] = json!(true);
            } else {
                obj::remove(&mut next, &["spec", "paused"]);
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} {word}\n"))
        }
        RolloutAction::History => {
            let revs = revisions(cluster, &cur);
            if revs.is_empty() {
                return Outcome::default().err(format!(
                    "error: no rollout history found for deployment \"{name}\"\n"
                ));
            }
            let mut s = format!("{kg}/{name} \nREVISION  CHANGE-CAUSE\n");
            for (r, rs) in &revs {
                let cause = obj::str(
                    rs,
                    &["metadata", "annotations", "kubernetes.io/change-cause"],
                )
                .unwrap_or("<none>");
                s.push_str(&format!("{:<10}{cause}\n", r));
            }
            s.push('\n');
            Outcome::default().out(s)
        }
        RolloutAction::Undo => {
            // kubectl polymorphichelpers/rollback.go DeploymentRollbacker.Rollback.
            let revs = revisions(cluster, &cur);
            let wanted = to_revision.unwrap_or(0);
            if wanted < 0 {
                return Outcome::default().err(format!(
                    "error: unable to find specified revision {wanted} in history\n"
                ));
            }
            // deploymentRevision: the asked-for revision, or by default the second
            // newest of all the Deployment's ReplicaSets.
            let target = if wanted > 0 {
                revs.iter().find(|(n, _)| *n == wanted)
            } else {
                revs.iter().rev().nth(1)
            };
            let Some((_, rs)) = target else {
                return if wanted > 0 {
                    Outcome::default().err(format!(
                        "error: unable to find specified revision {wanted} in history\n"
                    ))
                } else {
                    Outcome::default().err(format!(
                        "error: no rollout history found for deployment \"{name}\"\n"
                    ))
                };
            };
            if cur["spec"]["paused"] == json!(true) {
                return Outcome::default().err(format!(
                    "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/{name}' and try again\n"
                ));
            }
            let mut template = rs["spec"]["template"].clone();
            if let Some(l) = template
                .pointer_mut("/metadata/labels")
                .and_then(Value::as_object_mut)
            {
                l.remove("pod-template-hash");
            }
            if template == cur["spec"]["template"] {
                // kubectl prints the --to-revision value: 0 when none was given.
                return Outcome::default()
                    .out(format!("{kg}/{name} skipped rollback (current template already matches revision {wanted})\n"));
            }
            let mut next = cur;
            next["spec"]["template"] = template;
            // getDeploymentPatch replaces metadata.annotations too: the ReplicaSet's,
            // except annotationsToSkip, which keep the Deployment's values.
            let skip = |k: &str| UNDO_KEEPS.contains(&k);
            let mut annotations = serde_json::Map::new();
            if let Some(a) = next["metadata"]["annotations"].as_object() {
                for (k, v) in a.iter().filter(|(k, _)| skip(k)) {
                    annotations.insert(k.clone(), v.clone());
                }
            }
            if let Some(a) = rs["metadata"]["annotations"].as_object() {
                for (k, v) in a.iter().filter(|(k, _)| !skip(k)) {
                    annotations.insert(k.clone(), v.clone());
                }
            }
            if annotations.is_empty() {
                obj::remove(&mut next, &["metadata", "annotations"]);
            } else {
                next["metadata"]["annotations"] = Value::Object(annotations);
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} rolled back\n"))
        }
        // Handled before: it needs the watch flags.
        RolloutAction::Status => Outcome::default(),
    }
}

/// rollback.go annotationsToSkip: kept from the Deployment, never copied from the
/// ReplicaSet, when rolling back.
pub(super) const UNDO_KEEPS: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    "deployment.kubernetes.io/revision",
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// The Deployment's ReplicaSets by revision, ascending.
pub(super) fn revisions(cluster: &Cluster, d: &Value) -> Vec<(i64, Value)> {
    let uid = obj::uid(d);
    let mut v: Vec<(i64, Value)> = cluster
        .api
        .list(Kind::ReplicaSet)
        .filter(|rs| obj::controller_uid(rs) == Some(uid))
        .filter_map(|rs| {
            obj::str(
                rs,
                &[
                    "metadata",
                    "annotations",
                    "deployment.kubernetes.io/revision",
                ],
            )
            .and_then(|r| r.parse().ok())
            .map(|r| (r, rs.clone()))
        })
        .collect();
    v.sort_by_key(|(r, _)| *r);
    v
}

#[cfg(test)]
mod rollout_status_tests {
    use crate::sim::session::Session;

    const WAITING: &str = "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n";

    fn stuck() -> Session {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line("kubectl set image deploy/web app=nginx:nonexistent");
        s
    }

    #[test]
    fn timeout_advances_time_only_up_to_it() {
        let mut s = stuck();
        let t0 = s.now();
        let o = s.run_line("kubectl rollout status deploy/web --timeout=5s");
        assert_eq!(s.now() - t0, 5);
        assert_eq!(o.stdout, WAITING);
        assert_eq!(o.stderr, "error: timed out waiting for the condition\n");
        // Sub-second remainders cannot be waited for on a one-second clock.
        let t1 = s.now();
        s.run_line("kubectl rollout status deploy/web --timeout=2500ms");
        assert_eq!(s.now() - t1, 2);
    }

    #[test]
    fn watch_false_prints_the_status_once_without_waiting() {
        let mut s = stuck();
        let t0 = s.now();
        for line in [
            "kubectl rollout status deploy/web --watch=false",
            "kubectl rollout status deploy/web -w=false",
        ] {
            let o = s.run_line(line);
            assert_eq!((o.stdout.as_str(), o.stderr.as_str()), (WAITING, ""));
        }
        assert_eq!(s.now(), t0);
    }

    #[test]
    fn without_timeout_the_cap_is_said_honestly() {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line("pause deployment");
        s.run_line("kubectl scale deploy web --replicas=4");
        let t0 = s.now();
        let o = s.run_line("kubectl rollout status deploy/web");
        assert_eq!(s.now() - t0, crate::sim::kubectl::wait::ROLLOUT_STATUS_CAP);
        assert_eq!(
            o.stdout,
            "Waiting for deployment spec update to be observed...\n"
        );
        assert!(
            o.stderr
                .contains("stopped watching after 600 simulated seconds")
        );
        assert!(!o.stderr.contains("timed out waiting for the condition"));
    }

    #[test]
    fn a_bad_timeout_is_refused_as_pflag_does() {
        let mut s = stuck();
        let o = s.run_line("kubectl rollout status deploy/web --timeout=5");
        assert!(o.stderr.starts_with(
            "error: invalid argument \"5\" for \"--timeout\" flag: time: missing unit in duration \"5\"\n"
        ));
    }
}
