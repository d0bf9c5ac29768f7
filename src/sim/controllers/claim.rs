//! What the Deployment and ReplicaSet controllers add to a plain sync: the Deployment
//! controller's adoption of orphaned ReplicaSets (CRM ClaimReplicaSets, as C1 does for
//! pods), and the delayed requeues (the work queue's AddAfter) for a progress deadline
//! (B9, requeueStuckDeployment) and for minReadySeconds (C7).

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::informer::Informer;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{parse_rfc3339, sim_unix};

use super::pods::{is_active, is_available, is_ready, ready_since};

/// Deployments whose selector matches an orphaned ReplicaSet.
pub fn selecting(informer: &Informer, rs: &Value) -> Vec<String> {
    informer
        .list(Kind::Deployment)
        .into_iter()
        .filter(|d| obj::selector_matches(&d["spec"]["selector"], rs))
        .map(|d| obj::name(d).to_string())
        .collect()
}

/// Adopts every ReplicaSet with no controller that the Deployment's selector matches,
/// patching in an ownerReference; returns them as written. Neither side may be deleting.
pub fn adopt_replicasets(informer: &Informer, api: &mut ApiServer, d: &Value) -> Vec<Value> {
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
            api.update_metadata(Kind::ReplicaSet, n, |rs| {
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
pub fn refresh_new_rs(api: &mut ApiServer, d: &Value, rss: &[Value], ni: usize) -> Option<Value> {
    let mut rs = rss[ni].clone();
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
    if rs == rss[ni] {
        return None;
    }
    api.update(Kind::ReplicaSet, rs, None).ok()
}

/// The simulated second at which `t_unix` falls.
fn tick_of(t_unix: i64, now: u64) -> u64 {
    let ahead = t_unix - sim_unix(now);
    if ahead <= 0 { now } else { now + ahead as u64 }
}

/// B9: a rollout that is neither complete nor timed out is looked at again the first
/// second after `lastUpdateTime + progressDeadlineSeconds`, so the condition turns to
/// ProgressDeadlineExceeded on time even if nothing else happens.
pub fn stuck_check_at(api: &ApiServer, name: &str, now: u64) -> Option<u64> {
    let d = api.get(Kind::Deployment, name).ok()?;
    if d["spec"]["paused"] == json!(true) {
        return None;
    }
    let deadline = obj::int(d, &["spec", "progressDeadlineSeconds"])?;
    let cond = d["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == "Progressing")?;
    if cond["status"] != "True" || cond["reason"] == "NewReplicaSetAvailable" {
        return None;
    }
    let last = cond["lastUpdateTime"].as_str().and_then(parse_rfc3339)?;
    Some(tick_of(last + deadline + 1, now).max(now + 1))
}

/// C7: with minReadySeconds, a ready pod becomes available later with no event of its
/// own, so the ReplicaSet is looked at again when the first such pod gets there.
pub fn available_check_at(rs: &Value, pods: &[&Value], now: u64) -> Option<u64> {
    let min_ready = obj::int(rs, &["spec", "minReadySeconds"]).unwrap_or(0);
    if min_ready <= 0 {
        return None;
    }
    pods.iter()
        .filter(|p| is_active(p) && is_ready(p))
        .filter(|p| !is_available(p, min_ready, sim_unix(now)))
        .filter_map(|p| ready_since(p))
        .map(|t| tick_of(t + min_ready + 1, now).max(now + 1))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::rfc3339;

    #[test]
    fn a_pod_ready_at_10_with_min_ready_5_is_checked_at_16() {
        let rs = json!({"spec": {"minReadySeconds": 5}});
        let pod = json!({"status": {"phase": "Running", "conditions": [
            {"type": "Ready", "status": "True", "lastTransitionTime": rfc3339(10)}]}});
        assert_eq!(available_check_at(&rs, &[&pod], 12), Some(16));
        // Not before it is available, and nothing once it is.
        assert!(!is_available(&pod, 5, sim_unix(15)));
        assert!(is_available(&pod, 5, sim_unix(16)));
        assert_eq!(available_check_at(&rs, &[&pod], 16), None);
        let none = json!({"spec": {}});
        assert_eq!(available_check_at(&none, &[&pod], 12), None);
    }
}
