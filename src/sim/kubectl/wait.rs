//! kubectl's watching commands: `delete --wait` (delete.go, wait.go IsDeleted) and
//! `rollout status` (rollout_status.go). The simulated clock is the caller's: a command
//! that watches hands back a [`Wait`] in its outcome, and the caller advances one simulated
//! second at a time (the controllers, the demo's other writers, its goal checks) and asks
//! again with [`Wait::step`], so whatever happens while kubectl waits happens to the whole demo.

use serde_json::Value;

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
    /// `rollout status`: a line whenever the state changes, until it is done.
    Rollout {
        name: String,
        watch: bool,
        limit: u64,
        /// `--timeout` was given: running out is kubectl's own timeout error.
        bounded: bool,
        waited: u64,
        last: String,
    },
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

    pub fn rollout(name: &str, watch: bool, timeout_ms: Option<u64>) -> Wait {
        Wait::Rollout {
            name: name.to_string(),
            watch,
            // The clock moves in whole seconds: wait only the seconds that fit.
            limit: timeout_ms.map_or(ROLLOUT_STATUS_CAP, |ms| ms / 1000),
            bounded: timeout_ms.is_some(),
            waited: 0,
            last: String::new(),
        }
    }
}

/// What one look at the cluster gave a waiting command: lines to print, the error that
/// ends it, or the wait that goes on for one more second.
#[derive(Debug, Default)]
pub struct Step {
    pub out: String,
    pub err: Option<String>,
    pub next: Option<Wait>,
}

impl Wait {
    /// Looks at the cluster as it is now: prints what kubectl prints, and either
    /// finishes or waits one more second.
    pub fn step(self, cluster: &Cluster) -> Step {
        let fail = |e: String| Step {
            err: Some(e),
            ..Step::default()
        };
        match self {
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
                name,
                watch,
                limit,
                bounded,
                waited,
                mut last,
            } => {
                let Ok(d) = cluster.api.get(Kind::Deployment, &name) else {
                    // The watch sees the deletion and gives up.
                    return fail("error: object has been deleted\n".into());
                };
                let (line, done) = status_line(d);
                let mut out = String::new();
                if line != last {
                    if line.starts_with("error:") {
                        return fail(line);
                    }
                    out.push_str(&line);
                    last = line;
                }
                if done || !watch {
                    return Step {
                        out,
                        ..Step::default()
                    };
                }
                if waited >= limit {
                    return Step {
                        out,
                        err: Some(if bounded {
                            "error: timed out waiting for the condition\n".to_string()
                        } else {
                            format!(
                                "error: kubedrill's demo stopped watching after {ROLLOUT_STATUS_CAP} simulated seconds; kubectl would keep waiting (use --timeout to bound it)\n"
                            )
                        }),
                        next: None,
                    };
                }
                Step {
                    out,
                    err: None,
                    next: Some(Wait::Rollout {
                        name,
                        watch,
                        limit,
                        bounded,
                        waited: waited + 1,
                        last,
                    }),
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
