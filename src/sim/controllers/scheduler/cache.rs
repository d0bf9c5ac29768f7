//! kube-scheduler's cache, reduced to what the plugins here read: each node's
//! allocatable, what the pods bound to it request (as asked, and with kube-scheduler's
//! defaults for requests left out, which scoring reads), and the label sets of those pods
//! (which the spreading score counts), kept from the watch.

use std::sync::Arc;

use serde_json::Value;

use crate::sim::HashMap;
use crate::sim::quantity;
use crate::sim::stored::Stored;

/// What a pod asks of a node: CPU in millicores, memory in bytes, and one pod slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Requests {
    pub cpu_milli: i128,
    pub memory: i128,
}

impl Requests {
    fn plus(self, r: Requests) -> Requests {
        Requests {
            cpu_milli: self.cpu_milli + r.cpu_milli,
            memory: self.memory + r.memory,
        }
    }

    fn minus(self, r: Requests) -> Requests {
        Requests {
            cpu_milli: self.cpu_milli - r.cpu_milli,
            memory: self.memory - r.memory,
        }
    }
}

/// A pod's effective requests (see [`quantity::pod_totals`]).
pub fn requests(spec: &Value) -> Requests {
    let [cpu, _, memory, _] = quantity::pod_totals(spec);
    Requests {
        cpu_milli: cpu / 1_000_000,
        memory: memory / 1_000_000_000,
    }
}

/// `schedutil.DefaultMilliCPURequest` and `DefaultMemoryRequest`: what scoring counts for
/// a container that requests no CPU or no memory, so that pods without requests do not
/// all look free and pile onto one node.
const DEFAULT_CPU_MILLI: i128 = 100;
const DEFAULT_MEMORY: i128 = 200 * 1024 * 1024;

/// A pod's requests for scoring (`PodRequests` with `NonMissingContainerRequests`): each
/// container's request, or the default where it has none; init containers by their
/// maximum, as for the effective requests.
pub fn nonzero_requests(spec: &Value) -> Requests {
    let of = |c: &Value| {
        let asked = &c["resources"]["requests"];
        let get = |k: &str, default: i128, unit: i128| match asked.get(k) {
            Some(q) => quantity::nanos(Some(q)) / unit,
            None => default,
        };
        Requests {
            cpu_milli: get("cpu", DEFAULT_CPU_MILLI, 1_000_000),
            memory: get("memory", DEFAULT_MEMORY, 1_000_000_000),
        }
    };
    let list = |k: &str| spec[k].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut sum = list("containers")
        .iter()
        .fold(Requests::default(), |s, c| s.plus(of(c)));
    for c in list("initContainers") {
        let r = of(c);
        sum.cpu_milli = sum.cpu_milli.max(r.cpu_milli);
        sum.memory = sum.memory.max(r.memory);
    }
    sum
}

/// An interned label set, compared by pointer (the API stores equal label sets once).
#[derive(Debug, Clone)]
pub struct Labels(pub Arc<Value>);

