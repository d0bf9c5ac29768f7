//! Each verb's arguments and flags, into its [`Command`], with kubectl's errors (one
//! function per verb, as kubectl's pkg/cmd/<verb> defines its flags).

use super::*;

pub(super) fn opt_output(f: &Flags) -> Result<Option<Output>, UsageError> {
    f.get("output")
        .map(|o| parse_output(o, OBJECT_FORMATS))
        .transpose()
}

pub(super) fn get(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "get",
        rest,
        &[
            OUTPUT,
            SELECTOR,
            NAMESPACE,
            boolean("show-managed-fields"),
            boolean("show-labels"),
            boolean("no-headers"),
            val("sort-by", None),
            Flag {
                long: "watch",
                short: Some('w'),
                value: false,
                bare: None,
            },
            boolean("watch-only"),
            Flag {
                long: "all-namespaces",
                short: Some('A'),
                value: false,
                bare: None,
            },
        ],
    )?;
    if f.bool("get", "all-namespaces")? {
        return Err(usage(
            "error: kubedrill's demo has one namespace, default: drop -A (--all-namespaces)",
        ));
    }
    // A watch streams until interrupted: the demo's time moves on its own, so it says so
    // instead of pretending the flag does not exist.
    if f.bool("get", "watch")? || f.bool("get", "watch-only")? {
        return Err(usage(
            "error: kubedrill's demo does not stream with --watch; let time pass (Space or . in the app, `tick N` in kubedrill sim) and run the get again",
        ));
    }
    let Some(first) = f.positional.first() else {
        return Err(usage(
            "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples",
        ));
    };
    let (kinds, names) = if first.contains('/') {
        let t = target(&f.positional)?.ok_or_else(|| unknown_type(first))?;
        (vec![t.kind], t.names)
    } else {
        let mut kinds = Vec::new();
        for t in first.split(',') {
            match t {
                // The `all` category, in discovery order: the core group, then apps.
                "all" => kinds.extend(ALL_CATEGORY),
                _ => kinds.push(
                    crate::sim::kubectl::discovery::resolve(t).ok_or_else(|| unknown_type(t))?,
                ),
            }
        }
        (kinds, f.positional[1..].to_vec())
    };
    let selector = f.get("selector").map(str::to_string);
    if selector.is_some() && !names.is_empty() {
        return Err(usage(
            "error: name cannot be provided when a selector is specified",
        ));
    }
    Ok(Command::Get {
        kinds,
        names,
        selector,
        namespace: f.namespace(),
        print: GetPrint {
            output: f
                .get("output")
                .map_or(Ok(Output::Table), |o| parse_output(o, GET_FORMATS))?,
            show_managed_fields: f.bool("get", "show-managed-fields")?,
            show_labels: f.bool("get", "show-labels")?,
            no_headers: f.bool("get", "no-headers")?,
            sort_by: f.get("sort-by").map(str::to_string),
        },
    })
}

/// The kinds of the `all` category the demo serves, in the order kubectl lists them.
const ALL_CATEGORY: [Kind; 9] = [
    Kind::Pod,
    Kind::Service,
    Kind::DaemonSet,
    Kind::Deployment,
    Kind::ReplicaSet,
    Kind::StatefulSet,
    Kind::HorizontalPodAutoscaler,
    Kind::CronJob,
    Kind::Job,
];

