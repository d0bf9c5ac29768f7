//! A kubelet stand-in: takes new pods from Pending to Running to Ready over simulated
//! seconds, stops the containers of deleted pods (a second for images that exit on their
//! stop signal, the whole grace period for one that ignores it) and then removes them
//! (H1-H4). On a cluster with nodes (every scenario's) a pod runs once the scheduler has
//! bound it, and reports its node's address as `hostIP`; on a bare one (the benchmarks')
//! every pod runs "somewhere" as soon as it exists. The nodes' own heartbeats are [`super::node_agent`]'s.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::app;
pub use super::image::pullable;
use super::image::{container_id, pull_events, pull_message, pull_state, pulled};
use super::podstatus::{Container, Runtime, Starting};
use super::prober::{Prober, follows_spec};
use crate::sim::HashMap;
use crate::sim::api::{ApiServer, EventType};
use crate::sim::informer::RunState;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::stored::Stored;
use crate::sim::time::{rfc3339, sim_unix};

/// The source of the kubelet's events.
pub const COMPONENT: &str = "kubelet";

#[derive(Clone)]
pub struct Kubelet {
    pub state: RunState,
    /// Seconds from creation to Running, and to Ready.
    pub start_after: u64,
    pub ready_after: u64,
    cursor: u64,
    /// Pods still starting, and pods terminating: the only ones a tick looks at.
    starting: BTreeSet<String>,
    /// Terminating pods with the Unix second their grace period ends, and the same by
    /// that second, so a tick visits only the pods that are due.
    terminating: HashMap<String, i64>,
    due: BTreeSet<(i64, String)>,
    next_ip: u32,
    /// Whether statuses of pods that start normally are kept typed (see
    /// [`super::podstatus`]); off, every status is JSON (a test compares the two).
    pub(crate) typed: bool,
    /// [`pulled`] of the images pods ran.
    images: HashMap<String, (String, String)>,
    /// Pods bound to a node after they were created: the Unix second of the binding,
    /// from which their start is counted.
    bound_at: HashMap<String, i64>,
    /// Nodes whose kubelet is stopped (`node-down`): their pods stay as they are, unseen.
    pub(crate) down: BTreeSet<String>,
    /// Nodes back up whose pods' status is to be synced at the next second (the status
    /// manager's periodic sync finds the API's copy differs from its own).
    back: Vec<String>,
    /// Running pods whose containers have probes, and their probe workers.
    prober: Prober,
}

/// How many images [`Kubelet::images`] keeps.
const IMAGES_KEPT: usize = 64;

impl Kubelet {
    pub fn new() -> Self {
        Kubelet {
            state: RunState::Running,
            start_after: 1,
            ready_after: 2,
            cursor: 0,
            starting: BTreeSet::new(),
            terminating: HashMap::default(),
            due: BTreeSet::new(),
            next_ip: 4,
            typed: true,
            images: HashMap::default(),
            bound_at: HashMap::default(),
            down: BTreeSet::new(),
            back: Vec::new(),
            prober: Prober::default(),
        }
    }

    /// The node's kubelet stops or starts again.
    pub fn set_node_up(&mut self, node: &str, up: bool) {
        if up {
            if self.down.remove(node) {
                self.back.push(node.to_string());
            }
        } else {
            self.down.insert(node.to_string());
        }
    }

    /// Whether the pod's node has a stopped kubelet.
    fn frozen(&self, pod: &Stored) -> bool {
        !self.down.is_empty() && pod.pod_node().is_some_and(|n| self.down.contains(n))
    }

