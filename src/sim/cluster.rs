//! The simulated cluster: the API server, the controllers and the kubelet, advanced one
//! simulated second at a time. Single-threaded and seeded: the same calls give the same
//! cluster, byte for byte.

use super::api::{ApiServer, EventType};
use super::client::RateLimit;
use super::controllers::Controller;
use super::controllers::cronjob::CronJobController;
use super::controllers::daemonset::DaemonSetController;
use super::controllers::deployment::DeploymentController;
use super::controllers::disruption::DisruptionController;
use super::controllers::endpoints::EndpointsController;
use super::controllers::endpointslice::EndpointSliceController;
use super::controllers::job::JobController;
use super::controllers::kubelet::Kubelet;
use super::controllers::node_agent::NodeAgents;
use super::controllers::node_lifecycle::NodeLifecycle;
use super::controllers::podautoscaler::HorizontalController;
use super::controllers::replicaset::ReplicaSetController;
use super::controllers::scheduler::Scheduler;
use super::controllers::statefulset::StatefulSetController;
use super::controllers::taint_eviction::TaintEviction;
use super::controllers::ttl_after_finished::TtlAfterFinished;
use super::controllers::volume::VolumeController;
use super::directive::{Component, Trigger};
use super::informer::RunState;
use super::kind::Kind;

/// The demo's resync period. kube-controller-manager uses 12 to 24 hours (D4); the demo
/// shortens it so a lost event heals within a minute, and says so.
pub const DEMO_RESYNC_SECONDS: u64 = 30;

/// The informer-driven controllers, in the order the loop runs them, borrowed field by
/// field so the API server can be borrowed beside them. Adding a controller is a field
/// on [`Cluster`] and its place here and in [`Cluster::controllers`].
macro_rules! controllers_mut {
    ($c:expr) => {
        [
            &mut $c.deployments as &mut dyn Controller,
            &mut $c.replicasets,
            &mut $c.statefulsets,
            &mut $c.daemonsets,
            &mut $c.jobs,
            &mut $c.ttl_after_finished,
            &mut $c.cronjobs,
            &mut $c.autoscalers,
            &mut $c.volumes,
            &mut $c.scheduler,
            &mut $c.node_lifecycle,
            &mut $c.taint_eviction,
            &mut $c.disruption,
            &mut $c.endpoints,
            &mut $c.endpoint_slices,
        ]
    };
}

/// Rounds of deliver-and-process per settle: enough for any chain of reactions.
const MAX_ROUNDS: usize = 32;

#[derive(Clone)]
pub struct Cluster {
    pub api: ApiServer,
    pub deployments: DeploymentController,
    pub replicasets: ReplicaSetController,
    pub statefulsets: StatefulSetController,
    pub daemonsets: DaemonSetController,
    pub jobs: JobController,
    pub ttl_after_finished: TtlAfterFinished,
    pub cronjobs: CronJobController,
    /// The horizontal pod autoscaler, with the resource metrics it reads
    /// (`api.metrics`).
    pub autoscalers: HorizontalController,
    /// The default StorageClass's provisioner and the PV controller's binder, with the
    /// pvc-protection controller.
    pub volumes: VolumeController,
    pub scheduler: Scheduler,
    pub node_lifecycle: NodeLifecycle,
    pub taint_eviction: TaintEviction,
    pub disruption: DisruptionController,
    pub endpoints: EndpointsController,
    pub endpoint_slices: EndpointSliceController,
    pub kubelet: Kubelet,
    /// The nodes' kubelets, heartbeating; none on a bare cluster (the benchmarks').
    pub nodes: NodeAgents,
    /// The garbage collector's client (kube-controller-manager's generic-garbage-collector).
    pub gc_client: RateLimit,
    /// The collector's last pass stopped at the rate limit with work left.
    gc_behind: bool,
    now: u64,
    /// Where a watching kubectl command (`rollout status`) has read the watch log to:
    /// the log is kept from there until it has read on.
    pub kubectl_watch: Option<u64>,
    /// kube-controller-manager as two replicas electing a leader (the leader-election
    /// scenario); none: one replica, always running the controllers.
    pub kcm: Option<super::kcm::Kcm>,
    /// The replica whose controllers ran last.
    kcm_leader: Option<usize>,
    /// The WebApp operator of the `operator` scenario, once installed.
    pub operator: Option<super::operator::Operator>,
    /// `api.custom_deletions` when the garbage collector last looked.
    custom_seen: u64,
}

