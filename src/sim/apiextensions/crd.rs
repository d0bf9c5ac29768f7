//! The CustomResourceDefinition object (apiextensions.k8s.io/v1, 1.32): its defaults
//! (`pkg/apis/apiextensions/v1/defaults.go`), its validation in the order and words of
//! `pkg/apis/apiextensions/validation/validation.go`, and what the API server builds from
//! an accepted one to serve its kind: a [`Definition`].
//!
//! v1 is validated as the internal type, to which a CRD whose versions all carry the same
//! schema (the usual single-version CRD) converts with that schema hoisted to
//! `spec.validation`; so are errors reported (`spec.validation.openAPIV3Schema...`).

use std::sync::Arc;

use serde_json::{Value, json};

use super::schema::Schema;
use crate::sim::kind::{CustomKind, Names};
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::validation::{dns1035_label, dns1123_subdomain};

/// The finalizer the API server puts on a CRD being deleted until its objects are gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// One printer column of a version.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub type_: String,
    pub priority: i64,
    pub json_path: String,
}

/// One version of a definition.
#[derive(Clone)]
pub struct Version {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub schema: Arc<Schema>,
    pub status: bool,
    pub columns: Vec<Column>,
}

/// What the API server serves for one CRD.
#[derive(Clone)]
pub struct Definition {
    pub crd: String,
    pub group: String,
    pub kind: String,
    pub plural: String,
    pub singular: String,
    pub short_names: Vec<String>,
    pub namespaced: bool,
    pub versions: Vec<Version>,
    pub established: bool,
    pub terminating: bool,
    /// The kind, interned once: named at the preferred version, or the storage version
    /// when none is served (its objects still own what they own).
    custom: Option<CustomKind>,
}

impl Definition {
    /// What a CRD (already accepted by validation) serves; none if it does not parse.
    pub fn from_crd(crd: &Value) -> Option<Definition> {
        let spec = crd.get("spec")?;
        let names = spec.get("names")?;
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let mut versions = Vec::new();
        for v in spec.get("versions")?.as_array()? {
            let status = v.pointer("/subresources/status").is_some();
            let mut errs = Vec::new();
            let schema = Schema::parse(
                v.pointer("/schema/openAPIV3Schema").unwrap_or(&Value::Null),
                "",
                status,
                &mut errs,
            );
            let columns = v
                .get("additionalPrinterColumns")
                .and_then(Value::as_array)
                .map(|cols| {
                    cols.iter()
                        .map(|c| Column {
                            name: s(c, "name"),
                            type_: s(c, "type"),
                            priority: c.get("priority").and_then(Value::as_i64).unwrap_or(0),
                            json_path: s(c, "jsonPath"),
                        })
                        .collect()
                })
                .unwrap_or_default();
            versions.push(Version {
                name: s(v, "name"),
                served: v.get("served") == Some(&Value::Bool(true)),
                storage: v.get("storage") == Some(&Value::Bool(true)),
                deprecated: v.get("deprecated") == Some(&Value::Bool(true)),
                deprecation_warning: v
                    .get("deprecationWarning")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                schema: Arc::new(schema),
                status,
                columns,
            });
        }
        let mut d = Definition {
            crd: obj::name(crd).to_string(),
            group: s(spec, "group"),
            kind: s(names, "kind"),
            plural: s(names, "plural"),
            singular: s(names, "singular"),
            short_names: obj::strings(names.get("shortNames")),
            namespaced: s(spec, "scope") == "Namespaced",
            versions,
            established: condition_true(crd, "Established"),
            terminating: obj::path(crd, &["metadata", "deletionTimestamp"]).is_some(),
            custom: None,
        };
        d.custom = d.intern();
        Some(d)
    }

    pub fn version(&self, name: &str) -> Option<&Version> {
        self.versions.iter().find(|v| v.name == name)
    }

