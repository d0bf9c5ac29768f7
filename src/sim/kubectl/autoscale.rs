//! `kubectl autoscale` (kubectl pkg/cmd/autoscale, 1.32): an autoscaling/v1
//! HorizontalPodAutoscaler for a Deployment, ReplicaSet or StatefulSet, named after it
//! (or `--name`), with `--min` only when positive and `--cpu-percent` only when given.
//! The server converts it to autoscaling/v2 (one CPU utilization metric, 80% when none was
//! sent) and stores it; a client dry run prints the v1 object kubectl would send.

use serde_json::{Value, json};

use super::args::{AutoscaleOpts, DryRun, Output, Target};
use super::cmdutil::*;
use super::create::finish_create;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::output::go_quote;

/// `createHorizontalPodAutoscaler`: what kubectl sends, in autoscaling/v1.
fn v1_object(name: &str, kind: Kind, target: &str, o: &AutoscaleOpts) -> Value {
    let mut spec = json!({
        "scaleTargetRef": {"apiVersion": kind.api_version(), "kind": kind.kind_name(), "name": target},
        "maxReplicas": o.max,
    });
    if o.min > 0 {
        spec["minReplicas"] = json!(o.min);
    }
    if o.cpu_percent >= 0 {
        spec["targetCPUUtilizationPercentage"] = json!(o.cpu_percent);
    }
    json!({
        "apiVersion": "autoscaling/v1",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name},
        "spec": spec,
    })
}

/// Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler: the CPU
/// target becomes the one metric (the v2 defaults give 80% when there is none).
fn to_v2(v1: &Value) -> Value {
    let s = &v1["spec"];
    let mut spec = json!({
        "scaleTargetRef": s["scaleTargetRef"].clone(),
        "maxReplicas": s["maxReplicas"].clone(),
    });
    if let Some(m) = s.get("minReplicas") {
        spec["minReplicas"] = m.clone();
    }
    if let Some(p) = s.get("targetCPUUtilizationPercentage") {
        spec["metrics"] = json!([{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": p}}}]);
    }
    json!({
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": v1["metadata"].clone(),
        "spec": spec,
    })
}

/// A client dry run's `-o json`: the v1 struct's field order, four-space indents.
fn v1_json(v1: &Value) -> String {
    let s = &v1["spec"];
    let r = &s["scaleTargetRef"];
    let q = |v: &Value| go_quote(v.as_str().unwrap_or(""));
    let mut spec = format!(
        "        \"scaleTargetRef\": {{\n            \"kind\": {},\n            \"name\": {},\n            \"apiVersion\": {}\n        }},\n",
        q(&r["kind"]),
        q(&r["name"]),
        q(&r["apiVersion"])
    );
    if let Some(m) = s.get("minReplicas") {
        spec += &format!("        \"minReplicas\": {m},\n");
    }
    spec += &format!("        \"maxReplicas\": {}", s["maxReplicas"]);
    if let Some(p) = s.get("targetCPUUtilizationPercentage") {
        spec += &format!(",\n        \"targetCPUUtilizationPercentage\": {p}");
    }
    format!(
        "{{\n    \"kind\": \"HorizontalPodAutoscaler\",\n    \"apiVersion\": \"autoscaling/v1\",\n    \"metadata\": {{\n        \"name\": {},\n        \"creationTimestamp\": null\n    }},\n    \"spec\": {{\n{spec}\n    }},\n    \"status\": {{\n        \"currentReplicas\": 0,\n        \"desiredReplicas\": 0\n    }}\n}}\n",
        q(&v1["metadata"]["name"])
    )
}

pub(super) fn autoscale(
    cluster: &mut Cluster,
    t: &Target,
    o: &AutoscaleOpts,
    dry_run: DryRun,
    output: Option<&Output>,
) -> Outcome {
    let (_, target) = match one(cluster, t) {
        Ok(x) => x,
        Err(out) => return out,
    };
    if !matches!(
        t.kind,
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
    ) {
        let (group, version) = t.kind.api_version().split_once('/').unwrap_or(("", "v1"));
        return Outcome::default().err(format!(
            "error: cannot autoscale a {}: could not find scale subresource for {group}/{version}, Resource={} in discovery information\n",
            t.kind.kind_name(),
            t.kind.group_resource().split('.').next().unwrap_or("")
        ));
    }
    let name = o.name.clone().unwrap_or_else(|| target.clone());
    let v1 = v1_object(&name, t.kind, &target, o);
    if dry_run == DryRun::Client
        && let Some(out) = output
    {
        let mut sent = v1;
        sent["metadata"]["creationTimestamp"] = Value::Null;
        sent["status"] = json!({"currentReplicas": 0, "desiredReplicas": 0});
        return match out {
            Output::Json => Outcome::default().out(v1_json(&sent)),
            other => print_object(Kind::HorizontalPodAutoscaler, &sent, other),
        };
    }
    let verb = if dry_run == DryRun::Client {
        "created"
    } else {
        "autoscaled"
    };
    finish_create(
        cluster,
        Kind::HorizontalPodAutoscaler,
        to_v2(&v1),
        dry_run,
        output,
        verb,
        |e| Outcome::default().api(e, None),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_percent_becomes_the_one_metric_and_none_leaves_the_default() {
        let o = AutoscaleOpts {
            min: -1,
            max: 5,
            cpu_percent: 50,
            name: None,
        };
        let v2 = to_v2(&v1_object("web", Kind::Deployment, "web", &o));
        assert_eq!(
            v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
            50
        );
        assert!(v2["spec"].get("minReplicas").is_none());
        let none = AutoscaleOpts {
            cpu_percent: -1,
            ..o
        };
        let v2 = to_v2(&v1_object("web", Kind::Deployment, "web", &none));
        assert!(v2["spec"].get("metrics").is_none());
    }
}
