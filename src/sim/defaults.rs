//! API-server defaulting for the kinds the demo serves (B1 and the core/v1 pod defaults),
//! so `-o yaml` shows what a real server returns.

use std::sync::LazyLock;

use serde_json::{Map, Value, json};

/// Sets `key` when it is missing. The value is built only then: objects made from a
/// template already have most defaults.
fn default(v: &mut Value, key: &str, value: impl FnOnce() -> Value) {
    if let Some(m) = v.as_object_mut()
        && !m.contains_key(key)
    {
        m.insert(key.to_string(), value());
    }
}

pub fn pod_spec(spec: &mut Value) {
    canonical_quantities(spec);
    default(spec, "restartPolicy", || json!("Always"));
    default(spec, "terminationGracePeriodSeconds", || json!(30));
    default(spec, "dnsPolicy", || json!("ClusterFirst"));
    default(spec, "schedulerName", || json!("default-scheduler"));
    default(spec, "securityContext", || json!({}));
    if let Some(cs) = spec.get_mut("containers").and_then(Value::as_array_mut) {
        for c in cs {
            let latest = c["image"]
                .as_str()
                .is_none_or(|i| !i.contains(':') || i.ends_with(":latest"));
            default(c, "imagePullPolicy", || {
                json!(if latest { "Always" } else { "IfNotPresent" })
            });
            default(c, "resources", || json!({}));
            default(c, "terminationMessagePath", || {
                json!("/dev/termination-log")
            });
            default(c, "terminationMessagePolicy", || json!("File"));
            if let Some(ports) = c.get_mut("ports").and_then(Value::as_array_mut) {
                for p in ports {
                    default(p, "protocol", || json!("TCP"));
                }
            }
            for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
                if c[probe].is_object() {
                    probe_defaults(&mut c[probe]);
                }
            }
        }
    }
}

/// SetDefaults_Probe, with SetDefaults_HTTPGetAction and SetDefaults_GRPCAction for its
/// handler.
fn probe_defaults(p: &mut Value) {
    default(p, "timeoutSeconds", || json!(1));
    default(p, "periodSeconds", || json!(10));
    default(p, "successThreshold", || json!(1));
    default(p, "failureThreshold", || json!(3));
    if p["httpGet"].is_object() {
        default(&mut p["httpGet"], "path", || json!("/"));
        default(&mut p["httpGet"], "scheme", || json!("HTTP"));
    }
    if p["grpc"].is_object() {
        default(&mut p["grpc"], "service", || json!(""));
    }
}

/// SetDefaults_Deployment (apps/v1), with its pod template's defaults.
pub fn deployment(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    default(spec, "replicas", || json!(1));
    default(spec, "revisionHistoryLimit", || json!(10));
    default(spec, "progressDeadlineSeconds", || json!(600));
    default(spec, "strategy", || json!({}));
    let strategy = &mut spec["strategy"];
    default(strategy, "type", || json!("RollingUpdate"));
    if strategy["type"] == "RollingUpdate" {
        default(strategy, "rollingUpdate", || json!({}));
        default(&mut strategy["rollingUpdate"], "maxSurge", || json!("25%"));
        default(&mut strategy["rollingUpdate"], "maxUnavailable", || {
            json!("25%")
        });
    }
    template(&mut spec["template"]);
}

/// SetDefaults_ReplicaSet (apps/v1), with its pod template's defaults.
pub fn replica_set(obj: &mut Value) {
    default(&mut obj["spec"], "replicas", || json!(1));
    template(&mut obj["spec"]["template"]);
}

/// SetDefaults_Pod and SetDefaults_PodSpec (v1).
pub fn pod(obj: &mut Value) {
    if obj["spec"].is_object() {
        pod_spec(&mut obj["spec"]);
        requests_from_limits(&mut obj["spec"]);
    }
    default(&mut obj["spec"], "enableServiceLinks", || json!(true));
    default(&mut obj["spec"], "preemptionPolicy", || {
        json!("PreemptLowerPriority")
    });
    default(&mut obj["spec"], "priority", || json!(0));
}

