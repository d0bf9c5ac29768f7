//! The kinds a CustomResourceDefinition adds: their names, interned so that a [`Kind`]
//! stays a small `Copy` value that hands out `&'static str` names like the built-in ones.
//!
//! A custom kind is identified, as the API server identifies it, by its group and plural
//! (`webapps.example.com`, the CRD's name); both are immutable. Its other names come from
//! the CRD when discovery resolved it: the kind and scope cannot change once the CRD is
//! Established, the served version and short names can, and a fresh resolution carries
//! the new ones while comparing equal to the old.
//!
//! [`Kind`]: super::Kind

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::{PoisonError, RwLock};

/// A custom kind's names, as a CRD declares them once defaulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    pub group: String,
    /// The version requests are served at (the storage version in the demo).
    pub version: String,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub namespaced: bool,
}

/// One interned set of names and the strings derived from them.
#[derive(Debug)]
pub struct Interned {
    pub names: Names,
    /// `webapps.example.com`
    pub group_resource: String,
    /// `WebApp.example.com`
    pub group_kind: String,
    /// `webapp.example.com`
    pub kind_group: String,
    /// `example.com/v1`
    pub api_version: String,
}

/// A kind a CustomResourceDefinition serves: an index into the interned names, so that
/// a [`super::Kind`] stays four bytes (it is in every watch event and informer delta).
#[derive(Clone, Copy)]
pub struct CustomKind(u16);

/// Every set of names resolved in this process. Entries are never freed: a `Kind` is
/// `Copy` and may be held anywhere. There is one per distinct set of names (a CRD's
/// names and the version it serves first) a process sees: a few per CRD, each
/// interned when its CRD is stored, and a cluster holds at most [`MAX_DEFINITIONS`] CRDs.
static INTERNED: RwLock<Vec<&'static Interned>> = RwLock::new(Vec::new());

/// How many CustomResourceDefinitions the demo's cluster holds.
pub const MAX_DEFINITIONS: usize = 16;

impl CustomKind {
    /// The kind these names resolve to, interned on first use; none once a process has
    /// interned 65,535 sets of names (the kind is then not served).
    pub fn intern(names: Names) -> Option<CustomKind> {
        let mut table = INTERNED.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = table.iter().position(|i| i.names == names) {
            return u16::try_from(at).ok().map(CustomKind);
        }
        let at = u16::try_from(table.len()).ok()?;
        let interned: &'static Interned = Box::leak(Box::new(Interned {
            group_resource: format!("{}.{}", names.plural, names.group),
            group_kind: format!("{}.{}", names.kind, names.group),
            kind_group: format!("{}.{}", names.kind.to_ascii_lowercase(), names.group),
            api_version: format!("{}/{}", names.group, names.version),
            names,
        }));
        table.push(interned);
        Some(CustomKind(at))
    }

    pub fn names(self) -> &'static Names {
        &self.interned().names
    }

    pub fn interned(self) -> &'static Interned {
        let table = INTERNED.read().unwrap_or_else(PoisonError::into_inner);
        table[self.0 as usize]
    }

    /// The CRD's name: `<plural>.<group>`.
    pub fn crd_name(self) -> &'static str {
        &self.interned().group_resource
    }

    /// Whether `word` names this kind as kubectl resolves a resource: plural, singular,
    /// a short name or the kind, alone or qualified by the group (`webapps.example.com`,
    /// `wa.example.com`, which client-go's shortcut expander accepts) or by version and
    /// group (`webapps.v1.example.com`; the demo reads at the preferred version whatever
    /// version is named).
    pub fn matches(self, word: &str) -> bool {
        let n = self.names();
        let lower = word.to_ascii_lowercase();
        let qualified = lower.strip_suffix(&format!(".{}", n.group));
        let base = match qualified {
            Some(q) => match q.rsplit_once('.') {
                Some((r, v))
                    if v.starts_with('v') && v[1..].starts_with(|c: char| c.is_ascii_digit()) =>
                {
                    r
                }
                _ => q,
            },
            None => &lower,
        };
        base == n.plural
            || base == n.singular
            || base == n.kind.to_ascii_lowercase()
            || n.short_names.iter().any(|s| *s == base)
    }
}

impl PartialEq for CustomKind {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.names(), other.names());
        self.0 == other.0 || (a.group == b.group && a.plural == b.plural)
    }
}

impl Eq for CustomKind {}

impl Hash for CustomKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.names();
        n.group.hash(state);
        n.plural.hash(state);
    }
}

impl PartialOrd for CustomKind {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// By group then plural: the same order in every run, whatever was interned first.
impl Ord for CustomKind {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.names(), other.names());
        (&a.group, &a.plural).cmp(&(&b.group, &b.plural))
    }
}

impl std::fmt::Debug for CustomKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Custom({})", self.interned().group_resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(version: &str, short: &[&str]) -> Names {
        Names {
            group: "example.com".into(),
            version: version.into(),
            kind: "WebApp".into(),
            plural: "webapps".into(),
            singular: "webapp".into(),
            short_names: short.iter().map(|s| s.to_string()).collect(),
            namespaced: true,
        }
    }

    #[test]
    fn identity_is_group_and_plural_and_names_are_interned_once() {
        let a = CustomKind::intern(names("v1", &["wa"])).unwrap();
        let b = CustomKind::intern(names("v1", &["wa"])).unwrap();
        assert!(std::ptr::eq(a.interned(), b.interned()));
        assert_eq!(std::mem::size_of::<crate::sim::kind::Kind>(), 4);
        let v2 = CustomKind::intern(names("v2", &[])).unwrap();
        assert_eq!(a, v2, "a new served version is the same kind");
        assert_eq!(v2.interned().api_version, "example.com/v2");
        assert_eq!(a.crd_name(), "webapps.example.com");
        assert_eq!(a.interned().group_kind, "WebApp.example.com");
        assert_eq!(a.interned().kind_group, "webapp.example.com");
    }

    #[test]
    fn resolves_every_spelling_kubectl_accepts() {
        let k = CustomKind::intern(names("v1", &["wa"])).unwrap();
        for w in [
            "webapps",
            "webapp",
            "WebApp",
            "wa",
            "webapps.example.com",
            "webapp.example.com",
            "webapps.v1.example.com",
            "webapp.v2.example.com",
            "wa.example.com",
        ] {
            assert!(k.matches(w), "{w}");
        }
        for w in [
            "web",
            "webapps.example.org",
            "webapps.v1",
            "webapps.example.com/v1",
        ] {
            assert!(!k.matches(w), "{w}");
        }
    }
}
