//! The kubelet's prober (pkg/kubelet/prober, 1.32) for pods whose containers declare
//! probes, in simulated seconds. Each probe of each container is a worker that fires
//! every `periodSeconds`, counted from when the pod reached the kubelet, once
//! `initialDelaySeconds` have passed since its container started:
//!
//! - a startup probe runs until it succeeds once; until then the container is not
//!   `started` and the other probes wait; `failureThreshold` failures in a row kill it;
//! - a liveness probe's `failureThreshold` failures in a row kill the container, which is
//!   restarted: at once the first time, then after a back-off of 10 s doubling to 300 s
//!   (`CrashLoopBackOff` meanwhile);
//! - a readiness probe starts as failing; `successThreshold` successes in a row make the
//!   container ready, `failureThreshold` failures in a row unready. A container without
//!   one is ready as soon as it has started.
//!
//! It also follows pods whose containers run to completion ([`app::exit_of`]): a container
//! whose process exits is restarted as `restartPolicy` says (Always: every time; OnFailure:
//! after a non-zero exit; Never: not at all), with the same back-off, and once no
//! container runs or will run again the pod takes its terminal phase (getPhase):
//! Succeeded when every container exited 0, Failed otherwise.
//!
//! What a probe finds is the app's answer ([`Behaviour`]): an HTTP probe of an app that is
//! not listening is refused, of one that is not ready gets a 503; a TCP probe only knows
//! whether the port is open. Each failure is an `Unhealthy` event, each kill a `Killing`
//! one, each wait a `BackOff` one, worded as the kubelet words them.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::app::{self, Behaviour, Exit};
use super::kubelet::COMPONENT;
use crate::sim::api::{ApiServer, Note};
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use crate::sim::time::{rfc3339, sim_unix};

/// The kubelet's container restart back-off: 10 s, doubling, at most 300 s.
const BACKOFF_START: i64 = 10;
const BACKOFF_MAX: i64 = 300;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind3 {
    Startup,
    Liveness,
    Readiness,
}

impl Kind3 {
    const ALL: [Kind3; 3] = [Kind3::Startup, Kind3::Liveness, Kind3::Readiness];

    fn field(self) -> &'static str {
        match self {
            Kind3::Startup => "startupProbe",
            Kind3::Liveness => "livenessProbe",
            Kind3::Readiness => "readinessProbe",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Kind3::Startup => "Startup",
            Kind3::Liveness => "Liveness",
            Kind3::Readiness => "Readiness",
        }
    }
}

/// One probe of one container: its settings and its run of results.
#[derive(Debug, Clone)]
struct Worker {
    kind: Kind3,
    spec: Value,
    successes: i64,
    failures: i64,
}

impl Worker {
    fn setting(&self, key: &str, default: i64) -> i64 {
        self.spec[key].as_i64().unwrap_or(default)
    }
}

/// One container as the prober follows it.
#[derive(Debug, Clone)]
struct Container {
    name: String,
    behaviour: Behaviour,
    /// The container's named ports, by name, for the probes that name one.
    ports: Vec<(String, i64)>,
    /// The container's `ports` as declared: the app listens on these.
    declared: Value,
    workers: Vec<Worker>,
    /// The Unix second the current run of the container started; `None` while it waits
    /// out a back-off.
    started_at: Option<i64>,
    /// Until when a killed container waits before it is started again.
    waiting_until: Option<i64>,
    started: bool,
    ready: bool,
    restarts: i64,
    backoff: i64,
    /// The back-off the container now waits out (`CrashLoopBackOff`), 0 when it is not.
    wait: i64,
    /// How the last run ended: (exit code, reason, started, finished, which run).
    last: Option<(i64, &'static str, i64, i64, i64)>,
    /// How the process ends on its own, if it does.
    exit: Option<Exit>,
    /// The run that ended and stays ended (the container is not restarted): the state
    /// the status shows, in the same shape as `last`.
    done: Option<(i64, &'static str, i64, i64, i64)>,
}

/// A pod's `restartPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Restart {
    Always,
    OnFailure,
    Never,
}

impl Restart {
    fn of(spec: &Value) -> Restart {
        match spec["restartPolicy"].as_str() {
            Some("Never") => Restart::Never,
            Some("OnFailure") => Restart::OnFailure,
            _ => Restart::Always,
        }
    }