/// Resource quantities as the API server stores them: in canonical form (`0.5` is
/// `500m`, a null one is `0`), and an empty or null list left out (`omitempty`). One that
/// does not parse is left for validation to refuse.
pub fn canonical_quantities(spec: &mut Value) {
    for key in ["containers", "initContainers"] {
        let Some(cs) = spec.get_mut(key).and_then(Value::as_array_mut) else {
            continue;
        };
        for c in cs {
            let Some(resources) = c.get_mut("resources").and_then(Value::as_object_mut) else {
                continue;
            };
            for list in ["limits", "requests"] {
                if let Some(m) = resources.get_mut(list).and_then(Value::as_object_mut) {
                    for v in m.values_mut() {
                        if let Ok(text) = super::quantity::canonical(v) {
                            *v = Value::String(text);
                        } else if v.is_null() {
                            *v = Value::from("0");
                        }
                    }
                }
                let empty = resources
                    .get(list)
                    .is_some_and(|l| l.is_null() || l.as_object().is_some_and(|m| m.is_empty()));
                if empty {
                    resources.remove(list);
                }
            }
        }
    }
}

/// SetDefaults_Pod: a container's limits are its requests where it asks for none. Pods
/// only, not templates: a Deployment's template keeps what it was given.
fn requests_from_limits(spec: &mut Value) {
    for key in ["containers", "initContainers"] {
        let Some(cs) = spec.get_mut(key).and_then(Value::as_array_mut) else {
            continue;
        };
        for c in cs {
            let Some(limits) = c
                .pointer("/resources/limits")
                .and_then(Value::as_object)
                .cloned()
            else {
                continue;
            };
            let resources = &mut c["resources"];
            if resources["requests"].is_null() {
                resources["requests"] = json!({});
            }
            for (k, v) in limits {
                default(&mut resources["requests"], &k, || v);
            }
        }
    }
}

/// What the default admission plugins add to a new pod: ServiceAccount (the `default`
/// account and its projected token volume, mounted in every container) and
/// DefaultTolerationSeconds (300 s for not-ready and unreachable nodes). The volume's
/// random suffix comes from the pod's name, so it draws nothing from the seeded stream.
pub fn admit_pod(pod: &mut Value) {
    let volume = service_account_volume(pod["metadata"]["name"].as_str().unwrap_or(""));
    if let Some(spec) = pod.get_mut("spec").filter(|s| s.is_object()) {
        admit_spec(spec, volume);
    }
}

/// The name of the service-account volume admission gives the pod named `pod`.
pub fn service_account_volume(pod: &str) -> String {
    const PREFIX: &str = "kube-api-access-";
    let mut name = String::with_capacity(PREFIX.len() + 5);
    name.push_str(PREFIX);
    push_suffix(&mut name, pod);
    name
}

/// The spec every pod of a template gets from defaulting and admission, with an empty
/// name where each pod's service-account volume name goes ([`fill_pod_spec`] puts it
/// there): what the API shares between the pods of a ReplicaSet. `None` for a template
/// whose spec is not an object, which pods copy as it is.
pub fn admitted_template(template_spec: &Value) -> Option<Value> {
    if !template_spec.is_object() {
        return None;
    }
    let mut p = Value::Object(Map::from_iter([(
        "spec".to_string(),
        template_spec.clone(),
    )]));
    pod(&mut p);
    let mut spec = p["spec"].take();
    admit_spec(&mut spec, String::new());
    Some(spec)
}

/// A pod's spec from its template's [`admitted_template`] and its own volume name: the
/// names admission gave the volume it added and each container's mount of it.
pub fn fill_pod_spec(template: &Value, volume: &str) -> Value {
    let mut spec = template.clone();
    let name = |o: Option<&mut Value>| {
        if let Some(o) = o.and_then(Value::as_object_mut) {
            o.insert("name".to_string(), Value::from(volume));
        }
    };
    if let Some(cs) = spec.get_mut("containers").and_then(Value::as_array_mut) {
        for c in cs {
            name(
                c.get_mut("volumeMounts")
                    .and_then(Value::as_array_mut)
                    .and_then(|m| m.last_mut()),
            );
        }
    }
    name(
        spec.get_mut("volumes")
            .and_then(Value::as_array_mut)
            .and_then(|v| v.last_mut()),
    );
    spec
}