    /// The names of the versions served, in the CRD's order.
    pub fn served_versions(&self) -> Vec<String> {
        self.versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.clone())
            .collect()
    }

    pub fn storage(&self) -> Option<&Version> {
        self.versions.iter().find(|v| v.storage)
    }

    /// The version kubectl uses when none is named: discovery's first, the served
    /// versions in Kubernetes version priority.
    pub fn preferred(&self) -> Option<&Version> {
        let mut served: Vec<&Version> = self.versions.iter().filter(|v| v.served).collect();
        served.sort_by_key(|a| version_priority(&a.name));
        served.first().copied()
    }

    /// The warning a request to `version` gets if it is deprecated: its own, or
    /// defaultDeprecationWarning's, which names the highest-priority served version
    /// newer than it that is not deprecated.
    pub fn deprecation(&self, version: &str) -> Option<String> {
        let v = self.version(version).filter(|v| v.deprecated)?;
        if let Some(w) = &v.deprecation_warning {
            return Some(w.clone());
        }
        let mut msg = format!("{}/{version} {} is deprecated", self.group, self.kind);
        let newer = self
            .versions
            .iter()
            .filter(|x| x.served && !x.deprecated)
            .filter(|x| version_priority(&x.name) < version_priority(version))
            .min_by_key(|x| version_priority(&x.name));
        if let Some(n) = newer {
            msg += &format!("; use {}/{} {}", self.group, n.name, self.kind);
        }
        Some(msg)
    }

    /// The kind, as the demo's kubectl resolves it.
    pub fn kind(&self) -> Option<CustomKind> {
        self.custom
    }

    fn intern(&self) -> Option<CustomKind> {
        let version = self.preferred().or_else(|| self.storage())?.name.clone();
        CustomKind::intern(Names {
            group: self.group.clone(),
            version,
            kind: self.kind.clone(),
            plural: self.plural.clone(),
            singular: self.singular.clone(),
            short_names: self.short_names.clone(),
            namespaced: self.namespaced,
        })
    }
}

/// A sort key for version names as Kubernetes orders them (version.CompareKubeAwareVersionStrings):
/// GA before beta before alpha, higher numbers first, other names last alphabetically.
pub fn version_priority(v: &str) -> (u8, i64, i64, String) {
    let parse = |s: &str| -> Option<(i64, u8, i64)> {
        let rest = s.strip_prefix('v')?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let major: i64 = digits.parse().ok()?;
        let tail = &rest[digits.len()..];
        if tail.is_empty() {
            return Some((major, 0, 0));
        }
        let (stage, n) = if let Some(n) = tail.strip_prefix("beta") {
            (1, n)
        } else if let Some(n) = tail.strip_prefix("alpha") {
            (2, n)
        } else {
            return None;
        };
        let minor: i64 = n.parse().ok()?;
        Some((major, stage, minor))
    };
    match parse(v) {
        Some((major, stage, minor)) => (stage, -major, -minor, String::new()),
        None => (3, 0, 0, v.to_string()),
    }
}

/// Whether the CRD's status has condition `type_` True.
pub fn condition_true(crd: &Value, type_: &str) -> bool {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c["type"] == type_ && c["status"] == "True")
        })
}

/// SetDefaults_CustomResourceDefinition and its spec's.
pub fn defaults(crd: &mut Value) {
    let Some(spec) = crd.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(names) = spec.get_mut("names").and_then(Value::as_object_mut) {
        let kind = names
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if names.get("singular").is_none_or(|s| s.as_str() == Some("")) {
            names.insert("singular".into(), json!(kind.to_lowercase()));
        }
        if !kind.is_empty() && names.get("listKind").is_none_or(|s| s.as_str() == Some("")) {
            names.insert("listKind".into(), json!(format!("{kind}List")));
        }
    }
    if !spec.contains_key("conversion") {
        spec.insert("conversion".into(), json!({"strategy": "None"}));
    }
    // storedVersions, when empty, becomes the storage version.
    let empty = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array)
        .is_some_and(|a| a.is_empty());
    if empty {
        record_storage_version(crd);
    }
}

