//! The `metrics` directive: the CPU a workload's pods use, as metrics-server will report
//! it to the HPA (see [`crate::sim::metrics`]), and `autoscaler N`, which sets the load on
//! the HPA `web`'s target so that its algorithm recommends N replicas.

use super::Session;
use crate::sim::directive::MetricsCmd;
use crate::sim::kind::Kind;
use crate::sim::metrics::{Curve, Load, Split, last_scrape};
use crate::sim::obj;

/// Formats millicores as `kubectl top` does: `250m`.
fn m(v: i64) -> String {
    format!("{v}m")
}

impl Session {
    /// `deploy/web`, `sts/web` or a bare name (a Deployment): the workload and its
    /// selector.
    fn loaded_workload(&self, target: &str) -> Result<(String, serde_json::Value), String> {
        let (kind, name) = match target.split_once('/') {
            Some((k, n)) => (
                Kind::parse(k)
                    .filter(|k| {
                        matches!(
                            k,
                            Kind::Deployment | Kind::StatefulSet | Kind::ReplicaSet | Kind::DaemonSet
                        )
                    })
                    .ok_or_else(|| {
                        format!("error: `{k}`: metrics take a Deployment, StatefulSet, ReplicaSet or DaemonSet\n")
                    })?,
                n,
            ),
            None => (Kind::Deployment, target),
        };
        let w = self
            .cluster
            .api
            .get(kind, name)
            .map_err(|_| format!("error: there is no {} {name}\n", kind.kind_name()))?;
        Ok((
            format!("{}/{name}", kind.kind_name().to_ascii_lowercase()),
            w["spec"]["selector"].clone(),
        ))
    }

    pub(super) fn metrics_directive(&mut self, cmd: MetricsCmd) -> Result<String, String> {
        let now = self.cluster.now();
        match cmd {
            MetricsCmd::Show => Ok(self.metrics_report()),
            MetricsCmd::Down(down) => {
                self.cluster.api.metrics.down = down;
                Ok(if down {
                    "metrics-server: down; the resource metrics API returns no pod metrics\n"
                } else {
                    "metrics-server: up; pods report again from their next scrapes\n"
                }
                .into())
            }
            MetricsCmd::Idle(target) => {
                let (key, _) = self.loaded_workload(&target)?;
                if self.cluster.api.metrics.remove(&key) {
                    Ok(format!("metrics: {key}'s pods are idle (0m)\n"))
                } else {
                    Err(format!("error: no load is set on {key}\n"))
                }
            }
            MetricsCmd::Set {
                target,
                total,
                from,
                to,
                over,
            } => {
                let (key, selector) = self.loaded_workload(&target)?;
                let split = if total { Split::Total } else { Split::PerPod };
                self.cluster.api.metrics.set(Load {
                    target: key.clone(),
                    selector,
                    split,
                    curve: Curve {
                        start: now,
                        from,
                        to,
                        over,
                    },
                });
                let how = if total {
                    "shared by its ready pods"
                } else {
                    "each pod"
                };
                let ramp = if over > 0 {
                    format!(" moving to {} over {over}s", m(to))
                } else {
                    String::new()
                };
                Ok(format!(
                    "metrics: {key} uses {}{ramp}, {how}; metrics-server reports it from its next scrape (every 15s)\n",
                    m(from)
                ))
            }
        }
    }

    /// `autoscaler N`: the HPA `web` on the Deployment web (made the first time: 1 to 10
    /// replicas, or N if more, each pod to average 100m of CPU), and a load on web's pods
    /// that its algorithm answers with N: N pods' worth at the HPA's target.
    pub(super) fn autoscaler_target(&mut self, n: u32) -> Result<String, String> {
        let now = self.cluster.now();
        let api = &mut self.cluster.api;
        let Ok(web) = api.get(Kind::Deployment, "web") else {
            return Err("error: there is no Deployment web to autoscale\n".into());
        };
        let template = web["spec"]["template"]["spec"].clone();
        let selector = web["spec"]["selector"].clone();
        let made = api.get(Kind::HorizontalPodAutoscaler, "web").is_err();
        if made {
            let hpa = serde_json::json!({
                "apiVersion": "autoscaling/v2",
                "kind": "HorizontalPodAutoscaler",
                "metadata": {"name": "web"},
                "spec": {
                    "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                    "minReplicas": 1,
                    "maxReplicas": n.max(10),
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu",
                        "target": {"type": "AverageValue", "averageValue": "100m"}}}],
                },
            });
            api.as_manager("kubectl-create", None, |api| {
                api.create(Kind::HorizontalPodAutoscaler, hpa, now)
            })
            .map_err(|e| format!("error: {}\n", e.message))?;
        }
        let hpa = api
            .get(Kind::HorizontalPodAutoscaler, "web")
            .map_err(|e| format!("error: {}\n", e.message))?;
        let target = &hpa["spec"]["metrics"][0]["resource"]["target"];
        let per_pod = if let Some(v) = target.get("averageValue").filter(|v| !v.is_null()) {
            crate::sim::quantity::milli_value(Some(v))
        } else {
            let requested: i64 = template["containers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| crate::sim::quantity::milli_value(c.pointer("/resources/requests/cpu")))
                .sum();
            requested * target["averageUtilization"].as_i64().unwrap_or(0) / 100
        };
        let max = hpa["spec"]["maxReplicas"].as_i64().unwrap_or(0);
        let load = i64::from(n) * per_pod;
        api.metrics.set(Load {
            target: "deployment/web".into(),
            selector,
            split: Split::Total,
            curve: Curve::constant(now, load),
        });
        let intro = if made {
            format!("HorizontalPodAutoscaler web made (1 to {max} replicas, 100m of CPU a pod); ")
        } else {
            String::new()
        };
        let capped = if i64::from(n) > max {
            format!(" (it stops at maxReplicas {max})")
        } else {
            String::new()
        };
        Ok(format!(
            "autoscaler: {intro}web's pods now share {load}m of CPU, what {n} replicas use at the HPA's target{capped}; it syncs every 15s, scales up at once and down after 5 minutes of lower recommendations\n"
        ))
    }

    /// `metrics`: each load, then each pod's last sample.
    pub fn metrics_report(&self) -> String {
        let api = &self.cluster.api;
        let now = self.cluster.now();
        let mut out = String::new();
        if api.metrics.down {
            out.push_str("metrics-server: down\n");
        }
        for l in &api.metrics.loads {
            let how = match l.split {
                Split::PerPod => "each pod",
                Split::Total => "shared by the ready pods",
            };
            out.push_str(&format!(
                "{}: {} now, {how}{}\n",
                l.target,
                m(l.curve.at(now)),
                if l.curve.at(now) != l.curve.to {
                    format!(", moving to {}", m(l.curve.to))
                } else {
                    String::new()
                }
            ));
        }
        if api.metrics.loads.is_empty() {
            out.push_str("no loads set: every pod is idle (0m)\n");
        }
        let pods: Vec<&serde_json::Value> = api
            .list(Kind::Pod)
            .filter(|p| p["status"]["phase"] == "Running")
            .collect();
        let samples = api.metrics.pod_metrics(&pods, now).unwrap_or_default();
        out.push_str(&format!(
            "pod metrics as of the scrape at {}s:\n",
            last_scrape(now)
        ));
        for p in &pods {
            let name = obj::name(p);
            match samples.iter().find(|s| s.pod == name) {
                Some(s) => out.push_str(&format!("  {name}  {}\n", m(s.total()))),
                None => out.push_str(&format!("  {name}  (no metrics yet)\n")),
            }
        }
        out
    }
}
