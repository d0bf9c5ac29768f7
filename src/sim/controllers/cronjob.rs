//! The CronJob controller (kube-controller-manager's `pkg/controller/cronjob`, v2, 1.32)
//! in simulated time: at each scheduled minute it creates the Job `<cronjob>-<minutes
//! since the epoch>` from the job template, unless the CronJob is suspended, the time is
//! past `startingDeadlineSeconds`, or concurrencyPolicy Forbid finds a Job still running
//! (Replace deletes it first); after downtime it runs only the most recent missed time,
//! warning when more than 100 were missed; it keeps `successfulJobsHistoryLimit` and
//! `failedJobsHistoryLimit` finished Jobs and deletes older ones. The clock is UTC.

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, Note};
use crate::sim::client::RateLimit;
use crate::sim::cron::Schedule;
use crate::sim::deletion::Propagation;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{parse_rfc3339, sim_unix, unix_rfc3339};

pub const WATCHES: &[Kind] = &[Kind::CronJob, Kind::Job];
pub const COMPONENT: &str = "cronjob-controller";
/// The annotation each scheduled Job carries: the time it was scheduled for.
pub const SCHEDULED_TIMESTAMP: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";
/// More missed start times than this and the controller warns.
const TOO_MANY_MISSED: i64 = 100;

#[derive(Clone)]
pub struct CronJobController {
    pub informer: Informer,
    pub client: RateLimit,
    now: u64,
    /// CronJobs whose new schedule does not parse, with it: warned about at the next
    /// chance to write an event.
    unparseable: Vec<(String, String)>,
}

/// mostRecentScheduleTime's answer.
struct Recent {
    earliest: i64,
    most_recent: Option<i64>,
    /// How many start times were missed: none, a few, or more than 100.
    missed: i64,
}

/// mostRecentScheduleTime: the latest start time at or before `now` since the last one,
/// `last` (or the CronJob's creation, `created`), no earlier than `now - deadline` when a
/// starting deadline is given.
fn most_recent(
    (created, last): (i64, Option<i64>),
    deadline: Option<i64>,
    now: i64,
    sched: &Schedule,
) -> Result<Recent, String> {
    let mut earliest = last.unwrap_or(created);
    if let Some(sds) = deadline {
        earliest = earliest.max(now.saturating_sub(sds));
    }
    let none = |earliest| Recent {
        earliest,
        most_recent: None,
        missed: 0,
    };
    let t1 = sched.next(earliest);
    let (Some(t1), Some(t2)) = (t1, t1.and_then(|t| sched.next(t))) else {
        return Err("time difference between two schedules is less than 1 second".into());
    };
    if now < t1 {
        return Ok(none(earliest));
    }
    if now < t2 {
        return Ok(Recent {
            earliest,
            most_recent: Some(t1),
            missed: 1,
        });
    }
    let between = t2 - t1;
    if between < 1 {
        return Err("time difference between two schedules is less than 1 second".into());
    }
    let n = (now - t1) / between + 1;
    let mut t = t1 + (n - 2) * between;
    let mut most = None;
    while let Some(next) = sched.next(t).filter(|x| *x <= now) {
        most = Some(next);
        t = next;
    }
    Ok(Recent {
        earliest,
        most_recent: most,
        missed: n,
    })
}

/// Which finished condition a Job has, if any.
fn finished(job: &Value) -> Option<&'static str> {
    ["Complete", "Failed"]
        .into_iter()
        .find(|t| super::job::condition(job, t).is_some())
}

