//! kubectl's command line: verbs, resource arguments and pflag-style flags, parsed into a
//! typed [`Command`], with kubectl's own error words for mistakes.

use std::fmt;

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
        namespace: String,
    },
    Scale {
        target: Target,
        replicas: i64,
        /// `--current-replicas`: the precondition kubectl checks before it scales.
        current_replicas: Option<i64>,
        output: Option<Output>,
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
    Replace {
        file: String,
        output: Option<Output>,
    },
    Apply {
        file: String,
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
    ViewLastApplied { target: Target, json: bool },
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
            Command::Delete { .. } => "delete",
            Command::Patch { .. } => "patch",
            Command::CreateFile { .. } | Command::CreateDeployment { .. } => "create",
            Command::Replace { .. } => "replace",
            Command::Apply { .. } | Command::ViewLastApplied { .. } => "apply",
            Command::Rollout { .. } => "rollout",
            Command::Label {
                annotate: false, ..
            } => "label",
            Command::Label { annotate: true, .. } => "annotate",
            Command::SetImage { .. } => "set",
        }
    }
}

// ---- flags ----

#[derive(Clone, Copy)]
struct Flag {
    long: &'static str,
    short: Option<char>,
    value: bool,
    /// pflag's NoOptDefVal: the value of the bare flag, which then takes no argument.
    bare: Option<&'static str>,
}

const fn val(long: &'static str, short: Option<char>) -> Flag {
    Flag {
        long,
        short,
        value: true,
        bare: None,
    }
}
const fn boolean(long: &'static str) -> Flag {
    Flag {
        long,
        short: None,
        value: false,
        bare: None,
    }
}
/// A flag with a value that may also stand alone (`--dry-run` is `--dry-run=unchanged`).
const fn optional(long: &'static str, bare: &'static str) -> Flag {
    Flag {
        long,
        short: None,
        value: true,
        bare: Some(bare),
    }
}

const NAMESPACE: Flag = val("namespace", Some('n'));
const OUTPUT: Flag = val("output", Some('o'));
const FILENAME: Flag = val("filename", Some('f'));
const SELECTOR: Flag = val("selector", Some('l'));

/// Positional words and flag values, in order.
#[derive(Default)]
struct Flags {
    positional: Vec<String>,
    values: Vec<(&'static str, String)>,
    /// The command's flags, for naming one as pflag does in its errors.
    specs: Vec<Flag>,
}

impl Flags {
    /// pflag's name for a flag in errors: `"-w, --watch"` when it has a shorthand.
    fn label(&self, long: &str) -> String {
        match self
            .specs
            .iter()
            .find(|f| f.long == long)
            .and_then(|f| f.short)
        {
            Some(c) => format!("-{c}, --{long}"),
            None => format!("--{long}"),
        }
    }

    fn get(&self, long: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(l, _)| *l == long)
            .map(|(_, v)| v.as_str())
    }

    /// Every `-f`, repeated or comma-separated, as one comma-separated list.
    fn files(&self) -> Option<String> {
        let all = self.all("filename");
        (!all.is_empty()).then(|| all.join(","))
    }

    fn all(&self, long: &str) -> Vec<String> {
        self.values
            .iter()
            .filter(|(l, _)| *l == long)
            .map(|(_, v)| v.clone())
            .collect()
    }

    fn bool(&self, cmd: &str, long: &str) -> Result<bool, UsageError> {
        match self.get(long) {
            None => Ok(false),
            Some("" | "true") => Ok(true),
            Some("false") => Ok(false),
            Some(v) => Err(usage(format!(
                "error: invalid argument \"{v}\" for \"{}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax\nSee 'kubectl {cmd} --help' for usage.",
                self.label(long)
            ))),
        }
    }