    /// Whether a container that exited with `code` is started again.
    fn restarts(self, code: i64) -> bool {
        match self {
            Restart::Always => true,
            Restart::OnFailure => code != 0,
            Restart::Never => false,
        }
    }
}

/// Whether a container declares any probe.
pub fn has_probes(container: &Value) -> bool {
    Kind3::ALL
        .iter()
        .any(|k| container.get(k.field()).is_some_and(|p| p.is_object()))
}

/// Whether the prober follows a running pod of this spec: its containers declare a
/// probe, or run a process that ends.
pub fn follows_spec(spec: &Value) -> bool {
    spec["containers"].as_array().is_some_and(|cs| {
        cs.iter()
            .any(|c| has_probes(c) || app::exit_of(c).is_some())
    })
}

#[derive(Debug, Clone)]
struct Pod {
    /// When the pod reached the kubelet: the workers' ticks count from here.
    created: i64,
    restart: Restart,
    containers: Vec<Container>,
}

impl Pod {
    /// The phase the pod ends in, once no container runs or will run again.
    fn terminal_phase(&self) -> Option<&'static str> {
        if self.restart == Restart::Always || self.containers.iter().any(|c| c.done.is_none()) {
            return None;
        }
        Some(
            if self
                .containers
                .iter()
                .all(|c| c.done.is_some_and(|d| d.0 == 0))
            {
                "Succeeded"
            } else {
                "Failed"
            },
        )
    }
}

#[derive(Debug, Clone, Default)]
pub struct Prober {
    pods: BTreeMap<String, Pod>,
}