    /// A kubelet back in touch writes its own view of its pods again: Ready, which the
    /// node lifecycle controller set False while the node was unreachable, is True again
    /// for containers that kept running, with the transition time it had.
    fn resync_back(&mut self, api: &mut ApiServer) {
        for node in std::mem::take(&mut self.back) {
            let pods: Vec<Arc<Stored>> = api
                .list_shared(Kind::Pod)
                .filter(|p| p.pod_node() == Some(node.as_str()) && !p.facts().deleting)
                .cloned()
                .collect();
            for pod in pods {
                let mut status = pod.field("status").cloned().unwrap_or(Value::Null);
                let Some(conditions) = status["conditions"].as_array_mut() else {
                    continue;
                };
                let containers = conditions
                    .iter()
                    .find(|c| c["type"] == "ContainersReady")
                    .cloned();
                let Some(containers) = containers.filter(|c| c["status"] == "True") else {
                    continue;
                };
                let Some(ready) = conditions.iter_mut().find(|c| c["type"] == "Ready") else {
                    continue;
                };
                if ready["status"] == "True" {
                    continue;
                }
                ready["status"] = json!("True");
                ready["lastTransitionTime"] = containers["lastTransitionTime"].clone();
                let _ = api.store_pod_status(&pod, status);
            }
        }
    }

    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    /// Starts tracking every existing pod, as after a restart.
    pub fn relist(&mut self, api: &ApiServer) {
        for p in api.list_shared(Kind::Pod) {
            let name = p.name().to_string();
            if p.facts().deleting {
                self.track_terminating(name, stop_due(p));
            } else if matches!(p.pod_phase(), Some("Succeeded" | "Failed")) {
                // Its containers have ended: nothing to start or follow.
            } else if p.pod_phase() == Some("Running")
                && p.unfilled("spec").is_some_and(follows_spec)
            {
                // Its containers keep running; only the prober's memory is new.
                self.prober.resume(p, sim_unix(api.clock));
            } else if !p.pod().ready {
                self.starting.insert(name);
            }
        }
        self.cursor = api.next_seq();
    }

    /// Reads the pod events written since it last looked, as its watch delivers them; a
    /// crashed kubelet misses them (it relists when restarted).
    pub fn watch(&mut self, api: &ApiServer) {
        if self.state == RunState::Crashed {
            self.cursor = api.next_seq();
        } else {
            self.observe(api);
        }
    }

    fn observe(&mut self, api: &ApiServer) {
        // With nodes, a pod runs once it is bound to one; without, the demo's older
        // world: every pod runs as soon as it exists.
        let nodes = api.count(Kind::Node) > 0;
        for e in api.events_since(self.cursor) {
            if e.kind != Kind::Pod {
                continue;
            }
            let name = e.object.name();
            let placed = !nodes || e.object.pod_node().is_some();
            match e.event {
                EventType::Deleted => {
                    self.prober.forget(name);
                    self.starting.remove(name);
                    self.bound_at.remove(name);
                    self.untrack_terminating(name);
                }
                _ if e.object.facts().deleting => {
                    self.starting.remove(name);
                    self.track_terminating(name.to_string(), stop_due(&e.object));
                }
                EventType::Added if placed => {
                    self.starting.insert(name.to_string());
                }
                // Bound after it was created: it starts from the binding.
                EventType::Modified
                    if nodes
                        && placed
                        && !self.starting.contains(name)
                        && e.object.pod_phase() == Some("Pending")
                        && e.object.starting().is_none() =>
                {
                    self.starting.insert(name.to_string());
                    self.bound_at.insert(name.to_string(), sim_unix(api.clock));
                }
                // Most events are the kubelet's own status writes.
                _ => {}
            }
        }
        self.cursor = api.next_seq();
    }

    fn track_terminating(&mut self, name: String, due: i64) {
        if let Some(old) = self.terminating.insert(name.clone(), due) {
            self.due.remove(&(old, name.clone()));
        }
        self.due.insert((due, name));
    }

    fn untrack_terminating(&mut self, name: &str) {
        if let Some(old) = self.terminating.remove(name) {
            self.due.remove(&(old, name.to_string()));
        }
    }

