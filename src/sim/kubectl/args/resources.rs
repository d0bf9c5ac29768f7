//! Resource arguments (`deploy web`, `deploy/web`, `pods,rs`) and kubectl's words for a
//! type or verb the demo does not have.

use super::*;

/// Resource types a real cluster serves that the demo does not model.
pub(super) const REAL_TYPES: &[&str] = &[
    "ns",
    "namespace",
    "namespaces",
    "cm",
    "configmap",
    "configmaps",
    "secret",
    "secrets",
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
    "pv",
    "persistentvolume",
    "persistentvolumes",
    "sa",
    "serviceaccount",
    "serviceaccounts",
    "rc",
    "replicationcontroller",
    "replicationcontrollers",
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
pub(super) const REAL_VERBS: &[(&str, &str)] = &[
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
    ("auth", ""),
    ("config", ""),
    ("cluster-info", ""),
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
pub(super) fn unsimulated_verb(verb: &str) -> Option<UsageError> {
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

pub(super) fn unknown_type(s: &str) -> UsageError {
    // A type a real server has: saying it does not exist would teach something false.
    if REAL_TYPES.contains(&s.to_ascii_lowercase().as_str()) {
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|k| match k.kind_name() {
                "Endpoints" => "Endpoints".to_string(),
                n => match n.strip_suffix('y') {
                    Some(stem) => format!("{stem}ies"),
                    None => format!("{n}s"),
                },
            })
            .collect();
        let (last, rest) = kinds.split_last().unwrap_or((&kinds[0], &[]));
        return usage(format!(
            "error: kubedrill's demo has {} and {last} only, not \"{s}\"",
            rest.join(", ")
        ));
    }
    usage(format!(
        "error: the server doesn't have a resource type \"{s}\""
    ))
}

/// `TYPE NAME...` or `TYPE/NAME...` (all the same type, as the demo needs).
pub(super) fn target(words: &[String]) -> Result<Option<Target>, UsageError> {
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
            let k = crate::sim::kubectl::discovery::resolve(t).ok_or_else(|| unknown_type(t))?;
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
    let kind = crate::sim::kubectl::discovery::resolve(first).ok_or_else(|| unknown_type(first))?;
    Ok(Some(Target {
        kind,
        names: words[1..].to_vec(),
    }))
}

/// One named object: `deploy web` or `deploy/web`.
pub(super) fn one_target(words: &[String], none: &str) -> Result<Target, UsageError> {
    match target(words)? {
        Some(t) if t.names.len() == 1 => Ok(t),
        Some(t) if t.names.len() > 1 => Err(usage(format!(
            "error: kubedrill's demo takes one name here, got {}",
            t.names.len()
        ))),
        _ => Err(usage(none.to_string())),
    }
}

pub(super) const NO_RESOURCES: &str = "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/// GetResourcesAndPairs: the resources come first, then the changes (`k=v`, `k-`); a
/// resource after a change is refused.
pub(super) fn resources_and_pairs<'a>(
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