impl Prober {
    /// Starts following a pod whose containers have just started, at Unix second `at`.
    pub fn adopt(&mut self, pod: &Stored, at: i64) {
        let spec = pod.unfilled("spec").cloned().unwrap_or(Value::Null);
        let containers = spec["containers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let workers: Vec<Worker> = Kind3::ALL
                    .iter()
                    .filter(|k| c[k.field()].is_object())
                    .map(|k| Worker {
                        kind: *k,
                        spec: c[k.field()].clone(),
                        successes: 0,
                        failures: 0,
                    })
                    .collect();
                let startup = workers.iter().any(|w| w.kind == Kind3::Startup);
                Container {
                    name: c["name"].as_str().unwrap_or("").to_string(),
                    behaviour: Behaviour::of(c["image"].as_str().unwrap_or("")),
                    ports: c["ports"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|p| {
                            Some((
                                p["name"].as_str()?.to_string(),
                                p["containerPort"].as_i64()?,
                            ))
                        })
                        .collect(),
                    declared: json!({"ports": c["ports"].clone()}),
                    workers,
                    started_at: Some(at),
                    waiting_until: None,
                    started: !startup,
                    ready: false,
                    restarts: 0,
                    backoff: 0,
                    wait: 0,
                    last: None,
                    exit: app::exit_of(c),
                    done: None,
                }
            })
            .collect();
        let created = pod.pod().created;
        self.pods.insert(
            pod.name().to_string(),
            Pod {
                created: if created == 0 { at } else { created },
                restart: Restart::of(&spec),
                containers,
            },
        );
    }

    /// Follows a pod that was running before the kubelet restarted: its containers keep
    /// their runs, restart counts and last states as the status shows them; what the
    /// kubelet kept in memory is lost (the probes' runs of results, and the back-off, so
    /// a container waiting out one starts at once).
    pub fn resume(&mut self, pod: &Stored, at: i64) {
        self.adopt(pod, at);
        let status = pod.field("status").cloned().unwrap_or(Value::Null);
        let Some(state) = self.pods.get_mut(pod.name()) else {
            return;
        };
        let time = |v: &Value| v.as_str().and_then(crate::sim::time::parse_rfc3339);
        for c in &mut state.containers {
            let Some(cs) = status["containerStatuses"]
                .as_array()
                .and_then(|l| l.iter().find(|cs| cs["name"] == c.name.as_str()))
            else {
                continue;
            };
            c.restarts = cs["restartCount"].as_i64().unwrap_or(0);
            c.started = cs["started"] == true;
            c.ready = cs["ready"] == true;
            c.started_at = time(&cs["state"]["running"]["startedAt"]);
            let run_of = |t: &Value, run: i64| {
                let (started, finished) = (time(&t["startedAt"])?, time(&t["finishedAt"])?);
                let code = t["exitCode"].as_i64().unwrap_or(0);
                let reason = if code == 0 { "Completed" } else { "Error" };
                Some((code, reason, started, finished, run))
            };
            c.last = run_of(&cs["lastState"]["terminated"], (c.restarts - 1).max(0));
            let ended = &cs["state"]["terminated"];
            // A container that ended for good stays ended; one that ended to be
            // restarted starts again at once (its back-off is forgotten).
            match run_of(ended, c.restarts) {
                Some(run) if !state.restart.restarts(run.0) => c.done = Some(run),
                Some(run) => {
                    c.last = Some(run);
                    c.waiting_until = Some(at);
                }
                None if c.started_at.is_none() => c.waiting_until = Some(at),
                None => {}
            }
        }
    }

    pub fn forget(&mut self, name: &str) {
        self.pods.remove(name);
    }

    pub fn follows(&self, name: &str) -> bool {
        self.pods.contains_key(name)
    }

    /// One second of probing: every followed pod that still runs, outside `frozen` nodes.
    pub fn tick(&mut self, api: &mut ApiServer, now: u64, frozen: &dyn Fn(&Stored) -> bool) {
        let at = sim_unix(now);
        let names: Vec<String> = self.pods.keys().cloned().collect();
        for name in names {
            let Ok(pod) = api.get_shared(Kind::Pod, &name) else {
                self.pods.remove(&name);
                continue;
            };
            if pod.facts().deleting {
                self.pods.remove(&name);
                continue;
            }
            if frozen(&pod) {
                continue;
            }
            let Some(state) = self.pods.get_mut(&name) else {
                continue;
            };
            let ip = super::app::pod_ip(&pod).unwrap_or("").to_string();
            let mut notes: Vec<(String, &'static str, &'static str, String)> = Vec::new();
            for c in &mut state.containers {
                step(c, state.created, state.restart, at, &ip, &pod, &mut notes);
            }
            for (container, type_, reason, message) in &notes {
                let field_path = format!("spec.containers{{{container}}}");
                api.record_event(
                    &*pod,
                    Kind::Pod,
                    Note {
                        type_,
                        reason,
                        message,
                        component: COMPONENT,
                        field_path: Some(&field_path),
                    },
                    now,
                );
            }
            let before = pod.field("status").cloned().unwrap_or(Value::Null);
            let mut status = before.clone();
            write_status(&mut status, &state.containers, now, &pod);
            let terminal = state.terminal_phase();
            if let Some(phase) = terminal {
                end(&mut status, phase, now);
                // Nothing runs any more: there is nothing left to follow.
                self.pods.remove(&name);
            }
            if status != before {
                let _ = api.store_pod_status(&pod, status);
            }
        }
    }
}

/// The port a probe asks: a number, or a container port by name; `None` when the name
/// is not one of the container's ports (the kubelet then throws the result away).
fn probe_port(w: &Worker, c: &Container) -> Option<i64> {
    let handler = ["httpGet", "tcpSocket", "grpc"]
        .into_iter()
        .find(|h| w.spec[*h].is_object())?;
    match &w.spec[handler]["port"] {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => c.ports.iter().find(|(n, _)| n == s).map(|(_, p)| *p),
        _ => None,
    }
}

