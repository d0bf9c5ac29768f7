//! The API server's validation of Deployments and ReplicaSets (pkg/apis/apps/validation):
//! what a learner's edit can trip, in the order the source checks it, worded as kubectl
//! prints a 422: `The Deployment "web" is invalid: <field>: <why>`, or one cause per line
//! after `* ` when there are several (kubectl's MultilineError).

use serde_json::Value;

mod cronjob;
mod daemonset;
mod hpa;
mod job;
mod meta;
mod pdb;
mod pod;
mod policy;
mod service;
mod statefulset;
mod webhook;

pub use cronjob::cron_job;
pub use daemonset::daemon_set;
pub use hpa::horizontal_pod_autoscaler;
pub use job::job;
pub use pdb::pdb;
pub use policy::{admission_policy, admission_policy_binding};
pub use service::{headless, service};
pub use statefulset::{controller_revision, persistent_volume_claim, stateful_set};
pub use webhook::webhook_configuration;

pub use meta::{
    LABEL_VALUE_RULE, dns1035_label, dns1123_subdomain, qualified_name, valid_label_value,
};

/// Whether `name` is a DNS-1123 label (a node name the demo accepts).
pub fn dns1123_label_ok(name: &str) -> bool {
    meta::dns1123_label(name).is_empty()
}

/// IsValidPortName's complaints about `name` (none when it is a valid port name).
pub fn port_name_errors(name: &str) -> Vec<&'static str> {
    pod::port_name(name)
}

use super::kind::Kind;
use super::obj;
use super::quantity::Quantity;
use super::status::ApiError;

/// `field.Invalid`'s body for an integer (Go's `%v`).
fn nonnegative(errs: &mut Vec<String>, field: &str, v: Option<i64>) {
    if let Some(n) = v.filter(|n| *n < 0) {
        errs.push(format!(
            "{field}: Invalid value: {n}: must be greater than or equal to 0"
        ));
    }
}

/// Go's `%#v` of a `map[string]string` decoded from `v` (nil when absent).
fn go_string_map(v: Option<&Value>) -> String {
    match v.and_then(Value::as_object) {
        None => "map[string]string(nil)".into(),
        Some(m) => {
            let pairs: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k:?}:{:?}", v.as_str().unwrap_or("")))
                .collect();
            format!("map[string]string{{{}}}", pairs.join(", "))
        }
    }
}

/// Go's `%#v` of a `metav1.LabelSelector` decoded from `v`.
fn go_label_selector(v: &Value) -> String {
    let exprs = match v.get("matchExpressions").and_then(Value::as_array) {
        None => "[]v1.LabelSelectorRequirement(nil)".to_string(),
        Some(a) => {
            let items: Vec<String> = a
                .iter()
                .map(|e| {
                    let values = match e.get("values").and_then(Value::as_array) {
                        None => "[]string(nil)".to_string(),
                        Some(vs) => format!(
                            "[]string{{{}}}",
                            vs.iter()
                                .map(|x| format!("{:?}", x.as_str().unwrap_or("")))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{:?}, Operator:{:?}, Values:{values}}}",
                        e["key"].as_str().unwrap_or(""),
                        e["operator"].as_str().unwrap_or("")
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
    };
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{exprs}}}",
        go_string_map(v.get("matchLabels"))
    )
}

/// A selector with empty lists dropped: the API stores an empty list as none.
fn normal_selector(s: &Value) -> Value {
    let mut s = s.clone();
    if let Some(m) = s.as_object_mut() {
        m.retain(|_, v| {
            !(v.is_null()
                || v.as_object().is_some_and(|o| o.is_empty())
                || v.as_array().is_some_and(|a| a.is_empty()))
        });
    }
    s
}

/// An IntOrString as an int: a percentage of 100, as getIntOrPercentValue reads it.
fn int_or_percent(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.strip_suffix('%').and_then(|p| p.parse().ok()),
        _ => None,
    }
}

/// ValidateDeploymentSpec / ValidateReplicaSetSpec, and on update (apps/v1) the
/// selector's immutability.
/// ValidateObjectMeta alone, for an object whose spec was validated before (a pod made
/// from its ReplicaSet's template).
pub fn object_meta(kind: Kind, o: &Value) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    invalid(kind, o, errs)
}

