//! `kubectl delete` (kubectl pkg/cmd/delete): names, selectors and files, grace
//! periods, `--force` and the propagation policy; the wait is [`super::wait`]'s.

use super::args::{Propagation, Target};
use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::output::parse_manifest;

#[allow(clippy::too_many_arguments)]
pub(super) fn delete(
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
                    match manifest_kind(&x, f) {
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
    // Deleting an owner cascades as --cascade asked (H6), by the garbage collector in
    // kube-controller-manager: not while no replica of it leads.
    if cluster.kcm_acting() {
        cluster.collect_garbage();
    }
    o
}

/// `kubectl delete --raw PATH` (rawhttp.RawDelete): the DELETE goes out with no options,
/// so the kind's default propagation applies (a Job's pods are orphaned, with the
/// server's warning), and kubectl prints the response body: the object while it stays
/// (finalizers, a grace period), a Success Status once it is gone.
pub(super) fn delete_raw(cluster: &mut Cluster, path: &str) -> Outcome {
    let not_found = || {
        Outcome::default()
            .err("Error from server (NotFound): the server could not find the requested resource\n")
    };
    // A query may name the propagation policy, as the server's warning suggests.
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let asked = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("propagationPolicy="))
        .map(|p| match p {
            "Orphan" => Some(crate::sim::deletion::Propagation::Orphan),
            "Foreground" => Some(crate::sim::deletion::Propagation::Foreground),
            "Background" => Some(crate::sim::deletion::Propagation::Background),
            _ => None,
        });
    let asked = match asked {
        Some(None) => {
            return Outcome::default().err(format!(
                "error: kubedrill's demo knows propagationPolicy Orphan, Background and Foreground, not {}\n",
                crate::sim::output::go_quote(query)
            ));
        }
        Some(Some(p)) => Some(p),
        None => None,
    };
    let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    let (group_version, rest) = match parts.as_slice() {
        ["", "api", "v1", rest @ ..] => ("v1".to_string(), rest),
        ["", "apis", g, v, rest @ ..] => (format!("{g}/{v}"), rest),
        _ => return not_found(),
    };
    let (plural, name) = match rest {
        ["namespaces", "default", plural, name] => (*plural, *name),
        [plural, name] => (*plural, *name),
        _ => return not_found(),
    };
    let Some(kind) = Kind::parse(plural).filter(|k| {
        k.api_version() == group_version
            && k.group_resource().split('.').next() == Some(plural)
            && (rest.len() == 2) == crate::sim::kinds::of(*k).namespace().is_none()
    }) else {
        return not_found();
    };
    let strategy = crate::sim::kinds::of(kind);
    let (propagation, warning) = match asked {
        Some(p) => (p, None),
        None => strategy.default_propagation(),
    };
    let now = cluster.now();
    let (o, uid) = match cluster
        .api
        .delete_propagating(kind, name, None, propagation, now)
    {
        Ok(v) => (Outcome::default(), crate::sim::obj::uid(&v).to_string()),
        Err(e) => return Outcome::default().api(&e, None),
    };
    let o = o.server_warnings(warning.map(str::to_string).into_iter().collect());
    let body = match cluster.api.get(kind, name) {
        Ok(obj) => crate::sim::schema::response_body(obj, strategy.schema()),
        Err(_) => {
            let (group, resource) = match kind.group_resource().split_once('.') {
                Some((r, g)) => (g, r),
                None => ("", kind.group_resource()),
            };
            // metav1.Status in its fields' order; details' group is omitempty.
            let q = |s: &str| serde_json::Value::from(s).to_string();
            let group = if group.is_empty() {
                String::new()
            } else {
                format!(",\"group\":{}", q(group))
            };
            format!(
                "{{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{{}},\"status\":\"Success\",\"details\":{{\"name\":{}{group},\"kind\":{},\"uid\":{}}}}}\n",
                q(name),
                q(resource),
                q(&uid)
            )
        }
    };
    o.out(body)
}
