//! `kubectl apply`: client-side (the last-applied three-way merge, F3) and server-side
//! (field ownership and conflicts, F4-F7).

use serde_json::{Value, json};

use super::cmdutil::{Outcome, each_object, strip_server_fields};
use super::ssa::Failure;
use crate::sim::api::decode::{FieldValidation, decode_body, decode_json_patched, decode_patched};
use crate::sim::api::precondition;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::merge::{
    LAST_APPLIED_ANNOTATION, merge_patch, strategic_merge_patch, three_way_json_merge_patch,
    three_way_patch, with_last_applied,
};
use crate::sim::obj;

pub fn apply(
    cluster: &mut Cluster,
    file: &str,
    objs: Vec<Value>,
    validate: FieldValidation,
    server_side: bool,
    field_manager: Option<&str>,
    force: bool,
) -> Outcome {
    each_object(file, objs, |kind, mut config, mut o| {
        strip_server_fields(&mut config);
        let name = obj::name(&config).to_string();
        let kg = kind.kind_group();
        let result = if server_side && matches!(kind, Kind::Custom(_)) {
            Err(Failure::Conflict(format!(
                "error: kubedrill's demo does not run server-side apply on custom resources ({}); apply without --server-side\n",
                kind.group_resource()
            )))
        } else if server_side {
            super::ssa::server_side_apply(
                cluster,
                kind,
                config,
                field_manager.unwrap_or("kubectl"),
                force,
            )
            .map(|warnings| {
                // Migration warnings come before the printer's line.
                for w in warnings {
                    o = std::mem::take(&mut o).warn(w);
                }
                format!("{kg}/{name} serverside-applied\n")
            })
        } else {
            // kubectl warns before it sends the patch, so the warning precedes the result.
            let mut warnings = String::new();
            let r = client_side(cluster, kind, config, validate, &mut warnings);
            if !warnings.is_empty() {
                o = o.warn(warnings);
            }
            r.map(|word| format!("{kg}/{name} {word}\n"))
        };
        match result {
            Ok(line) => o.out(line),
            // Client-side, only the create of a missing object fails this way
            // (AddSourceToErr("creating", ...) in apply.go).
            Err(Failure::Api(e)) => {
                let ctx = (!server_side).then(|| format!("error when creating \"{file}\": "));
                o.api_error(&e, ctx)
            }
            Err(Failure::Patch(e, patch)) => {
                let ctx = patch_context(kind, &name, &patch, file);
                o.api_error(&e, Some(ctx))
            }
            Err(Failure::Conflict(msg)) => {
                let mut o = o.err(msg);
                o.error = Some(crate::sim::api::Reason::Conflict);
                o
            }
        }
    })
}

fn client_side(
    cluster: &mut Cluster,
    kind: Kind,
    config: Value,
    validate: FieldValidation,
    warnings: &mut String,
) -> Result<&'static str, Failure> {
    let name = obj::name(&config).to_string();
    // kubectl's resource builder sets the namespace on what it read before it records
    // the configuration, so the annotation names it.
    let mut config = config;
    if obj::str(&config, &["metadata", "namespace"]).is_none() {
        obj::set(&mut config, &["metadata", "namespace"], json!("default"));
    }
    let annotated = with_last_applied(&config);
    // kubectl GETs the object at the file's version: a custom object comes back converted.
    let version = obj::version_of(&config).map(str::to_string);
    let live = match cluster.api.get(kind, &name) {
        Ok(v) if matches!(kind, Kind::Custom(_)) => Some(
            cluster
                .api
                .read_custom_at(kind, v, version.as_deref())
                .map_err(Failure::Api)?,
        ),
        Ok(v) => Some(v.clone()),
        Err(_) => None,
    };
    let Some(live) = live else {
        let now = cluster.now();
        let mut annotated = annotated;
        let w = decode_body(
            kind,
            &cluster.api.fields(kind, &annotated),
            &mut annotated,
            validate,
        )
        .map_err(Failure::Api)?;
        warnings.extend(w.iter().map(|w| format!("Warning: {w}\n")));
        return cluster
            .api
            .create(kind, annotated, now)
            .map(|_| "created")
            .map_err(Failure::Api);
    };
    // That GET at a deprecated version warns.
    if let Some(version) = &version {
        cluster.api.warn_deprecated(kind, version);
    }
    let last: Option<Value> =
        obj::str(&live, &["metadata", "annotations", LAST_APPLIED_ANNOTATION])
            .and_then(|s| serde_json::from_str(s).ok());
    if last.is_none() {
        warnings.push_str(&format!(
            "Warning: resource {}/{name} is missing the {LAST_APPLIED_ANNOTATION} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
            kind.group_resource().split('.').next().unwrap_or("")
        ));
    }
    // A custom kind has no strategic merge schema: kubectl sends a JSON merge patch.
    let custom = matches!(kind, Kind::Custom(_));
    let patch = if custom {
        three_way_json_merge_patch(last.as_ref(), &annotated, &live)
    } else {
        three_way_patch(last.as_ref(), &annotated, &live)
    };
    if patch.as_object().is_some_and(|m| m.is_empty()) {
        return Ok("unchanged");
    }
    let mut next = if custom {
        merge_patch(&live, &patch)
    } else {
        strategic_merge_patch(&live, &patch)
    };
    let decoded = if custom {
        let fields = cluster.api.fields(kind, &next);
        decode_json_patched(kind, &fields, &mut next, validate)
    } else {
        decode_patched(kind, &mut next, &patch, validate)
    };
    match decoded {
        Ok(w) => warnings.extend(w.iter().map(|w| format!("Warning: {w}\n"))),
        Err(e) => return Err(Failure::Patch(e, patch.to_string())),
    }
    // A6: a resourceVersion in the file lands in the patch when it differs from live and is
    // then a precondition. kubectl re-reads and retries a conflict five times, which cannot
    // help: the file's version stays stale.
    let rv = precondition(&next).map(str::to_string);
    cluster
        .api
        .update(kind, next, rv.as_deref())
        .map(|_| "configured")
        .map_err(|e| Failure::Patch(e, patch.to_string()))
}

/// How kubectl apply wraps a failed patch (apply.go and patcher.go, both through
/// AddSourceToErr; the middle lines are resource.Info's String).
fn patch_context(kind: Kind, name: &str, patch: &str, file: &str) -> String {
    let (group, resource) = match kind.group_resource().split_once('.') {
        Some((r, g)) => (g, r),
        None => ("", kind.group_resource()),
    };
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    format!(
        "error when applying patch:\n{patch}\nto:\nResource: \"{group}/{version}, Resource={resource}\", GroupVersionKind: \"{group}/{version}, Kind={}\"\nName: \"{name}\", Namespace: \"default\"\nfor: \"{file}\": error when patching \"{file}\": ",
        kind.kind_name()
    )
}