/// A custom object's metadata (the custom resource strategy's ValidateObjectMeta): its
/// name a DNS-1123 subdomain, its labels and annotations.
pub fn custom_object_meta(errs: &mut Vec<String>, o: &Value) {
    let name = obj::name(o);
    if !name.is_empty() {
        for m in meta::dns1123_subdomain(name) {
            errs.push(format!(
                "metadata.name: Invalid value: {}: {m}",
                crate::sim::output::go_quote(name)
            ));
        }
    }
    meta::object_meta(errs, o);
}

/// ValidatePod: its metadata and its spec.
pub fn pod(o: &Value) -> Result<(), ApiError> {
    quantities(Kind::Pod, o)?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    pod::pod_spec(&mut errs, "spec", &o["spec"]);
    invalid(Kind::Pod, o, errs)
}

/// ValidateDeployment / ValidateReplicaSet (`kind` says which), on create (`old` none)
/// and update.
pub fn workload(kind: Kind, o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    quantities(kind, o)?;
    let spec = &o["spec"];
    decodes(kind, spec)?;
    let mut errs = Vec::new();
    // ValidateObjectMeta comes first.
    meta::object_meta(&mut errs, o);
    nonnegative(&mut errs, "spec.replicas", spec["replicas"].as_i64());
    // ValidateReplicaSetSpec checks minReadySeconds before the selector; the Deployment's
    // spec after the strategy.
    if kind == Kind::ReplicaSet {
        nonnegative(
            &mut errs,
            "spec.minReadySeconds",
            spec["minReadySeconds"].as_i64(),
        );
    }
    let selector = spec.get("selector").filter(|s| !s.is_null());
    let template_labels = obj::path(spec, &["template", "metadata", "labels"]);
    let mismatch = || {
        format!(
            "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_string_map(template_labels)
        )
    };
    match selector {
        None => {
            errs.push("spec.selector: Required value".into());
            // A missing selector converts to labels.Nothing(), which matches no labels.
            errs.push(mismatch());
        }
        Some(s) => {
            let labels = s["matchLabels"].as_object().map_or(0, |m| m.len());
            let exprs = s["matchExpressions"].as_array().map_or(0, Vec::len);
            if labels + exprs == 0 {
                // The ReplicaSet check says "deployment" too, as the source does.
                errs.push(format!(
                    "spec.selector: Invalid value: {}: empty selector is invalid for deployment",
                    go_label_selector(s)
                ));
            } else if !obj::selector_matches_labels(s, template_labels.unwrap_or(&Value::Null)) {
                errs.push(mismatch());
            }
        }
    }
    template_meta(&mut errs, spec);
    pod::pod_spec(&mut errs, "spec.template.spec", &spec["template"]["spec"]);
    // ValidatePodTemplateSpecForReplicaSet: a ReplicaSet's pods always restart, and run
    // for no deadline (the Deployment's check says ReplicaSet too).
    always_restarts(&mut errs, spec, "ReplicaSet");
    if kind == Kind::Deployment {
        strategy(&mut errs, &spec["strategy"]);
        nonnegative(
            &mut errs,
            "spec.minReadySeconds",
            spec["minReadySeconds"].as_i64(),
        );
        nonnegative(
            &mut errs,
            "spec.revisionHistoryLimit",
            spec["revisionHistoryLimit"].as_i64(),
        );
        if let Some(p) = spec["progressDeadlineSeconds"].as_i64() {
            nonnegative(&mut errs, "spec.progressDeadlineSeconds", Some(p));
            if p <= spec["minReadySeconds"].as_i64().unwrap_or(0) {
                errs.push(format!(
                    "spec.progressDeadlineSeconds: Invalid value: {p}: must be greater than minReadySeconds"
                ));
            }
        }
    }
    if let (Some(old), Some(new)) = (old, selector)
        && old["spec"].get("selector").map(normal_selector) != Some(normal_selector(new))
    {
        errs.push(format!(
            "spec.selector: Invalid value: {}: field is immutable",
            go_label_selector(new)
        ));
    }
    invalid(kind, o, errs)
}

/// The template's labels and annotations, named as ValidatePodTemplateSpec names them
/// (without `metadata`).
fn template_meta(errs: &mut Vec<String>, spec: &Value) {
    meta::labels(
        errs,
        "spec.template.labels",
        obj::path(spec, &["template", "metadata", "labels"]),
    );
    meta::annotations(
        errs,
        "spec.template.annotations",
        obj::path(spec, &["template", "metadata", "annotations"]),
    );
}