impl PartialEq for Labels {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What a node has allocatable, and what the pods bound to it request.
#[derive(Debug, Clone, Default)]
pub struct Usage {
    pub alloc: Requests,
    pub alloc_pods: i128,
    pub used: Requests,
    /// The same with scoring's defaults for missing requests (`NonZeroRequested`).
    pub nonzero: Requests,
    pub pods: i128,
    /// The label sets of the pods here that are not being deleted, with how many pods
    /// carry each: what PodTopologySpread counts (it passes over terminating pods).
    pub label_sets: HashMap<*const Value, (Labels, u32)>,
    /// What the filters and scores read of the node as last seen (NodeInfo's node),
    /// copied out once per version of it rather than looked up for every pod.
    pub unschedulable: bool,
    pub taints: Vec<Value>,
    pub labels: Value,
    /// The node's name, for node affinity's `matchFields` (`metadata.name`).
    pub name: String,
}

impl PartialEq for Usage {
    fn eq(&self, o: &Self) -> bool {
        self.alloc == o.alloc
            && self.alloc_pods == o.alloc_pods
            && self.used == o.used
            && self.nonzero == o.nonzero
            && self.pods == o.pods
            && self.label_sets.len() == o.label_sets.len()
            && self
                .label_sets
                .iter()
                .all(|(k, (_, n))| o.label_sets.get(k).is_some_and(|(_, m)| m == n))
    }
}

impl Usage {
    pub fn of(node: &Value) -> Self {
        // Indexed, not `Value::pointer`, which allocates for every path it reads.
        let alloc = |k: &str| quantity::nanos(node["status"]["allocatable"].get(k));
        Usage {
            unschedulable: node["spec"]["unschedulable"] == true,
            taints: crate::sim::taints::of_node(node).to_vec(),
            labels: node["metadata"]["labels"].clone(),
            name: crate::sim::obj::name(node).to_string(),
            alloc: Requests {
                cpu_milli: alloc("cpu") / 1_000_000,
                memory: alloc("memory") / 1_000_000_000,
            },
            alloc_pods: alloc("pods") / 1_000_000_000,
            ..Usage::default()
        }
    }

    /// Takes a newer version of the node and its allocatable, keeping what is bound.
    pub fn set_node(&mut self, fresh: Usage) {
        self.alloc = fresh.alloc;
        self.alloc_pods = fresh.alloc_pods;
        self.unschedulable = fresh.unschedulable;
        self.taints = fresh.taints;
        self.labels = fresh.labels;
        self.name = fresh.name;
    }

    pub fn add(&mut self, p: &Placed) {
        self.used = self.used.plus(p.req);
        self.nonzero = self.nonzero.plus(p.nonzero);
        self.pods += 1;
        if let Some(l) = &p.labels {
            self.label_sets
                .entry(Arc::as_ptr(&l.0))
                .or_insert_with(|| (l.clone(), 0))
                .1 += 1;
        }
    }

    pub fn sub(&mut self, p: &Placed) {
        self.used = self.used.minus(p.req);
        self.nonzero = self.nonzero.minus(p.nonzero);
        self.pods -= 1;
        if let Some(l) = &p.labels {
            let key = Arc::as_ptr(&l.0);
            if let Some((_, n)) = self.label_sets.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.label_sets.remove(&key);
                }
            }
        }
    }

    /// The resources `want` would overrun, in NodeResourcesFit's order.
    pub fn short(&self, want: Requests) -> Vec<&'static str> {
        let mut short = Vec::new();
        if self.pods + 1 > self.alloc_pods {
            short.push("pods");
        }
        if self.used.cpu_milli + want.cpu_milli > self.alloc.cpu_milli {
            short.push("cpu");
        }
        if self.used.memory + want.memory > self.alloc.memory {
            short.push("memory");
        }
        short
    }
}

/// What one bound pod adds to its node in the cache.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub req: Requests,
    pub nonzero: Requests,
    /// Its labels, unless it is being deleted.
    pub labels: Option<Labels>,
}

impl Placed {
    /// What a pod about to be bound adds (it is not being deleted).
    pub fn new(spec: &Value, labels: &Arc<Value>) -> Self {
        Placed {
            req: requests(spec),
            nonzero: nonzero_requests(spec),
            labels: Some(Labels(labels.clone())),
        }
    }
}

pub fn terminal(p: &Stored) -> bool {
    matches!(p.pod_phase(), Some("Succeeded" | "Failed"))
}

/// What a pod adds to its node's usage, while it is bound and not finished (a
/// terminating pod still holds its room, but no longer counts for spreading).
pub fn contribution(p: &Stored) -> Option<(&str, Placed)> {
    if terminal(p) {
        return None;
    }
    let node = p.pod_node()?;
    let spec = p.unfilled("spec").unwrap_or(&Value::Null);
    let facts = p.facts();
    Some((
        node,
        Placed {
            req: requests(spec),
            nonzero: nonzero_requests(spec),
            labels: (!facts.deleting).then(|| Labels(facts.labels.clone())),
        },
    ))
}
