//! `kubectl cordon`, `uncordon` and `drain` (kubectl 1.32 pkg/cmd/drain and pkg/drain).
//!
//! cordon and uncordon patch `spec.unschedulable` and print `node/NAME cordoned` (or
//! `already cordoned`). drain cordons every node first, then for each node lists its pods,
//! runs kubectl's filters (mirror pods skipped; DaemonSet pods, pods with local storage
//! and pods no controller owns refused unless a flag allows them), and evicts each pod
//! through the Eviction API: a 429 from a PodDisruptionBudget is printed and retried
//! every 5 seconds, an evicted pod is waited for (polled every second) until it is gone.
//! `--disable-eviction` deletes instead, past every budget. kubectl does all of this in
//! real time; here the simulated clock moves a second per step (see [`super::wait`]), so
//! the cluster's controllers replace and reschedule pods while drain waits.

use super::args::{DrainOpts, DryRun, Nodes};
use super::cmdutil::Outcome;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::status::{ApiError, Reason};

/// How long a drain without `--timeout` may go on in the demo: kubectl would retry for
/// ever.
pub const DRAIN_CAP: u64 = 600;
/// kubectl's pause between two evictions a budget refused.
const RETRY_SECONDS: u64 = 5;

/// The nodes a node command names or selects, or kubectl's error for one that does not
/// exist.
fn node_names(cluster: &Cluster, nodes: &Nodes) -> Result<Vec<String>, Outcome> {
    let mut names = Vec::new();
    for n in &nodes.names {
        if cluster.api.get(Kind::Node, n).is_err() {
            return Err(Outcome::default().api_error(&ApiError::not_found(Kind::Node, n), None));
        }
        names.push(n.clone());
    }
    if let Some(sel) = &nodes.selector {
        for n in cluster.api.list(Kind::Node) {
            let labels = &n["metadata"]["labels"];
            if obj::label_query_matches_labels(sel, Some(labels)) {
                names.push(obj::name(n).to_string());
            }
        }
    }
    Ok(names)
}

/// `RunCordonOrUncordon`.
pub fn cordon(cluster: &mut Cluster, nodes: &Nodes, desired: bool, dry_run: DryRun) -> Outcome {
    let names = match node_names(cluster, nodes) {
        Ok(n) => n,
        Err(o) => return o,
    };
    let mut out = Outcome::default();
    let word = if desired { "cordoned" } else { "uncordoned" };
    for name in names {
        let Ok(node) = cluster.api.get(Kind::Node, &name) else {
            continue;
        };
        let current = node["spec"]["unschedulable"] == true;
        if current == desired {
            out = out.out(format!("node/{name} already {word}\n"));
            continue;
        }
        if dry_run != DryRun::Client {
            let mut next = node.clone();
            if desired {
                next["spec"]["unschedulable"] = serde_json::json!(true);
            } else if let Some(spec) = next["spec"].as_object_mut() {
                // The strategic merge patch sets `unschedulable: false`, which is the
                // field's zero value and so not stored.
                spec.remove("unschedulable");
            }
            if dry_run == DryRun::None
                && let Err(e) = cluster.api.update(Kind::Node, next, None)
            {
                let verb = if desired { "cordon" } else { "uncordon" };
                out = out.warn(format!("error: unable to {verb} node {name:?}: {e}\n"));
                continue;
            }
        }
        out = out.out(format!("node/{name} {word}{}\n", dry_run.suffix()));
    }
    out
}

/// Where one pod of a drain stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PodState {
    /// To be evicted at this second of the drain.
    Evict(u64),
    /// Evicted (or deleted); waiting until it is gone.
    Gone,
    Done,
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct PodDrain {
    name: String,
    uid: String,
    state: PodState,
}

/// A drain under way: the nodes still to drain, the one being drained, and the time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrainWait {
    nodes: Vec<String>,
    opts: DrainOpts,
    current: Option<(String, Vec<PodDrain>, u64)>,
    waited: u64,
}

/// `drain`: every node cordoned, then drained one after another by [`DrainWait`].
pub fn drain(cluster: &mut Cluster, nodes: &Nodes, opts: &DrainOpts) -> Outcome {
    let names = match node_names(cluster, nodes) {
        Ok(n) => n,
        Err(o) => return o,
    };
    let cordoned = cordon(
        cluster,
        &Nodes {
            names: names.clone(),
            selector: None,
        },
        true,
        opts.dry_run,
    );
    cordoned.waiting(super::wait::Wait::Drain(Box::new(DrainWait {
        nodes: names,
        opts: opts.clone(),
        current: None,
        waited: 0,
    })))
}