/// What every workload controller asks of its pods: they always restart, and run for no
/// deadline (`owner` names the kind in the message, as the source does).
fn always_restarts(errs: &mut Vec<String>, spec: &Value, owner: &str) {
    let restart = spec["template"]["spec"]["restartPolicy"]
        .as_str()
        .unwrap_or("");
    if restart != "Always" {
        pod::not_supported(
            errs,
            "spec.template.spec.restartPolicy",
            restart,
            &["Always"],
        );
    }
    if !spec["template"]["spec"]["activeDeadlineSeconds"].is_null() {
        errs.push(format!(
            "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in {owner} is not Supported"
        ));
    }
}

/// The int32 fields a request must decode into before any validation: a number that is
/// not a whole int32 is refused as the server's JSON decoder refuses it. Past that, the
/// demo's own limit on replicas, which a real cluster would accept.
/// The resource quantities of a pod spec (a workload's template, or a pod's own) decode:
/// the API server refuses the request body otherwise.
fn quantities(kind: Kind, o: &Value) -> Result<(), ApiError> {
    let spec = match kind {
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet | Kind::DaemonSet | Kind::Job => {
            &o["spec"]["template"]["spec"]
        }
        Kind::CronJob => &o["spec"]["jobTemplate"]["spec"]["template"]["spec"],
        Kind::Pod => &o["spec"],
        Kind::Event
        | Kind::Node
        | Kind::Lease
        | Kind::PodDisruptionBudget
        | Kind::Service
        | Kind::Endpoints
        | Kind::EndpointSlice
        | Kind::ControllerRevision
        | Kind::PersistentVolumeClaim
        | Kind::HorizontalPodAutoscaler
        | Kind::MutatingWebhookConfiguration
        | Kind::ValidatingWebhookConfiguration
        | Kind::ValidatingAdmissionPolicy
        | Kind::ValidatingAdmissionPolicyBinding
        | Kind::CustomResourceDefinition
        | Kind::Custom(_) => return Ok(()),
    };
    let lists = ["containers", "initContainers"]
        .iter()
        .filter_map(|k| spec.get(*k).and_then(Value::as_array))
        .flatten()
        .flat_map(|c| ["limits", "requests"].map(|l| &c["resources"][l]))
        .filter_map(Value::as_object);
    for list in lists {
        for v in list.values().filter(|v| !v.is_null()) {
            if let Err(e) = Quantity::from_json(v) {
                return Err(ApiError {
                    reason: super::status::Reason::BadRequest,
                    message: format!(
                        "{kind} in version \"v1\" cannot be handled as a {kind}: {e}",
                        kind = kind.kind_name()
                    ),
                });
            }
        }
    }
    Ok(())
}

fn decodes(kind: Kind, spec: &Value) -> Result<(), ApiError> {
    let go_struct = match kind {
        Kind::Deployment => "DeploymentSpec",
        Kind::StatefulSet => "StatefulSetSpec",
        Kind::DaemonSet => "DaemonSetSpec",
        _ => "ReplicaSetSpec",
    };
    for f in [
        "replicas",
        "minReadySeconds",
        "revisionHistoryLimit",
        "progressDeadlineSeconds",
    ] {
        let Some(v) = spec.get(f).filter(|v| !v.is_null()) else {
            continue;
        };
        let fits = v.as_i64().is_some_and(|n| i32::try_from(n).is_ok());
        if !fits {
            let what = if v.is_number() { "number" } else { "value" };
            return Err(ApiError {
                reason: super::status::Reason::BadRequest,
                message: format!(
                    "{kind} in version \"v1\" cannot be handled as a {kind}: json: cannot unmarshal {what} {v} into Go struct field {go_struct}.spec.{f} of type int32",
                    kind = kind.kind_name()
                ),
            });
        }
    }
    if let Some(n) = spec["replicas"].as_i64().filter(|n| *n > MAX_REPLICAS) {
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo runs at most {MAX_REPLICAS} replicas: {n} is valid on a real cluster, but the demo would not keep up"
        )));
    }
    Ok(())
}

/// The most replicas the demo simulates.
pub const MAX_REPLICAS: i64 = 10_000;