/// The components that run inside kube-controller-manager, with the garbage collector.
const KCM_COMPONENTS: [Component; 14] = [
    Component::Deployment,
    Component::ReplicaSet,
    Component::StatefulSet,
    Component::DaemonSet,
    Component::Job,
    Component::TtlAfterFinished,
    Component::CronJob,
    Component::Autoscaler,
    Component::Volume,
    Component::NodeLifecycle,
    Component::TaintEviction,
    Component::Disruption,
    Component::Endpoints,
    Component::EndpointSlice,
];

impl Cluster {
    pub fn new(seed: u64) -> Self {
        Cluster {
            api: ApiServer::new(super::rng::SimRng::seed_from_u64(seed)),
            deployments: DeploymentController::new(DEMO_RESYNC_SECONDS),
            replicasets: ReplicaSetController::new(DEMO_RESYNC_SECONDS),
            statefulsets: StatefulSetController::new(DEMO_RESYNC_SECONDS),
            daemonsets: DaemonSetController::new(DEMO_RESYNC_SECONDS),
            jobs: JobController::new(DEMO_RESYNC_SECONDS),
            ttl_after_finished: TtlAfterFinished::new(DEMO_RESYNC_SECONDS),
            cronjobs: CronJobController::new(DEMO_RESYNC_SECONDS),
            autoscalers: HorizontalController::new(DEMO_RESYNC_SECONDS),
            volumes: VolumeController::new(DEMO_RESYNC_SECONDS),
            scheduler: Scheduler::new(DEMO_RESYNC_SECONDS),
            node_lifecycle: NodeLifecycle::new(DEMO_RESYNC_SECONDS),
            taint_eviction: TaintEviction::new(DEMO_RESYNC_SECONDS),
            disruption: DisruptionController::new(DEMO_RESYNC_SECONDS),
            endpoints: EndpointsController::new(DEMO_RESYNC_SECONDS),
            endpoint_slices: EndpointSliceController::new(DEMO_RESYNC_SECONDS),
            kubelet: Kubelet::new(),
            nodes: NodeAgents::default(),
            gc_client: RateLimit::default(),
            gc_behind: false,
            now: 0,
            kubectl_watch: None,
            kcm: None,
            kcm_leader: None,
            operator: None,
            custom_seen: 0,
        }
    }

    /// `kcm replicas 2`: a second replica joins; the running one takes the lease at once.
    pub fn start_leader_election(&mut self) {
        if self.kcm.is_none() {
            let mut k = super::kcm::Kcm::new(&self.api.rng, self.now * 1000);
            k.advance(&mut self.api, self.now * 1000);
            // The replica that was running goes on leading: its controllers keep going.
            self.kcm_leader = k.acting();
            self.kcm = Some(k);
        }
    }

    /// Whether `c` runs inside kube-controller-manager.
    pub fn in_kcm(c: Component) -> bool {
        KCM_COMPONENTS.contains(&c)
    }

    /// Whether kube-controller-manager's controllers run now: always with one replica; with
    /// two, while one of them leads.
    pub fn kcm_acting(&self) -> bool {
        self.kcm.as_ref().is_none_or(|k| k.acting().is_some())
    }

    /// Runs the replicas' leader election through this second; a leader that exits takes
    /// its controllers with it, and a new leader starts them from a fresh list.
    fn elect(&mut self) {
        let Some(k) = self.kcm.as_mut() else { return };
        let before = k.acting();
        k.advance(&mut self.api, self.now * 1000 + 999);
        self.leader_moved(before);
    }

    /// A `kcm` directive took a replica down: if it led, its controllers stop now.
    pub fn kcm_changed(&mut self) {
        let before = self.kcm_leader;
        self.leader_moved(before);
    }

    fn leader_moved(&mut self, before: Option<usize>) {
        let after = self.kcm.as_ref().and_then(|k| k.acting());
        self.kcm_leader = after;
        if before == after {
            return;
        }
        if before.is_some() {
            for c in KCM_COMPONENTS {
                self.set_state(c, RunState::Crashed);
            }
        }
        if after.is_some() {
            for c in KCM_COMPONENTS {
                self.set_state(c, RunState::Running);
            }
        }
    }

