//! `kubectl describe persistentvolumeclaim` (kubectl 1.32 describe.go
//! `describePersistentVolumeClaim` and `printPersistentVolumeClaim`).

use super::super::fields::{array_at, at, sorted_pairs, str_at};
use super::super::rows::{access_modes_text, storage_class};
use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline};
use serde_json::Value;

/// The describe text for `claim`; `pods` are those that mount or own it.
pub fn describe_pvc(claim: &Value, pods: &[&Value], events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(claim, &["metadata", "name"]));
    w += &format!(
        "Namespace:\t{}\n",
        str_at(claim, &["metadata", "namespace"])
    );
    w += &format!("StorageClass:\t{}\n", storage_class(claim));
    if at(claim, &["metadata", "deletionTimestamp"]).is_some_and(|v| !v.is_null()) {
        w += &format!(
            "Status:\tTerminating (lasts {})\n",
            super::super::fields::since(claim, &["metadata", "deletionTimestamp"], now)
        );
    } else {
        w += &format!("Status:\t{}\n", str_at(claim, &["status", "phase"]));
    }
    let volume = str_at(claim, &["spec", "volumeName"]);
    w += &format!("Volume:\t{volume}\n");
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(claim, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", claim, &["metadata", "annotations"]);
    // `%v` of a []string: `[kubernetes.io/pvc-protection]`.
    let finalizers: Vec<&str> = array_at(claim, &["metadata", "finalizers"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    w += &format!("Finalizers:\t[{}]\n", finalizers.join(" "));
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            str_at(claim, &["status", "capacity", "storage"]).to_string(),
            access_modes_text(at(claim, &["status", "accessModes"]).unwrap_or(&Value::Null)),
        )
    };
    w += &format!("Capacity:\t{capacity}\n");
    w += &format!("Access Modes:\t{modes}\n");
    if let Some(m) = at(claim, &["spec", "volumeMode"]).and_then(Value::as_str) {
        w += &format!("VolumeMode:\t{m}\n");
    }
    // printPodsMultiline: sorted by name.
    let mut names: Vec<&str> = pods
        .iter()
        .map(|p| str_at(*p, &["metadata", "name"]))
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        w += "Used By:\t<none>\n";
    } else {
        for (i, n) in names.iter().enumerate() {
            w += if i == 0 { "Used By:\t" } else { "\t" };
            w += &format!("{n}\n");
        }
    }
    describe_events(&mut w, claim, Some("PersistentVolumeClaim"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