pub(super) fn describe(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags("describe", rest, &[NAMESPACE, SELECTOR])?;
    let t = target(&f.positional)?.ok_or_else(|| {
        usage("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.")
    })?;
    if matches!(t.kind, Kind::Event | Kind::Lease) {
        return Err(usage(
            "error: kubedrill's demo describes deployments, replicasets, pods and nodes; events show in each one's describe, or with `kubectl get events`; a lease with `kubectl get lease NAME -n kube-node-lease -o yaml` or in `describe node`",
        ));
    }
    // kubectl has no describer for them: its generic one prints the raw object.
    if t.kind == Kind::ControllerRevision {
        return Err(usage(
            "error: kubedrill's demo does not describe controllerrevisions (kubectl's generic describer prints the raw object); `kubectl get controllerrevisions -o yaml` shows the same fields",
        ));
    }
    let selector = f.get("selector").map(str::to_string);
    if selector.is_some() && !t.names.is_empty() {
        return Err(usage(
            "error: name cannot be provided when a selector is specified",
        ));
    }
    Ok(Command::Describe {
        kind: t.kind,
        names: t.names,
        selector,
        namespace: f.namespace(),
    })
}

pub(super) fn scale(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "scale",
        rest,
        &[
            val("replicas", None),
            NAMESPACE,
            OUTPUT,
            val("current-replicas", None),
        ],
    )?;
    let Some(replicas) = f.int("scale", "replicas")? else {
        // cobra checks required flags before the command runs.
        return Err(usage("error: required flag(s) \"replicas\" not set"));
    };
    let current_replicas = f.int("scale", "current-replicas")?;
    let target = one_target(&f.positional, NO_RESOURCES)?;
    match Some(replicas) {
        Some(n) if n >= 0 => Ok(Command::Scale {
            target,
            replicas: n,
            // -1 is kubectl's "no precondition".
            current_replicas: current_replicas.filter(|c| *c != -1),
            output: opt_output(&f)?,
        }),
        _ => Err(usage(
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0",
        )),
    }
}

pub(super) fn delete(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "delete",
        rest,
        &[
            FILENAME,
            SELECTOR,
            NAMESPACE,
            val("grace-period", None),
            boolean("now"),
            boolean("force"),
            boolean("wait"),
            val("timeout", None),
            val("cascade", None),
            boolean("all"),
            val("raw", None),
        ],
    )?;
    if let Some(raw) = f.get("raw") {
        if !raw.starts_with('/') {
            return Err(usage(format!(
                "error: --raw must be a valid URL path: parse \"{raw}\": invalid URI for request"
            )));
        }
        return Ok(Command::DeleteRaw {
            path: raw.to_string(),
        });
    }
    let target = target(&f.positional)?;
    if let Some(t) = target
        .as_ref()
        .filter(|t| matches!(t.kind, Kind::Node | Kind::Lease))
    {
        let what = if t.kind == Kind::Node {
            "nodes"
        } else {
            "node leases"
        };
        return Err(usage(format!(
            "error: kubedrill's demo keeps the {what} its scenario registers: it has no pod \
             garbage collector to clean up after a deleted node, and its kubelets do not \
             re-register; `help` lists what it runs"
        )));
    }
    let file = f.get("filename").map(str::to_string);
    // `--all` selects every object of the type, as an empty selector does.
    let all = f.bool("delete", "all")?;
    let selector = f
        .get("selector")
        .map(str::to_string)
        .or_else(|| all.then(String::new));
    if selector.is_some() {
        match &target {
            None if file.is_none() => {
                return Err(usage(
                    "error: at least one resource must be specified to use a selector",
                ));
            }
            Some(t) if !t.names.is_empty() => {
                return Err(usage(
                    "error: name cannot be provided when a selector is specified",
                ));
            }
            _ => {}
        }
    }
    match (&target, &file) {
        (None, None) => return Err(usage(NO_RESOURCES)),
        (Some(t), None) if t.names.is_empty() && selector.is_none() => {
            return Err(usage(
                "error: resource(s) were provided, but no name was specified",
            ));
        }
        _ => {}
    }
    let now = f.bool("delete", "now")?;
    let grace_period = f.int("delete", "grace-period")?;
    if now && grace_period.is_some() {
        return Err(usage(
            "error: --now and --grace-period cannot be specified together",
        ));
    }
    let (cascade, cascade_warning) = match f.get("cascade") {
        Some(v) => Propagation::from_cascade(v).map_err(usage)?,
        None => (Propagation::Background, None),
    };
    let wait = f.get("wait").is_none() || f.bool("delete", "wait")?;
    let timeout = match f.get("timeout") {
        Some(v) => go_duration_secs(v).map_err(|e| {
            usage(format!(
                "error: invalid argument \"{v}\" for \"--timeout\" flag: {e}\nSee 'kubectl delete --help' for usage."
            ))
        })?,
        None => 0,
    };
    Ok(Command::Delete {
        target,
        file,
        selector,
        grace_period,
        now,
        force: f.bool("delete", "force")?,
        namespace: f.namespace(),
        cascade,
        cascade_warning,
        wait,
        timeout,
    })
}

