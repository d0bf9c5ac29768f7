//! `kubectl create` and its subcommands (kubectl pkg/cmd/create): `-f`, `deployment`,
//! `job` (from an image or a CronJob), `cronjob` and `service clusterip`.

use super::verbs::opt_output;
use super::*;

/// NameFromCommandArgs: a create subcommand takes exactly one NAME.
fn one_name(f: &Flags, cmd: &str) -> Result<String, UsageError> {
    match f.positional.as_slice() {
        [n] => Ok(n.clone()),
        other => Err(usage(format!(
            "error: exactly one NAME is required, got {}\nSee 'kubectl {cmd} -h' for help and examples",
            other.len()
        ))),
    }
}

/// The words after `--`, and the arguments before it.
fn split_command(rest: &[String]) -> (&[String], Vec<String>) {
    let at = rest.iter().position(|w| w == "--").unwrap_or(rest.len());
    (&rest[..at], rest.get(at + 1..).unwrap_or_default().to_vec())
}

pub(super) fn create(rest: &[String]) -> Result<Command, UsageError> {
    if rest.first().is_some_and(|w| w == "service" || w == "svc") {
        return create_service(&rest[1..]);
    }
    if rest.first().is_some_and(|w| w == "job") {
        return create_job(&rest[1..]);
    }
    if rest.first().is_some_and(|w| w == "cronjob" || w == "cj") {
        return create_cron_job(&rest[1..]);
    }
    if rest
        .first()
        .is_some_and(|w| w == "deployment" || w == "deploy")
    {
        let f = parse_flags(
            "create deployment",
            &rest[1..],
            &[
                val("image", None),
                val("replicas", Some('r')),
                val("port", None),
                optional("dry-run", "unchanged"),
                NAMESPACE,
                OUTPUT,
                VALIDATE,
            ],
        )?;
        // The generated object has only declared fields, so only a bad value matters.
        validation(&f)?;
        // cobra checks required flags before the command looks at its arguments.
        let images = f.all("image");
        if images.is_empty() {
            return Err(usage("error: required flag(s) \"image\" not set"));
        }
        let mut bare_dry_run = false;
        let name = one_name(&f, "create deployment")?;
        let dry_run = match f.get("dry-run") {
            None | Some("none") => false,
            // A bare --dry-run: kubectl warns that it is deprecated and runs it as client.
            Some("unchanged") => {
                bare_dry_run = true;
                true
            }
            Some("client" | "server") => true,
            Some(other) => {
                return Err(usage(format!(
                    "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
                )));
            }
        };
        return Ok(Command::CreateDeployment {
            name,
            images,
            replicas: f.int("create deployment", "replicas")?.unwrap_or(1),
            port: f.int("create deployment", "port")?,
            dry_run,
            bare_dry_run,
            output: opt_output(&f)?,
        });
    }
    let f = parse_flags("create", rest, &[FILENAME, NAMESPACE, OUTPUT, VALIDATE])?;
    match (f.files(), f.positional.first()) {
        (Some(file), _) => Ok(Command::CreateFile {
            file: file.to_string(),
            validate: validation(&f)?,
            output: opt_output(&f)?,
        }),
        (None, Some(sub)) if CREATE_SUBCOMMANDS.contains(&sub.as_str()) => Err(usage(format!(
            "error: kubedrill's demo can `create -f FILE`, `create deployment`, `create job`, `create cronjob` and `create service clusterip`, not `create {sub}`"
        ))),
        (None, Some(_)) => Err(usage(format!(
            "error: Unexpected args: [{}]\nSee 'kubectl create -h' for help and examples",
            f.positional.join(" ")
        ))),
        (None, None) => Err(usage("error: must specify one of -f and -k")),
    }
}

/// `kubectl create job` (create_job.go): a Job of one container named as the Job, running
/// the words after `--` as its command, restartPolicy Never.
fn create_job(rest: &[String]) -> Result<Command, UsageError> {
    let (args, command) = split_command(rest);
    let f = parse_flags(
        "create job",
        args,
        &[
            val("image", None),
            val("from", None),
            optional("dry-run", "unchanged"),
            NAMESPACE,
            OUTPUT,
            VALIDATE,
        ],
    )?;
    validation(&f)?;
    let name = one_name(&f, "create job")?;
    let source = match (f.get("image"), f.get("from")) {
        (Some(i), None) => super::JobSource::Image(i.to_string()),
        (None, None) | (Some(_), Some(_)) => {
            return Err(usage("error: either --image or --from must be specified"));
        }
        (None, Some(_)) if !command.is_empty() => {
            return Err(usage("error: cannot specify --from and command"));
        }
        (None, Some(from)) => {
            let (kind, name) = from.split_once('/').unwrap_or((from, ""));
            match crate::sim::kubectl::discovery::resolve(kind) {
                Some(k) if !name.is_empty() => super::JobSource::From(k, name.to_string()),
                Some(_) => return Err(usage("error: from must be an existing cronjob")),
                None => {
                    return Err(usage(format!(
                        "error: the server doesn't have a resource type \"{kind}\""
                    )));
                }
            }
        }
    };
    let dry_run = super::node::dry_run(&f, "create")?;
    Ok(Command::CreateJob {
        name,
        source,
        command,
        dry_run,
        output: opt_output(&f)?,
    })
}

