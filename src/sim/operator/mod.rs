//! A sample operator, as a controller-runtime v0.20 operator (the line built on client-go
//! v0.32) would run in the cluster: the Deployment `webapp-operator`, whose one
//! controller reconciles WebApps (example.com/v1, the `operator` scenario's CRD) into a
//! Deployment and a Service it owns, a DNS record in a system outside the cluster (kept
//! here as a table), and a status with `observedGeneration` and an `Available` condition.
//!
//! It follows the conventions the deck teaches (owner references, a finalizer for the
//! external record, status through the `/status` subresource, a condition's
//! lastTransitionTime moved only when its status changes, no write when nothing
//! changed), unless a bug is switched on (`operator bug ...`), each a classic one:
//!
//! - `hot-loop`: the Deployment it wants is built from scratch and compared with the live
//!   one, which carries the server's defaults and the revision annotation the Deployment
//!   controller writes: they never match, so every reconcile sends an Update, which drops
//!   the annotation; the Deployment controller writes it back, and that watch event queues
//!   the next reconcile. The two spend their client budgets (20 requests a second, burst
//!   30) on one object, and the operator logs client-side throttling;
//! - `status-update`: status is written with Update on the main endpoint; the CRD has the
//!   status subresource, so the API server drops it and answers 200: the status never
//!   appears;
//! - `no-finalizer`: no finalizer, so deleting a WebApp removes it at once and its DNS
//!   record is never deleted (it leaks).
//!
//! The operator runs while its Deployment has an available pod. Down, it does nothing: a
//! WebApp's finalizer then holds its deletion, and changes wait (observedGeneration falls
//! behind generation). Back up, it lists every WebApp, as a restarted process does.
//! controller-runtime's default resync (10 h) never fires in a demo.

mod reconcile;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use crate::sim::api::{ApiServer, EventType};
use crate::sim::client::RateLimit;
use crate::sim::kind::Kind;
use crate::sim::obj;

/// The operator's Deployment and field manager.
pub const NAME: &str = "webapp-operator";
pub const IMAGE: &str = "example.com/webapp-operator:1.0";
pub const GROUP: &str = "example.com";
pub const KIND: &str = "WebApp";
/// The finalizer that holds a WebApp until its DNS record is deleted.
pub const FINALIZER: &str = "webapp.example.com/dns-record";
/// controller-runtime v0.20's `config.GetConfig()` when QPS and burst are unset.
pub const QPS: u32 = 20;
pub const BURST: u32 = 30;
/// client-go logs a throttling wait at level 0 at most once per 10 s.
const THROTTLE_LOG_EVERY: u64 = 10;
const LOG_LINES: usize = 40;
/// Seconds of request counts kept for the rate shown.
const RATE_WINDOW: usize = 10;

/// The bugs a learner can switch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bug {
    HotLoop,
    StatusUpdate,
    NoFinalizer,
}

impl Bug {
    pub const ALL: [Bug; 3] = [Bug::HotLoop, Bug::StatusUpdate, Bug::NoFinalizer];

    pub fn parse(s: &str) -> Option<Bug> {
        match s {
            "hot-loop" => Some(Bug::HotLoop),
            "status-update" => Some(Bug::StatusUpdate),
            "no-finalizer" => Some(Bug::NoFinalizer),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bug::HotLoop => "hot-loop",
            Bug::StatusUpdate => "status-update",
            Bug::NoFinalizer => "no-finalizer",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Bug::HotLoop => {
                "compares the Deployment it builds from scratch with the live one (server defaults and the controller's revision annotation included), so every reconcile sends an Update, and the Deployment controller's reply triggers the next"
            }
            Bug::StatusUpdate => {
                "writes status with Update on the main endpoint, which the status subresource makes the API server drop"
            }
            Bug::NoFinalizer => {
                "adds no finalizer, so a deleted WebApp's DNS record is never cleaned up"
            }
        }
    }
}

/// What the operator's client sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requests {
    pub total: u64,
    /// Writes the API server stored without a change (same resourceVersion).
    pub unchanged: u64,
    /// Requests in each of the last seconds, newest last.
    pub per_second: VecDeque<u64>,
    /// Reconciles run.
    pub reconciles: u64,
    /// Seconds in which the rate limiter held requests back.
    pub throttled_seconds: u64,
}

impl Requests {
    /// Requests a second over the last seconds.
    pub fn rate(&self) -> f64 {
        if self.per_second.is_empty() {
            return 0.0;
        }
        self.per_second.iter().sum::<u64>() as f64 / self.per_second.len() as f64
    }
}

/// The WebApp operator.
#[derive(Debug, Clone)]
pub struct Operator {
    pub bugs: BTreeSet<Bug>,
    /// The version of WebApp its client was built against (`example.com/v1`).
    pub version: String,
    /// It could not find its kind at its version last time it looked (logged once).
    unmapped: bool,
    client: RateLimit,
    /// The watch log read so far.
    cursor: u64,
    /// WebApps to reconcile, by name.
    queue: BTreeSet<String>,
    /// WebApps whose reconcile failed, queued again next second (the rate-limited
    /// requeue; its first back-offs are milliseconds).
    retry: BTreeSet<String>,
    /// Whether it ran last second (a start lists everything).
    up: bool,
    pub requests: Requests,
    /// Requests this second.
    this_second: u64,
    throttled_now: bool,
    last_throttle_log: Option<u64>,
    /// The DNS records the operator made, by host: the WebApp each is for.
    pub dns: BTreeMap<String, String>,
    pub log: VecDeque<String>,
}

