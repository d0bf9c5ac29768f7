//! The demo screen's panels for Jobs (the `jobs` scenario): the newest Job's settings
//! beside its counts and its finishing conditions, then every CronJob and every Job with
//! its pods.
//! `demo_view.rs` draws them where a Deployment's would go.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::table::rows;
use crate::tui::theme::Theme;

use super::demo::Demo;
use super::demo_view::{DeploymentLines, pod_line};

/// Title, body height, settings column, counts column, and its conditions.
pub fn job_lines(job: &Value, now: u64, theme: &Theme) -> DeploymentLines {
    let spec = |f: &str| obj::int(job, &["spec", f]);
    let show = |v: Option<i64>| v.map_or("unset".to_string(), |n| n.to_string());
    let mut limits = format!("backoffLimit {}", show(spec("backoffLimit")));
    if let Some(d) = spec("activeDeadlineSeconds") {
        limits += &format!(" · deadline {d}s");
    }
    if let Some(t) = spec("ttlSecondsAfterFinished") {
        limits += &format!(" · ttl {t}s");
    }
    let settings = vec![
        Line::from(format!(
            "completions {} · parallelism {}",
            show(spec("completions")),
            show(spec("parallelism"))
        )),
        Line::from(limits),
        Line::from(format!(
            "restartPolicy {}",
            obj::str(job, &["spec", "template", "spec", "restartPolicy"]).unwrap_or("-")
        )),
    ];
    let count = |f: &str| obj::int(job, &["status", f]).unwrap_or(0);
    // printJob's STATUS and DURATION, as `kubectl get jobs` shows them.
    let row = rows::job(job, now);
    let counts = vec![
        Line::from(format!(
            "active {} · ready {} · terminating {}",
            count("active"),
            count("ready"),
            count("terminating")
        )),
        Line::from(format!(
            "succeeded {} · failed {}",
            count("succeeded"),
            count("failed")
        )),
        Line::from(format!("{} · {}", row[1], row[2])),
    ];
    let conditions: Vec<Line<'static>> = obj::path(job, &["status", "conditions"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            let style = match c["type"].as_str() {
                Some("Failed" | "FailureTarget") => theme.alert,
                _ => theme.dim,
            };
            Line::from(Span::styled(
                format!(
                    "{}={} {}: {}",
                    c["type"].as_str().unwrap_or(""),
                    c["status"].as_str().unwrap_or(""),
                    c["reason"].as_str().unwrap_or(""),
                    c["message"].as_str().unwrap_or("")
                ),
                style,
            ))
        })
        .collect();
    let title = Line::from(Span::styled(
        format!(" Job {}: spec │ status ", obj::name(job)),
        theme.header,
    ));
    (title, 3 + conditions.len(), settings, counts, conditions)
}

/// Every CronJob with its schedule, then every Job, oldest first, with its status and
/// its pods.
pub fn job_pod_lines(d: &Demo, theme: &Theme) -> Vec<Line<'static>> {
    let now = d.session.now();
    let mut out = Vec::new();
    for cj in d.session.objects(Kind::CronJob) {
        // printCronJob's cells: schedule, suspend, active, last schedule.
        let row = rows::cron_job(cj, now);
        let suspended = if row[3] == "True" {
            " · suspended"
        } else {
            ""
        };
        out.push(Line::from(vec![
            Span::styled(format!("cronjob {}", obj::name(cj)), theme.key),
            Span::styled(
                format!(
                    " {} · active {} · last {}{suspended}",
                    row[1], row[4], row[5]
                ),
                theme.dim,
            ),
        ]));
    }
    let mut jobs: Vec<&Value> = d.session.objects(Kind::Job).collect();
    jobs.sort_by_key(|j| {
        (
            obj::str(j, &["metadata", "creationTimestamp"]).unwrap_or(""),
            obj::name(j),
        )
    });
    for job in jobs {
        let row = rows::job(job, now);
        out.push(Line::from(vec![
            Span::styled(obj::name(job).to_string(), theme.key),
            Span::styled(format!(" {} {}", row[1], row[2]), theme.dim),
        ]));
        let uid = obj::uid(job);
        for p in d
            .session
            .objects(Kind::Pod)
            .filter(|p| obj::controller_uid(p) == Some(uid))
        {
            out.push(pod_line(p, now, theme));
        }
    }
    out
}
