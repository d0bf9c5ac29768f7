//! ValidateJob / ValidateJobUpdate (pkg/apis/batch/validation, 1.32): what a hand-written
//! Job can trip, in the order the source checks it. Indexed Jobs (and with them
//! `backoffLimitPerIndex`, `maxFailedIndexes`, `successPolicy` and the FailIndex action)
//! are refused in the demo's own words: a real cluster runs them, the demo does not.

use serde_json::Value;

use super::{
    Kind, go_label_selector, go_string_map, invalid, meta, nonnegative, normal_selector, pod,
    quantities,
};
use crate::sim::kinds::job::{CONTROLLER_UID, JOB_NAME};
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

/// A request's integer field decodes into its Go type (`int32`, `int64`), or the request
/// is refused before any validation: `go_field` is where the decoder says it was
/// (`JobSpec.spec.completions`).
pub(super) fn go_int(kind: Kind, v: &Value, go_field: &str, ty: &str) -> Result<(), ApiError> {
    if v.is_null() {
        return Ok(());
    }
    let fits = match ty {
        "int32" => v.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        _ => v.as_i64().is_some(),
    };
    if fits {
        return Ok(());
    }
    let what = if v.is_number() { "number" } else { "value" };
    let name = kind.kind_name();
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    Err(ApiError {
        reason: crate::sim::status::Reason::BadRequest,
        message: format!(
            "{name} in version \"{version}\" cannot be handled as a {name}: json: cannot unmarshal {what} {v} into Go struct field {go_field} of type {ty}"
        ),
    })
}

/// The JobSpec's integer fields (`at` is the spec's path) decode.
pub(super) fn decodes(kind: Kind, spec: &Value, at: &str) -> Result<(), ApiError> {
    for (f, ty) in [
        ("parallelism", "int32"),
        ("completions", "int32"),
        ("backoffLimit", "int32"),
        ("ttlSecondsAfterFinished", "int32"),
        ("activeDeadlineSeconds", "int64"),
    ] {
        go_int(kind, &spec[f], &format!("JobSpec.{at}.{f}"), ty)?;
    }
    Ok(())
}

pub fn job(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    quantities(Kind::Job, o)?;
    let spec = &o["spec"];
    decodes(Kind::Job, spec, "spec")?;
    unmodelled(spec)?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    if spec["manualSelector"] != true {
        generated_selector(&mut errs, o);
    }
    match spec.get("selector").filter(|s| !s.is_null()) {
        None => errs.push("spec.selector: Required value".into()),
        Some(s) => {
            let labels = obj::path(spec, &["template", "metadata", "labels"]);
            if !obj::selector_matches_labels(s, labels.unwrap_or(&Value::Null)) {
                errs.push(format!(
                    "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
                    go_string_map(labels)
                ));
            }
        }
    }
    job_spec(&mut errs, spec, "spec");
    if let Some(old) = old {
        update(&mut errs, spec, &old["spec"], old);
    }
    invalid(Kind::Job, o, errs)
}

/// validateJobSpec: what a Job's spec, or a CronJob's job template, must hold; `at` is
/// where it is (`spec`, `spec.jobTemplate.spec`).
pub(super) fn job_spec(errs: &mut Vec<String>, spec: &Value, at: &str) {
    for f in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
    ] {
        nonnegative(errs, &format!("{at}.{f}"), spec[f].as_i64());
    }
    meta::labels(
        errs,
        &format!("{at}.template.labels"),
        obj::path(spec, &["template", "metadata", "labels"]),
    );
    meta::annotations(
        errs,
        &format!("{at}.template.annotations"),
        obj::path(spec, &["template", "metadata", "annotations"]),
    );
    pod::pod_spec(
        errs,
        &format!("{at}.template.spec"),
        &spec["template"]["spec"],
    );
    let policy = spec.get("podFailurePolicy").filter(|p| !p.is_null());
    let restart = spec["template"]["spec"]["restartPolicy"]
        .as_str()
        .unwrap_or("");
    match restart {
        "Always" | "" => errs.push(format!(
            "{at}.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
        )),
        "OnFailure" if policy.is_some() => errs.push(format!(
            "{at}.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"
        )),
        "OnFailure" | "Never" => {}
        other => pod::not_supported(
            errs,
            &format!("{at}.template.spec.restartPolicy"),
            other,
            &["OnFailure", "Never"],
        ),
    }
    if let Some(p) = policy {
        pod_failure_policy(errs, p, &spec["template"]["spec"], at);
    }
    let replacement: &[&str] = if policy.is_some() {
        &["Failed"]
    } else {
        &["Failed", "TerminatingOrFailed"]
    };
    pod::one_of(
        errs,
        &format!("{at}.podReplacementPolicy"),
        &spec["podReplacementPolicy"],
        replacement,
    );
}

