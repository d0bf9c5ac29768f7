//! kube-controller-manager as two replicas electing a leader through the Lease
//! `kube-system/kube-controller-manager`, as client-go v0.32's tools/leaderelection runs it
//! with kcm's defaults (lease 15 s, renew deadline 10 s, retry period 2 s, jitter 1.2, a 5 s
//! timeout on each call; no release on exit). Only the leader runs the controllers; a
//! leader that cannot renew within its deadline logs "leaderelection lost" and exits, and
//! its kubelet starts it again 10 s later under a new identity. A new leader records the
//! LeaderElection event on the Lease; "stopped leading" is only logged, as the exiting
//! process's asynchronous write of it would likely be lost.
//!
//! Time here runs in milliseconds (the jitter and call latencies are fractions of a
//! second); the cluster advances it a second at a time. A call slower than the 5 s timeout,
//! or cut off by the renew deadline, never reaches the API server (the demo's choice: on a
//! real slow etcd it may still commit late). The API server answers in no time unless a
//! replica's calls are slowed with `kcm slow`.

use std::collections::VecDeque;

use rand::RngExt;
use serde_json::{Value, json};

use crate::sim::api::ApiServer;
use crate::sim::kind::Kind;
use crate::sim::rng::SimRng;

pub const LEASE: &str = "kube-controller-manager";
pub const NAMESPACE: &str = "kube-system";
const DESCRIBE: &str = "kube-system/kube-controller-manager";
const LEASE_DURATION_MS: u64 = 15_000;
const RENEW_DEADLINE_MS: u64 = 10_000;
const RETRY_PERIOD_MS: u64 = 2_000;
const JITTER: f64 = 1.2;
/// NewFromKubeconfig: max(1 s, renew deadline / 2) on each of the election client's calls.
const CALL_TIMEOUT_MS: u64 = 5_000;
/// The kubelet's first restart back-off for the exited static pod's container.
const RESTART_MS: u64 = 10_000;
/// Log lines kept per replica.
const LOG_LINES: usize = 40;

/// LeaderElectionRecord as the Lease carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub holder: String,
    pub acquire_ms: u64,
    pub renew_ms: u64,
    pub transitions: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Trying to acquire (the acquire loop).
    Candidate,
    /// Holding the lease and running the controllers (the renew loop).
    Leader,
    /// Exited or stopped; `Some(t)`: its kubelet starts it again at t.
    Down(Option<u64>),
}

/// The renew loop's current poll (wait.PollUntilContextTimeout): started at `start`, given
/// up at `deadline`.
#[derive(Debug, Clone, Copy)]
struct Poll {
    start: u64,
    deadline: u64,
}

#[derive(Debug, Clone)]
pub struct Replica {
    /// `kcm-1`, `kcm-2`: the node's hostname, the first half of its identity.
    pub host: &'static str,
    pub identity: String,
    pub state: State,
    observed: Option<Record>,
    observed_ms: u64,
    /// The resourceVersion of the Lease this replica last read or wrote.
    cached_rv: Option<String>,
    /// How long each of its API calls takes (`kcm slow`).
    pub latency_ms: u64,
    /// When it next starts an attempt.
    wake: u64,
    poll: Option<Poll>,
    pub log: VecDeque<String>,
    /// Times it lost the lease and exited.
    pub lost: u64,
}

#[derive(Debug, Clone)]
pub struct Kcm {
    pub replicas: [Replica; 2],
    rng: SimRng,
    now: u64,
}

/// How a call ended.
enum Call<T> {
    Done(T, u64),
    Failed(String, u64),
}

fn micro_time(ms: u64) -> String {
    let secs = ms / 1000;
    let base = crate::sim::time::rfc3339(secs);
    format!("{}.{:03}000Z", base.trim_end_matches('Z'), ms % 1000)
}

