//! The controllers apiextensions-apiserver runs inside kube-apiserver for CRDs
//! (`pkg/controller/status/naming_controller.go`, `pkg/controller/establish`,
//! `pkg/controller/finalizer/crd_finalizer.go`). They are the API server's, so they run
//! whether or not kube-controller-manager does.
//!
//! - naming: a CRD's names are accepted unless another CRD of its group holds one of
//!   them (NamesAccepted), and Established starts False (NotAccepted, then Installing);
//! - establishing: once the names are accepted, Established (the kind is served and
//!   appears in discovery; a single API server needs no delay);
//! - finalizing: a CRD being deleted has every object of its kind deleted, waits until
//!   none remain (finalizers on them hold it, polled for a minute, then retried), then
//!   drops its cleanup finalizer, and the CRD goes.

use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::apiextensions::CLEANUP_FINALIZER;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{parse_rfc3339, rfc3339, sim_unix};

/// How long the finalizer polls for the objects to go before it reports and retries
/// (`wait.PollImmediate(5s, 1m)`).
const CLEANUP_POLL_SECONDS: i64 = 60;

/// SetCRDCondition: a condition's lastTransitionTime moves only when its status does.
pub fn set_condition(
    crd: &mut Value,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: u64,
) {
    let conditions = crd
        .as_object_mut()
        .map(|m| m.entry("status").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
        .map(|s| s.entry("conditions").or_insert_with(|| json!([])));
    let Some(Value::Array(list)) = conditions else {
        return;
    };
    let fresh = json!({"type": type_, "status": status, "lastTransitionTime": rfc3339(now),
        "reason": reason, "message": message});
    match list.iter_mut().find(|c| c["type"] == type_) {
        Some(c) => {
            let time = if c["status"] == status {
                c["lastTransitionTime"].clone()
            } else {
                json!(rfc3339(now))
            };
            *c = fresh;
            c["lastTransitionTime"] = time;
        }
        None => list.push(fresh),
    }
}

fn condition<'a>(crd: &'a Value, type_: &str) -> Option<&'a Value> {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c["type"] == type_)
}

/// The names other CRDs of `group` hold (their accepted names).
fn taken(crds: &[Value], me: &str, group: &str) -> (Vec<String>, Vec<String>) {
    let (mut resources, mut kinds) = (Vec::new(), Vec::new());
    for c in crds {
        if obj::name(c) == me || obj::str(c, &["spec", "group"]) != Some(group) {
            continue;
        }
        let Some(a) = c.pointer("/status/acceptedNames") else {
            continue;
        };
        for k in ["plural", "singular"] {
            resources.extend(a.get(k).and_then(Value::as_str).map(str::to_string));
        }
        for s in a
            .get("shortNames")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            resources.extend(s.as_str().map(str::to_string));
        }
        for k in ["kind", "listKind"] {
            kinds.extend(a.get(k).and_then(Value::as_str).map(str::to_string));
        }
    }
    (resources, kinds)
}

/// NamingConditionController.calculateNamesAndConditions: the names it accepts and the
/// NamesAccepted condition (the last conflict found wins).
fn naming(crd: &Value, crds: &[Value]) -> (Value, (&'static str, &'static str, String)) {
    let group = obj::str(crd, &["spec", "group"]).unwrap_or("");
    let (resources, kinds) = taken(crds, obj::name(crd), group);
    let requested = crd.pointer("/spec/names").cloned().unwrap_or(json!({}));
    let accepted_before = crd
        .pointer("/status/acceptedNames")
        .cloned()
        .unwrap_or(json!({}));
    let mut accepted = json!({});
    let mut result = ("True", "NoConflicts", "no conflicts found".to_string());
    let field = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let take = |k: &str,
                used: &[String],
                reason: &'static str,
                accepted: &mut Value,
                result: &mut (&'static str, &'static str, String)| {
        let want = field(&requested, k);
        if field(&accepted_before, k) == want || !used.contains(&want) {
            accepted[k] = json!(want);
        } else {
            *result = ("False", reason, format!("\"{want}\" is already in use"));
            let before = field(&accepted_before, k);
            if !before.is_empty() {
                accepted[k] = json!(before);
            }
        }
    };
    take(
        "plural",
        &resources,
        "PluralConflict",
        &mut accepted,
        &mut result,
    );
    take(
        "singular",
        &resources,
        "SingularConflict",
        &mut accepted,
        &mut result,
    );
    let shorts: Vec<String> = requested
        .get("shortNames")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_string))
        .collect();
    let clashes: Vec<String> = shorts
        .iter()
        .filter(|s| resources.contains(s))
        .map(|s| format!("\"{s}\" is already in use"))
        .collect();
    if clashes.is_empty() {
        if !shorts.is_empty() {
            accepted["shortNames"] = json!(shorts);
        }
    } else {
        let message = match clashes.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        result = ("False", "ShortNamesConflict", message);
    }
    take("kind", &kinds, "KindConflict", &mut accepted, &mut result);
    take(
        "listKind",
        &kinds,
        "ListKindConflict",
        &mut accepted,
        &mut result,
    );
    if let Some(c) = requested.get("categories") {
        accepted["categories"] = c.clone();
    }
    (accepted, result)
}

