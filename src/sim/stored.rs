//! A stored object: the JSON the API serves, with the facts controllers look up on every
//! sync read out of it once, when it is written. Stored objects are immutable and shared
//! (`Arc<Stored>`) by the API, its watch log and the informer caches, so a ReplicaSet sync
//! over a thousand pods reads a thousand small structs instead of walking a thousand JSON
//! trees.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

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
    /// `metadata.labels` (Null without), shared with every object the API stored with
    /// the same labels (see [`LabelSets`]): equal pointers, equal labels.
    pub labels: Arc<Value>,
    /// For pods.
    pub pod: Option<PodFacts>,
}

impl Facts {
    fn of(kind: Kind, v: &Value, labels: Arc<Value>) -> Self {
        Facts {
            labels,
            controller: obj::controller_uid(v).map(str::to_string),
            deleting: obj::is_deleting(v),
            pod: (kind == Kind::Pod).then(|| PodFacts::of(v)),
        }
    }
}

impl Stored {
    /// An object with labels of its own (tests, and objects nobody compares).
    pub fn new(kind: Kind, value: Value) -> Self {
        let labels = Arc::new(labels_of(&value).clone());
        let facts = Facts::of(kind, &value, labels);
        Stored { value, kind, facts }
    }

    /// An object whose labels are shared with others that have the same ones.
    pub fn interned(kind: Kind, value: Value, sets: &mut LabelSets) -> Self {
        let labels = sets.intern(labels_of(&value));
        let facts = Facts::of(kind, &value, labels);
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
    pub fn edit<T>(&mut self, sets: &mut LabelSets, f: impl FnOnce(&mut Value) -> T) -> T {
        let out = f(&mut self.value);
        let labels = sets.intern(labels_of(&self.value));
        self.facts = Facts::of(self.kind, &self.value, labels);
        out
    }
}

fn labels_of(v: &Value) -> &Value {
    obj::path(v, &["metadata", "labels"]).unwrap_or(&Value::Null)
}

/// The label sets of stored objects, one shared copy of each: a thousand pods of one
/// ReplicaSet hold one labels map between them, so a sync checks its selector once.
#[derive(Default)]
pub struct LabelSets {
    by_hash: HashMap<u64, Vec<Arc<Value>>>,
    len: usize,
    /// Sets held only here are dropped once the count doubles past this.
    swept_at: usize,
}

impl LabelSets {
    pub fn intern(&mut self, labels: &Value) -> Arc<Value> {
        let mut h = DefaultHasher::new();
        if let Some(m) = labels.as_object() {
            for (k, v) in m {
                k.hash(&mut h);
                match v.as_str() {
                    Some(s) => s.hash(&mut h),
                    None => v.to_string().hash(&mut h),
                }
            }
        }
        let hash = h.finish();
        let bucket = self.by_hash.entry(hash).or_default();
        if let Some(same) = bucket.iter().find(|l| ***l == *labels) {
            return Arc::clone(same);
        }
        let new = Arc::new(labels.clone());
        bucket.push(Arc::clone(&new));
        self.len += 1;
        if self.len > 2 * self.swept_at + 64 {
            self.sweep();
        }
        new
    }

    fn sweep(&mut self) {
        for bucket in self.by_hash.values_mut() {
            bucket.retain(|l| Arc::strong_count(l) > 1);
        }
        self.by_hash.retain(|_, b| !b.is_empty());
        self.len = self.by_hash.values().map(Vec::len).sum();
        self.swept_at = self.len;
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
        p.edit(&mut LabelSets::default(), |v| {
            v["metadata"]["deletionTimestamp"] = json!("2025-01-06T10:00:30Z")
        });
        assert!(p.facts().deleting);
        assert!(!p.pod().active, "a terminating pod is not active");
        let rs = Stored::new(Kind::ReplicaSet, json!({"metadata": {"name": "rs1"}}));
        assert_eq!(rs.facts().pod, None);
    }

    #[test]
    fn equal_labels_share_one_copy() {
        let mut sets = LabelSets::default();
        let pod = |app: &str| json!({"metadata": {"labels": {"app": app, "tier": "front"}}});
        let a = Stored::interned(Kind::Pod, pod("web"), &mut sets);
        let b = Stored::interned(Kind::Pod, pod("web"), &mut sets);
        let c = Stored::interned(Kind::Pod, pod("db"), &mut sets);
        assert!(Arc::ptr_eq(&a.facts().labels, &b.facts().labels));
        assert!(!Arc::ptr_eq(&a.facts().labels, &c.facts().labels));
        assert_eq!(*c.facts().labels, json!({"app": "db", "tier": "front"}));
        // Sets nobody holds any more are dropped as others come.
        drop((a, b, c));
        for i in 0..200 {
            Stored::interned(Kind::Pod, pod(&i.to_string()), &mut sets);
        }
        assert!(sets.len < 200, "{} sets kept", sets.len);
    }
}
