//! A stored object: the JSON the API serves, kept as its top-level fields, each shared
//! with the earlier versions that have the same one, plus the facts controllers look up
//! on every sync, read once when it is written.
//!
//! Stored objects are immutable and shared (`Arc<Stored>`) by the API, its watch log and
//! the informer caches. A write makes a [`Draft`] of the stored version, which copies
//! only the fields it changes: the kubelet's status write copies a pod's status, not its
//! spec, and a delete copies its metadata. The object as one JSON tree is built the first
//! time a reader asks for it ([`Stored::value`]); controllers read fields and facts and
//! never need it.
//!
//! `metadata.resourceVersion`, which every write changes, is kept beside the fields, not
//! in the metadata: a status write then shares the metadata with the version before it
//! instead of copying it. [`Stored::meta`], [`Draft::meta`] and the built object have it;
//! [`Stored::field`]`("metadata")` does not.

use std::borrow::Cow;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

mod draft;

/// The key kept beside the fields (see the module docs).
const RV: &str = "resourceVersion";
mod labels;

pub use draft::Draft;
pub use labels::LabelSets;

use super::controllers::pods::PodFacts;
use super::controllers::podstatus::Starting;
use super::defaults;
use super::kind::Kind;
use super::obj::{self, Meta};
use crate::sim::HashMap;

static NULL: Value = Value::Null;

/// Top-level fields in key order (the order serde_json's map keeps).
type Fields = Vec<(Key, Field)>;

/// A top-level field's name: the usual ones static, so that a draft copies no strings.
type Key = Cow<'static, str>;

const TOP_KEYS: [&str; 5] = ["apiVersion", "kind", "metadata", "spec", "status"];

fn top_key(name: &str) -> Option<&'static str> {
    TOP_KEYS.iter().find(|k| **k == name).copied()
}

fn key(name: &str) -> Key {
    top_key(name).map_or_else(|| Cow::Owned(name.to_string()), Cow::Borrowed)
}

/// [`key`] of a name already owned.
fn owned_key(name: String) -> Key {
    match top_key(&name) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(name),
    }
}

/// A top-level field's value.
#[derive(Clone)]
enum Field {
    Json(Arc<Value>),
    /// Made on first read from a template many objects share (see [`Filled`]).
    Filled(Arc<Filled>),
    /// A pod status the kubelet wrote, made JSON on first read (see
    /// [`crate::sim::controllers::podstatus`]).
    Starting(Arc<StartingField>),
    /// Metadata kept as its entries, made JSON on first read (see [`Entries`]).
    Meta(Arc<Entries>),
}

pub struct StartingField {
    status: Starting,
    value: OnceLock<Value>,
}

/// A pod spec as its ReplicaSet's template became once defaulted and admitted, shared by
/// every pod of the template, and the one value admission gives each pod its own: the
/// name of its service-account volume. The pod's spec is built from the two the first
/// time anyone reads it; the controllers and the kubelet read what all the pods share
/// ([`Stored::unfilled`]) and never need it. A pod is created ten times a second during a
/// rollout, and its spec is half its JSON.
pub struct Filled {
    template: Arc<Value>,
    volume: String,
    /// `spec.nodeName`, once the pod is bound (the binding subresource sets it per pod).
    node: Option<Value>,
    value: OnceLock<Value>,
}

/// An object's metadata kept as its entries in key order, each shared with the versions
/// and objects that hold the same one: the pods of a ReplicaSet share their labels, owner
/// reference and generateName, and a graceful delete adds two entries without copying
/// the rest. Built as one JSON object on first read; an edit of the metadata as JSON
/// ([`Draft::edit`]) makes it plain JSON. During a rollout of 1,000 pods ten pods are
/// created and ten deleted every second, and building and copying their metadata as
/// JSON was a fifth of the work.
pub struct Entries {
    entries: MetaEntries,
    value: OnceLock<Value>,
}

