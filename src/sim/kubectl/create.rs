//! `kubectl create` (kubectl pkg/cmd/create): `-f` manifests and `create deployment`,
//! with its client-side dry run.

use serde_json::{Value, json};

use super::args::{DryRun, JobSource, Output};
use super::cmdutil::*;
use crate::sim::api::decode::{FieldValidation, decode_body};
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;

/// The Deployment `kubectl create deployment --dry-run=client -o json` prints: a typed
/// object, so its keys come in Go's struct order, not sorted as a fetched object's are.
pub(super) fn client_deployment_json(d: &Value) -> String {
    let q = |v: &Value| serde_json::to_string(v).unwrap_or_default();
    let name = q(&d["metadata"]["name"]);
    let labels = q(&d["metadata"]["labels"]["app"]);
    let containers: Vec<String> = d["spec"]["template"]["spec"]["containers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let ports = c["ports"].as_array().map_or(String::new(), |ps| {
                let items: Vec<String> = ps
                    .iter()
                    .map(|p| {
                        format!(
                            "                            {{\n                                \"containerPort\": {}\n                            }}",
                            p["containerPort"]
                        )
                    })
                    .collect();
                format!(
                    "                        \"ports\": [\n{}\n                        ],\n",
                    items.join(",\n")
                )
            });
            format!(
                "                    {{\n                        \"name\": {},\n                        \"image\": {},\n{ports}                        \"resources\": {{}}\n                    }}",
                q(&c["name"]),
                q(&c["image"])
            )
        })
        .collect();
    format!(
        "{{\n    \"kind\": \"Deployment\",\n    \"apiVersion\": \"apps/v1\",\n    \"metadata\": {{\n        \"name\": {name},\n        \"creationTimestamp\": null,\n        \"labels\": {{\n            \"app\": {labels}\n        }}\n    }},\n    \"spec\": {{\n        \"replicas\": {},\n        \"selector\": {{\n            \"matchLabels\": {{\n                \"app\": {labels}\n            }}\n        }},\n        \"template\": {{\n            \"metadata\": {{\n                \"creationTimestamp\": null,\n                \"labels\": {{\n                    \"app\": {labels}\n                }}\n            }},\n            \"spec\": {{\n                \"containers\": [\n{}\n                ]\n            }}\n        }},\n        \"strategy\": {{}}\n    }},\n    \"status\": {{}}\n}}\n",
        d["spec"]["replicas"],
        containers.join(",\n")
    )
}

