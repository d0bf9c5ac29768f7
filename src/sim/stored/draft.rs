//! A write in the making: the stored version's fields, copied only where the write
//! changes them (see the module above).

use super::*;

/// A new version of an object being written: its fields, shared with the version it
/// was made from until [`Draft::edit`] copies one.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    pub(super) fields: Fields,
    pub(super) rv: Option<Value>,
    /// The metadata and facts of the version this draft was made from: while the draft
    /// shares that metadata, its facts are read again only from the status.
    pub(super) prior: Option<(Field, Facts)>,
}

impl Draft {
    /// A top-level field; `metadata` without its resourceVersion (see [`Draft::meta`]).
    pub fn get(&self, key: &str) -> Option<&Value> {
        find(&self.fields, key).map(|i| self.fields[i].1.value())
    }

    /// The field to change, copied first if an earlier version shares it; a missing
    /// field is added as null.
    pub fn edit(&mut self, key: &str) -> &mut Value {
        if key == "metadata" {
            // Edited in place from here on: the facts must be read again.
            self.prior = None;
        }
        let i = match search(&self.fields, key) {
            Ok(i) => i,
            Err(i) => {
                self.fields
                    .insert(i, (self::key(key), Field::json(Value::Null)));
                i
            }
        };
        self.fields[i].1.make_mut()
    }

    /// Sets a top-level field. The old value is replaced, not copied first (as
    /// [`Draft::edit`] would copy a field shared with an earlier version).
    pub fn set(&mut self, key: &str, value: Value) {
        self.put(key, Field::json(value));
    }

    /// Sets a pod's `spec` to `template` (defaulted and admitted with an empty
    /// service-account volume name) with `volume` as that name; see [`Filled`].
    pub fn set_pod_spec(&mut self, template: Arc<Value>, volume: String) {
        let filled = Filled {
            template,
            volume,
            node: None,
            value: OnceLock::new(),
        };
        self.put("spec", Field::Filled(Arc::new(filled)));
    }

    /// A new pod made from a ReplicaSet's template: `apiVersion`, `kind` and `status`
    /// shared with the template's other pods, its metadata as entries (see [`Entries`])
    /// and its spec `template` with `volume` (see [`Filled`]).
    pub fn templated_pod(
        shared: [&Arc<Value>; 3],
        meta: Entries,
        template: &Arc<Value>,
        volume: String,
    ) -> Self {
        let [api_version, kind, status] = shared;
        let spec = Filled {
            template: Arc::clone(template),
            volume,
            node: None,
            value: OnceLock::new(),
        };
        Draft {
            fields: vec![
                (
                    Cow::Borrowed("apiVersion"),
                    Field::Json(Arc::clone(api_version)),
                ),
                (Cow::Borrowed("kind"), Field::Json(Arc::clone(kind))),
                (Cow::Borrowed("metadata"), Field::Meta(Arc::new(meta))),
                (Cow::Borrowed("spec"), Field::Filled(Arc::new(spec))),
                (Cow::Borrowed("status"), Field::Json(Arc::clone(status))),
            ],
            rv: None,
            prior: None,
        }
    }

    /// Sets a pod's `spec.nodeName` (the binding subresource), keeping a spec shared with
    /// its template shared.
    pub fn set_pod_node(&mut self, node: &str) {
        if let Ok(i) = search(&self.fields, "spec")
            && let Field::Filled(f) = &self.fields[i].1
        {
            let bound = Filled {
                template: Arc::clone(&f.template),
                volume: f.volume.clone(),
                node: Some(Value::from(node)),
                value: OnceLock::new(),
            };
            self.fields[i].1 = Field::Filled(Arc::new(bound));
            return;
        }
        if let Some(spec) = self.edit("spec").as_object_mut() {
            spec.insert("nodeName".to_string(), Value::from(node));
        }
    }

    /// Sets a pod's `status` to one the kubelet keeps typed.
    pub fn set_pod_status(&mut self, status: Starting) {
        let field = StartingField {
            status,
            value: OnceLock::new(),
        };
        self.put("status", Field::Starting(Arc::new(field)));
    }

    fn put(&mut self, key: &str, value: Field) {
        match search(&self.fields, key) {
            Ok(i) => self.fields[i].1 = value,
            Err(i) => self.fields.insert(i, (self::key(key), value)),
        }
    }

    /// Sets `metadata.<key>`.
    pub fn set_meta(&mut self, key: &str, value: Value) {
        if key == RV {
            self.rv = Some(value);
            return;
        }
        // The facts read none of these but `deleting`: a graceful delete keeps the rest.
        let keep = matches!(
            key,
            "deletionTimestamp" | "deletionGracePeriodSeconds" | "generation"
        )
        .then(|| self.prior_facts().cloned())
        .flatten();
        if let (Some(i), Some(key)) = (find(&self.fields, "metadata"), entry_key(key))
            && let Field::Meta(m) = &self.fields[i].1
        {
            // Kept as entries: the others stay shared.
            let entries = m.with(key, value);
            self.fields[i].1 = Field::Meta(Arc::new(entries));
        } else {
            obj::set(self.edit("metadata"), &[key], value);
        }
        if let Some(mut facts) = keep
            && let Some(meta) = self.meta_field()
        {
            facts.deleting = obj::is_deleting_in(meta);
            self.prior = Some((meta.clone(), facts));
        }
    }

    pub fn meta(&self, key: &str) -> Option<&Value> {
        if key == RV {
            return self.rv.as_ref();
        }
        self.meta_field()?.entry(key)
    }

    pub(super) fn meta_field(&self) -> Option<&Field> {
        find(&self.fields, "metadata").map(|i| &self.fields[i].1)
    }

    /// Whether this draft would store the same object as `stored`, apart from the
    /// resourceVersion a write sets: fields the two share are equal without being
    /// compared.
    pub fn same_as(&self, stored: &Stored) -> bool {
        let Shape::Object(fields) = &stored.shape else {
            return false;
        };
        self.fields.len() == fields.len()
            && self
                .fields
                .iter()
                .zip(fields)
                .all(|((k, a), (l, b))| k == l && (a.shares(b) || a.value() == b.value()))
    }

    pub fn into_value(self) -> Value {
        let mut v = Value::Object(
            self.fields
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_value()))
                .collect(),
        );
        if let Some(rv) = self.rv {
            obj::set(&mut v, &["metadata", RV], rv);
        }
        v
    }

    /// The facts of the version this draft was made from, while it shares its metadata.
    pub(super) fn prior_facts(&self) -> Option<&Facts> {
        let (meta, facts) = self.prior.as_ref()?;
        self.meta_field()?.shares(meta).then_some(facts)
    }

    /// Takes a resourceVersion that was written into the metadata out of it.
    pub(super) fn lift_rv(&mut self) {
        if let Some(i) = find(&self.fields, "metadata")
            && self.fields[i].1.entry(RV).is_some()
            && let Some(m) = self.fields[i].1.make_mut().as_object_mut()
        {
            self.rv = m.remove(RV);
        }
    }
}

impl From<Value> for Draft {
    /// Splits an object into its fields; anything else is an empty object.
    fn from(v: Value) -> Self {
        let mut rv = None;
        let fields = match v {
            Value::Object(m) => m
                .into_iter()
                .map(|(k, mut v)| {
                    if k == "metadata"
                        && let Some(meta) = v.as_object_mut()
                    {
                        rv = meta.remove(RV);
                    }
                    (owned_key(k), Field::json(v))
                })
                .collect(),
            _ => Vec::new(),
        };
        Draft {
            fields,
            rv,
            prior: None,
        }
    }
}
