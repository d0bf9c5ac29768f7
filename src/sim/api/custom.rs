//! Serving the kinds CustomResourceDefinitions add (apiextensions-apiserver
//! `customresource_handler.go` and `pkg/registry/customresource`): which CRDs are
//! served, resolving a word kubectl typed to one of their kinds, and what the handler
//! does to a custom object on every write: the apiVersion and kind checks, conversion to
//! the storage version (strategy None: only apiVersion changes), pruning, defaulting and
//! validation against the schema with its CEL rules.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{ApiError, ApiServer, Reason};
use crate::sim::apiextensions::schema::{self, Schema};
use crate::sim::apiextensions::{Definition, validate};
use crate::sim::kind::{CustomKind, Kind};
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::stored::Stored;

/// What a request body is checked against: a built-in kind's Go type, or a custom
/// kind's structural schema at the version the request names.
pub enum Fields {
    Builtin,
    Custom {
        schema: Arc<Schema>,
        version: String,
    },
}

impl ApiServer {
    /// The definition serving `kind`, if it is a custom kind whose CRD exists.
    pub fn definition(&self, kind: Kind) -> Option<&Arc<Definition>> {
        match kind {
            Kind::Custom(c) => self.definitions.get(c.crd_name()),
            _ => None,
        }
    }

    /// Every CRD's definition, by CRD name.
    pub fn definitions(&self) -> impl Iterator<Item = &Arc<Definition>> {
        self.definitions.values()
    }

    /// The kind a manifest's `apiVersion` and `kind` name among served custom kinds.
    pub fn custom_kind_of(&self, api_version: &str, kind: &str) -> Option<CustomKind> {
        let (group, version) = api_version.split_once('/')?;
        self.definitions
            .values()
            .filter(|d| d.established && d.group == group && d.kind == kind)
            .find(|d| d.version(version).is_some_and(|v| v.served))
            .and_then(|d| d.kind())
    }

    /// The custom kind `kind` of `group` at whichever version is served.
    pub fn custom_kind_named(&self, group: &str, kind: &str) -> Option<CustomKind> {
        self.definitions
            .values()
            .filter(|d| d.established && d.group == group && d.kind == kind)
            .find_map(|d| d.kind())
    }

    /// Keeps the served definition of CRD `name` in step with what is stored.
    pub(super) fn refresh_definition(&mut self, name: &str) {
        let def = self
            .get(Kind::CustomResourceDefinition, name)
            .ok()
            .and_then(Definition::from_crd);
        match def {
            Some(d) => {
                self.definitions.insert(name.to_string(), Arc::new(d));
            }
            None => {
                self.definitions.remove(name);
            }
        }
    }

    /// Whether `status` of `kind` is written only through `/status` (every built-in kind
    /// with a status here; a custom kind when its CRD enables the subresource).
    pub(super) fn status_is_subresource(&self, kind: Kind) -> bool {
        match self.definition(kind) {
            Some(d) => d.storage().is_some_and(|v| v.status),
            None => !matches!(kind, Kind::Custom(_)),
        }
    }

    /// What the request body of a write to `kind` is decoded against.
    pub fn fields(&self, kind: Kind, body: &Value) -> Fields {
        let Some(d) = self.definition(kind) else {
            return Fields::Builtin;
        };
        match d
            .version(obj::version_of(body).unwrap_or(""))
            .or_else(|| d.storage())
        {
            Some(v) => Fields::Custom {
                schema: Arc::clone(&v.schema),
                version: v.name.clone(),
            },
            None => Fields::Builtin,
        }
    }

