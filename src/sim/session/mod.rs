//! A demo session: one scenario's cluster, its files and writers, the lines the learner
//! ran, and the challenge goals checked after every command and every simulated second.

use std::collections::HashMap;

use serde_json::Value;

use super::cluster::Cluster;
use super::controllers::node_agent::NodeAgents;
use super::directive::{self, ApplyMode, Component, Directive, Trigger};
use super::goal::{self, Goal, GoalError};
use super::informer::RunState;
use super::kind::Kind;
use super::kubectl::{args, exec};
use super::scenario::{self, Origin, Scenario};
use super::{obj, shell};
use writers::Gitops;

mod components;
mod kcm;
mod load;
mod metrics;
mod operator;
mod webhooks;
mod writers;

/// Seconds of `replicas_history` kept, at least: more than the chart shows.
pub const HISTORY_SECONDS: usize = 3600;

/// Simulated seconds one `tick` line may run: a day takes well under a second.
pub const MAX_TICK: u64 = 24 * 3600;

/// What one line printed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    /// All of stderr: the warnings first, as kubectl wrote them, then what it printed last.
    pub stderr: String,
    /// Where each warning went: the length of stdout before it, and its length in `stderr`.
    pub warnings: Vec<(usize, usize)>,
}

impl Output {
    /// The two streams in the order kubectl wrote them, as a terminal shows them:
    /// `(is_stderr, text)`; warnings where they happened, the rest of stderr last.
    pub fn chunks(&self) -> Vec<(bool, &str)> {
        let mut v = Vec::new();
        let (mut out_at, mut err_at) = (0, 0);
        for &(at, len) in &self.warnings {
            let (Some(before), Some(w)) = (
                self.stdout.get(out_at..at),
                self.stderr.get(err_at..err_at + len),
            ) else {
                break;
            };
            v.push((false, before));
            v.push((true, w));
            (out_at, err_at) = (at, err_at + len);
        }
        v.push((false, self.stdout.get(out_at..).unwrap_or("")));
        v.push((true, self.stderr.get(err_at..).unwrap_or("")));
        v.retain(|(_, t)| !t.is_empty());
        v
    }
}

#[derive(Debug, Default, Clone)]
struct Counters {
    errors: HashMap<String, u64>,
    ran: HashMap<String, u64>,
    deleted_pods: u64,
    forged: u64,
}

/// History of one tracked value, for `changes()` and `stable()`.
#[derive(Debug, Clone)]
struct Track {
    last: Value,
    changes: u64,
    changed_at: u64,
}

#[derive(Clone)]
pub struct Session {
    pub cluster: Cluster,
    pub files: exec::Files,
    pub scenario: &'static Scenario,
    counters: Counters,
    gitops: Option<Gitops>,
    /// The load generator, once `traffic N` starts it.
    pub traffic: Option<crate::sim::traffic::Traffic>,
    goals: Vec<Goal>,
    met: Vec<bool>,
    /// What met each challenge; like `met`, kept across `reset` and `restore`.
    met_by: Vec<Option<Met>>,
    tracks: HashMap<String, Track>,
    /// Every line run, for the replay script.
    pub lines: Vec<String>,
    start: u64,
    /// spec.replicas and ready pods each second, for the demo's chart: the last
    /// [`HISTORY_SECONDS`] at least, at most twice that.
    pub replicas_history: Vec<(u64, i64, i64)>,
    /// UIDs of the active pods when the learner took over, for `survivors()`.
    survivors: std::collections::HashSet<String>,
    saved: Saved,
    /// Webhook configurations `webhook add` registers once their servers are ready.
    /// With the error of the last try, if one was refused.
    webhook_installs: Vec<(Kind, Value, Option<String>)>,
    /// The WebApp `shop` as a client reads it now (the goals' `webapp`): at the CRD's
    /// preferred version, with defaults added since it was written; none if it cannot be
    /// read.
    webapp_view: Option<Value>,
}

/// When a challenge was met, and the line run last before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Met {
    /// Simulated seconds since the learner took over.
    pub at: u64,
    pub after: Option<String>,
}

/// Most snapshots one demo keeps: each is a whole copy of the cluster.
pub const MAX_SNAPSHOTS: usize = 16;