impl Operator {
    pub fn new(cursor: u64) -> Operator {
        Operator {
            bugs: BTreeSet::new(),
            version: "v1".into(),
            unmapped: false,
            client: RateLimit::new(QPS, BURST),
            cursor,
            queue: BTreeSet::new(),
            retry: BTreeSet::new(),
            up: false,
            requests: Requests::default(),
            this_second: 0,
            throttled_now: false,
            last_throttle_log: None,
            dns: BTreeMap::new(),
            log: VecDeque::new(),
        }
    }

    /// A new build of the operator rolled out (a bug switched on or off, another API
    /// version): the process starts again and lists every WebApp.
    pub fn restart(&mut self) {
        self.up = false;
        self.unmapped = false;
    }

    /// The watch log position the operator still has to read from.
    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    fn say(&mut self, now: u64, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log
            .push_back(format!("{} {line}", crate::sim::time::rfc3339(now)));
    }

    /// DNS records whose WebApp is gone: what a missing finalizer leaks.
    pub fn leaked(&self, api: &ApiServer) -> Vec<String> {
        let kind = api.custom_kind_named(GROUP, KIND).map(Kind::Custom);
        self.dns
            .iter()
            .filter(|(_, app)| kind.is_none_or(|k| api.get(k, app).is_err()))
            .map(|(host, _)| host.clone())
            .collect()
    }

    /// Whether its Deployment has an available pod to run in.
    pub fn running(api: &ApiServer) -> bool {
        api.get(Kind::Deployment, NAME)
            .ok()
            .and_then(|d| obj::int(d, &["status", "availableReplicas"]))
            .is_some_and(|n| n > 0)
    }

    /// One simulated second: the rate limiter refills and the second's count is kept.
    pub fn tick(&mut self) {
        self.client.tick();
        self.queue.append(&mut self.retry);
        self.requests.per_second.push_back(self.this_second);
        if self.requests.per_second.len() > RATE_WINDOW {
            self.requests.per_second.pop_front();
        }
        if self.throttled_now {
            self.requests.throttled_seconds += 1;
        }
        self.this_second = 0;
        self.throttled_now = false;
    }

    /// Reads the watch log and reconciles what it queued, as far as the client's rate
    /// limit allows; the number of reconciles run.
    pub fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let running = Operator::running(api);
        let Some(kind) = self.kind(api) else {
            if running && !self.unmapped && api.custom_kind_named(GROUP, KIND).is_some() {
                self.unmapped = true;
                let v = self.version.clone();
                self.say(
                    now,
                    format!(
                        "ERROR no matches for kind \"{KIND}\" in version \"{GROUP}/{v}\": its informer cannot list WebApps"
                    ),
                );
            }
            self.cursor = api.next_seq();
            self.up = false;
            return 0;
        };
        self.unmapped = false;
        if !running {
            // The process is gone, and its cache and queue with it.
            if self.up {
                self.say(now, "webapp-operator stopped".into());
            }
            self.up = false;
            self.queue.clear();
            self.retry.clear();
            self.cursor = api.next_seq();
            return 0;
        }
        if !self.up {
            // A start lists every WebApp, each one queued.
            self.up = true;
            self.say(
                now,
                "Starting Controller {\"controller\": \"webapp\"}".into(),
            );
            self.queue
                .extend(api.list(kind).map(|o| obj::name(o).to_string()));
            self.cursor = api.next_seq();
        }
        self.deliver(api, kind);
        let mut ran = 0;
        let keys: Vec<String> = self.queue.iter().cloned().collect();
        for name in keys {
            if !self.client.ready() {
                self.throttled(now, &name);
                break;
            }
            self.queue.remove(&name);
            ran += 1;
            self.requests.reconciles += 1;
            self.reconcile(api, kind, &name, now);
        }
        // Its own writes are read back as watch events, and may queue it again.
        self.deliver(api, kind);
        ran
    }

    fn throttled(&mut self, now: u64, name: &str) {
        self.throttled_now = true;
        if self
            .last_throttle_log
            .is_none_or(|t| now >= t + THROTTLE_LOG_EVERY)
        {
            self.last_throttle_log = Some(now);
            self.say(
                now,
                format!(
                    "Waited for 1s due to client-side throttling, not priority and fairness, request: PUT:https://10.96.0.1:443/apis/apps/v1/namespaces/default/deployments/{name}"
                ),
            );
        }
    }

    /// Queues the WebApps the watch events since the last read are about: their own
    /// changes, and those of the Deployments and Services they own.
    fn deliver(&mut self, api: &ApiServer, kind: Kind) {
        for e in api.events_since(self.cursor) {
            let o = e.object.value();
            if e.kind == kind {
                if e.event != EventType::Deleted {
                    self.queue.insert(obj::name(o).to_string());
                }
                continue;
            }
            if matches!(e.kind, Kind::Deployment | Kind::Service)
                && let Some(owner) = controller_owner(o)
            {
                self.queue.insert(owner);
            }
        }
        self.cursor = api.next_seq();
    }

    /// Counts a request the client made: a token spent.
    fn request(&mut self, before_rv: u64, api: &ApiServer) {
        self.requests.total += 1;
        self.this_second += 1;
        self.client.spend(1);
        if api.resource_version() == before_rv {
            self.requests.unchanged += 1;
        }
    }
}

impl Operator {
    /// The WebApp kind at the version its client asks for, if the CRD serves it.
    pub fn kind(&self, api: &ApiServer) -> Option<Kind> {
        api.custom_kind_of(&format!("{GROUP}/{}", self.version), KIND)
            .map(Kind::Custom)
    }
}

/// The WebApp that controls `o`, by its ownerReferences.
fn controller_owner(o: &Value) -> Option<String> {
    o.pointer("/metadata/ownerReferences")?
        .as_array()?
        .iter()
        .find(|r| r["kind"] == KIND && r["controller"] == Value::Bool(true))
        .and_then(|r| r["name"].as_str())
        .map(str::to_string)
}
