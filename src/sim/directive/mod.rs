//! Demo directives: what `kubedrill sim` accepts besides kubectl, for the manipulations a
//! real cluster cannot do on request (pausing a controller, losing watch events, ...).

use std::fmt;

mod operator;
mod webhook;

pub use operator::OperatorCmd;
pub use webhook::{WebhookCmd, WebhookSpec};

/// The components a directive can address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    Deployment,
    ReplicaSet,
    Kubelet,
    Autoscaler,
    Gitops,
    /// kube-scheduler (on a cluster with nodes: every scenario, not the benchmarks' bare ones).
    Scheduler,
    /// kube-controller-manager's node lifecycle controller (on a cluster with nodes).
    NodeLifecycle,
    /// kube-controller-manager's taint eviction controller (on a cluster with nodes).
    TaintEviction,
    /// kube-controller-manager's disruption controller (PodDisruptionBudgets).
    Disruption,
    /// kube-controller-manager's endpoints controller (Endpoints).
    Endpoints,
    /// kube-controller-manager's EndpointSlice controller.
    EndpointSlice,
    /// kube-controller-manager's StatefulSet controller.
    StatefulSet,
    /// The volume binder, provisioner and pvc-protection controller.
    Volume,
    /// kube-controller-manager's DaemonSet controller.
    DaemonSet,
    /// kube-controller-manager's Job controller.
    Job,
    /// kube-controller-manager's TTL-after-finished controller.
    TtlAfterFinished,
    /// kube-controller-manager's CronJob controller.
    CronJob,
}

