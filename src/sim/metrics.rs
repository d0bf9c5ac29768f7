//! The resource metrics API (`metrics.k8s.io/v1beta1`), as metrics-server serves it
//! through kube-apiserver's aggregation layer: each running pod's CPU usage per container,
//! as of the last scrape. The demo has no real containers, so the usage comes from loads
//! the learner sets with the `metrics` directive: a per-pod figure or a total shared by the
//! ready pods, each constant or a straight ramp over simulated time.
//!
//! metrics-server scrapes every kubelet every `--metric-resolution` (15 s by default) and
//! reports a CPU rate between two points (pkg/storage/pod.go): a container shows up at its
//! first scrape when it started at least 10 and under 15 s before it (its start is the
//! earlier point), otherwise at its second; a sample's timestamp is its scrape and its window the time
//! since the earlier point.

use serde_json::Value;

use crate::sim::obj;
use crate::sim::quantity;
use crate::sim::time::parse_rfc3339;

/// What kube-apiserver answers for an APIService whose backend is down.
pub const UNAVAILABLE: &str =
    "the server is currently unable to handle the request (get pods.metrics.k8s.io)";

/// metrics-server's `--metric-resolution`.
pub const RESOLUTION: u64 = 15;
/// `freshContainerMinMetricsResolution`: a container's first scrape counts only this
/// long after it started.
const FRESH_MIN: u64 = 10;

/// The window of the sample a container started at `start` has at `scrape`, if it has
/// one yet.
fn window(start: u64, scrape: u64) -> Option<u64> {
    let first = (start / RESOLUTION + 1) * RESOLUTION;
    if scrape == first && (FRESH_MIN..RESOLUTION).contains(&(first - start)) {
        Some(first - start)
    } else if scrape > first {
        Some(RESOLUTION)
    } else {
        None
    }
}

/// How a load divides among the pods it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Every pod uses the figure (a CPU-bound worker per pod).
    PerPod,
    /// The figure is the whole service's demand, shared by its ready pods, so more pods
    /// each use less (as a load balancer spreads requests); pods not ready use none.
    Total,
}

/// Millicores over simulated time: `from` at `start`, moving in a straight line to `to`
/// over `over` seconds, then holding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Curve {
    pub start: u64,
    pub from: i64,
    pub to: i64,
    pub over: u64,
}

impl Curve {
    pub fn constant(start: u64, m: i64) -> Curve {
        Curve {
            start,
            from: m,
            to: m,
            over: 0,
        }
    }

    pub fn at(&self, t: u64) -> i64 {
        let gone = t.saturating_sub(self.start);
        if gone >= self.over {
            return self.to;
        }
        // i128: millicores times seconds cannot overflow.
        let d = i128::from(self.to - self.from) * i128::from(gone) / i128::from(self.over);
        self.from + d as i64
    }
}

/// A load on the pods a workload's selector matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// What the learner named: `deployment/web`.
    pub target: String,
    pub selector: Value,
    pub split: Split,
    pub curve: Curve,
}

/// One pod's sample: its containers' CPU usage in millicores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodMetrics {
    pub pod: String,
    /// The scrape it comes from, in simulated seconds.
    pub timestamp: u64,
    pub window: u64,
    pub containers: Vec<(String, i64)>,
}

impl PodMetrics {
    pub fn total(&self) -> i64 {
        self.containers.iter().map(|c| c.1).sum()
    }
}

#[derive(Debug, Clone, Default)]
pub struct MetricsServer {
    pub loads: Vec<Load>,
    /// metrics-server is down (`metrics down`): the API answers with no metrics at all.
    pub down: bool,
}

/// The last scrape at or before `now`.
pub fn last_scrape(now: u64) -> u64 {
    now - now % RESOLUTION
}

fn ready(pod: &Value) -> bool {
    pod["status"]["conditions"].as_array().is_some_and(|c| {
        c.iter()
            .any(|c| c["type"] == "Ready" && c["status"] == "True")
    }) && pod["metadata"]["deletionTimestamp"].is_null()
}

/// The simulated second a container started running, if it runs.
fn started(status: &Value) -> Option<u64> {
    let at = status["state"]["running"]["startedAt"].as_str()?;
    let unix = parse_rfc3339(at)?;
    u64::try_from(unix - crate::sim::time::sim_unix(0)).ok()
}

impl MetricsServer {
    /// Sets the load on `target`, replacing one already there.
    pub fn set(&mut self, load: Load) {
        self.loads.retain(|l| l.target != load.target);
        self.loads.push(load);
    }

    pub fn remove(&mut self, target: &str) -> bool {
        let before = self.loads.len();
        self.loads.retain(|l| l.target != target);
        before != self.loads.len()
    }