    /// Simulated seconds since the start.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The informer-driven controllers, in the order kube-controller-manager's loop
    /// here runs them.
    fn controllers(&self) -> [&dyn Controller; 15] {
        [
            &self.deployments as &dyn Controller,
            &self.replicasets,
            &self.statefulsets,
            &self.daemonsets,
            &self.jobs,
            &self.ttl_after_finished,
            &self.cronjobs,
            &self.autoscalers,
            &self.volumes,
            &self.scheduler,
            &self.node_lifecycle,
            &self.taint_eviction,
            &self.disruption,
            &self.endpoints,
            &self.endpoint_slices,
        ]
    }

    fn controller(&self, c: Component) -> Option<&dyn Controller> {
        self.controllers().into_iter().find(|x| x.component() == c)
    }

    fn controller_mut(&mut self, c: Component) -> Option<&mut dyn Controller> {
        let all = controllers_mut!(self);
        all.into_iter().find(|x| x.component() == c)
    }

    /// One simulated second: the kubelet moves pods on, resyncs fire, controllers react.
    pub fn tick(&mut self) {
        self.now += 1;
        self.api.clock = self.now;
        if self.now.is_multiple_of(60) {
            self.api.expire_events(self.now);
        }
        self.elect();
        let now = self.now;
        let all = controllers_mut!(self);
        for c in all {
            c.client_mut().tick();
        }
        self.gc_client.tick();
        if let Some(op) = self.operator.as_mut() {
            op.tick();
        }
        self.nodes.tick(&mut self.api, now);
        self.kubelet.tick(&mut self.api, now);
        let all = controllers_mut!(self);
        for c in all {
            c.tick(now);
            // Keys the controller asked to see again at this second (AddAfter).
            c.informer_mut().release_due(now);
            if c.informer_mut().due_for_resync(now) {
                c.resync();
            }
        }
        self.settle();
    }

    /// One pass of the garbage collector, as far as its client's rate limit allows.
    pub fn collect_garbage(&mut self) {
        self.gc_behind = crate::sim::gc::collect(&mut self.api, self.now, &mut self.gc_client);
    }

    /// Lets the controllers react to everything written so far (controllers take
    /// milliseconds; the demo's clock counts seconds).
    pub fn settle(&mut self) {
        for _ in 0..MAX_ROUNDS {
            let before = self.api.next_seq();
            let mut owners_deleted = false;
            let now = self.now;
            // The API server's own CRD controllers (naming, establishing, finalizing).
            crate::sim::controllers::apiextensions::reconcile(&mut self.api, now);
            let api = &mut self.api;
            // A pod can own only a StatefulSet's claim: its deletion matters to the
            // collector only where there are claims.
            let has_claims = api.count(Kind::PersistentVolumeClaim) > 0;
            let mut all = controllers_mut!(self);
            for c in all.iter_mut() {
                let deltas = c.informer_mut().deliver(api);
                owners_deleted |= deltas.iter().any(|x| {
                    x.event == EventType::Deleted
                        && (matches!(
                            x.kind,
                            Kind::Deployment
                                | Kind::ReplicaSet
                                | Kind::Service
                                | Kind::StatefulSet
                                | Kind::DaemonSet
                                | Kind::Job
                                | Kind::CronJob
                                | Kind::Custom(_)
                        ) || (x.kind == Kind::Pod && has_claims))
                });
                c.handle(deltas);
            }
            let mut worked: usize = all
                .iter_mut()
                .filter(|c| !c.after_the_others())
                .map(|c| c.process(api, now))
                .sum();
            if worked == 0 && api.next_seq() == before {
                worked = all
                    .iter_mut()
                    .filter(|c| c.after_the_others())
                    .map(|c| c.process(api, now))
                    .sum();
            }
            if let Some(op) = self.operator.as_mut() {
                worked += op.process(&mut self.api, now);
            }
            // A custom object's deletion, by whichever client: no built-in controller
            // watches its kind.
            owners_deleted |= self.api.custom_deletions != self.custom_seen;
            self.custom_seen = self.api.custom_deletions;
            if (owners_deleted || self.gc_behind || crate::sim::gc::pending(&self.api))
                && self.kcm_acting()
            {
                self.collect_garbage();
            }
            if worked == 0 && self.api.next_seq() == before {
                break;
            }
        }
        // The kubelet's watch reads on too, so the log is kept only as far back as someone
        // still has to read: many writes between two seconds no longer pile up versions.
        self.kubelet.watch(&self.api);
        let low = self
            .controllers()
            .iter()
            .map(|c| c.informer().cursor())
            .min()
            .unwrap_or(u64::MAX)
            .min(self.kubelet.cursor())
            .min(self.kubectl_watch.unwrap_or(u64::MAX))
            .min(self.operator.as_ref().map_or(u64::MAX, |o| o.cursor()));
        self.api.compact(low);
    }