    /// The custom resource handler's decoding of a create or update of `obj` (`old` the
    /// stored object): a served version of an Established CRD, the kind and apiVersion
    /// the body names, then conversion to the storage version, pruning and defaulting,
    /// in place. Built-in kinds pass untouched.
    pub(super) fn decode_custom_object(
        &mut self,
        kind: Kind,
        obj: &mut Value,
        old: Option<&Arc<Stored>>,
    ) -> Result<(), ApiError> {
        let Kind::Custom(ck) = kind else {
            return Ok(());
        };
        let name = obj::name(obj).to_string();
        let Some(d) = self.definition(kind).filter(|d| d.established) else {
            return Err(not_served(kind, &name));
        };
        if d.terminating && old.is_none() {
            return Err(ApiError {
                reason: Reason::MethodNotAllowed,
                message: "create not allowed while custom resource definition is terminating"
                    .into(),
            });
        }
        if let Some(old) = old {
            self.read_custom(kind, old.value())?;
        }
        let requested = obj::str(obj, &["apiVersion"]).unwrap_or("").to_string();
        let expected_kind = &ck.names().kind;
        let mut errs = Vec::new();
        let kind_field = obj::str(obj, &["kind"]).unwrap_or("");
        if kind_field != expected_kind {
            errs.push(format!(
                "kind: Invalid value: {}: must be {expected_kind}",
                go_quote(kind_field)
            ));
        }
        let served = requested
            .strip_prefix(&format!("{}/", d.group))
            .and_then(|v| d.version(v))
            .is_some_and(|v| v.served);
        if !served {
            let shown = d.preferred().map_or(String::new(), |v| v.name.clone());
            errs.push(format!(
                "apiVersion: Invalid value: {}: must be {}/{shown}",
                go_quote(&requested),
                d.group
            ));
        }
        crate::sim::validation::invalid(kind, obj, errs)?;
        let version = requested.rsplit('/').next().unwrap_or("").to_string();
        self.warn_deprecated(kind, &version);
        self.warn_finalizers(obj, old.map(|o| o.value()));
        // The handler of the request's version decodes the body with that version's
        // schema: pruned and defaulted there, and validated there too.
        if let Some(v) = self.definition(kind).and_then(|d| d.version(&version)) {
            let schema = Arc::clone(&v.schema);
            schema::prune(&schema, obj);
            schema::default(&schema, obj);
        }
        Ok(())
    }

    /// The object as the request's version sees the stored one (`old`): what an update
    /// is validated and compared against.
    pub(super) fn request_view(
        &self,
        kind: Kind,
        old: &Value,
        new: &Value,
    ) -> Result<Option<Value>, ApiError> {
        if !matches!(kind, Kind::Custom(_)) {
            return Ok(None);
        }
        self.read_custom_at(kind, old, obj::version_of(new))
            .map(Some)
    }

    /// Encoding for etcd: a custom object goes to the storage version (conversion None:
    /// apiVersion rewritten, and what the storage version does not declare pruned; no
    /// defaults are applied on the way).
    pub(super) fn to_storage(&self, kind: Kind, obj: &mut Value) {
        let Some(d) = self.definition(kind) else {
            return;
        };
        let Some(storage) = d.storage() else { return };
        obj::set(
            obj,
            &["apiVersion"],
            json!(format!("{}/{}", d.group, storage.name)),
        );
        schema::prune(&storage.schema, obj);
    }

    /// The custom resource strategy's Validate / ValidateUpdate: metadata, then the
    /// schema of the version the object is at (the request's) and its CEL rules.
    pub(super) fn validate_custom(
        &mut self,
        kind: Kind,
        obj: &Value,
        old: Option<&Value>,
    ) -> Result<(), ApiError> {
        let Some(d) = self.definition(kind) else {
            return Ok(());
        };
        let version = obj::version_of(obj).unwrap_or("");
        let Some(at) = d.version(version).or_else(|| d.storage()) else {
            return Ok(());
        };
        let mut errs: Vec<String> = Vec::new();
        crate::sim::validation::custom_object_meta(&mut errs, obj);
        let found = validate::validate(&at.schema, obj, old);
        for e in &found {
            if !e.warning {
                errs.push(e.text());
            } else if self.admission.from_kubectl && !self.admission.warnings.contains(&e.text()) {
                self.admission.warnings.push(e.text());
            }
        }
        crate::sim::validation::invalid(kind, obj, errs)
    }

    /// PUT on a custom object's `/status`: only with the subresource enabled (else the
    /// handler finds no such resource); spec and metadata stay as stored, status is
    /// pruned, defaulted and validated; generation does not move.
    pub(super) fn update_custom_status(
        &mut self,
        kind: Kind,
        name: &str,
        old: Arc<Stored>,
        obj: Value,
    ) -> Result<Arc<Stored>, ApiError> {
        if !self.status_is_subresource(kind) {
            return Err(ApiError {
                reason: Reason::NotFound,
                message: format!(
                    "the server could not find the requested resource (put {} {name})",
                    kind.group_resource()
                ),
            });
        }
        // The handler of the request's version reads the stored object at that version
        // (pruned by its schema: what it does not declare is lost on this write) and
        // keeps all of it but status; the result is stored at the storage version.
        let version = obj::version_of(&obj).map(str::to_string);
        let mut keep = self.read_custom_at(kind, old.value(), version.as_deref())?;
        match obj.get("status") {
            Some(s) => obj::set(&mut keep, &["status"], s.clone()),
            None => {
                obj::remove(&mut keep, &["status"]);
            }
        }
        if let Some(v) = self
            .definition(kind)
            .and_then(|d| d.version(version.as_deref().unwrap_or("")))
        {
            let schema = Arc::clone(&v.schema);
            schema::prune(&schema, &mut keep);
            schema::default(&schema, &mut keep);
        }
        let old_view = self.request_view(kind, old.value(), &keep)?;
        self.validate_custom(kind, &keep, old_view.as_ref())?;
        self.to_storage(kind, &mut keep);
        self.store_modified(kind, name.to_string(), old, keep)
    }