    /// One simulated second of work.
    pub fn tick(&mut self, api: &mut ApiServer, now: u64) {
        if self.state == RunState::Crashed {
            // A crashed kubelet misses events; it catches up from the list when restarted.
            self.cursor = api.next_seq();
            return;
        }
        self.observe(api);
        if self.state == RunState::Paused {
            return;
        }
        self.resync_back(api);
        let now_unix = sim_unix(now);
        // Due pods go in name order, as they always have.
        let mut due: Vec<String> = self
            .due
            .range(..(now_unix + 1, String::new()))
            .map(|(_, n)| n.clone())
            .collect();
        due.sort_unstable();
        for name in due {
            let Ok(pod) = api.get_shared(Kind::Pod, &name) else {
                self.untrack_terminating(&name);
                continue;
            };
            // Its node's kubelet is stopped: nobody stops the containers yet.
            if self.frozen(&pod) {
                continue;
            }
            let finalizers = pod
                .meta("finalizers")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            let stop = app::stop(&pod);
            if stop.exited > now_unix {
                continue;
            }
            let killed = stop.killed <= now_unix && app::ignores_sigterm(&pod);
            if !finalizers {
                // The kubelet's grace-0 DELETE goes through admission; refused, the pod
                // stays Terminating and the kubelet tries again.
                if !api.admit_removal(Kind::Pod, &name, now) {
                    continue;
                }
                api.remove(Kind::Pod, &name);
                self.untrack_terminating(&name);
            } else if !matches!(pod.pod_phase(), Some("Succeeded" | "Failed")) {
                // H4: the grace period is over, so the containers were killed; since 1.27
                // the kubelet then gives a deleted pod a terminal phase. A finalizer keeps
                // the object, so that status is what stays. (Without one the pod is
                // removed in the same step, where nobody can see the status.)
                let mut next = pod.field("status").unwrap_or(&Value::Null).clone();
                terminate(&mut next, now, killed);
                let _ = api.store_pod_status(&pod, next);
            }
        }
        let mut still = Vec::with_capacity(self.starting.len());
        for name in std::mem::take(&mut self.starting) {
            let Ok(pod) = api.get_shared(Kind::Pod, &name) else {
                continue;
            };
            if self.frozen(&pod) {
                still.push(name);
                continue;
            }
            // The facts hold creationTimestamp parsed (0 without one).
            let created = match pod.pod().created {
                0 => now_unix,
                t => t,
            }
            .max(self.bound_at.get(&name).copied().unwrap_or(0));
            let age = (now_unix - created).max(0) as u64;
            // A typed status with nothing due this second is left as it is, uncopied.
            if self.typed
                && let Some(s) = pod.starting()
                && !(if s.running() {
                    age >= self.ready_after
                } else {
                    age >= self.start_after
                })
            {
                still.push(name);
                continue;
            }
            let host = pod.pod_node().and_then(|n| node_ip(api, n));
            let step = match self.starting_status(&pod, now, host.clone()) {
                Some((mut status, fresh)) => {
                    let step = self.advance_typed(&pod, &mut status, fresh, age, now);
                    if step.changed {
                        let _ = api.store_starting(&pod, status);
                    }
                    step
                }
                None => {
                    // The status moves on in one copy of it; an unchanged one is not
                    // written.
                    let before = pod.field("status").unwrap_or(&Value::Null);
                    let mut next = before.clone();
                    let step = self.advance(&pod, &mut next, age, now, host);
                    if step.changed || (step.compare && next != *before) {
                        pull_events(api, &pod, &next, now);
                        let _ = api.store_pod_status(&pod, next);
                    }
                    step
                }
            };
            if !step.done {
                still.push(name);
            }
        }
        // In name order already: the set is built without searching.
        self.starting.extend(still);
        let down = &self.down;
        self.prober.tick(api, now, &|p: &Stored| {
            !down.is_empty() && p.pod_node().is_some_and(|n| down.contains(n))
        });
        self.observe(api);
    }

    /// The typed status of a pod that starts as most do, and whether it is new: the one
    /// the kubelet stored, or the first for a pod whose images all pull. `None` for the
    /// rest, which [`Self::advance`] moves along as JSON.
    fn starting_status(
        &self,
        pod: &Stored,
        now: u64,
        host: Option<String>,
    ) -> Option<(Starting, bool)> {
        if !self.typed {
            return None;
        }
        if let Some(s) = pod.starting() {
            return Some((s.clone(), false));
        }
        let status = pod.field("status").unwrap_or(&Value::Null);
        if !first_status(status) {
            return None;
        }
        let spec = pod.unfilled("spec").unwrap_or(&Value::Null);
        // Probed pods, and pods whose processes end, are the prober's once they run:
        // their status stays JSON.
        if follows_spec(spec) {
            return None;
        }
        let mut containers = Vec::new();
        for (name, image) in spec_containers(spec) {
            if !image.as_str().is_some_and(pullable) {
                return None;
            }
            containers.push(Container::creating(name.to_string(), image.clone()));
        }
        Some((
            Starting::pending(containers, now, qos_class(status, spec), host),
            true,
        ))
    }

    /// [`Self::advance`] for a typed status: Running, then Ready.
    fn advance_typed(
        &mut self,
        pod: &Stored,
        status: &mut Starting,
        fresh: bool,
        age: u64,
        now: u64,
    ) -> Step {
        let mut step = Step {
            changed: fresh,
            ..Step::default()
        };
        if !status.running() && age >= self.start_after {
            let (uid, ip) = (pod.uid(), self.next_ip());
            let images = &mut self.images;
            status.run(ip, now, |name, image| {
                // Every pod of a template runs the same images.
                let (image, image_id) = match images.get(image) {
                    Some(known) => known.clone(),
                    None => {
                        let known = pulled(image);
                        if images.len() < IMAGES_KEPT {
                            images.insert(image.to_string(), known.clone());
                        }
                        known
                    }
                };
                Runtime {
                    image,
                    image_id,
                    container_id: container_id(uid, name),
                }
            });
            step.changed = true;
        }
        if status.running() && age >= self.ready_after {
            step.changed |= status.ready(now);
            step.done = true;
        }
        step
    }

