//! Server-side apply against the simulated API server (F4-F8).

use serde_json::{Value, json};

use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::managed::{self, KUBECTL_MANAGER, ManagedField, Operation, PathElement};
use crate::sim::merge::LAST_APPLIED_ANNOTATION;
use crate::sim::obj;
use crate::sim::time::rfc3339;

/// Why an apply failed, client-side or server-side.
pub enum Failure {
    Api(crate::sim::api::ApiError),
    /// The server refused client-side apply's patch (sent as this JSON).
    Patch(crate::sim::api::ApiError, String),
    /// A server-side apply conflict, already formatted with kubectl's help text.
    Conflict(String),
}

/// The manager kubectl keeps the last-applied annotation under once server-side apply
/// takes over (apply.go `fieldManagerLastAppliedAnnotation`).
const LAST_APPLIED_MANAGER: &str = "kubectl-last-applied";

/// Whether an Apply entry already owns the last-applied annotation (csaupgrade
/// FindFieldsOwners).
fn annotation_applied(entries: &[ManagedField]) -> bool {
    let path: Vec<PathElement> = ["metadata", "annotations", LAST_APPLIED_ANNOTATION]
        .iter()
        .map(|f| PathElement::Field(f.to_string()))
        .collect();
    entries
        .iter()
        .any(|e| e.operation == Operation::Apply && e.fields.contains(&path))
}

/// structured-merge-diff's ValidationErrors for fields the schema lacks, wrapped as
/// structuredmerge.go's Apply wraps them: a plain error, so a 500 with no reason.
fn undeclared_error(
    kind: Kind,
    config: &Value,
    paths: &[crate::sim::schema::FieldPath],
) -> crate::sim::api::ApiError {
    let errors: Vec<String> = paths
        .iter()
        .map(|p| {
            format!(
                "{}: field not declared in schema",
                managed::smd_path(config, p)
            )
        })
        .collect();
    let errors = match errors.as_slice() {
        [one] => one.clone(),
        many => format!("errors:\n  {}", many.join("\n  ")),
    };
    crate::sim::api::ApiError {
        reason: crate::sim::api::Reason::Unknown,
        message: format!(
            "failed to create typed patch object (default/{}; {}, Kind={}): {errors}",
            obj::name(config),
            kind.api_version(),
            kind.kind_name()
        ),
    }
}

/// kubectl's help after a conflict (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go).
const CONFLICT_HELP: &str =
    "Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts";

pub fn server_side_apply(
    cluster: &mut Cluster,
    kind: Kind,
    config: Value,
    manager: &str,
    force: bool,
) -> Result<Vec<String>, Failure> {
    if kind != Kind::Deployment {
        return Err(Failure::Conflict(format!(
            "error: kubedrill's demo tracks field ownership for deployments only; apply {} client-side\n",
            kind.group_resource()
        )));
    }
    // Apply patches are typed against the schema whatever fieldValidation says (apiserver
    // PR 105916): a field it does not declare fails the request.
    let undeclared = crate::sim::schema::unknown(crate::sim::kinds::of(kind).schema(), &config);
    if !undeclared.is_empty() {
        return Err(Failure::Api(undeclared_error(kind, &config, &undeclared)));
    }
    // The server compares the configuration as it decodes it: quantities canonical.
    let mut config = config;
    if let Some(spec) = config.pointer_mut("/spec/template/spec") {
        crate::sim::defaults::canonical_quantities(spec);
    }
    let rv = crate::sim::api::precondition(&config).map(str::to_string);
    apply_request(cluster, kind, &config, manager, force, rv.as_deref()).map_err(Refusal::fail)?;
    let mut warnings = Vec::new();
    if manager != KUBECTL_MANAGER {
        return Ok(warnings);
    }
    // What kubectl does after its apply succeeded (apply.go): saveLastApplyAnnotationIfNecessary
    // applies the annotation alone as kubectl-last-applied, so the migration does not
    // orphan and drop it; migrateToSSAIfNecessary moves client-side apply's fields to
    // `kubectl` (a JSON patch of managedFields, csaupgrade) and, when it did, sends the
    // apply again, so fields the old configuration had and this one lacks go. Each failure
    // is a warning: the apply itself succeeded.
    let name = obj::name(&config).to_string();
    let (stored, mut entries) = live_and_entries(cluster, kind, &name);
    if let Some(a) = stored
        .as_ref()
        .and_then(|l| obj::str(l, &["metadata", "annotations", LAST_APPLIED_ANNOTATION]))
        && !annotation_applied(&entries)
    {
        let just = json!({
            "apiVersion": config["apiVersion"],
            "kind": config["kind"],
            "metadata": {"name": name, "namespace": "default", "annotations": {LAST_APPLIED_ANNOTATION: a}},
        });
        if let Err(r) = apply_request(cluster, kind, &just, LAST_APPLIED_MANAGER, force, None) {
            warnings.push(format!("Warning: failed to migrate kubectl.kubernetes.io/last-applied-configuration for Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: {}\n", r.message()));
            return Ok(warnings);
        }
        (_, entries) = live_and_entries(cluster, kind, &name);
    }
    if !managed::migrate_client_side(&mut entries) {
        return Ok(warnings);
    }
    if let Ok(mut live) = cluster.api.get(kind, &name).cloned() {
        obj::set(
            &mut live,
            &["metadata", "managedFields"],
            managed::managed_fields_value(&entries),
        );
        if let Err(e) = cluster.api.put_applied(kind, live) {
            warnings.push(format!("Warning: server rejected managed fields migration to Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: {}\n", e.message));
            return Ok(warnings);
        }
    }
    if let Err(r) = apply_request(cluster, kind, &config, manager, force, rv.as_deref()) {
        warnings.push(format!("Warning: failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply. Error: {}\n", r.message()));
    }
    Ok(warnings)
}