    /// The PodMetrics the API returns for `pods` (already narrowed by the request's
    /// label selector) at `now`: pods whose containers have all been running for two
    /// scrapes; while metrics-server is down, the aggregation layer's 503.
    pub fn pod_metrics(&self, pods: &[&Value], now: u64) -> Result<Vec<PodMetrics>, String> {
        if self.down {
            return Err(UNAVAILABLE.into());
        }
        let scrape = last_scrape(now);
        let mut out = Vec::new();
        for &pod in pods {
            if pod["status"]["phase"] != "Running" {
                continue;
            }
            let statuses = pod["status"]["containerStatuses"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            // The earliest window among the containers: each has its own points.
            let windows: Option<Vec<u64>> = statuses
                .iter()
                .map(|s| started(s).and_then(|t| window(t, scrape)))
                .collect();
            let Some(window) = windows.and_then(|w| w.into_iter().min()) else {
                continue;
            };
            let usage = self.usage(pod, pods, scrape);
            out.push(PodMetrics {
                pod: obj::name(pod).to_string(),
                timestamp: scrape,
                window,
                containers: split_by_request(pod, usage),
            });
        }
        Ok(out)
    }

    /// The whole pod's usage at `t` under the first load that covers it; idle (0m) when
    /// none does.
    fn usage(&self, pod: &Value, pods: &[&Value], t: u64) -> i64 {
        let Some(load) = self
            .loads
            .iter()
            .find(|l| obj::selector_matches(&l.selector, pod))
        else {
            return 0;
        };
        let m = load.curve.at(t).max(0);
        match load.split {
            Split::PerPod => m,
            Split::Total if !ready(pod) => 0,
            Split::Total => {
                let serving = pods
                    .iter()
                    .filter(|p| obj::selector_matches(&load.selector, p) && ready(p))
                    .count()
                    .max(1);
                m / serving as i64
            }
        }
    }
}

/// Shares a pod's usage among its containers in proportion to their CPU requests (equally
/// where none asks), the remainder to the first.
fn split_by_request(pod: &Value, usage: i64) -> Vec<(String, i64)> {
    let containers = pod["spec"]["containers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let requests: Vec<i64> = containers
        .iter()
        .map(|c| quantity::milli_value(c.pointer("/resources/requests/cpu")).max(0))
        .collect();
    let sum: i64 = requests.iter().sum();
    let n = containers.len().max(1) as i64;
    let mut shares: Vec<i64> = requests
        .iter()
        .map(|r| {
            if sum > 0 {
                (i128::from(usage) * i128::from(*r) / i128::from(sum)) as i64
            } else {
                usage / n
            }
        })
        .collect();
    let rest = usage - shares.iter().sum::<i64>();
    if let Some(first) = shares.first_mut() {
        *first += rest;
    }
    containers
        .iter()
        .zip(shares)
        .map(|(c, m)| (c["name"].as_str().unwrap_or("").to_string(), m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_ramp_moves_in_a_straight_line_then_holds() {
        let c = Curve {
            start: 100,
            from: 100,
            to: 500,
            over: 40,
        };
        assert_eq!(c.at(50), 100);
        assert_eq!(c.at(100), 100);
        assert_eq!(c.at(110), 200);
        assert_eq!(c.at(140), 500);
        assert_eq!(c.at(1_000), 500);
    }

    fn pod(name: &str, started: &str, ready: bool) -> Value {
        json!({
            "metadata": {"name": name, "labels": {"app": "web"}},
            "spec": {"containers": [
                {"name": "app", "resources": {"requests": {"cpu": "300m"}}},
                {"name": "sidecar", "resources": {"requests": {"cpu": "100m"}}},
            ]},
            "status": {
                "phase": "Running",
                "conditions": [{"type": "Ready", "status": if ready {"True"} else {"False"}}],
                "containerStatuses": [
                    {"name": "app", "state": {"running": {"startedAt": started}}},
                    {"name": "sidecar", "state": {"running": {"startedAt": started}}},
                ],
            },
        })
    }

    #[test]
    fn a_total_load_is_shared_by_ready_pods_and_new_containers_wait_for_two_scrapes() {
        let mut m = MetricsServer::default();
        m.set(Load {
            target: "deployment/web".into(),
            selector: json!({"matchLabels": {"app": "web"}}),
            split: Split::Total,
            curve: Curve::constant(0, 800),
        });
        // Started at 0 s, 33 s and 40 s; the last scrape before 47 s is at 45 s.
        let pods = [
            pod("a", "2025-01-06T10:00:00Z", true),
            pod("b", "2025-01-06T10:00:33Z", true),
            pod("c", "2025-01-06T10:00:40Z", false),
        ];
        let all: Vec<&Value> = pods.iter().collect();
        let got = m.pod_metrics(&all, 47).unwrap();
        let names: Vec<&str> = got.iter().map(|p| p.pod.as_str()).collect();
        // b started 12 s before the scrape at 45 s, so its start serves as the earlier
        // point; c only 5 s before, so it waits for the scrape at 60 s.
        assert_eq!(names, ["a", "b"]);
        assert_eq!((got[0].window, got[1].window), (15, 12));
        assert_eq!(m.pod_metrics(&all, 60).unwrap().len(), 3);
        // Two ready pods share 800m; the containers split 400m by their requests, 3:1.
        assert_eq!(
            got[0].containers,
            [("app".into(), 300), ("sidecar".into(), 100)]
        );
        assert_eq!(got[0].timestamp, 45);
        m.down = true;
        assert_eq!(m.pod_metrics(&all, 47), Err(UNAVAILABLE.to_string()));
    }
}
