//! Runs a parsed kubectl command against the simulated cluster and prints what kubectl
//! prints: tables, `-o json|yaml|name|jsonpath`, success lines and `Error from server`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::args::{Command, MetaChange, Output, PatchType, Propagation, RolloutAction, Target};
use super::wait::Wait;
use crate::sim::api::{ApiError, Reason};
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::output::{parse_manifest, to_json, to_yaml};
use crate::sim::time::rfc3339;
use crate::sim::{jsonpath, merge};

/// What a command printed, and what the demo counts about it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    /// The API error reason, when the server refused.
    pub error: Option<Reason>,
    pub failed: bool,
    /// Pods the command deleted.
    pub deleted_pods: u32,
    /// Writes through `/status`.
    pub forged: u32,
    /// Warnings kubectl writes to stderr as it goes, each with the length stdout had
    /// then; `stderr` holds what it prints at the end (errors, "No resources found").
    pub warnings: Vec<(usize, String)>,
    /// The command is still watching: see [`super::wait`].
    pub wait: Option<Box<Wait>>,
}

impl Outcome {
    pub(super) fn out(mut self, s: impl AsRef<str>) -> Self {
        self.stdout.push_str(s.as_ref());
        self
    }
    fn waiting(mut self, w: Wait) -> Self {
        self.wait = Some(Box::new(w));
        self
    }
    /// Whether the command has more to do once the clock moves on.
    pub fn is_waiting(&self) -> bool {
        self.wait.is_some()
    }
    /// A warning written now, before whatever stdout gets next.
    pub(super) fn warn(mut self, s: impl AsRef<str>) -> Self {
        self.warnings
            .push((self.stdout.len(), s.as_ref().to_string()));
        self
    }
    /// This outcome followed by `next`, as one command's output.
    pub(super) fn then(mut self, next: Outcome) -> Self {
        let at = self.stdout.len();
        self.warnings
            .extend(next.warnings.into_iter().map(|(i, w)| (i + at, w)));
        self.stdout.push_str(&next.stdout);
        self.stderr.push_str(&next.stderr);
        self.error = next.error.or(self.error);
        self.failed |= next.failed;
        self.deleted_pods += next.deleted_pods;
        self.forged += next.forged;
        self
    }

    pub(super) fn err(mut self, s: impl AsRef<str>) -> Self {
        self.stderr.push_str(s.as_ref());
        self.failed = true;
        self
    }
    pub(super) fn api_error(self, e: &ApiError, context: Option<String>) -> Self {
        self.api(e, context)
    }

    pub(super) fn api(self, e: &ApiError, context: Option<String>) -> Self {
        // kubectl prints validation failures as they come: `The Deployment "web" is invalid: ...`.
        let msg = match context {
            _ if e.reason == Reason::Invalid => format!("{}\n", e.message),
            // No reason: kubectl's StandardErrorMessage leaves out the parentheses.
            Some(c) if e.reason == Reason::Unknown => {
                format!("Error from server: {c}{}\n", e.message)
            }
            None if e.reason == Reason::Unknown => format!("Error from server: {}\n", e.message),
            Some(c) => format!(
                "Error from server ({}): {c}{}\n",
                e.reason.as_str(),
                e.message
            ),
            None => format!("Error from server ({}): {}\n", e.reason.as_str(), e.message),
        };
        let mut o = self.err(msg);
        o.error = Some(e.reason);
        o
    }
}

/// The scenario's manifest files, by name.
pub type Files = BTreeMap<String, String>;

/// The field manager kubectl sends for a command (F8).
fn manager(cmd: &Command) -> (String, Option<&'static str>) {
    let m = |s: &str| s.to_string();
    match cmd {
        Command::Scale { .. } => (m("kubectl"), Some("scale")),
        Command::Patch { subresource, .. } => (
            m("kubectl-patch"),
            if subresource.as_deref() == Some("status") {
                Some("status")
            } else {
                None
            },
        ),
        Command::CreateFile { .. } | Command::CreateDeployment { .. } => {
            (m("kubectl-create"), None)
        }
        Command::Replace { .. } => (m("kubectl-replace"), None),
        Command::Apply { field_manager, .. } => (
            field_manager
                .clone()
                .unwrap_or_else(|| m("kubectl-client-side-apply")),
            None,
        ),
        // kubectl's undo patch names no field manager, so the user agent's `kubectl` owns it.
        Command::Rollout {
            action: RolloutAction::Undo,
            ..
        } => (m("kubectl"), None),
        Command::Rollout { .. } => (m("kubectl-rollout"), None),
        Command::Label {
            annotate: false, ..
        } => (m("kubectl-label"), None),
        Command::Label { annotate: true, .. } => (m("kubectl-annotate"), None),
        Command::SetImage { .. } => (m("kubectl-set"), None),
        Command::Get { .. }
        | Command::Describe { .. }
        | Command::Delete { .. }
        | Command::ViewLastApplied { .. } => (m("kubectl"), None),
    }
}

