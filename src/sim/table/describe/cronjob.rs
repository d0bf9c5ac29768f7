//! `kubectl describe cronjob` (kubectl 1.32 describe.go `describeCronJob` and
//! `describeJobTemplate`): no time zone line in 1.32.

use super::super::fields::{array_at, at, selector_string, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline, pod_template};
use crate::sim::time;
use serde_json::Value;

pub fn describe_cron_job(cj: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(cj, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(cj, &["metadata", "namespace"]));
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(cj, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", cj, &["metadata", "annotations"]);
    let spec = |f: &str| at(cj, &["spec", f]).filter(|v| !v.is_null());
    w += &format!("Schedule:\t{}\n", str_at(cj, &["spec", "schedule"]));
    w += &format!(
        "Concurrency Policy:\t{}\n",
        str_at(cj, &["spec", "concurrencyPolicy"])
    );
    // printBoolPtr.
    let suspend = match spec("suspend").and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    w += &format!("Suspend:\t{suspend}\n");
    let unset = |v: Option<&Value>, suffix: &str| {
        v.map_or("<unset>".to_string(), |n| format!("{n}{suffix}"))
    };
    w += &format!(
        "Successful Job History Limit:\t{}\n",
        unset(spec("successfulJobsHistoryLimit"), "")
    );
    w += &format!(
        "Failed Job History Limit:\t{}\n",
        unset(spec("failedJobsHistoryLimit"), "")
    );
    w += &format!(
        "Starting Deadline Seconds:\t{}\n",
        unset(spec("startingDeadlineSeconds"), "s")
    );
    // describeJobTemplate.
    let job = |f: &str| at(cj, &["spec", "jobTemplate", "spec", f]).filter(|v| !v.is_null());
    match job("selector") {
        Some(s) => w += &format!("Selector:\t{}\n", selector_string(Some(s))),
        None => w += "Selector:\t<unset>\n",
    }
    w += &format!("Parallelism:\t{}\n", unset(job("parallelism"), ""));
    w += &format!("Completions:\t{}\n", unset(job("completions"), ""));
    if let Some(d) = job("activeDeadlineSeconds") {
        w += &format!("Active Deadline Seconds:\t{d}s\n");
    }
    pod_template(
        &mut w,
        at(cj, &["spec", "jobTemplate", "spec", "template"]).unwrap_or(&Value::Null),
    );
    match time::parse_rfc3339(str_at(cj, &["status", "lastScheduleTime"])) {
        Some(t) => w += &format!("Last Schedule Time:\t{}\n", time::rfc1123z(t)),
        None => w += "Last Schedule Time:\t<unset>\n",
    }
    let active: Vec<&str> = array_at(cj, &["status", "active"])
        .iter()
        .map(|r| str_at(r, &["name"]))
        .collect();
    if active.is_empty() {
        w += "Active Jobs:\t<none>\n";
    } else {
        w += &format!("Active Jobs:\t{}\n", active.join(", "));
    }
    describe_events(&mut w, cj, Some("CronJob"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
