//! kubectl's watching commands: `delete --wait` (delete.go, wait.go IsDeleted) and
//! `rollout status` (rollout_status.go). The simulated clock is the caller's: a command
//! that watches hands back a [`Wait`] in its outcome, and the caller advances one simulated
//! second at a time (the controllers, the demo's other writers, its goal checks) and asks
//! again with [`Wait::step`], so whatever happens while kubectl waits happens to the whole demo.

use serde_json::Value;

use crate::sim::api::EventType;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;

/// How long the demo lets `kubectl delete` wait when no `--timeout` is given. kubectl
/// waits up to a week (delete.go: a zero timeout becomes 168 h); an object a finalizer
/// holds would block for that long, so the demo gives up after ten simulated minutes with
/// the error kubectl prints when its wait runs out.
pub const DELETE_WAIT_CAP: u64 = 600;

/// How long `rollout status` without `--timeout` may wait: kubectl would wait forever,
/// the demo cannot, so it stops here and says so.
pub const ROLLOUT_STATUS_CAP: u64 = 600;

/// A command still watching the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wait {
    /// `--wait`: each deleted object, by kind, name and UID, until it is gone or replaced
    /// by one with another UID.
    Deletion {
        objects: Vec<(Kind, String, String)>,
        limit: u64,
        waited: u64,
    },
    /// `rollout status`: a line for the Deployment as listed, then one for each watch
    /// event about it, until it is done (rollout_status.go, UntilWithSync).
    Rollout {
        kind: Kind,
        name: String,
        watch: bool,
        limit: u64,
        /// `--timeout` was given: running out is kubectl's own timeout error.
        bounded: bool,
        waited: u64,
        /// The watch log read so far; `None` before the first look (the list).
        cursor: Option<u64>,
    },
    /// `drain`: evictions retried and pods waited for, node after node.
    Drain(Box<super::drain::DrainWait>),
}

impl Wait {
    pub fn deletion(objects: Vec<(Kind, String, String)>, timeout: u64) -> Wait {
        let limit = if timeout == 0 {
            DELETE_WAIT_CAP
        } else {
            timeout.min(DELETE_WAIT_CAP)
        };
        Wait::Deletion {
            objects,
            limit,
            waited: 0,
        }
    }

    pub fn rollout(kind: Kind, name: &str, watch: bool, timeout_ms: Option<u64>) -> Wait {
        Wait::Rollout {
            kind,
            name: name.to_string(),
            watch,
            // The clock moves in whole seconds: wait only the seconds that fit.
            limit: timeout_ms.map_or(ROLLOUT_STATUS_CAP, |ms| ms / 1000),
            bounded: timeout_ms.is_some(),
            waited: 0,
            cursor: None,
        }
    }
}

/// What one look at the cluster gave a waiting command: lines to print, the error that
/// ends it, or the wait that goes on for one more second.
#[derive(Debug, Default)]
pub struct Step {
    pub out: String,
    /// Lines printed as they came, stdout (false) and stderr (true) interleaved, before
    /// `out`.
    pub lines: Vec<(bool, String)>,
    pub err: Option<String>,
    pub next: Option<Wait>,
}

