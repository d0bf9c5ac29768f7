//! The `kcm` directive: kube-controller-manager's two replicas, their leader election on
//! the Lease kube-system/kube-controller-manager (see [`crate::sim::kcm`]), and the faults
//! a learner injects: killing, stopping or slowing a replica.

use super::Session;
use crate::sim::directive::{KcmCmd, KcmTarget};
use crate::sim::kcm::{Kcm, State};
use crate::sim::kind::Kind;

const NOT_HA: &str = "error: kube-controller-manager runs as one replica here; `kcm replicas 2` (the leader-election scenario) starts a second and a leader election\n";

impl Session {
    fn kcm_replica(k: &Kcm, t: KcmTarget) -> Result<usize, String> {
        match t {
            KcmTarget::Replica(i) => Ok(i),
            KcmTarget::Leader => k
                .acting()
                .ok_or_else(|| "error: no replica leads right now; `kcm` shows them\n".into()),
        }
    }

    pub(super) fn kcm_directive(&mut self, cmd: KcmCmd) -> Result<String, String> {
        if cmd == KcmCmd::Replicas {
            if self.cluster.kcm.is_some() {
                return Err("error: kube-controller-manager already runs two replicas\n".into());
            }
            self.cluster.start_leader_election();
            return Ok(self.kcm_report());
        }
        let Some(k) = self.cluster.kcm.as_mut() else {
            return Err(NOT_HA.into());
        };
        match cmd {
            KcmCmd::Show => Ok(self.kcm_report()),
            KcmCmd::Logs(which) => {
                let mut out = String::new();
                for (i, r) in k.replicas.iter().enumerate() {
                    if which.is_some_and(|w| w != i) {
                        continue;
                    }
                    for l in &r.log {
                        out.push_str(&format!("{} {l}\n", r.host));
                    }
                }
                Ok(out)
            }
            KcmCmd::Kill(t) | KcmCmd::Stop(t) => {
                let i = Self::kcm_replica(k, t)?;
                if matches!(k.replicas[i].state, State::Down(_)) {
                    return Err(format!("error: {} is already down\n", k.replicas[i].host));
                }
                let kill = matches!(cmd, KcmCmd::Kill(_));
                k.down(i, kill);
                let host = k.replicas[i].host;
                self.cluster.kcm_changed();
                Ok(if kill {
                    format!(
                        "{host}: killed; its kubelet starts it again in 10s, as a new process\n"
                    )
                } else {
                    format!(
                        "{host}: stopped (its static pod manifest moved away); `kcm start {host}` brings it back\n"
                    )
                })
            }
            KcmCmd::Start(i) => {
                if !matches!(k.replicas[i].state, State::Down(None)) {
                    return Err(format!("error: {} is not stopped\n", k.replicas[i].host));
                }
                k.start(i);
                Ok(format!("{}: starting\n", k.replicas[i].host))
            }
            KcmCmd::Slow(t, ms) => {
                let i = Self::kcm_replica(k, t)?;
                k.replicas[i].latency_ms = ms;
                Ok(format!(
                    "{}: each API call now takes {:.1}s (its client gives up on a call at 5s; a leader gives up 10s into a renew poll, 12s after its last successful renewal)\n",
                    k.replicas[i].host,
                    ms as f64 / 1000.0
                ))
            }
            KcmCmd::Replicas => unreachable!("handled above"),
        }
    }

    /// `kcm`: each replica's identity and state, then the Lease.
    pub fn kcm_report(&self) -> String {
        let Some(k) = &self.cluster.kcm else {
            return NOT_HA.into();
        };
        let mut out = String::new();
        for r in &k.replicas {
            let state = match r.state {
                State::Leader => "leader: runs the controllers".to_string(),
                State::Candidate => "standby: waits for the lease".to_string(),
                State::Down(Some(_)) => "down: its kubelet restarts it".to_string(),
                State::Down(None) => "down: stopped".to_string(),
            };
            let slow = if r.latency_ms > 0 {
                format!(", calls take {:.1}s", r.latency_ms as f64 / 1000.0)
            } else {
                String::new()
            };
            out.push_str(&format!("{}  {}  {state}{slow}\n", r.host, r.identity));
        }
        if let Ok(l) = self.cluster.api.get(Kind::Lease, crate::sim::kcm::LEASE) {
            let spec = &l["spec"];
            out.push_str(&format!(
                "lease kube-system/kube-controller-manager: holder {}, renewed {}, transitions {}\n",
                spec["holderIdentity"].as_str().unwrap_or(""),
                spec["renewTime"].as_str().unwrap_or(""),
                spec["leaseTransitions"]
            ));
        }
        out
    }
}