impl Component {
    pub const ALL: [Component; 17] = [
        Component::Deployment,
        Component::ReplicaSet,
        Component::Kubelet,
        Component::Scheduler,
        Component::NodeLifecycle,
        Component::TaintEviction,
        Component::Disruption,
        Component::Endpoints,
        Component::EndpointSlice,
        Component::StatefulSet,
        Component::Volume,
        Component::DaemonSet,
        Component::Job,
        Component::TtlAfterFinished,
        Component::CronJob,
        Component::Autoscaler,
        Component::Gitops,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Component::Deployment => "deployment",
            Component::ReplicaSet => "replicaset",
            Component::Kubelet => "kubelet",
            Component::Autoscaler => "autoscaler",
            Component::Gitops => "gitops",
            Component::Scheduler => "scheduler",
            Component::NodeLifecycle => "node-lifecycle",
            Component::TaintEviction => "taint-eviction",
            Component::Disruption => "disruption",
            Component::Endpoints => "endpoints",
            Component::EndpointSlice => "endpointslice",
            Component::StatefulSet => "statefulset",
            Component::Volume => "volume",
            Component::DaemonSet => "daemonset",
            Component::Job => "job",
            Component::TtlAfterFinished => "ttl-after-finished",
            Component::CronJob => "cronjob",
        }
    }

    pub fn parse(s: &str) -> Option<Component> {
        match s {
            "deployment" | "deploy" | "deployment-controller" => Some(Component::Deployment),
            "replicaset" | "rs" | "replicaset-controller" => Some(Component::ReplicaSet),
            "kubelet" => Some(Component::Kubelet),
            "autoscaler" | "hpa" | "horizontal-pod-autoscaler" | "horizontalpodautoscaling" => {
                Some(Component::Autoscaler)
            }
            "gitops" => Some(Component::Gitops),
            "scheduler" | "kube-scheduler" | "default-scheduler" => Some(Component::Scheduler),
            "node-lifecycle"
            | "nodelifecycle"
            | "node-lifecycle-controller"
            | "node-controller" => Some(Component::NodeLifecycle),
            "taint-eviction" | "taint-eviction-controller" | "taint-manager" => {
                Some(Component::TaintEviction)
            }
            "disruption" | "disruption-controller" | "pdb" => Some(Component::Disruption),
            "endpoints" | "endpoint" | "endpoint-controller" | "endpoints-controller" => {
                Some(Component::Endpoints)
            }
            "endpointslice"
            | "endpointslices"
            | "endpointslice-controller"
            | "endpoint-slice-controller" => Some(Component::EndpointSlice),
            "statefulset" | "sts" | "statefulset-controller" => Some(Component::StatefulSet),
            "volume"
            | "volumes"
            | "persistentvolume-controller"
            | "persistentvolume-binder"
            | "pvc-protection" => Some(Component::Volume),
            "daemonset" | "ds" | "daemonset-controller" => Some(Component::DaemonSet),
            "job" | "job-controller" => Some(Component::Job),
            "cronjob" | "cj" | "cronjob-controller" => Some(Component::CronJob),
            "ttl-after-finished" | "ttl" | "ttl-after-finished-controller" => {
                Some(Component::TtlAfterFinished)
            }
            _ => None,
        }
    }

    /// Components with an informer and a work queue (the ones that can be edge-triggered
    /// or lose events).
    pub fn is_controller(self) -> bool {
        matches!(self, Component::Deployment | Component::ReplicaSet)
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    Level,
    Edge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplyMode {
    ClientSide,
    ServerSide,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// Advance simulated time by N seconds.
    Tick(u64),
    Help,
    /// Workers stop; the informer keeps caching and queueing.
    Pause(Component),
    Resume(Component),
    /// The process dies: cache, queue and in-memory expectations are lost.
    Crash(Component),
    /// Start again after a crash: relist, reconcile everything from current state.
    Restart(Component),
    /// Lose the next N watch events to this controller's informer.
    Drop(Component, u32),
    Trigger(Component, Trigger),
    /// The HPA `web` (made if missing) is given a load on web's pods that asks it for N
    /// replicas.
    AutoscalerTarget(u32),
    /// The GitOps syncer re-applies a manifest (default `gitops.yaml`) every N seconds.
    GitopsEvery(u64, ApplyMode, Option<String>),
    /// kube-controller-manager's `--kube-api-qps` and, if given, `--kube-api-burst`: the
    /// client rate limit of each controller.
    ApiQps(u32, Option<u32>),
    /// List the scenario's files, or print one.
    Files,
    Cat(String),
    /// Show the controllers' state.
    Status,
    /// A node's kubelet stops (`false`) or starts again (`true`): no lease renewals, no
    /// status, its pods left as they are.
    Node(String, bool),
    /// A new node joins: its kubelet registers it (2 CPUs, 4 GiB, no labels of its own,
    /// no taints) and starts heartbeating.
    NodeAdd(String),
    /// Back to where the demo started (its scenario and setup lines); met challenges stay met.
    Reset,
    /// Save the whole demo under a name, or return to a saved one.
    Snapshot(String),
    Restore(Option<String>),
    /// The load generator: start (rate a second, Service, propagation delay), stop, or
    /// report.
    Traffic(TrafficCmd),
    /// The CPU the pods of a workload use, as metrics-server reports it.
    Metrics(MetricsCmd),
    /// kube-controller-manager's replicas and their leader election.
    Kcm(KcmCmd),
    /// Admission webhooks: declare one with its server, or set what its server does.
    Webhook(WebhookCmd),
    /// The WebApp operator: install it, switch its bugs, read its report.
    Operator(OperatorCmd),
}

/// A kube-controller-manager replica a `kcm` directive names: kcm-1, kcm-2, or whichever
/// leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KcmTarget {
    Replica(usize),
    Leader,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KcmCmd {
    /// Both replicas: identity, state, the lease.
    Show,
    /// A second replica joins and they elect a leader.
    Replicas,
    /// A replica's recent log, or both.
    Logs(Option<usize>),
    /// kill -9: its kubelet starts it again 10 s later as a new process.
    Kill(KcmTarget),
    /// Its static pod manifest moved away: down until `kcm start`.
    Stop(KcmTarget),
    Start(usize),
    /// Each of its API calls takes this long (milliseconds; 0: at once).
    Slow(KcmTarget, u64),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricsCmd {
    /// Every load and what each pod reports now.
    Show,
    /// A workload's pods use `from` millicores (each, or shared among the ready ones),
    /// moving in a straight line to `to` over `over` seconds.
    Set {
        target: String,
        total: bool,
        from: i64,
        to: i64,
        over: u64,
    },
    /// A workload's pods go back to idle (0m).
    Idle(String),
    /// metrics-server stops answering, or answers again.
    Down(bool),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrafficCmd {
    Start {
        rate: u32,
        service: String,
        delay: u64,
    },
    Off,
    Show,
}

pub const HELP: &str = "\
kubedrill sim: one command per line.
  kubectl ...                 a kubectl command against the simulated cluster
  tick N                      advance simulated time by N seconds
  pause|resume CONTROLLER     stop or restart a controller's workers (its informer keeps queueing)
  crash|restart CONTROLLER    kill a controller (cache, queue, expectations lost) / start it (relists)
  drop CONTROLLER N           lose the next N watch events to CONTROLLER (fault injection)
  trigger CONTROLLER level|edge
                              level: reconcile from cached state (what Kubernetes does);
                              edge: act only on each event's delta (a teaching variant)
  autoscaler N                make the HorizontalPodAutoscaler `web` on deploy/web (1 to 10
                              replicas, 100m of CPU a pod) if there is none, and load web's
                              pods so that it asks for N replicas
  metrics WORKLOAD cpu|load CPU [to CPU over Ns] | metrics WORKLOAD idle | metrics down|up
                              the CPU a workload's pods use, as metrics-server reports it:
                              `cpu` each pod, `load` shared by its ready pods, optionally a
                              straight ramp; `metrics` alone shows each pod's last sample
  gitops every N [client-side|server-side] [FILE]
                              the GitOps syncer re-applies FILE (gitops.yaml) every N seconds
  traffic N [SERVICE] [delay D] | traffic off | traffic
                              N requests a second to SERVICE (web), each to an endpoint as
                              kube-proxy routes it, the proxies seeing endpoint changes D
                              seconds late (default 1); counts answered and failed requests
                              (an app that exited on SIGTERM, a pod gone) a second at a time
  node-down NODE | node-up NODE
                              stop a node's kubelet (no heartbeats; its containers keep
                              running, unseen) or start it again
  node-add NODE               a new node joins (2 CPUs, 4 GiB, no taints), up to 10 nodes
  kcm | kcm replicas 2 | kcm logs [kcm-1|kcm-2] | kcm kill|stop kcm-1|kcm-2|leader |
  kcm start kcm-1|kcm-2 | kcm slow kcm-1|kcm-2|leader SECONDS
                              kube-controller-manager's replicas (leader-election scenario):
                              each runs client-go's leader election on the Lease
                              kube-system/kube-controller-manager, and only the leader runs
                              the controllers; kill restarts the process 10 s later, stop
                              keeps it down, slow makes each of its API calls take SECONDS
  webhook add validating|mutating NAME [on RESOURCE,...] [fail|ignore] [timeout N]
      [skip-namespace NS] [skip-self]
                              an admission webhook: its server (Deployment and Service NAME,
                              one replica) starts, and once it is ready the configuration
                              NAME is registered, calling it on CREATE and UPDATE of
                              RESOURCE (pods); fail|ignore is its failurePolicy (fail),
                              skip-namespace and skip-self its namespace and object selectors
  webhook NAME allow|down|up|deny MESSAGE|slow SECONDS|label KEY=VALUE
                              what NAME's server does: down stops it listening (calls are
                              refused), slow answers after SECONDS (a shorter timeout cuts
                              it), label is a mutating server's patch; `webhook` alone shows
                              the configurations, the servers and the last requests
  operator | operator install | operator bug hot-loop|status-update|no-finalizer |
  operator fix BUG|all | operator use VERSION
                              the WebApp operator (operator scenario): install creates its
                              Deployment webapp-operator, which reconciles WebApps once a
                              pod of it is available; each bug is a classic operator mistake;
                              use rebuilds it against another WebApp version (v1 at first);
                              `operator` alone shows its bugs, request rate, DNS records
                              and log
  api-qps QPS [BURST]         kube-controller-manager's client rate limit, per controller
                              (default 20 requests per second, bursts of 30)
  files | cat FILE            list the scenario's manifest files / print one
  status                      controllers: running, paused or crashed; trigger; queue length;
                              the client rate limit and the requests waiting for it
  reset                       back to where this demo started (the scenario and its setup
                              lines); challenges met stay met, and so does the history
  snapshot NAME | restore NAME
                              save the whole demo (cluster, controllers, writers, files) under
                              NAME, and return to it later; `restore` alone lists the names
  help                        this text
  # ...                       a comment
CONTROLLER is deployment, replicaset, kubelet, scheduler, node-lifecycle, taint-eviction,
disruption (PodDisruptionBudgets), endpoints, endpointslice, statefulset, volume, daemonset, job, ttl-after-finished, cronjob, autoscaler (the HPA controller) or gitops; a paused or
crashed gitops syncer stops writing and keeps its settings for resume|restart.
The demo simplifies: one namespace (default); every scenario runs on three nodes, where
the scheduler has no preemption (every pod has priority 0), no backoff between attempts,
no inter-pod affinity and no topologySpreadConstraints of a pod's own (the default
spreading applies), and ties go to the first node by name (kube-scheduler picks among equal
scores at random); the nodes form one zone; nodes cannot be
deleted or re-registered; `kubectl drain` runs in simulated time and the demo stops one
with no --timeout after 10 simulated minutes (kubectl would retry for ever);
no real containers: a pod is Running one second after creation and, with no probes, Ready
a second later; probes (readiness, liveness, startup; HTTP, TCP, exec and gRPC alike) ask a
fake app whose image says how it behaves: `slow-start-N` listens N seconds after its
container starts, `fails-after-N` stops answering N seconds after it, `never-ready` fails
only readiness (example.com/app:slow-start-40); a deleted pod runs its preStop sleep (`sleep`
action, or exec `sleep N`), then its app exits within a second of SIGTERM, except an image
whose reference contains `ignores-sigterm`, killed when its grace period ends.
A container's command ends as a batch job's would (`sleep N`, `exit N`, `true`, `false`,
`echo`, `date`, or a `sh -c` script of them joined by `;` or `&&`): its pod then takes the
phase its restartPolicy gives; a shell or `sleep` as PID 1 ignores SIGTERM. Any other
command, or none, runs until stopped. Jobs are NonIndexed only; CronJobs keep
the demo's clock, UTC (a timeZone other than UTC is refused).
Admission webhooks are called through their Service's cluster IP on every create, update
and delete (not on status writes, events or the kubelets' Lease and Node writes, so rules
that would match those are refused); ValidatingAdmissionPolicies are evaluated with the
cel-rust interpreter, without Kubernetes' CEL libraries (quantity, url, authorizer) or params.
CustomResourceDefinitions convert between versions with strategy None only (no conversion
webhooks), serve no scale subresource, take no allOf/anyOf/oneOf/not in their schemas and
no server-side apply of their objects; the demo holds at most 16 of them.
The HPA controller syncs every 15 s and reads CPU only, from a metrics-server that samples
every 15 s (a container's first sample comes 10 to 25 s after it starts) and whose usage is
what `metrics` sets (idle, 0m, otherwise); memory, custom and external metrics are refused.
Services are ClusterIP or headless only (no NodePort, LoadBalancer or ExternalName), with
cluster IPs from 10.96.0.0/16 and no default `kubernetes` Service; `traffic` stands for
clients and kube-proxy (one propagation delay for every node, requests spread in turn).
managedFields are kept for the workloads, Jobs, CronJobs, PodDisruptionBudgets, Services
and claims (not HorizontalPodAutoscalers, pods or nodes); validation leaves volumes,
probes, security contexts and affinity unchecked. The deployment and replicaset
controllers and the garbage collector wait for their client's rate limit as
kube-controller-manager's do (Events count too), so a big scale-up creates about 20 pods
a second; the kubelet, standing for many nodes, does not wait.
The registry has every image except names containing `nonexistent` (ErrImagePull);
the kubelet records events only for such failed pulls (Pulling, Failed, BackOff).
`kubectl delete` waits in simulated time as kubectl does (--wait=false returns at once);
it gives up after 10 simulated minutes (kubectl: a week) with kubectl's timeout error.
Commands, types and flags it does not model (logs, exec, get -A, get --watch,
rollout history|status --revision=N) are refused with a message that says so.";

/// Parses a directive line already split into words; `None` if the first word is not a
/// directive at all, `Some(Err)` for a directive used wrongly.
pub fn parse(words: &[String]) -> Option<Result<Directive, String>> {
    let first = words.first()?.as_str();
    let args = &words[1..];
    let component = |i: usize| -> Result<Component, String> {
        let w = args.get(i).map(String::as_str).unwrap_or("");
        Component::parse(w).ok_or_else(|| {
            format!(
                "error: `{first}` needs a controller: deployment, replicaset, kubelet, scheduler, node-lifecycle, taint-eviction, disruption, endpoints, endpointslice, statefulset, volume, daemonset, job, ttl-after-finished, cronjob, autoscaler or gitops{}",
                if w.is_empty() { String::new() } else { format!(" (got `{w}`)") }
            )
        })
    };
    let number = |i: usize, what: &str| -> Result<u64, String> {
        args.get(i)
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| format!("error: `{first}` needs {what}"))
    };
    let d = match first {
        "tick" => number(0, "a number of seconds, e.g. `tick 5`").map(Directive::Tick),
        "help" => Ok(Directive::Help),
        "pause" => component(0).map(Directive::Pause),
        "resume" => component(0).map(Directive::Resume),
        "crash" => component(0).map(Directive::Crash),
        "restart" => component(0).map(Directive::Restart),
        "drop" => component(0).and_then(|c| {
            if !c.is_controller() {
                return Err(format!("error: only the deployment and replicaset controllers watch events; `{c}` has none to drop"));
            }
            let n = number(1, "a number of events, e.g. `drop replicaset 1`")?;
            Ok(Directive::Drop(c, n.min(u32::MAX as u64) as u32))
        }),
        "trigger" => component(0).and_then(|c| {
            if !c.is_controller() {
                return Err(format!("error: `{c}` has no work queue; only deployment and replicaset can switch triggering"));
            }
            match args.get(1).map(String::as_str) {
                Some("level") => Ok(Directive::Trigger(c, Trigger::Level)),
                Some("edge") => Ok(Directive::Trigger(c, Trigger::Edge)),
                _ => Err("error: `trigger` needs `level` or `edge`, e.g. `trigger replicaset edge`".into()),
            }
        }),
        "autoscaler" => number(0, "a replica count, e.g. `autoscaler 5`")
            .map(|n| Directive::AutoscalerTarget(n.min(10_000) as u32)),
        "gitops" => {
            if args.first().map(String::as_str) != Some("every") {
                Err("error: usage: `gitops every N [client-side|server-side] [FILE]`".into())
            } else {
                number(1, "a period in seconds, e.g. `gitops every 10`").and_then(|n| {
                    let mode = match args.get(2).map(String::as_str) {
                        None | Some("client-side") => ApplyMode::ClientSide,
                        Some("server-side") => ApplyMode::ServerSide,
                        Some(other) => return Err(format!("error: unknown apply mode `{other}`: use client-side or server-side")),
                    };
                    if n == 0 {
                        return Err("error: the period must be at least 1 second".into());
                    }
                    Ok(Directive::GitopsEvery(n, mode, args.get(3).cloned()))
                })
            }
        }
        "api-qps" => {
            let positive = |i: usize, what: &str| -> Result<Option<u32>, String> {
                match args.get(i) {
                    None => Ok(None),
                    Some(w) => match w.parse::<u32>() {
                        Ok(n) if (1..=100_000).contains(&n) => Ok(Some(n)),
                        _ => Err(format!("error: `api-qps` needs {what} from 1 to 100000 (got `{w}`)")),
                    },
                }
            };
            positive(0, "requests per second")
                .and_then(|q| q.ok_or_else(|| "error: usage: `api-qps QPS [BURST]`, e.g. `api-qps 20 30` (the defaults)".to_string()))
                .and_then(|q| Ok(Directive::ApiQps(q, positive(1, "a burst")?)))
        }
        "node-add" => match args {
            [name] if crate::sim::validation::dns1123_label_ok(name) => {
                Ok(Directive::NodeAdd(name.clone()))
            }
            [name] => Err(format!(
                "error: `{name}` is no valid node name: lower-case letters, digits and '-', starting and ending with a letter or digit"
            )),
            _ => Err("error: usage: `node-add NODE`, e.g. `node-add node-4`".into()),
        },
        "node-down" | "node-up" => match args {
            [name] => Ok(Directive::Node(name.clone(), first == "node-up")),
            _ => Err(format!("error: usage: `{first} NODE`, e.g. `{first} node-2`")),
        },
        "traffic" => traffic(args),
        "metrics" => metrics(args),
        "kcm" => kcm(args),
        "webhook" => webhook::parse(args).map(Directive::Webhook),
        "operator" => operator::parse(args).map(Directive::Operator),
        "files" => Ok(Directive::Files),
        "cat" => args
            .first()
            .map(|f| Directive::Cat(f.clone()))
            .ok_or_else(|| "error: `cat` needs a file name; `files` lists them".into()),
        "status" => Ok(Directive::Status),
        "reset" => Ok(Directive::Reset),
        "snapshot" => match args {
            [name] => Ok(Directive::Snapshot(name.clone())),
            _ => Err("error: usage: `snapshot NAME` (one word), e.g. `snapshot before-rollout`".into()),
        },
        "restore" => match args {
            [] => Ok(Directive::Restore(None)),
            [name] => Ok(Directive::Restore(Some(name.clone()))),
            _ => Err("error: usage: `restore NAME`; `restore` alone lists the snapshots".into()),
        },
        _ => return None,
    };
    Some(d)
}

