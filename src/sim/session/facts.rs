//! What a challenge goal can ask a running demo (the [`Facts`] of `goal`): the live
//! objects behind `deploy`, `rs`, `newrs`, `oldrs` and `pdb`, and the demo's counters.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::Session;
use crate::sim::directive::{Component, Trigger};
use crate::sim::goal::{CallArg, Facts, Func, Root};
use crate::sim::kind::Kind;
use crate::sim::obj;

impl Facts for Session {
    fn object(&self, root: Root) -> Option<&Value> {
        match root {
            Root::Deploy => self.cluster.api.get(Kind::Deployment, "web").ok(),
            Root::Pdb => self.cluster.api.get(Kind::PodDisruptionBudget, "web").ok(),
            Root::Sts => self.cluster.api.get(Kind::StatefulSet, "web").ok(),
            Root::Ds => self.cluster.api.get(Kind::DaemonSet, "agent").ok(),
            Root::Hpa => self
                .cluster
                .api
                .get(Kind::HorizontalPodAutoscaler, "web")
                .ok(),
            Root::WebApp => self.webapp_view.as_ref(),
            Root::Crd => self
                .cluster
                .api
                .get(Kind::CustomResourceDefinition, "webapps.example.com")
                .ok(),
            Root::Rs => self.cluster.api.list(Kind::ReplicaSet).next(),
            Root::NewRs => self.newest_rs(false),
            Root::OldRs => {
                let new = self.newest_rs(false).map(obj::name);
                self.newest_rs(true).filter(|rs| Some(obj::name(rs)) != new)
            }
        }
    }

