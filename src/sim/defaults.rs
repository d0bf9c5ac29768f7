//! API-server defaulting for the kinds the demo serves (B1 and the core/v1 pod defaults),
//! so `-o yaml` shows what a real server returns.

use serde_json::{Value, json};

use super::kind::Kind;

fn default(v: &mut Value, key: &str, value: Value) {
    if let Some(m) = v.as_object_mut() {
        m.entry(key.to_string()).or_insert(value);
    }
}

pub fn pod_spec(spec: &mut Value) {
    default(spec, "restartPolicy", json!("Always"));
    default(spec, "terminationGracePeriodSeconds", json!(30));
    default(spec, "dnsPolicy", json!("ClusterFirst"));
    default(spec, "schedulerName", json!("default-scheduler"));
    default(spec, "securityContext", json!({}));
    if let Some(cs) = spec.get_mut("containers").and_then(Value::as_array_mut) {
        for c in cs {
            let latest = c["image"]
                .as_str()
                .is_none_or(|i| !i.contains(':') || i.ends_with(":latest"));
            default(
                c,
                "imagePullPolicy",
                json!(if latest { "Always" } else { "IfNotPresent" }),
            );
            default(c, "resources", json!({}));
            default(c, "terminationMessagePath", json!("/dev/termination-log"));
            default(c, "terminationMessagePolicy", json!("File"));
            if let Some(ports) = c.get_mut("ports").and_then(Value::as_array_mut) {
                for p in ports {
                    default(p, "protocol", json!("TCP"));
                }
            }
        }
    }
}

/// Applies defaults to an object about to be stored.
pub fn apply(kind: Kind, obj: &mut Value) {
    match kind {
        Kind::Deployment => {
            let spec = &mut obj["spec"];
            if !spec.is_object() {
                *spec = json!({});
            }
            default(spec, "replicas", json!(1));
            default(spec, "revisionHistoryLimit", json!(10));
            default(spec, "progressDeadlineSeconds", json!(600));
            default(spec, "strategy", json!({}));
            let strategy = &mut spec["strategy"];
            default(strategy, "type", json!("RollingUpdate"));
            if strategy["type"] == "RollingUpdate" {
                default(strategy, "rollingUpdate", json!({}));
                default(&mut strategy["rollingUpdate"], "maxSurge", json!("25%"));
                default(
                    &mut strategy["rollingUpdate"],
                    "maxUnavailable",
                    json!("25%"),
                );
            }
            template(&mut spec["template"]);
        }
        Kind::ReplicaSet => {
            default(&mut obj["spec"], "replicas", json!(1));
            template(&mut obj["spec"]["template"]);
        }
        Kind::Pod => {
            if obj["spec"].is_object() {
                pod_spec(&mut obj["spec"]);
            }
            default(&mut obj["spec"], "enableServiceLinks", json!(true));
            default(
                &mut obj["spec"],
                "preemptionPolicy",
                json!("PreemptLowerPriority"),
            );
            default(&mut obj["spec"], "priority", json!(0));
        }
        Kind::Event => {}
    }
}

fn template(t: &mut Value) {
    if !t.is_object() {
        return;
    }
    default(t, "metadata", json!({}));
    // A null creationTimestamp is how the API serialises an unset time in templates.
    default(&mut t["metadata"], "creationTimestamp", Value::Null);
    if t["spec"].is_object() {
        pod_spec(&mut t["spec"]);
    }
}