/// What `kubectl create job|cronjob --dry-run=client -o json` prints: the typed object
/// kubectl built, so keys come in the Go structs' field order (json.MarshalIndent, four
/// spaces), not sorted as a stored object's are.
fn client_json(v: &Value) -> String {
    // Every field these objects carry, in the order their Go structs declare them.
    const ORDER: &[&str] = &[
        "kind",
        "apiVersion",
        "metadata",
        "name",
        "namespace",
        "creationTimestamp",
        "labels",
        "annotations",
        "ownerReferences",
        "spec",
        "schedule",
        "jobTemplate",
        "template",
        "containers",
        "image",
        "command",
        "resources",
        "restartPolicy",
        "status",
    ];
    fn write(v: &Value, indent: usize, out: &mut String) {
        let pad = "    ".repeat(indent + 1);
        match v {
            Value::Object(m) if !m.is_empty() => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort_by_key(|k| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
                out.push_str("{\n");
                for (i, k) in keys.iter().enumerate() {
                    out.push_str(&pad);
                    crate::sim::output::write_json_string(out, k);
                    out.push_str(": ");
                    write(&m[*k], indent + 1, out);
                    out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
                }
                out.push_str(&format!("{}}}", "    ".repeat(indent)));
            }
            Value::Array(a) if !a.is_empty() => {
                out.push_str("[\n");
                for (i, x) in a.iter().enumerate() {
                    out.push_str(&pad);
                    write(x, indent + 1, out);
                    out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
                }
                out.push_str(&format!("{}]", "    ".repeat(indent)));
            }
            Value::String(s) => crate::sim::output::write_json_string(out, s),
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(v, 0, &mut out);
    out.push('\n');
    out
}

#[allow(clippy::too_many_arguments)]
/// A warning as kubectl logs it through klog: severity and date, time, thread id, source
/// line. The time is the simulated one; the demo has one process, so the id is 1.
pub(super) fn klog_warning(now: u64, at: &str, msg: &str) -> String {
    let t = crate::sim::time::rfc3339(now);
    // 2025-01-06T10:00:05Z -> 0106 10:00:05
    format!(
        "W{}{} {}.000000       1 {at}] {msg}\n",
        &t[5..7],
        &t[8..10],
        &t[11..19]
    )
}

pub(super) fn create_deployment(
    cluster: &mut Cluster,
    name: &str,
    images: &[String],
    replicas: i64,
    port: Option<i64>,
    dry_run: bool,
    output: Option<&Output>,
) -> Outcome {
    let mut d = crate::sim::scenario::deployment(name, &images[0], replicas);
    if images.len() > 1 {
        let containers: Vec<Value> = images
            .iter()
            .map(|i| {
                let n = crate::sim::scenario::container_name(i).unwrap_or(name);
                json!({"image": i, "name": n, "resources": {}})
            })
            .collect();
        d["spec"]["template"]["spec"]["containers"] = Value::Array(containers);
    }
    if let Some(p) = port {
        d["spec"]["template"]["spec"]["containers"][0]["ports"] = json!([{"containerPort": p}]);
    }
    if dry_run {
        return match output {
            None => Outcome::default().out(format!("deployment.apps/{name} created (dry run)\n")),
            // What kubectl would send: no server fields, null timestamps, empty status.
            Some(Output::Json) => Outcome::default().out(client_deployment_json(&d)),
            Some(out) => {
                let mut sent = d;
                sent["metadata"]["creationTimestamp"] = Value::Null;
                sent["spec"]["template"]["metadata"]["creationTimestamp"] = Value::Null;
                sent["status"] = json!({});
                print_object(Kind::Deployment, &sent, out)
            }
        };
    }
    match cluster.api.create(Kind::Deployment, d, cluster.now()) {
        Ok(_) => Outcome::default().out(format!("deployment.apps/{name} created\n")),
        Err(e) => {
            let mut o = Outcome::default().err(format!(
                "error: failed to create deployment: {}\n",
                e.message
            ));
            o.error = Some(e.reason);
            o
        }
    }
}

pub(super) fn create_job(
    cluster: &mut Cluster,
    name: &str,
    source: &JobSource,
    command: &[String],
    dry_run: DryRun,
    output: Option<&Output>,
) -> Outcome {
    let job = match source {
        JobSource::Image(image) => {
            let mut container = json!({"name": name, "image": image, "resources": {}});
            if !command.is_empty() {
                container["command"] = json!(command);
            }
            json!({
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": {"name": name},
                "spec": {"template": {"metadata": {}, "spec": {
                    "containers": [container],
                    "restartPolicy": "Never",
                }}},
            })
        }
        JobSource::From(kind, from) => {
            let found = cluster.api.get(*kind, from).cloned();
            let cj = match found {
                Ok(cj) if *kind == Kind::CronJob => cj,
                Ok(_) => {
                    return Outcome::default().err(format!(
                        "error: unknown object type *v1.{}\n",
                        kind.kind_name()
                    ));
                }
                Err(e) => return Outcome::default().api(&e, None),
            };
            job_from_cron_job(name, &cj)
        }
    };
    finish_create(cluster, Kind::Job, job, dry_run, output, "created", |e| {
        failed_create("job", e)
    })
}

/// createJobFromCronJob: the job template's spec, labels and annotations, the
/// `cronjob.kubernetes.io/instantiate: manual` annotation, and the CronJob as controller
/// owner (without blockOwnerDeletion, unlike the Jobs the controller makes).
fn job_from_cron_job(name: &str, cj: &Value) -> Value {
    let template = &cj["spec"]["jobTemplate"];
    let mut annotations = serde_json::Map::new();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), json!("manual"));
    if let Some(a) = template["metadata"]["annotations"].as_object() {
        for (k, v) in a {
            annotations.insert(k.clone(), v.clone());
        }
    }
    let mut meta = json!({
        "name": name,
        "annotations": annotations,
        "ownerReferences": [{
            "apiVersion": "batch/v1", "kind": "CronJob", "name": obj::name(cj),
            "uid": obj::uid(cj), "controller": true,
        }],
    });
    if let Some(l) = template["metadata"].get("labels").filter(|l| l.is_object()) {
        meta["labels"] = l.clone();
    }
    json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": template["spec"].clone()})
}