/// The demo's log header: the simulated time to the millisecond, then the level.
fn stamp(ms: u64, level: char) -> String {
    let clock = crate::sim::time::rfc3339(ms / 1000);
    let time = clock.get(11..19).unwrap_or("");
    format!("{time}.{:03} {level}", ms % 1000)
}

impl Replica {
    fn new(host: &'static str, identity: String, now: u64) -> Replica {
        let mut r = Replica {
            host,
            identity,
            state: State::Candidate,
            observed: None,
            observed_ms: 0,
            cached_rv: None,
            latency_ms: 0,
            wake: now,
            poll: None,
            log: VecDeque::new(),
            lost: 0,
        };
        r.say(
            now,
            'I',
            &format!("attempting to acquire leader lease {DESCRIBE}..."),
        );
        r
    }

    fn say(&mut self, ms: u64, level: char, msg: &str) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(format!("{} {msg}", stamp(ms, level)));
    }

    /// The event recorder's log echo of a LeaderElection event about this replica.
    fn echo_event(&mut self, ms: u64, what: &str) {
        let msg = format!(
            "\"Event occurred\" object=\"{DESCRIBE}\" kind=\"Lease\" apiVersion=\"coordination.k8s.io/v1\" type=\"Normal\" reason=\"LeaderElection\" message=\"{} {what}\"",
            self.identity
        );
        self.say(ms, 'I', &msg);
    }

    fn is_leader(&self) -> bool {
        self.observed
            .as_ref()
            .is_some_and(|o| o.holder == self.identity)
    }

    fn lease_valid(&self, now: u64) -> bool {
        self.observed_ms + LEASE_DURATION_MS > now
    }

    /// One API call started at `t`: its latency, cut by the 5 s client timeout and by the
    /// renew deadline; a call started at or after the deadline fails at once.
    fn call<T>(
        &self,
        t: u64,
        deadline: Option<u64>,
        what: &str,
        f: impl FnOnce(u64) -> Result<T, String>,
    ) -> Call<T> {
        if deadline.is_some_and(|d| t >= d) {
            return Call::Failed(
                "client rate limiter Wait returned an error: context deadline exceeded".into(),
                t,
            );
        }
        let end = t + self.latency_ms.min(CALL_TIMEOUT_MS);
        // A call ending with the renew deadline loses to it: the deadline's context was
        // made first.
        if let Some(d) = deadline.filter(|d| end >= *d) {
            return Call::Failed(format!("{what}: context deadline exceeded"), d);
        }
        if self.latency_ms >= CALL_TIMEOUT_MS {
            return Call::Failed(
                format!(
                    "{what}: net/http: request canceled (Client.Timeout exceeded while awaiting headers)"
                ),
                end,
            );
        }
        match f(end) {
            Ok(v) => Call::Done(v, end),
            Err(e) => Call::Failed(e, end),
        }
    }
}

fn url(verb: &str, create: bool) -> String {
    let path = if create {
        "https://172.18.0.1:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?timeout=5s".to_string()
    } else {
        format!(
            "https://172.18.0.1:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/{LEASE}?timeout=5s"
        )
    };
    format!("{verb} \"{path}\"")
}

fn lease_object(rec: &Record) -> Value {
    json!({
        "apiVersion": "coordination.k8s.io/v1",
        "kind": "Lease",
        "metadata": {"name": LEASE, "namespace": NAMESPACE},
        "spec": {
            "holderIdentity": rec.holder,
            "leaseDurationSeconds": LEASE_DURATION_MS / 1000,
            "acquireTime": micro_time(rec.acquire_ms),
            "renewTime": micro_time(rec.renew_ms),
            "leaseTransitions": rec.transitions,
        },
    })
}