/// Where a version's schema, subresources and columns are reported: hoisted to the
/// top level when every version carries the same one (v1 to internal conversion).
fn hoisted(versions: &[Value], field: &str) -> bool {
    let first = versions.first().and_then(|v| v.get(field));
    !versions.is_empty() && versions.iter().all(|v| v.get(field) == first)
}

/// ValidateCustomResourceDefinition (`old` none) or ValidateCustomResourceDefinitionUpdate.
pub fn validate(crd: &Value, old: Option<&Value>) -> Vec<String> {
    let mut errs = Vec::new();
    let spec = crd.get("spec").unwrap_or(&Value::Null);
    let str_at = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let group = str_at(spec, "group");
    let names = spec.get("names").unwrap_or(&Value::Null);
    let plural = str_at(names, "plural");
    // ValidateObjectMeta with the CRD's name function.
    let name = obj::name(crd);
    for m in dns1123_subdomain(name) {
        errs.push(format!(
            "metadata.name: Invalid value: {}: {m}",
            go_quote(name)
        ));
    }
    if name != format!("{plural}.{group}") {
        errs.push(format!(
            "metadata.name: Invalid value: {}: must be spec.names.plural+\".\"+spec.group",
            go_quote(name)
        ));
    }
    // validateCustomResourceDefinitionSpec.
    if group.is_empty() {
        errs.push("spec.group: Required value".into());
    } else if let m @ [_, ..] = dns1123_subdomain(&group).as_slice() {
        errs.push(format!(
            "spec.group: Invalid value: {}: {}",
            go_quote(&group),
            m.join(",")
        ));
    } else if !group.contains('.') {
        errs.push(format!(
            "spec.group: Invalid value: {}: should be a domain with at least one dot",
            go_quote(&group)
        ));
    }
    match spec.get("scope").and_then(Value::as_str).unwrap_or("") {
        "" => errs.push("spec.scope: Required value".into()),
        "Cluster" | "Namespaced" => {}
        other => errs.push(format!(
            "spec.scope: Unsupported value: {}: supported values: \"Cluster\", \"Namespaced\"",
            go_quote(other)
        )),
    }
    let versions: Vec<Value> = spec
        .get("versions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, v) in versions.iter().enumerate() {
        if v.pointer("/schema/openAPIV3Schema").is_none() {
            errs.push(format!(
                "spec.versions[{i}].schema.openAPIV3Schema: Required value: schemas are required"
            ));
        }
    }
    let one_schema = hoisted(&versions, "schema");
    let one_subresources = hoisted(&versions, "subresources");
    let one_columns = hoisted(&versions, "additionalPrinterColumns");
    let mut storage = 0;
    let mut unique = true;
    for (i, v) in versions.iter().enumerate() {
        let vname = str_at(v, "name");
        if v.get("storage") == Some(&Value::Bool(true)) {
            storage += 1;
        }
        if versions[..i].iter().any(|o| str_at(o, "name") == vname) {
            unique = false;
        }
        let at = format!("spec.versions[{i}]");
        if let m @ [_, ..] = dns1035_label(&vname).as_slice() {
            errs.push(format!(
                "{at}.name: Invalid value: {}: {}",
                go_quote(&vname),
                m.join(",")
            ));
        }
        deprecation(&mut errs, &at, v);
        let status = v.pointer("/subresources/status").is_some();
        if !one_schema && let Some(s) = v.pointer("/schema/openAPIV3Schema") {
            Schema::parse(
                s,
                &format!("{at}.schema.openAPIV3Schema"),
                status,
                &mut errs,
            );
        }
        if !one_subresources {
            subresources(
                &mut errs,
                &format!("{at}.subresources"),
                v.get("subresources"),
            );
        }
        if !one_columns {
            columns(&mut errs, &format!("{at}.additionalPrinterColumns"), v);
        }
    }
    if !unique {
        errs.push("spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must contain unique version names".into());
    }
    if storage != 1 {
        errs.push("spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version".into());
    }
    for field in ["plural", "singular", "kind", "listKind"] {
        if str_at(names, field).is_empty() {
            errs.push(format!("spec.names.{field}: Required value"));
        }
    }
    validate_names(&mut errs, "spec.names", names);
    if one_schema && let Some(first) = versions.first() {
        let status = versions
            .iter()
            .any(|v| v.pointer("/subresources/status").is_some());
        if let Some(s) = first.pointer("/schema/openAPIV3Schema") {
            let path = "spec.validation.openAPIV3Schema";
            let parsed = Schema::parse(s, path, status, &mut errs);
            super::validate::defaults(&parsed, path, &mut errs);
        }
    }
    if one_subresources && let Some(first) = versions.first() {
        subresources(&mut errs, "spec.subresources", first.get("subresources"));
    }
    if one_columns && let Some(first) = versions.first() {
        columns(&mut errs, "spec.additionalPrinterColumns", first);
    }
    conversion(&mut errs, spec.get("conversion"));
    if let Some(old) = old {
        immutable(&mut errs, spec, old);
    }
    // ValidateCustomResourceDefinitionStatus: the accepted names.
    if let Some(accepted) = crd.pointer("/status/acceptedNames") {
        validate_names(&mut errs, "status.acceptedNames", accepted);
    }
    stored_versions(&mut errs, crd, &versions);
    if spec.get("preserveUnknownFields") == Some(&Value::Bool(true)) {
        errs.push("spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead".into());
    }
    errs
}