/// What the demo does not run, refused before anything else.
pub(super) fn unmodelled(spec: &Value) -> Result<(), ApiError> {
    let indexed = spec["completionMode"] == "Indexed";
    let per_index = ["backoffLimitPerIndex", "maxFailedIndexes", "successPolicy"]
        .into_iter()
        .find(|f| spec.get(*f).is_some_and(|v| !v.is_null()));
    if indexed || per_index.is_some() {
        let what = per_index.map_or("completionMode: Indexed".to_string(), |f| f.to_string());
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo runs NonIndexed Jobs only: {what} is valid on a real cluster (1.32), but the demo does not simulate Indexed Jobs"
        )));
    }
    // The demo's own limit, as for a workload's replicas: a real cluster would accept more.
    let most = super::MAX_REPLICAS;
    if let Some(p) = spec["parallelism"].as_i64().filter(|p| *p > most) {
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo runs at most {most} pods of a Job at once: parallelism {p} is valid on a real cluster, but the demo would not keep up"
        )));
    }
    if let Some(m) = spec["managedBy"]
        .as_str()
        .filter(|m| *m != "kubernetes.io/job-controller")
    {
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo has no controller but kube-controller-manager's: a Job managed by {} would be left to a controller the demo does not run",
            go_quote(m)
        )));
    }
    Ok(())
}

/// validateGeneratedSelector: the template carries the generated labels, and the
/// selector matches the job's uid.
fn generated_selector(errs: &mut Vec<String>, o: &Value) {
    let (name, uid) = (obj::name(o), obj::uid(o));
    if uid.is_empty() {
        errs.push("metadata.uid: Required value".into());
        return;
    }
    let labels = obj::path(o, &["spec", "template", "metadata", "labels"]);
    for (key, want) in [
        ("controller-uid", uid),
        ("job-name", name),
        (CONTROLLER_UID, uid),
        (JOB_NAME, name),
    ] {
        let path = format!("spec.template.metadata.labels[{key}]");
        match labels.and_then(|l| l.get(key)).and_then(Value::as_str) {
            None => errs.push(format!("{path}: Required value: must be '{want}'")),
            Some(v) if v != want => errs.push(format!(
                "{path}: Invalid value: {}: must be '{want}'",
                go_string_map(labels)
            )),
            Some(_) => {}
        }
    }
    let selector = &o["spec"]["selector"];
    let own = serde_json::json!({ CONTROLLER_UID: uid });
    if !obj::selector_matches_labels(selector, &own) {
        errs.push(format!(
            "spec.selector: Invalid value: {}: `selector` not auto-generated",
            go_label_selector(selector)
        ));
    }
}

