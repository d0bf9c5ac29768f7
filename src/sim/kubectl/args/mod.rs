//! kubectl's command line: verbs, resource arguments and pflag-style flags, parsed into a
//! typed [`Command`], with kubectl's own error words for mistakes.

use std::fmt;

mod create;
mod flags;
mod node;
mod resources;
#[cfg(test)]
mod tests;
mod verbs;

use create::*;
use flags::*;
pub use node::{DrainOpts, DryRun, Nodes, TaintSpec};
use resources::*;
use verbs::*;

pub use verbs::go_duration_secs;

pub use crate::sim::api::decode::FieldValidation;
pub use crate::sim::deletion::Propagation;
pub use crate::sim::kind::Kind;

/// A command-line mistake, printed to stderr exactly as kubectl prints it (exit code 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn usage(msg: impl Into<String>) -> UsageError {
    UsageError(msg.into())
}

/// `-o` formats the demo prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    Table,
    Wide,
    Json,
    Yaml,
    Name,
    JsonPath(String),
}

/// Formats kubectl lists for `get`, in its own order.
const GET_FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

/// Formats of commands that print the changed object (`scale -o`, `apply -o`, ...).
const OBJECT_FORMATS: &str = "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml";

fn parse_output(s: &str, allowed: &str) -> Result<Output, UsageError> {
    let out = match s {
        "json" => Output::Json,
        "yaml" => Output::Yaml,
        "name" => Output::Name,
        "wide" if allowed == GET_FORMATS => Output::Wide,
        _ => {
            let (format, template) = s.split_once('=').unwrap_or((s, ""));
            let real = allowed.split(',').any(|f| f == format);
            match format {
                "jsonpath" if !template.is_empty() => Output::JsonPath(template.to_string()),
                "jsonpath" | "jsonpath-as-json" | "go-template" | "template"
                    if template.is_empty() =>
                {
                    return Err(usage(
                        "error: template format specified but no template given",
                    ));
                }
                // A format kubectl has: saying it does not exist would teach something false.
                _ if real => {
                    return Err(usage(format!(
                        "error: kubedrill's demo prints -o json, yaml, name, wide and jsonpath=..., not -o {format}"
                    )));
                }
                _ => {
                    return Err(usage(format!(
                        "error: unable to match a printer suitable for the output format \"{s}\", allowed formats are: {allowed}"
                    )));
                }
            }
        }
    };
    Ok(out)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    Strategic,
    Merge,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolloutAction {
    Status,
    History,
    Undo,
    Restart,
    Pause,
    Resume,
}

/// One `key=value` or `key-` argument of `label` / `annotate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaChange {
    Set(String, String),
    Remove(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: Kind,
    pub names: Vec<String>,
}

/// How `get` prints what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GetPrint {
    pub output: Output,
    pub show_managed_fields: bool,
    pub show_labels: bool,
    pub no_headers: bool,
    /// `--sort-by`, as typed.
    pub sort_by: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Get {
        kinds: Vec<Kind>,
        names: Vec<String>,
        selector: Option<String>,
        namespace: String,
        print: GetPrint,
    },
    Describe {
        kind: Kind,
        names: Vec<String>,
        /// `-l`: the objects whose labels match, in place of names.
        selector: Option<String>,
        namespace: String,
    },
    Scale {
        target: Target,
        replicas: i64,
        /// `--current-replicas`: the precondition kubectl checks before it scales.
        current_replicas: Option<i64>,
        output: Option<Output>,
    },
    /// `kubectl delete --raw PATH`: a DELETE of that API path with no options, its
    /// response body printed as the server wrote it.
    DeleteRaw {
        path: String,
    },
    Delete {
        target: Option<Target>,
        file: Option<String>,
        selector: Option<String>,
        grace_period: Option<i64>,
        now: bool,
        force: bool,
        namespace: String,
        /// `--cascade`, and the warning kubectl prints for a deprecated boolean value.
        cascade: Propagation,
        cascade_warning: Option<String>,
        /// `--wait` (default true): block until the objects are gone.
        wait: bool,
        /// `--timeout` in whole seconds; 0 (the default) means kubectl's one week.
        timeout: u64,
    },
    Patch {
        target: Target,
        patch_type: PatchType,
        patch: String,
        subresource: Option<String>,
        output: Option<Output>,
    },
    CreateFile {
        file: String,
        /// `--validate`: the fieldValidation kubectl sends (default Strict).
        validate: FieldValidation,
        output: Option<Output>,
    },
    CreateDeployment {
        name: String,
        images: Vec<String>,
        replicas: i64,
        port: Option<i64>,
        dry_run: bool,
        /// `--dry-run` with no value: deprecated, warned about.
        bare_dry_run: bool,
        output: Option<Output>,
    },
    /// `kubectl create job NAME --image=IMAGE -- COMMAND...`.
    CreateJob {
        name: String,
        /// `--image=IMAGE`, or `--from=cronjob/NAME`.
        source: JobSource,
        command: Vec<String>,
        dry_run: DryRun,
        output: Option<Output>,
    },
    /// `kubectl create cronjob NAME --image=IMAGE --schedule=S [--restart=R] -- COMMAND...`.
    CreateCronJob {
        name: String,
        image: String,
        schedule: String,
        restart: String,
        command: Vec<String>,
        dry_run: DryRun,
        output: Option<Output>,
    },
    Replace {
        file: String,
        validate: FieldValidation,
        output: Option<Output>,
    },
    Apply {
        file: String,
        validate: FieldValidation,
        server_side: bool,
        field_manager: Option<String>,
        force_conflicts: bool,
        output: Option<Output>,
    },
    Rollout {
        action: RolloutAction,
        target: Target,
        to_revision: Option<i64>,
        /// `rollout status --watch` (default true).
        watch: bool,
        /// `rollout status --timeout` in milliseconds; `None` (0 or negative) waits forever.
        timeout_ms: Option<u64>,
    },
    Label {
        target: Target,
        /// `-l`: every object of the target's type it selects (the target has no
        /// names then).
        selector: Option<String>,
        changes: Vec<MetaChange>,
        overwrite: bool,
        annotate: bool,
        output: Option<Output>,
    },
    SetImage {
        target: Target,
        images: Vec<(String, String)>,
        output: Option<Output>,
    },
    /// `apply view-last-applied`: the annotation client-side apply keeps, as YAML or JSON.
    ViewLastApplied {
        target: Target,
        json: bool,
    },
    /// `cordon` (`desired` true) or `uncordon`.
    Cordon {
        nodes: Nodes,
        desired: bool,
        dry_run: DryRun,
    },
    Drain {
        nodes: Nodes,
        opts: DrainOpts,
    },
    Taint {
        nodes: Nodes,
        all: bool,
        add: Vec<TaintSpec>,
        remove: Vec<TaintSpec>,
        overwrite: bool,
        dry_run: DryRun,
    },
    /// `kubectl create service clusterip NAME --tcp=PORT[:TARGET]...`.
    CreateService {
        name: String,
        tcp: Vec<String>,
        cluster_ip: Option<String>,
        dry_run: DryRun,
        output: Option<Output>,
    },
    /// `kubectl autoscale TYPE NAME`: an autoscaling/v1 HorizontalPodAutoscaler for it.
    Autoscale {
        target: Target,
        opts: AutoscaleOpts,
        dry_run: DryRun,
        output: Option<Output>,
    },
    /// `kubectl expose TYPE NAME`: a Service for an object's pods.
    Expose {
        target: Target,
        opts: ExposeOpts,
        dry_run: DryRun,
        output: Option<Output>,
    },
}