    pub fn state(&self, c: Component) -> RunState {
        match c {
            Component::Kubelet => self.kubelet.state,
            _ => self
                .controller(c)
                .map_or(RunState::Running, |x| x.informer().state),
        }
    }

    pub fn trigger(&self, c: Component) -> Option<Trigger> {
        self.controller(c).map(|x| x.informer().trigger)
    }

    pub fn queue_len(&self, c: Component) -> usize {
        self.controller(c).map_or(0, |x| x.informer().queue_len())
    }

    /// Requests waiting for the component's client rate limit.
    pub fn waiting(&self, c: Component) -> usize {
        self.controller(c).map_or(0, |x| x.waiting())
    }

    pub fn dropped(&self) -> u64 {
        self.controllers()
            .iter()
            .map(|c| c.informer().dropped)
            .sum()
    }

    pub fn set_state(&mut self, c: Component, state: RunState) {
        let now = self.now;
        if c == Component::Kubelet {
            if state == RunState::Crashed {
                self.api
                    .forget_recorder(super::controllers::kubelet::COMPONENT);
            }
            if state == RunState::Running && self.kubelet.state == RunState::Crashed {
                self.kubelet = rebuilt_kubelet(&self.api, &self.kubelet);
            } else {
                self.kubelet.state = state;
            }
            self.settle();
            return;
        }
        let api = &mut self.api;
        let all = controllers_mut!(self);
        if let Some(x) = all.into_iter().find(|x| x.component() == c) {
            match state {
                RunState::Crashed => {
                    // The process's event correlator and client go with it.
                    api.forget_recorder(x.source());
                    x.client_mut().restart();
                    x.crash();
                }
                RunState::Running if x.informer().state == RunState::Crashed => {
                    let d = x.informer_mut().relist(api, now);
                    x.handle(d);
                }
                // A crashed process has no workers to pause: it stays down.
                RunState::Paused if x.informer().state == RunState::Crashed => {}
                s => x.informer_mut().state = s,
            }
        }
        self.settle();
    }

    /// `node-down` / `node-up`: the node's kubelet stops or starts again.
    pub fn set_node_up(&mut self, name: &str, up: bool) -> Result<(), String> {
        let now = self.now;
        self.nodes.set_up(&mut self.api, name, up, now)?;
        self.kubelet.set_node_up(name, up);
        self.settle();
        Ok(())
    }

    /// `node-add`: a node joins, and the controllers see it.
    pub fn add_node(&mut self, name: &str) -> Result<(), String> {
        let now = self.now;
        self.nodes.join(&mut self.api, name, now)?;
        self.settle();
        Ok(())
    }

    pub fn set_trigger(&mut self, c: Component, t: Trigger) {
        if let Some(x) = self.controller_mut(c) {
            x.informer_mut().trigger = t;
        }
    }

    /// kube-controller-manager's `--kube-api-qps`/`--kube-api-burst`, for every controller.
    pub fn set_client_limit(&mut self, qps: u32, burst: u32) {
        let all = controllers_mut!(self);
        for c in all {
            c.client_mut().set(qps, burst);
        }
        self.gc_client.set(qps, burst);
    }

    pub fn drop_events(&mut self, c: Component, n: u32) {
        if let Some(x) = self.controller_mut(c) {
            x.informer_mut().drop_next(n);
        }
    }
}