fn admit_spec(spec: &mut Value, volume: String) {
    let name = spec
        .get("serviceAccountName")
        .and_then(Value::as_str)
        .unwrap_or("default")
        .to_string();
    default(spec, "serviceAccountName", || json!(name));
    default(spec, "serviceAccount", || json!(name));
    if let Some(cs) = spec.get_mut("containers").and_then(Value::as_array_mut) {
        for c in cs {
            default(c, "volumeMounts", || json!([]));
            if let Some(m) = c["volumeMounts"].as_array_mut() {
                let mut mount = ADMITTED.mount.clone();
                mount["name"] = Value::String(volume.clone());
                m.push(mount);
            }
        }
    }
    default(spec, "volumes", || json!([]));
    if let Some(v) = spec["volumes"].as_array_mut() {
        let mut token = ADMITTED.volume.clone();
        token["name"] = Value::String(volume);
        v.push(token);
    }
    default(spec, "tolerations", || json!([]));
    if let Some(t) = spec["tolerations"].as_array_mut() {
        for toleration in &ADMITTED.tolerations {
            if !t.iter().any(|x| x["key"] == toleration["key"]) {
                t.push(toleration.clone());
            }
        }
    }
}

/// What admission adds to every pod, built once: copying a tree is cheaper than building
/// it, and the API creates a pod for every replica.
struct Admitted {
    mount: Value,
    volume: Value,
    tolerations: [Value; 2],
}

static ADMITTED: LazyLock<Admitted> = LazyLock::new(|| {
    Admitted {
    mount: json!({
        "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
        "name": "",
        "readOnly": true,
    }),
    volume: json!({
        "name": "",
        "projected": {
            "defaultMode": 420,
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}},
            ],
        },
    }),
    tolerations: ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"].map(|key| {
        json!({"effect": "NoExecute", "key": key, "operator": "Exists", "tolerationSeconds": 300})
    }),
}
});

/// Five characters of the API's name alphabet from a string (FNV-1a).
fn push_suffix(s: &mut String, seed: &str) {
    use super::names::{FNV64_BASIS, fnv64a};
    let h = fnv64a(seed.as_bytes(), FNV64_BASIS);
    let alphabet = super::names::NAME_ALPHABET;
    for i in 0..5 {
        s.push(alphabet[((h >> (i * 8)) % alphabet.len() as u64) as usize] as char);
    }
}

fn template(t: &mut Value) {
    if !t.is_object() {
        return;
    }
    default(t, "metadata", || json!({}));
    // A null creationTimestamp is how the API serialises an unset time in templates.
    default(&mut t["metadata"], "creationTimestamp", || Value::Null);
    if t["spec"].is_object() {
        pod_spec(&mut t["spec"]);
    }
}

/// SetDefaults_Service (v1), for the types the demo serves: session affinity `None`
/// (and no affinity config with it; `ClientIP` gets a 3-hour timeout), type `ClusterIP`,
/// each port's protocol `TCP` and target port its port, internal traffic policy
/// `Cluster`.
pub fn service(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    default(spec, "sessionAffinity", || json!("None"));
    if spec["sessionAffinity"] == "None"
        && let Some(m) = spec.as_object_mut()
    {
        m.remove("sessionAffinityConfig");
    }
    if spec["sessionAffinity"] == "ClientIP"
        && spec
            .pointer("/sessionAffinityConfig/clientIP/timeoutSeconds")
            .is_none_or(Value::is_null)
    {
        spec["sessionAffinityConfig"] = json!({"clientIP": {"timeoutSeconds": 10800}});
    }
    default(spec, "type", || json!("ClusterIP"));
    if let Some(ports) = spec["ports"].as_array_mut() {
        for p in ports.iter_mut().filter(|p| p.is_object()) {
            default(p, "protocol", || json!("TCP"));
            let unset = match &p["targetPort"] {
                Value::Null => true,
                Value::Number(n) => n.as_i64() == Some(0),
                Value::String(s) => s.is_empty(),
                _ => false,
            };
            if unset {
                p["targetPort"] = p["port"].clone();
            }
        }
    }
    if matches!(
        spec["type"].as_str(),
        Some("ClusterIP" | "NodePort" | "LoadBalancer")
    ) {
        default(spec, "internalTrafficPolicy", || json!("Cluster"));
    }
}