pub fn run(cluster: &mut Cluster, files: &Files, cmd: &Command) -> Outcome {
    // kubectl builds its printer before it sends anything: a broken template writes nothing.
    if let Some(Output::JsonPath(t)) = cmd.printed_output()
        && let Err(e) = jsonpath::parse(t)
    {
        return Outcome::default().err(format!("error: {e}\n"));
    }
    let (mgr, sub) = manager(cmd);
    cluster.api.set_manager(&mgr, sub);
    let mut out = run_command(cluster, files, cmd);
    cluster.api.reset_manager();
    if !out.failed
        && let Some(format) = cmd.printed_output()
    {
        // What the server returned, before any controller reacts to it.
        let mut printed = Outcome::default();
        for (i, (kind, name)) in written(cmd, files).iter().enumerate() {
            if let Ok(v) = cluster.api.get(*kind, name) {
                if i > 0 && *format == Output::Yaml {
                    printed = printed.out("---\n");
                }
                printed =
                    printed.then(print_object(*kind, &hide_managed_fields(v.clone()), format));
            }
        }
        out.stdout = printed.stdout;
        out.stderr.push_str(&printed.stderr);
        out.failed |= printed.failed;
        let end = out.stdout.len();
        for (at, _) in &mut out.warnings {
            *at = (*at).min(end);
        }
    }
    cluster.settle();
    // A watch looks first at once, as kubectl's does when the server has answered.
    super::wait::resume(cluster, out)
}

/// Runs `cmd` to its end, moving the cluster's own clock while it waits: for callers
/// with no other writers or goals to run each second.
pub fn run_to_end(cluster: &mut Cluster, files: &Files, cmd: &Command) -> Outcome {
    let mut o = run(cluster, files, cmd);
    while o.is_waiting() {
        cluster.tick();
        o = super::wait::resume(cluster, o);
    }
    o
}

/// The objects a write with `-o` prints: its target, or its manifest's objects in order.
fn written(cmd: &Command, files: &Files) -> Vec<(Kind, String)> {
    let target = |t: &Target| vec![(t.kind, t.names.first().cloned().unwrap_or_default())];
    match cmd {
        Command::Scale { target: t, .. }
        | Command::Patch { target: t, .. }
        | Command::Label { target: t, .. }
        | Command::SetImage { target: t, .. } => target(t),
        Command::CreateDeployment { name, .. } => vec![(Kind::Deployment, name.clone())],
        Command::CreateFile { file, .. }
        | Command::Replace { file, .. }
        | Command::Apply { file, .. } => file
            .split(',')
            .filter_map(|f| files.get(f))
            .filter_map(|text| parse_manifest(text).ok())
            .flatten()
            .filter_map(|o| Some((manifest_kind(&o).ok()?, obj::name(&o).to_string())))
            .collect(),
        _ => Vec::new(),
    }
}