/// A kubelet restarted after a crash rediscovers every pod from a list.
fn rebuilt_kubelet(api: &ApiServer, old: &Kubelet) -> Kubelet {
    let mut k = Kubelet::new();
    k.start_after = old.start_after;
    k.ready_after = old.ready_after;
    k.typed = old.typed;
    k.down = old.down.clone();
    k.relist(api);
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::obj;
    use crate::sim::scenario::deployment;

    fn web(seed: u64) -> Cluster {
        let mut c = Cluster::new(seed);
        c.api
            .create(Kind::Deployment, deployment("web", "nginx:1.27", 3), 0)
            .unwrap();
        c.settle();
        c
    }

    fn run(c: &mut Cluster, secs: u64) {
        for _ in 0..secs {
            c.tick();
        }
    }

    fn ready_pods(c: &Cluster) -> usize {
        c.api
            .list(Kind::Pod)
            .filter(|p| {
                crate::sim::controllers::pods::is_active(p)
                    && crate::sim::controllers::pods::is_ready(p)
            })
            .count()
    }

    fn pods(c: &Cluster) -> usize {
        c.api.count(Kind::Pod)
    }

    fn scale(c: &mut Cluster, n: i64) {
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["spec"]["replicas"] = serde_json::json!(n);
        c.api.update(Kind::Deployment, d, None).unwrap();
        c.settle();
    }

    fn rs_status_replicas(c: &Cluster) -> Option<i64> {
        let rs = c.api.list(Kind::ReplicaSet).next().unwrap();
        obj::int(rs, &["status", "replicas"])
    }

    #[test]
    fn a_big_scale_up_goes_at_the_client_rate() {
        let mut c = web(1);
        run(&mut c, 5);
        scale(&mut c, 203);
        // The burst and the first second's refill (50 requests) go to the first creates
        // and their Events; then 20 requests a second, Events included until the
        // recorder's spam filter stops sending them.
        let mut counts = vec![pods(&c)];
        while pods(&c) < 203 {
            run(&mut c, 1);
            counts.push(pods(&c));
            assert!(counts.len() < 30, "still creating after 30 s: {counts:?}");
        }
        assert!(counts[0] > 3 && counts[0] <= 3 + 50, "{counts:?}");
        for w in counts.windows(2) {
            assert!(
                w[1] - w[0] <= 20,
                "more than 20 requests in a second: {counts:?}"
            );
        }
        // 200 creates and 25 Events at 20 a second, after the first 50.
        assert!(counts.len() >= 9, "{counts:?}");
    }

    #[test]
    fn a_busy_sync_reports_the_pods_it_started_from() {
        let mut c = web(1);
        run(&mut c, 5);
        scale(&mut c, 100);
        run(&mut c, 1);
        assert!(pods(&c) > 3);
        assert_eq!(
            rs_status_replicas(&c),
            Some(3),
            "written only when the sync ends"
        );
        run(&mut c, 10);
        assert_eq!(pods(&c), 100);
        assert_eq!(
            rs_status_replicas(&c),
            Some(100),
            "the key, dirty meanwhile, synced again"
        );
    }

    #[test]
    fn a_crash_loses_the_requests_still_waiting() {
        let mut c = web(1);
        run(&mut c, 5);
        scale(&mut c, 100);
        let before = pods(&c);
        c.set_state(Component::ReplicaSet, RunState::Crashed);
        assert_eq!(c.replicasets.waiting(), 0);
        run(&mut c, 5);
        assert_eq!(pods(&c), before, "nothing more is created while it is down");
        c.set_state(Component::ReplicaSet, RunState::Running);
        run(&mut c, 10);
        assert_eq!(
            pods(&c),
            100,
            "the restarted controller creates what is missing"
        );
    }

    #[test]
    fn the_garbage_collector_deletes_at_its_client_rate() {
        let mut c = web(1);
        c.set_client_limit(10_000, 10_000);
        scale(&mut c, 300);
        run(&mut c, 3);
        c.set_client_limit(20, 30);
        c.api
            .delete(Kind::Deployment, "web", None, c.now())
            .unwrap();
        c.settle();
        // Pods the collector has deleted: terminating, or already gone (nginx stops
        // within a second of its stop signal).
        let deleting = |c: &Cluster| {
            300 - c
                .api
                .list(Kind::Pod)
                .filter(|p| !obj::is_deleting(p))
                .count()
        };
        // The ReplicaSet first, then its pods: 50 requests before the next tick.
        assert_eq!(c.api.count(Kind::ReplicaSet), 0);
        assert_eq!(deleting(&c), 49);
        run(&mut c, 5);
        assert_eq!(deleting(&c), 149, "20 a second");
        run(&mut c, 10);
        assert_eq!(deleting(&c), 300);
    }

    #[test]
    fn a_faster_client_scales_up_in_one_second() {
        let mut c = web(1);
        c.set_client_limit(1000, 1000);
        scale(&mut c, 300);
        assert_eq!(pods(&c), 300);
    }

    #[test]
    fn a_new_deployment_converges() {
        let mut c = web(1);
        run(&mut c, 4);
        let d = c.api.get(Kind::Deployment, "web").unwrap();
        assert_eq!(ready_pods(&c), 3);
        assert_eq!(obj::int(d, &["status", "readyReplicas"]), Some(3));
        assert_eq!(obj::int(d, &["status", "observedGeneration"]), Some(1));
        let conds = d["status"]["conditions"].as_array().unwrap();
        let reasons: Vec<(&str, &str)> = conds
            .iter()
            .map(|c| (c["type"].as_str().unwrap(), c["reason"].as_str().unwrap()))
            .collect();
        assert_eq!(
            reasons,
            [
                ("Available", "MinimumReplicasAvailable"),
                ("Progressing", "NewReplicaSetAvailable")
            ]
        );
        assert_eq!(c.api.count(Kind::ReplicaSet), 1);
    }

    #[test]
    fn a_deleted_pod_is_replaced_while_it_terminates() {
        let mut c = web(2);
        run(&mut c, 4);
        let victim = obj::name(c.api.list(Kind::Pod).next().unwrap()).to_string();
        c.api.delete(Kind::Pod, &victim, None, c.now()).unwrap();
        c.settle();
        assert_eq!(
            c.api.count(Kind::Pod),
            4,
            "replacement created while the old pod terminates"
        );
        run(&mut c, 3);
        assert_eq!(ready_pods(&c), 3);
        run(&mut c, 30);
        assert_eq!(
            c.api.count(Kind::Pod),
            3,
            "the old pod is gone after its grace period"
        );
    }

    #[test]
    fn edge_triggered_stays_short_after_a_lost_event_level_recovers() {
        for (trigger, expect_ready) in [(Trigger::Edge, 2), (Trigger::Level, 3)] {
            let mut c = web(3);
            run(&mut c, 4);
            c.set_trigger(Component::ReplicaSet, trigger);
            c.drop_events(Component::ReplicaSet, 1);
            let victim = obj::name(c.api.list(Kind::Pod).next().unwrap()).to_string();
            c.api.delete(Kind::Pod, &victim, None, c.now()).unwrap();
            c.settle();
            run(&mut c, 60);
            assert_eq!(ready_pods(&c), expect_ready, "{trigger:?}");
        }
    }

    #[test]
    fn crash_and_restart_catches_up_by_relisting() {
        let mut c = web(4);
        run(&mut c, 4);
        c.set_state(Component::ReplicaSet, RunState::Crashed);
        let victim = obj::name(c.api.list(Kind::Pod).next().unwrap()).to_string();
        c.api.delete(Kind::Pod, &victim, Some(0), c.now()).unwrap();
        run(&mut c, 10);
        assert_eq!(
            ready_pods(&c),
            2,
            "nobody replaces pods while the controller is down"
        );
        c.set_state(Component::ReplicaSet, RunState::Running);
        run(&mut c, 3);
        assert_eq!(ready_pods(&c), 3);
    }

    #[test]
    fn paused_controller_lets_observed_generation_lag() {
        let mut c = web(5);
        run(&mut c, 4);
        c.set_state(Component::Deployment, RunState::Paused);
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["spec"]["replicas"] = serde_json::json!(5);
        c.api.update(Kind::Deployment, d, None).unwrap();
        run(&mut c, 5);
        let d = c.api.get(Kind::Deployment, "web").unwrap();
        assert_eq!(obj::int(d, &["metadata", "generation"]), Some(2));
        assert_eq!(obj::int(d, &["status", "observedGeneration"]), Some(1));
        c.set_state(Component::Deployment, RunState::Running);
        run(&mut c, 4);
        let d = c.api.get(Kind::Deployment, "web").unwrap();
        assert_eq!(obj::int(d, &["status", "observedGeneration"]), Some(2));
        assert_eq!(ready_pods(&c), 5);
    }

    #[test]
    fn forged_status_is_reverted() {
        let mut c = web(6);
        run(&mut c, 4);
        let avail = |c: &Cluster| {
            obj::int(
                c.api.get(Kind::Deployment, "web").unwrap(),
                &["status", "availableReplicas"],
            )
        };
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["status"]["availableReplicas"] = serde_json::json!(1);
        c.api.update_status(Kind::Deployment, d).unwrap();
        assert_eq!(avail(&c), Some(1));
        // The update event enqueues the Deployment and the sync recomputes status.
        c.settle();
        assert_eq!(avail(&c), Some(3));
        // A self-contradicting status is refused, as ValidateDeploymentStatus does.
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["status"]["readyReplicas"] = serde_json::json!(0);
        let e = c.api.update_status(Kind::Deployment, d).unwrap_err();
        assert_eq!(
            e.message,
            "The Deployment \"web\" is invalid: status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas"
        );
    }

    #[test]
    fn rolling_update_respects_surge_and_unavailability() {
        let mut c = Cluster::new(7);
        c.api
            .create(Kind::Deployment, deployment("web", "nginx:1.27", 10), 0)
            .unwrap();
        c.settle();
        run(&mut c, 5);
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["spec"]["template"]["spec"]["containers"][0]["image"] = serde_json::json!("nginx:1.28");
        c.api.update(Kind::Deployment, d, None).unwrap();
        c.settle();
        for _ in 0..60 {
            let pods: Vec<_> = c
                .api
                .list(Kind::Pod)
                .filter(|p| crate::sim::controllers::pods::is_active(p))
                .collect();
            let available = ready_pods(&c);
            assert!(pods.len() <= 13, "surge 3 exceeded: {} pods", pods.len());
            assert!(
                available >= 8,
                "unavailable 2 exceeded: {available} available"
            );
            c.tick();
        }
        let d = c.api.get(Kind::Deployment, "web").unwrap();
        assert_eq!(obj::int(d, &["status", "updatedReplicas"]), Some(10));
        assert_eq!(obj::int(d, &["status", "availableReplicas"]), Some(10));
        assert_eq!(c.api.count(Kind::ReplicaSet), 2);
    }

    #[test]
    fn a_restarted_controller_records_events_afresh() {
        let messages = |c: &Cluster| -> Vec<String> {
            c.api
                .list(Kind::Event)
                .filter(|e| e["reason"] == "SuccessfulCreate")
                .map(|e| e["message"].as_str().unwrap_or("").to_string())
                .collect()
        };
        let mut c = web(11);
        run(&mut c, 4);
        let mut d = c.api.get(Kind::Deployment, "web").unwrap().clone();
        d["spec"]["replicas"] = serde_json::json!(12);
        c.api.update(Kind::Deployment, d, None).unwrap();
        run(&mut c, 4);
        let combined = |m: &String| m.starts_with(crate::sim::recorder::COMBINED);
        assert_eq!(messages(&c).iter().filter(|m| combined(m)).count(), 1);
        assert_eq!(
            messages(&c).len(),
            10,
            "9 single events and the combined one"
        );
        c.set_state(Component::ReplicaSet, RunState::Crashed);
        c.set_state(Component::ReplicaSet, RunState::Running);
        let victim = obj::name(c.api.list(Kind::Pod).next().unwrap()).to_string();
        c.api.delete(Kind::Pod, &victim, Some(0), c.now()).unwrap();
        run(&mut c, 1);
        let all = messages(&c);
        assert_eq!(all.len(), 11, "{all:?}");
        assert_eq!(
            all.iter().filter(|m| !combined(m)).count(),
            10,
            "the new process's first create is a single event again"
        );
    }

    #[test]
    fn same_seed_same_names_other_seed_other_names() {
        let names = |seed| {
            let mut c = web(seed);
            run(&mut c, 3);
            c.api
                .list(Kind::Pod)
                .map(|p| obj::name(p).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(9), names(9));
        assert_ne!(names(9), names(10));
    }
}