/// validatePodFailurePolicy: each rule's action and its one requirement, on exit codes
/// or on pod conditions.
fn pod_failure_policy(errs: &mut Vec<String>, policy: &Value, pod_spec: &Value, at: &str) {
    let rules = policy["rules"].as_array().map_or(&[][..], Vec::as_slice);
    if rules.len() > 20 {
        errs.push(format!(
            "{at}.podFailurePolicy.rules: Too many: {}: must have at most 20 items",
            rules.len()
        ));
        return;
    }
    let names: Vec<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|k| pod_spec[*k].as_array().into_iter().flatten())
        .filter_map(|c| c["name"].as_str())
        .collect();
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("{at}.podFailurePolicy.rules[{i}]");
        match rule["action"].as_str().unwrap_or("") {
            "" => errs.push(format!(
                "{at}.action: Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]"
            )),
            "Count" | "FailJob" | "Ignore" => {}
            "FailIndex" => errs.push(format!(
                "{at}.action: Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set"
            )),
            other => pod::not_supported(
                errs,
                &format!("{at}.action"),
                other,
                &["Count", "FailIndex", "FailJob", "Ignore"],
            ),
        }
        let codes = rule.get("onExitCodes").filter(|v| !v.is_null());
        let conditions = rule.get("onPodConditions").filter(|v| !v.is_null());
        match (codes, conditions) {
            (Some(_), Some(_)) => errs.push(format!(
                "{at}: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
            )),
            (None, None) => errs.push(format!(
                "{at}: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
            )),
            (Some(c), None) => exit_codes(errs, &format!("{at}.onExitCodes"), c, &names),
            (None, Some(_)) => {}
        }
    }
}