/// Whole copies of the session: where `reset` returns, and the learner's snapshots. The
/// simulator is pure, so a copy is a clone; copies never hold copies (see `copy`).
#[derive(Clone, Default)]
struct Saved {
    start: Option<Box<Session>>,
    named: std::collections::BTreeMap<String, Box<Session>>,
}

impl Session {
    pub fn new(id: &str, seed: u64) -> Result<Session, String> {
        let sc = scenario::find(id).ok_or_else(|| {
            format!(
                "unknown scenario `{id}`; the scenarios are {}",
                scenario::SCENARIO_IDS.join(", ")
            )
        })?;
        let files: exec::Files = sc
            .files
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let mut s = Session {
            cluster: Cluster::new(seed),
            files,
            scenario: sc,
            counters: Counters::default(),
            gitops: None,
            traffic: None,
            goals: Vec::new(),
            met: Vec::new(),
            met_by: Vec::new(),
            tracks: HashMap::new(),
            lines: Vec::new(),
            start: 0,
            replicas_history: Vec::new(),
            survivors: Default::default(),
            webhook_installs: Vec::new(),
            webapp_view: None,
            saved: Saved::default(),
        };
        // The nodes' kubelets register before anything is deployed.
        s.cluster.nodes = NodeAgents::register(&mut s.cluster.api, sc.nodes, 0);
        // The scenario's first file holds what it starts from.
        let first = sc.files.first().map_or("web.yaml", |f| f.0);
        let start = match sc.origin {
            Origin::Created => format!("kubectl create -f {first}"),
            Origin::Applied => format!("kubectl apply -f {first}"),
        };
        s.exec_line(&start);
        for _ in 0..sc.warm_up {
            s.cluster.tick();
        }
        for line in sc.setup {
            s.exec_line(line);
        }
        let rv = s
            .cluster
            .api
            .get(Kind::Deployment, "web")
            .ok()
            .and_then(|d| obj::str(d, &["metadata", "resourceVersion"]))
            .unwrap_or("")
            .to_string();
        for (name, text) in scenario::read_back_files(sc.id) {
            s.files.insert(name.to_string(), text.replace("{rv}", &rv));
        }
        s.counters = Counters::default();
        s.start = s.cluster.now();
        s.saved.start = Some(s.copy());
        Ok(s)
    }

    /// This session as it is, without its saved copies.
    fn copy(&mut self) -> Box<Session> {
        let saved = std::mem::take(&mut self.saved);
        let copy = Box::new(self.clone());
        self.saved = saved;
        copy
    }

    /// Becomes `copy`, keeping the saved copies and the challenges met so far.
    fn become_copy(&mut self, copy: &Session) {
        let saved = std::mem::take(&mut self.saved);
        let met = std::mem::take(&mut self.met);
        let met_by = std::mem::take(&mut self.met_by);
        *self = copy.clone();
        (self.saved, self.met, self.met_by) = (saved, met, met_by);
        self.observe();
    }

