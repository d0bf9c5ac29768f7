//! A StatefulSet pod's identity and storage (pkg/controller/statefulset
//! stateful_set_utils.go, 1.32): ordinals parsed from names, the pod built for an ordinal
//! at a revision, its claims, and the owner references the PVC retention policy asks for.

use serde_json::{Map, Value, json};

use crate::sim::obj;

/// `statefulset.kubernetes.io/pod-name`.
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// `apps.kubernetes.io/pod-index` (PodIndexLabel, on by default in 1.32).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";
/// `controller-revision-hash`: the revision a pod was made from.
pub const REVISION_LABEL: &str = "controller-revision-hash";

/// getParentNameAndOrdinal: `web-2` is ordinal 2 of `web`; a name without a numeric
/// suffix has none (`^(.*)-([0-9]+)$`).
pub fn parent_and_ordinal(pod_name: &str) -> Option<(&str, i64)> {
    let (parent, n) = pod_name.rsplit_once('-')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // strconv.ParseInt(.., 10, 32): too large an ordinal is none.
    let n: i32 = n.parse().ok()?;
    Some((parent, i64::from(n)))
}

pub fn ordinal(pod_name: &str) -> Option<i64> {
    parent_and_ordinal(pod_name).map(|(_, n)| n)
}

/// isMemberOf: the pod's name says it belongs to `set`.
pub fn is_member(set: &Value, pod_name: &str) -> bool {
    parent_and_ordinal(pod_name).is_some_and(|(p, _)| p == obj::name(set))
}