    /// The pod IP for the next pod that runs.
    fn next_ip(&mut self) -> String {
        let ip = format!("10.244.0.{}", self.next_ip);
        self.next_ip = if self.next_ip >= 254 {
            4
        } else {
            self.next_ip + 1
        };
        ip
    }

    /// Moves one pod's status along.
    fn advance(
        &mut self,
        pod: &Stored,
        status: &mut Value,
        age: u64,
        now: u64,
        host: Option<String>,
    ) -> Step {
        let mut step = Step::default();
        let ts = Value::String(rfc3339(now));
        let spec = pod.unfilled("spec").unwrap_or(&Value::Null);
        let pulls = spec_containers(spec)
            .iter()
            .all(|(_, image)| image.as_str().is_some_and(pullable));
        let phase = status["phase"].as_str().unwrap_or("Pending").to_string();
        if first_status(status) {
            let containers = spec_containers(spec)
                .into_iter()
                .map(|(name, image)| Container::creating(name.to_string(), image.clone()))
                .collect();
            let qos = qos_class(status, spec);
            *status = Starting::pending(containers, now, qos, host).to_value();
            step.changed = true;
        }
        if phase == "Pending" && age >= self.start_after && !pulls {
            // The image cannot be pulled: the pod stays Pending, never Ready.
            let reason = pull_state(age - self.start_after);
            set_condition(status, "PodReadyToStartContainers", true, &ts);
            if let Some(cs) = status["containerStatuses"].as_array_mut() {
                for c in cs {
                    let image = c["image"].as_str().unwrap_or("").to_string();
                    if !pullable(&image) {
                        let message = pull_message(reason, &image);
                        c["state"] = json!({"waiting": {"message": message, "reason": reason}});
                    }
                }
            }
            // The reason and message change only when the back-off moves on.
            step.compare = true;
            return step;
        }
        if phase == "Pending" && age >= self.start_after {
            let ip = self.next_ip();
            step.changed = true;
            status["phase"] = Value::from("Running");
            status["podIPs"] = Value::Array(vec![obj::object([("ip", Value::from(ip.as_str()))])]);
            status["podIP"] = Value::String(ip);
            set_condition(status, "PodReadyToStartContainers", true, &ts);
            let uid = pod.uid();
            if let Some(cs) = status["containerStatuses"].as_array_mut() {
                for c in cs {
                    let r = runtime(
                        uid,
                        c["name"].as_str().unwrap_or(""),
                        c["image"].as_str().unwrap_or(""),
                    );
                    c["imageID"] = Value::String(r.image_id);
                    c["image"] = Value::String(r.image);
                    c["started"] = Value::Bool(true);
                    c["state"] =
                        obj::object([("running", obj::object([("startedAt", ts.clone())]))]);
                    c["containerID"] = Value::String(r.container_id);
                }
            }
        }
        let running = status["phase"] == "Running";
        if running && follows_spec(spec) {
            // From here the probes, and the processes' ends, decide.
            if !self.prober.follows(pod.name()) {
                self.prober.adopt(pod, sim_unix(now));
            }
            step.done = true;
            return step;
        }
        if running && age >= self.ready_after {
            let true_already = |t: &str| {
                status["conditions"]
                    .as_array()
                    .and_then(|cs| cs.iter().find(|c| c["type"] == t))
                    .is_some_and(|c| c["status"] == "True")
            };
            let containers_ready = status["containerStatuses"]
                .as_array()
                .is_none_or(|cs| cs.iter().all(|c| c["ready"] == true));
            // Ready already only if a status was forged.
            step.changed |=
                !(true_already("Ready") && true_already("ContainersReady") && containers_ready);
            set_condition(status, "ContainersReady", true, &ts);
            set_condition(status, "Ready", true, &ts);
            if let Some(cs) = status["containerStatuses"].as_array_mut() {
                for c in cs {
                    c["ready"] = json!(true);
                }
            }
            step.done = true;
        }
        step
    }
}

