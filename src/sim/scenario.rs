//! Built-in scenarios: each starts from the Deployment `web` in `default`, with the
//! manifest files and writers its question is about.

use serde_json::{Value, json};

use super::controllers::node_agent::NodeSpec;

/// Ids of the shipped scenarios; content may only name one of these.
pub const SCENARIO_IDS: &[&str] = &[
    "spec-status",
    "self-healing",
    "apply-semantics",
    "field-fight",
    "ownership",
    "rollout",
    "scheduling",
    "node-failure",
    "drain-pdb",
    "service-endpoints",
    "graceful-rollout",
    "probes",
    "statefulset",
    "daemonset",
    "jobs",
    "hpa",
    "leader-election",
    "admission",
    "operator",
];

/// How the starting Deployment got into the cluster, which shows in its annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `kubectl create -f web.yaml`: no last-applied annotation.
    Created,
    /// `kubectl apply -f web.yaml`: client-side apply.
    Applied,
}

pub struct Scenario {
    pub id: &'static str,
    pub title: &'static str,
    /// One line on what to try, shown by `help` and in the demo.
    pub summary: &'static str,
    pub files: &'static [(&'static str, &'static str)],
    pub origin: Origin,
    /// The nodes the cluster starts with; none for the demo's first scenarios, where
    /// pods run without being scheduled.
    pub nodes: &'static [NodeSpec],
    /// Simulated seconds its workload gets to come up before the learner starts.
    pub warm_up: u64,
    /// Lines run once the warm-up is over, before the learner takes over (the load an
    /// autoscaled workload is under, and its autoscaler).
    pub setup: &'static [&'static str],
}

/// The usual warm-up: a Deployment's pods start together.
const WARM_UP: u64 = 5;

/// The warm-up of the autoscaled scenarios: long enough for every pod's CPU sample to
/// count with the HPA (metrics-server's first sample comes 10 to 30 s after a container
/// starts, and the HPA sets aside a sample that began before its pod was Ready).
const METRICS_WARM_UP: u64 = 35;

const WEB_YAML: &str = include_str!("manifests/web.yaml");

const WEB_MINIMAL_YAML: &str = include_str!("manifests/web-minimal.yaml");

const WEB_SCALED_YAML: &str = include_str!("manifests/web-scaled.yaml");

/// `web.yaml` with two misspelt fields (`replica`, `imagePullpolicy`): kubectl's strict field
/// validation refuses it; `--validate=warn` drops them with a warning each.
const WEB_TYPO_YAML: &str = include_str!("manifests/web-typo.yaml");

pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        id: "spec-status",
        title: "spec vs status",
        summary: "Edit spec and watch generation and observedGeneration; forge status and watch it reverted; pause the deployment controller and see observedGeneration lag.",
        files: &[("web.yaml", WEB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "self-healing",
        title: "a deleted pod comes back",
        summary: "Delete pods; drop watch events; switch the ReplicaSet controller between level- and edge-triggered; crash and restart it.",
        files: &[("web.yaml", WEB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "apply-semantics",
        title: "create vs replace vs apply",
        summary: "Create twice (AlreadyExists); replace with a manifest missing replicas; client-side apply and its last-applied annotation; server-side apply, managedFields and a conflict; a manifest with misspelt fields, refused by strict field validation or dropped with a warning.",
        files: &[
            ("web.yaml", WEB_YAML),
            ("web-minimal.yaml", WEB_MINIMAL_YAML),
            ("web-scaled.yaml", WEB_SCALED_YAML),
            ("web-typo.yaml", WEB_TYPO_YAML),
        ],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "field-fight",
        title: "a replica count that flips",
        summary: "An autoscaler and a GitOps syncer both write spec.replicas: find them in managedFields, make the fight visible with server-side apply, and settle it by removing replicas from the synced manifest.",
        files: &[
            ("web.yaml", WEB_YAML),
            ("gitops.yaml", WEB_YAML),
            ("gitops-noreplicas.yaml", WEB_MINIMAL_YAML),
        ],
        origin: Origin::Applied,
        nodes: PLAIN_NODES,
        warm_up: METRICS_WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "ownership",
        title: "owners, garbage collection and finalizers",
        summary: "Follow ownerReferences from pods to the Deployment; release and re-adopt a pod by its labels; delete the Deployment with --cascade=background, foreground or orphan; hold a deletion with a finalizer and release it.",
        files: &[("web.yaml", WEB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "rollout",
        title: "rolling updates, revisions and stuck rollouts",
        summary: "Change the image and watch ReplicaSets, surge and unavailability; read rollout history and undo; push an image that cannot be pulled (any name containing `nonexistent`) and watch the progress deadline pass; slow a rollout with minReadySeconds; scale down and see which pods go first.",
        files: &[("web.yaml", WEB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "scheduling",
        title: "the scheduler places pods on nodes",
        summary: "Three nodes, one tainted for GPU work; web's pods each ask for 500m CPU. Scale up until a pod stays Pending and read its FailedScheduling event; pin pods with a nodeSelector; tolerate the taint; watch a Pending pod placed as soon as room appears.",
        files: &[("web.yaml", WEB_REQUESTS_YAML)],
        origin: Origin::Created,
        nodes: THREE_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "node-failure",
        title: "a node stops: NotReady, taints and eviction",
        summary: "Three nodes, web's three pods one on each. Stop a node's kubelet (`node-down node-2`) and follow it in simulated time: after the 50 s grace period the node turns NotReady (Unknown) and is tainted, its pods stay Running but not ready; 300 s later their tolerations run out and they are evicted, replaced on the other nodes, and stay Terminating until the kubelet is back (`node-up node-2`).",
        files: &[("web.yaml", WEB_REQUESTS_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "drain-pdb",
        title: "cordon, drain and PodDisruptionBudgets",
        summary: "Three nodes, web's three pods one on each, and a PodDisruptionBudget in pdb.yaml (minAvailable: 2) to apply. Cordon a node and see what it does and does not do; drain it and watch each eviction ask the budget; make the budget impossible to meet and watch drain retry every 5 s; then see that `kubectl delete pod`, a scale-down or a rollout never asks a budget.",
        files: &[("web.yaml", WEB_REQUESTS_YAML), ("pdb.yaml", PDB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "service-endpoints",
        title: "a Service, its EndpointSlices and its Endpoints",
        summary: "Three nodes, web's three pods one on each, and a Service in service.yaml to apply. Read its cluster IP and the EndpointSlice the controller writes; delete a pod and watch its endpoint turn terminating (ready false, serving true) in the slice while the Endpoints object drops it at once; scale to 0 and see the placeholder slice; change the selector and watch the endpoints follow the labels, not the Deployment.",
        files: &[
            ("web.yaml", WEB_NAMED_PORT_YAML),
            ("service.yaml", SERVICE_YAML),
        ],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "graceful-rollout",
        title: "why a rollout drops requests, and the preStop hook that stops it",
        summary: "web (maxUnavailable 0, maxSurge 1) and its Service, already running. Start `traffic 30`, roll out a new image and count the failed requests: each old pod's nginx exits on SIGTERM at once, while the proxies still send it traffic for a second. Apply web-prestop.yaml (a 5 s preStop sleep), let that rollout finish, roll out again and count none; raise the proxies' delay past the sleep (`traffic 30 web delay 8`) and watch failures return.",
        files: &[
            ("web.yaml", WEB_SERVED_YAML),
            ("web-prestop.yaml", WEB_PRESTOP_YAML),
        ],
        origin: Origin::Applied,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "probes",
        title: "readiness, liveness and startup probes",
        summary: "web and its Service, each pod Ready only once its readiness probe passes. Apply slow-liveness.yaml (an app that needs 40 s to start, a liveness probe that allows 20) and watch restarts and CrashLoopBackOff; fix it with slow-startup.yaml's startup probe; apply never-ready.yaml and see the rollout stop with the old pods still serving; apply no-readiness.yaml and `traffic 30` to see a pod with no readiness probe get traffic before its app listens; fails-later.yaml shows readiness taking a pod out of the Service before liveness restarts it.",
        files: &[
            ("web.yaml", WEB_PROBED_YAML),
            ("slow-liveness.yaml", SLOW_LIVENESS_YAML),
            ("slow-startup.yaml", SLOW_STARTUP_YAML),
            ("never-ready.yaml", NEVER_READY_YAML),
            ("no-readiness.yaml", NO_READINESS_YAML),
            ("fails-later.yaml", FAILS_LATER_YAML),
        ],
        origin: Origin::Applied,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "statefulset",
        title: "a StatefulSet: ordinals, claims and ordered rollouts",
        summary: "web is a StatefulSet of three (web-0, web-1, web-2) behind a headless Service, each pod with its own claim data-web-N. Delete web-1 and watch it come back with the same name and claim; scale up and down and see the order; roll out an image one pod at a time from the highest ordinal, hold it with a partition for a canary, read the ControllerRevisions with `rollout history` and undo; push an image that never starts and see the rollout stop until the broken pod is deleted by hand; delete the set and find the claims still there (whenDeleted: Retain); recreate it from web-parallel.yaml to start every pod at once, or apply web-retention.yaml and watch claims go with a scale-down.",
        files: &[
            ("web.yaml", WEB_STATEFULSET_YAML),
            ("web-parallel.yaml", WEB_STS_PARALLEL_YAML),
            ("web-retention.yaml", WEB_STS_RETENTION_YAML),
        ],
        origin: Origin::Applied,
        nodes: PLAIN_NODES,
        // One pod at a time, each Running and Ready before the next.
        warm_up: 8,
        setup: &[],
    },
    Scenario {
        id: "daemonset",
        title: "a DaemonSet: one pod per node, and nodes that come and go",
        summary: "agent is a DaemonSet on three nodes, node-3 tainted for GPU work, so it runs two pods. Apply agent-tolerates-gpu.yaml and watch a pod land on node-3; add a node (`node-add node-4`) and see agent follow it; taint a node NoExecute and watch its pod go, NoSchedule and watch it stay; cordon a node and see agent ignore it; drain a node and meet `--ignore-daemonsets`; roll out an image one node at a time (maxUnavailable 1), or with agent-surge.yaml start each new pod beside the old one (maxSurge 1); read `rollout history` and undo; stop a node (`node-down`) and see its daemon pod stay.",
        files: &[
            ("agent.yaml", AGENT_YAML),
            ("agent-tolerates-gpu.yaml", AGENT_TOLERATES_GPU_YAML),
            ("agent-surge.yaml", AGENT_SURGE_YAML),
            ("agent-ssd-only.yaml", AGENT_SSD_ONLY_YAML),
        ],
        origin: Origin::Applied,
        nodes: THREE_NODES,
        warm_up: WARM_UP,
        setup: &[],
    },
    Scenario {
        id: "jobs",
        title: "Jobs and CronJobs: run to completion, retry, give up, and run on a schedule",
        summary: "batch is a Job of five completions, two pods at a time, each running `sleep 5`; watch it finish (SuccessCriteriaMet, then Complete). Apply flaky.yaml and see failed pods replaced after 10 s, then 20 s, until backoffLimit 2 fails the Job; restarts.yaml does the same with restartPolicy OnFailure, where container restarts count; deadline.yaml is stopped by activeDeadlineSeconds; exit-codes.yaml fails at once on exit code 42 through its podFailurePolicy; cleanup.yaml deletes itself 30 s after it finishes (ttlSecondsAfterFinished). `kubectl create job NAME --image=busybox -- sleep 5` makes one by hand; `kubectl patch job batch -p '{\"spec\":{\"suspend\":true}}'` suspends one. CronJobs run on the demo's clock (UTC): hello.yaml starts a Job every minute and keeps the last three; slow.yaml's Jobs outlast the minute and pile up, until concurrencyPolicy Forbid skips runs or Replace replaces them; suspend one for two hours and see only the last missed run start (too many missed start times); `kubectl create job once --from=cronjob/hello` runs one now.",
        files: &[
            ("batch.yaml", BATCH_YAML),
            ("flaky.yaml", FLAKY_YAML),
            ("restarts.yaml", RESTARTS_YAML),
            ("deadline.yaml", DEADLINE_YAML),
            ("exit-codes.yaml", EXIT_CODES_YAML),
            ("cleanup.yaml", CLEANUP_YAML),
            ("hello.yaml", HELLO_YAML),
            ("slow.yaml", SLOW_YAML),
        ],
        origin: Origin::Applied,
        nodes: THREE_NODES,
        // Its first two pods start and are well under way.
        warm_up: 3,
        setup: &[],
    },
    Scenario {
        id: "hpa",
        title: "the horizontal pod autoscaler",
        summary: "web (200m of CPU requested a pod) under an HPA for 50% between 2 and 10 replicas: raise the load (`metrics web load 900m`) and watch it scale up per sync to at most double the count or 4, whichever is more; drop it and wait out the 5-minute stabilization; apply hpa-behavior.yaml for your own rates and window; stop metrics-server (`metrics down`) or deploy web-no-requests.yaml and read the conditions and events.",
        files: &[
            ("web-hpa.yaml", WEB_HPA_YAML),
            ("hpa.yaml", HPA_YAML),
            ("hpa-behavior.yaml", HPA_BEHAVIOR_YAML),
            ("web-no-requests.yaml", WEB_NO_REQUESTS_YAML),
        ],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: METRICS_WARM_UP,
        setup: &["kubectl create -f hpa.yaml", "metrics web load 300m"],
    },
    Scenario {
        id: "leader-election",
        title: "kube-controller-manager's leader election",
        summary: "Two kube-controller-manager replicas hold the Lease kube-system/kube-controller-manager in turn; only the leader runs the controllers. Kill the leader (`kcm kill leader`) and watch nothing reconcile until the standby's lease expiry, slow its renewals (`kcm slow leader 6s`) until it logs leaderelection lost, and read the Lease and each replica's log (`kcm`, `kcm logs`).",
        files: &[("web.yaml", WEB_YAML)],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &["kcm replicas 2", "tick 5"],
    },
    Scenario {
        id: "admission",
        title: "admission webhooks",
        summary: "A validating webhook, policy.example.com, checks every pod created or updated; its server is the Deployment and Service `policy`, and it fails closed. Take the server away (`kubectl scale deploy policy --replicas=0`) and watch every new pod refused, its own included; read the refusal in `kubectl describe rs` and the request log (`webhook`); get out by failing open, by scoping the webhook (`policy-scoped.yaml`), or by deleting it. `max-replicas.yaml` is a ValidatingAdmissionPolicy (CEL, no webhook) that caps Deployments at 5 replicas.",
        files: &[
            ("web.yaml", WEB_YAML),
            ("policy-scoped.yaml", POLICY_SCOPED_YAML),
            ("max-replicas.yaml", MAX_REPLICAS_YAML),
        ],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &["webhook add validating policy", "tick 5"],
    },
    Scenario {
        id: "operator",
        title: "a CRD and its operator",
        summary: "The CustomResourceDefinition webapps.example.com (webapp-crd.yaml) adds the kind WebApp, with a structural schema, defaults, a CEL rule, the status subresource and printer columns. The operator webapp-operator reconciles the WebApp shop into a Deployment and a Service it owns, a DNS record held by its finalizer, and a status with observedGeneration and an Available condition. Read `kubectl get webapps` and `operator`; `operator bug hot-loop|status-update|no-finalizer` switches on a classic mistake; webapp-crd-v2.yaml adds a version.",
        files: &[
            ("web.yaml", WEB_YAML),
            ("webapp-crd.yaml", WEBAPP_CRD_YAML),
            ("shop.yaml", SHOP_YAML),
            ("blog.yaml", BLOG_YAML),
            ("webapp-crd-v2.yaml", WEBAPP_CRD_V2_YAML),
            ("webapp-crd-v2-only.yaml", WEBAPP_CRD_V2_ONLY_YAML),
        ],
        origin: Origin::Created,
        nodes: PLAIN_NODES,
        warm_up: WARM_UP,
        setup: &[
            "kubectl apply -f webapp-crd.yaml",
            "operator install",
            "tick 3",
            "kubectl apply -f shop.yaml",
            "tick 5",
        ],
    },
];

/// The CustomResourceDefinition of the WebApp kind.
const WEBAPP_CRD_YAML: &str = include_str!("manifests/webapp-crd.yaml");

/// The WebApp the operator scenario starts with.
const SHOP_YAML: &str = include_str!("manifests/shop.yaml");

/// A second WebApp, with the default replica count.
const BLOG_YAML: &str = include_str!("manifests/blog.yaml");

/// The CRD with v2 (a `tls` field) as the storage version and v1 still served, deprecated.
const WEBAPP_CRD_V2_YAML: &str = include_str!("manifests/webapp-crd-v2.yaml");

/// The CRD with v1 removed.
const WEBAPP_CRD_V2_ONLY_YAML: &str = include_str!("manifests/webapp-crd-v2-only.yaml");

/// A ValidatingAdmissionPolicy and its binding: at most 5 replicas a Deployment.
const MAX_REPLICAS_YAML: &str = include_str!("manifests/max-replicas.yaml");

/// The policy webhook scoped away from its own server's pods.
const POLICY_SCOPED_YAML: &str = include_str!("manifests/policy-scoped.yaml");

/// Five completions, two at a time.
const BATCH_YAML: &str = include_str!("manifests/batch.yaml");

/// A Job whose pods always fail, with backoffLimit 2.
const FLAKY_YAML: &str = include_str!("manifests/flaky.yaml");

/// The same failure with restartPolicy OnFailure: the container restarts in place.
const RESTARTS_YAML: &str = include_str!("manifests/restarts.yaml");

/// A Job that would run two minutes, stopped at 20 s.
const DEADLINE_YAML: &str = include_str!("manifests/deadline.yaml");

/// A podFailurePolicy that fails the Job on exit code 42 and ignores disruptions.
const EXIT_CODES_YAML: &str = include_str!("manifests/exit-codes.yaml");

/// A Job deleted 30 s after it finishes.
const CLEANUP_YAML: &str = include_str!("manifests/cleanup.yaml");

/// A CronJob every minute whose Jobs take 5 s.
const HELLO_YAML: &str = include_str!("manifests/hello.yaml");

/// A CronJob every minute whose Jobs take two and a half: they pile up under Allow.
const SLOW_YAML: &str = include_str!("manifests/slow.yaml");

/// A log agent on every node that has no taint it does not tolerate.
const AGENT_YAML: &str = include_str!("manifests/agent.yaml");

/// The agent tolerating node-3's `dedicated=gpu:NoSchedule` taint.
const AGENT_TOLERATES_GPU_YAML: &str = include_str!("manifests/agent-tolerates-gpu.yaml");

/// The agent rolling out with maxSurge 1 and maxUnavailable 0.
const AGENT_SURGE_YAML: &str = include_str!("manifests/agent-surge.yaml");

/// The agent only on nodes labelled `disktype=ssd`.
const AGENT_SSD_ONLY_YAML: &str = include_str!("manifests/agent-ssd-only.yaml");

/// A headless Service and the StatefulSet web governed by it, one 1 GiB claim per pod.
const WEB_STATEFULSET_YAML: &str = include_str!("manifests/web-statefulset.yaml");

/// The same set with `podManagementPolicy: Parallel` (a field no update may change).
const WEB_STS_PARALLEL_YAML: &str = include_str!("manifests/web-sts-parallel.yaml");

/// The same set whose claims go with a scale-down and with the set.
const WEB_STS_RETENTION_YAML: &str = include_str!("manifests/web-sts-retention.yaml");

/// A Service in front of web's pods, reaching them by the container port's name.
const SERVICE_YAML: &str = include_str!("manifests/service.yaml");

/// `web.yaml` whose container names its port `http`.
const WEB_NAMED_PORT_YAML: &str = include_str!("manifests/web-named-port.yaml");

/// web behind its Service, rolling one pod at a time and never below three ready.
const WEB_SERVED_YAML: &str = include_str!("manifests/web-served.yaml");

/// The same Deployment whose pods wait 5 s in a preStop hook before nginx gets SIGTERM.
const WEB_PRESTOP_YAML: &str = include_str!("manifests/web-prestop.yaml");

/// web with a readiness probe on its HTTP port, and its Service.
const WEB_PROBED_YAML: &str = include_str!("manifests/web-probed.yaml");

/// An app that needs 40 s to start, behind a liveness probe that gives it 20.
const SLOW_LIVENESS_YAML: &str = include_str!("manifests/slow-liveness.yaml");

/// The same slow starter with a startup probe that allows it 60 s before liveness begins.
const SLOW_STARTUP_YAML: &str = include_str!("manifests/slow-startup.yaml");

/// An app whose readiness endpoint always says 503.
const NEVER_READY_YAML: &str = include_str!("manifests/never-ready.yaml");

/// A slow starter with no readiness probe: Ready as soon as it runs.
const NO_READINESS_YAML: &str = include_str!("manifests/no-readiness.yaml");

/// An app that stops answering 60 s after it starts, with liveness and readiness probes.
const FAILS_LATER_YAML: &str = include_str!("manifests/fails-later.yaml");

/// web with 200m of CPU requested by each pod, for the HPA's utilization.
const WEB_HPA_YAML: &str = include_str!("manifests/web-hpa.yaml");

/// An HPA keeping web's pods at 50% of their CPU request, 2 to 10 replicas.
const HPA_YAML: &str = include_str!("manifests/hpa.yaml");

/// The same HPA with its own rates: up 2 pods a minute, down 1 every 30 s after a 60 s
/// window.
const HPA_BEHAVIOR_YAML: &str = include_str!("manifests/hpa-behavior.yaml");

/// web without CPU requests: the HPA cannot compute a utilization.
const WEB_NO_REQUESTS_YAML: &str = include_str!("manifests/web-no-requests.yaml");

/// A budget that keeps two of web's pods available.
const PDB_YAML: &str = include_str!("manifests/pdb.yaml");

/// Three general nodes, 2 CPUs and 4 GiB each.
const PLAIN_NODES: &[NodeSpec] = &[
    NodeSpec {
        name: "node-1",
        cpu: "2",
        memory: "4Gi",
        labels: &[],
        taints: &[],
    },
    NodeSpec {
        name: "node-2",
        cpu: "2",
        memory: "4Gi",
        labels: &[],
        taints: &[],
    },
    NodeSpec {
        name: "node-3",
        cpu: "2",
        memory: "4Gi",
        labels: &[],
        taints: &[],
    },
];

/// Two general nodes and one tainted for GPU work, 2 CPUs and 4 GiB each.
const THREE_NODES: &[NodeSpec] = &[
    NodeSpec {
        name: "node-1",
        cpu: "2",
        memory: "4Gi",
        labels: &[("disktype", "ssd")],
        taints: &[],
    },
    NodeSpec {
        name: "node-2",
        cpu: "2",
        memory: "4Gi",
        labels: &[],
        taints: &[],
    },
    NodeSpec {
        name: "node-3",
        cpu: "2",
        memory: "4Gi",
        labels: &[("accelerator", "gpu")],
        taints: &[("dedicated", "gpu", "NoSchedule")],
    },
];

/// `web.yaml` whose pods each request half a CPU and 256 MiB.
const WEB_REQUESTS_YAML: &str = include_str!("manifests/web-requests.yaml");

/// Files a scenario writes once `web` is running, as if read back from the cluster: they
/// carry its resourceVersion, `{rv}` here, so they turn stale at the next write to `web`.
pub fn read_back_files(id: &str) -> &'static [(&'static str, &'static str)] {
    match id {
        "apply-semantics" => &[("web-stale.yaml", WEB_STALE_YAML)],
        _ => &[],
    }
}

/// `web.yaml` at 4 replicas, saved with the resourceVersion `web` had when it was read.
const WEB_STALE_YAML: &str = include_str!("manifests/web-stale.yaml");

pub fn find(id: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.id == id)
}

/// The container name kubectl derives from an image: `nginx` for `docker.io/nginx:1.27`.
pub fn container_name(image: &str) -> Option<&str> {
    image
        .rsplit('/')
        .next()
        .and_then(|s| s.split([':', '@']).next())
}

/// The Deployment `kubectl create deployment NAME --image=IMAGE --replicas=N` sends
/// (its container is named after the image, as kubectl names it).
pub fn deployment(name: &str, image: &str, replicas: i64) -> Value {
    let container = container_name(image).unwrap_or(name).to_string();
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"labels": {"app": name}, "name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "strategy": {},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"image": image, "name": container, "resources": {}}]},
            },
        },
    })
}