/// IsValidPercent's message.
const PERCENT_RULE: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// ValidatePositiveIntOrPercent, and with `at_most_100` IsNotMoreThan100Percent: an
/// IntOrString that is a non-negative number or a percentage.
fn int_or_percent_field(errs: &mut Vec<String>, field: &str, value: &Value, at_most_100: bool) {
    match value {
        Value::Number(_) => nonnegative(errs, field, int_or_percent(value)),
        Value::String(s) => {
            // field.Error prints a value that is no Stringer with %#v, and
            // IntOrString's String() has a pointer receiver.
            let shown = format!(
                "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
                crate::sim::output::go_quote(s)
            );
            let digits = s.strip_suffix('%').unwrap_or("");
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                errs.push(format!("{field}: Invalid value: {shown}: {PERCENT_RULE}"));
            } else if at_most_100 && int_or_percent(value).is_none_or(|p| p > 100) {
                errs.push(format!(
                    "{field}: Invalid value: {shown}: must not be greater than 100%"
                ));
            }
        }
        _ => {}
    }
}

/// ValidateDeploymentStrategy.
fn strategy(errs: &mut Vec<String>, s: &Value) {
    let rolling = s.get("rollingUpdate").filter(|r| !r.is_null());
    match s["type"].as_str() {
        Some("Recreate") => {
            if rolling.is_some() {
                errs.push(
                    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
                        .into(),
                );
            }
        }
        Some("RollingUpdate") => {
            let Some(r) = rolling else {
                return;
            };
            let unavailable = int_or_percent(&r["maxUnavailable"]);
            let surge = int_or_percent(&r["maxSurge"]);
            for f in ["maxUnavailable", "maxSurge"] {
                let field = format!("spec.strategy.rollingUpdate.{f}");
                int_or_percent_field(errs, &field, &r[f], f == "maxUnavailable");
            }
            if unavailable == Some(0) && surge == Some(0) {
                errs.push(
                    "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"
                        .into(),
                );
            }
        }
        other => errs.push(format!(
            "spec.strategy.type: Unsupported value: {:?}: supported values: \"Recreate\", \"RollingUpdate\"",
            other.unwrap_or("")
        )),
    }
}

/// The count rules of ValidateDeploymentStatus / ValidateReplicaSetStatus: a forged status
/// must still be self-consistent.
pub fn status(kind: Kind, o: &Value) -> Result<(), ApiError> {
    if kind == Kind::DaemonSet {
        return daemonset_status(o);
    }
    if !matches!(
        kind,
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
    ) {
        return Ok(());
    }
    let n = |f: &str| obj::int(o, &["status", f]).unwrap_or(0);
    let mut errs = Vec::new();
    for f in [
        "replicas",
        "updatedReplicas",
        "readyReplicas",
        "availableReplicas",
        "unavailableReplicas",
        "fullyLabeledReplicas",
    ] {
        nonnegative(&mut errs, &format!("status.{f}"), Some(n(f)));
    }
    if n("readyReplicas") > n("replicas") {
        errs.push(format!(
            "status.readyReplicas: Invalid value: {}: cannot be greater than status.replicas",
            n("readyReplicas")
        ));
    }
    if n("availableReplicas") > n("replicas") {
        errs.push(format!(
            "status.availableReplicas: Invalid value: {}: cannot be greater than status.replicas",
            n("availableReplicas")
        ));
    }
    if n("availableReplicas") > n("readyReplicas") {
        errs.push(format!(
            "status.availableReplicas: Invalid value: {}: cannot be greater than readyReplicas",
            n("availableReplicas")
        ));
    }
    invalid(kind, o, errs)
}

/// validateDaemonSetStatus: every count non-negative.
fn daemonset_status(o: &Value) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    for f in [
        "currentNumberScheduled",
        "numberMisscheduled",
        "desiredNumberScheduled",
        "numberReady",
        "observedGeneration",
        "updatedNumberScheduled",
        "numberAvailable",
        "numberUnavailable",
    ] {
        nonnegative(
            &mut errs,
            &format!("status.{f}"),
            obj::int(o, &["status", f]),
        );
    }
    invalid(Kind::DaemonSet, o, errs)
}