/// SetDefaults_StatefulSet (apps/v1, 1.32): OrderedReady, RollingUpdate with partition 0
/// (only when the strategy type was left out or its `rollingUpdate` given), both PVC
/// retention policies Retain (StatefulSetAutoDeletePVC is GA in 1.32), one replica, ten
/// revisions kept; its pod template's and claim templates' own defaults. `serviceName` is
/// not omitempty, so an unset one reads back as `""`.
pub fn stateful_set(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    if spec["podManagementPolicy"]
        .as_str()
        .is_none_or(str::is_empty)
    {
        spec["podManagementPolicy"] = json!("OrderedReady");
    }
    default(spec, "updateStrategy", || json!({}));
    let strategy = &mut spec["updateStrategy"];
    if strategy["type"].as_str().is_none_or(str::is_empty) {
        strategy["type"] = json!("RollingUpdate");
        default(strategy, "rollingUpdate", || json!({}));
    }
    if strategy["type"] == "RollingUpdate" && strategy["rollingUpdate"].is_object() {
        default(&mut strategy["rollingUpdate"], "partition", || json!(0));
    }
    // dropStatefulSetDisabledFields: with MaxUnavailableStatefulSet off, the server drops
    // the field (it was never in use here).
    if let Some(r) = strategy["rollingUpdate"].as_object_mut() {
        r.remove("maxUnavailable");
    }
    default(spec, "persistentVolumeClaimRetentionPolicy", || json!({}));
    let policy = &mut spec["persistentVolumeClaimRetentionPolicy"];
    for when in ["whenDeleted", "whenScaled"] {
        if policy[when].as_str().is_none_or(str::is_empty) {
            policy[when] = json!("Retain");
        }
    }
    default(spec, "replicas", || json!(1));
    default(spec, "revisionHistoryLimit", || json!(10));
    default(spec, "serviceName", || json!(""));
    template(&mut spec["template"]);
    if let Some(claims) = spec["volumeClaimTemplates"].as_array_mut() {
        for c in claims.iter_mut().filter(|c| c.is_object()) {
            // A claim template is a whole PersistentVolumeClaim as the API encodes one.
            default(c, "apiVersion", || json!("v1"));
            default(c, "kind", || json!("PersistentVolumeClaim"));
            default(c, "metadata", || json!({}));
            default(&mut c["metadata"], "creationTimestamp", || Value::Null);
            persistent_volume_claim(c);
        }
    }
}

/// SetDefaults_DaemonSet (apps/v1): RollingUpdate with maxUnavailable 1 and maxSurge 0,
/// ten revisions kept; its pod template's own defaults.
pub fn daemon_set(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    default(spec, "updateStrategy", || json!({}));
    let strategy = &mut spec["updateStrategy"];
    if strategy["type"].as_str().is_none_or(str::is_empty) {
        strategy["type"] = json!("RollingUpdate");
    }
    if strategy["type"] == "RollingUpdate" {
        default(strategy, "rollingUpdate", || json!({}));
        default(&mut strategy["rollingUpdate"], "maxUnavailable", || {
            json!(1)
        });
        default(&mut strategy["rollingUpdate"], "maxSurge", || json!(0));
    }
    default(spec, "revisionHistoryLimit", || json!(10));
    template(&mut spec["template"]);
}

/// SetDefaults_Job (batch/v1, 1.32): completions and parallelism 1 when neither is set
/// (parallelism alone leaves completions unset), six retries, NonIndexed, not suspended,
/// pods replaced once terminating (only once Failed with a podFailurePolicy), an
/// automatic selector, each onPodConditions pattern `True`; its pod template's defaults.
pub fn job(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    if spec.get("completions").is_none_or(Value::is_null)
        && spec.get("parallelism").is_none_or(Value::is_null)
    {
        spec["completions"] = json!(1);
        spec["parallelism"] = json!(1);
    }
    default(spec, "parallelism", || json!(1));
    let per_index = spec
        .get("backoffLimitPerIndex")
        .is_some_and(|v| !v.is_null());
    default(spec, "backoffLimit", || {
        json!(if per_index { i64::from(i32::MAX) } else { 6 })
    });
    default(spec, "completionMode", || json!("NonIndexed"));
    default(spec, "suspend", || json!(false));
    let policy = spec.get("podFailurePolicy").is_some_and(|v| !v.is_null());
    default(spec, "podReplacementPolicy", || {
        json!(if policy {
            "Failed"
        } else {
            "TerminatingOrFailed"
        })
    });
    default(spec, "manualSelector", || json!(false));
    if let Some(rules) = spec
        .get_mut("podFailurePolicy")
        .and_then(|p| p.get_mut("rules"))
        .and_then(Value::as_array_mut)
    {
        for rule in rules {
            if let Some(patterns) = rule["onPodConditions"].as_array_mut() {
                for p in patterns {
                    default(p, "status", || json!("True"));
                }
            }
        }
    }
    template(&mut spec["template"]);
}