fn traffic(args: &[String]) -> Result<Directive, String> {
    const USAGE: &str = "error: usage: `traffic N [SERVICE] [delay D]` (N requests a second, 1 to 10000; D seconds of proxy delay, 0 to 60), `traffic off`, or `traffic` for the counts";
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let (rate, rest) = match words.as_slice() {
        [] => return Ok(Directive::Traffic(TrafficCmd::Show)),
        ["off"] => return Ok(Directive::Traffic(TrafficCmd::Off)),
        [n, rest @ ..] => (
            n.parse::<u32>().ok().filter(|n| (1..=10_000).contains(n)),
            rest,
        ),
    };
    let rate = rate.ok_or(USAGE)?;
    let (service, rest) = match rest {
        [svc, rest @ ..] if *svc != "delay" => (svc.to_string(), rest),
        _ => ("web".to_string(), rest),
    };
    let delay = match rest {
        [] => crate::sim::traffic::DEFAULT_DELAY,
        ["delay", d] => d
            .trim_end_matches('s')
            .parse::<u64>()
            .ok()
            .filter(|d| *d <= 60)
            .ok_or(USAGE)?,
        _ => return Err(USAGE.into()),
    };
    Ok(Directive::Traffic(TrafficCmd::Start {
        rate,
        service,
        delay,
    }))
}

