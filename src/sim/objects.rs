//! The API server's objects of one kind: found by name through a hash map, which every
//! write and most reads do, and listed in name order, as the API lists them.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::HashMap;
use super::stored::Stored;

/// Keyed by the stored objects' own names (see [`Stored::facts`]), not copies.
#[derive(Clone, Default)]
pub struct Objects {
    by_name: HashMap<Arc<str>, Arc<Stored>>,
    /// The same names, in order. A new version of an object changes only the map.
    names: BTreeSet<Arc<str>>,
}

impl Objects {
    pub fn get(&self, name: &str) -> Option<&Arc<Stored>> {
        self.by_name.get(name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Arc<Stored>> {
        self.by_name.get_mut(name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Stores `object` under `name`, replacing the version there.
    pub fn insert(&mut self, name: &str, object: Arc<Stored>) {
        match self.by_name.get_mut(name) {
            Some(slot) => *slot = object,
            None => {
                let own = &object.facts().name;
                let name: Arc<str> = if **own == *name {
                    Arc::clone(own)
                } else {
                    Arc::from(name)
                };
                self.names.insert(Arc::clone(&name));
                self.by_name.insert(name, object);
            }
        }
    }

    pub fn remove(&mut self, name: &str) -> Option<Arc<Stored>> {
        let object = self.by_name.remove(name)?;
        self.names.remove(name);
        Some(object)
    }

    /// The objects in name order.
    pub fn values(&self) -> impl Iterator<Item = &Arc<Stored>> {
        self.names.iter().filter_map(|n| self.by_name.get(n))
    }

    /// Keeps only the objects `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&Stored) -> bool) {
        let by_name = &mut self.by_name;
        self.names.retain(|n| {
            let kept = by_name.get(n).is_some_and(|o| keep(o));
            if !kept {
                by_name.remove(n);
            }
            kept
        });
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::sim::kind::Kind;

    fn pod(name: &str, rv: &str) -> Arc<Stored> {
        Arc::new(Stored::new(
            Kind::Pod,
            json!({"metadata": {"name": name, "resourceVersion": rv}}),
        ))
    }

    #[test]
    fn listed_in_name_order_found_by_name() {
        let mut o = Objects::default();
        for n in ["web-c", "web-a", "web-b"] {
            o.insert(n, pod(n, "1"));
        }
        o.insert("web-a", pod("web-a", "2"));
        let names: Vec<&str> = o.values().map(|p| p.name()).collect();
        assert_eq!(names, ["web-a", "web-b", "web-c"]);
        assert_eq!(o.len(), 3);
        assert_eq!(o.get("web-a").unwrap()["metadata"]["resourceVersion"], "2");
        assert!(o.remove("web-b").is_some() && !o.contains("web-b"));
        o.retain(|p| p.name() != "web-c");
        let names: Vec<&str> = o.values().map(|p| p.name()).collect();
        assert_eq!(names, ["web-a"]);
        assert!(o.remove("web-a").is_some() && o.is_empty());
    }
}