pub(super) fn create_cron_job(
    cluster: &mut Cluster,
    name: &str,
    (image, schedule, restart): (&str, &str, &str),
    command: &[String],
    dry_run: DryRun,
    output: Option<&Output>,
) -> Outcome {
    let mut container = json!({"name": name, "image": image, "resources": {}});
    if !command.is_empty() {
        container["command"] = json!(command);
    }
    let cj = json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name},
        "spec": {
            "schedule": schedule,
            "jobTemplate": {"metadata": {"name": name}, "spec": {"template": {"metadata": {}, "spec": {
                "containers": [container],
                "restartPolicy": restart,
            }}}},
        },
    });
    finish_create(
        cluster,
        Kind::CronJob,
        cj,
        dry_run,
        output,
        "created",
        |e| failed_create("cronjob", e),
    )
}

/// `failed to create KIND: ERR`: create job and create cronjob wrap the server's error as a
/// plain one, so kubectl prints the API's own message (`CronJob.batch "x" is invalid: ...`),
/// not its `The CronJob "x" is invalid` form.
fn failed_create(what: &str, e: &crate::sim::api::ApiError) -> Outcome {
    let message = match e.message.split_once(" is invalid: ") {
        Some((head, rest))
            if head.starts_with("The ") && e.reason == crate::sim::status::Reason::Invalid =>
        {
            let (kind, name) = head["The ".len()..].split_once(' ').unwrap_or(("", ""));
            let group = Kind::from_kind_name(kind).map_or(kind, |k| k.group_kind());
            // The API's own message lists several causes as `[a, b]`.
            let causes = match rest.strip_prefix('\n') {
                Some(list) => format!(
                    "[{}]",
                    list.lines()
                        .map(|l| l.trim_start_matches("* "))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => rest.to_string(),
            };
            format!("{group} {name} is invalid: {causes}")
        }
        _ => e.message.clone(),
    };
    let mut o = Outcome::default().err(format!("error: failed to create {what}: {message}\n"));
    o.error = Some(e.reason);
    o
}

pub(super) fn create_file(
    cluster: &mut Cluster,
    file: &str,
    objs: Vec<Value>,
    validate: FieldValidation,
) -> Outcome {
    each_object(file, objs, |kind, mut x, o| {
        strip_server_fields(&mut x);
        let name = obj::name(&x).to_string();
        let o = match decode_body(kind, &cluster.api.fields(kind, &x), &mut x, validate) {
            Ok(warnings) => o.server_warnings(warnings),
            Err(e) => return o.api(&e, Some(format!("error when creating \"{file}\": "))),
        };
        match cluster.api.create(kind, x, cluster.now()) {
            Ok(_) => o.out(format!("{}/{name} created\n", kind.kind_group())),
            Err(e) => o.api(&e, Some(format!("error when creating \"{file}\": "))),
        }
    })
}

/// `parsePorts` of `kubectl create service`: `PORT[:TARGET]`, the target a number or a
/// port name.
fn parse_service_port(spec: &str) -> Result<(i64, Value), String> {
    let mut parts = spec.split(':');
    let first = parts.next().unwrap_or("");
    let port: u16 = first.parse().map_err(|e: std::num::ParseIntError| {
        let why = match e.kind() {
            std::num::IntErrorKind::PosOverflow => "value out of range",
            _ => "invalid syntax",
        };
        format!("strconv.ParseUint: parsing {first:?}: {why}")
    })?;
    let Some(target) = parts.next() else {
        return Ok((i64::from(port), json!(port)));
    };
    match target.parse::<i64>() {
        Ok(n) if (1..=65535).contains(&n) => Ok((i64::from(port), json!(n))),
        Ok(_) => Err("must be between 1 and 65535, inclusive".into()),
        Err(_) => {
            let errs = crate::sim::validation::port_name_errors(target);
            if errs.is_empty() {
                Ok((i64::from(port), json!(target)))
            } else {
                Err(errs.join(","))
            }
        }
    }
}

/// `kubectl create service clusterip`: labels and selector `app=NAME`, one TCP port per
/// `--tcp`, named after it.
pub(super) fn create_service(
    cluster: &mut Cluster,
    name: &str,
    tcp: &[String],
    cluster_ip: Option<&str>,
    dry_run: DryRun,
    output: Option<&Output>,
) -> Outcome {
    let mut ports = Vec::new();
    for t in tcp {
        match parse_service_port(t) {
            Ok((port, target)) => ports.push(json!({
                "name": t.replace(':', "-"),
                "port": port,
                "protocol": "TCP",
                "targetPort": target,
            })),
            Err(e) => return Outcome::default().err(format!("error: {e}\n")),
        }
    }
    let mut svc = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {"ports": ports, "selector": {"app": name}, "type": "ClusterIP"},
    });
    if ports_empty(&svc) {
        svc["spec"].as_object_mut().map(|m| m.remove("ports"));
    }
    if let Some(ip) = cluster_ip {
        svc["spec"]["clusterIP"] = json!(ip);
    }
    let failed = |e: &crate::sim::api::ApiError| {
        // kubectl wraps the server's error, so it prints as plain text: the message the
        // server sent, which names the object without kubectl's "The".
        let msg = e.message.strip_prefix("The ").unwrap_or(&e.message);
        let mut o = Outcome::default().err(format!(
            "error: failed to create ClusterIP service: {msg}\n"
        ));
        o.error = Some(e.reason);
        o
    };
    finish_create(
        cluster,
        Kind::Service,
        svc,
        dry_run,
        output,
        "created",
        failed,
    )
}