/// What a failing probe reports (the kubelet's prober output), for the port it asked
/// (`None` for an exec probe).
fn failure(w: &Worker, ip: &str, port: Option<i64>, listening: bool) -> String {
    let Some(port) = port else {
        // An exec probe reports the command's output, and the demo's commands print none.
        return String::new();
    };
    let hostport = format!("{ip}:{port}");
    let http = &w.spec["httpGet"];
    if !http.is_object() {
        return format!("dial tcp {hostport}: connect: connection refused");
    }
    if listening {
        return "HTTP probe failed with statuscode: 503".to_string();
    }
    let path = http["path"].as_str().unwrap_or("/");
    let scheme = http["scheme"]
        .as_str()
        .unwrap_or("HTTP")
        .to_ascii_lowercase();
    format!("Get \"{scheme}://{hostport}{path}\": dial tcp {hostport}: connect: connection refused")
}

/// One second of one container.
#[allow(clippy::too_many_arguments)] // one container's whole context, read once per pod
fn step(
    c: &mut Container,
    created: i64,
    policy: Restart,
    at: i64,
    ip: &str,
    pod: &Stored,
    notes: &mut Vec<(String, &'static str, &'static str, String)>,
) {
    if let Some(until) = c.waiting_until {
        if at < until {
            return;
        }
        restart(c, at);
    }
    let Some(started_at) = c.started_at else {
        return;
    };
    let up = at - started_at;
    let mut kill: Option<Kind3> = None;
    for i in 0..c.workers.len() {
        let w = &c.workers[i];
        let period = w.setting("periodSeconds", 10).max(1);
        let due =
            (at - created).rem_euclid(period) == 0 && up >= w.setting("initialDelaySeconds", 0);
        let runs = match w.kind {
            Kind3::Startup => !c.started,
            _ => c.started,
        };
        if !due || !runs {
            continue;
        }
        // An exec probe runs in the container and asks no port.
        let port = if w.spec["exec"].is_object() {
            None
        } else {
            match probe_port(w, c) {
                Some(p) => Some(p),
                // A port name the container does not have: a prober error, no result.
                None => continue,
            }
        };
        let listening =
            c.behaviour.alive(up) && port.is_none_or(|p| super::app::listens_on(&c.declared, p));
        let tcp_only = w.spec["tcpSocket"].is_object() || w.spec["grpc"].is_object();
        let ok = match w.kind {
            Kind3::Readiness if !tcp_only => listening && c.behaviour.ready(up),
            _ => listening,
        };
        let message = (!ok).then(|| failure(w, ip, port, listening));
        let w = &mut c.workers[i];
        if ok {
            w.successes += 1;
            w.failures = 0;
        } else {
            w.failures += 1;
            w.successes = 0;
        }
        let (successes, failures) = (w.successes, w.failures);
        let (need_ok, need_fail) = (
            w.setting("successThreshold", 1).max(1),
            w.setting("failureThreshold", 3).max(1),
        );
        let kind = w.kind;
        if let Some(m) = message {
            notes.push((
                c.name.clone(),
                "Warning",
                "Unhealthy",
                format!("{} probe failed: {m}", kind.word()),
            ));
        }
        match kind {
            Kind3::Startup if ok => {
                c.started = true;
                if !c.workers.iter().any(|w| w.kind == Kind3::Readiness) {
                    c.ready = true;
                }
            }
            Kind3::Startup | Kind3::Liveness if failures >= need_fail => kill = Some(kind),
            Kind3::Readiness if ok && successes >= need_ok => c.ready = true,
            Kind3::Readiness if !ok && failures >= need_fail => c.ready = false,
            _ => {}
        }
    }
    if c.started && !c.workers.iter().any(|w| w.kind == Kind3::Readiness) {
        c.ready = true;
    }
    if kill.is_none()
        && let Some(e) = c.exit
        && up >= e.after
    {
        // The process exited by itself.
        let reason = if e.code == 0 { "Completed" } else { "Error" };
        let run = (e.code, reason, started_at, at, c.restarts);
        c.started_at = None;
        c.ready = false;
        c.started = false;
        if policy.restarts(e.code) {
            c.last = Some(run);
            back_off(c, at, started_at, pod, notes);
        } else {
            c.done = Some(run);
        }
        return;
    }
    if let Some(kind) = kill {
        let word = kind.word().to_ascii_lowercase();
        notes.push((
            c.name.clone(),
            "Normal",
            "Killing",
            // computePodActions says so only where the pod restarts failed containers.
            format!(
                "Container {} failed {word} probe{}",
                c.name,
                if policy == Restart::Never {
                    ""
                } else {
                    ", will be restarted"
                }
            ),
        ));
        let ignores = super::app::ignores_sigterm(pod);
        let (code, reason) = if ignores {
            (137, "Error")
        } else {
            (0, "Completed")
        };
        let run = (code, reason, started_at, at, c.restarts);
        c.started_at = None;
        c.ready = false;
        c.started = false;
        // The kubelet restarts a killed container as restartPolicy says, like one that
        // exited by itself.
        if policy.restarts(code) {
            c.last = Some(run);
            back_off(c, at, started_at, pod, notes);
        } else {
            c.done = Some(run);
        }
    }
}