/// `kubectl autoscale`'s flags (-1: not given, as kubectl's defaults).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoscaleOpts {
    pub min: i32,
    pub max: i32,
    pub cpu_percent: i32,
    pub name: Option<String>,
}

/// `kubectl expose`'s flags that shape the Service.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExposeOpts {
    pub port: Option<String>,
    pub target_port: Option<String>,
    pub name: Option<String>,
    pub protocol: Option<String>,
    pub selector: Option<String>,
    pub labels: Option<String>,
    pub cluster_ip: Option<String>,
    pub session_affinity: Option<String>,
}

/// Where `kubectl create job` takes its Job from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobSource {
    Image(String),
    /// `--from=TYPE/NAME`: only a CronJob can be copied.
    From(crate::sim::kind::Kind, String),
}

impl Command {
    /// The `-o` a write was given: kubectl then prints the object the server returned
    /// instead of its success line.
    pub fn printed_output(&self) -> Option<&Output> {
        match self {
            Command::Scale { output, .. }
            | Command::Patch { output, .. }
            | Command::CreateFile { output, .. }
            | Command::Replace { output, .. }
            | Command::Apply { output, .. }
            | Command::Label { output, .. }
            | Command::SetImage { output, .. } => output.as_ref(),
            Command::CreateDeployment {
                output,
                dry_run: false,
                ..
            }
            | Command::CreateJob {
                output,
                dry_run: DryRun::None,
                ..
            }
            | Command::CreateCronJob {
                output,
                dry_run: DryRun::None,
                ..
            }
            | Command::CreateService {
                output,
                dry_run: DryRun::None,
                ..
            }
            | Command::Expose {
                output,
                dry_run: DryRun::None,
                ..
            }
            | Command::Autoscale {
                output,
                dry_run: DryRun::None,
                ..
            } => output.as_ref(),
            _ => None,
        }
    }