/// Metadata entries: keys of [`ENTRY_KEYS`] and their values.
pub type MetaEntries = Vec<(&'static str, Arc<Value>)>;

/// The metadata keys [`Entries`] holds: what a ReplicaSet's pods are created with and
/// what a delete sets. Setting any other key makes the metadata plain JSON.
const ENTRY_KEYS: [&str; 12] = [
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "name",
    "namespace",
    "ownerReferences",
    "uid",
];

/// `key` as one of [`ENTRY_KEYS`], if it is one.
pub fn entry_key(key: &str) -> Option<&'static str> {
    ENTRY_KEYS.iter().find(|k| **k == key).copied()
}

impl Entries {
    /// Metadata of these entries; `None` if a key is not one of [`ENTRY_KEYS`].
    pub fn new(mut entries: MetaEntries) -> Option<Self> {
        if !entries.iter().all(|(k, _)| ENTRY_KEYS.contains(k)) {
            return None;
        }
        entries.sort_unstable_by_key(|(k, _)| *k);
        entries.dedup_by_key(|(k, _)| *k);
        Some(Entries {
            entries,
            value: OnceLock::new(),
        })
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| &**v)
    }

    /// These entries with `key` set to `value`.
    fn with(&self, key: &'static str, value: Value) -> Self {
        let mut entries = Vec::with_capacity(self.entries.len() + 1);
        entries.extend(self.entries.iter().cloned());
        match entries.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => entries[i].1 = Arc::new(value),
            Err(i) => entries.insert(i, (key, Arc::new(value))),
        }
        Entries {
            entries,
            value: OnceLock::new(),
        }
    }

    /// These entries and `more` (keys of [`ENTRY_KEYS`] these do not have), in one pass.
    pub fn merged(&self, more: MetaEntries) -> Self {
        debug_assert!(
            more.iter()
                .all(|(k, _)| ENTRY_KEYS.contains(k) && self.get(k).is_none())
        );
        let mut entries = Vec::with_capacity(self.entries.len() + more.len());
        entries.extend(self.entries.iter().cloned());
        entries.extend(more);
        entries.sort_unstable_by_key(|(k, _)| *k);
        Entries {
            entries,
            value: OnceLock::new(),
        }
    }

    fn value(&self) -> &Value {
        self.value.get_or_init(|| self.build())
    }

    fn build(&self) -> Value {
        Value::Object(
            self.entries
                .iter()
                .map(|(k, v)| ((*k).to_string(), (**v).clone()))
                .collect(),
        )
    }
}

impl Field {
    fn json(v: Value) -> Self {
        Field::Json(Arc::new(v))
    }

    fn value(&self) -> &Value {
        match self {
            Field::Json(v) => v,
            Field::Filled(f) => f.value(),
            Field::Starting(s) => s.value.get_or_init(|| s.status.to_value()),
            Field::Meta(m) => m.value(),
        }
    }

    /// [`Field::value`] built for one reader and not kept (what is kept already is reused).
    fn to_value(&self) -> Value {
        match self {
            Field::Json(v) => (**v).clone(),
            Field::Filled(f) => f.value.get().cloned().unwrap_or_else(|| f.build()),
            Field::Starting(s) => s
                .value
                .get()
                .cloned()
                .unwrap_or_else(|| s.status.to_value()),
            Field::Meta(m) => m.value.get().cloned().unwrap_or_else(|| m.build()),
        }
    }

    fn unfilled(&self) -> &Value {
        match self {
            Field::Json(v) => v,
            Field::Filled(f) => &f.template,
            Field::Starting(_) | Field::Meta(_) => self.value(),
        }
    }