fn run_command(cluster: &mut Cluster, files: &Files, cmd: &Command) -> Outcome {
    match cmd {
        Command::Get {
            kinds,
            names,
            selector,
            namespace,
            print,
        } => super::get::get(cluster, kinds, names, selector.as_deref(), namespace, print),
        Command::Describe {
            kind,
            names,
            namespace,
        } => super::describe::describe(cluster, *kind, names, namespace),
        Command::Scale {
            target,
            replicas,
            current_replicas,
            ..
        } => scale(cluster, target, *replicas, *current_replicas),
        Command::Delete {
            target,
            file,
            selector,
            grace_period,
            now,
            force,
            cascade,
            cascade_warning,
            wait,
            timeout,
            ..
        } => {
            let mut deleted = Vec::new();
            let o = delete(
                cluster,
                files,
                target.as_ref(),
                file.as_deref(),
                selector.as_deref(),
                *grace_period,
                *now,
                *force,
                *cascade,
                cascade_warning.as_deref(),
                &mut deleted,
            );
            if *wait {
                o.waiting(Wait::deletion(deleted, *timeout))
            } else {
                o
            }
        }
        Command::Patch {
            target,
            patch_type,
            patch,
            subresource,
            ..
        } => patch_cmd(cluster, target, *patch_type, patch, subresource.as_deref()),
        Command::CreateDeployment {
            name,
            images,
            replicas,
            port,
            dry_run,
            bare_dry_run,
            output,
        } => {
            let warned = if *bare_dry_run {
                Outcome::default().warn(klog_warning(
                    cluster.now(),
                    "helpers.go:702",
                    "--dry-run is deprecated and can be replaced with --dry-run=client.",
                ))
            } else {
                Outcome::default()
            };
            warned.then(create_deployment(
                cluster,
                name,
                images,
                *replicas,
                *port,
                *dry_run,
                output.as_ref(),
            ))
        }
        Command::CreateFile { file, .. } => {
            with_manifests(files, file, |file, objs| create_file(cluster, file, objs))
        }
        Command::Replace { file, .. } => {
            with_manifests(files, file, |file, objs| replace_file(cluster, file, objs))
        }
        Command::Apply {
            file,
            server_side,
            field_manager,
            force_conflicts,
            ..
        } => with_manifests(files, file, |file, objs| {
            super::apply::apply(
                cluster,
                file,
                objs,
                *server_side,
                field_manager.as_deref(),
                *force_conflicts,
            )
        }),
        Command::Rollout {
            action: RolloutAction::Status,
            target,
            watch,
            timeout_ms,
            ..
        } => match one(cluster, target) {
            Ok((_, name)) => Outcome::default().waiting(Wait::rollout(&name, *watch, *timeout_ms)),
            Err(o) => o,
        },
        Command::Rollout {
            action,
            target,
            to_revision,
            ..
        } => rollout(cluster, *action, target, *to_revision),
        Command::Label {
            target,
            changes,
            overwrite,
            annotate,
            ..
        } => label(cluster, target, changes, *overwrite, *annotate),
        Command::SetImage { target, images, .. } => set_image(cluster, target, images),
        Command::ViewLastApplied { target, json } => view_last_applied(cluster, target, *json),
    }
}

/// Reads every file of a comma-separated `-f` list first (kubectl's builder fails before
/// any write if one is missing or broken), then runs `f` on each file's objects in order.
fn with_manifests(
    files: &Files,
    list: &str,
    mut f: impl FnMut(&str, Vec<Value>) -> Outcome,
) -> Outcome {
    let mut read = Vec::new();
    for file in list.split(',').filter(|s| !s.is_empty()) {
        let Some(text) = files.get(file) else {
            return Outcome::default().err(format!("error: the path \"{file}\" does not exist\n"));
        };
        match parse_manifest(text) {
            Ok(objs) => read.push((file, objs)),
            Err(e) => {
                return Outcome::default().err(format!("error: error parsing {file}: {e}\n"));
            }
        }
    }
    if read.iter().all(|(_, objs)| objs.is_empty()) {
        return Outcome::default().err("error: no objects passed to apply\n");
    }
    read.into_iter()
        .fold(Outcome::default(), |done, (file, objs)| {
            done.then(f(file, objs))
        })
}

fn manifest_kind(o: &Value) -> Result<Kind, String> {
    let kind = o["kind"].as_str().unwrap_or("");
    match Kind::from_kind_name(kind) {
        Some(k) if k != Kind::Event => Ok(k),
        _ => Err(format!(
            "error: resource mapping not found for name: \"{}\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{}\"\nensure CRDs are installed first\n",
            obj::name(o),
            o["apiVersion"].as_str().unwrap_or("")
        )),
    }
}

/// Everything the API does not keep from a client's object.
pub(super) fn strip_server_fields(o: &mut Value) {
    for f in [
        "uid",
        "creationTimestamp",
        "generation",
        "managedFields",
        "selfLink",
        "deletionTimestamp",
    ] {
        obj::remove(o, &["metadata", f]);
    }
}

pub(super) fn hide_managed_fields(mut v: Value) -> Value {
    obj::remove(&mut v, &["metadata", "managedFields"]);
    v
}

/// A main-endpoint update that prints `line` on success.
fn update_then(cluster: &mut Cluster, kind: Kind, next: Value, line: String) -> Outcome {
    match cluster.api.update(kind, next, None) {
        Ok(_) => Outcome::default().out(line),
        Err(e) => Outcome::default().api(&e, None),
    }
}