    /// Sets the challenge goals to check (each already validated by `check`). The learner
    /// takes over here: `reset` comes back to this state.
    pub fn set_goals<'g>(
        &mut self,
        goals: impl IntoIterator<Item = &'g str>,
    ) -> Result<(), GoalError> {
        self.goals = goals
            .into_iter()
            .map(goal::parse)
            .collect::<Result<_, _>>()?;
        self.met = vec![false; self.goals.len()];
        self.met_by = vec![None; self.goals.len()];
        self.tracks.clear();
        self.survivors = self
            .cluster
            .api
            .list_shared(Kind::Pod)
            .filter(|p| p.pod().active)
            .map(|p| p.uid().to_string())
            .collect();
        self.observe();
        self.saved.start = Some(self.copy());
        Ok(())
    }

    pub fn met(&self) -> &[bool] {
        &self.met
    }

    /// What met each challenge, in the order of [`Session::met`].
    pub fn met_by(&self) -> &[Option<Met>] {
        &self.met_by
    }

    pub fn now(&self) -> u64 {
        self.cluster.now()
    }

    /// Simulated seconds since the scenario's warm-up (a question's setup lines count).
    pub fn elapsed(&self) -> u64 {
        self.cluster.now().saturating_sub(self.start)
    }

    /// One simulated second, writers included.
    pub fn tick(&mut self) {
        let next = self.cluster.now() + 1;
        self.run_writers(next);
        self.cluster.tick();
        self.register_ready_webhooks();
        self.run_traffic();
        let workload = self.workload();
        let spec = match workload {
            Some((Kind::DaemonSet, d)) => obj::int(d, &["status", "desiredNumberScheduled"]),
            // What a Job asks for at once.
            Some((Kind::Job, j)) => obj::int(j, &["spec", "parallelism"]),
            Some((_, w)) => obj::int(w, &["spec", "replicas"]),
            None => None,
        }
        .unwrap_or(0);
        // The workload's own pods (others, such as a webhook's server, are not its
        // replicas), from the facts stored with each pod: building every pod's JSON once
        // a second would cost more than the second itself.
        let selector = workload.map(|(_, w)| &w["spec"]["selector"]);
        let ready = self
            .cluster
            .api
            .list_shared(Kind::Pod)
            .filter(|p| p.pod().active && p.pod().ready)
            .filter(|p| selector.is_none_or(|s| obj::selector_matches_labels(s, &p.facts().labels)))
            .count() as i64;
        self.replicas_history
            .push((self.cluster.now(), spec, ready));
        // The last hour is kept: a demo left playing for days grew by 2 MB a day, and the
        // chart filtered all of it every frame. Trimmed in halves, so amortised O(1).
        if self.replicas_history.len() >= 2 * HISTORY_SECONDS {
            self.replicas_history.drain(..HISTORY_SECONDS);
        }
        self.observe();
    }

    /// Runs one line: a kubectl command, a directive, a comment or a blank line.
    pub fn run_line(&mut self, line: &str) -> Output {
        let out = self.exec_line(line);
        let t = line.trim();
        // The common alias is recorded as what it stands for, so the replay script runs.
        let t = match t.strip_prefix("k ") {
            Some(rest) => format!("kubectl {}", rest.trim_start()),
            None if t == "k" => "kubectl".to_string(),
            None => t.to_string(),
        };
        let first = t.split_whitespace().next().unwrap_or("");
        // Refused directives and lines that are not commands at all are not replayed;
        // kubectl errors are, as they are part of the lesson. Moving between saved states
        // is not a step on the way to this one.
        let refused = first != "kubectl" && !out.stderr.is_empty();
        if !t.is_empty() && !t.starts_with('#') && !refused && !directive::MOVES.contains(&first) {
            self.lines.push(t);
        }
        self.observe();
        out
    }

    fn exec_line(&mut self, line: &str) -> Output {
        let words = match shell::split(line) {
            Ok(w) => w,
            Err(e) => {
                return Output {
                    stdout: String::new(),
                    stderr: format!("error: {e}\n"),
                    ..Default::default()
                };
            }
        };
        let Some(first) = words.first() else {
            return Output::default();
        };
        if first == "kubectl" || first == "k" {
            // The command reads discovery as it stood when it started.
            let served = crate::sim::kubectl::discovery::discover(&self.cluster.api);
            let cluster = &mut self.cluster;
            let files = &self.files;
            let parsed = crate::sim::kubectl::discovery::with_served(served, || {
                args::parse(&words[1..]).map(|cmd| {
                    let o = exec::run(cluster, files, &cmd);
                    (cmd, o)
                })
            });
            return match parsed {
                Ok((cmd, o)) => {
                    let mut o = o;
                    // While kubectl watches, the whole demo moves on: writers run and
                    // goals are checked each second, so a state that held only while it
                    // waited still counts.
                    if o.is_waiting() {
                        // The state the command left, before the first second passes.
                        self.observe();
                    }
                    while o.is_waiting() {
                        self.tick();
                        o = o.resume(&mut self.cluster);
                    }
                    if let Some(r) = o.error {
                        *self
                            .counters
                            .errors
                            .entry(r.as_str().to_string())
                            .or_default() += 1;
                    }
                    if !o.failed {
                        *self.counters.ran.entry(cmd.verb().to_string()).or_default() += 1;
                    }
                    self.counters.deleted_pods += u64::from(o.deleted_pods);
                    self.counters.forged += u64::from(o.forged);
                    let mut stderr = String::new();
                    let mut warnings = Vec::new();
                    for (at, w) in &o.warnings {
                        stderr.push_str(w);
                        warnings.push((*at, w.len()));
                    }
                    stderr.push_str(&o.stderr);
                    Output {
                        stdout: o.stdout,
                        stderr,
                        warnings,
                    }
                }
                Err(e) => Output {
                    stdout: String::new(),
                    stderr: format!("{e}\n"),
                    ..Default::default()
                },
            };
        }
        match directive::parse(&words) {
            Some(Ok(d)) => self.directive(d),
            Some(Err(e)) => Output {
                stdout: String::new(),
                stderr: format!("{e}\n"),
                ..Default::default()
            },
            None => Output {
                stdout: String::new(),
                stderr: format!(
                    "error: unknown command `{first}`: lines start with `kubectl` or a directive; `help` lists them\n"
                ),
                ..Default::default()
            },
        }
    }

    fn directive(&mut self, d: Directive) -> Output {
        let say = |s: String| Output {
            stdout: s,
            stderr: String::new(),
            ..Default::default()
        };
        let fail = |s: String| Output {
            stderr: s,
            ..Default::default()
        };
        match d {
            Directive::Tick(n) => {
                for _ in 0..n.min(MAX_TICK) {
                    self.tick();
                }
                Output {
                    stderr: if n > MAX_TICK {
                        format!(
                            "warning: `tick` runs at most {MAX_TICK} simulated seconds (one day) \
                             per line; {MAX_TICK} passed, not {n}\n"
                        )
                    } else {
                        String::new()
                    },
                    ..Output::default()
                }
            }
            Directive::Help => say(format!(
                "{}\n\nThis scenario ({}): {}\n",
                directive::HELP,
                self.scenario.id,
                self.scenario.summary
            )),
            Directive::Pause(c) => self.set_state(c, RunState::Paused, "paused"),
            Directive::Resume(c) => self.set_state(c, RunState::Running, "resumed"),
            Directive::Crash(c) => self.set_state(c, RunState::Crashed, "crashed"),
            Directive::Restart(c) => self.set_state(c, RunState::Running, "restarted"),
            Directive::Drop(c, n) => {
                self.cluster.drop_events(c, n);
                say(format!(
                    "the next {n} watch event(s) to the {c} controller will be lost\n"
                ))
            }
            Directive::Trigger(c, t) => {
                self.cluster.set_trigger(c, t);
                let word = if t == Trigger::Level { "level" } else { "edge" };
                say(format!("{c} controller is now {word}-triggered\n"))
            }
            Directive::AutoscalerTarget(n) => match self.autoscaler_target(n) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::GitopsEvery(every, mode, file) => {
                let file = file.unwrap_or_else(|| "gitops.yaml".into());
                if !self.files.contains_key(&file) {
                    return Output {
                        stdout: String::new(),
                        stderr: format!("error: no file `{file}`; `files` lists them\n"),
                        ..Default::default()
                    };
                }
                let next_at = self.cluster.now() + 1;
                let m = if mode == ApplyMode::ServerSide {
                    "server-side, forcing ownership"
                } else {
                    "client-side"
                };
                self.gitops = Some(Gitops {
                    every,
                    mode,
                    file: file.clone(),
                    next_at,
                    state: RunState::Running,
                });
                say(format!(
                    "gitops: applying {file} every {every}s ({m}) as gitops-syncer\n"
                ))
            }
            Directive::ApiQps(qps, burst) => {
                let burst = burst.unwrap_or(self.cluster.replicasets.client.burst);
                self.cluster.set_client_limit(qps, burst);
                say(format!(
                    "kube-controller-manager: --kube-api-qps={qps} --kube-api-burst={burst} (each controller's client)\n"
                ))
            }
            Directive::Kcm(cmd) => match self.kcm_directive(cmd) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::Operator(cmd) => match self.operator_directive(cmd) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::Webhook(cmd) => match self.webhook_directive(cmd) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::Metrics(cmd) => match self.metrics_directive(cmd) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::Traffic(cmd) => match self.traffic_directive(cmd) {
                Ok(s) => say(s),
                Err(e) => fail(e),
            },
            Directive::Files => say(self.files.keys().map(|k| format!("{k}\n")).collect()),
            Directive::Cat(f) => match self.files.get(&f) {
                Some(t) => say(t.clone()),
                None => Output {
                    stdout: String::new(),
                    stderr: format!("error: no file `{f}`; `files` lists them\n"),
                    ..Default::default()
                },
            },
            Directive::Status => say(self.status_text()),
            Directive::Node(name, up) => match self.cluster.set_node_up(&name, up) {
                Ok(()) if up => say(format!(
                    "{name}: kubelet back: it renews its lease and posts the node's status now\n"
                )),
                Ok(()) => say(format!(
                    "{name}: kubelet stopped: no more lease renewals or status; the node's \
                     containers keep running, unseen, until `node-up {name}`\n"
                )),
                Err(e) => Output {
                    stdout: String::new(),
                    stderr: e,
                    ..Default::default()
                },
            },
            Directive::NodeAdd(name) => match self.cluster.add_node(&name) {
                Ok(()) => say(format!(
                    "{name}: joined: its kubelet registered the node (2 CPUs, 4 GiB, no taints) and renews its lease\n"
                )),
                Err(e) => Output {
                    stdout: String::new(),
                    stderr: e,
                    ..Default::default()
                },
            },
            Directive::Reset => {
                if let Some(start) = self.saved.start.take() {
                    self.become_copy(&start);
                    self.saved.start = Some(start);
                }
                say(format!(
                    "reset: the {} demo is back where it started; challenges met stay met\n",
                    self.scenario.id
                ))
            }
            Directive::Snapshot(name) => {
                if !self.saved.named.contains_key(&name) && self.saved.named.len() >= MAX_SNAPSHOTS
                {
                    return fail(format!(
                        "error: this demo keeps at most {MAX_SNAPSHOTS} snapshots; `snapshot` an existing name to replace it ({})\n",
                        self.snapshot_names()
                    ));
                }
                let at = self.elapsed();
                let copy = self.copy();
                let replaced = self.saved.named.insert(name.clone(), copy).is_some();
                say(format!(
                    "snapshot `{name}` {} at {}; `restore {name}` returns to it\n",
                    if replaced { "replaced" } else { "saved" },
                    crate::sim::time::clock(at)
                ))
            }
            Directive::Restore(None) if self.saved.named.is_empty() => {
                fail("error: no snapshots yet; `snapshot NAME` saves one\n".into())
            }
            Directive::Restore(None) => say(format!("snapshots: {}\n", self.snapshot_names())),
            Directive::Restore(Some(name)) => {
                let Some(copy) = self.saved.named.remove(&name) else {
                    return fail(if self.saved.named.is_empty() {
                        format!("error: no snapshot `{name}`; `snapshot {name}` saves one\n")
                    } else {
                        format!(
                            "error: no snapshot `{name}`; the snapshots are {}\n",
                            self.snapshot_names()
                        )
                    });
                };
                self.become_copy(&copy);
                let at = self.elapsed();
                self.saved.named.insert(name.clone(), copy);
                say(format!(
                    "restored `{name}`: the demo is back at {}; challenges met stay met\n",
                    crate::sim::time::clock(at)
                ))
            }
        }
    }

    fn set_state(&mut self, c: Component, s: RunState, word: &str) -> Output {
        if Cluster::in_kcm(c) && !self.cluster.kcm_acting() {
            return Output {
                stdout: String::new(),
                stderr: format!(
                    "error: no kube-controller-manager replica leads, and {c} runs only in the leader; `kcm` shows the replicas\n"
                ),
                ..Default::default()
            };
        }
        if s == RunState::Paused && self.cluster.state(c) == RunState::Crashed {
            return Output {
                stdout: String::new(),
                stderr: format!(
                    "error: {c} is crashed, so it has no workers to pause; `restart {c}` starts it\n"
                ),
                ..Default::default()
            };
        }
        match c {
            Component::Gitops => {
                let Some(state) = self.gitops.as_mut().map(|g| &mut g.state) else {
                    return Output {
                        stdout: String::new(),
                        stderr: "error: the GitOps syncer is off; `gitops every N` starts it\n"
                            .into(),
                        ..Default::default()
                    };
                };
                // A stopped writer resumes where it left off: a due sync runs next tick.
                *state = s;
            }
            _ => self.cluster.set_state(c, s),
        }
        Output {
            stdout: format!("{c} {word}\n"),
            stderr: String::new(),
            ..Default::default()
        }
    }

    /// The names of the snapshots saved so far, in order.
    pub fn snapshots(&self) -> impl Iterator<Item = &str> {
        self.saved.named.keys().map(String::as_str)
    }

    /// The snapshots, each with the simulated time it holds.
    fn snapshot_names(&self) -> String {
        self.saved
            .named
            .iter()
            .map(|(n, s)| format!("{n} ({})", crate::sim::time::clock(s.elapsed())))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Samples tracked values and re-evaluates goals; met goals stay met.
    fn observe(&mut self) {
        let now = self.cluster.now();
        self.webapp_view = self.read_webapp();
        let tracked: Vec<(String, Value)> = self
            .goals
            .iter()
            .flat_map(|g| g.tracked())
            .map(|op| (op.to_string(), op.value(&*self)))
            .collect();
        for (key, v) in tracked {
            match self.tracks.get_mut(&key) {
                Some(t) if t.last != v => {
                    t.last = v;
                    t.changes += 1;
                    t.changed_at = now;
                }
                Some(_) => {}
                None => {
                    self.tracks.insert(
                        key,
                        Track {
                            last: v,
                            changes: 0,
                            changed_at: now,
                        },
                    );
                }
            }
        }
        let results: Vec<bool> = self.goals.iter().map(|g| g.eval(&*self)).collect();
        let at = self.elapsed();
        for ((m, by), r) in self.met.iter_mut().zip(&mut self.met_by).zip(results) {
            if r && !*m {
                *by = Some(Met {
                    at,
                    after: self.lines.last().cloned(),
                });
            }
            *m |= r;
        }
    }

    fn newest_rs(&self, oldest: bool) -> Option<&Value> {
        let d = self.cluster.api.get(Kind::Deployment, "web").ok()?;
        let uid = obj::uid(d);
        let rev = |rs: &Value| {
            obj::str(
                rs,
                &[
                    "metadata",
                    "annotations",
                    "deployment.kubernetes.io/revision",
                ],
            )
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or(0)
        };
        let owned = self
            .cluster
            .api
            .list(Kind::ReplicaSet)
            .filter(move |rs| obj::controller_uid(rs) == Some(uid));
        if oldest {
            owned
                .filter(|rs| obj::int(rs, &["spec", "replicas"]).unwrap_or(0) > 0)
                .min_by_key(|rs| rev(rs))
        } else {
            owned.max_by_key(|rs| rev(rs))
        }
    }

    fn field_owners(&self, field: &str) -> Vec<String> {
        let Ok(d) = self.cluster.api.get(Kind::Deployment, "web") else {
            return Vec::new();
        };
        let segs: Vec<String> = field
            .trim_start_matches('.')
            .split('.')
            .map(|s| format!("f:{s}"))
            .collect();
        d["metadata"]["managedFields"]
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| {
                        segs.iter()
                            .try_fold(&e["fieldsV1"], |cur, s| cur.get(s))
                            .is_some()
                    })
                    .filter_map(|e| e["manager"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The scenario's manifest files by name, as `apply -f NAME` reads them.
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    pub fn file(&self, name: &str) -> Option<&str> {
        self.files.get(name).map(String::as_str)
    }

    /// Replaces (or adds) a manifest file, as the learner's editor saves it; later
    /// `apply -f NAME` lines read the new text.
    pub fn write_file(&mut self, name: &str, text: String) {
        self.files.insert(name.to_string(), text);
    }

    /// The objects of one kind in the simulated API server, in name order.
    pub fn objects(&self, kind: Kind) -> impl Iterator<Item = &Value> {
        self.cluster.api.list(kind)
    }

    /// One object by kind and name, if it exists.
    pub fn object(&self, kind: Kind, name: &str) -> Option<&Value> {
        self.cluster.api.get(kind, name).ok()
    }

    /// A shell script that replays this session on a real cluster (issue: replay).
    pub fn export_script(&self) -> String {
        super::export::script(self.scenario, &self.lines)
    }
}

mod facts;
#[cfg(test)]
mod tests;