impl Wait {
    /// Looks at the cluster as it is now: prints what kubectl prints, and either
    /// finishes or waits one more second.
    pub fn step(self, cluster: &mut Cluster) -> Step {
        let fail = |e: String| Step {
            err: Some(e),
            ..Step::default()
        };
        match self {
            Wait::Drain(d) => {
                let mut lines = Vec::new();
                match d.step(cluster, &mut lines) {
                    Ok(next) => Step {
                        lines,
                        next: next.map(|d| Wait::Drain(Box::new(d))),
                        ..Step::default()
                    },
                    Err(e) => Step {
                        lines,
                        err: Some(e),
                        ..Step::default()
                    },
                }
            }
            Wait::Deletion {
                objects,
                limit,
                waited,
            } => {
                let gone = |(kind, name, uid): &(Kind, String, String)| {
                    cluster
                        .api
                        .get(*kind, name)
                        .map_or(true, |x| obj::uid(x) != uid)
                };
                let Some(left) = objects.iter().find(|x| !gone(x)) else {
                    return Step::default();
                };
                if waited >= limit {
                    let resource = left.0.group_resource().split('.').next().unwrap_or("");
                    return fail(format!(
                        "error: timed out waiting for the condition on {resource}/{}\n",
                        left.1
                    ));
                }
                Step {
                    next: Some(Wait::Deletion {
                        objects,
                        limit,
                        waited: waited + 1,
                    }),
                    ..Step::default()
                }
            }
            Wait::Rollout {
                kind,
                name,
                watch,
                limit,
                bounded,
                waited,
                cursor,
            } => {
                // The list first (one object), then the watch: each event about the
                // Deployment, in order, each printed, repeats included, as kubectl does.
                let objects: Vec<Option<Value>> = match cursor {
                    None => vec![cluster.api.get(kind, &name).ok().cloned()],
                    Some(seq) => cluster
                        .api
                        .events_since(seq)
                        .filter(|e| e.kind == kind && e.object.name() == name)
                        .map(|e| (e.event != EventType::Deleted).then(|| e.object.value().clone()))
                        .collect(),
                };
                let mut out = String::new();
                for d in objects {
                    let Some(d) = d else {
                        // The watch sees the deletion and gives up.
                        cluster.kubectl_watch = None;
                        return Step {
                            out,
                            err: Some("error: object has been deleted\n".into()),
                            ..Step::default()
                        };
                    };
                    let (line, done) = match kind {
                        Kind::StatefulSet => stateful_set_status(&d),
                        Kind::DaemonSet => daemon_set_status(&d),
                        _ => status_line(&d),
                    };
                    if line.starts_with("error:") {
                        cluster.kubectl_watch = None;
                        return Step {
                            out,
                            err: Some(line),
                            ..Step::default()
                        };
                    }
                    out.push_str(&line);
                    if done || !watch {
                        cluster.kubectl_watch = None;
                        return Step {
                            out,
                            ..Step::default()
                        };
                    }
                }
                if waited >= limit {
                    cluster.kubectl_watch = None;
                    return Step {
                        out,
                        err: Some(if bounded {
                            "error: timed out waiting for the condition\n".to_string()
                        } else {
                            format!(
                                "error: kubedrill's demo stopped watching after {ROLLOUT_STATUS_CAP} simulated seconds; kubectl would keep waiting (use --timeout to bound it)\n"
                            )
                        }),
                        ..Step::default()
                    };
                }
                let seq = cluster.api.next_seq();
                cluster.kubectl_watch = Some(seq);
                Step {
                    out,
                    next: Some(Wait::Rollout {
                        kind,
                        name,
                        watch,
                        limit,
                        bounded,
                        waited: waited + 1,
                        cursor: Some(seq),
                    }),
                    ..Step::default()
                }
            }
        }
    }
}

/// The line `kubectl rollout status` prints for the current state, and whether it is done.
fn status_line(d: &Value) -> (String, bool) {
    let name = obj::name(d);
    let int = |p: &[&str]| obj::int(d, p).unwrap_or(0);
    if int(&["metadata", "generation"]) > int(&["status", "observedGeneration"]) {
        return (
            "Waiting for deployment spec update to be observed...\n".into(),
            false,
        );
    }
    // kubectl looks at the Progressing condition only once the spec is observed.
    if d["status"]["conditions"].as_array().is_some_and(|c| {
        c.iter()
            .any(|c| c["type"] == "Progressing" && c["reason"] == "ProgressDeadlineExceeded")
    }) {
        return (
            format!("error: deployment \"{name}\" exceeded its progress deadline\n"),
            true,
        );
    }
    let want = obj::int(d, &["spec", "replicas"]).unwrap_or(1);
    let updated = int(&["status", "updatedReplicas"]);
    let replicas = int(&["status", "replicas"]);
    let available = int(&["status", "availableReplicas"]);
    if updated < want {
        return (
            format!(
                "Waiting for deployment \"{name}\" rollout to finish: {updated} out of {want} new replicas have been updated...\n"
            ),
            false,
        );
    }
    if replicas > updated {
        return (
            format!(
                "Waiting for deployment \"{name}\" rollout to finish: {} old replicas are pending termination...\n",
                replicas - updated
            ),
            false,
        );
    }
    if available < updated {
        return (
            format!(
                "Waiting for deployment \"{name}\" rollout to finish: {available} of {updated} updated replicas are available...\n"
            ),
            false,
        );
    }
    (
        format!("deployment \"{name}\" successfully rolled out\n"),
        true,
    )
}

