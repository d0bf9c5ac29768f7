//! Arguments of kubectl's node commands: `cordon`, `uncordon` and `drain`
//! (pkg/cmd/drain) and `taint` (pkg/cmd/taint), with their words for misuse.

use super::*;

/// `--dry-run`: none, client or server (`cmdutil.GetDryRunStrategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DryRun {
    None,
    Client,
    Server,
}

impl DryRun {
    /// The suffix the printer adds to a success line.
    pub fn suffix(self) -> &'static str {
        match self {
            DryRun::None => "",
            DryRun::Client => " (dry run)",
            DryRun::Server => " (server dry run)",
        }
    }
}

pub(super) fn dry_run(f: &Flags, cmd: &str) -> Result<DryRun, UsageError> {
    match f.get("dry-run") {
        None | Some("none") => Ok(DryRun::None),
        // A bare --dry-run means client, with a deprecation warning kubectl prints.
        Some("unchanged" | "client") => Ok(DryRun::Client),
        Some("server") => Ok(DryRun::Server),
        Some(other) => {
            let _ = cmd;
            Err(usage(format!(
                "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
            )))
        }
    }
}

/// The nodes a node command names, or selects with `-l`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nodes {
    pub names: Vec<String>,
    pub selector: Option<String>,
}

/// `kubectl drain`'s options that the demo models.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrainOpts {
    pub force: bool,
    pub ignore_daemonsets: bool,
    pub delete_emptydir_data: bool,
    /// `--grace-period`: negative (the default, -1) leaves each pod's own.
    pub grace_period: i64,
    /// `--timeout` in whole seconds; 0 (the default) waits for ever.
    pub timeout: u64,
    pub disable_eviction: bool,
    pub pod_selector: Option<String>,
    /// `--skip-wait-for-delete-timeout` in seconds; 0 skips nothing.
    pub skip_wait_for_delete_timeout: i64,
    pub dry_run: DryRun,
}

/// A taint as `kubectl taint` takes it: `KEY[=VALUE]:EFFECT`, or with a trailing `-`
/// `KEY[:EFFECT]-` to remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaintSpec {
    pub key: String,
    pub value: String,
    pub effect: String,
}

impl TaintSpec {
    /// `Taint.ToString()`: `key=value:effect`, parts left out when empty.
    pub fn to_text(&self) -> String {
        let mut s = self.key.clone();
        if !self.value.is_empty() {
            s = format!("{s}={}", self.value);
        }
        if !self.effect.is_empty() {
            s = format!("{s}:{}", self.effect);
        }
        s
    }
}

fn nodes(f: &Flags, verb: &str) -> Result<Nodes, UsageError> {
    let selector = f.get("selector").map(str::to_string);
    if f.positional.is_empty() && selector.is_none() {
        return Err(usage(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        )));
    }
    Ok(Nodes {
        names: f.positional.clone(),
        selector,
    })
}

pub(super) fn cordon(verb: &str, rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(verb, rest, &[SELECTOR, optional("dry-run", "unchanged")])?;
    Ok(Command::Cordon {
        nodes: nodes(&f, verb)?,
        desired: verb == "cordon",
        dry_run: dry_run(&f, verb)?,
    })
}

pub(super) fn drain(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "drain",
        rest,
        &[
            SELECTOR,
            optional("dry-run", "unchanged"),
            boolean("force"),
            boolean("ignore-daemonsets"),
            boolean("delete-emptydir-data"),
            boolean("delete-local-data"),
            val("grace-period", None),
            val("timeout", None),
            boolean("disable-eviction"),
            val("pod-selector", None),
            val("skip-wait-for-delete-timeout", None),
            val("chunk-size", None),
        ],
    )?;
    let timeout = match f.get("timeout") {
        None => 0,
        Some(t) => go_duration_secs(t).map_err(|e| {
            usage(format!(
                "Error: invalid argument \"{t}\" for \"--timeout\" flag: {e}\nSee 'kubectl drain --help' for usage."
            ))
        })?,
    };
    let int = |long: &str| -> Result<Option<i64>, UsageError> {
        f.get(long)
            .map(|v| {
                v.parse::<i64>().map_err(|_| {
                    usage(format!(
                        "Error: invalid argument \"{v}\" for \"--{long}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax\nSee 'kubectl drain --help' for usage."
                    ))
                })
            })
            .transpose()
    };
    let grace_period = int("grace-period")?.unwrap_or(-1);
    let skip = int("skip-wait-for-delete-timeout")?.unwrap_or(0);
    int("chunk-size")?;
    let opts = DrainOpts {
        force: f.bool("drain", "force")?,
        ignore_daemonsets: f.bool("drain", "ignore-daemonsets")?,
        delete_emptydir_data: f.bool("drain", "delete-emptydir-data")?
            || f.bool("drain", "delete-local-data")?,
        grace_period,
        timeout,
        disable_eviction: f.bool("drain", "disable-eviction")?,
        pod_selector: f.get("pod-selector").map(str::to_string),
        skip_wait_for_delete_timeout: skip,
        dry_run: dry_run(&f, "drain")?,
    };
    Ok(Command::Drain {
        nodes: nodes(&f, "drain")?,
        opts,
    })
}

