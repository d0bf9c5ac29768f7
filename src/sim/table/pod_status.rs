//! `printPod`'s READY, STATUS and RESTARTS cells (kubectl 1.32 printers.go).

use super::fields::{Lookup, array_at, at, bool_at, int_at, str_at};
use crate::sim::time;
use serde_json::Value;

pub struct PodCells {
    pub ready: String,
    pub status: String,
    pub restarts: String,
}

fn has_condition<T: Lookup + ?Sized>(pod: &T, kind: &str, status: &str) -> bool {
    array_at(pod, &["status", "conditions"])
        .iter()
        .any(|c| str_at(c, &["type"]) == kind && str_at(c, &["status"]) == status)
}

/// Latest `lastState.terminated.finishedAt` as unix seconds.
fn track_finished(status: &Value, latest: &mut Option<i64>) {
    let finished = str_at(status, &["lastState", "terminated", "finishedAt"]);
    if let Some(t) = time::parse_rfc3339(finished) {
        *latest = Some(latest.map_or(t, |l| l.max(t)));
    }
}

fn terminated_reason(term: &Value, prefix: &str) -> String {
    let reason = str_at(term, &["reason"]);
    if !reason.is_empty() {
        return format!("{prefix}{reason}");
    }
    let signal = int_at(term, &["signal"]);
    if signal != 0 {
        format!("{prefix}Signal:{signal}")
    } else {
        format!("{prefix}ExitCode:{}", int_at(term, &["exitCode"]))
    }
}

pub fn pod_cells<T: Lookup + ?Sized>(pod: &T, now: u64) -> PodCells {
    let init_specs = array_at(pod, &["spec", "initContainers"]);
    let is_sidecar = |name: &str| {
        init_specs
            .iter()
            .any(|c| str_at(c, &["name"]) == name && str_at(c, &["restartPolicy"]) == "Always")
    };
    let sidecars = init_specs
        .iter()
        .filter(|c| str_at(c, &["restartPolicy"]) == "Always")
        .count();
    let total = array_at(pod, &["spec", "containers"]).len() + sidecars;
    let mut ready = 0;
    let mut restarts = 0;
    let mut last_restart: Option<i64> = None;
    let mut reason = match str_at(pod, &["status", "reason"]) {
        "" => str_at(pod, &["status", "phase"]).to_string(),
        r => r.to_string(),
    };
    if array_at(pod, &["status", "conditions"]).iter().any(|c| {
        str_at(c, &["type"]) == "PodScheduled" && str_at(c, &["reason"]) == "SchedulingGated"
    }) {
        reason = "SchedulingGated".to_string();
    }

    let mut initializing = false;
    let (mut sidecar_restarts, mut sidecar_last) = (0, None);
    let init_statuses = array_at(pod, &["status", "initContainerStatuses"]);
    for (i, ic) in init_statuses.iter().enumerate() {
        let restart_count = int_at(ic, &["restartCount"]);
        restarts += restart_count;
        track_finished(ic, &mut last_restart);
        let name = str_at(ic, &["name"]);
        if is_sidecar(name) {
            sidecar_restarts += restart_count;
            track_finished(ic, &mut sidecar_last);
        }
        let terminated = at(ic, &["state", "terminated"]);
        if terminated.is_some_and(|t| int_at(t, &["exitCode"]) == 0) {
            continue;
        }
        if is_sidecar(name) && bool_at(ic, &["started"]) {
            if bool_at(ic, &["ready"]) {
                ready += 1;
            }
            continue;
        }
        let waiting = str_at(ic, &["state", "waiting", "reason"]);
        reason = if let Some(t) = terminated {
            terminated_reason(t, "Init:")
        } else if !waiting.is_empty() && waiting != "PodInitializing" {
            format!("Init:{waiting}")
        } else {
            format!("Init:{i}/{}", init_specs.len())
        };
        initializing = true;
        break;
    }

    if !initializing || has_condition(pod, "Initialized", "True") {
        restarts = sidecar_restarts;
        last_restart = sidecar_last;
        let mut has_running = false;
        let statuses = array_at(pod, &["status", "containerStatuses"]);
        // Reversed so the first container's state wins.
        for c in statuses.iter().rev() {
            restarts += int_at(c, &["restartCount"]);
            track_finished(c, &mut last_restart);
            let waiting = str_at(c, &["state", "waiting", "reason"]);
            let terminated = at(c, &["state", "terminated"]);
            if !waiting.is_empty() {
                reason = waiting.to_string();
            } else if let Some(t) = terminated {
                reason = terminated_reason(t, "");
            } else if bool_at(c, &["ready"]) && at(c, &["state", "running"]).is_some() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if has_condition(pod, "Ready", "True") {
                "Running".to_string()
            } else {
                "NotReady".to_string()
            };
        }
    }

    let deleting = !str_at(pod, &["metadata", "deletionTimestamp"]).is_empty();
    let phase = str_at(pod, &["status", "phase"]);
    if deleting && str_at(pod, &["status", "reason"]) == "NodeLost" {
        reason = "Unknown".to_string();
    } else if deleting && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".to_string();
    }

    let restarts = match last_restart {
        Some(t) if restarts != 0 => {
            format!(
                "{restarts} ({} ago)",
                time::human_duration(time::sim_unix(now) - t)
            )
        }
        _ => restarts.to_string(),
    };
    PodCells {
        ready: format!("{ready}/{total}"),
        status: reason,
        restarts,
    }
}