fn deprecation(errs: &mut Vec<String>, at: &str, v: &Value) {
    let Some(w) = v.get("deprecationWarning").and_then(Value::as_str) else {
        return;
    };
    let why = if v.get("deprecated") != Some(&Value::Bool(true)) {
        Some("can only be set for deprecated versions")
    } else if w.is_empty() {
        Some("must not be an empty string")
    } else if w.len() > 256 {
        Some("must be <= 256 characters long")
    } else {
        None
    };
    if let Some(why) = why {
        errs.push(format!(
            "{at}.deprecationWarning: Invalid value: {}: {why}",
            go_quote(w)
        ));
    }
}

/// ValidateCustomResourceDefinitionNames.
fn validate_names(errs: &mut Vec<String>, at: &str, names: &Value) {
    let s = |k: &str| {
        names
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    for field in ["plural", "singular"] {
        let v = s(field);
        if let m @ [_, ..] = dns1035_label(&v).as_slice()
            && !v.is_empty()
        {
            errs.push(format!(
                "{at}.{field}: Invalid value: {}: {}",
                go_quote(&v),
                m.join(",")
            ));
        }
    }
    for field in ["kind", "listKind"] {
        let v = s(field);
        if let m @ [_, ..] = dns1035_label(&v.to_lowercase()).as_slice()
            && !v.is_empty()
        {
            errs.push(format!(
                "{at}.{field}: Invalid value: {}: may have mixed case, but should otherwise match: {}",
                go_quote(&v),
                m.join(",")
            ));
        }
    }
    for list in ["shortNames", "categories"] {
        for (i, v) in names
            .get(list)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let v = v.as_str().unwrap_or("");
            if let m @ [_, ..] = dns1035_label(v).as_slice() {
                errs.push(format!(
                    "{at}.{list}[{i}]: Invalid value: {}: {}",
                    go_quote(v),
                    m.join(",")
                ));
            }
        }
    }
    if !s("kind").is_empty() && s("kind") == s("listKind") {
        errs.push(format!(
            "{at}.listKind: Invalid value: {}: kind and listKind may not be the same",
            go_quote(&s("listKind"))
        ));
    }
}

fn subresources(errs: &mut Vec<String>, at: &str, sub: Option<&Value>) {
    if sub.and_then(|s| s.get("scale")).is_some() {
        errs.push(format!(
            "{at}.scale: Forbidden: kubedrill's demo does not serve the scale subresource of custom resources"
        ));
    }
}

