//! The Job controller (kube-controller-manager's `pkg/controller/job`, 1.32, NonIndexed
//! Jobs): it keeps `min(parallelism, completions - succeeded)` pods running, each with the
//! `batch.kubernetes.io/job-tracking` finalizer so a finished pod is counted exactly once
//! (its uid goes to `uncountedTerminatedPods`, its finalizer comes off, then it moves to
//! `succeeded` or `failed`); waits 10 s doubling to 10 minutes before replacing failed
//! pods; fails the Job past `backoffLimit` (failed pods, or container restarts with
//! OnFailure), past `activeDeadlineSeconds`, or on a podFailurePolicy FailJob rule; and
//! finishes it in two steps, as 1.32 does with JobManagedBy on: the interim
//! SuccessCriteriaMet or FailureTarget condition first, Complete or Failed once no pod is
//! left terminating. Suspending deletes the running pods without counting them.

mod track;

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sim::HashMap;
use crate::sim::api::{ApiServer, EventType, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::kinds::job::TRACKING_FINALIZER;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::{parse_rfc3339, rfc3339, sim_unix};

use track::{Backoff, Finishing, Verdict, has_finalizer};
pub use track::{condition, finished};

pub const WATCHES: &[Kind] = &[Kind::Job, Kind::Pod];
/// The source of its events.
pub const COMPONENT: &str = "job-controller";
/// MaxPodCreateDeletePerSync.
const MAX_PER_SYNC: i64 = 500;

#[derive(Clone)]
pub struct JobController {
    pub informer: Informer,
    pub client: RateLimit,
    /// Creates and deletes each Job still waits to see (ControllerExpectations).
    expectations: HashMap<String, (i64, i64)>,
    /// Each Job's pod re-creation back-off, kept in memory only.
    backoff: HashMap<String, Backoff>,
    now: u64,
    /// Pods this controller created, for the demo's counters.
    pub created: u64,
}

/// What one sync found among the Job's pods.
struct Pods {
    all: Vec<Arc<Stored>>,
    active: Vec<Arc<Stored>>,
    ready: i64,
    terminating: i64,
}

fn is_terminal(p: &Stored) -> bool {
    matches!(p.pod_phase(), Some("Succeeded" | "Failed"))
}

impl JobController {
    pub fn new(resync: u64) -> Self {
        JobController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            expectations: Default::default(),
            backoff: Default::default(),
            now: 0,
            created: 0,
        }
    }

    fn owner_of(&self, pod: &Stored) -> Option<String> {
        let uid = pod.controller_uid()?;
        self.informer
            .name_by_uid(Kind::Job, uid)
            .map(|n| n.to_string())
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            match d.kind {
                Kind::Job => self.informer.enqueue(d.object.name()),
                Kind::Pod => {
                    match self.owner_of(&d.object) {
                        Some(job) => {
                            let (adds, dels) = super::controller::observed(&d);
                            if let Some(e) = self.expectations.get_mut(&job) {
                                e.0 -= adds;
                                e.1 -= dels;
                            }
                            self.informer.enqueue(&job);
                        }
                        // A pod whose Job is gone keeps the tracking finalizer until
                        // the controller takes it off (syncOrphanPod); the demo does that
                        // in the next settle.
                        None if d.event != EventType::Deleted
                            && d.object.controller_uid().is_some()
                            && has_finalizer(&d.object) =>
                        {
                            self.informer.enqueue(&orphan_key(d.object.name()));
                        }
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(key) = super::controller::next_key(&mut self.informer, &self.client) {
            n += 1 + match key.strip_prefix(ORPHAN) {
                Some(pod) => self.sync_orphan(api, pod),
                None => self.sync(api, &key, now),
            };
        }
        n
    }

    /// syncOrphanPod: a pod with the tracking finalizer whose Job is gone loses it.
    fn sync_orphan(&mut self, api: &mut ApiServer, pod: &str) -> usize {
        let Ok(p) = api.get_shared(Kind::Pod, pod) else {
            return 0;
        };
        if !has_finalizer(&p) || self.owner_of(&p).is_some() {
            return 0;
        }
        self.client.spend(1);
        let _ = api.update_metadata(Kind::Pod, pod, remove_finalizer);
        1
    }

    fn event(
        &mut self,
        api: &mut ApiServer,
        job: &Value,
        type_: &'static str,
        reason: &str,
        message: &str,
        now: u64,
    ) {
        api.record_event(
            job,
            Kind::Job,
            Note::about(type_, reason, message, COMPONENT),
            now,
        );
    }

    fn pods(&mut self, api: &mut ApiServer, job: &Value) -> Pods {
        let all = super::claim::claim_pods(
            &self.informer,
            api,
            job,
            ("Job", Some(TRACKING_FINALIZER)),
            |_| true,
            &mut self.client,
        );
        let active: Vec<Arc<Stored>> = all
            .iter()
            .filter(|p| !is_terminal(p) && !p.facts().deleting)
            .cloned()
            .collect();
        let ready = active.iter().filter(|p| p.pod().ready).count() as i64;
        let terminating = all
            .iter()
            .filter(|p| p.facts().deleting && !is_terminal(p))
            .count() as i64;
        Pods {
            all,
            active,
            ready,
            terminating,
        }
    }

    /// syncJob. Returns the requests made.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(job) = self.informer.get(Kind::Job, name).cloned() else {
            self.expectations.remove(name);
            self.backoff.remove(name);
            return 0;
        };
        if finished(&job) {
            self.backoff.remove(name);
            return 0;
        }
        let before = api.next_seq();
        let spec = &job["spec"];
        let now_unix = sim_unix(now);
        let satisfied = self
            .expectations
            .get(name)
            .is_none_or(|(a, d)| *a <= 0 && *d <= 0);
        let mut pods = self.pods(api, &job);
        let policy = spec.get("podFailurePolicy").filter(|p| p.is_object());
        let only_failed = spec["podReplacementPolicy"] == "Failed" || policy.is_some();
        let suspended = spec["suspend"] == true;
        let status = &job["status"];
        let uncounted = |k: &str| -> Vec<String> {
            status["uncountedTerminatedPods"][k]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|u| u.as_str().map(str::to_string))
                .collect()
        };
        let (unc_ok, unc_failed) = (uncounted("succeeded"), uncounted("failed"));
        // getNewFinishedPods: finished pods still carrying the finalizer, not yet listed.
        let failed_pod = |p: &Stored| {
            p.pod_phase() == Some("Failed")
                || (!only_failed && p.facts().deleting && p.pod_phase() != Some("Succeeded"))
        };
        let fresh = |p: &&Arc<Stored>| {
            has_finalizer(p)
                && !unc_ok.iter().any(|u| u == p.uid())
                && !unc_failed.iter().any(|u| u == p.uid())
        };
        let new_ok: Vec<Arc<Stored>> = pods
            .all
            .iter()
            .filter(fresh)
            .filter(|p| p.pod_phase() == Some("Succeeded"))
            .cloned()
            .collect();
        let new_failed: Vec<Arc<Stored>> = pods
            .all
            .iter()
            .filter(fresh)
            .filter(|p| failed_pod(p))
            .cloned()
            .collect();
        let verdicts: Vec<Verdict> = new_failed.iter().map(|p| track::judge(policy, p)).collect();
        let n = |f: &str| status[f].as_i64().unwrap_or(0);
        let succeeded = n("succeeded") + new_ok.len() as i64 + unc_ok.len() as i64;
        let counted_failures = verdicts.iter().filter(|v| **v != Verdict::Ignore).count() as i64;
        let failed = n("failed") + counted_failures + unc_failed.len() as i64;
        let mut start = status["startTime"].as_str().and_then(parse_rfc3339);
        if start.is_none() && !suspended {
            start = Some(now_unix);
        }
        let backoff = self.backoff.get(name).copied().unwrap_or_default().after(
            new_ok
                .iter()
                .map(|p| (track::finished_at(p), true))
                // newBackoffRecord counts every new failure, ignored ones too: only
                // status.failed leaves those out.
                .chain(new_failed.iter().map(|p| (track::finished_at(p), false)))
                .collect(),
        );
        let backoff_limit = spec["backoffLimit"].as_i64().unwrap_or(6);
        let mut finishing = Finishing::of(&job).or_else(|| {
            verdicts.iter().find_map(|v| match v {
                Verdict::FailJob(m) => Some(Finishing::failure("PodFailurePolicy", m.clone())),
                _ => None,
            })
        });
        if finishing.is_none()
            && (failed > backoff_limit || past_restart_limit(&pods.active, backoff_limit, spec))
        {
            finishing = Some(Finishing::failure(
                "BackoffLimitExceeded",
                "Job has reached the specified backoff limit",
            ));
        }
        let deadline = spec["activeDeadlineSeconds"].as_i64();
        if finishing.is_none()
            && !suspended
            && let (Some(d), Some(s)) = (deadline, start)
        {
            let left = d.saturating_sub(now_unix.saturating_sub(s));
            if left <= 0 {
                finishing = Some(Finishing::failure(
                    "DeadlineExceeded",
                    "Job was active longer than specified deadline",
                ));
            } else {
                self.informer
                    .enqueue_after(name, now.saturating_add(left as u64));
            }
        }
        let mut conditions: Vec<Value> =
            status["conditions"].as_array().cloned().unwrap_or_default();
        let mut manage_ran = false;
        let mut active = pods.active.len() as i64;
        if finishing.is_some() {
            // deleteActivePods: every running pod goes; with a failure they count as
            // failed below.
            let victims: Vec<Arc<Stored>> = std::mem::take(&mut pods.active);
            let mut deleted = 0;
            for p in &victims {
                if self.delete_pod(api, &job, p, false, now) {
                    deleted += 1;
                    pods.ready -= i64::from(p.pod().ready);
                }
            }
            active -= deleted;
            pods.terminating += deleted;
            if deleted != victims.len() as i64 || !satisfied {
                finishing = None;
            }
        } else {
            if satisfied && !obj::is_deleting(&job) {
                manage_ran = true;
                active = self.manage(api, &job, &mut pods, succeeded, backoff, only_failed, now);
            }
            let complete = match spec["completions"].as_i64() {
                None => succeeded > 0 && active == 0,
                Some(c) => succeeded >= c && active == 0,
            };
            if complete {
                finishing = Some(Finishing::success());
            } else if manage_ran {
                start = self.suspend_condition(api, &job, &mut conditions, suspended, start, now);
            }
        }
        // trackJobStatusAndRemoveFinalizers.
        let mut new_unc_ok = unc_ok.clone();
        let mut new_unc_failed = unc_failed.clone();
        let mut release: Vec<String> = Vec::new();
        let failing = finishing.as_ref().is_some_and(|f| !f.success);
        // The pods as they are now: the deletes above marked some terminating.
        let current: Vec<Arc<Stored>> = pods
            .all
            .iter()
            .map(|p| {
                api.get_shared(Kind::Pod, p.name())
                    .unwrap_or_else(|_| Arc::clone(p))
            })
            .collect();
        for p in current.iter().filter(|p| has_finalizer(p)) {
            let uid = p.uid().to_string();
            if new_unc_ok.contains(&uid) || new_unc_failed.contains(&uid) {
                continue;
            }
            let ok = p.pod_phase() == Some("Succeeded");
            let fail = failed_pod(p) || (failing && !ok);
            if !(ok || fail || obj::is_deleting(&job)) {
                continue;
            }
            if ok {
                new_unc_ok.push(uid);
            } else if fail && track::judge(policy, p) != Verdict::Ignore {
                new_unc_failed.push(uid);
            }
            release.push(p.name().to_string());
            if (new_unc_ok.len() + new_unc_failed.len()) as i64 >= MAX_PER_SYNC {
                break;
            }
        }
        if let Some(f) = &finishing
            && !conditions
                .iter()
                .any(|c| c["type"] == f.interim() && c["status"] == "True")
        {
            conditions.push(track::new_condition(
                f.interim(),
                &f.reason,
                &f.message,
                now,
            ));
        }
        let mut next = status.clone();
        if !next.is_object() {
            next = json!({});
        }
        let set_count = |s: &mut Value, f: &str, v: i64| {
            // omitempty: a zero count is left out.
            if v > 0 {
                s[f] = json!(v);
            } else if let Some(m) = s.as_object_mut() {
                m.remove(f);
            }
        };
        set_count(&mut next, "active", active.max(0));
        next["ready"] = json!(pods.ready.max(0));
        next["terminating"] = json!(pods.terminating.max(0));
        if let Some(s) = start {
            next["startTime"] = json!(crate::sim::time::unix_rfc3339(s));
        }
        if !conditions.is_empty() {
            next["conditions"] = Value::Array(conditions.clone());
        }
        let uncounted_value = |ok: &[String], failed: &[String]| {
            let mut u = json!({});
            if !ok.is_empty() {
                u["succeeded"] = json!(ok);
            }
            if !failed.is_empty() {
                u["failed"] = json!(failed);
            }
            u
        };
        next["uncountedTerminatedPods"] = uncounted_value(&new_unc_ok, &new_unc_failed);
        self.backoff.insert(name.to_string(), backoff);
        if next != *status {
            self.client.spend(1);
            let _ = api.update_status_with(Kind::Job, name, |j| j["status"] = next.clone());
        }
        for pod in &release {
            self.client.spend(1);
            let _ = api.update_metadata(Kind::Pod, pod, remove_finalizer);
        }
        // The listed pods whose finalizer is off (or that are gone) are counted now; the
        // pods still tracked are read in one pass, not once per listed uid.
        let tracked: std::collections::HashSet<&str> = api
            .list_shared(Kind::Pod)
            .filter(|p| has_finalizer(p))
            .map(|p| p.uid())
            .collect();
        let gone = |uid: &String| !tracked.contains(uid.as_str());
        let (moved_ok, left_ok): (Vec<String>, Vec<String>) =
            new_unc_ok.into_iter().partition(gone);
        let (moved_failed, left_failed): (Vec<String>, Vec<String>) =
            new_unc_failed.into_iter().partition(gone);
        set_count(
            &mut next,
            "succeeded",
            n("succeeded") + moved_ok.len() as i64,
        );
        set_count(&mut next, "failed", n("failed") + moved_failed.len() as i64);
        next["uncountedTerminatedPods"] = uncounted_value(&left_ok, &left_failed);
        let mut done_event = None;
        if let Some(f) = &finishing
            && left_ok.is_empty()
            && left_failed.is_empty()
            && pods.terminating == 0
        {
            // enactJobFinished.
            conditions.push(track::new_condition(
                f.terminal(),
                &f.reason,
                &f.message,
                now,
            ));
            next["conditions"] = Value::Array(conditions);
            if f.success {
                next["completionTime"] = json!(rfc3339(now));
            }
            done_event = Some(f.clone());
        }
        let stored = api
            .get(Kind::Job, name)
            .map(|j| j["status"].clone())
            .unwrap_or_default();
        if next != stored {
            self.client.spend(1);
            let _ = api.update_status_with(Kind::Job, name, |j| j["status"] = next);
        }
        if let Some(f) = done_event {
            if f.success {
                self.event(api, &job, "Normal", "Completed", "Job completed", now);
            } else {
                self.event(api, &job, "Warning", &f.reason, &f.message, now);
            }
        }
        (api.next_seq() - before) as usize
    }

    /// manageJob: creates or deletes pods toward the number the Job wants running;
    /// returns how many are active.
    #[allow(clippy::too_many_arguments)] // one sync's whole view of the Job
    fn manage(
        &mut self,
        api: &mut ApiServer,
        job: &Value,
        pods: &mut Pods,
        succeeded: i64,
        backoff: Backoff,
        only_failed: bool,
        now: u64,
    ) -> i64 {
        let name = obj::name(job).to_string();
        let spec = &job["spec"];
        let mut active = pods.active.len() as i64;
        if spec["suspend"] == true {
            let victims = std::mem::take(&mut pods.active);
            for p in &victims {
                if self.delete_pod(api, job, p, true, now) {
                    active -= 1;
                    pods.terminating += 1;
                    pods.ready -= i64::from(p.pod().ready);
                }
            }
            return active;
        }
        let parallelism = spec["parallelism"].as_i64().unwrap_or(1).max(0);
        let want = match spec["completions"].as_i64() {
            None if succeeded > 0 => active,
            None => parallelism,
            Some(c) => (c - succeeded).min(parallelism).max(0),
        };
        if active > want {
            let mut order: Vec<Arc<Stored>> = pods.active.clone();
            order.sort_by(|a, b| super::pods::deletion_order(a.value(), b.value()));
            let extra = (active - want).min(MAX_PER_SYNC) as usize;
            self.expectations.insert(name.clone(), (0, extra as i64));
            for p in order.into_iter().take(extra) {
                if self.delete_pod(api, job, &p, true, now) {
                    active -= 1;
                    pods.terminating += 1;
                    pods.ready -= i64::from(p.pod().ready);
                }
            }
            return active;
        }
        let terminating = if only_failed { pods.terminating } else { 0 };
        if want - terminating - active > 0 {
            let remaining = backoff.remaining(sim_unix(now));
            if remaining > 0 {
                self.informer
                    .enqueue_after(&name, now.saturating_add(remaining.max(1) as u64));
                // As 1.32 does: the sync that waits out the back-off reports no pods
                // active.
                return 0;
            }
            let diff = (want - terminating - active).min(MAX_PER_SYNC);
            self.expectations.insert(name.clone(), (diff, 0));
            let mut made = 0;
            for batch in super::replicaset::slow_start_batches(diff) {
                let mut ok = 0;
                for _ in 0..batch {
                    if self.create_pod(api, job, now) {
                        ok += 1;
                    }
                }
                made += ok;
                if ok < batch {
                    // The rest are skipped; expectations forget them.
                    if let Some(e) = self.expectations.get_mut(&name) {
                        e.0 -= diff - made;
                    }
                    break;
                }
            }
            active += made;
        }
        active
    }

    /// The Suspended condition (True while suspended, False once resumed) and its event;
    /// resuming restarts the clock `activeDeadlineSeconds` counts from.
    fn suspend_condition(
        &mut self,
        api: &mut ApiServer,
        job: &Value,
        conditions: &mut Vec<Value>,
        suspended: bool,
        start: Option<i64>,
        now: u64,
    ) -> Option<i64> {
        let existing = conditions.iter_mut().find(|c| c["type"] == "Suspended");
        match (suspended, existing) {
            (true, Some(c)) if c["status"] == "True" => start,
            (true, existing) => {
                let c = track::new_condition("Suspended", "JobSuspended", "Job suspended", now);
                match existing {
                    Some(e) => *e = c,
                    None => conditions.push(c),
                }
                self.event(api, job, "Normal", "Suspended", "Job suspended", now);
                start
            }
            (false, Some(c)) if c["status"] == "True" => {
                *c = track::new_condition("Suspended", "JobResumed", "Job resumed", now);
                c["status"] = json!("False");
                self.event(api, job, "Normal", "Resumed", "Job resumed", now);
                Some(sim_unix(now))
            }
            (false, _) => start,
        }
    }

    /// One pod from the template: the tracking finalizer, the Job as controller owner.
    fn create_pod(&mut self, api: &mut ApiServer, job: &Value, now: u64) -> bool {
        let t = &job["spec"]["template"];
        let owner = obj::owner_ref(job, "Job");
        let mut meta = json!({
            "generateName": format!("{}-", obj::name(job)),
            "namespace": "default",
            "labels": t["metadata"]["labels"].clone(),
            "ownerReferences": [owner],
        });
        if let Some(a) = t["metadata"].get("annotations").filter(|v| !v.is_null()) {
            meta["annotations"] = a.clone();
        }
        let mut finalizers = t["metadata"]["finalizers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if !finalizers.iter().any(|f| f == TRACKING_FINALIZER) {
            finalizers.push(json!(TRACKING_FINALIZER));
        }
        meta["finalizers"] = Value::Array(finalizers);
        let pod =
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": t["spec"].clone()});
        self.client.spend(1);
        match api.create_shared(Kind::Pod, pod, now) {
            Ok(p) => {
                self.created += 1;
                let msg = format!("Created pod: {}", p.name());
                self.event(api, job, "Normal", "SuccessfulCreate", &msg, now);
                true
            }
            Err(e) => {
                let msg = format!("Error creating: {}", e.message);
                self.event(api, job, "Warning", "FailedCreate", &msg, now);
                false
            }
        }
    }

    /// Deletes a pod; `uncounted` first takes its finalizer off, so it is not counted
    /// (deleteJobPods: scaling down, suspending).
    fn delete_pod(
        &mut self,
        api: &mut ApiServer,
        job: &Value,
        pod: &Stored,
        uncounted: bool,
        now: u64,
    ) -> bool {
        if uncounted && has_finalizer(pod) {
            self.client.spend(1);
            let _ = api.update_metadata(Kind::Pod, pod.name(), remove_finalizer);
        }
        self.client.spend(1);
        match api.delete_shared(Kind::Pod, pod.name(), None, now) {
            Ok(_) => {
                let msg = format!("Deleted pod: {}", pod.name());
                self.event(api, job, "Normal", "SuccessfulDelete", &msg, now);
                true
            }
            Err(_) => false,
        }
    }
}