fn metrics(args: &[String]) -> Result<Directive, String> {
    const USAGE: &str = "error: usage: `metrics WORKLOAD cpu|load CPU [to CPU over Ns]` (cpu: each pod uses CPU; load: the ready pods share it), `metrics WORKLOAD idle`, `metrics down|up`, or `metrics` to show them; WORKLOAD is deploy/NAME, sts/NAME or a Deployment's name";
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let millis = |w: &str| -> Result<i64, String> {
        let q = crate::sim::quantity::parse(w).map_err(|_| {
            format!("error: `{w}` is no CPU quantity: use millicores (`250m`) or cores (`0.5`)")
        })?;
        let m = q.nanos() / 1_000_000;
        if !(0..=1_000_000_000).contains(&m) {
            return Err(format!("error: `{w}`: CPU from 0 to 1000000 cores"));
        }
        Ok(m as i64)
    };
    let cmd = match words.as_slice() {
        [] => MetricsCmd::Show,
        ["down"] => MetricsCmd::Down(true),
        ["up"] => MetricsCmd::Down(false),
        [target, "idle"] => MetricsCmd::Idle(target.to_string()),
        [target, how @ ("cpu" | "load"), from, rest @ ..] => {
            let from = millis(from)?;
            let (to, over) = match rest {
                [] => (from, 0),
                ["to", to, "over", secs] => {
                    let over = secs
                        .trim_end_matches('s')
                        .parse::<u64>()
                        .ok()
                        .filter(|s| (1..=86_400).contains(s))
                        .ok_or("error: a ramp lasts 1 to 86400 seconds, e.g. `over 120s`")?;
                    (millis(to)?, over)
                }
                _ => return Err(USAGE.into()),
            };
            MetricsCmd::Set {
                target: target.to_string(),
                total: *how == "load",
                from,
                to,
                over,
            }
        }
        _ => return Err(USAGE.into()),
    };
    Ok(Directive::Metrics(cmd))
}

