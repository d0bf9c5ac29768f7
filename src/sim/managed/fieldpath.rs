//! Sets of field paths and their FieldsV1 JSON form: path elements (`f:` fields, `k:` keyed
//! list items), [`FieldSet`] with union, difference and intersection, and parsing and
//! rendering FieldsV1. Mirrors structured-merge-diff's `fieldpath` package (element.go,
//! path.go, set.go, serialize.go, serialize-pe.go).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Value};
use thiserror::Error;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathElement {
    /// An object field: `f:name`.
    Field(String),
    /// A keyed list item: `k:{"name":"app"}`. Key fields sorted by name, each value as JSON text.
    Key(Vec<(String, String)>),
}

impl PathElement {
    fn fields_v1_key(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(pairs) => format!("k:{}", key_json(pairs)),
        }
    }
}

impl fmt::Display for PathElement {
    /// structured-merge-diff's notation: `.image`, `[name="app"]`,
    /// `[containerPort=80,protocol="TCP"]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(pairs) => {
                let inner: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, "[{}]", inner.join(","))
            }
        }
    }
}

fn key_json(pairs: &[(String, String)]) -> String {
    let inner: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// A field path from the object root.
pub type Path = Vec<PathElement>;

/// A path as conflict messages print it: `.spec.template.spec.containers[name="app"].image`.
pub fn path_string(path: &[PathElement]) -> String {
    path.iter().map(ToString::to_string).collect()
}

/// Why a FieldsV1 document or a managedFields entry could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FieldsError {
    #[error("fieldsV1 at {path:?}: expected an object")]
    NotAnObject { path: String },
    #[error("fieldsV1 at {path:?}: unsupported key {key:?}")]
    UnsupportedKey { path: String, key: String },
    #[error("fieldsV1 at {path:?}: bad list key {key:?}")]
    BadListKey { path: String, key: String },
    #[error("managedFields entry: missing or invalid {0:?}")]
    BadEntry(&'static str),
}

/// A set of owned field paths.
#[derive(Debug, Clone, Default)]
pub struct FieldSet {
    paths: BTreeSet<Path>,
    /// The FieldsV1 form, rendered on first use and dropped when the paths change: a
    /// Deployment's status writes render every entry of its managedFields, and most
    /// entries are what they were the write before.
    fields_v1: OnceLock<Value>,
}

impl PartialEq for FieldSet {
    fn eq(&self, other: &Self) -> bool {
        self.paths == other.paths
    }
}

impl Eq for FieldSet {}

impl FieldSet {
    pub fn new() -> Self {
        Self::default()
    }

    /// A set holding `paths`, as the walks over objects collect them (see `typed`).
    pub(super) fn from_paths(paths: BTreeSet<Path>) -> Self {
        FieldSet {
            paths,
            fields_v1: OnceLock::new(),
        }
    }

    /// Parses a FieldsV1 document (`f:` fields, `k:` list keys, `"."` members). `v:` and `i:`
    /// elements (sets and positional lists) do not occur in a Deployment and are refused.
    pub fn from_fields_v1(fields: &Value) -> Result<Self, FieldsError> {
        let mut set = FieldSet::new();
        let mut path = Vec::new();
        parse_fields_v1(fields, &mut path, &mut set.paths)?;
        Ok(set)
    }

    /// The FieldsV1 form: nested objects keyed `f:<field>` / `k:<key json>`, leaves `{}`,
    /// `".": {}` where a node with children is itself owned (a keyed list item).
    pub fn to_fields_v1(&self) -> Value {
        self.fields_v1
            .get_or_init(|| self.render_fields_v1())
            .clone()
    }

    fn render_fields_v1(&self) -> Value {
        #[derive(Default)]
        struct Node {
            member: bool,
            children: BTreeMap<PathElement, Node>,
        }
        fn render(node: &Node) -> Value {
            let mut map = Map::new();
            if node.member && !node.children.is_empty() {
                map.insert(".".to_string(), Value::Object(Map::new()));
            }
            for (element, child) in &node.children {
                map.insert(element.fields_v1_key(), render(child));
            }
            Value::Object(map)
        }
        let mut root = Node::default();
        for path in &self.paths {
            let mut node = &mut root;
            for element in path {
                node = node.children.entry(element.clone()).or_default();
            }
            node.member = true;
        }
        render(&root)
    }

    pub fn insert(&mut self, path: Path) {
        if self.paths.insert(path) {
            self.fields_v1.take();
        }
    }

    pub fn contains(&self, path: &[PathElement]) -> bool {
        self.paths.contains(path)
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Path> {
        self.paths.iter()
    }

    pub fn union(&self, other: &FieldSet) -> FieldSet {
        FieldSet {
            paths: self.paths.union(&other.paths).cloned().collect(),
            fields_v1: OnceLock::new(),
        }
    }

    pub fn difference(&self, other: &FieldSet) -> FieldSet {
        FieldSet {
            paths: self.paths.difference(&other.paths).cloned().collect(),
            fields_v1: OnceLock::new(),
        }
    }

    /// Adds `other`'s paths.
    pub fn extend(&mut self, other: &FieldSet) {
        for p in &other.paths {
            if !self.paths.contains(p) {
                self.insert(p.clone());
            }
        }
    }

    /// Takes out `other`'s paths.
    pub fn remove_all(&mut self, other: &FieldSet) {
        let mut changed = false;
        for p in &other.paths {
            changed |= self.paths.remove(p);
        }
        if changed {
            self.fields_v1.take();
        }
    }

    pub fn intersection(&self, other: &FieldSet) -> FieldSet {
        FieldSet {
            paths: self.paths.intersection(&other.paths).cloned().collect(),
            fields_v1: OnceLock::new(),
        }
    }

    /// Whether some member lies strictly below `path`.
    pub(super) fn has_descendant(&self, path: &[PathElement]) -> bool {
        self.paths
            .range(path.to_vec()..)
            .skip_while(|p| p.as_slice() == path)
            .take_while(|p| p.starts_with(path))
            .next()
            .is_some()
    }
}

impl FromIterator<Path> for FieldSet {
    fn from_iter<I: IntoIterator<Item = Path>>(iter: I) -> Self {
        FieldSet {
            paths: iter.into_iter().collect(),
            fields_v1: OnceLock::new(),
        }
    }
}

fn parse_fields_v1(
    node: &Value,
    path: &mut Path,
    out: &mut BTreeSet<Path>,
) -> Result<(), FieldsError> {
    let Value::Object(map) = node else {
        return Err(FieldsError::NotAnObject {
            path: path_string(path),
        });
    };
    if map.is_empty() && !path.is_empty() {
        out.insert(path.clone());
    }
    for (key, child) in map {
        if key == "." {
            if !path.is_empty() {
                out.insert(path.clone());
            }
            continue;
        }
        let element = if let Some(name) = key.strip_prefix("f:") {
            PathElement::Field(name.to_string())
        } else if let Some(json) = key.strip_prefix("k:") {
            let bad = || FieldsError::BadListKey {
                path: path_string(path),
                key: key.clone(),
            };
            let parsed: Value = serde_json::from_str(json).map_err(|_| bad())?;
            let object = parsed
                .as_object()
                .filter(|o| !o.is_empty())
                .ok_or_else(bad)?;
            let mut pairs: Vec<(String, String)> = object
                .iter()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .collect();
            pairs.sort();
            PathElement::Key(pairs)
        } else {
            return Err(FieldsError::UnsupportedKey {
                path: path_string(path),
                key: key.clone(),
            });
        };
        path.push(element);
        parse_fields_v1(child, path, out)?;
        path.pop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_rendered_fields_follow_every_change() {
        let field = |n: &str| PathElement::Field(n.to_string());
        let mut set = FieldSet::from_value(&json!({"spec": {"replicas": 1}}));
        assert_eq!(set.to_fields_v1(), json!({"f:spec": {"f:replicas": {}}}));
        set.insert(vec![field("spec"), field("paused")]);
        assert_eq!(
            set.to_fields_v1(),
            json!({"f:spec": {"f:paused": {}, "f:replicas": {}}})
        );
        let replicas = FieldSet::from_iter([vec![field("spec"), field("replicas")]]);
        set.remove_all(&replicas);
        assert_eq!(set.to_fields_v1(), json!({"f:spec": {"f:paused": {}}}));
        set.extend(&replicas);
        assert_eq!(set, FieldSet::from_fields_v1(&set.to_fields_v1()).unwrap());
        assert_eq!(
            set.to_fields_v1(),
            json!({"f:spec": {"f:paused": {}, "f:replicas": {}}})
        );
    }

    #[test]
    fn fields_v1_parse_errors() {
        assert!(matches!(
            FieldSet::from_fields_v1(&json!({"f:spec": 1})),
            Err(FieldsError::NotAnObject { .. })
        ));
        assert!(matches!(
            FieldSet::from_fields_v1(&json!({"f:spec": {"i:0": {}}})),
            Err(FieldsError::UnsupportedKey { .. })
        ));
        assert!(matches!(
            FieldSet::from_fields_v1(&json!({"k:nope": {}})),
            Err(FieldsError::BadListKey { .. })
        ));
        // Key JSON in any order parses to the sorted key.
        let a = FieldSet::from_fields_v1(
            &json!({"f:ports": {"k:{\"protocol\":\"TCP\",\"containerPort\":80}": {}}}),
        );
        let b = FieldSet::from_fields_v1(
            &json!({"f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {}}}),
        );
        assert_eq!(a, b);
    }
}
