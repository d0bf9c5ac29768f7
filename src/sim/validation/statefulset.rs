//! ValidateStatefulSet / ValidateStatefulSetUpdate (pkg/apis/apps/validation, 1.32), the
//! PersistentVolumeClaim spec checks a claim template and a claim share, and
//! ValidateControllerRevision's immutable data.
//!
//! A StatefulSet's pod template is checked for its labels and restart policy only: the
//! source leaves the pod spec to the pods (its TODO), so a bad container is refused when
//! the controller creates a pod, as a FailedCreate event.

use serde_json::Value;

use super::pod::one_of;
use super::{
    Kind, always_restarts, decodes, go_label_selector, go_string_map, invalid, meta, nonnegative,
    quantities, template_meta,
};
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::status::ApiError;

/// The fields a StatefulSet update may change.
const UPDATABLE: [&str; 7] = [
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
];

pub fn stateful_set(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    quantities(Kind::StatefulSet, o)?;
    let spec = &o["spec"];
    decodes(Kind::StatefulSet, spec)?;
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    match spec["podManagementPolicy"].as_str().unwrap_or("") {
        "" => errs.push("spec.podManagementPolicy: Required value".into()),
        "OrderedReady" | "Parallel" => {}
        other => errs.push(format!(
            "spec.podManagementPolicy: Invalid value: {}: must be 'OrderedReady' or 'Parallel'",
            go_quote(other)
        )),
    }
    let strategy = &spec["updateStrategy"];
    let rolling = strategy.get("rollingUpdate").filter(|r| !r.is_null());
    match strategy["type"].as_str().unwrap_or("") {
        "" => errs.push("spec.updateStrategy: Required value".into()),
        "OnDelete" => {
            if rolling.is_some() {
                errs.push(format!(
                    "spec.updateStrategy.rollingUpdate: Invalid value: {}: only allowed for updateStrategy 'RollingUpdate'",
                    go_rolling_update(rolling.unwrap_or(&Value::Null))
                ));
            }
        }
        "RollingUpdate" => {
            if let Some(r) = rolling {
                nonnegative(
                    &mut errs,
                    "spec.updateStrategy.rollingUpdate.partition",
                    r["partition"].as_i64(),
                );
            }
        }
        other => errs.push(format!(
            "spec.updateStrategy: Invalid value: {}: must be 'RollingUpdate' or 'OnDelete'",
            go_quote(other)
        )),
    }
    let policy = &spec["persistentVolumeClaimRetentionPolicy"];
    for when in ["whenDeleted", "whenScaled"] {
        one_of(
            &mut errs,
            &format!("spec.persistentVolumeClaimRetentionPolicy.{when}"),
            &policy[when],
            &["Delete", "Retain"],
        );
    }
    nonnegative(&mut errs, "spec.replicas", spec["replicas"].as_i64());
    nonnegative(
        &mut errs,
        "spec.minReadySeconds",
        spec["minReadySeconds"].as_i64(),
    );
    if let Some(start) = spec.pointer("/ordinals/start") {
        nonnegative(&mut errs, "spec.ordinals.start", start.as_i64());
    }
    let selector = spec.get("selector").filter(|s| !s.is_null());
    let template_labels = obj::path(spec, &["template", "metadata", "labels"]);
    match selector {
        None => errs.push("spec.selector: Required value".into()),
        Some(s) => {
            let n = s["matchLabels"].as_object().map_or(0, |m| m.len())
                + s["matchExpressions"].as_array().map_or(0, Vec::len);
            if n == 0 {
                errs.push(format!(
                    "spec.selector: Invalid value: {}: empty selector is invalid for statefulset",
                    go_label_selector(s)
                ));
            } else if !obj::selector_matches_labels(s, template_labels.unwrap_or(&Value::Null)) {
                errs.push(format!(
                    "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
                    go_string_map(template_labels)
                ));
            }
        }
    }
    template_meta(&mut errs, spec);
    always_restarts(&mut errs, spec, "StatefulSet");
    if let Some(old) = old {
        let mut changed = false;
        let keys = |s: &Value| -> Vec<String> {
            s.as_object()
                .map(|m| {
                    m.keys()
                        .filter(|k| !UPDATABLE.contains(&k.as_str()))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut all = keys(spec);
        all.extend(keys(&old["spec"]));
        for k in all {
            if spec.get(&k) != old["spec"].get(&k) {
                changed = true;
            }
        }
        if changed {
            errs.push(format!(
                "spec: Forbidden: updates to statefulset spec for fields other than {} are forbidden",
                "'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds'"
            ));
        }
    }
    invalid(Kind::StatefulSet, o, errs)
}

/// field.Invalid of a `*apps.RollingUpdateStatefulSetStrategy`: the struct it points to, as
/// `%#v` (`maxUnavailable` is always dropped, see `defaults::stateful_set`).
fn go_rolling_update(r: &Value) -> String {
    format!(
        "apps.RollingUpdateStatefulSetStrategy{{Partition:{}, MaxUnavailable:(*intstr.IntOrString)(nil)}}",
        r["partition"].as_i64().unwrap_or(0)
    )
}

/// ValidatePersistentVolumeClaim: at least one access mode, of the known ones, and a
/// storage request. A claim's spec is immutable once created, except its requests; the
/// demo refuses any other spec change, without the struct diff the server appends.
pub fn persistent_volume_claim(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    meta::object_meta(&mut errs, o);
    let spec = &o["spec"];
    let modes = spec["accessModes"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if modes.is_empty() {
        errs.push("spec.accessModes: Required value: at least 1 access mode is required".into());
    }
    for m in modes {
        one_of(
            &mut errs,
            "spec.accessModes",
            m,
            &[
                "ReadOnlyMany",
                "ReadWriteMany",
                "ReadWriteOnce",
                "ReadWriteOncePod",
            ],
        );
    }
    if spec
        .pointer("/resources/requests/storage")
        .is_none_or(Value::is_null)
    {
        errs.push("spec.resources[storage]: Required value".into());
    }
    if let Some(old) = old {
        let mut a = spec.clone();
        let mut b = old["spec"].clone();
        for s in [&mut a, &mut b] {
            obj::remove(s, &["resources"]);
            obj::remove(s, &["volumeAttributesClassName"]);
            // The binder fills the volume name in.
            obj::remove(s, &["volumeName"]);
        }
        if a != b {
            errs.push("spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims".into());
        }
    }
    invalid(Kind::PersistentVolumeClaim, o, errs)
}

/// ValidateControllerRevisionUpdate: `data` never changes.
pub fn controller_revision(o: &Value, old: Option<&Value>) -> Result<(), ApiError> {
    let mut errs = Vec::new();
    if let Some(old) = old
        && old.get("data") != o.get("data")
    {
        errs.push("data: Forbidden: field is immutable".into());
    }
    if o["revision"].as_i64().is_some_and(|r| r < 0) {
        nonnegative(&mut errs, "revision", o["revision"].as_i64());
    }
    invalid(Kind::ControllerRevision, o, errs)
}