    /// The verb, as `ran("verb")` in goals counts it.
    pub fn verb(&self) -> &'static str {
        match self {
            Command::Get { .. } => "get",
            Command::Describe { .. } => "describe",
            Command::Scale { .. } => "scale",
            Command::Delete { .. } | Command::DeleteRaw { .. } => "delete",
            Command::Patch { .. } => "patch",
            Command::CreateFile { .. }
            | Command::CreateDeployment { .. }
            | Command::CreateJob { .. }
            | Command::CreateCronJob { .. }
            | Command::CreateService { .. } => "create",
            Command::Expose { .. } => "expose",
            Command::Autoscale { .. } => "autoscale",
            Command::Replace { .. } => "replace",
            Command::Apply { .. } | Command::ViewLastApplied { .. } => "apply",
            Command::Rollout { .. } => "rollout",
            Command::Label {
                annotate: false, ..
            } => "label",
            Command::Label { annotate: true, .. } => "annotate",
            Command::SetImage { .. } => "set",
            Command::Cordon { desired: true, .. } => "cordon",
            Command::Cordon { desired: false, .. } => "uncordon",
            Command::Drain { .. } => "drain",
            Command::Taint { .. } => "taint",
        }
    }
}

pub const VERBS: &[&str] = &[
    "get",
    "describe",
    "scale",
    "delete",
    "patch",
    "create",
    "expose",
    "replace",
    "apply",
    "rollout",
    "label",
    "annotate",
    "set",
    "cordon",
    "uncordon",
    "drain",
    "taint",
    "autoscale",
];

/// kubectl's commands in the order it registers them, which is the order cobra suggests
/// them in.
const KUBECTL_COMMANDS: &[&str] = &[
    "create",
    "expose",
    "run",
    "set",
    "explain",
    "get",
    "edit",
    "delete",
    "rollout",
    "scale",
    "autoscale",
    "certificate",
    "cluster-info",
    "top",
    "cordon",
    "uncordon",
    "drain",
    "taint",
    "describe",
    "logs",
    "attach",
    "exec",
    "port-forward",
    "proxy",
    "cp",
    "auth",
    "debug",
    "events",
    "diff",
    "apply",
    "patch",
    "replace",
    "wait",
    "kustomize",
    "label",
    "annotate",
    "completion",
    "config",
    "plugin",
    "version",
    "api-versions",
    "api-resources",
    "options",
    "help",
];

/// cobra's SuggestionsFor: commands within two edits of what was typed, or that start
/// with it.
fn suggestions(typed: &str) -> Vec<&'static str> {
    let t = typed.to_lowercase();
    KUBECTL_COMMANDS
        .iter()
        .copied()
        .filter(|c| strsim::levenshtein(c, &t) <= 2 || c.starts_with(&t))
        .collect()
}

/// Global flags typed before the command: `-n NS` moves after it, as kubectl reads it
/// anywhere; another real global flag is refused in the demo's words; anything else is
/// what kubectl's plugin lookup says of it.
fn leading_flags(words: &[String]) -> Result<Vec<String>, UsageError> {
    let mut namespace = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i).filter(|w| w.starts_with('-') && *w != "--") {
        if w == "-n" || w == "--namespace" {
            let v = words.get(i + 1).ok_or_else(|| {
                usage(format!(
                    "error: flag needs an argument: {}",
                    if w == "-n" {
                        "'n' in -n"
                    } else {
                        "--namespace"
                    }
                ))
            })?;
            namespace.extend([w.clone(), v.clone()]);
            i += 2;
        } else if w.starts_with("--namespace=") || (w.starts_with("-n") && w.len() > 2) {
            namespace.push(w.clone());
            i += 1;
        } else {
            let flag = w.split_once('=').map_or(w.as_str(), |(f, _)| f);
            return Err(unmodelled_flag("", flag).unwrap_or_else(|| {
                usage(format!(
                    "Error: flags cannot be placed before plugin name: {w}"
                ))
            }));
        }
    }
    let mut out: Vec<String> = words[i..].to_vec();
    if out.is_empty() {
        // Flags and no command: the command is what is missing.
        return Ok(out);
    }
    let at = out.iter().position(|w| w == "--").unwrap_or(out.len());
    out.splice(at..at, namespace);
    Ok(out)
}

