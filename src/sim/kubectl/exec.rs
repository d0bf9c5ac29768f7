//! Runs a parsed kubectl command against the simulated cluster and prints what kubectl
//! prints: tables, `-o json|yaml|name|jsonpath`, success lines and `Error from server`.

use serde_json::Value;

use super::args::{Command, Output, RolloutAction, Target};
use super::cmdutil::*;
pub use super::cmdutil::{Files, Outcome};
use super::wait::Wait;
use super::{create, delete, label, patch, replace, rollout, scale, set};
use crate::sim::cluster::Cluster;
use crate::sim::jsonpath;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::output::{parse_manifest, to_yaml};

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
        Command::CreateFile { .. }
        | Command::CreateDeployment { .. }
        | Command::CreateJob { .. }
        | Command::CreateCronJob { .. }
        | Command::CreateService { .. } => (m("kubectl-create"), None),
        Command::Expose { .. } => (m("kubectl-expose"), None),
        Command::Autoscale { .. } => (m("kubectl-autoscale"), None),
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
        Command::Taint { .. } => (m("kubectl-taint"), None),
        Command::Get { .. }
        | Command::Describe { .. }
        | Command::Delete { .. }
        | Command::DeleteRaw { .. }
        | Command::ViewLastApplied { .. }
        | Command::Cordon { .. }
        | Command::Drain { .. } => (m("kubectl"), None),
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
    cluster.api.admission.warnings.clear();
    cluster.api.admission.from_kubectl = true;
    let out = run_command(cluster, files, cmd);
    cluster.api.admission.from_kubectl = false;
    cluster.api.reset_manager();
    // Warnings the API server sent (a ValidatingAdmissionPolicy's Warn action), printed
    // by client-go as the response arrives, before what kubectl prints of it.
    let warnings = std::mem::take(&mut cluster.api.admission.warnings);
    let mut out = out.server_warnings_first(warnings);
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
    out.resume(cluster)
}