fn kcm(args: &[String]) -> Result<Directive, String> {
    const USAGE: &str = "error: usage: `kcm` (the replicas and the lease), `kcm replicas 2`, `kcm logs [kcm-1|kcm-2]`, `kcm kill|stop kcm-1|kcm-2|leader`, `kcm start kcm-1|kcm-2`, `kcm slow kcm-1|kcm-2|leader SECONDS` (0: normal)";
    let replica = |w: &str| match w {
        "1" | "kcm-1" => Some(0),
        "2" | "kcm-2" => Some(1),
        _ => None,
    };
    let target = |w: &str| match w {
        "leader" => Some(KcmTarget::Leader),
        w => replica(w).map(KcmTarget::Replica),
    };
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let cmd = match words.as_slice() {
        [] => KcmCmd::Show,
        ["replicas", "2"] => KcmCmd::Replicas,
        ["logs"] => KcmCmd::Logs(None),
        ["logs", r] => KcmCmd::Logs(Some(replica(r).ok_or(USAGE)?)),
        ["kill", t] => KcmCmd::Kill(target(t).ok_or(USAGE)?),
        ["stop", t] => KcmCmd::Stop(target(t).ok_or(USAGE)?),
        ["start", r] => KcmCmd::Start(replica(r).ok_or(USAGE)?),
        ["slow", t, secs] => {
            let secs: f64 = secs
                .trim_end_matches('s')
                .parse()
                .ok()
                .filter(|s: &f64| (0.0..=60.0).contains(s))
                .ok_or("error: `kcm slow` takes 0 to 60 seconds, e.g. `kcm slow leader 6s`")?;
            KcmCmd::Slow(target(t).ok_or(USAGE)?, (secs * 1000.0) as u64)
        }
        _ => return Err(USAGE.into()),
    };
    Ok(Directive::Kcm(cmd))
}

