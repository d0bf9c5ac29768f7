//! ValidateCronJobCreate / ValidateCronJobUpdate (pkg/apis/batch/validation, 1.32), in
//! the order the source checks: the name (52 characters at most, on create), the
//! schedule as robfig/cron parses it and the TZ rule, the starting deadline, the time
//! zone, the concurrency policy, the job template (as a Job's spec, with no selector of
//! its own), the history limits.

use serde_json::Value;

use super::{Kind, go_label_selector, invalid, meta, nonnegative, pod, quantities};
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

pub fn cron_job(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    quantities(Kind::CronJob, o)?;
    let spec = &o["spec"];
    super::job::decodes(
        Kind::CronJob,
        &spec["jobTemplate"]["spec"],
        "spec.jobTemplate.spec",
    )?;
    for (f, ty) in [
        ("startingDeadlineSeconds", "int64"),
        ("successfulJobsHistoryLimit", "int32"),
        ("failedJobsHistoryLimit", "int32"),
    ] {
        super::job::go_int(
            Kind::CronJob,
            &spec[f],
            &format!("CronJobSpec.spec.{f}"),
            ty,
        )?;
    }
    super::job::unmodelled(&spec["jobTemplate"]["spec"])?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    let schedule = spec["schedule"].as_str().unwrap_or("");
    let old_spec = old.map(|o| &o["spec"]);
    if schedule.is_empty() {
        errs.push("spec.schedule: Required value".into());
    } else {
        if let Err(e) = crate::sim::cron::parse(schedule) {
            errs.push(format!(
                "spec.schedule: Invalid value: {}: {e}",
                go_quote(schedule)
            ));
        }
        let allow_tz = old_spec
            .and_then(|s| s["schedule"].as_str())
            .is_some_and(|s| s.contains("TZ"));
        if schedule.contains("TZ") {
            let why = if !allow_tz {
                Some("cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
            } else if spec.get("timeZone").is_some_and(|z| !z.is_null()) {
                Some("cannot use both timeZone field and TZ or CRON_TZ in schedule")
            } else {
                None
            };
            if let Some(why) = why {
                errs.push(format!(
                    "spec.schedule: Invalid value: {}: {why}",
                    go_quote(schedule)
                ));
            }
        }
    }
    nonnegative(
        &mut errs,
        "spec.startingDeadlineSeconds",
        spec["startingDeadlineSeconds"].as_i64(),
    );
    if old_spec.is_none_or(|s| s["timeZone"] != spec["timeZone"]) {
        time_zone(&mut errs, spec.get("timeZone"))?;
    }
    match spec["concurrencyPolicy"].as_str().unwrap_or("") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push("spec.concurrencyPolicy: Required value".into()),
        other => pod::not_supported(
            &mut errs,
            "spec.concurrencyPolicy",
            other,
            &["Allow", "Forbid", "Replace"],
        ),
    }
    let job = &spec["jobTemplate"]["spec"];
    super::job::job_spec(&mut errs, job, "spec.jobTemplate.spec");
    if let Some(s) = job.get("selector").filter(|s| !s.is_null()) {
        errs.push(format!(
            "spec.jobTemplate.spec.selector: Invalid value: {}: `selector` will be auto-generated",
            go_label_selector(s)
        ));
    }
    if job["manualSelector"] == true {
        errs.push(
            "spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\""
                .into(),
        );
    }
    for f in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        nonnegative(&mut errs, &format!("spec.{f}"), spec[f].as_i64());
    }
    let name = crate::sim::obj::name(o);
    if old.is_none() && name.len() > 52 {
        errs.push(format!(
            "metadata.name: Invalid value: {}: must be no more than 52 characters",
            go_quote(name)
        ));
    }
    invalid(Kind::CronJob, o, errs)
}

/// validateTimeZone: the demo's clock is UTC, and it knows no other zone.
fn time_zone(errs: &mut Vec<String>, zone: Option<&Value>) -> Result<(), ApiError> {
    let Some(z) = zone.and_then(Value::as_str) else {
        return Ok(());
    };
    let path = "spec.timeZone: Invalid value";
    if z.is_empty() {
        errs.push(format!(
            "{path}: \"\": timeZone must be nil or non-empty string"
        ));
    } else if z.eq_ignore_ascii_case("Local") {
        errs.push(format!(
            "{path}: {}: timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
            go_quote(z)
        ));
    } else if !matches!(z, "UTC" | "Etc/UTC") {
        return Err(ApiError::invalid(format!(
            "error: kubedrill's demo keeps its clock in UTC and knows no other time zone: timeZone {} is valid on a real cluster if it is an IANA zone, but the demo would run it in UTC; leave timeZone out or use \"Etc/UTC\"",
            go_quote(z)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cj(schedule: &str) -> Value {
        json!({"metadata": {"name": "nightly"}, "spec": {"schedule": schedule,
            "concurrencyPolicy": "Allow", "suspend": false,
            "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
            "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "OnFailure",
                "dnsPolicy": "ClusterFirst",
                "containers": [{"name": "c", "image": "busybox",
                    "terminationMessagePolicy": "File", "imagePullPolicy": "Always"}]}}}}}})
    }

    #[test]
    fn a_schedule_is_parsed_as_the_server_parses_it() {
        assert!(cron_job(&cj("0 3 * * *"), None).is_ok());
        let e = cron_job(&cj("* * * *"), None).unwrap_err().message;
        assert_eq!(
            e,
            "The CronJob \"nightly\" is invalid: spec.schedule: Invalid value: \"* * * *\": expected exactly 5 fields, found 4: [* * * *]"
        );
        let e = cron_job(&cj("CRON_TZ=UTC 0 * * * *"), None)
            .unwrap_err()
            .message;
        assert!(
            e.ends_with("cannot use TZ or CRON_TZ in schedule, use timeZone field instead"),
            "{e}"
        );
        let mut always = cj("@hourly");
        always["spec"]["jobTemplate"]["spec"]["template"]["spec"]["restartPolicy"] =
            json!("Always");
        let e = cron_job(&always, None).unwrap_err().message;
        assert!(
            e.contains("spec.jobTemplate.spec.template.spec.restartPolicy: Required value"),
            "{e}"
        );
        let mut long = cj("@daily");
        long["metadata"]["name"] = json!("a".repeat(53));
        assert!(
            cron_job(&long, None)
                .unwrap_err()
                .message
                .contains("must be no more than 52 characters")
        );
        assert!(
            cron_job(&long, Some(&long)).is_ok(),
            "only creates are held to 52"
        );
    }
}