/// Go's time.ParseDuration (`90s`, `1m30s`, `1.5h`, `500ms`), in whole seconds rounded
/// down: the demo's clock counts seconds. The error is Go's.
pub fn go_duration_secs(s: &str) -> Result<u64, String> {
    // One Go-duration parser for every flag; a negative wait is not a wait.
    let ms = crate::sim::kubectl::duration::parse_go_duration(s)?;
    u64::try_from(ms / 1000).map_err(|_| format!("time: invalid duration \"{s}\""))
}

pub(super) fn patch(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "patch",
        rest,
        &[
            val("patch", Some('p')),
            val("type", None),
            val("subresource", None),
            NAMESPACE,
            OUTPUT,
        ],
    )?;
    let target = one_target(&f.positional, NO_RESOURCES)?;
    let patch = f.get("patch").ok_or_else(|| {
        usage("error: must specify --patch or --patch-file containing the contents of the patch")
    })?;
    let patch_type = match f.get("type").unwrap_or("strategic") {
        "strategic" => PatchType::Strategic,
        "merge" => PatchType::Merge,
        "json" => PatchType::Json,
        other => {
            return Err(usage(format!(
                "error: --type must be one of [json merge strategic], not \"{other}\""
            )));
        }
    };
    let subresource = f.get("subresource").map(str::to_string);
    if let Some(s) = &subresource
        && s != "status"
        && s != "scale"
    {
        return Err(usage(format!(
            "error: invalid subresource value: \"{s}\". Must be one of [status scale]"
        )));
    }
    Ok(Command::Patch {
        target,
        patch_type,
        patch: patch.to_string(),
        subresource,
        output: opt_output(&f)?,
    })
}

/// `kubectl expose (TYPE NAME | TYPE/NAME) [--port=...] [--target-port=...] ...`.
pub(super) fn expose(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "expose",
        rest,
        &[
            val("port", None),
            val("target-port", None),
            val("name", None),
            val("protocol", None),
            val("type", None),
            val("selector", None),
            val("labels", Some('l')),
            val("cluster-ip", None),
            val("session-affinity", None),
            optional("dry-run", "unchanged"),
            NAMESPACE,
            OUTPUT,
        ],
    )?;
    let Some(target) = target(&f.positional)? else {
        return Err(usage(NO_RESOURCES));
    };
    if let Some(t) = f.get("type").filter(|t| *t != "ClusterIP") {
        return Err(usage(format!(
            "error: kubedrill's demo serves ClusterIP Services only, not --type={t}"
        )));
    }
    let own = |k: &str| f.get(k).map(str::to_string);
    Ok(Command::Expose {
        target,
        opts: ExposeOpts {
            port: own("port"),
            target_port: own("target-port"),
            name: own("name"),
            protocol: own("protocol"),
            selector: own("selector"),
            labels: own("labels"),
            cluster_ip: own("cluster-ip"),
            session_affinity: own("session-affinity"),
        },
        dry_run: super::node::dry_run(&f, "expose")?,
        output: opt_output(&f)?,
    })
}

