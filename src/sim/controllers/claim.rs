//! What the Deployment and ReplicaSet controllers add to a plain sync: the Deployment
//! controller's adoption of orphaned ReplicaSets (CRM ClaimReplicaSets, as C1 does for
//! pods), and the delayed requeues (the work queue's AddAfter) for a progress deadline
//! (B9, requeueStuckDeployment) and for minReadySeconds (C7).

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::informer::Informer;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

/// Enqueues every `kind` object whose selector matches an orphan's labels: those that
/// may adopt it (Deployments an orphaned ReplicaSet; StatefulSets and DaemonSets an
/// orphaned pod), as each controller's add and update handlers do.
pub fn enqueue_adopters(informer: &mut Informer, kind: Kind, labels: &Value) {
    let adopters: Vec<String> = informer
        .iter(kind)
        .filter(|s| obj::selector_matches_labels(&s["spec"]["selector"], labels))
        .map(|s| obj::name(s).to_string())
        .collect();
    for name in adopters {
        informer.enqueue(&name);
    }
}

/// Adopts every ReplicaSet with no controller that the Deployment's selector matches,
/// patching in an ownerReference; returns them as written. Neither side may be deleting.
pub fn adopt_replicasets(informer: &Informer, api: &mut ApiServer, d: &Value) -> Vec<Arc<Stored>> {
    if obj::is_deleting(d) {
        return Vec::new();
    }
    let orphans: Vec<String> = informer
        .list(Kind::ReplicaSet)
        .into_iter()
        .filter(|rs| obj::controller_uid(rs).is_none() && !obj::is_deleting(rs))
        .filter(|rs| obj::selector_matches(&d["spec"]["selector"], rs))
        .map(|rs| obj::name(rs).to_string())
        .collect();
    let r = obj::owner_ref(d, "Deployment");
    orphans
        .iter()
        .filter_map(|n| {
            api.update_metadata_shared(Kind::ReplicaSet, n, |rs| {
                let refs = rs["metadata"]
                    .as_object_mut()
                    .map(|m| m.entry("ownerReferences").or_insert_with(|| json!([])));
                if let Some(Value::Array(a)) = refs {
                    a.push(r.clone());
                }
            })
            .ok()
        })
        .collect()
}

const REVISION: &str = "deployment.kubernetes.io/revision";
const REVISION_HISTORY: &str = "deployment.kubernetes.io/revision-history";

fn revision(rs: &Value) -> i64 {
    obj::str(rs, &["metadata", "annotations", REVISION])
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// B3 for a new ReplicaSet that already exists (a rollback, or a template changed back):
/// it gets the Deployment's annotations, its minReadySeconds, and a revision above every
/// old ReplicaSet's, the number it had going to `revision-history`
/// (SetNewReplicaSetAnnotations). Returns the ReplicaSet as written, if anything changed.
pub fn refresh_new_rs(
    api: &mut ApiServer,
    d: &Value,
    rss: &[Arc<Stored>],
    ni: usize,
) -> Option<Arc<Stored>> {
    let mut rs = rss[ni].value().clone();
    let new_rev = rss
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != ni)
        .map(|(_, r)| revision(r))
        .max()
        .unwrap_or(0)
        + 1;
    if let Some(a) = obj::path(d, &["metadata", "annotations"]).and_then(Value::as_object) {
        for (k, v) in a {
            let skipped = k == "kubectl.kubernetes.io/last-applied-configuration"
                || k.starts_with("deployment.kubernetes.io/");
            if !skipped {
                obj::set(&mut rs, &["metadata", "annotations", k], v.clone());
            }
        }
    }
    let old = obj::str(&rs, &["metadata", "annotations", REVISION]).map(str::to_string);
    if revision(&rs) < new_rev {
        obj::set(
            &mut rs,
            &["metadata", "annotations", REVISION],
            json!(new_rev.to_string()),
        );
        if let Some(old) = old {
            let history = match obj::str(&rs, &["metadata", "annotations", REVISION_HISTORY]) {
                Some(h) if !h.is_empty() => format!("{h},{old}"),
                _ => old,
            };
            obj::set(
                &mut rs,
                &["metadata", "annotations", REVISION_HISTORY],
                json!(history),
            );
        }
    }
    let min_ready = d["spec"].get("minReadySeconds").cloned();
    if rs["spec"].get("minReadySeconds") != min_ready.as_ref() {
        match min_ready {
            Some(m) => rs["spec"]["minReadySeconds"] = m,
            None => {
                obj::remove(&mut rs, &["spec", "minReadySeconds"]);
            }
        }
    }
    if rs == **rss[ni] {
        return None;
    }
    api.update_shared(Kind::ReplicaSet, rs, None).ok()
}

