//! What the demo says about its components: each one's state, trigger mode and queue,
//! which ones have work (the panel lists only those), and the scenario's workload.

use serde_json::Value;

use super::Session;
use crate::sim::directive::{Component, Trigger};
use crate::sim::kind::Kind;
use crate::sim::obj;

impl Session {
    /// Each component's state, trigger mode and queue length.
    pub fn status_text(&self) -> String {
        let mut s = String::new();
        // The names line up.
        let width = Component::ALL
            .iter()
            .map(|c| c.name().len())
            .max()
            .unwrap_or(0);
        for c in Component::ALL {
            let state = self.component_state(c);
            let extra = match (self.cluster.trigger(c), c) {
                (Some(t), _) => format!(
                    "  {}-triggered  queue {}",
                    if t == Trigger::Level { "level" } else { "edge" },
                    self.cluster.queue_len(c)
                ),
                (None, Component::Gitops) => self.gitops.as_ref().map_or(String::new(), |g| {
                    format!("  {} every {}s", g.file, g.every)
                }),
                _ => String::new(),
            };
            s.push_str(&format!("{:<width$} {state}{extra}\n", c.name()));
        }
        let limit = self.cluster.replicasets.client;
        s.push_str(&format!(
            "client rate limit: {} requests/s, burst {}, per controller",
            limit.qps, limit.burst
        ));
        let waiting = self.cluster.waiting(Component::ReplicaSet);
        if waiting > 0 {
            s.push_str(&format!("; replicaset has {waiting} request(s) waiting"));
        }
        s.push('\n');
        if self.cluster.kcm.is_some() {
            s.push_str(&self.kcm_report());
        }
        s.push_str(&self.traffic_report().unwrap_or_default());
        s
    }

    pub fn component_state(&self, c: Component) -> &'static str {
        match c {
            Component::Gitops => self.gitops.as_ref().map_or("off", |g| g.state.as_str()),
            _ => self.cluster.state(c).as_str(),
        }
    }

    /// The scenario's workload: the Deployment `web`, the StatefulSet `web`, the first
    /// DaemonSet or the newest Job, whichever exists first in that order.
    pub fn workload(&self) -> Option<(Kind, &Value)> {
        let api = &self.cluster.api;
        api.get(Kind::Deployment, "web")
            .ok()
            .map(|d| (Kind::Deployment, d))
            .or_else(|| {
                api.get(Kind::StatefulSet, "web")
                    .ok()
                    .map(|s| (Kind::StatefulSet, s))
            })
            .or_else(|| {
                api.list(Kind::DaemonSet)
                    .next()
                    .map(|d| (Kind::DaemonSet, d))
            })
            // The newest Job: the one the learner just made.
            .or_else(|| {
                api.list(Kind::Job)
                    .max_by_key(|j| {
                        (
                            obj::str(j, &["metadata", "creationTimestamp"]).unwrap_or(""),
                            obj::name(j),
                        )
                    })
                    .map(|j| (Kind::Job, j))
            })
    }

    /// Whether `c` has anything to work on: the StatefulSet and volume controllers only
    /// where there are StatefulSets or claims (the demo's panel lists them then).
    pub fn component_in_use(&self, c: Component) -> bool {
        match c {
            Component::StatefulSet => self.cluster.api.count(Kind::StatefulSet) > 0,
            Component::Volume => self.cluster.api.count(Kind::PersistentVolumeClaim) > 0,
            Component::DaemonSet => self.cluster.api.count(Kind::DaemonSet) > 0,
            Component::Job | Component::TtlAfterFinished => self.cluster.api.count(Kind::Job) > 0,
            Component::CronJob => self.cluster.api.count(Kind::CronJob) > 0,
            Component::Autoscaler => self.cluster.api.count(Kind::HorizontalPodAutoscaler) > 0,
            _ => true,
        }
    }

    /// A controller's trigger mode and work-queue length (None for writers without an
    /// informer: the kubelet and the syncer).
    pub fn controller_queue(&self, c: Component) -> Option<(Trigger, usize)> {
        self.cluster
            .trigger(c)
            .map(|t| (t, self.cluster.queue_len(c)))
    }

    /// Requests a controller's syncs have made ready and wait to send: its client's rate
    /// limit holds them back.
    pub fn waiting_requests(&self, c: Component) -> usize {
        self.cluster.waiting(c)
    }
}