/// Directives that move the demo between saved states: not steps a replay repeats.
pub const MOVES: &[&str] = &["reset", "snapshot", "restore"];

/// Words that start a directive, for completion and for content checks.
pub const WORDS: &[&str] = &[
    "tick",
    "help",
    "pause",
    "resume",
    "crash",
    "restart",
    "drop",
    "trigger",
    "autoscaler",
    "gitops",
    "api-qps",
    "node-add",
    "node-down",
    "node-up",
    "traffic",
    "metrics",
    "kcm",
    "webhook",
    "operator",
    "files",
    "cat",
    "status",
    "reset",
    "snapshot",
    "restore",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Option<Result<Directive, String>> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&words)
    }

    #[test]
    fn parses_each_directive() {
        assert_eq!(p("tick 5"), Some(Ok(Directive::Tick(5))));
        assert_eq!(
            p("pause deployment"),
            Some(Ok(Directive::Pause(Component::Deployment)))
        );
        assert_eq!(
            p("crash rs"),
            Some(Ok(Directive::Crash(Component::ReplicaSet)))
        );
        assert_eq!(
            p("drop replicaset 2"),
            Some(Ok(Directive::Drop(Component::ReplicaSet, 2)))
        );
        assert_eq!(
            p("trigger replicaset edge"),
            Some(Ok(Directive::Trigger(Component::ReplicaSet, Trigger::Edge)))
        );
        assert_eq!(p("autoscaler 6"), Some(Ok(Directive::AutoscalerTarget(6))));
        assert_eq!(
            p("gitops every 10 server-side"),
            Some(Ok(Directive::GitopsEvery(10, ApplyMode::ServerSide, None)))
        );
        assert_eq!(
            p("cat web.yaml"),
            Some(Ok(Directive::Cat("web.yaml".into())))
        );
        assert_eq!(
            p("api-qps 100 150"),
            Some(Ok(Directive::ApiQps(100, Some(150))))
        );
        assert_eq!(p("api-qps 5"), Some(Ok(Directive::ApiQps(5, None))));
        assert_eq!(p("reset"), Some(Ok(Directive::Reset)));
        assert_eq!(
            p("node-down node-2"),
            Some(Ok(Directive::Node("node-2".into(), false)))
        );
        assert_eq!(
            p("node-up node-2"),
            Some(Ok(Directive::Node("node-2".into(), true)))
        );
        assert!(
            p("node-down")
                .unwrap()
                .unwrap_err()
                .contains("node-down NODE")
        );
        assert_eq!(p("snapshot a"), Some(Ok(Directive::Snapshot("a".into()))));
        assert_eq!(p("restore"), Some(Ok(Directive::Restore(None))));
        assert!(p("snapshot").unwrap().unwrap_err().contains("usage"));
        assert_eq!(p("kubectl get pods"), None);
    }

    #[test]
    fn misuse_says_how() {
        assert!(p("tick").unwrap().unwrap_err().contains("tick 5"));
        assert!(p("pause etcd").unwrap().unwrap_err().contains("got `etcd`"));
        assert!(
            p("drop kubelet 1")
                .unwrap()
                .unwrap_err()
                .contains("only the deployment and replicaset")
        );
        assert!(
            p("trigger deployment sideways")
                .unwrap()
                .unwrap_err()
                .contains("level")
        );
        assert!(
            p("gitops every 0")
                .unwrap()
                .unwrap_err()
                .contains("at least 1")
        );
        assert!(p("api-qps").unwrap().unwrap_err().contains("usage"));
        assert!(
            p("api-qps 0")
                .unwrap()
                .unwrap_err()
                .contains("from 1 to 100000 (got `0`)")
        );
        assert!(p("api-qps 20 x").unwrap().unwrap_err().contains("a burst"));
    }
}
