//! One `metadata.managedFields` entry (manager, operation, apiVersion, time, subresource and
//! its FieldsV1), its JSON form, the manager identity and the order the API server stores
//! entries in. Mirrors apimachinery's `pkg/util/managedfields/internal/managedfields.go`
//! (decoding, encoding and sorting) and structured-merge-diff's `fieldpath/managers.go`.

use serde_json::{Map, Value};

use super::fieldpath::{FieldSet, FieldsError};

/// The operation of a managedFields entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operation {
    Apply,
    Update,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One `metadata.managedFields` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedField {
    pub manager: String,
    pub operation: Operation,
    pub api_version: String,
    /// RFC3339, as passed in by the caller.
    pub time: String,
    pub subresource: Option<String>,
    pub fields: FieldSet,
}

impl ManagedField {
    /// The Kubernetes JSON form of the entry.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("apiVersion".into(), Value::from(self.api_version.clone()));
        map.insert("fieldsType".into(), Value::from("FieldsV1"));
        map.insert("fieldsV1".into(), self.fields.to_fields_v1());
        map.insert("manager".into(), Value::from(self.manager.clone()));
        map.insert("operation".into(), Value::from(self.operation.as_str()));
        if let Some(sub) = &self.subresource {
            map.insert("subresource".into(), Value::from(sub.clone()));
        }
        map.insert("time".into(), Value::from(self.time.clone()));
        Value::Object(map)
    }

    /// Reads an entry in the form [`ManagedField::to_value`] writes.
    pub fn from_value(value: &Value) -> Result<Self, FieldsError> {
        let text = |field: &'static str| {
            value
                .get(field)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or(FieldsError::BadEntry(field))
        };
        let operation = match text("operation")?.as_str() {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return Err(FieldsError::BadEntry("operation")),
        };
        if value.get("fieldsType").and_then(Value::as_str) != Some("FieldsV1") {
            return Err(FieldsError::BadEntry("fieldsType"));
        }
        let fields = match value.get("fieldsV1") {
            Some(v) => FieldSet::from_fields_v1(v)?,
            None => FieldSet::new(),
        };
        Ok(ManagedField {
            manager: text("manager")?,
            operation,
            api_version: text("apiVersion")?,
            time: text("time").unwrap_or_default(),
            subresource: value
                .get("subresource")
                .and_then(Value::as_str)
                .map(str::to_string),
            fields,
        })
    }

    /// The manager identity as the API server encodes it (BuildManagerIdentifier): without the
    /// time, and for Apply without the apiVersion. Conflict groups sort on this string.
    pub fn identifier(&self) -> String {
        let mut out = format!(
            "{{\"manager\":{},\"operation\":\"{}\"",
            Value::from(self.manager.clone()),
            self.operation.as_str()
        );
        if self.operation == Operation::Update {
            out.push_str(&format!(
                ",\"apiVersion\":{}",
                Value::from(self.api_version.clone())
            ));
        }
        if let Some(sub) = &self.subresource {
            out.push_str(&format!(",\"subresource\":{}", Value::from(sub.clone())));
        }
        out.push('}');
        out
    }

    pub(super) fn is(
        &self,
        manager: &str,
        operation: Operation,
        subresource: Option<&str>,
    ) -> bool {
        self.manager == manager
            && self.operation == operation
            && self.subresource.as_deref() == subresource
    }

    /// How conflict messages name the manager.
    pub(super) fn describe(&self) -> String {
        let mut out = Value::from(self.manager.clone()).to_string();
        if let Some(sub) = &self.subresource {
            out.push_str(&format!(" with subresource {}", Value::from(sub.clone())));
        }
        if self.operation == Operation::Update {
            out.push_str(&format!(" using {}", self.api_version));
        }
        out
    }
}

/// The `metadata.managedFields` array.
pub fn managed_fields_value(entries: &[ManagedField]) -> Value {
    Value::Array(entries.iter().map(ManagedField::to_value).collect())
}

/// The order the API server stores entries in: operation, time, manager, apiVersion,
/// subresource. Times compare as strings, which holds for the UTC `Z` form Kubernetes writes.
pub fn sort_entries(entries: &mut [ManagedField]) {
    entries.sort_by(|p, q| {
        (
            p.operation,
            &p.time,
            &p.manager,
            &p.api_version,
            &p.subresource,
        )
            .cmp(&(
                q.operation,
                &q.time,
                &q.manager,
                &q.api_version,
                &q.subresource,
            ))
    });
}

#[cfg(test)]
mod tests {
    use super::super::API_VERSION;
    use super::super::test_support::{T1, replicas_path};
    use super::*;
    use serde_json::json;

    #[test]
    fn managed_field_to_value_and_back() {
        let mut fields = FieldSet::new();
        fields.insert(replicas_path());
        let e = ManagedField {
            manager: "kube-controller-manager".into(),
            operation: Operation::Update,
            api_version: API_VERSION.into(),
            time: T1.into(),
            subresource: Some("scale".into()),
            fields,
        };
        let v = e.to_value();
        assert_eq!(
            v,
            json!({
                "apiVersion": "apps/v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {"f:replicas": {}}},
                "manager": "kube-controller-manager",
                "operation": "Update",
                "subresource": "scale",
                "time": T1
            })
        );
        assert_eq!(ManagedField::from_value(&v), Ok(e));
        assert_eq!(
            ManagedField::from_value(&json!({"manager": "x"})),
            Err(FieldsError::BadEntry("operation"))
        );
    }
}