    fn int(&self, cmd: &str, long: &str) -> Result<Option<i64>, UsageError> {
        self.get(long)
            .map(|v| {
                v.parse().map_err(|_| {
                    usage(format!(
                        "error: invalid argument \"{v}\" for \"{}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax\nSee 'kubectl {cmd} --help' for usage.",
                        self.label(long)
                    ))
                })
            })
            .transpose()
    }

    fn namespace(&self) -> String {
        self.get("namespace").unwrap_or("default").to_string()
    }
}

/// pflag semantics: `--x=v`, `--x v`, `-x v`, `-xv`, bool flags without a value, `--`
/// ends flags.
fn parse_flags(cmd: &str, words: &[String], specs: &[Flag]) -> Result<Flags, UsageError> {
    let mut out = Flags {
        specs: specs.to_vec(),
        ..Flags::default()
    };
    let mut i = 0;
    let mut refused = None;
    let see = format!("See 'kubectl {cmd} --help' for usage.");
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if w == "--" {
            out.positional.extend(words[i..].iter().cloned());
            break;
        }
        if let Some(rest) = w.strip_prefix("--") {
            let (name, inline) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            let Some(spec) = specs.iter().find(|f| f.long == name) else {
                // pflag reports the first flag it does not know; a real flag the demo does
                // not model is refused only if none follows.
                match unmodelled_flag(cmd, &format!("--{name}")) {
                    Some(r) => {
                        refused.get_or_insert(r);
                        continue;
                    }
                    None => return Err(usage(format!("error: unknown flag: --{name}\n{see}"))),
                }
            };
            let value = match (spec.value, inline, spec.bare) {
                (_, Some(v), _) => v,
                (false, None, _) => String::new(),
                (true, None, Some(bare)) => bare.to_string(),
                (true, None, None) => {
                    let Some(v) = words.get(i) else {
                        return Err(usage(format!(
                            "error: flag needs an argument: --{name}\n{see}"
                        )));
                    };
                    i += 1;
                    v.clone()
                }
            };
            out.values.push((spec.long, value));
        } else if w.len() > 1
            && w.starts_with('-')
            && !w[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            let chars = w[1..].char_indices();
            for (at, c) in chars {
                let Some(spec) = specs.iter().find(|f| f.short == Some(c)) else {
                    match unmodelled_flag(cmd, &format!("-{c}")) {
                        Some(r) => {
                            refused.get_or_insert(r);
                            break;
                        }
                        None => {
                            return Err(usage(format!(
                                "error: unknown shorthand flag: '{c}' in {w}\n{see}"
                            )));
                        }
                    }
                };
                let rest = &w[1 + at + c.len_utf8()..];
                if !spec.value {
                    // pflag: `-w=false` gives a bool shorthand its value.
                    if let Some(v) = rest.strip_prefix('=') {
                        out.values.push((spec.long, v.to_string()));
                        break;
                    }
                    out.values.push((spec.long, String::new()));
                    continue;
                }
                let value = if let Some(v) = rest.strip_prefix('=') {
                    v.to_string()
                } else if !rest.is_empty() {
                    rest.to_string()
                } else if let Some(v) = words.get(i) {
                    i += 1;
                    v.clone()
                } else {
                    return Err(usage(format!(
                        "error: flag needs an argument: '{c}' in -{c}\n{see}"
                    )));
                };
                out.values.push((spec.long, value));
                break;
            }
        } else {
            out.positional.push(w.clone());
        }
    }
    match refused {
        Some(r) => Err(r),
        None => Ok(out),
    }
}