    /// The same allocation: equal without comparing.
    fn shares(&self, other: &Field) -> bool {
        match (self, other) {
            (Field::Json(a), Field::Json(b)) => Arc::ptr_eq(a, b),
            (Field::Filled(a), Field::Filled(b)) => Arc::ptr_eq(a, b),
            (Field::Starting(a), Field::Starting(b)) => Arc::ptr_eq(a, b),
            (Field::Meta(a), Field::Meta(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The value to change: a filled field becomes plain JSON, a shared one is copied.
    fn make_mut(&mut self) -> &mut Value {
        if !matches!(self, Field::Json(_)) {
            *self = Field::json(self.value().clone());
        }
        match self {
            Field::Json(v) => Arc::make_mut(v),
            // Replaced just above.
            Field::Filled(_) | Field::Starting(_) | Field::Meta(_) => {
                unreachable!("the field was made JSON")
            }
        }
    }

    fn into_value(self) -> Value {
        match self {
            Field::Json(v) => Arc::unwrap_or_clone(v),
            other => other.value().clone(),
        }
    }
}

/// Metadata read without building it.
impl Meta for Field {
    fn entry(&self, key: &str) -> Option<&Value> {
        match self {
            Field::Meta(m) => m.get(key),
            other => other.value().get(key),
        }
    }
}

/// An object without metadata reads as one with none of its entries.
impl Meta for Option<&Field> {
    fn entry(&self, key: &str) -> Option<&Value> {
        self.and_then(|f| f.entry(key))
    }
}

impl Filled {
    fn value(&self) -> &Value {
        self.value.get_or_init(|| self.build())
    }

    fn build(&self) -> Value {
        let mut spec = defaults::fill_pod_spec(&self.template, &self.volume);
        if let (Some(node), Some(o)) = (&self.node, spec.as_object_mut()) {
            o.insert("nodeName".to_string(), node.clone());
        }
        spec
    }
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value().fmt(f)
    }
}

pub struct Stored {
    kind: Kind,
    facts: Facts,
    shape: Shape,
    /// `metadata.resourceVersion`, if the object has one.
    rv: Option<Value>,
    /// The whole object, built on first read.
    whole: OnceLock<Value>,
}

enum Shape {
    Object(Fields),
    /// Not an object: what `remove` returns for an object that was not there.
    Other(Value),
}

/// What every controller asks of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    /// `metadata.name` and `metadata.uid` ("" without).
    pub name: Arc<str>,
    pub uid: Arc<str>,
    /// The uid of the controller ownerReference.
    pub controller: Option<Arc<str>>,
    pub deleting: bool,
    /// `metadata.labels` (Null without), shared with every object the API stored with
    /// the same labels (see [`LabelSets`]): equal pointers, equal labels.
    pub labels: Arc<Value>,
    /// For pods.
    pub pod: Option<PodFacts>,
}

impl Facts {
    fn of(kind: Kind, meta: &impl Meta, status: Option<&Field>, labels: Arc<Value>) -> Self {
        let text = |key| Arc::from(meta.entry(key).and_then(Value::as_str).unwrap_or(""));
        let deleting = obj::is_deleting_in(meta);
        Facts {
            name: text("name"),
            uid: text("uid"),
            labels,
            controller: obj::controller_uid_in(meta).map(Arc::from),
            deleting,
            pod: (kind == Kind::Pod).then(|| pod_facts(PodFacts::of_meta(meta), deleting, status)),
        }
    }

    /// The facts of a version whose metadata is `prior`'s: only the status is read.
    fn with_status(prior: &Facts, kind: Kind, meta: &impl Meta, status: Option<&Field>) -> Self {
        Facts {
            pod: match prior.pod {
                Some(p) => Some(pod_facts(p, prior.deleting, status)),
                None => (kind == Kind::Pod)
                    .then(|| pod_facts(PodFacts::of_meta(meta), prior.deleting, status)),
            },
            ..prior.clone()
        }
    }
}

/// `base` (what a pod's metadata says) with what its status says.
fn pod_facts(base: PodFacts, deleting: bool, status: Option<&Field>) -> PodFacts {
    match status {
        Some(Field::Starting(s)) => s.status.facts(base, deleting),
        other => base.with_status(deleting, other.map_or(&NULL, Field::value)),
    }
}

/// Where `key` is in `fields`, or where it would go.
fn search(fields: &Fields, key: &str) -> Result<usize, usize> {
    fields.binary_search_by(|(k, _)| (**k).cmp(key))
}

/// Where `key` is: a scan, as objects have a handful of top-level fields and most
/// differ from `key` in length, so few names are compared byte by byte.
fn find(fields: &Fields, key: &str) -> Option<usize> {
    fields.iter().position(|(k, _)| k == key)
}

impl Stored {
    /// An object with labels of its own (tests, and objects nobody compares).
    pub fn new(kind: Kind, value: Value) -> Self {
        if !value.is_object() {
            return Stored {
                kind,
                facts: Facts::of(kind, &NULL, None, Arc::new(Value::Null)),
                shape: Shape::Other(value),
                rv: None,
                whole: OnceLock::new(),
            };
        }
        let draft = Draft::from(value);
        let labels = Arc::new(labels_of(draft.meta_field()).clone());
        Self::build(kind, draft, labels)
    }

    /// An object whose labels are shared with others that have the same ones.
    pub fn interned(kind: Kind, value: Value, sets: &mut LabelSets) -> Self {
        Self::from_draft(kind, Draft::from(value), sets)
    }

    /// The version a write made.
    pub fn from_draft(kind: Kind, draft: Draft, sets: &mut LabelSets) -> Self {
        let labels = match draft.prior_facts() {
            Some(prior) => Arc::clone(&prior.labels),
            None => sets.intern(labels_of(draft.meta_field())),
        };
        Self::build(kind, draft, labels)
    }

    /// The version a write made, whose labels the caller interned (the same value as
    /// the draft's labels).
    pub fn with_labels(kind: Kind, draft: Draft, labels: Arc<Value>) -> Self {
        Self::build(kind, draft, labels)
    }

    fn build(kind: Kind, mut draft: Draft, labels: Arc<Value>) -> Self {
        // An edit of the metadata may have written the resourceVersion into it.
        draft.lift_rv();
        let meta = draft.meta_field();
        let status = find(&draft.fields, "status").map(|i| &draft.fields[i].1);
        let facts = match draft.prior_facts() {
            Some(prior) if Arc::ptr_eq(&prior.labels, &labels) => {
                Facts::with_status(prior, kind, &meta, status)
            }
            _ => Facts::of(kind, &meta, status, labels),
        };
        Stored {
            kind,
            facts,
            shape: Shape::Object(draft.fields),
            rv: draft.rv,
            whole: OnceLock::new(),
        }
    }

    /// A draft of the next version: every field shared until it is edited.
    pub fn draft(&self) -> Draft {
        match &self.shape {
            Shape::Object(fields) => Draft {
                fields: fields.clone(),
                rv: self.rv.clone(),
                prior: find(fields, "metadata").map(|i| (fields[i].1.clone(), self.facts.clone())),
            },
            Shape::Other(_) => Draft::default(),
        }
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

    /// A top-level field (`metadata`, `spec`, `status`), without building the object;
    /// `metadata` without its resourceVersion (see [`Stored::meta`]).
    pub fn field(&self, key: &str) -> Option<&Value> {
        match &self.shape {
            Shape::Object(fields) => find(fields, key).map(|i| fields[i].1.value()),
            Shape::Other(_) => None,
        }
    }

    /// A top-level field as stored: for a pod spec made from its ReplicaSet's template,
    /// that template, which has everything but the pod's service-account volume name (see
    /// [`Filled`]). For readers that want what all the pods of a template share, such as
    /// container names and images or the grace period, without building the pod's own.
    pub fn unfilled(&self, key: &str) -> Option<&Value> {
        match &self.shape {
            Shape::Object(fields) => find(fields, key).map(|i| fields[i].1.unfilled()),
            Shape::Other(_) => None,
        }
    }

    /// A pod's status as the kubelet keeps it typed, if it is so stored.
    pub fn starting(&self) -> Option<&Starting> {
        match &self.shape {
            Shape::Object(fields) => find(fields, "status").and_then(|i| match &fields[i].1 {
                Field::Starting(s) => Some(&s.status),
                _ => None,
            }),
            Shape::Other(_) => None,
        }
    }

    /// Whether the metadata is kept as entries (see [`Entries`]).
    pub fn meta_entries(&self) -> bool {
        match &self.shape {
            Shape::Object(fields) => {
                find(fields, "metadata").is_some_and(|i| matches!(fields[i].1, Field::Meta(_)))
            }
            Shape::Other(_) => false,
        }
    }

    /// A pod's `status.phase`, read without building a status the kubelet keeps typed.
    /// A pod's `spec.nodeName`, read without building its spec.
    pub fn pod_node(&self) -> Option<&str> {
        self.pod_node_value()
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
    }

    /// [`Stored::pod_node`] as the JSON value, for readers of fields.
    pub fn pod_node_value(&self) -> Option<&Value> {
        let Shape::Object(fields) = &self.shape else {
            return None;
        };
        match find(fields, "spec").map(|i| &fields[i].1) {
            Some(Field::Filled(f)) => f.node.as_ref(),
            Some(other) => other.value().get("nodeName"),
            None => None,
        }
    }

    pub fn pod_phase(&self) -> Option<&str> {
        match self.starting() {
            Some(s) => Some(s.phase()),
            None => self.field("status")?.get("phase")?.as_str(),
        }
    }

    /// A top-level field stored as JSON, as the shared allocation (a cache key that stays
    /// valid while the field is unchanged).
    pub fn field_shared(&self, key: &str) -> Option<&Arc<Value>> {
        match &self.shape {
            Shape::Object(fields) => find(fields, key).and_then(|i| match &fields[i].1 {
                Field::Json(v) => Some(v),
                _ => None,
            }),
            Shape::Other(_) => None,
        }
    }

    /// `metadata.<key>`.
    pub fn meta(&self, key: &str) -> Option<&Value> {
        if key == RV {
            return self.rv.as_ref();
        }
        match &self.shape {
            Shape::Object(fields) => find(fields, "metadata").and_then(|i| fields[i].1.entry(key)),
            Shape::Other(_) => None,
        }
    }

    pub fn name(&self) -> &str {
        &self.facts.name
    }

    pub fn uid(&self) -> &str {
        &self.facts.uid
    }

    /// [`Stored::value`] built for one reader and not kept: for a listing that reads each of
    /// many objects once (`kubectl get pods -o yaml`), so the objects do not all keep a copy.
    pub fn to_value(&self) -> Value {
        if let Some(v) = self.whole.get() {
            return v.clone();
        }
        match &self.shape {
            Shape::Other(v) => v.clone(),
            Shape::Object(fields) => self.assemble(fields, Field::to_value),
        }
    }

    /// The object as one JSON tree.
    pub fn value(&self) -> &Value {
        match &self.shape {
            Shape::Other(v) => v,
            Shape::Object(fields) => self
                .whole
                .get_or_init(|| self.assemble(fields, |f| f.value().clone())),
        }
    }

    /// The object built from its fields, each as `field` gives it, with its
    /// resourceVersion.
    fn assemble(&self, fields: &Fields, field: impl Fn(&Field) -> Value) -> Value {
        let mut v = Value::Object(
            fields
                .iter()
                .map(|(k, f)| (k.to_string(), field(f)))
                .collect::<Map<_, _>>(),
        );
        if let Some(rv) = &self.rv {
            obj::set(&mut v, &["metadata", RV], rv.clone());
        }
        v
    }

    pub fn into_value(self) -> Value {
        match self.shape {
            Shape::Other(v) => v,
            Shape::Object(fields) => match self.whole.into_inner() {
                Some(v) => v,
                None => Draft {
                    fields,
                    rv: self.rv,
                    prior: None,
                }
                .into_value(),
            },
        }
    }
}

impl Clone for Stored {
    /// Shares the fields; the built object is not copied.
    fn clone(&self) -> Self {
        Stored {
            kind: self.kind,
            facts: self.facts.clone(),
            shape: match &self.shape {
                Shape::Object(f) => Shape::Object(f.clone()),
                Shape::Other(v) => Shape::Other(v.clone()),
            },
            rv: self.rv.clone(),
            whole: OnceLock::new(),
        }
    }
}

impl PartialEq for Stored {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.value() == other.value()
    }
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored")
            .field("kind", &self.kind)
            .field("value", self.value())
            .finish()
    }
}

/// Reading a stored object as JSON builds it once (see [`Stored::value`]); code that runs
/// for every pod on every sync reads [`Stored::field`] and the facts instead.
impl Deref for Stored {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.value()
    }
}

fn labels_of(meta: Option<&Field>) -> &Value {
    meta.and_then(|m| m.entry("labels")).unwrap_or(&NULL)
}

#[cfg(test)]
mod tests;