fn one<'a>(cluster: &'a Cluster, t: &Target) -> Result<(&'a Value, String), Outcome> {
    let name = t.names.first().cloned().unwrap_or_default();
    cluster
        .api
        .get(t.kind, &name)
        .map(|v| (v, name.clone()))
        .map_err(|e| Outcome::default().api(&e, None))
}

fn scale(cluster: &mut Cluster, t: &Target, replicas: i64, current: Option<i64>) -> Outcome {
    if !matches!(t.kind, Kind::Deployment | Kind::ReplicaSet) {
        return Outcome::default().err(format!(
            "error: no scaler has been implemented for {{\"\" \"{}\"}}\n",
            t.kind.kind_name()
        ));
    }
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    // ScalePrecondition: checked against the scale subresource before the write.
    let was = obj::int(&cur, &["spec", "replicas"]).unwrap_or(1);
    if let Some(want) = current.filter(|w| *w != was) {
        return Outcome::default().err(format!(
            "error: Expected replicas to be {want}, was {was}\n"
        ));
    }
    let mut next = cur;
    next["spec"]["replicas"] = json!(replicas);
    update_then(
        cluster,
        t.kind,
        next,
        format!("{}/{name} scaled\n", t.kind.kind_group()),
    )
}

#[allow(clippy::too_many_arguments)]
fn delete(
    cluster: &mut Cluster,
    files: &Files,
    target: Option<&Target>,
    file: Option<&str>,
    selector: Option<&str>,
    grace_period: Option<i64>,
    now_flag: bool,
    force: bool,
    cascade: Propagation,
    cascade_warning: Option<&str>,
    deleted: &mut Vec<(Kind, String, String)>,
) -> Outcome {
    // kubectl warns of a boolean --cascade while it reads its flags, before anything else.
    let mut o = Outcome::default();
    if let Some(w) = cascade_warning {
        o = o.warn(w);
    }
    let mut items: Vec<(Kind, String)> = Vec::new();
    if let Some(f) = file {
        let Some(text) = files.get(f) else {
            return o.err(format!("error: the path \"{f}\" does not exist\n"));
        };
        match parse_manifest(text) {
            Ok(objs) => {
                for x in objs {
                    match manifest_kind(&x) {
                        Ok(k) => items.push((k, obj::name(&x).to_string())),
                        Err(e) => o = o.err(e),
                    }
                }
            }
            Err(e) => return o.err(format!("error: error parsing {f}: {e}\n")),
        }
    }
    // Validate warns of --force once the files are read, before anything is deleted.
    let forced = force && grace_period == Some(0);
    if forced {
        o = o.warn("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n");
    }
    if let Some(t) = target {
        if let Some(sel) = selector {
            items.extend(
                cluster
                    .api
                    .list(t.kind)
                    .filter(|x| obj::label_query_matches(sel, x))
                    .map(|x| (t.kind, obj::name(x).to_string())),
            );
            if items.is_empty() {
                return o.out("No resources found\n");
            }
        } else {
            items.extend(t.names.iter().map(|n| (t.kind, n.clone())));
        }
    }
    // kubectl turns --grace-period=0 into 1 unless --force is given.
    let grace = if now_flag {
        Some(1)
    } else {
        match grace_period {
            Some(0) if !force => Some(1),
            g => g,
        }
    };
    let now = cluster.now();
    for (kind, name) in items {
        match cluster
            .api
            .delete_propagating(kind, &name, grace, cascade, now)
        {
            Ok(x) => {
                deleted.push((kind, name.clone(), obj::uid(&x).to_string()));
                if kind == Kind::Pod {
                    o.deleted_pods += 1;
                }
                let word = if forced { "force deleted" } else { "deleted" };
                o = o.out(format!("{} \"{name}\" {word}\n", kind.kind_group()));
            }
            Err(e) => o = o.api(&e, None),
        }
    }
    // Deleting an owner cascades as --cascade asked (H6).
    cluster.collect_garbage();
    o
}

