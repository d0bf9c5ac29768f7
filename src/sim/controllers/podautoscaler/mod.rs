//! The HorizontalPodAutoscaler controller (kube-controller-manager's
//! `pkg/controller/podautoscaler`, autoscaling/v2, 1.32): every 15 seconds each HPA reads
//! its target's `/scale`, asks the resource metrics API for its pods' CPU, computes the
//! replicas the usage asks for (`replicas.rs`), holds that against recent recommendations
//! and the scaling rates (`normalize.rs`), writes `/scale` when the answer differs, and
//! reports it all in the HPA's status and conditions. Resource metrics for CPU only: the
//! demo's metrics-server knows nothing else.

mod normalize;
pub mod replicas;

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::sim::api::{ApiServer, Note};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{rfc3339, sim_unix};
pub use normalize::{DOWNSCALE_STABILIZATION, Memory, Rules};
use replicas::{Proposal, Target};

/// Only its HPAs: the pods are read at each sync (Go reads a shared pod lister, current
/// by then; a cache of its own would cost every pod event in every scenario).
pub const WATCHES: &[Kind] = &[Kind::HorizontalPodAutoscaler];
pub const COMPONENT: &str = "horizontal-pod-autoscaler";
/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD: u64 = 15;

#[derive(Clone)]
pub struct HorizontalController {
    pub informer: Informer,
    pub client: RateLimit,
    now: u64,
    /// HPAs waiting in the queue, with their due second: AddRateLimited keeps the one
    /// already waiting, so each HPA is synced once per period whatever else happens.
    waiting: BTreeMap<String, u64>,
    /// Recommendations and scale events per HPA, in memory only.
    memory: BTreeMap<String, Memory>,
    /// Each HPA's target's selector as last read (hpaSelectors): two HPAs whose selectors
    /// take the same pods both refuse to act.
    selectors: BTreeMap<String, Value>,
}

/// The scale subresource as the HPA reads it.
struct Scale {
    kind: Kind,
    name: String,
    spec_replicas: i32,
    selector: Value,
}

/// What computeReplicasForMetrics answers.
struct Computed {
    replicas: i32,
    metric: String,
    statuses: Vec<Value>,
}

/// setCondition: the condition of `t` updated in place (its transition time moves only
/// when its status does), or added at the end.
fn set_condition(hpa: &mut Value, (t, ok, reason, message): (&str, bool, &str, &str), now: u64) {
    let status = if ok { "True" } else { "False" };
    if !hpa["status"]["conditions"].is_array() {
        hpa["status"]["conditions"] = json!([]);
    }
    let list = hpa["status"]["conditions"]
        .as_array_mut()
        .expect("set to an array above");
    let i = match list.iter().position(|c| c["type"] == t) {
        Some(i) => i,
        None => {
            list.push(json!({"type": t}));
            list.len() - 1
        }
    };
    let c = &mut list[i];
    if c["status"] != status {
        c["lastTransitionTime"] = json!(rfc3339(now));
    }
    c["status"] = json!(status);
    c["reason"] = json!(reason);
    c["message"] = json!(message);
}

/// NewMilliQuantity(m, DecimalSI) as it prints.
fn milli_quantity(m: i64) -> String {
    crate::sim::quantity::canonical(&json!(format!("{m}m"))).unwrap_or_else(|_| format!("{m}m"))
}

impl HorizontalController {
    pub fn new(resync: u64) -> Self {
        HorizontalController {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
            now: 0,
            waiting: BTreeMap::new(),
            memory: BTreeMap::new(),
            selectors: BTreeMap::new(),
        }
    }

    /// What the controller remembers of an HPA (for the demo's panel).
    pub fn memory(&self, name: &str) -> Option<&Memory> {
        self.memory.get(name)
    }