pub(super) fn rollout(rest: &[String]) -> Result<Command, UsageError> {
    let Some(sub) = rest.first() else {
        return Err(usage(
            "error: kubectl rollout needs a subcommand: status, history, undo, restart, pause, resume\nSee 'kubectl rollout -h' for help and examples",
        ));
    };
    let action = match sub.as_str() {
        "status" => RolloutAction::Status,
        "history" => RolloutAction::History,
        "undo" => RolloutAction::Undo,
        "restart" => RolloutAction::Restart,
        "pause" => RolloutAction::Pause,
        "resume" => RolloutAction::Resume,
        _ => {
            // DefaultSubCommandRun names every word it was given.
            return Err(usage(format!(
                "error: unknown command \"{}\"\nSee 'kubectl rollout -h' for help and examples",
                rest.join(" ")
            )));
        }
    };
    let cmd = format!("rollout {sub}");
    // Each subcommand takes its own flags, as kubectl's do: `undo --revision` is an
    // unknown flag, `history --to-revision` too.
    let watch_flag = Flag {
        long: "watch",
        short: Some('w'),
        value: false,
        bare: None,
    };
    let flags: &[Flag] = match action {
        RolloutAction::Status => &[
            NAMESPACE,
            val("revision", None),
            watch_flag,
            val("timeout", None),
        ],
        RolloutAction::History => &[NAMESPACE, val("revision", None)],
        RolloutAction::Undo => &[NAMESPACE, val("to-revision", None)],
        RolloutAction::Restart | RolloutAction::Pause | RolloutAction::Resume => &[NAMESPACE],
    };
    let f = parse_flags(&cmd, &rest[1..], flags)?;
    // One revision's pod template (history) or a pinned revision (status) are views the
    // demo does not print; saying so beats printing something kubectl would not.
    if let Some(r) = f.int(&cmd, "revision")?.filter(|r| *r != 0) {
        return Err(usage(format!(
            "error: kubedrill's demo does not show one revision (--revision={r}); a Deployment's revisions are ReplicaSets (`kubectl get rs -o yaml`), a StatefulSet's and a DaemonSet's are ControllerRevisions (`kubectl get controllerrevisions -o yaml`)"
        )));
    }
    let target = one_target(&f.positional, "error: required resource not specified")?;
    // Another kind fails in kubectl after the object is read (only Deployments,
    // DaemonSets and StatefulSets have a status viewer, rollbacker, history viewer and
    // restarter); exec says so in kubectl's words once the object is found.
    let to_revision = f.int(&cmd, "to-revision")?;
    let watch = f.get("watch").is_none() || f.bool(&cmd, "watch")?;
    let timeout_ms = match f.get("timeout") {
        None => None,
        Some(v) => match crate::sim::kubectl::duration::parse_go_duration(v) {
            Ok(ms) => u64::try_from(ms).ok().filter(|ms| *ms > 0),
            Err(e) => {
                return Err(usage(format!(
                    "error: invalid argument \"{v}\" for \"--timeout\" flag: {e}\nSee 'kubectl {cmd} --help' for usage."
                )));
            }
        },
    };
    Ok(Command::Rollout {
        action,
        target,
        to_revision,
        watch,
        timeout_ms,
    })
}

/// A label value's rule (IsValidLabelValue), with its message.
pub(super) use crate::sim::validation::{LABEL_VALUE_RULE, valid_label_value};

