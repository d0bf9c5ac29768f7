//! pflag as kubectl uses it: long and short flags, `--flag=value` and `--flag value`,
//! booleans, and kubectl's words for a flag it has, a flag the demo does not model, and
//! one it does not know.

use super::*;

#[derive(Clone, Copy)]
pub(super) struct Flag {
    pub(super) long: &'static str,
    pub(super) short: Option<char>,
    pub(super) value: bool,
    /// pflag's NoOptDefVal: the value of the bare flag, which then takes no argument.
    pub(super) bare: Option<&'static str>,
}

pub(super) const fn val(long: &'static str, short: Option<char>) -> Flag {
    Flag {
        long,
        short,
        value: true,
        bare: None,
    }
}

pub(super) const fn boolean(long: &'static str) -> Flag {
    Flag {
        long,
        short: None,
        value: false,
        bare: None,
    }
}

/// A flag with a value that may also stand alone (`--dry-run` is `--dry-run=unchanged`).
pub(super) const fn optional(long: &'static str, bare: &'static str) -> Flag {
    Flag {
        long,
        short: None,
        value: true,
        bare: Some(bare),
    }
}

pub(super) const NAMESPACE: Flag = val("namespace", Some('n'));

pub(super) const OUTPUT: Flag = val("output", Some('o'));

pub(super) const FILENAME: Flag = val("filename", Some('f'));

pub(super) const SELECTOR: Flag = val("selector", Some('l'));

/// `--validate` (cmdutil.AddValidateFlags): bare, it is `strict`.
pub(super) const VALIDATE: Flag = optional("validate", "strict");

/// The fieldValidation `--validate` asks for; kubectl's default is Strict.
pub(super) fn validation(f: &Flags) -> Result<FieldValidation, UsageError> {
    FieldValidation::from_flag(f.get("validate").unwrap_or("strict")).map_err(usage)
}

/// Positional words and flag values, in order.
#[derive(Default)]
pub(super) struct Flags {
    pub(super) positional: Vec<String>,
    pub(super) values: Vec<(&'static str, String)>,
    /// The command's flags, for naming one as pflag does in its errors.
    pub(super) specs: Vec<Flag>,
}

impl Flags {
    /// pflag's name for a flag in errors: `"-w, --watch"` when it has a shorthand.
    pub(super) fn label(&self, long: &str) -> String {
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

    pub(super) fn get(&self, long: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(l, _)| *l == long)
            .map(|(_, v)| v.as_str())
    }

    /// Every `-f`, repeated or comma-separated, as one comma-separated list.
    pub(super) fn files(&self) -> Option<String> {
        let all = self.all("filename");
        (!all.is_empty()).then(|| all.join(","))
    }

    pub(super) fn all(&self, long: &str) -> Vec<String> {
        self.values
            .iter()
            .filter(|(l, _)| *l == long)
            .map(|(_, v)| v.clone())
            .collect()
    }

    pub(super) fn bool(&self, cmd: &str, long: &str) -> Result<bool, UsageError> {
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

    pub(super) fn int(&self, cmd: &str, long: &str) -> Result<Option<i64>, UsageError> {
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

    pub(super) fn namespace(&self) -> String {
        self.get("namespace").unwrap_or("default").to_string()
    }
}

/// pflag semantics: `--x=v`, `--x v`, `-x v`, `-xv`, bool flags without a value, `--`
/// ends flags.
pub(super) fn parse_flags(
    cmd: &str,
    words: &[String],
    specs: &[Flag],
) -> Result<Flags, UsageError> {
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
pub(super) const REAL_FLAGS: &[(&str, &str)] = &[
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
pub(super) const GLOBAL_FLAGS: &str = "--as --as-group --as-uid --cache-dir --certificate-authority --client-certificate --client-key --cluster --context --disable-compression --insecure-skip-tls-verify --kubeconfig --log-flush-frequency --match-server-version -n --namespace --password --profile --profile-output --request-timeout -s --server --tls-server-name --token --user --username -v --v --vmodule --warnings-as-errors";

/// A flag kubectl has (for `cmd`, or globally) that the demo does not model, refused as
/// such.
pub(super) fn unmodelled_flag(cmd: &str, flag: &str) -> Option<UsageError> {
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