fn patch_cmd(
    cluster: &mut Cluster,
    t: &Target,
    patch_type: PatchType,
    patch: &str,
    subresource: Option<&str>,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let parsed: Value = match parse_manifest(patch) {
        Ok(mut v) if v.len() == 1 => v.remove(0),
        Ok(_) => {
            return Outcome::default()
                .err("error: unable to parse the patch: expected one object\n");
        }
        Err(e) => {
            return Outcome::default().err(format!("error: unable to parse \"{patch}\": {e}\n"));
        }
    };
    let next = match patch_type {
        PatchType::Merge => merge::merge_patch(&cur, &parsed),
        PatchType::Strategic => merge::strategic_merge_patch(&cur, &parsed),
        PatchType::Json => match merge::json_patch(&cur, &parsed) {
            Ok(v) => v,
            Err(e) => {
                return Outcome::default().err(format!("Error from server (BadRequest): {e}\n"));
            }
        },
    };
    if next == cur {
        return Outcome::default().out(format!(
            "{}/{name} patched (no change)\n",
            t.kind.kind_group()
        ));
    }
    let mut o = Outcome::default();
    // A6: a resourceVersion the patch sets is a precondition, on `/status` too.
    let rv = crate::sim::api::precondition(&next).map(str::to_string);
    let result = match subresource {
        Some("status") => cluster
            .api
            .check_precondition(t.kind, &name, rv.as_deref())
            .and_then(|()| {
                o.forged += 1;
                cluster.api.update_status(t.kind, next)
            }),
        _ => cluster.api.update(t.kind, next, rv.as_deref()),
    };
    match result {
        // E3: the server drops a status change sent to the main endpoint and stores nothing;
        // kubectl compares what came back with what it read (reflect.DeepEqual in patch.go)
        // and says so.
        Ok(stored) if stored == cur => o.out(format!(
            "{}/{name} patched (no change)\n",
            t.kind.kind_group()
        )),
        Ok(_) => o.out(format!("{}/{name} patched\n", t.kind.kind_group())),
        Err(e) => o.api(&e, None),
    }
}

/// One object printed as `-o` asks, as kubectl prints what it would send or got back.
fn print_object(kind: Kind, v: &Value, output: &Output) -> Outcome {
    match output {
        Output::Json => Outcome::default().out(to_json(v)),
        Output::Yaml => Outcome::default().out(to_yaml(v)),
        Output::JsonPath(t) => match jsonpath::parse(t).and_then(|jp| jp.execute(v)) {
            Ok(s) => Outcome::default().out(s),
            Err(e) => Outcome::default().err(format!("error: {e}\n")),
        },
        Output::Name | Output::Table | Output::Wide => {
            Outcome::default().out(format!("{}/{}\n", kind.kind_group(), obj::name(v)))
        }
    }
}