pub(super) fn label(verb: &str, rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        verb,
        rest,
        &[boolean("overwrite"), NAMESPACE, SELECTOR, OUTPUT],
    )?;
    let (objects, pairs) = resources_and_pairs(&f.positional, verb)?;
    let annotate = verb == "annotate";
    let mut out = Vec::new();
    let mut removed = Vec::new();
    let mut invalid = Vec::new();
    for c in pairs {
        if c.contains('=') {
            // Labels split on every `=`, annotations on the first.
            let (k, v) = c.split_once('=').unwrap_or((c, ""));
            if !annotate && v.contains('=') {
                return Err(usage(format!("error: invalid label spec: {c}")));
            }
            if !annotate && !valid_label_value(v) {
                return Err(usage(format!(
                    "error: invalid label value: \"{c}\": {LABEL_VALUE_RULE}"
                )));
            }
            if annotate && k.is_empty() {
                invalid.push(c);
                continue;
            }
            out.push(MetaChange::Set(k.to_string(), v.to_string()));
        } else {
            let k = c.trim_end_matches('-').to_string();
            removed.push(k.clone());
            out.push(MetaChange::Remove(k));
        }
    }
    if !invalid.is_empty() {
        return Err(usage(format!(
            "error: invalid annotation format: {}",
            invalid.join(", ")
        )));
    }
    let both: Vec<&str> = removed
        .iter()
        .filter(|k| {
            out.iter()
                .any(|c| matches!(c, MetaChange::Set(s, _) if s == *k))
        })
        .map(String::as_str)
        .collect();
    if !both.is_empty() {
        return Err(usage(if annotate {
            format!(
                "error: can not both modify and remove the following annotation(s) in the same command: {}",
                both.join(", ")
            )
        } else {
            "error: can not both modify and remove a label in the same command".to_string()
        }));
    }
    let what = if annotate { "annotation" } else { "label" };
    if objects.is_empty() {
        return Err(usage(
            "error: one or more resources must be specified as <resource> <name> or <resource>/<name>",
        ));
    }
    if out.is_empty() {
        return Err(usage(format!(
            "error: at least one {what} update is required"
        )));
    }
    let selector = f.get("selector").map(str::to_string);
    let target = match (&selector, objects.as_slice()) {
        // `label pods -l app=web k=v`: a type, and the selector picks the objects.
        (Some(_), [kind]) if !kind.contains('/') => Target {
            kind: crate::sim::kubectl::discovery::resolve(kind)
                .ok_or_else(|| unknown_type(kind))?,
            names: Vec::new(),
        },
        _ => one_target(&objects, NO_RESOURCES)?,
    };
    Ok(Command::Label {
        target,
        selector,
        changes: out,
        overwrite: f.bool(verb, "overwrite")?,
        annotate,
        output: opt_output(&f)?,
    })
}

pub(super) fn set(rest: &[String]) -> Result<Command, UsageError> {
    match rest.first().map(String::as_str) {
        Some("image") => {}
        Some(sub @ ("env" | "resources" | "selector" | "serviceaccount" | "sa" | "subject")) => {
            return Err(usage(format!(
                "error: kubedrill's demo runs `kubectl set image` only, not `kubectl set {sub}`"
            )));
        }
        Some(_) => {
            return Err(usage(format!(
                "error: unknown command \"{}\"\nSee 'kubectl set -h' for help and examples",
                rest.join(" ")
            )));
        }
        None => {
            return Err(usage(
                "error: kubectl set needs a subcommand, e.g. `kubectl set image deploy/web app=nginx:1.28`",
            ));
        }
    }
    let f = parse_flags("set image", &rest[1..], &[NAMESPACE, SELECTOR, OUTPUT])?;
    let output = opt_output(&f)?;
    let (objects, pairs) = resources_and_pairs(&f.positional, "image")?;
    if let Some(bad) = pairs.iter().find(|p| !p.contains('=')) {
        return Err(usage(format!("error: invalid image format: {bad}")));
    }
    if f.get("selector").is_some() && objects.iter().any(|o| o.contains('/')) {
        return Err(usage(
            "error: selectors and the all flag cannot be used when passing resource/name arguments",
        ));
    }
    let target = one_target(&objects, NO_RESOURCES)?;
    if pairs.is_empty() {
        return Err(usage("error: at least one image update is required"));
    }
    let images = pairs
        .iter()
        .filter_map(|p| {
            p.split_once('=')
                .map(|(c, i)| (c.to_string(), i.to_string()))
        })
        .collect();
    Ok(Command::SetImage {
        target,
        images,
        output,
    })
}