/// One pass of the three controllers over every CRD.
pub fn reconcile(api: &mut ApiServer, now: u64) {
    if api.count(Kind::CustomResourceDefinition) == 0 {
        return;
    }
    let crds: Vec<Value> = api.list(Kind::CustomResourceDefinition).cloned().collect();
    for crd in &crds {
        let name = obj::name(crd).to_string();
        if obj::is_deleting(crd) {
            finalize(api, crd, now);
            continue;
        }
        let (accepted, (status, reason, message)) = naming(crd, &crds);
        let mut next = crd.clone();
        obj::set(&mut next, &["status", "acceptedNames"], accepted);
        set_condition(&mut next, "NamesAccepted", status, reason, &message, now);
        let established = condition(&next, "Established").is_some_and(|c| c["status"] == "True");
        if !established {
            if status == "True" {
                // The establishing controller follows at once on a single API server.
                set_condition(
                    &mut next,
                    "Established",
                    "True",
                    "InitialNamesAccepted",
                    "the initial names have been accepted",
                    now,
                );
            } else if condition(&next, "Established").is_none() {
                set_condition(
                    &mut next,
                    "Established",
                    "False",
                    "NotAccepted",
                    "not all names are accepted",
                    now,
                );
            }
        }
        if next != *crd {
            let _ = api.update_status_with(Kind::CustomResourceDefinition, &name, |o| *o = next);
        }
    }
}

/// CRDFinalizer.sync for a CRD being deleted.
fn finalize(api: &mut ApiServer, crd: &Value, now: u64) {
    let has_cleanup = crd
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|f| f == CLEANUP_FINALIZER));
    if !has_cleanup {
        return;
    }
    let name = obj::name(crd).to_string();
    let kind = api
        .definitions()
        .find(|d| d.crd == name)
        .filter(|d| d.established)
        .and_then(|d| d.kind())
        .map(Kind::Custom);
    let mut next = crd.clone();
    let remaining = match kind {
        Some(kind) => {
            let names: Vec<String> = api.list(kind).map(|o| obj::name(o).to_string()).collect();
            for n in &names {
                let _ = api.delete(kind, n, None, now);
            }
            api.count(kind)
        }
        None => 0,
    };
    if remaining > 0 {
        let since = obj::str(crd, &["metadata", "deletionTimestamp"])
            .and_then(parse_rfc3339)
            .unwrap_or(0);
        if sim_unix(now) - since >= CLEANUP_POLL_SECONDS {
            set_condition(
                &mut next,
                "Terminating",
                "True",
                "InstanceDeletionCheck",
                "could not confirm zero CustomResources remaining: timed out waiting for the condition",
                now,
            );
        } else {
            set_condition(
                &mut next,
                "Terminating",
                "True",
                "InstanceDeletionInProgress",
                "CustomResource deletion is in progress",
                now,
            );
        }
        if next != *crd {
            let _ = api.update_status_with(Kind::CustomResourceDefinition, &name, |o| *o = next);
        }
        return;
    }
    if kind.is_some() {
        set_condition(
            &mut next,
            "Terminating",
            "False",
            "InstanceDeletionCompleted",
            "removed all instances",
            now,
        );
    } else {
        set_condition(
            &mut next,
            "Terminating",
            "False",
            "NeverEstablished",
            "resource was never established",
            now,
        );
    }
    if let Some(a) = next
        .pointer_mut("/metadata/finalizers")
        .and_then(Value::as_array_mut)
    {
        a.retain(|f| f != CLEANUP_FINALIZER);
    }
    let _ = api.update_status_with(Kind::CustomResourceDefinition, &name, |o| *o = next);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_condition_keeps_its_transition_time_while_its_status_holds() {
        let mut crd = json!({});
        set_condition(&mut crd, "Established", "False", "NotAccepted", "x", 1);
        set_condition(&mut crd, "Established", "False", "Installing", "y", 5);
        let c = condition(&crd, "Established").unwrap().clone();
        assert_eq!(
            (c["reason"].as_str(), c["lastTransitionTime"].as_str()),
            (Some("Installing"), Some(rfc3339(1).as_str()))
        );
        set_condition(
            &mut crd,
            "Established",
            "True",
            "InitialNamesAccepted",
            "z",
            9,
        );
        assert_eq!(
            condition(&crd, "Established").unwrap()["lastTransitionTime"],
            rfc3339(9)
        );
    }

    #[test]
    fn a_name_another_crd_of_the_group_holds_is_refused() {
        let other = json!({"metadata": {"name": "apps.example.com"}, "spec": {"group": "example.com"},
            "status": {"acceptedNames": {"plural": "apps", "singular": "app", "kind": "App", "listKind": "AppList", "shortNames": ["wa"]}}});
        let mine = json!({"metadata": {"name": "webapps.example.com"}, "spec": {"group": "example.com",
            "names": {"plural": "webapps", "singular": "webapp", "kind": "WebApp", "listKind": "WebAppList", "shortNames": ["wa"]}}});
        let (accepted, (status, reason, message)) = naming(&mine, &[other, mine.clone()]);
        assert_eq!(
            (status, reason, message.as_str()),
            ("False", "ShortNamesConflict", "\"wa\" is already in use")
        );
        assert_eq!(accepted["plural"], "webapps");
        assert!(accepted.get("shortNames").is_none());
    }
}