fn ports_empty(svc: &Value) -> bool {
    svc["spec"]["ports"].as_array().is_some_and(Vec::is_empty)
}

/// Sends what a create subcommand built, as its dry run says, and says so with `verb`:
/// a client dry run prints what would be sent (null creation timestamps, an empty status;
/// `-o json` in the Go structs' order), a server one what the server would have stored
/// (defaults and all), on a copy of the API server that is then dropped.
pub(super) fn finish_create(
    cluster: &mut Cluster,
    kind: Kind,
    obj: Value,
    dry_run: DryRun,
    output: Option<&Output>,
    verb: &str,
    failed: impl Fn(&crate::sim::api::ApiError) -> Outcome,
) -> Outcome {
    let name = obj::name(&obj).to_string();
    let line = format!("{}/{name} {verb}{}\n", kind.kind_group(), dry_run.suffix());
    match dry_run {
        DryRun::Client => match output {
            None => Outcome::default().out(line),
            Some(out) => {
                let mut sent = obj;
                sent["metadata"]["creationTimestamp"] = Value::Null;
                for path in [
                    &["spec", "template", "metadata"][..],
                    &["spec", "jobTemplate", "metadata"],
                    &["spec", "jobTemplate", "spec", "template", "metadata"],
                ] {
                    if obj::path(&sent, path).is_some_and(Value::is_object) {
                        let mut at = path.to_vec();
                        at.push("creationTimestamp");
                        obj::set(&mut sent, &at, Value::Null);
                    }
                }
                sent["status"] = if kind == Kind::Service {
                    json!({"loadBalancer": {}})
                } else {
                    json!({})
                };
                match out {
                    Output::Json if kind != Kind::Service => {
                        Outcome::default().out(client_json(&sent))
                    }
                    _ => print_object(kind, &sent, out),
                }
            }
        },
        DryRun::Server => {
            let mut api = cluster.api.clone();
            match api.create(kind, obj, cluster.now()) {
                Ok(mut stored) => match output {
                    None => Outcome::default().out(line),
                    Some(out) => {
                        // Nothing was stored, so there is no resourceVersion; kubectl hides
                        // managedFields unless asked.
                        if let Some(m) = stored["metadata"].as_object_mut() {
                            m.remove("resourceVersion");
                            m.remove("managedFields");
                        }
                        print_object(kind, &stored, out)
                    }
                },
                Err(e) => failed(&e),
            }
        }
        DryRun::None => match cluster.api.create(kind, obj, cluster.now()) {
            Ok(_) => Outcome::default().out(line),
            Err(e) => failed(&e),
        },
    }
}