/// What one look prints: stdout (false) and stderr (true) lines in order.
pub type Lines = Vec<(bool, String)>;

/// kubectl's filters for one node's pods (`GetPodsForDeletion`): the pods to evict, the
/// warnings, and the errors that stop the node's drain.
fn pods_for_deletion(
    cluster: &Cluster,
    node: &str,
    opts: &DrainOpts,
) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
    let now = crate::sim::time::sim_unix(cluster.now());
    let mut pods = Vec::new();
    let mut unmanaged_fatal = Vec::new();
    let mut unmanaged_warn = Vec::new();
    let mut local_fatal = Vec::new();
    let mut daemon_fatal = Vec::new();
    let mut daemon_warn = Vec::new();
    let mut other_fatal: Vec<(String, String)> = Vec::new();
    let selector = opts.pod_selector.as_deref();
    // Read in place: a drain looks at every pod of the cluster, and most are on other
    // nodes (kubectl asks the server for `spec.nodeName=NODE`).
    let mut list: Vec<&std::sync::Arc<crate::sim::stored::Stored>> = cluster
        .api
        .list_shared(Kind::Pod)
        .filter(|p| p.pod_node() == Some(node))
        .filter(|p| selector.is_none_or(|s| obj::label_query_matches_labels(s, p.meta("labels"))))
        .collect();
    list.sort_by(|a, b| a.name().cmp(b.name()));
    for p in list {
        let name = p.name().to_string();
        let key = format!("default/{name}");
        // skipDeletedFilter.
        if opts.skip_wait_for_delete_timeout > 0
            && let Some(ts) = p
                .meta("deletionTimestamp")
                .and_then(serde_json::Value::as_str)
                .and_then(crate::sim::time::parse_rfc3339)
            && now - ts > opts.skip_wait_for_delete_timeout
        {
            continue;
        }
        let finished = matches!(p.pod_phase(), Some("Succeeded" | "Failed"));
        // daemonSetFilter: a running DaemonSet pod is refused, or with
        // --ignore-daemonsets left where it is (its controller would only put it back);
        // one whose DaemonSet is gone is refused unless --force.
        let daemon = p
            .meta("ownerReferences")
            .and_then(serde_json::Value::as_array)
            .and_then(|refs| refs.iter().find(|r| r["controller"] == true))
            .filter(|r| r["kind"] == "DaemonSet")
            .and_then(|r| r["name"].as_str());
        if let Some(ds) = daemon
            && !finished
        {
            if cluster.api.get(Kind::DaemonSet, ds).is_err() {
                if !opts.force {
                    other_fatal.push((format!("daemonsets.apps \"{ds}\" not found"), key));
                    continue;
                }
            } else if opts.ignore_daemonsets {
                daemon_warn.push(key);
                continue;
            } else {
                daemon_fatal.push(key);
                continue;
            }
        }
        // mirrorPodFilter.
        if p.meta("annotations")
            .is_some_and(|a| a["kubernetes.io/config.mirror"].is_string())
        {
            continue;
        }
        // localStorageFilter: its warning is always overwritten by the next filter's.
        let empty_dir = p
            .unfilled("spec")
            .and_then(|s| s["volumes"].as_array())
            .is_some_and(|vs| vs.iter().any(|v| v.get("emptyDir").is_some()));
        if empty_dir && !finished && !opts.delete_emptydir_data {
            local_fatal.push(key);
            continue;
        }
        // unreplicatedFilter.
        if p.controller_uid().is_none() && !finished {
            if !opts.force {
                unmanaged_fatal.push(key);
                continue;
            }
            unmanaged_warn.push(key);
        }
        pods.push((name, p.uid().to_string()));
    }
    let mut errors = Vec::new();
    // kubectl groups by message in a map; the demo goes in filter order.
    if !daemon_fatal.is_empty() {
        errors.push(format!(
            "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): {}",
            daemon_fatal.join(", ")
        ));
    }
    for (msg, key) in &other_fatal {
        errors.push(format!("cannot delete {msg}: {key}"));
    }
    if !local_fatal.is_empty() {
        errors.push(format!(
            "cannot delete Pods with local storage (use --delete-emptydir-data to override): {}",
            local_fatal.join(", ")
        ));
    }
    if !unmanaged_fatal.is_empty() {
        // kubectl 1.28 to 1.32 say "cannot delete" twice here.
        errors.push(format!(
            "cannot delete cannot delete Pods that declare no controller (use --force to override): {}",
            unmanaged_fatal.join(", ")
        ));
    }
    let mut warnings = Vec::new();
    if !daemon_warn.is_empty() {
        warnings.push(format!(
            "ignoring DaemonSet-managed Pods: {}",
            daemon_warn.join(", ")
        ));
    }
    if !unmanaged_warn.is_empty() {
        warnings.push(format!(
            "deleting Pods that declare no controller: {}",
            unmanaged_warn.join(", ")
        ));
    }
    (pods, warnings, errors)
}