/// The work-queue key of an orphan pod to strip of its finalizer.
const ORPHAN: &str = "pod/";

fn orphan_key(pod: &str) -> String {
    format!("{ORPHAN}{pod}")
}

fn remove_finalizer(p: &mut Value) {
    if let Some(f) = p["metadata"]["finalizers"].as_array_mut() {
        f.retain(|x| x != TRACKING_FINALIZER);
        // An empty list is omitted (omitempty), as the server stores it.
        if f.is_empty()
            && let Some(m) = p["metadata"].as_object_mut()
        {
            m.remove("finalizers");
        }
    }
}

/// pastBackoffLimitOnFailure: with restartPolicy OnFailure the kubelet restarts failed
/// containers in place, so their restarts are what count.
fn past_restart_limit(active: &[Arc<Stored>], limit: i64, spec: &Value) -> bool {
    if spec["template"]["spec"]["restartPolicy"] != "OnFailure" {
        return false;
    }
    let restarts: i64 = active
        .iter()
        .filter(|p| matches!(p.pod_phase(), Some("Running" | "Pending")))
        .map(|p| {
            let status = p.field("status").unwrap_or(&Value::Null);
            ["containerStatuses", "initContainerStatuses"]
                .iter()
                .flat_map(|k| status[*k].as_array().into_iter().flatten())
                .filter_map(|c| c["restartCount"].as_i64())
                .sum::<i64>()
        })
        .sum();
    if limit == 0 {
        restarts > 0
    } else {
        restarts >= limit
    }
}

impl super::Controller for JobController {
    super::controller::controller_basics!(JobController, Component::Job);
    fn tick(&mut self, now: u64) {
        self.now = now;
    }
    fn crash(&mut self) {
        self.informer.crash();
        self.expectations.clear();
        self.backoff.clear();
    }
    fn resync(&mut self) {
        super::controller::enqueue_all(&mut self.informer, Kind::Job);
    }
}