/// The simulated second at which `t_unix` falls.
fn tick_of(t_unix: i64, now: u64) -> u64 {
    let ahead = t_unix - sim_unix(now);
    if ahead <= 0 { now } else { now + ahead as u64 }
}

/// C7: with minReadySeconds, a ready pod becomes available later with no event of its
/// own, so the ReplicaSet is looked at again when the first such pod gets there.
pub fn available_check_at(rs: &Value, pods: &[&Stored], now: u64) -> Option<u64> {
    let min_ready = obj::int(rs, &["spec", "minReadySeconds"]).unwrap_or(0);
    if min_ready <= 0 {
        return None;
    }
    pods.iter()
        .map(|p| p.pod())
        .filter(|p| p.active && p.ready)
        .filter(|p| !p.available(min_ready, sim_unix(now)))
        .filter_map(|p| p.ready_since)
        .map(|t| tick_of(t.saturating_add(min_ready).saturating_add(1), now).max(now + 1))
        .min()
}

/// ClaimPods (PodControllerRefManager): the pods `owner` (a `kind`, whose adoptions get
/// `finalizer` where it has one) controls whose labels
/// its selector matches and `member` accepts, after adopting such pods that have no
/// controller (neither side being deleted) and releasing its own that no longer match.
/// Every adoption and release is a request on `client`.
pub fn claim_pods(
    informer: &Informer,
    api: &mut ApiServer,
    owner: &Value,
    (kind, finalizer): (&str, Option<&str>),
    member: impl Fn(&Stored) -> bool,
    client: &mut crate::sim::client::RateLimit,
) -> Vec<Arc<Stored>> {
    let uid = obj::uid(owner);
    let selector = &owner["spec"]["selector"];
    let deleting = obj::is_deleting(owner);
    let candidates: Vec<Arc<Stored>> = informer
        .owned_by(Kind::Pod, uid)
        .chain(informer.orphans(Kind::Pod))
        .cloned()
        .collect();
    let mut pods = Vec::new();
    for p in candidates {
        let matches = obj::selector_matches_labels(selector, &p.facts().labels) && member(&p);
        match p.controller_uid() {
            Some(_) if matches => pods.push(p),
            Some(_) => {
                client.spend(1);
                let _ = api.update_metadata(Kind::Pod, p.name(), |x| {
                    obj::remove(x, &["metadata", "ownerReferences"]);
                });
            }
            None if matches && !p.facts().deleting && !deleting => {
                let r = obj::owner_ref(owner, kind);
                client.spend(1);
                if let Ok(v) = api.update_metadata_shared(Kind::Pod, p.name(), |x| {
                    x["metadata"]["ownerReferences"] = json!([r]);
                    // The Job controller's adoption also puts its tracking finalizer on.
                    if let Some(f) = finalizer {
                        let list = &mut x["metadata"]["finalizers"];
                        if !list.is_array() {
                            *list = json!([]);
                        }
                        if let Some(l) = list.as_array_mut()
                            && !l.iter().any(|v| v == f)
                        {
                            l.push(json!(f));
                        }
                    }
                }) {
                    pods.push(v);
                }
            }
            None => {}
        }
    }
    pods
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::controllers::pods::{is_active, is_available, is_ready};
    use crate::sim::time::{parse_rfc3339, rfc3339};

    #[test]
    fn a_pod_ready_at_10_with_min_ready_5_is_checked_at_16() {
        let rs = json!({"spec": {"minReadySeconds": 5}});
        let pod = json!({"status": {"phase": "Running", "conditions": [
            {"type": "Ready", "status": "True", "lastTransitionTime": rfc3339(10)}]}});
        let pod = Stored::new(Kind::Pod, pod);
        assert_eq!(available_check_at(&rs, &[&pod], 12), Some(16));
        // Not before it is available, and nothing once it is.
        assert!(!is_available(&pod, 5, sim_unix(15)));
        assert!(is_available(&pod, 5, sim_unix(16)));
        assert_eq!(available_check_at(&rs, &[&pod], 16), None);
        let none = json!({"spec": {}});
        assert_eq!(available_check_at(&none, &[&pod], 12), None);
    }

    use crate::sim::session::Session;

    fn progressing(s: &Session) -> (String, String) {
        let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
        let c = d["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == "Progressing")
            .unwrap();
        (
            c["status"].as_str().unwrap().to_string(),
            c["reason"].as_str().unwrap().to_string(),
        )
    }

    #[test]
    fn an_unpullable_image_times_out_on_the_deadline_and_is_not_rolled_back() {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line(
            r#"kubectl patch deploy web --type=merge -p '{"spec":{"progressDeadlineSeconds":45}}'"#,
        );
        s.run_line("kubectl set image deploy/web app=nginx:nonexistent");
        let started = s.now();
        // The last progress is the new ReplicaSet's first pod appearing; nothing follows.
        let last_update = |s: &Session| {
            let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
            d["status"]["conditions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["type"] == "Progressing")
                .unwrap()["lastUpdateTime"]
                .as_str()
                .and_then(parse_rfc3339)
                .unwrap()
        };
        let mut last = last_update(&s);
        while progressing(&s).1 != "ProgressDeadlineExceeded" {
            assert!(s.now() < started + 120, "never timed out");
            last = last_update(&s);
            s.run_line("tick 1");
        }
        // Exactly the first second after lastUpdateTime + deadline, not at the next resync.
        assert_eq!(sim_unix(s.now()), last + 46);
        assert_eq!(progressing(&s).0, "False");
        s.run_line("tick 120");
        // No automatic rollback: the broken template stays, the old pods keep serving.
        let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
        assert_eq!(
            d["spec"]["template"]["spec"]["containers"][0]["image"],
            "nginx:nonexistent"
        );
        let ready = s
            .cluster
            .api
            .list(Kind::Pod)
            .filter(|p| is_active(p) && is_ready(p))
            .count();
        assert_eq!(ready, 3);
        let out = s.run_line("kubectl get pods");
        assert!(out.stdout.contains("ImagePullBackOff"), "{}", out.stdout);
        // Rolling back revives the old ReplicaSet under a new revision.
        s.run_line("kubectl rollout undo deploy/web");
        s.run_line("tick 5");
        assert_eq!(
            progressing(&s),
            ("True".into(), "NewReplicaSetAvailable".into())
        );
        let revs: Vec<(String, String)> = s
            .cluster
            .api
            .list(Kind::ReplicaSet)
            .map(|rs| {
                let a = &rs["metadata"]["annotations"];
                (
                    a[REVISION].as_str().unwrap_or("").to_string(),
                    a[REVISION_HISTORY].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        assert!(revs.contains(&("3".into(), "1".into())), "{revs:?}");
    }

    #[test]
    fn min_ready_seconds_holds_the_rollout_until_pods_have_been_ready_long_enough() {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line(r#"kubectl patch deploy web --type=merge -p '{"spec":{"minReadySeconds":10}}'"#);
        s.run_line("tick 20");
        s.run_line("kubectl set image deploy/web app=nginx:1.28");
        let t0 = s.now();
        let new_rs_replicas = |s: &Session| -> i64 {
            s.cluster
                .api
                .list(Kind::ReplicaSet)
                .filter(|rs| {
                    rs["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.28"
                })
                .map(|rs| obj::int(rs, &["spec", "replicas"]).unwrap_or(0))
                .sum()
        };
        assert_eq!(new_rs_replicas(&s), 1);
        // Created at t0, Running at t0+1, Ready at t0+2, available once ready for more
        // than 10 s: at t0+13, and only then may the rollout take its next step.
        s.run_line("tick 12");
        assert_eq!(s.now(), t0 + 12);
        assert_eq!(new_rs_replicas(&s), 1);
        s.run_line("tick 1");
        assert_eq!(new_rs_replicas(&s), 2);
    }
}