/// `parseTaint`.
fn parse_taint(st: &str) -> Result<TaintSpec, String> {
    let parts: Vec<&str> = st.split(':').collect();
    let (key, value, effect) = match parts.as_slice() {
        [key] => (key.to_string(), String::new(), String::new()),
        [kv, effect] => {
            if !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(effect) {
                return Err(format!(
                    "invalid taint effect: {effect}, unsupported taint effect"
                ));
            }
            let kv: Vec<&str> = kv.split('=').collect();
            match kv.as_slice() {
                [k] => (k.to_string(), String::new(), effect.to_string()),
                [k, v] => {
                    if !crate::sim::validation::valid_label_value(v) {
                        return Err(format!(
                            "invalid taint spec: {st}, {}",
                            crate::sim::validation::LABEL_VALUE_RULE
                        ));
                    }
                    (k.to_string(), v.to_string(), effect.to_string())
                }
                _ => return Err(format!("invalid taint spec: {st}")),
            }
        }
        _ => return Err(format!("invalid taint spec: {st}")),
    };
    let errs = crate::sim::validation::qualified_name(&key);
    if !errs.is_empty() {
        return Err(format!("invalid taint spec: {st}, {}", errs.join("; ")));
    }
    Ok(TaintSpec { key, value, effect })
}

pub(super) fn taint(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags(
        "taint",
        rest,
        &[
            SELECTOR,
            boolean("overwrite"),
            boolean("all"),
            optional("dry-run", "unchanged"),
            OUTPUT,
        ],
    )?;
    // Resources first, then taint changes (taint.go Complete).
    let mut resources = Vec::new();
    let mut specs = Vec::new();
    for s in &f.positional {
        let is_taint = s.contains('=') || s.contains(':') || s.ends_with('-');
        if is_taint {
            specs.push(s.clone());
        } else if !specs.is_empty() {
            return Err(usage(format!(
                "error: all resources must be specified before taint changes: {s}"
            )));
        } else {
            resources.push(s.clone());
        }
    }
    if resources.is_empty() {
        return Err(usage(
            "error: one or more resources must be specified as <resource> <name>",
        ));
    }
    if specs.is_empty() {
        return Err(usage("error: at least one taint update is required"));
    }
    let mut add = Vec::new();
    let mut remove = Vec::new();
    for spec in &specs {
        if let Some(stripped) = spec.strip_suffix('-') {
            let t = parse_taint(stripped).map_err(|e| usage(format!("error: {e}")))?;
            remove.push(TaintSpec {
                value: String::new(),
                ..t
            });
        } else {
            let t = parse_taint(spec).map_err(|e| usage(format!("error: {e}")))?;
            if t.effect.is_empty() {
                return Err(usage(format!("error: invalid taint spec: {spec}")));
            }
            if add
                .iter()
                .any(|x: &TaintSpec| x.key == t.key && x.effect == t.effect)
            {
                return Err(usage(format!(
                    "error: duplicated taints with the same key and effect: {}",
                    go_taint(&t)
                )));
            }
            add.push(t);
        }
    }
    // The resource: `nodes NAME...`, `node/NAME`, or `nodes --all` / `-l`.
    let (kind_word, names) = match resources[0].split_once('/') {
        Some((k, n)) => (k.to_string(), vec![n.to_string()]),
        None => (resources[0].clone(), resources[1..].to_vec()),
    };
    if crate::sim::kubectl::discovery::resolve(&kind_word) != Some(Kind::Node) {
        return Err(usage(format!(
            "error: invalid resource type {kind_word}, only node types are supported"
        )));
    }
    let all = f.bool("taint", "all")?;
    let selector = f.get("selector").map(str::to_string);
    if names.is_empty() && !all && selector.is_none() {
        return Err(usage(
            "error: one or more resources must be specified as <resource> <name>",
        ));
    }
    Ok(Command::Taint {
        nodes: Nodes { names, selector },
        all,
        add,
        remove,
        overwrite: f.bool("taint", "overwrite")?,
        dry_run: dry_run(&f, "taint")?,
    })
}

/// Go's `%v` of a `v1.Taint` struct, as the duplicate error prints it.
fn go_taint(t: &TaintSpec) -> String {
    format!("{{{} {} {} <nil>}}", t.key, t.value, t.effect)
}