/// kubectl's words for a 422 with these causes (checkErr, MultilineError).
pub(crate) fn invalid(kind: Kind, o: &Value, errs: Vec<String>) -> Result<(), ApiError> {
    let prefix = format!("The {} \"{}\" is invalid: ", kind.kind_name(), obj::name(o));
    match errs.as_slice() {
        [] => Ok(()),
        [one] => Err(ApiError::invalid(format!("{prefix}{one}"))),
        many => Err(ApiError::invalid(format!(
            "{prefix}\n{}",
            many.iter()
                .map(|e| format!("* {e}"))
                .collect::<Vec<_>>()
                .join("\n")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::sim::scenario::deployment;

    fn check(d: &Value, old: Option<&Value>) -> String {
        workload(Kind::Deployment, d, old).map_or_else(|e| e.message, |()| "ok".into())
    }

    #[test]
    fn resource_quantities_decode_and_requests_stay_within_limits() {
        let mut d = deployment("web", "nginx:1.27", 3);
        crate::sim::defaults::deployment(&mut d);
        let resources = &mut d["spec"]["template"]["spec"]["containers"][0]["resources"];
        *resources = json!({"limits": {"cpu": "lots"}, "requests": {"memory": null}});
        let err = workload(Kind::Deployment, &d, None).unwrap_err();
        assert_eq!(err.reason, super::super::status::Reason::BadRequest);
        assert_eq!(
            err.message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
        let pod = json!({"spec": {"initContainers": [{"resources": {"requests": {"cpu": "1x"}}}]}});
        assert!(
            super::pod(&pod)
                .unwrap_err()
                .message
                .starts_with("Pod in version \"v1\" cannot be handled as a Pod: ")
        );
        d["spec"]["template"]["spec"]["containers"][0]["resources"] =
            json!({"limits": {"cpu": 0.5, "memory": "1Gi"}});
        assert!(workload(Kind::Deployment, &d, None).is_ok());
        d["spec"]["template"]["spec"]["containers"][0]["resources"] =
            json!({"limits": {"cpu": "1"}, "requests": {"cpu": "1.5"}});
        assert_eq!(
            check(&d, None),
            "The Deployment \"web\" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: \"1500m\": must be less than or equal to cpu limit of 1"
        );
        let pod = json!({"metadata": {"name": "x"}, "spec": {"containers": [{"name": "app",
            "image": "nginx", "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "2"}}}]}});
        assert_eq!(
            super::pod(&pod).unwrap_err().message,
            "The Pod \"x\" is invalid: spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"
        );
        d["spec"]["template"]["spec"]["containers"][0]["resources"] = json!({});
        d["spec"]["template"]["spec"]["initContainers"] = json!([{"name": "init", "image": "busybox", "resources": {"limits": {"memory": "-64Mi"}}}]);
        assert_eq!(
            check(&d, None),
            "The Deployment \"web\" is invalid: spec.template.spec.initContainers[0].resources.limits[memory]: Invalid value: \"-64Mi\": must be greater than or equal to 0"
        );
    }

    #[test]
    fn a_valid_deployment_passes() {
        let mut d = deployment("web", "nginx:1.27", 3);
        crate::sim::defaults::deployment(&mut d);
        assert_eq!(check(&d, None), "ok");
    }

    #[test]
    fn each_rule_words_its_cause_as_the_api_does() {
        let base = {
            let mut d = deployment("web", "nginx:1.27", 3);
            crate::sim::defaults::deployment(&mut d);
            d
        };
        let with = |f: &dyn Fn(&mut Value)| {
            let mut d = base.clone();
            f(&mut d);
            d
        };
        let cases: Vec<(Value, &str)> = vec![
            (
                with(&|d| d["spec"]["replicas"] = json!(-1)),
                "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            ),
            (
                with(&|d| d["spec"]["template"]["metadata"]["labels"] = json!({"app": "other"})),
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`",
            ),
            (
                with(&|d| d["spec"]["template"]["spec"]["containers"][0]["image"] = json!("")),
                "spec.template.spec.containers[0].image: Required value",
            ),
            (
                with(&|d| {
                    d["spec"]["strategy"]["rollingUpdate"] =
                        json!({"maxSurge": 0, "maxUnavailable": "0%"})
                }),
                "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
            ),
            (
                with(&|d| d["spec"]["strategy"]["type"] = json!("Recreate")),
                "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
            ),
            (
                with(&|d| d["spec"]["progressDeadlineSeconds"] = json!(0)),
                "spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds",
            ),
        ];
        for (d, cause) in cases {
            assert_eq!(
                check(&d, None),
                format!("The Deployment \"web\" is invalid: {cause}")
            );
        }
    }

    #[test]
    fn a_changed_selector_is_immutable_and_several_causes_get_a_line_each() {
        let mut old = deployment("web", "nginx:1.27", 3);
        crate::sim::defaults::deployment(&mut old);
        let mut new = old.clone();
        new["spec"]["selector"] = json!({"matchLabels": {"app": "other"}});
        assert_eq!(
            check(&new, Some(&old)),
            "The Deployment \"web\" is invalid: \n\
             * spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`\n\
             * spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"other\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"
        );
    }
}
