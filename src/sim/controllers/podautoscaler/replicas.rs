//! The replica calculator (pkg/controller/podautoscaler/replica_calculator.go, 1.32) for
//! resource metrics: how many pods the current usage asks for, with the 10% tolerance,
//! and with pods that are not ready, not started or have no metrics yet held out of the
//! average and then assumed at their least helpful value, so that the HPA never scales on
//! guesses in the direction the guess pushes.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::sim::metrics::PodMetrics;
use crate::sim::quantity;
use crate::sim::time::{parse_rfc3339, sim_unix};

/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
pub const CPU_INITIALIZATION_PERIOD: i64 = 300;
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
pub const INITIAL_READINESS_DELAY: i64 = 30;

/// One pod's usage as the metrics client sums it (PodMetric): millicores, with the
/// sample's time and window in Unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    pub value: i64,
    pub timestamp: i64,
    pub window: i64,
}

/// PodMetricsInfo: samples by pod name.
pub type PodMetricsInfo = BTreeMap<String, Sample>;

/// The metrics client's GetResourceMetric over what the resource metrics API returned:
/// each pod's CPU summed over its containers, and the first item's timestamp.
pub fn resource_metric(
    items: Result<&[PodMetrics], &str>,
) -> Result<(PodMetricsInfo, i64), String> {
    let items =
        items.map_err(|e| format!("unable to fetch metrics from resource metrics API: {e}"))?;
    let Some(first) = items.first() else {
        return Err("no metrics returned from resource metrics API".into());
    };
    let info = items
        .iter()
        .map(|p| {
            (
                p.pod.clone(),
                Sample {
                    value: p.total(),
                    timestamp: sim_unix(p.timestamp),
                    window: p.window as i64,
                },
            )
        })
        .collect();
    Ok((info, sim_unix(first.timestamp)))
}

/// What groupPods sorts the selected pods into.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Groups {
    pub ready: usize,
    pub unready: Vec<String>,
    pub missing: Vec<String>,
    pub ignored: Vec<String>,
}

fn condition<'a>(pod: &'a Value, t: &str) -> Option<&'a Value> {
    pod["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == t)
}

/// groupPods: deleted and failed pods are ignored; pending pods are unready; pods with no
/// sample are missing; for CPU, a pod is unready while its Ready condition is missing or
/// its start time unknown, or within the first five minutes after it started if it is not
/// Ready or its sample began before it became Ready, and after that only if it is not
/// Ready and never was (it went unready within 30 s of starting).
pub fn group_pods(pods: &[&Value], metrics: &PodMetricsInfo, cpu: bool, now: i64) -> Groups {
    let mut g = Groups::default();
    for pod in pods {
        let name = pod["metadata"]["name"].as_str().unwrap_or("").to_string();
        let phase = pod["status"]["phase"].as_str().unwrap_or("");
        if !pod["metadata"]["deletionTimestamp"].is_null() || phase == "Failed" {
            g.ignored.push(name);
            continue;
        }
        if phase == "Pending" {
            g.unready.push(name);
            continue;
        }
        let Some(sample) = metrics.get(&name) else {
            g.missing.push(name);
            continue;
        };
        if cpu {
            let ready = condition(pod, "Ready");
            let start = pod["status"]["startTime"].as_str().and_then(parse_rfc3339);
            let unready = match (ready, start) {
                (Some(c), Some(start)) => {
                    let status_false = c["status"] == "False";
                    let transition = c["lastTransitionTime"]
                        .as_str()
                        .and_then(parse_rfc3339)
                        .unwrap_or(0);
                    if start + CPU_INITIALIZATION_PERIOD > now {
                        status_false || sample.timestamp < transition + sample.window
                    } else {
                        status_false && start + INITIAL_READINESS_DELAY > transition
                    }
                }
                _ => true,
            };
            if unready {
                g.unready.push(name);
                continue;
            }
        }
        g.ready += 1;
    }
    g
}