    /// A stored custom object as a client reads it at the version it asked for (kubectl:
    /// the preferred one): conversion None rewrites apiVersion, then the target version's
    /// schema prunes and defaults (defaults added to a CRD since the object was written
    /// show here without a write; fields that version does not declare are gone). An
    /// object stored at a version the CRD no longer lists cannot be decoded: the
    /// converter refuses it, and the read fails with a plain error (a 500, no reason).
    pub fn read_custom(&self, kind: Kind, obj: &Value) -> Result<Value, ApiError> {
        self.read_custom_at(kind, obj, None)
    }

    /// [`Self::read_custom`] at `version` (`None`: the preferred one).
    pub fn read_custom_at(
        &self,
        kind: Kind,
        obj: &Value,
        version: Option<&str>,
    ) -> Result<Value, ApiError> {
        let Some(d) = self
            .definition(kind)
            .filter(|_| matches!(kind, Kind::Custom(_)))
        else {
            return Ok(obj.clone());
        };
        let stored = obj::str(obj, &["apiVersion"]).unwrap_or("");
        let listed = stored
            .strip_prefix(&format!("{}/", d.group))
            .is_some_and(|v| d.version(v).is_some());
        if !listed {
            return Err(ApiError {
                reason: Reason::Unknown,
                message: format!("request to convert CR from an invalid group/version: {stored}"),
            });
        }
        let target = match version {
            Some(v) => d.version(v),
            None => d.preferred(),
        };
        let Some(v) = target else {
            return Ok(obj.clone());
        };
        let mut out = obj.clone();
        obj::set(
            &mut out,
            &["apiVersion"],
            json!(format!("{}/{}", d.group, v.name)),
        );
        schema::prune(&v.schema, &mut out);
        schema::default(&v.schema, &mut out);
        Ok(out)
    }

    /// WarningsOnCreate / WarningsOnUpdate: each finalizer the write adds that is not
    /// domain-qualified with a path (validateKubeFinalizerName).
    fn warn_finalizers(&mut self, obj: &Value, old: Option<&Value>) {
        const STANDARD: [&str; 3] = ["orphan", "foregroundDeletion", "kubernetes"];
        let list = |o: &Value| obj::strings(o.pointer("/metadata/finalizers"));
        let before = old.map(list).unwrap_or_default();
        let mut added: Vec<String> = list(obj)
            .into_iter()
            .filter(|f| !before.contains(f))
            .collect();
        added.sort();
        added.dedup();
        for f in added {
            let mut warnings: Vec<String> = crate::sim::validation::qualified_name(&f)
                .into_iter()
                .map(|m| format!("metadata.finalizers: {}: {m}", go_quote(&f)))
                .collect();
            if !f.contains('/') && !STANDARD.contains(&f.as_str()) {
                let prefer = if f.contains('.') {
                    "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
                } else {
                    "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
                };
                warnings.push(format!("metadata.finalizers: {}: {prefer}", go_quote(&f)));
            }
            for w in warnings {
                if self.admission.from_kubectl && !self.admission.warnings.contains(&w) {
                    self.admission.warnings.push(w);
                }
            }
        }
    }

    /// A request of kubectl's at a deprecated `version` of `kind` draws the version's
    /// warning (client-go prints each distinct warning once per command).
    pub fn warn_deprecated(&mut self, kind: Kind, version: &str) {
        let Some(w) = self.definition(kind).and_then(|d| d.deprecation(version)) else {
            return;
        };
        if self.admission.from_kubectl && !self.admission.warnings.contains(&w) {
            self.admission.warnings.push(w);
        }
    }

    /// How many objects of `kind` are stored at `version` (written while it was the
    /// storage version, and not since).
    pub fn stored_at(&self, kind: Kind, version: &str) -> usize {
        let Some(d) = self.definition(kind) else {
            return 0;
        };
        let av = format!("{}/{version}", d.group);
        self.list(kind)
            .filter(|o| obj::str(o, &["apiVersion"]) == Some(av.as_str()))
            .count()
    }
}

/// What a request to a kind no established CRD serves gets: the handler passes it on and
/// it ends as a plain-text 404 (`the server could not find the requested resource`).
pub fn not_served(kind: Kind, name: &str) -> ApiError {
    ApiError {
        reason: Reason::NotFound,
        message: format!(
            "the server could not find the requested resource (post {} {name})",
            kind.group_resource()
        ),
    }
}