/// The flags of each command kubectl 1.32 has (from its `--help`), for refusing a real
/// flag the demo does not model in its own words instead of calling it unknown.
const REAL_FLAGS: &[(&str, &str)] = &[
    (
        "get",
        "-A --all-namespaces --allow-missing-template-keys --chunk-size --field-selector -f --filename --ignore-not-found -k --kustomize -L --label-columns --no-headers -o --output --output-watch-events --raw -R --recursive -l --selector --server-print --show-kind --show-labels --show-managed-fields --sort-by --subresource --template -w --watch --watch-only",
    ),
    (
        "describe",
        "-A --all-namespaces --chunk-size -f --filename -k --kustomize -R --recursive -l --selector --show-events",
    ),
    (
        "scale",
        "--all --allow-missing-template-keys --current-replicas --dry-run -f --filename -k --kustomize -o --output -R --recursive --replicas --resource-version -l --selector --show-managed-fields --template --timeout",
    ),
    (
        "delete",
        "--all -A --all-namespaces --cascade --dry-run --field-selector -f --filename --force --grace-period --ignore-not-found -i --interactive -k --kustomize --now -o --output --raw -R --recursive -l --selector --timeout --wait",
    ),
    (
        "patch",
        "--allow-missing-template-keys --dry-run --field-manager -f --filename -k --kustomize --local -o --output -p --patch --patch-file -R --recursive --show-managed-fields --subresource --template --type",
    ),
    (
        "create",
        "--allow-missing-template-keys --dry-run --edit --field-manager -f --filename -k --kustomize -o --output --raw -R --recursive --save-config -l --selector --show-managed-fields --template --validate --windows-line-endings",
    ),
    (
        "create deployment",
        "--allow-missing-template-keys --dry-run --field-manager --image -o --output --port -r --replicas --save-config --show-managed-fields --template --validate",
    ),
    (
        "replace",
        "--allow-missing-template-keys --cascade --dry-run --field-manager -f --filename --force --grace-period -k --kustomize -o --output --raw -R --recursive --save-config --show-managed-fields --subresource --template --timeout --validate --wait",
    ),
    (
        "apply",
        "--all --allow-missing-template-keys --cascade --dry-run --field-manager -f --filename --force --force-conflicts --grace-period -k --kustomize --openapi-patch -o --output --overwrite --prune --prune-allowlist -R --recursive -l --selector --server-side --show-managed-fields --subresource --template --timeout --validate --wait",
    ),
    (
        "rollout status",
        "-f --filename -k --kustomize -R --recursive --revision -l --selector --timeout -w --watch",
    ),
    (
        "rollout history",
        "--allow-missing-template-keys -f --filename -k --kustomize -o --output -R --recursive --revision -l --selector --show-managed-fields --template",
    ),
    (
        "rollout undo",
        "--allow-missing-template-keys --dry-run -f --filename -k --kustomize -o --output -R --recursive -l --selector --show-managed-fields --template --to-revision",
    ),
    (
        "rollout restart",
        "--allow-missing-template-keys --field-manager -f --filename -k --kustomize -o --output -R --recursive -l --selector --show-managed-fields --template",
    ),
    (
        "rollout pause",
        "--allow-missing-template-keys --field-manager -f --filename -k --kustomize -o --output -R --recursive -l --selector --show-managed-fields --template",
    ),
    (
        "rollout resume",
        "--allow-missing-template-keys --field-manager -f --filename -k --kustomize -o --output -R --recursive -l --selector --show-managed-fields --template",
    ),
    (
        "label",
        "--all -A --all-namespaces --allow-missing-template-keys --dry-run --field-manager --field-selector -f --filename -k --kustomize --list --local -o --output --overwrite -R --recursive --resource-version -l --selector --show-managed-fields --template",
    ),
    (
        "annotate",
        "--all -A --all-namespaces --allow-missing-template-keys --dry-run --field-manager --field-selector -f --filename -k --kustomize --list --local -o --output --overwrite -R --recursive --resource-version -l --selector --show-managed-fields --template",
    ),
    (
        "apply view-last-applied",
        "--all -f --filename -k --kustomize -o --output -R --recursive -l --selector",
    ),
    (
        "set image",
        "--all --allow-missing-template-keys --dry-run --field-manager -f --filename -k --kustomize --local -o --output -R --recursive -l --selector --show-managed-fields --template",
    ),
];