/// LeaseSpecToLeaderElectionRecord.
fn read_record(lease: &Value) -> Record {
    let spec = &lease["spec"];
    let ms = |f: &str| {
        spec[f]
            .as_str()
            .and_then(|s| {
                let (secs, frac) = s.trim_end_matches('Z').split_once('.')?;
                let unix = crate::sim::time::parse_rfc3339(&format!("{secs}Z"))?;
                let base = u64::try_from(unix - crate::sim::time::sim_unix(0)).ok()?;
                Some(base * 1000 + frac.get(..3)?.parse::<u64>().ok()?)
            })
            .unwrap_or(0)
    };
    Record {
        holder: spec["holderIdentity"].as_str().unwrap_or("").to_string(),
        acquire_ms: ms("acquireTime"),
        renew_ms: ms("renewTime"),
        transitions: spec["leaseTransitions"].as_i64().unwrap_or(0),
    }
}

impl Kcm {
    /// Two replicas on `kcm-1` and `kcm-2`, started at `now_ms`; the first to try acquires.
    pub fn new(seed: &SimRng, now_ms: u64) -> Kcm {
        let mut rng = seed.on_stream(3);
        let a = Self::identity(&mut rng, "kcm-1");
        let b = Self::identity(&mut rng, "kcm-2");
        Kcm {
            replicas: [
                Replica::new("kcm-1", a, now_ms),
                // The second starts a moment later, as two static pods never start at once.
                Replica::new("kcm-2", b, now_ms + 100),
            ],
            rng,
            now: now_ms,
        }
    }

    /// `hostname_uuid`: a random v4 UUID per process start.
    fn identity(rng: &mut SimRng, host: &str) -> String {
        let hex: String = (0..32)
            .map(|_| char::from_digit(rng.random_range(0..16u32), 16).unwrap_or('0'))
            .collect();
        let u = format!(
            "{}-{}-4{}-{}{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[13..16],
            ["8", "9", "a", "b"][rng.random_range(0..4usize)],
            &hex[17..20],
            &hex[20..32]
        );
        format!("{host}_{u}")
    }

    /// The replica running the controllers, if any.
    pub fn acting(&self) -> Option<usize> {
        self.replicas.iter().position(|r| r.state == State::Leader)
    }

    /// Runs both replicas' loops up to `until` (ms), in time order.
    pub fn advance(&mut self, api: &mut ApiServer, until: u64) {
        loop {
            let next = (0..2)
                .filter_map(|i| self.due(i).map(|t| (t, i)))
                .filter(|(t, _)| *t <= until)
                .min();
            let Some((t, i)) = next else { break };
            self.now = t;
            self.step(api, i, t);
        }
        self.now = until;
    }

    fn due(&self, i: usize) -> Option<u64> {
        match self.replicas[i].state {
            State::Down(at) => at,
            _ => Some(self.replicas[i].wake),
        }
    }