impl CronJobController {
    pub fn new(resync: u64) -> Self {
        CronJobController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            now: 0,
            unparseable: Vec::new(),
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::CronJob => self.cron_job_changed(&d),
                Kind::Job => {
                    let owner = d
                        .object
                        .meta("ownerReferences")
                        .and_then(Value::as_array)
                        .and_then(|refs| {
                            refs.iter()
                                .find(|r| r["controller"] == true && r["kind"] == "CronJob")
                                .and_then(|r| r["name"].as_str())
                        })
                        .map(str::to_string);
                    if let Some(cj) = owner {
                        self.informer.enqueue(&cj);
                    }
                }
                _ => {}
            }
        }
    }

    /// updateCronJob: a new schedule is looked at when it next fires, not at once (a
    /// time the old schedule did not have is not run now); one that does not parse is
    /// warned about and not queued. Any other change is synced at once.
    fn cron_job_changed(&mut self, d: &Delta) {
        let name = d.object.name().to_string();
        let schedule = |v: &crate::sim::stored::Stored| {
            let v = v.value();
            (v["spec"]["schedule"].clone(), v["spec"]["timeZone"].clone())
        };
        let changed = d
            .old
            .as_ref()
            .is_some_and(|o| schedule(o) != schedule(&d.object));
        if !changed {
            self.informer.enqueue(&name);
            return;
        }
        let text = d.object.value()["spec"]["schedule"]
            .as_str()
            .unwrap_or("")
            .to_string();
        match crate::sim::cron::parse(&text) {
            Err(_) => self.unparseable.push((name, text)),
            Ok(sched) => {
                let now = sim_unix(self.now);
                self.requeue(&name, self.now, sched.next(now));
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        for (name, schedule) in std::mem::take(&mut self.unparseable) {
            if let Some(cj) = self.informer.get(Kind::CronJob, &name).cloned() {
                let msg = format!("unparseable schedule for cronjob: {schedule}");
                self.event(api, &cj, "Warning", "UnParseableCronJobSchedule", &msg, now);
            }
        }
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            n += 1 + self.sync(api, &name, now);
        }
        n
    }

    fn event(
        &self,
        api: &mut ApiServer,
        cj: &Value,
        type_: &'static str,
        reason: &str,
        message: &str,
        now: u64,
    ) {
        api.record_event(
            cj,
            Kind::CronJob,
            Note::about(type_, reason, message, COMPONENT),
            now,
        );
    }

    /// Looks again at Unix second `at` (a second on, at the soonest).
    fn requeue(&mut self, name: &str, now: u64, at: Option<i64>) {
        if let Some(at) = at {
            let wait = at.saturating_sub(sim_unix(now)).max(1) as u64;
            self.informer.enqueue_after(name, now.saturating_add(wait));
        }
    }

    /// deleteJob: deletes a Job and its pods in the background and says so.
    fn delete_job(&mut self, api: &mut ApiServer, cj: &Value, job: &str, now: u64) -> bool {
        self.client.spend(1);
        match api.delete_propagating(Kind::Job, job, None, Propagation::Background, now) {
            Ok(_) => {
                let msg = format!("Deleted job {job}");
                self.event(api, cj, "Normal", "SuccessfulDelete", &msg, now);
                true
            }
            Err(e) => {
                let msg = format!("Deleted job: {}", e.message);
                self.event(api, cj, "Warning", "FailedDelete", &msg, now);
                false
            }
        }
    }

    /// sync: clean up the history, reconcile the active list, then maybe start a Job.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(cj) = self.informer.get(Kind::CronJob, name).cloned() else {
            return 0;
        };
        let before = api.next_seq();
        let jobs: Vec<Value> = self
            .informer
            .iter(Kind::Job)
            .filter(|j| {
                j["metadata"]["ownerReferences"]
                    .as_array()
                    .is_some_and(|refs| {
                        refs.iter().any(|r| {
                            r["controller"] == true && r["name"] == name && r["kind"] == "CronJob"
                        })
                    })
            })
            .cloned()
            .collect();
        let mut status = cj["status"].clone();
        if !status.is_object() {
            status = json!({});
        }
        let mut active: Vec<Value> = status["active"].as_array().cloned().unwrap_or_default();
        let is_active = |active: &[Value], uid: &str| active.iter().any(|r| r["uid"] == uid);
        // cleanupFinishedJobs: oldest first by start time, past the history limits.
        let mut deleted: Vec<String> = Vec::new();
        for (kind, limit) in [
            (
                "Complete",
                cj["spec"]["successfulJobsHistoryLimit"].as_i64(),
            ),
            ("Failed", cj["spec"]["failedJobsHistoryLimit"].as_i64()),
        ] {
            let Some(limit) = limit else { continue };
            let mut done: Vec<&Value> = jobs.iter().filter(|j| finished(j) == Some(kind)).collect();
            let extra = done.len() as i64 - limit;
            if extra <= 0 {
                continue;
            }
            done.sort_by(|a, b| {
                let start =
                    |j: &Value| obj::str(j, &["status", "startTime"]).and_then(parse_rfc3339);
                match (start(a), start(b)) {
                    (Some(x), Some(y)) => x.cmp(&y).then_with(|| obj::name(a).cmp(obj::name(b))),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => obj::name(a).cmp(obj::name(b)),
                }
            });
            for j in done.into_iter().take(extra as usize) {
                if self.delete_job(api, &cj, obj::name(j), now) {
                    active.retain(|r| r["uid"] != obj::uid(j));
                    deleted.push(obj::uid(j).to_string());
                }
            }
        }
        // Reconcile the Jobs it owns with its active list.
        let mut last_success = obj::str(&status, &["lastSuccessfulTime"]).and_then(parse_rfc3339);
        // syncCronJob sees the Jobs listed before the clean-up: a deleted success still
        // moves lastSuccessfulTime.
        for j in &jobs {
            let uid = obj::uid(j);
            match finished(j) {
                None if !is_active(&active, uid) => {
                    let msg = format!(
                        "Saw a job that the controller did not create or forgot: {}",
                        obj::name(j)
                    );
                    self.event(api, &cj, "Warning", "UnexpectedJob", &msg, now);
                }
                None => {}
                Some(condition) => {
                    if is_active(&active, uid) && !deleted.iter().any(|u| u == uid) {
                        active.retain(|r| r["uid"] != uid);
                        let msg = format!(
                            "Saw completed job: {}, condition: {condition}",
                            obj::name(j)
                        );
                        self.event(api, &cj, "Normal", "SawCompletedJob", &msg, now);
                    }
                    if condition == "Complete"
                        && let Some(t) =
                            obj::str(j, &["status", "completionTime"]).and_then(parse_rfc3339)
                        && last_success.is_none_or(|l| t > l)
                    {
                        last_success = Some(t);
                    }
                }
            }
        }
        // Active Jobs that are gone.
        let listed: Vec<&str> = jobs.iter().map(obj::uid).collect();
        let mut missing = Vec::new();
        active.retain(|r| {
            let keep = listed.contains(&r["uid"].as_str().unwrap_or(""));
            if !keep {
                missing.push(r["name"].as_str().unwrap_or("").to_string());
            }
            keep
        });
        for m in missing {
            self.event(
                api,
                &cj,
                "Normal",
                "MissingJob",
                &format!("Active job went missing: {m}"),
                now,
            );
        }
        let mut requeue_at = None;
        let suspended = cj["spec"]["suspend"] == true;
        let schedule = cj["spec"]["schedule"].as_str().unwrap_or("");
        if !obj::is_deleting(&cj) && !suspended {
            match crate::sim::cron::parse(schedule) {
                Err(e) => {
                    let msg = format!(
                        "unparseable schedule: {} : {e}",
                        crate::sim::output::go_quote(schedule)
                    );
                    self.event(api, &cj, "Warning", "UnparseableSchedule", &msg, now);
                }
                Ok(sched) => {
                    requeue_at = self.schedule(api, &cj, &sched, &mut active, &mut status, now);
                }
            }
        }
        status["active"] = Value::Array(active);
        if status["active"].as_array().is_some_and(Vec::is_empty)
            && let Some(m) = status.as_object_mut()
        {
            m.remove("active");
        }
        if let Some(t) = last_success {
            status["lastSuccessfulTime"] = json!(unix_rfc3339(t));
        }
        if status != cj["status"] && !(status == json!({}) && cj["status"].is_null()) {
            self.client.spend(1);
            let _ = api.update_status_with(Kind::CronJob, name, |c| c["status"] = status.clone());
        }
        self.requeue(name, now, requeue_at);
        (api.next_seq() - before) as usize
    }

    /// The schedule part of syncCronJob: maybe creates this minute's Job. Returns when
    /// to look again (Unix seconds).
    fn schedule(
        &mut self,
        api: &mut ApiServer,
        cj: &Value,
        sched: &Schedule,
        active: &mut Vec<Value>,
        status: &mut Value,
        now: u64,
    ) -> Option<i64> {
        let now_unix = sim_unix(now);
        let schedule = cj["spec"]["schedule"].as_str().unwrap_or("");
        // nextScheduleTimeDuration: from the latest start time, or the start.
        let created = obj::str(cj, &["metadata", "creationTimestamp"])
            .and_then(parse_rfc3339)
            .unwrap_or(now_unix);
        let last = |status: &Value| obj::str(status, &["lastScheduleTime"]).and_then(parse_rfc3339);
        let next_after =
            |status: &Value| match most_recent((created, last(status)), None, now_unix, sched) {
                Err(_) => sched.next(now_unix),
                Ok(r) => {
                    let from =
                        r.most_recent
                            .unwrap_or(if r.missed == 0 { r.earliest } else { now_unix });
                    sched.next(from)
                }
            };
        let deadline = obj::int(cj, &["spec", "startingDeadlineSeconds"]);
        let recent = match most_recent((created, last(status)), deadline, now_unix, sched) {
            Ok(r) => r,
            Err(e) => {
                let msg = format!("invalid schedule: {schedule} : {e}");
                self.event(api, cj, "Warning", "InvalidSchedule", &msg, now);
                return None;
            }
        };
        let Some(scheduled) = recent.most_recent.filter(|t| *t <= now_unix) else {
            return next_after(status);
        };
        if recent.missed > TOO_MANY_MISSED {
            self.event(
                api,
                cj,
                "Warning",
                "TooManyMissedTimes",
                "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
                now,
            );
        }
        let job_name = format!("{}-{}", obj::name(cj), scheduled.div_euclid(60));
        let done_already = active.iter().any(|r| r["name"] == job_name.as_str())
            || obj::str(status, &["lastScheduleTime"]).and_then(parse_rfc3339) == Some(scheduled);
        if done_already {
            return next_after(status);
        }
        let policy = cj["spec"]["concurrencyPolicy"].as_str().unwrap_or("Allow");
        if policy == "Forbid" && !active.is_empty() {
            self.event(
                api,
                cj,
                "Normal",
                "JobAlreadyActive",
                "Not starting job because prior execution is running and concurrency policy is Forbid",
                now,
            );
            return next_after(status);
        }
        if policy == "Replace" {
            for r in std::mem::take(active) {
                let job = r["name"].as_str().unwrap_or("").to_string();
                if !self.delete_job(api, cj, &job, now) {
                    // `could not replace job`: the sync fails and is retried.
                    active.push(r);
                    return Some(now_unix + 1);
                }
            }
        }
        // getJobFromTemplate2.
        let template = &cj["spec"]["jobTemplate"];
        let mut annotations = template["metadata"]["annotations"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        annotations.insert(SCHEDULED_TIMESTAMP.into(), json!(unix_rfc3339(scheduled)));
        let owner = obj::owner_ref(cj, "CronJob");
        let mut meta = json!({
            "name": job_name,
            "namespace": "default",
            "annotations": annotations,
            "ownerReferences": [owner],
        });
        if let Some(l) = template["metadata"].get("labels").filter(|l| l.is_object()) {
            meta["labels"] = l.clone();
        }
        let job = json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta,
            "spec": template["spec"].clone()});
        self.client.spend(1);
        let created = match api.create(Kind::Job, job, now) {
            Ok(j) => {
                let msg = format!("Created job {job_name}");
                self.event(api, cj, "Normal", "SuccessfulCreate", &msg, now);
                Some(j)
            }
            Err(e) if e.reason == crate::sim::status::Reason::AlreadyExists => {
                match api.get(Kind::Job, &job_name) {
                    Ok(j) if obj::controller_uid(j) == Some(obj::uid(cj)) => Some(j.clone()),
                    _ => return None,
                }
            }
            Err(e) => {
                let msg = format!("Error creating job: {}", e.message);
                self.event(api, cj, "Warning", "FailedCreate", &msg, now);
                // The sync fails and its key is retried (client-go: 1 s, doubling; the
                // demo retries each second).
                return Some(now_unix + 1);
            }
        };
        if let Some(j) = created {
            active.push(json!({
                "apiVersion": "batch/v1", "kind": "Job", "name": obj::name(&j),
                "namespace": "default", "resourceVersion": obj::str(&j, &["metadata", "resourceVersion"]).unwrap_or(""),
                "uid": obj::uid(&j),
            }));
            status["lastScheduleTime"] = json!(unix_rfc3339(scheduled));
        }
        next_after(status)
    }
}

