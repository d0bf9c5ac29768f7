//! The garbage collector's cascading modes (k8s-semantics H6; kube-controller-manager's
//! garbagecollector): background (the owner goes at once, dependents are collected after
//! it), foreground (the owner stays, carrying the `foregroundDeletion` finalizer, until
//! every dependent that blocks it is gone) and orphan (the owner's references are removed
//! from its dependents, which stay).

use std::collections::HashSet;

use serde_json::Value;

use super::api::ApiServer;
use super::client::RateLimit;
use super::deletion::{FOREGROUND, ORPHAN, Propagation, has_finalizer};
use super::kind::Kind;
use super::obj;

/// Kinds that can own something in the demo, and kinds that can be owned. A pod owns
/// only a StatefulSet's claim (whenScaled: Delete); it is no cascading owner, so it is
/// looked up only as a live owner, not scanned for deletion finalizers.
const OWNERS: [Kind; 7] = [
    Kind::Deployment,
    Kind::ReplicaSet,
    Kind::Service,
    Kind::StatefulSet,
    Kind::DaemonSet,
    Kind::Job,
    Kind::CronJob,
];
const DEPENDENTS: [Kind; 8] = [
    Kind::ReplicaSet,
    Kind::Job,
    Kind::Pod,
    Kind::EndpointSlice,
    Kind::ControllerRevision,
    Kind::PersistentVolumeClaim,
    // An operator's: a custom object owns them.
    Kind::Deployment,
    Kind::Service,
];

/// The kinds that can own something: the built-in owners and every served custom kind
/// (an operator's custom object owns what it creates).
fn owner_kinds(api: &ApiServer) -> impl Iterator<Item = Kind> + '_ {
    OWNERS.into_iter().chain(
        api.definitions()
            .filter(|d| d.established)
            .filter_map(|d| d.kind().map(Kind::Custom)),
    )
}

