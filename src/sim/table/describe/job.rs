//! `kubectl describe job` (kubectl 1.32 describe.go `describeJob`): the spec's settings,
//! the times and counts from its status (no conditions: 1.32 prints none), the pod
//! template and the events.

use super::super::fields::{at, int_at, selector_string, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{
    annotations_multiline, controlled_by, describe_events, labels_multiline, pod_template,
};
use crate::sim::time;
use serde_json::Value;

pub fn describe_job(job: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(job, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(job, &["metadata", "namespace"]));
    w += &format!(
        "Selector:\t{}\n",
        selector_string(at(job, &["spec", "selector"]))
    );
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(job, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", job, &["metadata", "annotations"]);
    if let Some(owner) = controlled_by(job) {
        w += &format!("Controlled By:\t{owner}\n");
    }
    let spec = |f: &str| at(job, &["spec", f]).filter(|v| !v.is_null());
    if let Some(p) = spec("parallelism") {
        w += &format!("Parallelism:\t{p}\n");
    }
    match spec("completions") {
        Some(c) => w += &format!("Completions:\t{c}\n"),
        None => w += "Completions:\t<unset>\n",
    }
    if let Some(m) = spec("completionMode").and_then(Value::as_str) {
        w += &format!("Completion Mode:\t{m}\n");
    }
    if let Some(s) = spec("suspend") {
        w += &format!("Suspend:\t{s}\n");
    }
    if let Some(b) = spec("backoffLimit") {
        w += &format!("Backoff Limit:\t{b}\n");
    }
    if let Some(t) = spec("ttlSecondsAfterFinished") {
        w += &format!("TTL Seconds After Finished:\t{t}\n");
    }
    let when = |f: &str| time::parse_rfc3339(str_at(job, &["status", f]));
    let (start, done) = (when("startTime"), when("completionTime"));
    if let Some(s) = start {
        w += &format!("Start Time:\t{}\n", time::rfc1123z(s));
    }
    if let Some(c) = done {
        w += &format!("Completed At:\t{}\n", time::rfc1123z(c));
    }
    if let (Some(s), Some(c)) = (start, done) {
        w += &format!("Duration:\t{}\n", time::human_duration(c - s));
    }
    if let Some(d) = spec("activeDeadlineSeconds") {
        w += &format!("Active Deadline Seconds:\t{d}s\n");
    }
    let n = |f: &str| int_at(job, &["status", f]);
    match at(job, &["status", "ready"]).and_then(Value::as_i64) {
        Some(ready) => {
            w += &format!(
                "Pods Statuses:\t{} Active ({ready} Ready) / {} Succeeded / {} Failed\n",
                n("active"),
                n("succeeded"),
                n("failed")
            )
        }
        None => {
            w += &format!(
                "Pods Statuses:\t{} Active / {} Succeeded / {} Failed\n",
                n("active"),
                n("succeeded"),
                n("failed")
            )
        }
    }
    pod_template(
        &mut w,
        at(job, &["spec", "template"]).unwrap_or(&Value::Null),
    );
    describe_events(&mut w, job, Some("Job"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
