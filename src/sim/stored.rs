//! A stored object: the JSON the API serves, with the facts controllers look up on every
//! sync read out of it once, when it is written. Stored objects are immutable and shared
//! (`Arc<Stored>`) by the API, its watch log and the informer caches, so a ReplicaSet sync
//! over a thousand pods reads a thousand small structs instead of walking a thousand JSON
//! trees.

use std::ops::Deref;

use serde_json::Value;

use super::controllers::pods::PodFacts;
use super::kind::Kind;
use super::obj;

#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    value: Value,
    kind: Kind,
    facts: Facts,
}

/// What every controller asks of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// The uid of the controller ownerReference.
    pub controller: Option<String>,
    pub deleting: bool,
    /// For pods.
    pub pod: Option<PodFacts>,
}

impl Facts {
    fn of(kind: Kind, v: &Value) -> Self {
        Facts {
            controller: obj::controller_uid(v).map(str::to_string),
            deleting: obj::is_deleting(v),
            pod: (kind == Kind::Pod).then(|| PodFacts::of(v)),
        }
    }
}

impl Stored {
    pub fn new(kind: Kind, value: Value) -> Self {
        let facts = Facts::of(kind, &value);
        Stored { value, kind, facts }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The pod facts; for another kind, all false and zero.
    pub fn pod(&self) -> PodFacts {
        self.facts.pod.unwrap_or_default()
    }

    pub fn controller_uid(&self) -> Option<&str> {
        self.facts.controller.as_deref()
    }

    pub fn value(&self) -> &Value {
        &self.value
    }

    pub fn into_value(self) -> Value {
        self.value
    }

    /// Changes the object in place (only where it is not shared) and reads its facts again.
    pub fn edit<T>(&mut self, f: impl FnOnce(&mut Value) -> T) -> T {
        let out = f(&mut self.value);
        self.facts = Facts::of(self.kind, &self.value);
        out
    }
}

impl Deref for Stored {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.value
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn facts_follow_edits() {
        let mut p = Stored::new(
            Kind::Pod,
            json!({"metadata": {"name": "a", "ownerReferences": [{"controller": true, "uid": "rs1"}]},
                   "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}),
        );
        assert_eq!(p.controller_uid(), Some("rs1"));
        assert!(p.pod().active && p.pod().ready);
        p.edit(|v| v["metadata"]["deletionTimestamp"] = json!("2025-01-06T10:00:30Z"));
        assert!(p.facts().deleting);
        assert!(!p.pod().active, "a terminating pod is not active");
        let rs = Stored::new(Kind::ReplicaSet, json!({"metadata": {"name": "rs1"}}));
        assert_eq!(rs.facts().pod, None);
    }
}