/// A container that stopped at `at` (it ran from `started_at`) waits to be started again:
/// at once the first time, then for a back-off that doubles.
fn back_off(
    c: &mut Container,
    at: i64,
    started_at: i64,
    pod: &Stored,
    notes: &mut Vec<(String, &'static str, &'static str, String)>,
) {
    // The kubelet forgets a back-off that has not moved for twice its cap: a
    // container that ran ten minutes restarts at once, as if for the first time.
    if at - started_at > 2 * BACKOFF_MAX {
        c.backoff = 0;
    }
    if c.backoff == 0 {
        // The first restart is at once; the back-off starts with the next.
        c.backoff = BACKOFF_START;
        c.waiting_until = Some(at + 1);
    } else {
        notes.push((
            c.name.clone(),
            "Warning",
            "BackOff",
            format!(
                "Back-off restarting failed container {} in pod {}_default({})",
                c.name,
                pod.name(),
                pod.uid()
            ),
        ));
        c.waiting_until = Some(at + c.backoff);
        c.wait = c.backoff;
        c.backoff = (c.backoff * 2).min(BACKOFF_MAX);
    }
}

/// The runtime's id of a container's `run`-th run (the first is the kubelet's own).
fn run_id(uid: &str, name: &str, run: i64) -> String {
    match run {
        0 => super::image::container_id(uid, name),
        n => super::image::container_id(uid, &format!("{name}#{n}")),
    }
}

/// The container runs again: a new run, its workers from scratch.
fn restart(c: &mut Container, at: i64) {
    c.waiting_until = None;
    c.wait = 0;
    c.started_at = Some(at);
    c.restarts += 1;
    c.started = !c.workers.iter().any(|w| w.kind == Kind3::Startup);
    c.ready = false;
    for w in &mut c.workers {
        w.successes = 0;
        w.failures = 0;
    }
}