/// kubectl's global flags (`kubectl options`), which every command takes.
const GLOBAL_FLAGS: &str = "--as --as-group --as-uid --cache-dir --certificate-authority --client-certificate --client-key --cluster --context --disable-compression --insecure-skip-tls-verify --kubeconfig --log-flush-frequency --match-server-version -n --namespace --password --profile --profile-output --request-timeout -s --server --tls-server-name --token --user --username -v --v --vmodule --warnings-as-errors";

/// A flag kubectl has (for `cmd`, or globally) that the demo does not model, refused as
/// such.
fn unmodelled_flag(cmd: &str, flag: &str) -> Option<UsageError> {
    let has = |list: &str| list.split(' ').any(|f| f == flag);
    if has(GLOBAL_FLAGS) {
        return Some(usage(format!(
            "error: kubedrill's demo is one built-in cluster with one namespace: it takes no {flag}"
        )));
    }
    REAL_FLAGS
        .iter()
        .any(|(c, list)| *c == cmd && has(list))
        .then(|| {
            usage(format!(
                "error: kubedrill's demo does not model {flag} for kubectl {cmd}; `help` lists what it runs"
            ))
        })
}

/// Resource types a real cluster serves that the demo does not model.
const REAL_TYPES: &[&str] = &[
    "all",
    "svc",
    "service",
    "services",
    "ns",
    "namespace",
    "namespaces",
    "no",
    "node",
    "nodes",
    "cm",
    "configmap",
    "configmaps",
    "secret",
    "secrets",
    "sts",
    "statefulset",
    "statefulsets",
    "ds",
    "daemonset",
    "daemonsets",
    "job",
    "jobs",
    "cj",
    "cronjob",
    "cronjobs",
    "hpa",
    "horizontalpodautoscaler",
    "horizontalpodautoscalers",
    "ing",
    "ingress",
    "ingresses",
    "pvc",
    "persistentvolumeclaim",
    "persistentvolumeclaims",
    "pv",
    "persistentvolume",
    "persistentvolumes",
    "sa",
    "serviceaccount",
    "serviceaccounts",
    "ep",
    "endpoints",
    "endpointslice",
    "endpointslices",
    "crd",
    "crds",
    "customresourcedefinition",
    "customresourcedefinitions",
    "lease",
    "leases",
    "controllerrevision",
    "controllerrevisions",
    "rc",
    "replicationcontroller",
    "replicationcontrollers",
    "pdb",
    "poddisruptionbudget",
    "poddisruptionbudgets",
    "role",
    "roles",
    "rolebinding",
    "rolebindings",
    "clusterrole",
    "clusterroles",
    "clusterrolebinding",
    "clusterrolebindings",
    "netpol",
    "networkpolicy",
    "networkpolicies",
];

/// kubectl commands a real kubectl has that the demo does not run, with why where the
/// reason teaches something.
const REAL_VERBS: &[(&str, &str)] = &[
    ("logs", "its pods run no real containers"),
    ("exec", "its pods run no real containers"),
    ("attach", "its pods run no real containers"),
    ("cp", "its pods run no real containers"),
    ("port-forward", "its pods run no real containers"),
    ("debug", "its pods run no real containers"),
    ("top", "its pods run no real containers"),
    (
        "edit",
        "edit the manifest (e in the app) and apply it, or patch",
    ),
    ("wait", "play time and read status instead"),
    ("explain", ""),
    ("api-resources", ""),
    ("api-versions", ""),
    ("diff", ""),
    ("run", ""),
    ("expose", ""),
    ("autoscale", ""),
    ("auth", ""),
    ("config", ""),
    ("cluster-info", ""),
    ("cordon", "it has no nodes"),
    ("uncordon", "it has no nodes"),
    ("drain", "it has no nodes"),
    ("taint", "it has no nodes"),
    ("certificate", ""),
    ("events", "kubectl get events works"),
    ("kustomize", ""),
    ("plugin", ""),
    ("proxy", ""),
    ("version", ""),
    ("completion", ""),
    ("alpha", ""),
];