pub fn start_ordinal(set: &Value) -> i64 {
    set.pointer("/spec/ordinals/start")
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

pub fn replicas(set: &Value) -> i64 {
    obj::int(set, &["spec", "replicas"]).unwrap_or(1)
}

/// podInOrdinalRange.
pub fn in_range(set: &Value, pod_name: &str) -> bool {
    let start = start_ordinal(set);
    ordinal(pod_name).is_some_and(|o| o >= start && o < start + replicas(set))
}

pub fn pod_name(set: &Value, ordinal: i64) -> String {
    format!("{}-{ordinal}", obj::name(set))
}

/// The claim template `claim` makes for `ordinal`: `<template>-<set>-<ordinal>`.
pub fn claim_name(set: &Value, template: &str, ordinal: i64) -> String {
    format!("{template}-{}-{ordinal}", obj::name(set))
}

/// A pod's revision label.
pub fn pod_revision(pod: &Value) -> &str {
    pod["metadata"]["labels"][REVISION_LABEL]
        .as_str()
        .unwrap_or("")
}

/// identityMatches: the name, namespace and pod-name label an ordinal of `set` has.
pub fn identity_matches(set: &Value, pod: &Value) -> bool {
    let name = obj::name(pod);
    is_member(set, name) && pod["metadata"]["labels"][POD_NAME_LABEL].as_str() == Some(name)
}

/// The names of the claims `ordinal` gets, one per claim template (sorted).
pub fn claim_names(set: &Value, ordinal: i64) -> Vec<String> {
    let mut names: Vec<String> = set["spec"]["volumeClaimTemplates"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|t| claim_name(set, obj::name(t), ordinal))
        .collect();
    names.sort();
    names
}

/// getPersistentVolumeClaims: each claim template for the pod's ordinal, labelled with
/// the template's labels and the set's selector labels, by template name (sorted, where Go
/// walks a map).
pub fn claims(set: &Value, ordinal: i64) -> Vec<(String, Value)> {
    let selector_labels = set["spec"]["selector"]["matchLabels"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut out: Vec<(String, Value)> = set["spec"]["volumeClaimTemplates"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|t| {
            let template = obj::name(t).to_string();
            let mut claim = t.clone();
            let mut labels: Map<String, Value> = t["metadata"]["labels"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            labels.extend(selector_labels.clone());
            let meta = &mut claim["metadata"];
            meta["name"] = json!(claim_name(set, &template, ordinal));
            meta["namespace"] = json!("default");
            if let Some(m) = meta.as_object_mut() {
                m.remove("creationTimestamp");
            }
            meta["labels"] = Value::Object(labels);
            if let Some(m) = claim.as_object_mut() {
                m.remove("status");
            }
            (template, claim)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// newStatefulSetPod: GetPodFromTemplate of `template` (the set's template at the pod's
/// revision), named for its ordinal, with its identity (labels, hostname, the governing
/// Service as subdomain), its claims as volumes ahead of the template's own, and its
/// revision label.
pub fn new_pod(set: &Value, template: &Value, ordinal: i64, revision: &str) -> Value {
    let name = pod_name(set, ordinal);
    let tmeta = &template["metadata"];
    let mut labels = tmeta["labels"].as_object().cloned().unwrap_or_default();
    labels.insert(POD_NAME_LABEL.into(), json!(name));
    labels.insert(POD_INDEX_LABEL.into(), json!(ordinal.to_string()));
    labels.insert(REVISION_LABEL.into(), json!(revision));
    // GetPodFromTemplate names the set as the prefix, which the pod keeps.
    let mut meta = json!({
        "name": name,
        "generateName": format!("{}-", obj::name(set)),
        "namespace": "default",
        "labels": labels,
        "ownerReferences": [obj::owner_ref(set, "StatefulSet")],
    });
    for key in ["annotations", "finalizers"] {
        if let Some(v) = tmeta.get(key).filter(|v| !v.is_null()) {
            meta[key] = v.clone();
        }
    }
    let mut spec = template["spec"].clone();
    spec["hostname"] = json!(name);
    if let Some(service) = set["spec"]["serviceName"]
        .as_str()
        .filter(|s| !s.is_empty())
    {
        spec["subdomain"] = json!(service);
    }
    let claims = claims(set, ordinal);
    if !claims.is_empty() {
        let mut volumes: Vec<Value> = claims
            .iter()
            .map(|(template, claim)| {
                json!({"name": template, "persistentVolumeClaim": {"claimName": obj::name(claim)}})
            })
            .collect();
        let own = spec["volumes"].as_array().cloned().unwrap_or_default();
        volumes.extend(
            own.into_iter()
                .filter(|v| !claims.iter().any(|(t, _)| v["name"] == t.as_str())),
        );
        spec["volumes"] = Value::Array(volumes);
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec})
}

/// The retention policy, Retain/Retain when unset.
fn policy(set: &Value) -> (bool, bool) {
    let p = &set["spec"]["persistentVolumeClaimRetentionPolicy"];
    (p["whenDeleted"] == "Delete", p["whenScaled"] == "Delete")
}

fn refs(claim: &Value) -> &[Value] {
    claim["metadata"]["ownerReferences"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
}

/// matchesRef: the same kind and name, whatever the uid.
fn matches_ref(r: &Value, kind: &str, name: &str) -> bool {
    r["kind"] == kind && r["name"] == name
}

fn has_ref(claim: &Value, uid: &str) -> bool {
    !uid.is_empty() && refs(claim).iter().any(|r| r["uid"] == uid)
}

/// hasStaleOwnerRef: a reference to the same-named owner with another uid.
fn stale(claim: &Value, kind: &str, owner: &Value) -> bool {
    refs(claim)
        .iter()
        .find(|r| matches_ref(r, kind, obj::name(owner)))
        .is_some_and(|r| r["uid"] != owner["metadata"]["uid"])
}

/// hasUnexpectedController: with a Delete policy, a controller other than the set or pod
/// (or a stale reference to either) leaves the claim alone.
pub fn unexpected_controller(claim: &Value, set: &Value, pod: &Value) -> bool {
    if policy(set) == (false, false) {
        return false;
    }
    refs(claim).iter().any(|r| {
        if matches_ref(r, "StatefulSet", obj::name(set)) {
            return r["uid"] != set["metadata"]["uid"];
        }
        if matches_ref(r, "Pod", obj::name(pod)) {
            return r["uid"] != pod["metadata"]["uid"];
        }
        r["controller"] == true
    })
}

/// isClaimOwnerUpToDate.
pub fn claim_owner_up_to_date(claim: &Value, set: &Value, pod: &Value) -> bool {
    if stale(claim, "StatefulSet", set) || stale(claim, "Pod", pod) {
        return true;
    }
    let (set_uid, pod_uid) = (obj::uid(set), obj::uid(pod));
    if unexpected_controller(claim, set, pod) {
        return !(has_ref(claim, set_uid) || has_ref(claim, pod_uid));
    }
    // hasNonControllerOwner.
    if refs(claim).iter().any(|r| {
        (r["uid"] == set_uid || (!pod_uid.is_empty() && r["uid"] == pod_uid))
            && r["controller"] != true
    }) {
        return false;
    }
    let scaled_down = !in_range(set, obj::name(pod));
    let (on_set, on_pod) = (has_ref(claim, set_uid), has_ref(claim, pod_uid));
    match policy(set) {
        (false, false) => !on_set && !on_pod,
        (true, false) => on_set && !on_pod,
        (false, true) => !on_set && scaled_down == on_pod,
        (true, true) => scaled_down != on_set && scaled_down == on_pod,
    }
}

/// updateClaimOwnerRefForSetAndPod: the claim's references to the set and pod, scrubbed
/// and put back as the policy says.
pub fn claim_refs_for_policy(claim: &Value, set: &Value, pod: &Value) -> Vec<Value> {
    let unexpected = unexpected_controller(claim, set, pod);
    let mut out: Vec<Value> = refs(claim)
        .iter()
        .filter(|r| {
            !matches_ref(r, "StatefulSet", obj::name(set)) && !matches_ref(r, "Pod", obj::name(pod))
        })
        .cloned()
        .collect();
    if unexpected {
        return out;
    }
    let scaled_down = !in_range(set, obj::name(pod));
    let pod_ref = || obj::owner_ref(pod, "Pod");
    match policy(set) {
        (true, false) => out.push(obj::owner_ref(set, "StatefulSet")),
        (false, true) if scaled_down => out.push(pod_ref()),
        (true, true) if scaled_down => out.push(pod_ref()),
        (true, true) => out.push(obj::owner_ref(set, "StatefulSet")),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(policy: (&str, &str)) -> Value {
        json!({"metadata": {"name": "web", "uid": "s1"},
            "spec": {"replicas": 2, "serviceName": "web",
                "selector": {"matchLabels": {"app": "web"}},
                "persistentVolumeClaimRetentionPolicy": {"whenDeleted": policy.0, "whenScaled": policy.1},
                "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"]}}],
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "nginx"}]}}}})
    }

    #[test]
    fn ordinals_come_from_the_name() {
        assert_eq!(parent_and_ordinal("web-12"), Some(("web", 12)));
        assert_eq!(parent_and_ordinal("my-db-0"), Some(("my-db", 0)));
        assert_eq!(parent_and_ordinal("web-x"), None);
        assert_eq!(parent_and_ordinal("web-"), None);
        assert_eq!(parent_and_ordinal("web-99999999999"), None);
    }

    #[test]
    fn a_pod_carries_its_identity_and_its_claim() {
        let s = set(("Retain", "Retain"));
        let p = new_pod(&s, &s["spec"]["template"], 1, "web-abc");
        assert_eq!(p["metadata"]["name"], "web-1");
        assert_eq!(p["metadata"]["labels"][POD_NAME_LABEL], "web-1");
        assert_eq!(p["metadata"]["labels"][POD_INDEX_LABEL], "1");
        assert_eq!(p["metadata"]["labels"][REVISION_LABEL], "web-abc");
        assert_eq!(p["spec"]["hostname"], "web-1");
        assert_eq!(p["spec"]["subdomain"], "web");
        assert_eq!(
            p["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"],
            "data-web-1"
        );
        let (_, c) = &claims(&s, 1)[0];
        assert_eq!(c["metadata"]["labels"]["app"], "web");
        assert!(identity_matches(&s, &p));
    }

    #[test]
    fn the_retention_policy_decides_the_claims_owners() {
        let pod = |n: &str| json!({"metadata": {"name": n, "uid": format!("u-{n}")}});
        let claim = json!({"metadata": {"name": "data-web-1"}});
        let retain = set(("Retain", "Retain"));
        assert!(claim_owner_up_to_date(&claim, &retain, &pod("web-1")));
        let both = set(("Delete", "Delete"));
        // In range: owned by the set only.
        let refs = claim_refs_for_policy(&claim, &both, &pod("web-1"));
        assert_eq!(refs.len(), 1);
        assert_eq!(refs[0]["kind"], "StatefulSet");
        // Scaled down (ordinal 2 of 2 replicas): owned by its pod only.
        let refs = claim_refs_for_policy(&claim, &both, &pod("web-2"));
        assert_eq!(refs[0]["kind"], "Pod");
        assert_eq!(refs[0]["apiVersion"], "v1");
        let mut owned = claim.clone();
        owned["metadata"]["ownerReferences"] = json!(refs);
        assert!(claim_owner_up_to_date(&owned, &both, &pod("web-2")));
        // A claim the set owns is out of date once the policy says Retain.
        let mut kept = claim.clone();
        kept["metadata"]["ownerReferences"] =
            json!(claim_refs_for_policy(&claim, &both, &pod("web-1")));
        assert!(claim_owner_up_to_date(&kept, &both, &pod("web-1")));
        assert!(!claim_owner_up_to_date(&kept, &retain, &pod("web-1")));
        assert!(claim_refs_for_policy(&kept, &retain, &pod("web-1")).is_empty());
    }
}
