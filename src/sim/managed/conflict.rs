//! A refused server-side apply: the fields other managers own that it would change, and the
//! API server's message and `details.causes` for them. Mirrors structured-merge-diff's
//! `merge/conflict.go` and apimachinery's `managedfields/internal/conflict.go`.

use std::fmt;

use serde_json::Value;
use thiserror::Error;

use super::fieldpath::{FieldSet, Path, path_string};
use super::managers::{ManagedField, Operation};

/// One field another manager owns that an apply would change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    pub subresource: Option<String>,
    pub path: Path,
}

/// A refused server-side apply (HTTP 409, reason `Conflict`). Display is the API server's
/// message; kubectl prints it after `error: ` and adds its help text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct ApplyConflict {
    /// Sorted by manager identity, then path.
    pub conflicts: Vec<Conflict>,
}

impl Conflict {
    fn owner(&self) -> ManagedField {
        ManagedField {
            manager: self.manager.clone(),
            operation: self.operation,
            api_version: self.api_version.clone(),
            time: String::new(),
            subresource: self.subresource.clone(),
            fields: FieldSet::new(),
        }
    }
}

impl ApplyConflict {
    /// `details.causes` of the Status: `type: FieldManagerConflict`, a message and the field.
    pub fn causes(&self) -> Value {
        Value::Array(
            self.conflicts
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "type": "FieldManagerConflict",
                        "message": format!("conflict with {}", c.owner().describe()),
                        "field": path_string(&c.path),
                    })
                })
                .collect(),
        )
    }
}

impl fmt::Display for ApplyConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.conflicts.as_slice() {
            return write!(
                f,
                "Apply failed with 1 conflict: conflict with {}: {}",
                only.owner().describe(),
                path_string(&only.path)
            );
        }
        write!(f, "Apply failed with {} conflicts: ", self.conflicts.len())?;
        let mut previous: Option<String> = None;
        let mut first = true;
        for conflict in &self.conflicts {
            let owner = conflict.owner();
            let id = owner.identifier();
            if previous.as_ref() != Some(&id) {
                if !first {
                    writeln!(f)?;
                }
                write!(f, "conflicts with {}:", owner.describe())?;
                previous = Some(id);
            }
            first = false;
            write!(f, "\n- {}", path_string(&conflict.path))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{T0, T1, T2, kubectl_applies_web, web};
    use super::super::update::{apply, record_update};
    use serde_json::json;

    #[test]
    fn several_conflicts_are_grouped_per_manager() {
        let mut entries = Vec::new();
        let live = kubectl_applies_web(&mut entries);
        let edited = web(Some(4), "app:1.5");
        record_update(&mut entries, &live, &edited, "x", None, T1);
        let mut edited2 = edited.clone();
        edited2["spec"]["paused"] = json!(true);
        record_update(&mut entries, &edited, &edited2, "helm", None, T1);
        let mut config = web(Some(3), "app:1.4");
        config["spec"]["paused"] = json!(false);
        let err = apply(&mut entries, &edited2, &config, "kubectl", false, T2);
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("Apply failed with 3 conflicts: conflicts with \"helm\" using apps/v1:\n- .spec.paused\nconflicts with \"x\" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name=\"app\"].image".into())
        );
        let mut only_x = entries.clone();
        only_x.retain(|e| e.manager != "helm");
        config["spec"].as_object_mut().map(|s| s.remove("paused"));
        let err = apply(&mut only_x, &edited, &config, "kubectl", false, T2);
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err("Apply failed with 2 conflicts: conflicts with \"x\" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name=\"app\"].image".into())
        );
    }

    /// Conflicts against an Apply owner print no ` using`.
    #[test]
    fn apply_owners_print_without_api_version() {
        let mut entries = Vec::new();
        let Ok(live) = apply(
            &mut entries,
            &json!({}),
            &web(Some(3), "app:1.4"),
            "argocd-controller",
            false,
            T0,
        ) else {
            panic!("first apply conflicts")
        };
        let err = apply(
            &mut entries,
            &live,
            &json!({"spec": {"replicas": 2}}),
            "handover",
            false,
            T1,
        );
        assert_eq!(
            err.map_err(|e| e.to_string()),
            Err(
                "Apply failed with 1 conflict: conflict with \"argocd-controller\": .spec.replicas"
                    .into()
            )
        );
    }
}