/// An aggregate error as `Error()` prints it: the one error alone, several in brackets.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

impl DrainWait {
    /// One look at the cluster: evictions due now, pods gone, nodes finished. `Ok(None)`
    /// when every node is drained; `Err` with kubectl's final error when it gives up.
    pub fn step(
        mut self,
        cluster: &mut Cluster,
        lines: &mut Lines,
    ) -> Result<Option<Self>, String> {
        loop {
            let Some((node, mut pods, started)) = self.current.take() else {
                let Some(node) = (!self.nodes.is_empty()).then(|| self.nodes.remove(0)) else {
                    return Ok(None);
                };
                let (list, warnings, errors) = pods_for_deletion(cluster, &node, &self.opts);
                if !errors.is_empty() {
                    return Err(self.give_up(&node, &aggregate(&errors), &errors, lines));
                }
                if !warnings.is_empty() {
                    lines.push((true, format!("Warning: {}\n", warnings.join("; "))));
                }
                let suffix = self.opts.dry_run.suffix();
                if self.opts.dry_run != DryRun::None {
                    for (name, _) in &list {
                        lines.push((false, format!("evicting pod default/{name}{suffix}\n")));
                        if self.opts.dry_run == DryRun::Server {
                            let _ = cluster.api.evict(name, self.grace(), true, cluster.now());
                        }
                    }
                    lines.push((false, format!("node/{node} drained{suffix}\n")));
                    continue;
                }
                let pods = list
                    .into_iter()
                    .map(|(name, uid)| PodDrain {
                        name,
                        uid,
                        state: PodState::Evict(self.waited),
                    })
                    .collect();
                self.current = Some((node, pods, self.waited));
                continue;
            };
            let timed_out = self.opts.timeout > 0 && self.waited - started >= self.opts.timeout;
            self.advance(cluster, &mut pods, timed_out, lines);
            let failed: Vec<String> = pods
                .iter()
                .filter_map(|p| match &p.state {
                    PodState::Failed(e) => Some(e.clone()),
                    _ => None,
                })
                .collect();
            let running = pods
                .iter()
                .any(|p| matches!(p.state, PodState::Evict(_) | PodState::Gone));
            if !failed.is_empty() && !running {
                // deleteOrEvictPodsSimple: the pods still there, then RunDrain's words.
                let err = aggregate(&failed);
                let (left, _, _) = pods_for_deletion(cluster, &node, &self.opts);
                if !left.is_empty() {
                    lines.push((
                        true,
                        format!("There are pending pods in node {node:?} when an error occurred: {err}\n"),
                    ));
                    for (name, _) in left {
                        lines.push((true, format!("pod/{name}\n")));
                    }
                }
                return Err(self.give_up(&node, &err, &failed, lines));
            }
            if !running {
                lines.push((false, format!("node/{node} drained\n")));
                continue;
            }
            if self.opts.timeout == 0 && self.waited >= DRAIN_CAP {
                return Err(format!(
                    "error: kubedrill's demo stopped draining after {DRAIN_CAP} simulated seconds; kubectl would keep retrying (use --timeout to bound it)\n"
                ));
            }
            self.current = Some((node, pods, started));
            self.waited += 1;
            return Ok(Some(self));
        }
    }

    fn grace(&self) -> Option<i64> {
        (self.opts.grace_period >= 0).then_some(self.opts.grace_period)
    }