    fn call(&self, func: Func, args: &[CallArg]) -> Value {
        let s = |i: usize| match args.get(i) {
            Some(CallArg::Str(s)) => s.as_str(),
            _ => "",
        };
        let count = |m: &HashMap<String, u64>, k: &str| json!(m.get(k).copied().unwrap_or(0));
        match func {
            Func::Pods => {
                let pods = self.cluster.api.list_shared(Kind::Pod);
                let n = match s(0) {
                    "ready" => pods.filter(|p| p.pod().active && p.pod().ready).count(),
                    "pending" => pods
                        .filter(|p| p.pod().active && p.pod_phase() == Some("Pending"))
                        .count(),
                    "running" => pods
                        .filter(|p| p.pod().active && p.pod_phase() == Some("Running"))
                        .count(),
                    "terminating" => pods.filter(|p| p.facts().deleting).count(),
                    // Waiting for the scheduler: no node yet.
                    "unscheduled" => pods
                        .filter(|p| p.pod().active && p.pod_node().is_none())
                        .count(),
                    // A container waiting out the kubelet's restart back-off.
                    "crashloop" => pods
                        .filter(|p| {
                            p.pod().active
                                && p.field("status").is_some_and(|s| {
                                    s["containerStatuses"].as_array().is_some_and(|cs| {
                                        cs.iter().any(|c| {
                                            c["state"]["waiting"]["reason"] == "CrashLoopBackOff"
                                        })
                                    })
                                })
                        })
                        .count(),
                    // Whose containers declare a startup probe.
                    "startup-probe" => pods
                        .filter(|p| {
                            p.pod().active
                                && p.unfilled("spec").is_some_and(|s| {
                                    s["containers"].as_array().is_some_and(|cs| {
                                        cs.iter().any(|c| c["startupProbe"].is_object())
                                    })
                                })
                        })
                        .count(),
                    // On one node: `node:node-3`.
                    other if other.starts_with("node:") => pods
                        .filter(|p| p.pod().active && p.pod_node() == other.strip_prefix("node:"))
                        .count(),
                    _ => pods.filter(|p| p.pod().active).count(),
                };
                json!(n)
            }
            Func::ReplicaSets => json!(self.cluster.api.count(Kind::ReplicaSet)),
            // The kube-controller-manager replica that leads (kcm-1, kcm-2), "" when none
            // does; how many times a leader lost its lease; the Lease's transitions.
            Func::Leader => json!(
                self.cluster
                    .kcm
                    .as_ref()
                    .and_then(|k| k.acting().map(|i| k.replicas[i].host))
                    .unwrap_or("")
            ),
            Func::Lost => json!(
                self.cluster.kcm.as_ref().map_or(0, |k| k
                    .replicas
                    .iter()
                    .map(|r| r.lost)
                    .sum::<u64>())
            ),
            // Admission webhooks configured (by failurePolicy, or whose server answers),
            // and what admission did with requests so far.
            Func::Webhooks => json!(self.webhooks_counted(s(0))),
            Func::Operator => json!(self.operator_fact(s(0))),
            Func::Etcd => {
                // The WebApp shop as stored, not as read: no defaults or pruning since.
                self.webapp_kind()
                    .and_then(|k| self.cluster.api.get(k, "shop").ok())
                    .and_then(|o| s(0).split('.').try_fold(o, |v, key| v.get(key)))
                    .cloned()
                    .unwrap_or(Value::Null)
            }
            Func::Encoded => {
                json!(
                    self.webapp_kind()
                        .map_or(0, |k| self.cluster.api.stored_at(k, s(0)))
                )
            }
            Func::Stored | Func::Served => {
                let has = Facts::object(self, Root::Crd).is_some_and(|c| match func {
                    Func::Stored => c
                        .pointer("/status/storedVersions")
                        .and_then(Value::as_array)
                        .is_some_and(|a| a.iter().any(|v| v == s(0))),
                    _ => c
                        .pointer("/spec/versions")
                        .and_then(Value::as_array)
                        .is_some_and(|a| {
                            a.iter().any(|v| v["name"] == s(0) && v["served"] == true)
                        }),
                });
                json!(u8::from(has))
            }
            Func::Admission => {
                let a = &self.cluster.api.admission;
                json!(match s(0) {
                    "denied" => a.denied,
                    "failed-open" => a.failed_open,
                    "timeouts" => a.timeouts,
                    "mutated" => a.mutated,
                    "policy-denied" => a.policy_denied,
                    _ => a.refused,
                })
            }
            Func::Takeovers => json!(
                self.cluster
                    .api
                    .get(Kind::Lease, crate::sim::kcm::LEASE)
                    .ok()
                    .and_then(|l| l["spec"]["leaseTransitions"].as_i64())
                    .unwrap_or(0)
            ),
            // The CPU utilization the HPA web last measured; -1 before it has one.
            Func::Utilization => json!(
                self.cluster
                    .api
                    .get(Kind::HorizontalPodAutoscaler, "web")
                    .ok()
                    .and_then(|h| h
                        .pointer("/status/currentMetrics/0/resource/current/averageUtilization"))
                    .and_then(Value::as_i64)
                    .unwrap_or(-1)
            ),
            Func::Restarts => json!(
                self.cluster
                    .api
                    .list_shared(Kind::Pod)
                    .filter(|p| p.pod().active)
                    .map(|p| p.pod().restarts)
                    .sum::<i64>()
            ),
            Func::Events => json!(
                self.cluster
                    .api
                    .list(Kind::Event)
                    .filter(|e| e["reason"] == s(0))
                    .map(|e| e["count"].as_i64().unwrap_or(1))
                    .sum::<i64>()
            ),
            Func::Errors => count(&self.counters.errors, s(0)),
            Func::Ran => count(&self.counters.ran, s(0)),
            Func::Deleted => json!(self.counters.deleted_pods),
            Func::Created => json!(self.cluster.replicasets.created),
            Func::Changes | Func::Stable => {
                let Some(CallArg::Value(op)) = args.first() else {
                    return Value::Null;
                };
                let Some(t) = self.tracks.get(&op.to_string()) else {
                    return json!(0);
                };
                if func == Func::Changes {
                    return json!(t.changes);
                }
                let n = match args.get(1) {
                    Some(CallArg::Num(n)) => *n as u64,
                    _ => 0,
                };
                let now = self.cluster.now();
                json!(now >= t.changed_at + n && now >= self.start + n)
            }
            Func::Managers => json!(self.field_owners(s(0)).len()),
            Func::Owner => {
                let owners = self.field_owners(s(0));
                json!(if owners.len() == 1 {
                    owners[0].clone()
                } else {
                    String::new()
                })
            }
            Func::Controller => {
                json!(Component::parse(s(0)).map_or("", |c| self.component_state(c)))
            }
            Func::Trigger => json!(match Component::parse(s(0))
                .and_then(|c| self.cluster.trigger(c))
            {
                Some(Trigger::Level) => "level",
                Some(Trigger::Edge) => "edge",
                None => "",
            }),
            Func::Dropped => json!(self.cluster.dropped()),
            Func::Forged => json!(self.counters.forged),
            Func::Time => json!(self.cluster.now() - self.start),
            Func::Deployments => json!(self.cluster.api.count(Kind::Deployment)),
            Func::Orphans => {
                let kind = if s(0) == "replicasets" {
                    Kind::ReplicaSet
                } else {
                    Kind::Pod
                };
                json!(
                    self.cluster
                        .api
                        .list(kind)
                        .filter(|o| !obj::is_deleting(o) && obj::controller_uid(o).is_none())
                        .count()
                )
            }
            Func::Survivors => json!(
                self.cluster
                    .api
                    .list_shared(Kind::Pod)
                    .filter(|p| p.pod().active && self.survivors.contains(p.uid()))
                    .count()
            ),
            Func::Nodes => {
                let ready = |n: &Value| {
                    n.pointer("/status/conditions")
                        .and_then(Value::as_array)
                        .and_then(|cs| cs.iter().find(|c| c["type"] == "Ready"))
                        .is_some_and(|c| c["status"] == "True")
                };
                let nodes = self.cluster.api.list(Kind::Node);
                let n = match s(0) {
                    "ready" => nodes.filter(|n| ready(n)).count(),
                    "notready" => nodes.filter(|n| !ready(n)).count(),
                    "unschedulable" => nodes
                        .filter(|n| n.pointer("/spec/unschedulable") == Some(&Value::Bool(true)))
                        .count(),
                    "tainted" => nodes
                        .filter(|n| !crate::sim::taints::of_node(n).is_empty())
                        .count(),
                    _ => nodes.count(),
                };
                json!(n)
            }
            Func::Endpoints => {
                let cond = |e: &Value, c: &str| e["conditions"][c].as_bool() == Some(true);
                let n = self
                    .cluster
                    .api
                    .list(Kind::EndpointSlice)
                    .filter(|sl| {
                        sl["metadata"]["labels"][crate::sim::kinds::service::SERVICE_NAME_LABEL]
                            == "web"
                    })
                    .flat_map(|sl| sl["endpoints"].as_array().into_iter().flatten())
                    .filter(|e| match s(0) {
                        "" => true,
                        "notready" => !cond(e, "ready"),
                        c => cond(e, c),
                    })
                    .count();
                json!(n)
            }
            Func::StatefulSets => json!(self.cluster.api.count(Kind::StatefulSet)),
            Func::Revisions => json!(self.cluster.api.count(Kind::ControllerRevision)),
            Func::Claims => {
                // A claim is in use while some pod mounts it.
                let used = |c: &Value| {
                    self.cluster.api.list(Kind::Pod).any(|p| {
                        p["spec"]["volumes"].as_array().is_some_and(|vs| {
                            vs.iter().any(|v| {
                                v["persistentVolumeClaim"]["claimName"] == c["metadata"]["name"]
                            })
                        })
                    })
                };
                let n = self
                    .cluster
                    .api
                    .list(Kind::PersistentVolumeClaim)
                    .filter(|c| match s(0) {
                        "bound" => !obj::is_deleting(c) && c["status"]["phase"] == "Bound",
                        "terminating" => obj::is_deleting(c),
                        "unused" => !obj::is_deleting(c) && !used(c),
                        _ => !obj::is_deleting(c),
                    })
                    .count();
                json!(n)
            }
            Func::Jobs => {
                // STATUS as `kubectl get jobs` prints it.
                let now = self.cluster.now();
                let n = self
                    .cluster
                    .api
                    .list(Kind::Job)
                    .filter(|j| {
                        s(0).is_empty()
                            || crate::sim::table::rows::job(*j, now)[1].to_ascii_lowercase() == s(0)
                    })
                    .count();
                json!(n)
            }
            Func::Traffic => {
                let t = self.traffic.as_ref();
                match s(0) {
                    "answered" => json!(t.map_or(0, |t| t.total_ok)),
                    _ => json!(t.map_or(0, |t| t.total_errors)),
                }
            }
            Func::Annotated => json!(
                self.cluster
                    .api
                    .list_shared(Kind::Pod)
                    .filter(|p| {
                        p.pod().active && p.meta("annotations").and_then(|a| a.get(s(0))).is_some()
                    })
                    .count()
            ),
        }
    }
}