/// SetDefaults_CronJob (batch/v1): concurrency Allow, not suspended, three successful and
/// one failed Job kept; the pod defaults of its job template, but not a Job's own
/// (SetObjectDefaults_CronJob does not call SetDefaults_Job).
pub fn cron_job(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    if spec["concurrencyPolicy"].as_str().is_none_or(str::is_empty) {
        spec["concurrencyPolicy"] = json!("Allow");
    }
    default(spec, "suspend", || json!(false));
    default(spec, "successfulJobsHistoryLimit", || json!(3));
    default(spec, "failedJobsHistoryLimit", || json!(1));
    if let Some(t) = spec.get_mut("jobTemplate").filter(|t| t.is_object()) {
        // A JobTemplateSpec's metadata reads back with a null creationTimestamp.
        default(t, "metadata", || json!({}));
        default(&mut t["metadata"], "creationTimestamp", || Value::Null);
        if let Some(job) = t.get_mut("spec").filter(|j| j.is_object()) {
            template(&mut job["template"]);
        }
    }
}

/// SetDefaults_HorizontalPodAutoscaler (autoscaling/v2): minReplicas 1, a CPU target of
/// 80% when no metric is given, and, only where `behavior` is set, its rules filled in
/// (scale-up: no window, Pods 4 then Percent 100 every 15 s, Max; scale-down: Percent
/// 100 every 15 s, Max, its window left to the controller's 300 s).
pub fn horizontal_pod_autoscaler(obj: &mut Value) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        *spec = json!({});
    }
    if spec.get("minReplicas").is_none_or(Value::is_null) {
        spec["minReplicas"] = json!(1);
    }
    if spec["metrics"].as_array().is_none_or(Vec::is_empty) {
        spec["metrics"] = json!([{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 80}}}]);
    }
    let Some(behavior) = spec.get_mut("behavior").filter(|b| b.is_object()) else {
        return;
    };
    let fill = |rules: &mut Value, window: Option<i64>, policies: Value| {
        if !rules.is_object() {
            *rules = json!({});
        }
        if let Some(w) = window
            && rules
                .get("stabilizationWindowSeconds")
                .is_none_or(Value::is_null)
        {
            rules["stabilizationWindowSeconds"] = json!(w);
        }
        if rules.get("selectPolicy").is_none_or(Value::is_null) {
            rules["selectPolicy"] = json!("Max");
        }
        if rules.get("policies").is_none_or(Value::is_null) {
            rules["policies"] = policies;
        }
    };
    fill(
        &mut behavior["scaleUp"],
        Some(0),
        json!([{"type": "Pods", "value": 4, "periodSeconds": 15},
               {"type": "Percent", "value": 100, "periodSeconds": 15}]),
    );
    fill(
        &mut behavior["scaleDown"],
        None,
        json!([{"type": "Percent", "value": 100, "periodSeconds": 15}]),
    );
}

/// SetDefaults_PersistentVolumeClaim and its spec's: volume mode Filesystem, phase
/// Pending.
pub fn persistent_volume_claim(obj: &mut Value) {
    default(obj, "spec", || json!({}));
    default(&mut obj["spec"], "volumeMode", || json!("Filesystem"));
    default(obj, "status", || json!({}));
    if obj["status"]["phase"].as_str().is_none_or(str::is_empty) {
        obj["status"]["phase"] = json!("Pending");
    }
}

