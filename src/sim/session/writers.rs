//! The writers a scenario adds beside the controllers: the autoscaler, standing in for a
//! HorizontalPodAutoscaler, and the GitOps syncer, each on its own period.

use serde_json::json;

use super::Session;
use crate::sim::directive::ApplyMode;
use crate::sim::informer::RunState;
use crate::sim::kind::Kind;
use crate::sim::kubectl::{args, exec};
use crate::sim::obj;

/// The autoscaler stand-in: its metrics want `target` replicas; like the HPA it acts on a
/// 15 second sync period and writes `/scale` as kube-controller-manager.
#[derive(Debug, Clone)]
pub(super) struct Autoscaler {
    pub(super) target: u32,
    pub(super) next_at: u64,
    /// pause/crash stop it without losing its configuration (the HPA object stays).
    pub(super) state: RunState,
}

pub(super) const HPA_PERIOD: u64 = 15;

#[derive(Debug, Clone)]
pub(super) struct Gitops {
    pub(super) every: u64,
    pub(super) mode: ApplyMode,
    pub(super) file: String,
    pub(super) next_at: u64,
    /// pause/crash stop it without losing its configuration (it lives in git).
    pub(super) state: RunState,
}

impl Session {
    pub(super) fn run_writers(&mut self, now: u64) {
        if let Some(a) = self.autoscaler.clone()
            && a.state == RunState::Running
            && now >= a.next_at
        {
            self.autoscaler = Some(Autoscaler {
                next_at: now + HPA_PERIOD,
                ..a.clone()
            });
            if let Ok(d) = self.cluster.api.get(Kind::Deployment, "web")
                && let Some(current) = obj::int(d, &["spec", "replicas"])
                && current != i64::from(a.target)
            {
                let mut next = d.clone();
                next["spec"]["replicas"] = json!(a.target);
                // G1: the HPA writes /scale from inside kube-controller-manager.
                let scaled =
                    self.cluster
                        .api
                        .as_manager("kube-controller-manager", Some("scale"), |api| {
                            api.update(Kind::Deployment, next, None).is_ok()
                        });
                if scaled {
                    self.record_rescale(current, a.target, now);
                }
            }
        }
        if let Some(g) = self.gitops.clone()
            && g.state == RunState::Running
            && now >= g.next_at
        {
            self.gitops = Some(Gitops {
                next_at: now + g.every,
                ..g.clone()
            });
            let cmd = args::Command::Apply {
                file: g.file.clone(),
                validate: args::FieldValidation::Strict,
                server_side: g.mode == ApplyMode::ServerSide,
                field_manager: Some("gitops-syncer".into()),
                force_conflicts: g.mode == ApplyMode::ServerSide,
                output: None,
            };
            let _ = exec::run(&mut self.cluster, &self.files, &cmd);
        }
    }

    /// The HPA's event for a rescale it made (horizontal.go: `SuccessfulRescale`, "New size:
    /// N; reason: R"), about the HorizontalPodAutoscaler `web` the autoscaler stands in
    /// for. Its metric is a CPU utilization target, as in the field-fight scenario.
    fn record_rescale(&mut self, current: i64, target: u32, now: u64) {
        let reason = if i64::from(target) > current {
            "cpu resource utilization (percentage of request) above target"
        } else {
            "All metrics below target"
        };
        let hpa = json!({"metadata": {
            "name": "web",
            "uid": crate::sim::api::derived_uid("horizontalpodautoscaler/web"),
        }});
        let message = format!("New size: {target}; reason: {reason}");
        self.cluster.api.record_event(
            &hpa,
            crate::sim::api::HORIZONTAL_POD_AUTOSCALER,
            crate::sim::api::Note {
                type_: "Normal",
                reason: "SuccessfulRescale",
                message: &message,
                component: "horizontal-pod-autoscaler",
                field_path: None,
            },
            now,
        );
    }
}