/// The QoS class the kubelet reports: the one the API server stored (`GetPodQOS`), or
/// the spec's for a status without a known one.
fn qos_class(status: &Value, spec: &Value) -> &'static str {
    match status.get("qosClass").and_then(Value::as_str) {
        Some("Guaranteed") => "Guaranteed",
        Some("Burstable") => "Burstable",
        Some("BestEffort") => "BestEffort",
        _ => crate::sim::qos::class(spec),
    }
}

/// Whether the kubelet writes a pod's first status now: it is Pending and lists no
/// containers yet.
/// A node's InternalIP, which the kubelet reports as its pods' `hostIP`.
fn node_ip(api: &ApiServer, node: &str) -> Option<String> {
    let node = api.get(Kind::Node, node).ok()?;
    node["status"]["addresses"]
        .as_array()?
        .iter()
        .find(|a| a["type"] == "InternalIP")
        .and_then(|a| a["address"].as_str())
        .map(str::to_string)
}

fn first_status(status: &Value) -> bool {
    status["phase"].as_str().unwrap_or("Pending") == "Pending"
        && status.get("containerStatuses").is_none()
}

/// The containers a pod's status lists: each named container of the spec, with the
/// image of the first container of that name.
fn spec_containers(spec: &Value) -> Vec<(&str, &Value)> {
    let all = spec["containers"].as_array().map_or(&[][..], Vec::as_slice);
    all.iter()
        .filter_map(|c| c["name"].as_str())
        .map(|name| {
            let first = all.iter().find(|c| c["name"] == name);
            (name, first.map_or(&Value::Null, |c| &c["image"]))
        })
        .collect()
}

/// What [`Kubelet::advance`] did to a status.
#[derive(Default)]
struct Step {
    /// The pod is Ready: the kubelet stops watching it start.
    done: bool,
    /// The status surely changed.
    changed: bool,
    /// The status may have changed: compare it with the stored one.
    compare: bool,
}

impl Default for Kubelet {
    fn default() -> Self {
        Self::new()
    }
}

/// When a terminating pod's containers have all stopped ([`app::stop`]).
fn stop_due(pod: &Stored) -> i64 {
    app::stop(pod).exited
}

/// The status of a deleted pod whose containers stopped: exit code 0 and phase Succeeded
/// when they exited on their stop signal, SIGKILL's 137 and Failed when they were `killed`
/// at the end of the grace period; Ready and ContainersReady False with the kubelet's
/// PodCompleted.
fn terminate(status: &mut Value, now: u64, killed: bool) {
    let ts = Value::String(rfc3339(now));
    let (phase, code, reason) = if killed {
        ("Failed", 137, "Error")
    } else {
        ("Succeeded", 0, "Completed")
    };
    status["phase"] = json!(phase);
    set_condition(status, "PodReadyToStartContainers", false, &ts);
    for t in ["ContainersReady", "Ready"] {
        set_condition(status, t, false, &ts);
        if let Some(c) = status["conditions"]
            .as_array_mut()
            .and_then(|cs| cs.iter_mut().find(|c| c["type"] == t))
        {
            c["reason"] = json!("PodCompleted");
        }
    }
    if let Some(cs) = status["containerStatuses"].as_array_mut() {
        for c in cs {
            let started = c["state"]["running"]["startedAt"].clone();
            let mut terminated = obj::object([
                ("exitCode", Value::from(code)),
                ("finishedAt", ts.clone()),
                ("reason", Value::from(reason)),
                ("startedAt", started),
            ]);
            if let Some(id) = c.get("containerID") {
                terminated["containerID"] = id.clone();
            }
            c["ready"] = json!(false);
            c["started"] = json!(false);
            c["state"] = obj::object([("terminated", terminated)]);
        }
    }
}

/// What containerd reports once a container runs: the image's full reference, its
/// repository digest, a container id of its own.
fn runtime(uid: &str, name: &str, image: &str) -> Runtime {
    let (image, image_id) = pulled(image);
    Runtime {
        image,
        image_id,
        container_id: container_id(uid, name),
    }
}

/// Sets a pod condition, keeping lastTransitionTime when the status does not change.
fn set_condition(pod_status: &mut Value, t: &str, status: bool, ts: &Value) {
    let s = if status { "True" } else { "False" };
    if let Some(conds) = pod_status["conditions"].as_array_mut()
        && let Some(c) = conds.iter_mut().find(|c| c["type"] == t)
        && c["status"] != s
    {
        c["status"] = json!(s);
        c["lastTransitionTime"] = ts.clone();
    }
}
