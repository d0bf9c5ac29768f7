//! A pod's status as the kubelet writes it while a pod starts normally: containers
//! creating, then running, then ready. It is kept typed and made JSON the first time a
//! reader asks (kubectl, goals, the TUI), so the three writes every new pod gets cost a
//! few small strings instead of a tree of about 80 JSON nodes each.
//!
//! Everything else stays JSON, and the kubelet works on it as JSON: an image that cannot
//! be pulled, a pod killed at the end of its grace period, a status another client wrote.
//! [`Starting::to_value`] is the JSON the kubelet's JSON path writes for the same pod at
//! the same seconds; a test runs a cluster both ways and compares every pod.

use serde_json::Value;

use super::pods::PodFacts;
use crate::sim::obj;
use crate::sim::time::{rfc3339, sim_unix};

/// The conditions, in the order the kubelet lists them.
const CONDITIONS: [&str; 5] = [
    "PodReadyToStartContainers",
    "Initialized",
    "Ready",
    "ContainersReady",
    "PodScheduled",
];
const READY_TO_START: usize = 0;
const READY: usize = 2;
const CONTAINERS_READY: usize = 3;

/// The status of a starting (or started) pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starting {
    running: bool,
    /// `startTime`, in simulated seconds.
    start: u64,
    /// Each condition of [`CONDITIONS`]: its status and the second it last changed.
    conditions: [(bool, u64); 5],
    ip: Option<String>,
    /// The node's address, once the pod is on a node (`hostIP`, `hostIPs`).
    host_ip: Option<String>,
    containers: Vec<Container>,
    /// `qosClass`, as the API server set it at creation.
    qos: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    name: String,
    /// As the spec gives it until the container runs (the JSON path also writes a first
    /// status for an image that is not a string), then the runtime's full reference.
    image: Value,
    image_id: String,
    container_id: Option<String>,
    ready: bool,
    /// When it started running; `None` while it is being created.
    started_at: Option<u64>,
}

impl Container {
    /// A container being created from `image`.
    pub fn creating(name: String, image: Value) -> Self {
        Container {
            name,
            image,
            image_id: String::new(),
            container_id: None,
            ready: false,
            started_at: None,
        }
    }
}

impl Starting {
    /// What the kubelet writes first: the pod scheduled and initialized, its containers
    /// being created.
    pub fn pending(
        containers: Vec<Container>,
        now: u64,
        qos: &'static str,
        host_ip: Option<String>,
    ) -> Self {
        let mut conditions = [(false, now); 5];
        conditions[1].0 = true;
        conditions[4].0 = true;
        Starting {
            running: false,
            start: now,
            conditions,
            ip: None,
            host_ip,
            containers,
            qos,
        }
    }

    pub fn running(&self) -> bool {
        self.running
    }

    pub fn phase(&self) -> &'static str {
        if self.running { "Running" } else { "Pending" }
    }

    /// The containers run: the pod has an IP, and each container the image reference,
    /// image id and container id the runtime reports (`report`, from its name and image).
    pub fn run(&mut self, ip: String, now: u64, mut report: impl FnMut(&str, &str) -> Runtime) {
        self.running = true;
        self.ip = Some(ip);
        self.set(READY_TO_START, true, now);
        for c in &mut self.containers {
            let r = report(&c.name, c.image.as_str().unwrap_or(""));
            c.image = Value::String(r.image);
            c.image_id = r.image_id;
            c.container_id = Some(r.container_id);
            c.started_at = Some(now);
        }
    }

    /// Containers and pod Ready. Returns whether that changed anything.
    pub fn ready(&mut self, now: u64) -> bool {
        let was = self.conditions[READY].0
            && self.conditions[CONTAINERS_READY].0
            && self.containers.iter().all(|c| c.ready);
        self.set(CONTAINERS_READY, true, now);
        self.set(READY, true, now);
        for c in &mut self.containers {
            c.ready = true;
        }
        !was
    }

    /// A condition keeps its transition time while its status stays.
    fn set(&mut self, i: usize, status: bool, now: u64) {
        if self.conditions[i].0 != status {
            self.conditions[i] = (status, now);
        }
    }

    /// `podIP`, once the pod runs.
    pub fn ip(&self) -> Option<&str> {
        self.ip.as_deref()
    }

    /// When the Ready condition last changed, in simulated seconds.
    pub fn ready_changed(&self) -> u64 {
        self.conditions[READY].1
    }

    /// The facts of a pod with this status; `base` has the ones its metadata gives.
    pub fn facts(&self, base: PodFacts, deleting: bool) -> PodFacts {
        let (ready, since) = self.conditions[READY];
        PodFacts {
            active: !deleting,
            ready,
            ready_since: ready.then(|| sim_unix(since)),
            phase_rank: if self.running { 2 } else { 0 },
            restarts: 0,
            ..base
        }
    }

    /// The status as JSON.
    pub fn to_value(&self) -> Value {
        let ts = |t: u64| Value::String(rfc3339(t));
        let conditions = CONDITIONS
            .iter()
            .zip(&self.conditions)
            .map(|(t, &(status, at))| {
                obj::object([
                    ("lastProbeTime", Value::Null),
                    ("lastTransitionTime", ts(at)),
                    ("status", Value::from(if status { "True" } else { "False" })),
                    ("type", Value::from(*t)),
                ])
            })
            .collect();
        let containers = self
            .containers
            .iter()
            .map(|c| {
                let state = match c.started_at {
                    None => obj::object([(
                        "waiting",
                        obj::object([("reason", Value::from("ContainerCreating"))]),
                    )]),
                    Some(t) => obj::object([("running", obj::object([("startedAt", ts(t))]))]),
                };
                let mut v = obj::object([
                    ("image", c.image.clone()),
                    ("imageID", Value::from(c.image_id.as_str())),
                    ("lastState", obj::object([])),
                    ("name", Value::from(c.name.as_str())),
                    ("ready", Value::Bool(c.ready)),
                    ("restartCount", Value::from(0)),
                    ("started", Value::Bool(c.started_at.is_some())),
                    ("state", state),
                ]);
                if let Some(id) = &c.container_id {
                    v["containerID"] = Value::from(id.as_str());
                }
                v
            })
            .collect();
        let mut status = obj::object([
            ("conditions", Value::Array(conditions)),
            ("containerStatuses", Value::Array(containers)),
            ("phase", Value::from(self.phase())),
            ("qosClass", Value::from(self.qos)),
            ("startTime", ts(self.start)),
        ]);
        if let Some(ip) = &self.host_ip {
            status["hostIP"] = Value::from(ip.as_str());
            status["hostIPs"] = Value::Array(vec![obj::object([("ip", Value::from(ip.as_str()))])]);
        }
        if let Some(ip) = &self.ip {
            status["podIP"] = Value::from(ip.as_str());
            status["podIPs"] = Value::Array(vec![obj::object([("ip", Value::from(ip.as_str()))])]);
        }
        status
    }
}

/// What the container runtime reports for a running container.
pub struct Runtime {
    /// The image's full reference.
    pub image: String,
    pub image_id: String,
    pub container_id: String,
}
