//! The writer a scenario adds beside the controllers: the GitOps syncer, re-applying a
//! manifest on its own period.

use super::Session;
use crate::sim::directive::ApplyMode;
use crate::sim::informer::RunState;
use crate::sim::kubectl::{args, exec};

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
}