impl super::Controller for CronJobController {
    super::controller::controller_basics!(CronJobController, Component::CronJob);
    fn tick(&mut self, now: u64) {
        self.now = now;
    }
    fn resync(&mut self) {
        super::controller::enqueue_all(&mut self.informer, Kind::CronJob);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn only_the_most_recent_missed_time_runs_and_more_than_100_are_counted() {
        let every_minute = crate::sim::cron::parse("* * * * *").unwrap();
        let created = (at("2025-01-06T10:00:00Z"), None);
        let r = most_recent(created, None, at("2025-01-06T10:00:30Z"), &every_minute).unwrap();
        assert_eq!(r.most_recent, None);
        let r = most_recent(created, None, at("2025-01-06T10:01:30Z"), &every_minute).unwrap();
        assert_eq!(r.most_recent, Some(at("2025-01-06T10:01:00Z")));
        // Three hours down: 180 missed, only 13:00 runs.
        let r = most_recent(created, None, at("2025-01-06T13:00:10Z"), &every_minute).unwrap();
        assert_eq!(r.most_recent, Some(at("2025-01-06T13:00:00Z")));
        assert!(r.missed > TOO_MANY_MISSED);
        // The last scheduled time counts from there, not from the creation.
        let since_last = (created.0, Some(at("2025-01-06T12:59:00Z")));
        let r = most_recent(since_last, None, at("2025-01-06T13:00:10Z"), &every_minute).unwrap();
        assert_eq!(r.missed, 1);
        // A starting deadline of 5 minutes looks back only that far.
        let r = most_recent(
            created,
            Some(300),
            at("2025-01-06T13:00:10Z"),
            &every_minute,
        )
        .unwrap();
        assert!(r.missed <= 6);
        // An impossible schedule is an error.
        let never = crate::sim::cron::parse("59 23 31 2 *").unwrap();
        assert!(most_recent(created, Some(300), at("2025-01-06T13:00:10Z"), &never).is_err());
    }
}