/// validatePodFailurePolicyRuleOnExitCodes.
fn exit_codes(errs: &mut Vec<String>, at: &str, c: &Value, names: &[&str]) {
    if let Some(n) = c["containerName"].as_str()
        && !names.contains(&n)
    {
        errs.push(format!(
            "{at}.containerName: Invalid value: {}: must be one of the container or initContainer names in the pod template",
            go_quote(n)
        ));
    }
    let op = c["operator"].as_str().unwrap_or("");
    match op {
        "" => errs.push(format!(
            "{at}.operator: Required value: valid values: [\"In\" \"NotIn\"]"
        )),
        "In" | "NotIn" => {}
        other => pod::not_supported(errs, &format!("{at}.operator"), other, &["In", "NotIn"]),
    }
    let values: Vec<i64> = c["values"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
        .collect();
    if values.is_empty() {
        errs.push(format!(
            "{at}.values: Invalid value: []int32(nil): at least one value is required"
        ));
    }
    for (j, v) in values.iter().enumerate() {
        let path = format!("{at}.values[{j}]");
        if op == "In" && *v == 0 {
            errs.push(format!(
                "{path}: Invalid value: 0: must not be 0 for the In operator"
            ));
        }
        if j > 0 && values[j - 1] == *v {
            errs.push(format!("{path}: Duplicate value: {v}"));
        } else if j > 0 && values[j - 1] > *v {
            errs.push(format!("{path}: Invalid value: {v}: must be ordered"));
        }
    }
}

/// ValidateJobSpecUpdate: what a running Job may not change.
fn update(errs: &mut Vec<String>, spec: &Value, old: &Value, old_job: &Value) {
    if spec["completions"] != old["completions"] {
        errs.push(format!(
            "spec.completions: Invalid value: {}: field is immutable",
            spec["completions"].as_i64().unwrap_or(0)
        ));
    }
    if let Some(s) = spec.get("selector")
        && old.get("selector").map(normal_selector) != Some(normal_selector(s))
    {
        errs.push(format!(
            "spec.selector: Invalid value: {}: field is immutable",
            go_label_selector(s)
        ));
    }
    // A suspended Job that never started may still move its pods elsewhere.
    let never_started = old["suspend"] == true && old_job["status"].get("startTime").is_none();
    let template_changed = if never_started {
        let strip = |t: &Value| {
            let mut t = t.clone();
            for f in ["labels", "annotations"] {
                if let Some(m) = t["metadata"].as_object_mut() {
                    m.remove(f);
                }
            }
            if let Some(m) = t["spec"].as_object_mut() {
                for f in ["nodeSelector", "tolerations", "schedulingGates", "affinity"] {
                    m.remove(f);
                }
            }
            t
        };
        strip(&spec["template"]) != strip(&old["template"])
    } else {
        spec["template"] != old["template"]
    };
    if template_changed {
        // The server prints the whole template as a Go value (%#v) here; the demo
        // leaves its several kilobytes out.
        errs.push(
            "spec.template: Invalid value: core.PodTemplateSpec{…}: field is immutable".into(),
        );
    }
    for f in ["completionMode", "podFailurePolicy"] {
        if spec[f] != old[f] {
            let shown = match &spec[f] {
                Value::String(s) => go_quote(s),
                _ => "batch.PodFailurePolicy{…}".into(),
            };
            errs.push(format!(
                "spec.{f}: Invalid value: {shown}: field is immutable"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn job(restart: &str) -> Value {
        let uid = "u-1";
        json!({"metadata": {"name": "pi", "uid": uid},
            "spec": {"selector": {"matchLabels": {CONTROLLER_UID: uid}},
                "completions": 1, "parallelism": 1, "backoffLimit": 6,
                "template": {"metadata": {"labels": {
                    "controller-uid": uid, "job-name": "pi",
                    CONTROLLER_UID: uid, JOB_NAME: "pi"}},
                "spec": {"restartPolicy": restart, "dnsPolicy": "ClusterFirst",
                    "containers": [{"name": "pi", "image": "busybox",
                        "terminationMessagePolicy": "File", "imagePullPolicy": "Always"}]}}}})
    }

    #[test]
    fn counts_that_are_not_whole_int32s_do_not_decode() {
        let mut j = job("Never");
        j["spec"]["completions"] = json!(2.5);
        let e = super::job(&j, None).unwrap_err().message;
        assert_eq!(
            e,
            "Job in version \"v1\" cannot be handled as a Job: json: cannot unmarshal number 2.5 into Go struct field JobSpec.spec.completions of type int32"
        );
        let mut j = job("Never");
        j["spec"]["parallelism"] = json!("2");
        assert!(
            super::job(&j, None)
                .unwrap_err()
                .message
                .contains("cannot unmarshal value \"2\"")
        );
    }

    #[test]
    fn a_job_must_not_restart_its_pods_always() {
        assert!(super::job(&job("Never"), None).is_ok());
        let e = super::job(&job("Always"), None).unwrap_err();
        assert_eq!(
            e.message,
            "The Job \"pi\" is invalid: spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
        );
    }

    #[test]
    fn a_hand_written_selector_is_not_the_generated_one() {
        let mut j = job("Never");
        j["spec"]["selector"]["matchLabels"]["app"] = json!("pi");
        let e = super::job(&j, None).unwrap_err();
        assert!(
            e.message.contains("`selector` not auto-generated"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_running_jobs_template_and_completions_are_fixed() {
        let old = job("Never");
        let mut new = old.clone();
        new["spec"]["template"]["spec"]["containers"][0]["image"] = json!("busybox:2");
        new["spec"]["completions"] = json!(3);
        new["spec"]["parallelism"] = json!(3);
        let e = super::job(&new, Some(&old)).unwrap_err();
        assert!(
            e.message
                .contains("spec.completions: Invalid value: 3: field is immutable")
        );
        assert!(e.message.contains("spec.template: Invalid value"));
        // Parallelism alone may change.
        let mut p = old.clone();
        p["spec"]["parallelism"] = json!(5);
        assert!(super::job(&p, Some(&old)).is_ok());
    }

    #[test]
    fn exit_code_rules_are_checked_as_the_server_checks_them() {
        let mut j = job("Never");
        j["spec"]["podFailurePolicy"] = json!({"rules": [
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [0, 42]}},
            {"action": "Ignore", "onExitCodes": {"containerName": "x", "operator": "In", "values": [3, 2]}},
        ]});
        j["spec"]["podReplacementPolicy"] = json!("Failed");
        let e = super::job(&j, None).unwrap_err().message;
        assert!(e.contains("rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator"), "{e}");
        assert!(
            e.contains("rules[1].onExitCodes.containerName: Invalid value: \"x\""),
            "{e}"
        );
        assert!(
            e.contains("rules[1].onExitCodes.values[1]: Invalid value: 2: must be ordered"),
            "{e}"
        );
        let mut onfailure = job("OnFailure");
        onfailure["spec"]["podFailurePolicy"] = json!({"rules": [
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]});
        onfailure["spec"]["podReplacementPolicy"] = json!("Failed");
        let e = super::job(&onfailure, None).unwrap_err().message;
        assert!(
            e.contains("only \"Never\" is supported when podFailurePolicy is specified"),
            "{e}"
        );
    }
}