    fn step(&mut self, api: &mut ApiServer, i: usize, t: u64) {
        if let State::Down(Some(_)) = self.replicas[i].state {
            // The kubelet starts the container again: a new process, a new identity.
            let host = self.replicas[i].host;
            let id = Self::identity(&mut self.rng, host);
            let lost = self.replicas[i].lost;
            let mut log = std::mem::take(&mut self.replicas[i].log);
            let mut fresh = Replica::new(host, id, t);
            log.extend(fresh.log.drain(..));
            while log.len() > LOG_LINES {
                log.pop_front();
            }
            fresh.log = log;
            fresh.lost = lost;
            self.replicas[i] = fresh;
            return;
        }
        let leading = self.replicas[i].state == State::Leader;
        let deadline = self.replicas[i].poll.map(|p| p.deadline);
        let (ok, end) = self.try_acquire_or_renew(api, i, t, deadline);
        let r = &mut self.replicas[i];
        if !leading {
            if ok {
                r.state = State::Leader;
                // LeaseLock.RecordEvent: kcm's recorder, on the Lease, in kube-system.
                let uid = api
                    .get(Kind::Lease, LEASE)
                    .map(|l| l["metadata"]["uid"].as_str().unwrap_or("").to_string())
                    .unwrap_or_default();
                let about = crate::sim::api::Ref {
                    name: LEASE,
                    uid: &uid,
                    namespace: NAMESPACE,
                };
                let message = format!("{} became leader", r.identity);
                api.record_event(
                    &about,
                    crate::sim::api::ObjectType {
                        api_version: "coordination.k8s.io/v1",
                        kind: "Lease",
                    },
                    crate::sim::api::Note::about(
                        "Normal",
                        "LeaderElection",
                        &message,
                        "kube-controller-manager",
                    ),
                    end / 1000,
                );
                let r = &mut self.replicas[i];
                r.echo_event(end, "became leader");
                r.say(end, 'I', &format!("successfully acquired lease {DESCRIBE}"));
                // renew: the first poll starts at once, its first attempt immediate.
                r.poll = Some(Poll {
                    start: end,
                    deadline: end + RENEW_DEADLINE_MS,
                });
                r.wake = end;
            } else {
                let jitter = self.rng.random::<f64>() * JITTER * RETRY_PERIOD_MS as f64;
                r.wake = end + RETRY_PERIOD_MS + jitter as u64;
            }
            return;
        }
        let Some(poll) = r.poll else { return };
        if ok {
            // wait.Until, sliding: the next poll starts 2 s after this one ended.
            r.poll = Some(Poll {
                start: end + RETRY_PERIOD_MS,
                deadline: end + RETRY_PERIOD_MS + RENEW_DEADLINE_MS,
            });
            r.wake = end + RETRY_PERIOD_MS;
            return;
        }
        // The poll's ticker fires every 2 s from its start; one tick that fired while the
        // attempt ran is delivered as soon as it returns.
        let tick = poll.start + ((t - poll.start) / RETRY_PERIOD_MS + 1) * RETRY_PERIOD_MS;
        let next = tick.max(end);
        if end >= poll.deadline || next >= poll.deadline {
            let at = poll.deadline.max(end);
            r.say(
                at,
                'I',
                &format!("failed to renew lease {DESCRIBE}: context deadline exceeded"),
            );
            r.echo_event(at, "stopped leading");
            r.say(at, 'E', "\"leaderelection lost\"");
            r.lost += 1;
            r.state = State::Down(Some(at + RESTART_MS));
            r.poll = None;
            return;
        }
        r.wake = next;
    }