const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// ValidateCustomResourceColumnDefinition of each of a version's columns.
fn columns(errs: &mut Vec<String>, at: &str, version: &Value) {
    let Some(cols) = version
        .get("additionalPrinterColumns")
        .and_then(Value::as_array)
    else {
        return;
    };
    for (i, c) in cols.iter().enumerate() {
        let at = format!("{at}[{i}]");
        let s = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or("");
        if s("name").is_empty() {
            errs.push(format!("{at}.name: Required value"));
        }
        match s("type") {
            "" => errs.push(format!(
                "{at}.type: Required value: must be one of {COLUMN_TYPES}"
            )),
            t if !COLUMN_TYPES.split(',').any(|x| x == t) => errs.push(format!(
                "{at}.type: Invalid value: {}: must be one of {COLUMN_TYPES}",
                go_quote(t)
            )),
            _ => {}
        }
        if let Some(f) = c.get("format").and_then(Value::as_str)
            && !f.is_empty()
            && !COLUMN_FORMATS.split(',').any(|x| x == f)
        {
            errs.push(format!(
                "{at}.format: Invalid value: {}: must be one of {COLUMN_FORMATS}",
                go_quote(f)
            ));
        }
        let path = s("jsonPath");
        if path.is_empty() {
            errs.push(format!("{at}.JSONPath: Required value"));
        } else if !path.starts_with('.')
            || crate::sim::jsonpath::parse(&format!("{{{path}}}")).is_err()
        {
            errs.push(format!(
                "{at}.JSONPath: Invalid value: {}: must be a simple json path starting with .",
                go_quote(path)
            ));
        }
    }
}

fn conversion(errs: &mut Vec<String>, c: Option<&Value>) {
    let Some(c) = c else { return };
    match c.get("strategy").and_then(Value::as_str).unwrap_or("") {
        "" => errs.push("spec.conversion.strategy: Required value".into()),
        "None" => {
            if c.get("webhook").is_some() {
                errs.push("spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook".into());
            }
        }
        "Webhook" => errs.push("spec.conversion.strategy: Forbidden: kubedrill's demo does not call conversion webhooks; versions convert with strategy None (only apiVersion changes)".into()),
        other => errs.push(format!(
            "spec.conversion.strategy: Unsupported value: {}: supported values: \"None\", \"Webhook\"",
            go_quote(other)
        )),
    }
}

/// validateCustomResourceDefinitionSpecUpdate: group and plural never change; scope and
/// kind not once the old object is Established.
fn immutable(errs: &mut Vec<String>, spec: &Value, old: &Value) {
    let old_spec = old.get("spec").unwrap_or(&Value::Null);
    let mut check = |path: &str, ptr: &str| {
        let new = spec.pointer(ptr).and_then(Value::as_str).unwrap_or("");
        let was = old_spec.pointer(ptr).and_then(Value::as_str).unwrap_or("");
        if new != was {
            errs.push(format!(
                "{path}: Invalid value: {}: field is immutable",
                go_quote(new)
            ));
        }
    };
    if condition_true(old, "Established") {
        check("spec.scope", "/scope");
        check("spec.names.kind", "/names/kind");
    }
    check("spec.group", "/group");
    check("spec.names.plural", "/names/plural");
}