/// The pod's status from the containers' states: each container's state, lastState,
/// restartCount, started and ready; the pod's Ready and ContainersReady.
fn write_status(status: &mut Value, containers: &[Container], now: u64, pod: &Stored) {
    let ts = |unix: i64| json!(crate::sim::time::unix_rfc3339(unix));
    if let Some(list) = status["containerStatuses"].as_array_mut() {
        for cs in list {
            let Some(c) = containers.iter().find(|c| cs["name"] == c.name.as_str()) else {
                continue;
            };
            cs["ready"] = json!(c.ready);
            cs["started"] = json!(c.started);
            cs["restartCount"] = json!(c.restarts);
            if let Some((code, reason, started, finished, run)) = c.last {
                cs["lastState"] = json!({"terminated": {
                    "containerID": run_id(pod.uid(), &c.name, run),
                    "exitCode": code,
                    "reason": reason,
                    "startedAt": ts(started),
                    "finishedAt": ts(finished),
                }});
            }
            match (c.started_at, c.waiting_until) {
                (Some(s), _) => {
                    if cs["state"]["running"]["startedAt"] != ts(s) {
                        cs["state"] = json!({"running": {"startedAt": ts(s)}});
                        cs["containerID"] = json!(run_id(pod.uid(), &c.name, c.restarts));
                    }
                }
                (None, Some(_)) if c.wait > 0 => {
                    let wait = crate::sim::time::go_duration(c.wait.unsigned_abs());
                    cs["state"] = json!({"waiting": {
                        "reason": "CrashLoopBackOff",
                        "message": format!(
                            "back-off {wait} restarting failed container={} pod={}_default({})",
                            c.name, pod.name(), pod.uid()
                        ),
                    }});
                }
                _ if c.done.is_some() => {
                    if let Some((code, reason, started, finished, run)) = c.done {
                        cs["state"] = json!({"terminated": {
                            "containerID": run_id(pod.uid(), &c.name, run),
                            "exitCode": code, "reason": reason,
                            "startedAt": ts(started), "finishedAt": ts(finished),
                        }});
                    }
                }
                _ => {
                    if let Some((code, reason, started, finished, _)) = c.last {
                        cs["state"] = json!({"terminated": {
                            "exitCode": code, "reason": reason,
                            "startedAt": ts(started), "finishedAt": ts(finished),
                        }});
                    }
                }
            }
        }
    }
    let all_ready = containers.iter().all(|c| c.ready);
    let text = if all_ready { "True" } else { "False" };
    let unready: Vec<&str> = containers
        .iter()
        .filter(|c| !c.ready)
        .map(|c| c.name.as_str())
        .collect();
    if let Some(conds) = status["conditions"].as_array_mut() {
        for c in conds
            .iter_mut()
            .filter(|c| c["type"] == "Ready" || c["type"] == "ContainersReady")
        {
            if c["status"] != text {
                c["status"] = json!(text);
                c["lastTransitionTime"] = json!(rfc3339(now));
            }
            let obj = c.as_object_mut();
            if let Some(m) = obj {
                if all_ready {
                    m.remove("reason");
                    m.remove("message");
                } else {
                    m.insert("reason".into(), json!("ContainersNotReady"));
                    m.insert(
                        "message".into(),
                        json!(format!(
                            "containers with unready status: [{}]",
                            unready.join(" ")
                        )),
                    );
                }
            }
        }
    }
}

/// A pod none of whose containers runs or will run again takes its terminal phase; the
/// kubelet then tears its sandbox down, and its Ready and ContainersReady are False with
/// the phase's reason (GenerateContainersReadyCondition's terminal case).
fn end(status: &mut Value, phase: &'static str, now: u64) {
    let reason = if phase == "Succeeded" {
        "PodCompleted"
    } else {
        "PodFailed"
    };
    status["phase"] = json!(phase);
    if let Some(conds) = status["conditions"].as_array_mut() {
        for c in conds.iter_mut() {
            let t = c["type"].as_str().unwrap_or("").to_string();
            if !matches!(
                t.as_str(),
                "Ready" | "ContainersReady" | "PodReadyToStartContainers"
            ) {
                continue;
            }
            if c["status"] != "False" {
                c["status"] = json!("False");
                c["lastTransitionTime"] = json!(rfc3339(now));
            }
            if let Some(m) = c.as_object_mut() {
                m.remove("message");
                if t == "PodReadyToStartContainers" {
                    m.remove("reason");
                } else {
                    m.insert("reason".into(), json!(reason));
                }
            }
        }
    }
}