/// The Deployment `kubectl create deployment --dry-run=client -o json` prints: a typed
/// object, so its keys come in Go's struct order, not sorted as a fetched object's are.
fn client_deployment_json(d: &Value) -> String {
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

#[allow(clippy::too_many_arguments)]
/// A warning as kubectl logs it through klog: severity and date, time, thread id, source
/// line. The time is the simulated one; the demo has one process, so the id is 1.
fn klog_warning(now: u64, at: &str, msg: &str) -> String {
    let t = crate::sim::time::rfc3339(now);
    // 2025-01-06T10:00:05Z -> 0106 10:00:05
    format!(
        "W{}{} {}.000000       1 {at}] {msg}\n",
        &t[5..7],
        &t[8..10],
        &t[11..19]
    )
}

fn create_deployment(
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

/// Runs `f` on each manifest object of a known kind, in file order; an unknown kind is
/// reported in its place and skipped.
pub(super) fn each_object(
    objs: Vec<Value>,
    mut f: impl FnMut(Kind, Value, Outcome) -> Outcome,
) -> Outcome {
    let mut o = Outcome::default();
    for x in objs {
        o = match manifest_kind(&x) {
            Ok(kind) => f(kind, x, o),
            Err(e) => o.err(e),
        };
    }
    o
}

fn create_file(cluster: &mut Cluster, file: &str, objs: Vec<Value>) -> Outcome {
    each_object(objs, |kind, mut x, o| {
        strip_server_fields(&mut x);
        let name = obj::name(&x).to_string();
        match cluster.api.create(kind, x, cluster.now()) {
            Ok(_) => o.out(format!("{}/{name} created\n", kind.kind_group())),
            Err(e) => o.api(&e, Some(format!("error when creating \"{file}\": "))),
        }
    })
}

fn replace_file(cluster: &mut Cluster, file: &str, objs: Vec<Value>) -> Outcome {
    each_object(objs, |kind, mut x, o| {
        let name = obj::name(&x).to_string();
        // F2: with no resourceVersion in the file, kubectl sends the current one.
        let rv = crate::sim::api::precondition(&x).map(str::to_string);
        strip_server_fields(&mut x);
        match cluster.api.update(kind, x, rv.as_deref()) {
            Ok(_) => o.out(format!("{}/{name} replaced\n", kind.kind_group())),
            Err(e) => o.api(&e, Some(format!("error when replacing \"{file}\": "))),
        }
    })
}

fn rollout(
    cluster: &mut Cluster,
    action: RolloutAction,
    t: &Target,
    to_revision: Option<i64>,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let kg = t.kind.kind_group();
    // polymorphichelpers/rollback.go and history.go: only Deployments (of the kinds the
    // demo has) have a rollbacker and a history viewer.
    if t.kind != Kind::Deployment {
        let what = match action {
            RolloutAction::Undo => "rollbacker",
            _ => "history viewer",
        };
        return Outcome::default().err(format!(
            "error: no {what} has been implemented for \"{}\"\n",
            t.kind.group_kind()
        ));
    }
    match action {
        RolloutAction::Restart => {
            // kubectl's objectRestarter refuses before sending anything.
            if cur["spec"]["paused"] == json!(true) {
                return Outcome::default().err(format!(
                    "error: {} \"{name}\" can't restart paused deployment (run rollout resume first)\n",
                    t.kind.group_resource()
                ));
            }
            let mut next = cur.clone();
            obj::set(
                &mut next,
                &[
                    "spec",
                    "template",
                    "metadata",
                    "annotations",
                    "kubectl.kubernetes.io/restartedAt",
                ],
                json!(rfc3339(cluster.now())),
            );
            // The stamp has one-second precision: a second restart within the same second
            // makes an empty patch, which rollout_restart.go refuses before sending.
            if next == cur {
                return Outcome::default().err(format!(
                    "error: failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another\n"
                ));
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} restarted\n"))
        }
        RolloutAction::Pause | RolloutAction::Resume => {
            let pause = action == RolloutAction::Pause;
            let word = if pause { "paused" } else { "resumed" };
            // kubectl's objectPauser and objectResumer refuse before sending anything
            // (polymorphichelpers/objectpauser.go, objectresumer.go); rollout_pause.go
            // wraps it as `error: <resource> "<name>" <why>`, and kubectl exits 1.
            if (cur["spec"]["paused"] == json!(true)) == pause {
                let why = if pause {
                    "is already paused"
                } else {
                    "is not paused"
                };
                return Outcome::default().err(format!(
                    "error: {} \"{name}\" {why}\n",
                    t.kind.group_resource()
                ));
            }
            let mut next = cur;
            if pause {
                next["spec"]["paused"] = json!(true);
            } else {
                obj::remove(&mut next, &["spec", "paused"]);
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} {word}\n"))
        }
        RolloutAction::History => {
            let revs = revisions(cluster, &cur);
            if revs.is_empty() {
                return Outcome::default().err(format!(
                    "error: no rollout history found for deployment \"{name}\"\n"
                ));
            }
            let mut s = format!("{kg}/{name} \nREVISION  CHANGE-CAUSE\n");
            for (r, rs) in &revs {
                let cause = obj::str(
                    rs,
                    &["metadata", "annotations", "kubernetes.io/change-cause"],
                )
                .unwrap_or("<none>");
                s.push_str(&format!("{:<10}{cause}\n", r));
            }
            s.push('\n');
            Outcome::default().out(s)
        }
        RolloutAction::Undo => {
            // kubectl polymorphichelpers/rollback.go DeploymentRollbacker.Rollback.
            let revs = revisions(cluster, &cur);
            let wanted = to_revision.unwrap_or(0);
            if wanted < 0 {
                return Outcome::default().err(format!(
                    "error: unable to find specified revision {wanted} in history\n"
                ));
            }
            // deploymentRevision: the asked-for revision, or by default the second
            // newest of all the Deployment's ReplicaSets.
            let target = if wanted > 0 {
                revs.iter().find(|(n, _)| *n == wanted)
            } else {
                revs.iter().rev().nth(1)
            };
            let Some((_, rs)) = target else {
                return if wanted > 0 {
                    Outcome::default().err(format!(
                        "error: unable to find specified revision {wanted} in history\n"
                    ))
                } else {
                    Outcome::default().err(format!(
                        "error: no rollout history found for deployment \"{name}\"\n"
                    ))
                };
            };
            if cur["spec"]["paused"] == json!(true) {
                return Outcome::default().err(format!(
                    "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/{name}' and try again\n"
                ));
            }
            let mut template = rs["spec"]["template"].clone();
            if let Some(l) = template
                .pointer_mut("/metadata/labels")
                .and_then(Value::as_object_mut)
            {
                l.remove("pod-template-hash");
            }
            if template == cur["spec"]["template"] {
                // kubectl prints the --to-revision value: 0 when none was given.
                return Outcome::default()
                    .out(format!("{kg}/{name} skipped rollback (current template already matches revision {wanted})\n"));
            }
            let mut next = cur;
            next["spec"]["template"] = template;
            // getDeploymentPatch replaces metadata.annotations too: the ReplicaSet's,
            // except annotationsToSkip, which keep the Deployment's values.
            let skip = |k: &str| UNDO_KEEPS.contains(&k);
            let mut annotations = serde_json::Map::new();
            if let Some(a) = next["metadata"]["annotations"].as_object() {
                for (k, v) in a.iter().filter(|(k, _)| skip(k)) {
                    annotations.insert(k.clone(), v.clone());
                }
            }
            if let Some(a) = rs["metadata"]["annotations"].as_object() {
                for (k, v) in a.iter().filter(|(k, _)| !skip(k)) {
                    annotations.insert(k.clone(), v.clone());
                }
            }
            if annotations.is_empty() {
                obj::remove(&mut next, &["metadata", "annotations"]);
            } else {
                next["metadata"]["annotations"] = Value::Object(annotations);
            }
            update_then(cluster, t.kind, next, format!("{kg}/{name} rolled back\n"))
        }
        // Handled before: it needs the watch flags.
        RolloutAction::Status => Outcome::default(),
    }
}

/// rollback.go annotationsToSkip: kept from the Deployment, never copied from the
/// ReplicaSet, when rolling back.
const UNDO_KEEPS: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    "deployment.kubernetes.io/revision",
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// The Deployment's ReplicaSets by revision, ascending.
fn revisions(cluster: &Cluster, d: &Value) -> Vec<(i64, Value)> {
    let uid = obj::uid(d);
    let mut v: Vec<(i64, Value)> = cluster
        .api
        .list(Kind::ReplicaSet)
        .filter(|rs| obj::controller_uid(rs) == Some(uid))
        .filter_map(|rs| {
            obj::str(
                rs,
                &[
                    "metadata",
                    "annotations",
                    "deployment.kubernetes.io/revision",
                ],
            )
            .and_then(|r| r.parse().ok())
            .map(|r| (r, rs.clone()))
        })
        .collect();
    v.sort_by_key(|(r, _)| *r);
    v
}

fn label(
    cluster: &mut Cluster,
    t: &Target,
    changes: &[MetaChange],
    overwrite: bool,
    annotate: bool,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let field = if annotate { "annotations" } else { "labels" };
    let mut next = cur.clone();
    let mut conflicts = Vec::new();
    for c in changes {
        match c {
            MetaChange::Set(k, v) => {
                let existing = obj::str(&cur, &["metadata", field, k]);
                if let Some(old) = existing
                    && old != v
                    && !overwrite
                {
                    conflicts.push((k.clone(), old.to_string()));
                    continue;
                }
                obj::set(&mut next, &["metadata", field, k], json!(v));
            }
            MetaChange::Remove(k) => {
                obj::remove(&mut next, &["metadata", field, k]);
            }
        }
    }
    if let Some((k, old)) = conflicts.first() {
        return Outcome::default().err(if annotate {
            format!("error: --overwrite is false but found the following declared annotation(s): '{k}' already has a value ({old})\n")
        } else {
            format!("error: '{k}' already has a value ({old}), and --overwrite is false\n")
        });
    }
    let kg = t.kind.kind_group();
    if next == cur {
        return Outcome::default().out(if annotate {
            format!("{kg}/{name} annotated\n")
        } else {
            format!("{kg}/{name} not labeled\n")
        });
    }
    // updateDataChangeMsg: without --overwrite, a label write that leaves the object
    // shorter (a removal) is reported as "unlabeled".
    let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
    let done = if annotate {
        "annotated"
    } else if !overwrite && size(&next) < size(&cur) {
        "unlabeled"
    } else {
        "labeled"
    };
    update_then(cluster, t.kind, next, format!("{kg}/{name} {done}\n"))
}

/// `apply view-last-applied`: the annotation re-indented (json.Indent keeps its trailing
/// newline) or converted to YAML.
fn view_last_applied(cluster: &Cluster, t: &Target, json: bool) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let Some(text) = obj::str(
        cur,
        &[
            "metadata",
            "annotations",
            crate::sim::merge::LAST_APPLIED_ANNOTATION,
        ],
    ) else {
        return Outcome::default().err(format!(
            "error: no last-applied-configuration annotation found on resource: {name}\n"
        ));
    };
    match serde_json::from_str::<Value>(text) {
        Ok(v) if json => {
            let tail = if text.ends_with('\n') { "\n" } else { "" };
            Outcome::default().out(format!(
                "{}{tail}",
                serde_json::to_string_pretty(&v).unwrap_or_default()
            ))
        }
        Ok(v) => Outcome::default().out(to_yaml(&v)),
        Err(e) => Outcome::default().err(format!("error: {e}\n")),
    }
}

fn set_image(cluster: &mut Cluster, t: &Target, images: &[(String, String)]) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let mut next = cur.clone();
    let path: &[&str] = if t.kind == Kind::Pod {
        &["spec", "containers"]
    } else {
        &["spec", "template", "spec", "containers"]
    };
    let Some(containers) = obj::path(&cur, path).and_then(Value::as_array).cloned() else {
        return Outcome::default().err("error: the object has no containers\n");
    };
    let mut updated = containers.clone();
    for (c, image) in images {
        let mut hit = false;
        for u in updated.iter_mut() {
            if c == "*" || u["name"] == json!(c) {
                u["image"] = json!(image);
                hit = true;
            }
        }
        if !hit {
            return Outcome::default()
                .err(format!("error: unable to find container named \"{c}\"\n"));
        }
    }
    if updated == containers {
        return Outcome::default();
    }
    obj::set(&mut next, path, Value::Array(updated));
    update_then(
        cluster,
        t.kind,
        next,
        format!("{}/{name} image updated\n", t.kind.kind_group()),
    )
}