/// StatefulSetStatusViewer (kubectl rollout_status.go): the set's defaulted partition makes
/// it always take the partitioned branch, so a finished rollout says "partitioned roll out
/// complete" even with partition 0.
fn stateful_set_status(s: &Value) -> (String, bool) {
    let int = |p: &[&str]| obj::int(s, p).unwrap_or(0);
    if s["spec"]["updateStrategy"]["type"] != "RollingUpdate" {
        return (
            "error: rollout status is only available for RollingUpdate strategy type\n".into(),
            true,
        );
    }
    let observed = int(&["status", "observedGeneration"]);
    if observed == 0 || int(&["metadata", "generation"]) > observed {
        return (
            "Waiting for statefulset spec update to be observed...\n".into(),
            false,
        );
    }
    let want = obj::int(s, &["spec", "replicas"]).unwrap_or(1);
    let ready = int(&["status", "readyReplicas"]);
    if ready < want {
        return (
            format!("Waiting for {} pods to be ready...\n", want - ready),
            false,
        );
    }
    let updated = int(&["status", "updatedReplicas"]);
    if let Some(ru) = s["spec"]["updateStrategy"]
        .get("rollingUpdate")
        .filter(|r| r.is_object())
    {
        if let Some(p) = ru["partition"].as_i64()
            && updated < want - p
        {
            return (
                format!(
                    "Waiting for partitioned roll out to finish: {updated} out of {} new pods have been updated...\n",
                    want - p
                ),
                false,
            );
        }
        return (
            format!("partitioned roll out complete: {updated} new pods have been updated...\n"),
            true,
        );
    }
    let update = obj::str(s, &["status", "updateRevision"]).unwrap_or("");
    if Some(update) != obj::str(s, &["status", "currentRevision"]) {
        return (
            format!(
                "waiting for statefulset rolling update to complete {updated} pods at revision {update}...\n"
            ),
            false,
        );
    }
    (
        format!(
            "statefulset rolling update complete {} pods at revision {}...\n",
            int(&["status", "currentReplicas"]),
            obj::str(s, &["status", "currentRevision"]).unwrap_or("")
        ),
        true,
    )
}

/// DaemonSetStatusViewer (kubectl rollout_status.go). Its error names the StatefulSet
/// strategy constant, whose value is the same `RollingUpdate`.
fn daemon_set_status(d: &Value) -> (String, bool) {
    let int = |p: &[&str]| obj::int(d, p).unwrap_or(0);
    if d["spec"]["updateStrategy"]["type"] != "RollingUpdate" {
        return (
            "error: rollout status is only available for RollingUpdate strategy type\n".into(),
            true,
        );
    }
    let name = obj::name(d);
    if int(&["metadata", "generation"]) > int(&["status", "observedGeneration"]) {
        return (
            "Waiting for daemon set spec update to be observed...\n".into(),
            false,
        );
    }
    let desired = int(&["status", "desiredNumberScheduled"]);
    let updated = int(&["status", "updatedNumberScheduled"]);
    let available = int(&["status", "numberAvailable"]);
    if updated < desired {
        return (
            format!(
                "Waiting for daemon set \"{name}\" rollout to finish: {updated} out of {desired} new pods have been updated...\n"
            ),
            false,
        );
    }
    if available < desired {
        return (
            format!(
                "Waiting for daemon set \"{name}\" rollout to finish: {available} of {desired} updated pods are available...\n"
            ),
            false,
        );
    }
    (
        format!("daemon set \"{name}\" successfully rolled out\n"),
        true,
    )
}
