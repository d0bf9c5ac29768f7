//! `kubectl patch` (kubectl pkg/cmd/patch): merge, strategic and JSON patches, on the
//! main endpoint or `/status`.

use serde_json::Value;

use super::args::{PatchType, Target};
use super::cmdutil::*;
use crate::sim::api::decode::{FieldValidation, decode_json_patched, decode_patched};
use crate::sim::cluster::Cluster;
use crate::sim::merge;
use crate::sim::output::parse_manifest;

pub(super) fn patch_cmd(
    cluster: &mut Cluster,
    t: &Target,
    patch_type: PatchType,
    patch: &str,
    subresource: Option<&str>,
) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let parsed: Value = match parse_manifest(patch) {
        Ok(mut v) if v.len() == 1 => v.remove(0),
        Ok(_) => {
            return Outcome::default()
                .err("error: unable to parse the patch: expected one object\n");
        }
        Err(e) => {
            return Outcome::default().err(format!("error: unable to parse \"{patch}\": {e}\n"));
        }
    };
    // The custom resource handler takes JSON patches and merge patches only.
    if patch_type == PatchType::Strategic && matches!(t.kind, crate::sim::kind::Kind::Custom(_)) {
        return Outcome::default().err(
            "Error from server (UnsupportedMediaType): the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n",
        );
    }
    let mut next = match patch_type {
        PatchType::Merge => merge::merge_patch(&cur, &parsed),
        PatchType::Strategic => merge::strategic_merge_patch(&cur, &parsed),
        PatchType::Json => match merge::json_patch(&cur, &parsed) {
            Ok(v) => v,
            // A patch that does not apply: patch.go answers with a generic 422, whose one
            // cause (no field) kubectl prints after "The request is invalid: ".
            Err(
                e @ (merge::PatchError::TestFailed { .. } | merge::PatchError::PathNotFound { .. }),
            ) => {
                let message = format!("The request is invalid: : {}", e.library_message());
                return Outcome::default().api(&crate::sim::api::ApiError::invalid(message), None);
            }
            Err(e) => {
                return Outcome::default().err(format!("Error from server (BadRequest): {e}\n"));
            }
        },
    };
    // kubectl patch sends no fieldValidation, so the server's default, Warn, applies:
    // unknown fields are dropped, each with a warning.
    let decoded = match patch_type {
        PatchType::Strategic => decode_patched(t.kind, &mut next, &parsed, FieldValidation::Warn),
        PatchType::Merge | PatchType::Json => decode_json_patched(
            t.kind,
            &cluster.api.fields(t.kind, &next),
            &mut next,
            FieldValidation::Warn,
        ),
    };
    let mut o = match decoded {
        Ok(warnings) => Outcome::default().server_warnings(warnings),
        Err(e) => return Outcome::default().api(&e, None),
    };
    // A custom object goes to the server all the same: an empty patch rewrites one stored
    // at an older version (the storage version migrators' trick).
    let custom = matches!(t.kind, crate::sim::kind::Kind::Custom(_));
    if next == cur && !custom {
        return o.out(format!(
            "{}/{name} patched (no change)\n",
            t.kind.kind_group()
        ));
    }
    // A6: a resourceVersion the patch sets is a precondition, on `/status` too.
    let rv = crate::sim::api::precondition(&next).map(str::to_string);
    let result = match subresource {
        Some("status") => cluster
            .api
            .check_precondition(t.kind, &name, rv.as_deref())
            .and_then(|()| {
                o.forged += 1;
                cluster.api.update_status(t.kind, next)
            }),
        _ => cluster.api.update(t.kind, next, rv.as_deref()),
    };
    match result {
        // E3: the server drops a status change sent to the main endpoint and stores nothing;
        // kubectl compares what came back with what it read (reflect.DeepEqual in patch.go)
        // and says so.
        Ok(stored)
            if cluster
                .api
                .read_custom(t.kind, &stored)
                .is_ok_and(|read| read == cur) =>
        {
            o.out(format!(
                "{}/{name} patched (no change)\n",
                t.kind.kind_group()
            ))
        }
        Ok(_) => o.out(format!("{}/{name} patched\n", t.kind.kind_group())),
        Err(e) => o.api(&e, None),
    }
}