    /// Each pod's next move at this second: evictions (or deletions) due, and pods found
    /// gone.
    /// Past `--timeout`, a pod due for another try fails once its "evicting" line is
    /// out (the goroutine checks the deadline after printing), and a pod still being
    /// waited for fails as the poll's context ends.
    fn advance(
        &self,
        cluster: &mut Cluster,
        pods: &mut [PodDrain],
        timed_out: bool,
        lines: &mut Lines,
    ) {
        let now = cluster.now();
        let finished = if self.opts.disable_eviction {
            "deleted"
        } else {
            "evicted"
        };
        let limit = crate::sim::time::go_duration(self.opts.timeout);
        for p in pods.iter_mut() {
            if matches!(p.state, PodState::Evict(t) if t <= self.waited) {
                if timed_out {
                    if !self.opts.disable_eviction {
                        lines.push((false, format!("evicting pod default/{}\n", p.name)));
                    }
                    p.state = PodState::Failed(format!(
                        "error when evicting pods/{:?} -n \"default\": global timeout reached: {limit}",
                        p.name
                    ));
                    continue;
                }
                if self.opts.disable_eviction {
                    match cluster.api.delete(Kind::Pod, &p.name, self.grace(), now) {
                        Ok(_) => p.state = PodState::Gone,
                        Err(e) if e.reason == Reason::NotFound => p.state = PodState::Done,
                        Err(e) => p.state = PodState::Failed(e.message),
                    }
                    continue;
                }
                lines.push((false, format!("evicting pod default/{}\n", p.name)));
                match cluster.api.evict(&p.name, self.grace(), false, now) {
                    Ok(()) => p.state = PodState::Gone,
                    // Gone already: done, and nothing printed.
                    Err(e) if e.reason == Reason::NotFound => p.state = PodState::Done,
                    Err(e) if e.reason == Reason::TooManyRequests => {
                        lines.push((
                            true,
                            format!(
                                "error when evicting pods/{:?} -n \"default\" (will retry after 5s): {}\n",
                                p.name, e.message
                            ),
                        ));
                        p.state = PodState::Evict(self.waited + RETRY_SECONDS);
                    }
                    Err(e) => {
                        p.state = PodState::Failed(format!(
                            "error when evicting pods/{:?} -n \"default\": {}",
                            p.name, e.message
                        ));
                    }
                }
            }
        }
        // The goroutines evict at once (the API spends the budget as it goes); then the
        // controllers react within the second: replacements are created and placed.
        cluster.settle();
        for p in pods.iter_mut().filter(|p| p.state == PodState::Gone) {
            let gone = cluster
                .api
                .get_shared(Kind::Pod, &p.name)
                .map_or(true, |x| x.uid() != p.uid);
            if gone {
                lines.push((false, format!("pod/{} {finished}\n", p.name)));
                p.state = PodState::Done;
            } else if timed_out {
                p.state = PodState::Failed(format!(
                    "error when waiting for pod {:?} in namespace \"default\" to terminate: context deadline exceeded",
                    p.name
                ));
            }
        }
    }

    /// RunDrain's words when a node cannot be drained: the node and those after it are
    /// left pending, and the error ends the command.
    fn give_up(&self, node: &str, err: &str, errs: &[String], lines: &mut Lines) -> String {
        lines.push((
            true,
            format!(
                "error: unable to drain node {node:?} due to error: {err}, continuing command...\n"
            ),
        ));
        lines.push((true, "There are pending nodes to be drained:\n".into()));
        lines.push((true, format!(" {node}\n")));
        for n in &self.nodes {
            lines.push((true, format!(" {n}\n")));
        }
        // CheckErr prints each error of the aggregate on its own line.
        errs.iter().map(|e| format!("{e}\n")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_as_go_does() {
        use crate::sim::time::go_duration;
        assert_eq!(go_duration(30), "30s");
        assert_eq!(go_duration(60), "1m0s");
        assert_eq!(go_duration(90), "1m30s");
        assert_eq!(go_duration(3600), "1h0m0s");
    }

    #[test]
    fn one_error_prints_alone_several_in_brackets() {
        assert_eq!(aggregate(&["a".into()]), "a");
        assert_eq!(aggregate(&["a".into(), "b".into()]), "[a, b]");
    }
}