    /// enqueueHPA: AddRateLimited with the fixed 15 s interval, dropped while the HPA
    /// already waits.
    fn enqueue(&mut self, name: &str) {
        if !self.waiting.contains_key(name) {
            let at = self.now + SYNC_PERIOD;
            self.waiting.insert(name.to_string(), at);
            self.informer.enqueue_after(name, at);
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            if d.kind != Kind::HorizontalPodAutoscaler {
                continue;
            }
            if d.event == crate::sim::api::EventType::Deleted {
                self.selectors.remove(d.object.name());
            } else {
                self.enqueue(d.object.name());
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            self.waiting.remove(&name);
            let Some(hpa) = self
                .informer
                .get(Kind::HorizontalPodAutoscaler, &name)
                .cloned()
            else {
                // Deleted: its recommendations and scale events go too.
                self.memory.remove(&name);
                continue;
            };
            let before = api.next_seq();
            self.reconcile(api, hpa, now);
            n += 1 + (api.next_seq() - before) as usize;
            self.enqueue(&name);
        }
        n
    }

    fn event(&self, api: &mut ApiServer, hpa: &Value, warning: bool, reason: &str, msg: &str) {
        let type_ = if warning { "Warning" } else { "Normal" };
        api.record_event(
            hpa,
            Kind::HorizontalPodAutoscaler,
            Note::about(type_, reason, msg, COMPONENT),
            self.now,
        );
    }

    /// The target's `/scale`: its kind must have one (Deployment, ReplicaSet,
    /// StatefulSet) and exist.
    fn scale(&self, api: &ApiServer, hpa: &Value) -> Result<Scale, String> {
        let r = &hpa["spec"]["scaleTargetRef"];
        let kind_name = r["kind"].as_str().unwrap_or("");
        let group = r["apiVersion"]
            .as_str()
            .unwrap_or("")
            .split_once('/')
            .map_or("", |(g, _)| g);
        let kind = Kind::from_kind_name(kind_name)
            .filter(|k| k.api_version().split_once('/').map_or("", |(g, _)| g) == group)
            .ok_or_else(|| format!("no matches for kind \"{kind_name}\" in group \"{group}\""))?;
        if !matches!(
            kind,
            Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
        ) {
            return Err("the server could not find the requested resource".into());
        }
        let name = r["name"].as_str().unwrap_or("");
        let target = api.get(kind, name).map_err(|e| e.message.clone())?;
        Ok(Scale {
            kind,
            name: name.to_string(),
            spec_replicas: obj::int(target, &["spec", "replicas"]).unwrap_or(1) as i32,
            selector: target["spec"]["selector"].clone(),
        })
    }

    /// reconcileAutoscaler.
    fn reconcile(&mut self, api: &mut ApiServer, mut hpa: Value, now: u64) {
        let name = obj::name(&hpa).to_string();
        let original = hpa["status"].clone();
        let unix = sim_unix(now);
        let scale = match self.scale(api, &hpa) {
            Ok(s) => s,
            Err(e) => {
                self.event(api, &hpa, true, "FailedGetScale", &e);
                let msg =
                    format!("the HPA controller was unable to get the target's current scale: {e}");
                set_condition(
                    &mut hpa,
                    ("AbleToScale", false, "FailedGetScale", &msg),
                    now,
                );
                self.write_status(api, &hpa, &original);
                return;
            }
        };
        set_condition(
            &mut hpa,
            (
                "AbleToScale",
                true,
                "SucceededGetScale",
                "the HPA controller was able to get the target's current scale",
            ),
            now,
        );
        let current = scale.spec_replicas;
        let memory = self.memory.entry(name.clone()).or_default();
        memory.init(current, unix);
        let min = obj::int(&hpa, &["spec", "minReplicas"]).unwrap_or(1) as i32;
        let max = obj::int(&hpa, &["spec", "maxReplicas"]).unwrap_or(0) as i32;
        let behavior = &hpa["spec"]["behavior"];
        let rules = (!behavior.is_null()).then(|| {
            (
                Rules::from_json(&behavior["scaleUp"]),
                Rules::from_json(&behavior["scaleDown"]),
            )
        });
        let mut statuses = None;
        let mut reason = String::new();
        let (desired, rescale) = if current == 0 && min != 0 {
            set_condition(
                &mut hpa,
                (
                    "ScalingActive",
                    false,
                    "ScalingDisabled",
                    "scaling is disabled since the replica count of the target is zero",
                ),
                now,
            );
            (0, false)
        } else if current > max {
            reason = "Current number of replicas above Spec.MaxReplicas".into();
            (max, true)
        } else if current < min {
            reason = "Current number of replicas below Spec.MinReplicas".into();
            (min, true)
        } else {
            let computed = match self.compute_replicas(api, &mut hpa, &scale, now) {
                Ok(c) => c,
                Err((statuses, e)) => {
                    set_status(&mut hpa, current, None, statuses, false, now);
                    self.write_status(api, &hpa, &original);
                    self.event(api, &hpa, true, "FailedComputeMetricsReplicas", &e);
                    return;
                }
            };
            let metric_desired = computed.replicas;
            statuses = Some(computed.statuses);
            if metric_desired > current {
                reason = format!("{} above target", computed.metric);
            }
            if metric_desired < current {
                reason = "All metrics below target".into();
            }
            let memory = self.memory.entry(name.clone()).or_default();
            let (desired, conds) = match &rules {
                None => memory.normalize((current, metric_desired), (min, max), unix),
                Some((up, down)) => memory.normalize_with_behaviors(
                    (current, metric_desired),
                    (min, max),
                    (up, down),
                    unix,
                ),
            };
            for c in conds {
                set_condition(&mut hpa, c, now);
            }
            (desired, desired != current)
        };
        let mut desired = desired;
        if rescale {
            match self.rescale(api, &scale, desired) {
                Ok(()) => {
                    let msg = format!(
                        "the HPA controller was able to update the target scale to {desired}"
                    );
                    set_condition(
                        &mut hpa,
                        ("AbleToScale", true, "SucceededRescale", &msg),
                        now,
                    );
                    let ev = format!("New size: {desired}; reason: {reason}");
                    self.event(api, &hpa, false, "SuccessfulRescale", &ev);
                    let memory = self.memory.entry(name).or_default();
                    let r = rules.as_ref().map(|(u, d)| (u, d));
                    memory.store_scale_event(r, current, desired, unix);
                }
                Err(e) => {
                    let ev = format!("New size: {desired}; reason: {reason}; error: {e}");
                    self.event(api, &hpa, true, "FailedRescale", &ev);
                    let msg =
                        format!("the HPA controller was unable to update the target scale: {e}");
                    set_condition(
                        &mut hpa,
                        ("AbleToScale", false, "FailedUpdateScale", &msg),
                        now,
                    );
                    set_status(&mut hpa, current, None, statuses, false, now);
                    self.write_status(api, &hpa, &original);
                    return;
                }
            }
        } else {
            desired = current;
        }
        set_status(&mut hpa, current, Some(desired), statuses, rescale, now);
        self.write_status(api, &hpa, &original);
    }

    /// Writes `/scale` as kube-controller-manager.
    fn rescale(&mut self, api: &mut ApiServer, scale: &Scale, replicas: i32) -> Result<(), String> {
        let mut next = api
            .get(scale.kind, &scale.name)
            .map_err(|e| e.message.clone())?
            .clone();
        next["spec"]["replicas"] = json!(replicas);
        self.client.spend(1);
        api.as_manager("kube-controller-manager", Some("scale"), |api| {
            api.update(scale.kind, next, None)
        })
        .map(|_| ())
        .map_err(|e| e.message)
    }

    /// updateStatusIfNeeded: only a changed status is written.
    fn write_status(&mut self, api: &mut ApiServer, hpa: &Value, original: &Value) {
        if hpa["status"] == *original {
            return;
        }
        self.client.spend(1);
        let status = hpa["status"].clone();
        let _ = api.update_status_with(Kind::HorizontalPodAutoscaler, obj::name(hpa), |h| {
            h["status"] = status.clone()
        });
    }

    /// computeReplicasForMetrics: the highest proposal among the metrics; an error (with
    /// the statuses so far) when every metric failed, or some did and the rest would
    /// scale down.
    fn compute_replicas(
        &mut self,
        api: &mut ApiServer,
        hpa: &mut Value,
        scale: &Scale,
        now: u64,
    ) -> Result<Computed, (Option<Vec<Value>>, String)> {
        let specs: Vec<Value> = hpa["spec"]["metrics"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let pods: Vec<Value> = api
            .list(Kind::Pod)
            .filter(|p| obj::selector_matches(&scale.selector, p))
            .cloned()
            .collect();
        let pods: Vec<&Value> = pods.iter().collect();
        // validateAndParseSelector: this HPA's selector is registered, then the HPAs whose
        // selectors take any of these pods are counted.
        self.selectors
            .insert(obj::name(hpa).to_string(), scale.selector.clone());
        let selecting: Vec<String> = self
            .selectors
            .iter()
            .filter(|(_, sel)| pods.iter().any(|p| obj::selector_matches(sel, p)))
            .map(|(n, _)| format!("default/{n}"))
            .collect();
        if selecting.len() > 1 {
            let msg = format!(
                "pods by selector {} are controlled by multiple HPAs: [{}]",
                crate::sim::table::selector_string(Some(&scale.selector)),
                selecting.join(" ")
            );
            self.event(api, hpa, true, "AmbiguousSelector", &msg);
            set_condition(
                hpa,
                ("ScalingActive", false, "AmbiguousSelector", &msg),
                now,
            );
            return Err((None, msg));
        }
        let samples = api.metrics.pod_metrics(&pods, now);
        let mut statuses = vec![json!({"type": ""}); specs.len()];
        let (mut replicas, mut metric) = (0, String::new());
        let mut invalid = 0;
        let mut first_error: Option<(String, String)> = None;
        for (i, spec) in specs.iter().enumerate() {
            let samples = samples.as_deref().map_err(String::as_str);
            match self.resource_metric(spec, scale, &pods, samples, now) {
                Ok((p, name)) => {
                    let mut current = json!({"averageValue": milli_quantity(p.average)});
                    if let Some(u) = p.utilization {
                        current["averageUtilization"] = json!(u);
                    }
                    statuses[i] = json!({"type": "Resource", "resource": {"name": "cpu", "current": current}});
                    if replicas == 0 || p.replicas > replicas {
                        replicas = p.replicas;
                        metric = name;
                    }
                }
                Err(e) => {
                    // getUnableComputeReplicaCountCondition: an event per failed metric.
                    self.event(api, hpa, true, "FailedGetResourceMetric", &e);
                    if first_error.is_none() {
                        first_error = Some((
                            format!("the HPA was unable to compute the replica count: {e}"),
                            format!("failed to get cpu resource metric value: {e}"),
                        ));
                    }
                    invalid += 1;
                }
            }
        }
        if let Some((cond, err)) = &first_error
            && (invalid >= specs.len() || replicas < scale.spec_replicas)
        {
            set_condition(
                hpa,
                ("ScalingActive", false, "FailedGetResourceMetric", cond),
                now,
            );
            return Err((
                Some(statuses),
                format!(
                    "invalid metrics ({invalid} invalid out of {}), first error is: {err}",
                    specs.len()
                ),
            ));
        }
        let msg =
            format!("the HPA was able to successfully calculate a replica count from {metric}");
        set_condition(hpa, ("ScalingActive", true, "ValidMetricFound", &msg), now);
        Ok(Computed {
            replicas,
            metric,
            statuses,
        })
    }

    /// computeStatusForResourceMetricGeneric, for `cpu`.
    fn resource_metric(
        &self,
        spec: &Value,
        scale: &Scale,
        pods: &[&Value],
        samples: Result<&[crate::sim::metrics::PodMetrics], &str>,
        now: u64,
    ) -> Result<(Proposal, String), String> {
        let target = &spec["resource"]["target"];
        let (t, what, name) = if let Some(v) = target.get("averageValue").filter(|v| !v.is_null()) {
            // target.AverageValue.MilliValue().
            let m = crate::sim::quantity::milli_value(Some(v));
            (
                Target::AverageValue(m.max(1)),
                "usage",
                "cpu resource".to_string(),
            )
        } else if let Some(u) = target["averageUtilization"].as_i64() {
            (
                Target::Utilization(u as i32),
                "utilization",
                "cpu resource utilization (percentage of request)".to_string(),
            )
        } else {
            return Err("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".into());
        };
        let p = replicas::resource_replicas(scale.spec_replicas, t, pods, samples, sim_unix(now))
            .map_err(|e| format!("failed to get cpu {what}: {e}"))?;
        Ok((p, name))
    }
}

/// setStatus / setCurrentReplicasAndMetricsInStatus: `desired` none keeps the last one.
fn set_status(
    hpa: &mut Value,
    current: i32,
    desired: Option<i32>,
    statuses: Option<Vec<Value>>,
    rescale: bool,
    now: u64,
) {
    let old = hpa["status"].clone();
    let mut s = json!({});
    if let Some(t) = old.get("lastScaleTime").filter(|v| !v.is_null()) {
        s["lastScaleTime"] = t.clone();
    }
    if rescale {
        s["lastScaleTime"] = json!(rfc3339(now));
    }
    if current != 0 {
        s["currentReplicas"] = json!(current);
    }
    s["desiredReplicas"] =
        json!(desired.unwrap_or_else(|| old["desiredReplicas"].as_i64().unwrap_or(0) as i32));
    // No omitempty on currentMetrics: a sync that computed none writes null.
    s["currentMetrics"] = statuses.map_or(Value::Null, |m| json!(m));
    if let Some(c) = old.get("conditions").filter(|c| !c.is_null()) {
        s["conditions"] = c.clone();
    }
    hpa["status"] = s;
}

impl super::Controller for HorizontalController {
    super::controller::controller_basics!(HorizontalController, Component::Autoscaler);

    fn tick(&mut self, now: u64) {
        self.now = now;
    }

    /// The informer's resync reaches enqueueHPA too, which keeps the HPA's place.
    fn resync(&mut self) {
        let names: Vec<String> = self
            .informer
            .iter(Kind::HorizontalPodAutoscaler)
            .map(|h| obj::name(h).to_string())
            .collect();
        for n in names {
            self.enqueue(&n);
        }
    }

    /// A restarted kube-controller-manager has forgotten its recommendations and scale
    /// events.
    fn crash(&mut self) {
        self.informer.crash();
        self.waiting.clear();
        self.memory.clear();
        self.selectors.clear();
    }
}