    /// tryAcquireOrRenew, started at `now`; returns whether it succeeded and when it ended.
    fn try_acquire_or_renew(
        &mut self,
        api: &mut ApiServer,
        i: usize,
        now: u64,
        deadline: Option<u64>,
    ) -> (bool, u64) {
        let r = &self.replicas[i];
        let mut rec = Record {
            holder: r.identity.clone(),
            acquire_ms: now,
            renew_ms: now,
            transitions: 0,
        };
        let mut t = now;
        // 1. The leader's fast path: an update on the lease it last saw.
        if r.is_leader() && r.lease_valid(now) {
            let old = r.observed.clone().unwrap_or_else(|| rec.clone());
            rec.acquire_ms = old.acquire_ms;
            rec.transitions = old.transitions;
            let rv = r.cached_rv.clone();
            match r.call(t, deadline, &url("Put", false), |_| {
                put(api, &rec, rv.as_deref())
            }) {
                Call::Done(rv, end) => {
                    self.observe(i, rec, Some(rv), end);
                    return (true, end);
                }
                Call::Failed(e, end) => {
                    let r = &mut self.replicas[i];
                    r.say(
                        end,
                        'E',
                        &format!(
                            "Failed to update lock optimistically: {e}, falling back to slow path"
                        ),
                    );
                    t = end;
                }
            }
        }
        // 2. Read the record, or create it.
        let r = &self.replicas[i];
        let got = match r.call(t, deadline, &url("Get", false), |_| {
            api.get(Kind::Lease, LEASE)
                .map(|l| (l.clone(), resource_version(l)))
                .map_err(|e| e.message.clone())
        }) {
            Call::Done(v, end) => {
                t = end;
                v
            }
            Call::Failed(e, end) if e.ends_with("not found") => {
                let create = r.call(end, deadline, &url("Post", true), |_| {
                    api.create(Kind::Lease, lease_object(&rec), end / 1000)
                        .map(|l| resource_version(&l))
                        .map_err(|e| e.message)
                });
                return match create {
                    Call::Done(rv, end) => {
                        self.observe(i, rec, Some(rv), end);
                        (true, end)
                    }
                    Call::Failed(e, end) => {
                        let msg = format!("error initially creating leader election record: {e}");
                        self.replicas[i].say(end, 'E', &msg);
                        (false, end)
                    }
                };
            }
            Call::Failed(e, end) => {
                let msg = format!("error retrieving resource lock {DESCRIBE}: {e}");
                self.replicas[i].say(end, 'E', &msg);
                return (false, end);
            }
        };
        let old = read_record(&got.0);
        let r = &mut self.replicas[i];
        r.cached_rv = Some(got.1.clone());
        // 3. A record that changed since it last looked restarts its clock.
        if r.observed.as_ref() != Some(&old) {
            r.observed = Some(old.clone());
            r.observed_ms = t;
        }
        if !old.holder.is_empty() && r.lease_valid(now) && !r.is_leader() {
            return (false, t);
        }
        // 4. Take it over, or keep it.
        if r.is_leader() {
            rec.acquire_ms = old.acquire_ms;
            rec.transitions = old.transitions;
        } else {
            rec.transitions = old.transitions + 1;
        }
        let rv = got.1;
        match r.call(t, deadline, &url("Put", false), |_| {
            put(api, &rec, Some(&rv))
        }) {
            Call::Done(rv, end) => {
                self.observe(i, rec, Some(rv), end);
                (true, end)
            }
            Call::Failed(e, end) => {
                self.replicas[i].say(end, 'E', &format!("Failed to update lock: {e}"));
                (false, end)
            }
        }
    }

    fn observe(&mut self, i: usize, rec: Record, rv: Option<String>, at: u64) {
        let r = &mut self.replicas[i];
        r.observed = Some(rec);
        r.observed_ms = at;
        r.cached_rv = rv;
    }

    /// `kcm kill`: the process dies (kill -9); its kubelet starts it again 10 s later.
    /// `kcm stop`: its static pod manifest is moved away: down until `kcm start`.
    pub fn down(&mut self, i: usize, restart: bool) {
        let now = self.now;
        let r = &mut self.replicas[i];
        // The demo's note, not the process's: a killed process logs nothing.
        r.say(
            now,
            '-',
            if restart {
                "(demo) killed with SIGKILL; its kubelet starts the container again in 10s"
            } else {
                "(demo) stopped: its static pod manifest was moved away"
            },
        );
        r.state = State::Down(restart.then_some(now + RESTART_MS));
        r.poll = None;
    }

    /// `kcm start`: the stopped replica starts again as a new process.
    pub fn start(&mut self, i: usize) {
        if let State::Down(_) = self.replicas[i].state {
            self.replicas[i].state = State::Down(Some(self.now));
        }
    }
}

fn resource_version(lease: &Value) -> String {
    lease["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// A conditional update of the Lease (leases allow no unconditional update).
fn put(api: &mut ApiServer, rec: &Record, rv: Option<&str>) -> Result<String, String> {
    let Some(rv) = rv else {
        return Err("lease not initialized, call get or create first".into());
    };
    let mut lease = api
        .get(Kind::Lease, LEASE)
        .map_err(|e| e.message.clone())?
        .clone();
    lease["spec"] = lease_object(rec)["spec"].clone();
    api.update(Kind::Lease, lease, Some(rv))
        .map(|l| resource_version(&l))
        .map_err(|e| e.message)
}