/// Why one apply request failed.
enum Refusal {
    Conflict(managed::ApplyConflict),
    Api(crate::sim::api::ApiError),
}

impl Refusal {
    /// The Status message, which is what kubectl's warnings quote.
    fn message(&self) -> String {
        match self {
            Refusal::Conflict(c) => c.to_string(),
            Refusal::Api(e) => e.message.clone(),
        }
    }

    /// As kubectl reports a failed apply: a conflict with its help text (apply.go adds it
    /// to any 409).
    fn fail(self) -> Failure {
        match self {
            Refusal::Conflict(c) => Failure::Conflict(format!("error: {c}\n{CONFLICT_HELP}\n")),
            Refusal::Api(e) if e.reason == crate::sim::api::Reason::Conflict => {
                Failure::Conflict(format!("error: {e}\n{CONFLICT_HELP}\n"))
            }
            Refusal::Api(e) => Failure::Api(e),
        }
    }
}

/// The stored object (without its managedFields) and its managedFields entries.
fn live_and_entries(
    cluster: &Cluster,
    kind: Kind,
    name: &str,
) -> (Option<Value>, Vec<ManagedField>) {
    let live = cluster.api.get(kind, name).ok().cloned();
    let entries = live
        .as_ref()
        .and_then(|l| l["metadata"]["managedFields"].as_array())
        .map(|a| {
            a.iter()
                .filter_map(|e| ManagedField::from_value(e).ok())
                .collect()
        })
        .unwrap_or_default();
    let live = live.map(|mut l| {
        obj::remove(&mut l, &["metadata", "managedFields"]);
        l
    });
    (live, entries)
}

/// One apply PATCH as the API server serves it: field ownership and conflicts (with the
/// last-applied forgiveness for `kubectl`), then the resourceVersion precondition, the
/// lastAppliedUpdater, and the write (a create when the object is missing).
fn apply_request(
    cluster: &mut Cluster,
    kind: Kind,
    config: &Value,
    manager: &str,
    force: bool,
    rv: Option<&str>,
) -> Result<(), Refusal> {
    let name = obj::name(config).to_string();
    let time = rfc3339(cluster.now());
    let (live, mut entries) = live_and_entries(cluster, kind, &name);
    let base = live.clone().unwrap_or_else(|| json!({}));
    let mut merged = managed::apply_forgiving(&mut entries, &base, config, manager, force, &time)
        .map_err(Refusal::Conflict)?;
    // A6: after the field-conflict check (the patch is applied first), a resourceVersion in
    // the manifest is a precondition.
    if live.is_some() {
        cluster
            .api
            .check_precondition(kind, &name, rv)
            .map_err(Refusal::Api)?;
    }
    // The API server's lastAppliedUpdater: an apply by `kubectl` rewrites an annotation
    // that is still there to the configuration just applied (its JSON encoder ends it
    // with a newline).
    if manager == KUBECTL_MANAGER
        && obj::str(
            &merged,
            &["metadata", "annotations", LAST_APPLIED_ANNOTATION],
        )
        .is_some()
    {
        let mut applied = config.clone();
        obj::remove(
            &mut applied,
            &["metadata", "annotations", LAST_APPLIED_ANNOTATION],
        );
        if applied["metadata"]["annotations"]
            .as_object()
            .is_some_and(|m| m.is_empty())
        {
            obj::remove(&mut applied, &["metadata", "annotations"]);
        }
        if obj::str(&applied, &["metadata", "namespace"]).is_none() {
            obj::set(&mut applied, &["metadata", "namespace"], json!("default"));
        }
        obj::set(
            &mut merged,
            &["metadata", "annotations", LAST_APPLIED_ANNOTATION],
            json!(format!("{applied}\n")),
        );
    }
    obj::set(
        &mut merged,
        &["metadata", "managedFields"],
        managed::managed_fields_value(&entries),
    );
    let now = cluster.now();
    let result = match live {
        Some(_) => cluster.api.put_applied(kind, merged),
        None => cluster.api.create(kind, merged, now),
    };
    result.map(drop).map_err(Refusal::Api)
}