/// `kubectl create cronjob` (create_cronjob.go): the job template's one container named
/// as the CronJob, restartPolicy OnFailure unless `--restart` says otherwise.
fn create_cron_job(rest: &[String]) -> Result<Command, UsageError> {
    let (args, command) = split_command(rest);
    let f = parse_flags(
        "create cronjob",
        args,
        &[
            val("image", None),
            val("schedule", None),
            val("restart", None),
            optional("dry-run", "unchanged"),
            NAMESPACE,
            OUTPUT,
            VALIDATE,
        ],
    )?;
    validation(&f)?;
    // cobra checks required flags before the command looks at its arguments.
    let missing: Vec<String> = ["image", "schedule"]
        .into_iter()
        .filter(|k| f.get(k).is_none())
        .map(|k| format!("\"{k}\""))
        .collect();
    if !missing.is_empty() {
        return Err(usage(format!(
            "error: required flag(s) {} not set",
            missing.join(", ")
        )));
    }
    let name = one_name(&f, "create cronjob")?;
    let dry_run = super::node::dry_run(&f, "create")?;
    Ok(Command::CreateCronJob {
        name,
        image: f.get("image").unwrap_or("").to_string(),
        schedule: f.get("schedule").unwrap_or("").to_string(),
        restart: f.get("restart").unwrap_or("OnFailure").to_string(),
        command,
        dry_run,
        output: opt_output(&f)?,
    })
}

/// `kubectl create` subcommands a real kubectl has, with their aliases.
pub(super) const CREATE_SUBCOMMANDS: &[&str] = &[
    "clusterrole",
    "clusterrolebinding",
    "configmap",
    "cm",
    "cronjob",
    "cj",
    "ingress",
    "ing",
    "job",
    "namespace",
    "ns",
    "poddisruptionbudget",
    "pdb",
    "priorityclass",
    "pc",
    "quota",
    "resourcequota",
    "role",
    "rolebinding",
    "secret",
    "service",
    "svc",
    "serviceaccount",
    "sa",
    "token",
];

/// `kubectl create service clusterip NAME [--tcp=<port>:<targetPort>] [--clusterip=IP]`.
fn create_service(rest: &[String]) -> Result<Command, UsageError> {
    let kind = rest.first().map(String::as_str).unwrap_or("");
    match kind {
        "clusterip" => {}
        "nodeport" | "loadbalancer" | "externalname" => {
            return Err(usage(format!(
                "error: kubedrill's demo serves ClusterIP Services only: `create service clusterip`, not `create service {kind}`"
            )));
        }
        _ => {
            return Err(usage(
                "error: create service needs a type: kubedrill's demo has `create service clusterip NAME --tcp=PORT[:TARGET]`",
            ));
        }
    }
    let cmd = "create service clusterip";
    let f = parse_flags(
        cmd,
        &rest[1..],
        &[
            val("tcp", None),
            val("clusterip", None),
            optional("dry-run", "unchanged"),
            NAMESPACE,
            OUTPUT,
            VALIDATE,
        ],
    )?;
    validation(&f)?;
    let name = one_name(&f, cmd)?;
    // A string slice: repeated, or comma-separated.
    let tcp: Vec<String> = f
        .all("tcp")
        .iter()
        .flat_map(|t| t.split(','))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    let cluster_ip = f.get("clusterip").map(str::to_string);
    if cluster_ip.as_deref() != Some("None") && tcp.is_empty() {
        return Err(usage(
            "error: at least one tcp port specifier must be provided",
        ));
    }
    Ok(Command::CreateService {
        name,
        tcp,
        cluster_ip,
        dry_run: super::node::dry_run(&f, "create service")?,
        output: opt_output(&f)?,
    })
}

/// `kubectl autoscale (TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS
/// [--cpu-percent=CPU] [--name=NAME]`: cobra's flag checks (`--max` is required), then
/// Validate's two range checks, all before the server is asked anything.
pub(super) fn autoscale(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "autoscale",
        rest,
        &[
            val("min", None),
            val("max", None),
            val("cpu-percent", None),
            val("name", None),
            optional("dry-run", "unchanged"),
            NAMESPACE,
            OUTPUT,
        ],
    )?;
    let min = f.int("autoscale", "min")?.unwrap_or(-1);
    let cpu = f.int("autoscale", "cpu-percent")?.unwrap_or(-1);
    let Some(max) = f.int("autoscale", "max")? else {
        return Err(usage("error: required flag(s) \"max\" not set"));
    };
    // Validate's range checks come before Run reads the resources.
    if max < 1 {
        return Err(usage(format!(
            "error: --max=MAXPODS is required and must be at least 1, max: {max}"
        )));
    }
    if max < min {
        return Err(usage(format!(
            "error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: {max}, min: {min}"
        )));
    }
    let Some(target) = target(&f.positional)? else {
        return Err(usage(NO_RESOURCES));
    };
    if target.names.is_empty() {
        return Err(usage(
            "error: resource(s) were provided, but no name was specified",
        ));
    }
    let clamp = |n: i64| n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Ok(Command::Autoscale {
        target,
        opts: AutoscaleOpts {
            min: clamp(min),
            max: clamp(max),
            cpu_percent: clamp(cpu),
            name: f.get("name").map(str::to_string),
        },
        dry_run: super::node::dry_run(&f, "autoscale")?,
        output: opt_output(&f)?,
    })
}