/// A kubectl command a real kubectl has and the demo does not run, refused as such.
fn unsimulated_verb(verb: &str) -> Option<UsageError> {
    let (_, why) = REAL_VERBS.iter().find(|(v, _)| *v == verb)?;
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(" ({why})")
    };
    let runs: Vec<&str> = VERBS
        .iter()
        .map(|v| if *v == "set" { "set image" } else { v })
        .collect();
    let (last, rest) = runs.split_last()?;
    Some(usage(format!(
        "error: kubedrill's demo does not run `kubectl {verb}`{why}; it runs {} and {last}",
        rest.join(", ")
    )))
}

fn unknown_type(s: &str) -> UsageError {
    // A type a real server has: saying it does not exist would teach something false.
    if REAL_TYPES.contains(&s.to_ascii_lowercase().as_str()) {
        return usage(format!(
            "error: kubedrill's demo has Deployments, ReplicaSets, pods and events only, not \"{s}\""
        ));
    }
    usage(format!(
        "error: the server doesn't have a resource type \"{s}\""
    ))
}

/// `TYPE NAME...` or `TYPE/NAME...` (all the same type, as the demo needs).
fn target(words: &[String]) -> Result<Option<Target>, UsageError> {
    let Some(first) = words.first() else {
        return Ok(None);
    };
    if first.contains('/') {
        let mut kind = None;
        let mut names = Vec::new();
        for w in words {
            let Some((t, n)) = w.split_once('/') else {
                return Err(usage("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string()));
            };
            let k = Kind::parse(t).ok_or_else(|| unknown_type(t))?;
            if kind.is_some_and(|prev| prev != k) {
                return Err(usage(
                    "error: kubedrill's demo takes one resource type per command",
                ));
            }
            kind = Some(k);
            names.push(n.to_string());
        }
        return Ok(kind.map(|kind| Target { kind, names }));
    }
    let kind = Kind::parse(first).ok_or_else(|| unknown_type(first))?;
    Ok(Some(Target {
        kind,
        names: words[1..].to_vec(),
    }))
}

/// One named object: `deploy web` or `deploy/web`.
fn one_target(words: &[String], none: &str) -> Result<Target, UsageError> {
    match target(words)? {
        Some(t) if t.names.len() == 1 => Ok(t),
        Some(t) if t.names.len() > 1 => Err(usage(format!(
            "error: kubedrill's demo takes one name here, got {}",
            t.names.len()
        ))),
        _ => Err(usage(none.to_string())),
    }
}

const NO_RESOURCES: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

pub const VERBS: &[&str] = &[
    "get", "describe", "scale", "delete", "patch", "create", "replace", "apply", "rollout",
    "label", "annotate", "set",
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
        "replace" => {
            let f = parse_flags("replace", rest, &[FILENAME, NAMESPACE, OUTPUT])?;
            let file = f
                .files()
                .ok_or_else(|| usage("error: must specify one of -f and -k"))?;
            Ok(Command::Replace {
                file: file.to_string(),
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
                server_side,
                field_manager: f.get("field-manager").map(str::to_string),
                force_conflicts,
                output: opt_output(&f)?,
            })
        }
        "rollout" => rollout(rest),
        "label" | "annotate" => label(verb, rest),
        "set" => set(rest),
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

fn opt_output(f: &Flags) -> Result<Option<Output>, UsageError> {
    f.get("output")
        .map(|o| parse_output(o, OBJECT_FORMATS))
        .transpose()
}

fn get(rest: &[String]) -> Result<Command, UsageError> {
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
        let kinds = first
            .split(',')
            .map(|t| Kind::parse(t).ok_or_else(|| unknown_type(t)))
            .collect::<Result<Vec<_>, _>>()?;
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

fn describe(rest: &[String]) -> Result<Command, UsageError> {
    let f = parse_flags("describe", rest, &[NAMESPACE, SELECTOR])?;
    let t = target(&f.positional)?.ok_or_else(|| {
        usage("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.")
    })?;
    if t.kind == Kind::Event {
        return Err(usage(
            "error: kubedrill's demo describes deployments, replicasets and pods; events show in each one's describe, or with `kubectl get events`",
        ));
    }
    Ok(Command::Describe {
        kind: t.kind,
        names: t.names,
        namespace: f.namespace(),
    })
}

fn scale(rest: &[String]) -> Result<Command, UsageError> {
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

fn delete(rest: &[String]) -> Result<Command, UsageError> {
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
        ],
    )?;
    let target = target(&f.positional)?;
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
    let ms = super::duration::parse_go_duration(s)?;
    u64::try_from(ms / 1000).map_err(|_| format!("time: invalid duration \"{s}\""))
}

fn patch(rest: &[String]) -> Result<Command, UsageError> {
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

fn create(rest: &[String]) -> Result<Command, UsageError> {
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
            ],
        )?;
        // cobra checks required flags before the command looks at its arguments.
        let images = f.all("image");
        if images.is_empty() {
            return Err(usage("error: required flag(s) \"image\" not set"));
        }
        let mut bare_dry_run = false;
        let name = match f.positional.as_slice() {
            [n] => n.clone(),
            other => {
                return Err(usage(format!(
                    "error: exactly one NAME is required, got {}\nSee 'kubectl create deployment -h' for help and examples",
                    other.len()
                )));
            }
        };
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
    let f = parse_flags("create", rest, &[FILENAME, NAMESPACE, OUTPUT])?;
    match (f.files(), f.positional.first()) {
        (Some(file), _) => Ok(Command::CreateFile {
            file: file.to_string(),
            output: opt_output(&f)?,
        }),
        (None, Some(sub)) if CREATE_SUBCOMMANDS.contains(&sub.as_str()) => Err(usage(format!(
            "error: kubedrill's demo can `create -f FILE` and `create deployment`, not `create {sub}`"
        ))),
        (None, Some(_)) => Err(usage(format!(
            "error: Unexpected args: [{}]\nSee 'kubectl create -h' for help and examples",
            f.positional.join(" ")
        ))),
        (None, None) => Err(usage("error: must specify one of -f and -k")),
    }
}

/// `kubectl create` subcommands a real kubectl has, with their aliases.
const CREATE_SUBCOMMANDS: &[&str] = &[
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

fn rollout(rest: &[String]) -> Result<Command, UsageError> {
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
            "error: kubedrill's demo does not show one revision (--revision={r}); each revision is a ReplicaSet: `kubectl get rs -o yaml` shows its pod template and its deployment.kubernetes.io/revision annotation"
        )));
    }
    let target = one_target(&f.positional, "error: required resource not specified")?;
    // undo and history of another kind fail in kubectl after the object is read (its
    // rollbacker and history viewer exist only for Deployments, DaemonSets and
    // StatefulSets); exec says so in kubectl's words once the object is found.
    let kubectl_refuses = matches!(action, RolloutAction::Undo | RolloutAction::History);
    if target.kind != Kind::Deployment && !kubectl_refuses {
        return Err(usage(format!(
            "error: no rollout support for {}: kubedrill's demo rolls out deployments",
            target.kind.group_resource()
        )));
    }
    let to_revision = f.int(&cmd, "to-revision")?;
    let watch = f.get("watch").is_none() || f.bool(&cmd, "watch")?;
    let timeout_ms = match f.get("timeout") {
        None => None,
        Some(v) => match super::duration::parse_go_duration(v) {
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

/// GetResourcesAndPairs: the resources come first, then the changes (`k=v`, `k-`); a
/// resource after a change is refused.
fn resources_and_pairs<'a>(
    words: &'a [String],
    what: &str,
) -> Result<(Vec<String>, Vec<&'a str>), UsageError> {
    let mut objects = Vec::new();
    let mut pairs = Vec::new();
    for w in words {
        let change = (w.contains('=') && !w.starts_with('=')) || (w.ends_with('-') && w != "-");
        if change {
            pairs.push(w.as_str());
        } else if !pairs.is_empty() {
            return Err(usage(format!(
                "error: all resources must be specified before {what} changes: {w}"
            )));
        } else {
            objects.push(w.clone());
        }
    }
    Ok((objects, pairs))
}

/// A label value's rule (IsValidLabelValue), with its message.
const LABEL_VALUE_RULE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

fn valid_label_value(v: &str) -> bool {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    v.is_empty()
        || (v.len() <= 63
            && v.chars().all(ok)
            && v.starts_with(|c: char| c.is_ascii_alphanumeric())
            && v.ends_with(|c: char| c.is_ascii_alphanumeric()))
}

fn label(verb: &str, rest: &[String]) -> Result<Command, UsageError> {
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
    let target = one_target(&objects, NO_RESOURCES)?;
    Ok(Command::Label {
        target,
        changes: out,
        overwrite: f.bool(verb, "overwrite")?,
        annotate,
        output: opt_output(&f)?,
    })
}

fn set(rest: &[String]) -> Result<Command, UsageError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn p(line: &str) -> Result<Command, UsageError> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&words)
    }

    fn err(line: &str) -> String {
        p(line).unwrap_err().0
    }

    #[test]
    fn get_forms() {
        let Command::Get {
            kinds,
            names,
            print,
            ..
        } = p("get deploy web -o wide").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (kinds, names, print.output),
            (
                vec![Kind::Deployment],
                vec!["web".to_string()],
                Output::Wide
            )
        );
        let Command::Get { kinds, .. } = p("get deploy,rs,po").unwrap() else {
            panic!()
        };
        assert_eq!(kinds, [Kind::Deployment, Kind::ReplicaSet, Kind::Pod]);
        let Command::Get {
            kinds,
            names,
            print,
            ..
        } = p("get deployment.apps/web -ojsonpath={.spec}").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (kinds, names, print.output),
            (
                vec![Kind::Deployment],
                vec!["web".into()],
                Output::JsonPath("{.spec}".into())
            )
        );
        let Command::Get { selector, .. } = p("get pods -l app=web").unwrap() else {
            panic!()
        };
        assert_eq!(selector.as_deref(), Some("app=web"));
    }

    /// Each rollout subcommand has its own flags (checked against kubectl 1.32's help and
    /// its offline errors); views the demo does not print are refused in its own words.
    #[test]
    fn rollout_flags_per_subcommand() {
        assert_eq!(
            err("rollout undo deploy/web --revision=1"),
            "error: unknown flag: --revision\nSee 'kubectl rollout undo --help' for usage."
        );
        assert_eq!(
            err("rollout restart deploy/web --timeout=5s"),
            "error: unknown flag: --timeout\nSee 'kubectl rollout restart --help' for usage."
        );
        assert_eq!(
            err("rollout status deploy/web -w=abc"),
            "error: invalid argument \"abc\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"abc\": invalid syntax\nSee 'kubectl rollout status --help' for usage."
        );
        assert!(
            err("rollout history deploy/web --revision=2")
                .starts_with("error: kubedrill's demo does not show one revision (--revision=2)")
        );
        assert!(p("rollout history deploy/web --revision=0").is_ok());
        let Command::Rollout { to_revision, .. } =
            p("rollout undo deploy/web --to-revision=2").unwrap()
        else {
            panic!()
        };
        assert_eq!(to_revision, Some(2));
        assert!(err("get pods -w").contains("does not stream with --watch"));
        assert!(p("get pods -w=false").is_ok());
    }

    /// What a real cluster has but the demo does not model is named as such, never as
    /// something that does not exist; a real typo still gets kubectl's own words.
    #[test]
    fn real_but_unsimulated_is_not_called_unknown() {
        assert_eq!(
            err("get svc"),
            "error: kubedrill's demo has Deployments, ReplicaSets, pods and events only, not \"svc\""
        );
        assert!(err("logs web").starts_with(
            "error: kubedrill's demo does not run `kubectl logs` (its pods run no real containers); it runs get, describe,"
        ));
        assert!(err("logs web").ends_with("annotate and set image"));
        assert!(err("get pods -A").contains("one namespace, default"));
        assert_eq!(
            err("get foo"),
            "error: the server doesn't have a resource type \"foo\""
        );
        assert!(err("gett pods").starts_with("error: unknown command \"gett\" for \"kubectl\""));
    }

    #[test]
    fn kubectl_error_words() {
        assert_eq!(
            err("scale deploy web --replica=3"),
            "error: unknown flag: --replica\nSee 'kubectl scale --help' for usage."
        );
        assert_eq!(
            err("get pods -x"),
            "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            err("get foo"),
            "error: the server doesn't have a resource type \"foo\""
        );
        assert!(err("get").starts_with("You must specify the type of resource to get."));
        assert_eq!(
            err("get pods -o bad"),
            "error: unable to match a printer suitable for the output format \"bad\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
        );
        assert_eq!(
            err("scale deploy web --replicas=-1"),
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
        );
        assert_eq!(
            err("scale deploy web"),
            "error: required flag(s) \"replicas\" not set"
        );
        assert_eq!(err("scale --replicas=2"), NO_RESOURCES);
        assert_eq!(
            err("rollout status"),
            "error: required resource not specified"
        );
        assert_eq!(
            err("patch deploy web"),
            "error: must specify --patch or --patch-file containing the contents of the patch"
        );
        assert_eq!(
            err("label deploy web"),
            "error: at least one label update is required"
        );
        assert_eq!(
            err("label deploy web a=b=c"),
            "error: invalid label spec: a=b=c"
        );
        assert!(
            err("create deployment --image=x")
                .starts_with("error: exactly one NAME is required, got 0")
        );
        assert!(err("delete").starts_with("error: You must provide one or more resources"));
        assert_eq!(
            err("gte pods"),
            "error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget"
        );
        assert_eq!(
            err("get pods web -l app=web"),
            "error: name cannot be provided when a selector is specified"
        );
    }

    #[test]
    fn flags_in_every_position_and_form() {
        let Command::Scale {
            target, replicas, ..
        } = p("scale --replicas 5 deploy/web").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (target.kind, target.names, replicas),
            (Kind::Deployment, vec!["web".into()], 5)
        );
        let Command::Delete {
            target,
            grace_period,
            now,
            ..
        } = p("delete pod web-x --grace-period=0").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (target.unwrap().names, grace_period, now),
            (vec!["web-x".to_string()], Some(0), false)
        );
        let Command::Apply {
            server_side,
            field_manager,
            force_conflicts,
            ..
        } = p("apply -f web.yaml --server-side --field-manager=me --force-conflicts").unwrap()
        else {
            panic!()
        };
        assert!(server_side && force_conflicts);
        assert_eq!(field_manager.as_deref(), Some("me"));
        let Command::Label {
            changes, overwrite, ..
        } = p("label deploy web tier=front old- --overwrite").unwrap()
        else {
            panic!()
        };
        assert!(overwrite);
        assert_eq!(
            changes,
            [
                MetaChange::Set("tier".into(), "front".into()),
                MetaChange::Remove("old".into())
            ]
        );
        let Command::SetImage { images, .. } = p("set image deploy/web app=nginx:1.28").unwrap()
        else {
            panic!()
        };
        assert_eq!(images, [("app".to_string(), "nginx:1.28".to_string())]);
        let Command::Rollout {
            action,
            to_revision,
            ..
        } = p("rollout undo deploy/web --to-revision=1").unwrap()
        else {
            panic!()
        };
        assert_eq!((action, to_revision), (RolloutAction::Undo, Some(1)));
    }
}