/// Runs `cmd` to its end, moving the cluster's own clock while it waits: for callers
/// with no other writers or goals to run each second.
pub fn run_to_end(cluster: &mut Cluster, files: &Files, cmd: &Command) -> Outcome {
    let mut o = run(cluster, files, cmd);
    while o.is_waiting() {
        cluster.tick();
        o = o.resume(cluster);
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
        Command::CreateJob { name, .. } => vec![(Kind::Job, name.clone())],
        Command::CreateCronJob { name, .. } => vec![(Kind::CronJob, name.clone())],
        Command::CreateService { name, .. } => vec![(Kind::Service, name.clone())],
        Command::Autoscale { target, opts, .. } => vec![(
            Kind::HorizontalPodAutoscaler,
            opts.name
                .clone()
                .unwrap_or_else(|| target.names.first().cloned().unwrap_or_default()),
        )],
        Command::Expose { target, opts, .. } => vec![(
            Kind::Service,
            opts.name
                .clone()
                .unwrap_or_else(|| target.names.first().cloned().unwrap_or_default()),
        )],
        Command::CreateFile { file, .. }
        | Command::Replace { file, .. }
        | Command::Apply { file, .. } => file
            .split(',')
            .filter_map(|f| Some((f, files.get(f)?)))
            .filter_map(|(f, text)| Some((f, parse_manifest(text).ok()?)))
            .flat_map(|(f, objs)| objs.into_iter().map(move |o| (f, o)))
            .filter_map(|(f, o)| Some((manifest_kind(&o, f).ok()?, obj::name(&o).to_string())))
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
            selector,
            namespace,
        } => super::describe::describe(cluster, *kind, names, selector.as_deref(), namespace),
        Command::Scale {
            target,
            replicas,
            current_replicas,
            ..
        } => scale::scale(cluster, target, *replicas, *current_replicas),
        Command::DeleteRaw { path } => delete::delete_raw(cluster, path),
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
            let o = delete::delete(
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
        } => patch::patch_cmd(cluster, target, *patch_type, patch, subresource.as_deref()),
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
                Outcome::default().warn(create::klog_warning(
                    cluster.now(),
                    "helpers.go:702",
                    "--dry-run is deprecated and can be replaced with --dry-run=client.",
                ))
            } else {
                Outcome::default()
            };
            warned.then(create::create_deployment(
                cluster,
                name,
                images,
                *replicas,
                *port,
                *dry_run,
                output.as_ref(),
            ))
        }
        Command::CreateJob {
            name,
            source,
            command,
            dry_run,
            output,
        } => create::create_job(cluster, name, source, command, *dry_run, output.as_ref()),
        Command::CreateCronJob {
            name,
            image,
            schedule,
            restart,
            command,
            dry_run,
            output,
        } => create::create_cron_job(
            cluster,
            name,
            (image, schedule, restart),
            command,
            *dry_run,
            output.as_ref(),
        ),
        Command::CreateService {
            name,
            tcp,
            cluster_ip,
            dry_run,
            output,
        } => create::create_service(
            cluster,
            name,
            tcp,
            cluster_ip.as_deref(),
            *dry_run,
            output.as_ref(),
        ),
        Command::Expose {
            target,
            opts,
            dry_run,
            output,
        } => super::expose::expose(cluster, target, opts, *dry_run, output.as_ref()),
        Command::Autoscale {
            target,
            opts,
            dry_run,
            output,
        } => super::autoscale::autoscale(cluster, target, opts, *dry_run, output.as_ref()),
        Command::CreateFile { file, validate, .. } => with_manifests(files, file, |file, objs| {
            create::create_file(cluster, file, objs, *validate)
        }),
        Command::Replace { file, validate, .. } => with_manifests(files, file, |file, objs| {
            replace::replace_file(cluster, file, objs, *validate)
        }),
        Command::Apply {
            file,
            validate,
            server_side,
            field_manager,
            force_conflicts,
            ..
        } => with_manifests(files, file, |file, objs| {
            super::apply::apply(
                cluster,
                file,
                objs,
                *validate,
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
            // StatusViewerFor knows only Deployments, DaemonSets and StatefulSets.
            Ok(_) if !rollout::rolls_out(target.kind) => Outcome::default().err(format!(
                "error: no status viewer has been implemented for {}\n",
                target.kind.group_kind()
            )),
            Ok((_, name)) => {
                Outcome::default().waiting(Wait::rollout(target.kind, &name, *watch, *timeout_ms))
            }
            Err(o) => o,
        },
        Command::Rollout {
            action,
            target,
            to_revision,
            ..
        } => rollout::rollout(cluster, *action, target, *to_revision),
        Command::Label {
            target,
            selector: Some(selector),
            changes,
            overwrite,
            annotate,
            ..
        } if target.names.is_empty() => {
            // Each selected object in name order, as the list returns them; none
            // selected prints nothing.
            let names: Vec<String> = cluster
                .api
                .list_shared(target.kind)
                .filter(|x| obj::label_query_matches_labels(selector, x.meta("labels")))
                .map(|x| x.name().to_string())
                .collect();
            names.into_iter().fold(Outcome::default(), |o, name| {
                let one = Target {
                    kind: target.kind,
                    names: vec![name],
                };
                o.then(label::label(cluster, &one, changes, *overwrite, *annotate))
            })
        }
        Command::Label {
            target,
            changes,
            overwrite,
            annotate,
            ..
        } => label::label(cluster, target, changes, *overwrite, *annotate),
        Command::SetImage { target, images, .. } => set::set_image(cluster, target, images),
        Command::ViewLastApplied { target, json } => view_last_applied(cluster, target, *json),
        Command::Cordon {
            nodes,
            desired,
            dry_run,
        } => super::drain::cordon(cluster, nodes, *desired, *dry_run),
        Command::Drain { nodes, opts } => super::drain::drain(cluster, nodes, opts),
        Command::Taint {
            nodes,
            all,
            add,
            remove,
            overwrite,
            dry_run,
        } => super::taint::taint(cluster, nodes, *all, add, remove, *overwrite, *dry_run),
    }
}

/// `apply view-last-applied`: the annotation re-indented (json.Indent keeps its trailing
/// newline) or converted to YAML.
fn view_last_applied(cluster: &Cluster, t: &Target, json: bool) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => x,
        Err(o) => return o,
    };
    let Some(text) = obj::str(
        &cur,
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