/// Parses the words after `kubectl`.
pub fn parse(words: &[String]) -> Result<Command, UsageError> {
    let flags_end = words.iter().position(|w| w == "--").unwrap_or(words.len());
    if words[..flags_end]
        .iter()
        .any(|w| w == "-h" || w == "--help")
    {
        return Err(usage(
            "error: kubedrill's demo has no kubectl help pages; `help` lists what it runs",
        ));
    }
    let words = &leading_flags(words)?;
    let Some(verb) = words.first() else {
        return Err(usage(
            "error: kubectl needs a command, for example `kubectl get pods`",
        ));
    };
    let rest = &words[1..];
    if let Some(refused) = unsimulated_verb(verb) {
        return Err(refused);
    }
    match verb.as_str() {
        "get" => get(rest),
        "describe" => describe(rest),
        "scale" => scale(rest),
        "delete" => delete(rest),
        "patch" => patch(rest),
        "create" => create(rest),
        "expose" => expose(rest),
        "autoscale" => create::autoscale(rest),
        "replace" => {
            let f = parse_flags("replace", rest, &[FILENAME, NAMESPACE, OUTPUT, VALIDATE])?;
            let file = f
                .files()
                .ok_or_else(|| usage("error: must specify one of -f and -k"))?;
            Ok(Command::Replace {
                file: file.to_string(),
                validate: validation(&f)?,
                output: opt_output(&f)?,
            })
        }
        "apply" if rest.first().is_some_and(|w| w == "view-last-applied") => {
            let cmd = "apply view-last-applied";
            let f = parse_flags(cmd, &rest[1..], &[NAMESPACE, OUTPUT])?;
            let json = match f.get("output").unwrap_or("yaml") {
                "yaml" => false,
                "json" => true,
                other => {
                    return Err(usage(format!(
                        "error: Unexpected -o output mode: {other}, the flag 'output' must be one of yaml|json\nSee 'kubectl {cmd} -h' for help and examples"
                    )));
                }
            };
            Ok(Command::ViewLastApplied {
                target: one_target(&f.positional, NO_RESOURCES)?,
                json,
            })
        }
        "apply"
            if rest
                .first()
                .is_some_and(|w| w == "edit-last-applied" || w == "set-last-applied") =>
        {
            Err(usage(format!(
                "error: kubedrill's demo does not run `kubectl apply {}`; edit the manifest and apply it, or read the annotation with `kubectl apply view-last-applied`",
                rest[0]
            )))
        }
        "apply" => {
            let f = parse_flags(
                "apply",
                rest,
                &[
                    FILENAME,
                    NAMESPACE,
                    OUTPUT,
                    VALIDATE,
                    boolean("server-side"),
                    val("field-manager", None),
                    boolean("force-conflicts"),
                ],
            )?;
            let file = f
                .files()
                .ok_or_else(|| usage("error: must specify one of -f and -k"))?;
            let server_side = f.bool("apply", "server-side")?;
            let force_conflicts = f.bool("apply", "force-conflicts")?;
            if force_conflicts && !server_side {
                return Err(usage(
                    "error: --force-conflicts only works with --server-side",
                ));
            }
            Ok(Command::Apply {
                file: file.to_string(),
                validate: validation(&f)?,
                server_side,
                field_manager: f.get("field-manager").map(str::to_string),
                force_conflicts,
                output: opt_output(&f)?,
            })
        }
        "rollout" => rollout(rest),
        "label" | "annotate" => label(verb, rest),
        "set" => set(rest),
        "cordon" | "uncordon" => node::cordon(verb, rest),
        "drain" => node::drain(rest),
        "taint" => node::taint(rest),
        other => {
            let mut msg = format!("error: unknown command \"{other}\" for \"kubectl\"");
            let near = suggestions(other);
            if !near.is_empty() {
                msg.push_str("\n\nDid you mean this?");
                for n in near {
                    msg.push_str("\n\t");
                    msg.push_str(n);
                }
            }
            Err(usage(msg))
        }
    }
}