/// calculatePodRequests: each pod's CPU request in millicores, summed over its containers
/// (and restartable init containers); every one of them must ask for CPU.
pub fn pod_requests(pods: &[&Value]) -> Result<BTreeMap<String, i64>, String> {
    let mut out = BTreeMap::new();
    for pod in pods {
        let name = pod["metadata"]["name"].as_str().unwrap_or("");
        let sidecars = pod["spec"]["initContainers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["restartPolicy"] == "Always");
        let containers = pod["spec"]["containers"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(sidecars);
        let mut sum = 0i64;
        for c in containers {
            let Some(q) = c.pointer("/resources/requests/cpu") else {
                return Err(format!(
                    "missing request for cpu in container {} of Pod {name}",
                    c["name"].as_str().unwrap_or("")
                ));
            };
            sum = sum.saturating_add(quantity::milli_value(Some(q)).max(0));
        }
        out.insert(name.to_string(), sum);
    }
    Ok(out)
}

/// GetResourceUtilizationRatio: (ratio, utilization %, average millicores) over the pods
/// that have both a sample and a request.
pub fn utilization_ratio(
    metrics: &PodMetricsInfo,
    requests: &BTreeMap<String, i64>,
    target: i32,
) -> Result<(f64, i32, i64), String> {
    let (mut total, mut requested, mut n) = (0i64, 0i64, 0i64);
    for (pod, m) in metrics {
        let Some(r) = requests.get(pod) else { continue };
        total = total.saturating_add(m.value);
        requested = requested.saturating_add(*r);
        n += 1;
    }
    if requested == 0 {
        return Err("no metrics returned matched known pods".into());
    }
    let utilization = (i128::from(total) * 100 / i128::from(requested)) as i32;
    Ok((
        f64::from(utilization) / f64::from(target),
        utilization,
        total / n,
    ))
}

/// GetMetricUsageRatio: (ratio, average millicores) against a target average value.
fn usage_ratio(metrics: &PodMetricsInfo, target: i64) -> (f64, i64) {
    let total: i64 = metrics.values().map(|m| m.value).sum();
    let avg = total / (metrics.len().max(1) as i64);
    (avg as f64 / target as f64, avg)
}

fn ceil(x: f64) -> i32 {
    x.ceil().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
}

/// What the calculator answers: the replicas, and the status it reports (the utilization
/// where the target is one, and the average millicores).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proposal {
    pub replicas: i32,
    pub utilization: Option<i32>,
    pub average: i64,
    pub timestamp: i64,
}

/// The target a resource metric sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// averageUtilization: a percentage of the pods' requests.
    Utilization(i32),
    /// averageValue: millicores per pod.
    AverageValue(i64),
}

/// GetResourceReplicas (a utilization target) and GetRawResourceReplicas with
/// calcPlainMetricReplicas (an average value): the replica count for `current` replicas
/// whose selected pods are `pods` and whose samples are `metrics`.
pub fn resource_replicas(
    current: i32,
    target: Target,
    pods: &[&Value],
    items: Result<&[PodMetrics], &str>,
    now: i64,
) -> Result<Proposal, String> {
    let (mut metrics, timestamp) = resource_metric(items)
        .map_err(|e| format!("unable to get metrics for resource cpu: {e}"))?;
    if pods.is_empty() {
        return Err("no pods returned by selector while calculating replica count".into());
    }
    let g = group_pods(pods, &metrics, true, now);
    for name in g.ignored.iter().chain(&g.unready) {
        metrics.remove(name);
    }
    if metrics.is_empty() {
        return Err("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    let zero = |value| Sample {
        value,
        timestamp: 0,
        window: 0,
    };
    let (ratio, utilization, average, requests, fallback) = match target {
        Target::Utilization(t) => {
            let requests = pod_requests(pods)?;
            let (ratio, u, avg) = utilization_ratio(&metrics, &requests, t)?;
            (ratio, Some(u), avg, requests, i64::from(t.max(100)))
        }
        Target::AverageValue(v) => {
            let (ratio, avg) = usage_ratio(&metrics, v);
            (ratio, None, avg, BTreeMap::new(), v)
        }
    };
    let proposal = |replicas| Proposal {
        replicas,
        utilization,
        average,
        timestamp,
    };
    let scale_up_with_unready = !g.unready.is_empty() && ratio > 1.0;
    if !scale_up_with_unready && g.missing.is_empty() {
        if (1.0 - ratio).abs() <= TOLERANCE {
            return Ok(proposal(current));
        }
        return Ok(proposal(ceil(ratio * g.ready as f64)));
    }
    if !g.missing.is_empty() {
        for name in &g.missing {
            // A scale-down assumes missing pods at 100% of their request (or the target
            // where it is higher), a scale-up at nothing.
            let value = if ratio < 1.0 {
                match target {
                    Target::Utilization(_) => {
                        requests.get(name).copied().unwrap_or(0) * fallback / 100
                    }
                    Target::AverageValue(_) => fallback,
                }
            } else if ratio > 1.0 {
                0
            } else {
                continue;
            };
            metrics.insert(name.clone(), zero(value));
        }
    }
    if scale_up_with_unready {
        for name in &g.unready {
            metrics.insert(name.clone(), zero(0));
        }
    }
    let new_ratio = match target {
        Target::Utilization(t) => utilization_ratio(&metrics, &requests, t)?.0,
        Target::AverageValue(v) => usage_ratio(&metrics, v).0,
    };
    if (1.0 - new_ratio).abs() <= TOLERANCE
        || (ratio < 1.0 && new_ratio > 1.0)
        || (ratio > 1.0 && new_ratio < 1.0)
    {
        return Ok(proposal(current));
    }
    let replicas = ceil(new_ratio * metrics.len() as f64);
    if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
        return Ok(proposal(current));
    }
    Ok(proposal(replicas))
}