fn refs(o: &Value) -> impl Iterator<Item = &Value> {
    obj::path(o, &["metadata", "ownerReferences"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Dependents of `uid` (any ownerReference to it), with whether that reference blocks
/// the owner's foreground deletion.
fn dependents(api: &ApiServer, uid: &str) -> Vec<(Kind, String, bool)> {
    DEPENDENTS
        .iter()
        .flat_map(|k| api.list(*k).map(move |o| (*k, o)))
        .filter_map(|(k, o)| {
            let r = refs(o).find(|r| r["uid"] == uid)?;
            let blocks = r["blockOwnerDeletion"] == Value::Bool(true);
            Some((k, obj::name(o).to_string(), blocks))
        })
        .collect()
}

/// True while some owner waits for the collector (so `settle` keeps running it).
pub fn pending(api: &ApiServer) -> bool {
    owner_kinds(api).any(|k| {
        api.list(k).any(|o| {
            obj::is_deleting(o) && (has_finalizer(o, ORPHAN) || has_finalizer(o, FOREGROUND))
        })
    })
}

fn remove_finalizer(api: &mut ApiServer, kind: Kind, name: &str, f: &str) {
    let _ = api.update_metadata(kind, name, |o| {
        if let Some(a) = o["metadata"]["finalizers"].as_array_mut() {
            a.retain(|x| x != f);
        }
    });
}

/// One pass of the collector: orphan and foreground owners first, then the background
/// collection of dependents whose owner is gone. Every write goes through the collector's
/// client (kube-controller-manager's `generic-garbage-collector`, rate-limited like the
/// other controllers); returns true when the limiter stopped the pass with work left.
pub fn collect(api: &mut ApiServer, now: u64, client: &mut RateLimit) -> bool {
    if !client.ready() {
        return true;
    }
    // One request: false (and nothing written) when the client must wait for a token.
    let mut request = |api: &mut ApiServer, write: &mut dyn FnMut(&mut ApiServer)| {
        if !client.ready() {
            return false;
        }
        let before = api.resource_version();
        write(api);
        client.spend((api.resource_version() - before).max(1));
        true
    };
    let owners: Vec<Kind> = owner_kinds(api).collect();
    for kind in owners {
        let waiting: Vec<(String, String, bool)> = api
            .list(kind)
            .filter(|o| obj::is_deleting(o))
            .filter_map(|o| {
                let orphan = has_finalizer(o, ORPHAN);
                (orphan || has_finalizer(o, FOREGROUND))
                    .then(|| (obj::name(o).to_string(), obj::uid(o).to_string(), orphan))
            })
            .collect();
        for (name, uid, orphan) in waiting {
            let deps = dependents(api, &uid);
            if orphan {
                // orphanDependents: drop the reference to the owner, then its finalizer.
                for (k, n, _) in &deps {
                    let orphaned = request(api, &mut |api| {
                        let _ = api.update_metadata(*k, n, |o| {
                            if let Some(a) = o["metadata"]["ownerReferences"].as_array_mut() {
                                a.retain(|r| r["uid"] != uid.as_str());
                                if a.is_empty() {
                                    obj::remove(o, &["metadata", "ownerReferences"]);
                                }
                            }
                        });
                    });
                    if !orphaned {
                        return true;
                    }
                }
                if !request(api, &mut |api| remove_finalizer(api, kind, &name, ORPHAN)) {
                    return true;
                }
                continue;
            }
            // Foreground: dependents that own something are deleted in the foreground
            // too, the rest in the background; the owner goes once nothing blocks it.
            let owners: HashSet<String> = owner_kinds(api)
                .flat_map(|k| api.list(k).map(|o| obj::uid(o).to_string()))
                .collect();
            for (k, n, _) in &deps {
                let Ok(d) = api.get(*k, n) else { continue };
                if obj::is_deleting(d) {
                    continue;
                }
                let d_uid = obj::uid(d).to_string();
                let has_deps = owners.contains(&d_uid) && !dependents(api, &d_uid).is_empty();
                let p = if has_deps {
                    Propagation::Foreground
                } else {
                    Propagation::Background
                };
                let deleted = request(api, &mut |api| {
                    let _ = api.delete_propagating(*k, n, None, p, now);
                });
                if !deleted {
                    return true;
                }
            }
            if !dependents(api, &uid).iter().any(|(_, _, blocks)| *blocks)
                && !request(api, &mut |api| {
                    remove_finalizer(api, kind, &name, FOREGROUND)
                })
            {
                return true;
            }
        }
    }
    // Dependents whose owner is gone, deleted in the background.
    for (kind, name) in garbage(api) {
        let deleted = request(api, &mut |api| {
            let _ = api.delete_shared(kind, &name, None, now);
        });
        if !deleted {
            return true;
        }
    }
    false
}

/// H6: what background cascading deletion deletes: dependents whose controller owner
/// no longer exists (the collector deletes them, pods gracefully).
fn garbage(api: &ApiServer) -> Vec<(Kind, String)> {
    let live: std::collections::HashSet<&str> = owner_kinds(api)
        .chain([Kind::Pod])
        .flat_map(|k| api.list_shared(k).map(|o| o.uid()))
        .collect();
    DEPENDENTS
        .into_iter()
        .flat_map(|kind| {
            api.list_shared(kind)
                .filter(|o| !o.facts().deleting)
                .filter(|o| o.controller_uid().is_some_and(|u| !live.contains(u)))
                .map(move |o| (kind, o.name().to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
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

    fn count(s: &Session, kind: Kind) -> usize {
        s.cluster.api.count(kind)
    }

    #[test]
    fn cascade_values_as_kubectl_reads_them() {
        assert_eq!(
            Propagation::from_cascade("orphan"),
            Ok((Propagation::Orphan, None))
        );
        let (p, w) = Propagation::from_cascade("false").unwrap();
        assert_eq!(p, Propagation::Orphan);
        assert!(w.unwrap().contains("--cascade=orphan"));
        let (p, w) = Propagation::from_cascade("true").unwrap();
        assert_eq!(p, Propagation::Background);
        assert!(w.unwrap().contains("--cascade=background"));
        assert!(
            Propagation::from_cascade("sideways")
                .unwrap_err()
                .contains("invalid cascade value (sideways)")
        );
    }

    #[test]
    fn background_removes_the_owner_at_once_and_dependents_after() {
        let mut s = Session::new("ownership", 1).unwrap();
        run(&mut s, &["kubectl delete deploy web"]);
        assert_eq!(count(&s, Kind::Deployment), 0);
        assert_eq!(count(&s, Kind::ReplicaSet), 0);
        // Pods go gracefully: terminating now, gone once nginx has stopped.
        assert!(s.cluster.api.list(Kind::Pod).all(obj::is_deleting));
        run(&mut s, &["tick 2"]);
        assert_eq!(count(&s, Kind::Pod), 0);
    }

    #[test]
    fn foreground_keeps_the_owner_until_the_pods_are_gone() {
        let mut s = Session::new("ownership", 1).unwrap();
        // Pods whose image ignores SIGTERM take their whole 30 s grace period.
        run(
            &mut s,
            &[
                "kubectl set image deploy/web app=example.com/app:ignores-sigterm",
                "kubectl rollout status deploy/web",
                "tick 40",
                "kubectl delete deploy web --cascade=foreground --wait=false",
            ],
        );
        let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
        assert!(obj::is_deleting(d) && has_finalizer(d, FOREGROUND));
        // The ReplicaSet owns pods, so it is deleted in the foreground too.
        let rs = s.cluster.api.list(Kind::ReplicaSet).next().unwrap();
        assert!(obj::is_deleting(rs) && has_finalizer(rs, FOREGROUND));
        assert_eq!(
            rs["status"]["replicas"], 0,
            "terminating pods are not counted"
        );
        run(&mut s, &["tick 29"]);
        assert_eq!(count(&s, Kind::Deployment), 1, "pods still terminating");
        run(&mut s, &["tick 2"]);
        assert_eq!(
            (
                count(&s, Kind::Deployment),
                count(&s, Kind::ReplicaSet),
                count(&s, Kind::Pod)
            ),
            (0, 0, 0)
        );
    }

    #[test]
    fn orphan_keeps_dependents_and_a_new_owner_adopts_them() {
        let mut s = Session::new("ownership", 1).unwrap();
        let pods_before: Vec<String> = s
            .cluster
            .api
            .list(Kind::Pod)
            .map(|p| obj::name(p).to_string())
            .collect();
        run(
            &mut s,
            &["kubectl delete deploy web --cascade=orphan", "tick 5"],
        );
        assert_eq!(count(&s, Kind::Deployment), 0);
        let rs = s.cluster.api.list(Kind::ReplicaSet).next().unwrap();
        assert!(obj::controller_uid(rs).is_none());
        assert!(!obj::is_deleting(rs));
        run(&mut s, &["kubectl create -f web.yaml", "tick 3"]);
        let d_uid = obj::uid(s.cluster.api.get(Kind::Deployment, "web").unwrap()).to_string();
        let rs = s.cluster.api.list(Kind::ReplicaSet).next().unwrap();
        assert_eq!(obj::controller_uid(rs), Some(d_uid.as_str()));
        assert_eq!(count(&s, Kind::ReplicaSet), 1, "adopted, not recreated");
        let pods_after: Vec<String> = s
            .cluster
            .api
            .list(Kind::Pod)
            .map(|p| obj::name(p).to_string())
            .collect();
        assert_eq!(pods_before, pods_after, "the same pods keep running");
    }

    #[test]
    fn a_finalizer_holds_the_owner_and_its_dependents_until_removed() {
        let mut s = Session::new("ownership", 1).unwrap();
        run(
            &mut s,
            &[
                r#"kubectl patch deploy web --type=merge -p '{"metadata":{"finalizers":["example.com/protect"]}}'"#,
                "kubectl delete deploy web",
                "tick 60",
            ],
        );
        let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
        assert!(obj::is_deleting(d));
        // Its controller still reports status while it waits (syncStatusOnly).
        assert_eq!(d["status"]["updatedReplicas"], 3);
        // A custom finalizer is not a GC finalizer: the owner still counts as present.
        assert_eq!(count(&s, Kind::ReplicaSet), 1);
        assert_eq!(
            s.cluster
                .api
                .list(Kind::Pod)
                .filter(|p| !obj::is_deleting(p))
                .count(),
            3
        );
        let out = run(
            &mut s,
            &[
                r#"kubectl patch deploy web --type=merge -p '{"metadata":{"finalizers":["example.com/protect","x.io/y"]}}'"#,
            ],
        );
        assert!(
            out.contains(r#"metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x.io/y"}"#),
            "{out}"
        );
        run(
            &mut s,
            &[
                r#"kubectl patch deploy web --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]'"#,
            ],
        );
        assert_eq!(count(&s, Kind::Deployment), 0);
        assert_eq!(count(&s, Kind::ReplicaSet), 0);
    }
}