#[cfg(test)]
mod rollout_status_tests {
    use crate::sim::session::Session;

    const WAITING: &str = "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n";

    fn stuck() -> Session {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line("kubectl set image deploy/web app=nginx:nonexistent");
        s
    }

    #[test]
    fn timeout_advances_time_only_up_to_it() {
        let mut s = stuck();
        let t0 = s.now();
        let o = s.run_line("kubectl rollout status deploy/web --timeout=5s");
        assert_eq!(s.now() - t0, 5);
        assert_eq!(o.stdout, WAITING);
        assert_eq!(o.stderr, "error: timed out waiting for the condition\n");
        // Sub-second remainders cannot be waited for on a one-second clock.
        let t1 = s.now();
        s.run_line("kubectl rollout status deploy/web --timeout=2500ms");
        assert_eq!(s.now() - t1, 2);
    }

    #[test]
    fn watch_false_prints_the_status_once_without_waiting() {
        let mut s = stuck();
        let t0 = s.now();
        for line in [
            "kubectl rollout status deploy/web --watch=false",
            "kubectl rollout status deploy/web -w=false",
        ] {
            let o = s.run_line(line);
            assert_eq!((o.stdout.as_str(), o.stderr.as_str()), (WAITING, ""));
        }
        assert_eq!(s.now(), t0);
    }

    #[test]
    fn without_timeout_the_cap_is_said_honestly() {
        let mut s = Session::new("rollout", 1).unwrap();
        s.run_line("pause deployment");
        s.run_line("kubectl scale deploy web --replicas=4");
        let t0 = s.now();
        let o = s.run_line("kubectl rollout status deploy/web");
        assert_eq!(s.now() - t0, crate::sim::kubectl::wait::ROLLOUT_STATUS_CAP);
        assert_eq!(
            o.stdout,
            "Waiting for deployment spec update to be observed...\n"
        );
        assert!(
            o.stderr
                .contains("stopped watching after 600 simulated seconds")
        );
        assert!(!o.stderr.contains("timed out waiting for the condition"));
    }

    #[test]
    fn a_bad_timeout_is_refused_as_pflag_does() {
        let mut s = stuck();
        let o = s.run_line("kubectl rollout status deploy/web --timeout=5");
        assert!(o.stderr.starts_with(
            "error: invalid argument \"5\" for \"--timeout\" flag: time: missing unit in duration \"5\"\n"
        ));
    }
}