/// Go's `%#v` of a `[]string`.
fn go_strings(list: &[&str]) -> String {
    format!(
        "[]string{{{}}}",
        list.iter()
            .map(|s| go_quote(s))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// ValidateCustomResourceDefinitionStoredVersions; entries missing from spec in index
/// order (Go reports them in map order).
fn stored_versions(errs: &mut Vec<String>, crd: &Value, versions: &[Value]) {
    let stored: Vec<&str> = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if stored.is_empty() {
        let shown = if crd.pointer("/status/storedVersions").is_some() {
            "[]string{}"
        } else {
            "[]string(nil)"
        };
        errs.push(format!(
            "status.storedVersions: Invalid value: {shown}: must have at least one stored version"
        ));
        return;
    }
    let name = |v: &Value| {
        v.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    for v in versions {
        if v.get("storage") == Some(&Value::Bool(true)) && !stored.contains(&name(v).as_str()) {
            errs.push(format!(
                "status.storedVersions: Invalid value: {}: must have the storage version {}",
                go_strings(&stored),
                name(v)
            ));
        }
    }
    for (i, s) in stored.iter().enumerate() {
        if !versions.iter().any(|v| name(v) == *s) {
            errs.push(format!(
                "status.storedVersions[{i}]: Invalid value: {}: must appear in spec.versions",
                go_quote(s)
            ));
        }
    }
}

/// PrepareForCreate / PrepareForUpdate: the storage version joins storedVersions.
pub fn record_storage_version(crd: &mut Value) {
    let storage = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .and_then(|vs| {
            vs.iter()
                .find(|v| v.get("storage") == Some(&Value::Bool(true)))
        })
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let Some(storage) = storage else { return };
    let mut stored: Vec<Value> = crd
        .pointer("/status/storedVersions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if !stored.iter().any(|v| v == storage.as_str()) {
        stored.push(json!(storage));
    }
    obj::set(crd, &["status", "storedVersions"], Value::Array(stored));
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn webapps() -> Value {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "webapps.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"kind": "WebApp", "plural": "webapps", "shortNames": ["wa"]},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                        "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]}})
    }

    fn check(mut crd: Value) -> Vec<String> {
        defaults(&mut crd);
        record_storage_version(&mut crd);
        validate(&crd, None)
    }

    #[test]
    fn a_good_crd_passes_and_is_defaulted() {
        let mut crd = webapps();
        defaults(&mut crd);
        assert_eq!(crd["spec"]["names"]["singular"], "webapp");
        assert_eq!(crd["spec"]["names"]["listKind"], "WebAppList");
        assert_eq!(crd["spec"]["conversion"], json!({"strategy": "None"}));
        assert_eq!(check(webapps()), Vec::<String>::new());
    }

    #[test]
    fn names_group_and_storage_are_checked_in_the_sources_order() {
        let mut crd = webapps();
        crd["metadata"]["name"] = json!("webapp.example.com");
        crd["spec"]["group"] = json!("example");
        crd["spec"]["versions"][0]["storage"] = json!(false);
        assert_eq!(
            check(crd),
            [
                "metadata.name: Invalid value: \"webapp.example.com\": must be spec.names.plural+\".\"+spec.group",
                "spec.group: Invalid value: \"example\": should be a domain with at least one dot",
                "spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version",
                "status.storedVersions: Invalid value: []string(nil): must have at least one stored version",
            ]
        );
    }

    #[test]
    fn a_schema_error_of_a_single_version_crd_is_under_spec_validation() {
        let mut crd = webapps();
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
            ["replicas"] = json!({});
        assert_eq!(
            check(crd),
            [
                "spec.validation.openAPIV3Schema.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields"
            ]
        );
    }

    #[test]
    fn removing_a_stored_version_is_refused_until_status_forgets_it() {
        let mut old = webapps();
        defaults(&mut old);
        record_storage_version(&mut old);
        let mut new = old.clone();
        new["spec"]["versions"][0]["name"] = json!("v2");
        record_storage_version(&mut new);
        assert_eq!(
            validate(&new, Some(&old)),
            ["status.storedVersions[0]: Invalid value: \"v1\": must appear in spec.versions"]
        );
    }

    #[test]
    fn version_priority_puts_ga_first_then_beta_then_alpha() {
        let mut v = vec!["v1alpha1", "v1", "v2beta1", "foo", "v2", "v1beta2"];
        v.sort_by_key(|s| version_priority(s));
        assert_eq!(v, ["v2", "v1", "v2beta1", "v1beta2", "v1alpha1", "foo"]);
    }
}