/// SetDefaults_MutatingWebhook / SetDefaults_ValidatingWebhook (admissionregistration/v1),
/// with SetDefaults_Rule and SetDefaults_ServiceReference: failurePolicy Fail, matchPolicy
/// Equivalent, empty namespace and object selectors, a 10 s timeout, rules of any scope,
/// port 443; a mutating webhook is not called again (reinvocationPolicy Never).
/// sideEffects and admissionReviewVersions have no default: v1 requires them.
pub fn webhook_configuration(obj: &mut Value, mutating: bool) {
    let hooks = obj.get_mut("webhooks").and_then(Value::as_array_mut);
    for hook in hooks.into_iter().flatten() {
        if !hook.is_object() {
            continue;
        }
        default(hook, "failurePolicy", || json!("Fail"));
        default(hook, "matchPolicy", || json!("Equivalent"));
        default(hook, "namespaceSelector", || json!({}));
        default(hook, "objectSelector", || json!({}));
        default(hook, "timeoutSeconds", || json!(10));
        if mutating {
            default(hook, "reinvocationPolicy", || json!("Never"));
        }
        let rules = hook.get_mut("rules").and_then(Value::as_array_mut);
        for rule in rules.into_iter().flatten() {
            if rule.is_object() {
                default(rule, "scope", || json!("*"));
            }
        }
        if let Some(svc) = hook
            .pointer_mut("/clientConfig/service")
            .filter(|s| s.is_object())
        {
            default(svc, "port", || json!(443));
        }
    }
}

/// SetDefaults_ValidatingAdmissionPolicySpec and SetDefaults_MatchResources (v1):
/// failurePolicy Fail; matchPolicy Equivalent, empty selectors and rules of any scope in
/// the policy's matchConstraints and in a binding's matchResources when it has one.
pub fn admission_policy(obj: &mut Value, binding: bool) {
    let spec = &mut obj["spec"];
    if !spec.is_object() {
        return;
    }
    if !binding {
        default(spec, "failurePolicy", || json!("Fail"));
    }
    let key = if binding {
        "matchResources"
    } else {
        "matchConstraints"
    };
    let Some(m) = spec.get_mut(key).filter(|m| m.is_object()) else {
        return;
    };
    default(m, "matchPolicy", || json!("Equivalent"));
    default(m, "namespaceSelector", || json!({}));
    default(m, "objectSelector", || json!({}));
    for list in ["resourceRules", "excludeResourceRules"] {
        // `get_mut`, not indexing: indexing a map inserts a null for a missing key.
        for rule in m
            .get_mut(list)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if rule.is_object() {
                default(rule, "scope", || json!("*"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_asks_for_its_limits_and_a_template_keeps_what_it_was_given() {
        let resources =
            json!({"limits": {"cpu": 0.5, "memory": "1024Mi"}, "requests": {"cpu": "100m"}});
        let container = json!({"name": "app", "image": "nginx:1.27", "resources": resources});
        let mut p = json!({"spec": {"containers": [container.clone()],
            "initContainers": [{"name": "init", "image": "busybox",
                "resources": {"limits": {"cpu": "1"}, "requests": null}}]}});
        super::pod(&mut p);
        assert_eq!(
            p["spec"]["containers"][0]["resources"],
            json!({"limits": {"cpu": "500m", "memory": "1Gi"},
                   "requests": {"cpu": "100m", "memory": "1Gi"}})
        );
        assert_eq!(
            p["spec"]["initContainers"][0]["resources"]["requests"],
            json!({"cpu": "1"})
        );
        let mut empty = json!({"spec": {"containers": [{"name": "app", "image": "nginx",
            "resources": {"limits": {}, "requests": {"cpu": null}}}]}});
        super::pod(&mut empty);
        assert_eq!(
            empty["spec"]["containers"][0]["resources"],
            json!({"requests": {"cpu": "0"}})
        );
        let mut d = json!({"spec": {"template": {"spec": {"containers": [container]}}}});
        deployment(&mut d);
        assert_eq!(
            d["spec"]["template"]["spec"]["containers"][0]["resources"],
            json!({"limits": {"cpu": "500m", "memory": "1Gi"}, "requests": {"cpu": "100m"}}),
            "canonical, but no requests added"
        );
    }
}
