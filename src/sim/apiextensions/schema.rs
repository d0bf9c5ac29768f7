//! A CRD version's structural schema (apiextensions-apiserver `pkg/apiserver/schema`):
//! read from `openAPIV3Schema` with the checks CRD validation makes of it, and what the
//! API server does with it to every custom object: pruning of undeclared fields
//! (`pruning/algorithm.go`), defaulting (`defaulting/algorithm.go`).
//!
//! Where Go iterates a map (properties) the demo goes in key order, so errors and pruned
//! paths come out the same every run.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::sim::cel::{self, Expression};
use crate::sim::output::go_quote;

/// The types a structural schema may declare.
const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// One `x-kubernetes-validations` rule, compiled.
#[derive(Clone)]
pub struct Rule {
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<Arc<Expression>>,
    pub reason: Option<String>,
    pub field_path: Option<String>,
    pub program: Arc<Expression>,
    /// A transition rule: it reads `oldSelf`, so it runs only on updates.
    pub transition: bool,
}

/// A node of a structural schema.
#[derive(Clone, Default)]
pub struct Schema {
    pub type_: Option<String>,
    pub properties: BTreeMap<String, Schema>,
    pub items: Option<Box<Schema>>,
    pub additional: Option<Box<Schema>>,
    pub required: Vec<String>,
    pub enum_: Vec<Value>,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(String, regex::Regex)>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub max_properties: Option<u64>,
    pub default: Option<Value>,
    pub nullable: bool,
    pub preserve_unknown: bool,
    pub int_or_string: bool,
    pub rules: Vec<Rule>,
}

/// The keywords the demo reads; anything else in a schema is refused in its words, so a
/// schema never silently means less than it says.
const KNOWN: &[&str] = &[
    "type",
    "properties",
    "items",
    "additionalProperties",
    "required",
    "enum",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "maxProperties",
    "default",
    "nullable",
    "description",
    "title",
    "format",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-int-or-string",
    "x-kubernetes-validations",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
];

/// The keywords kube-openapi's standard validator refuses in a CRD (`Forbidden: <kw> is
/// not supported`).
const UNSUPPORTED: &[&str] = &[
    "$ref",
    "id",
    "additionalItems",
    "patternProperties",
    "definitions",
    "dependencies",
];

/// The value validations a structural schema may put under allOf/anyOf/oneOf/not, which
/// the demo does not evaluate.
const JUNCTORS: &[&str] = &["allOf", "anyOf", "oneOf", "not"];

/// Where a node sits, for the words CRD validation uses when its type is missing.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    Property,
    Items,
    Additional,
}

impl Schema {
    /// Reads the schema at `v`, reporting what CRD validation refuses under `path`
    /// (`spec.validation.openAPIV3Schema` or `spec.versions[i].schema.openAPIV3Schema`).
    pub fn parse(
        v: &Value,
        path: &str,
        status_subresource: bool,
        errs: &mut Vec<String>,
    ) -> Schema {
        let s = parse_node(v, path, Place::Root, errs);
        if s.nullable {
            errs.push(format!(
                "{path}.nullable: Forbidden: nullable cannot be true at the root"
            ));
        }
        if status_subresource && let Some(t) = s.type_.as_deref().filter(|t| *t != "object") {
            errs.push(format!(
                "{path}.type: Invalid value: {}: only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                go_quote(t)
            ));
        }
        if let Some(meta) = s.properties.get("metadata") {
            let only_names = meta
                .properties
                .keys()
                .all(|k| k == "name" || k == "generateName");
            if !only_names || meta.default.is_some() || !meta.rules.is_empty() {
                errs.push(format!(
                    "{path}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
                ));
            }
        }
        for top in ["apiVersion", "kind", "metadata"] {
            if s.properties.get(top).is_some_and(|p| p.default.is_some()) {
                errs.push(format!(
                    "{path}.properties[{top}].default: Forbidden: must not be set in top-level {top}"
                ));
            }
        }
        s
    }

    /// The JSON type a value has, as kube-openapi names it in a type error.
    pub fn json_type(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// The schema of a child: a declared property, or what additionalProperties says.
    pub fn child(&self, key: &str) -> Option<&Schema> {
        self.properties.get(key).or(self.additional.as_deref())
    }
}

fn parse_node(v: &Value, path: &str, place: Place, errs: &mut Vec<String>) -> Schema {
    let mut s = Schema::default();
    let Some(m) = v.as_object() else {
        errs.push(format!(
            "{path}: Invalid value: {}: must be a schema object",
            go_quote(&v.to_string())
        ));
        return s;
    };
    for k in m.keys() {
        if UNSUPPORTED.contains(&k.as_str()) {
            errs.push(format!("{path}.{k}: Forbidden: {k} is not supported"));
        } else if JUNCTORS.contains(&k.as_str()) {
            errs.push(format!(
                "{path}.{k}: Forbidden: kubedrill's demo does not evaluate {k}; declare the constraint on the property itself or as an x-kubernetes-validations rule"
            ));
        } else if !KNOWN.contains(&k.as_str()) {
            errs.push(format!(
                "{path}.{k}: Forbidden: kubedrill's demo does not read the keyword {k}"
            ));
        }
    }
    s.preserve_unknown = match m.get("x-kubernetes-preserve-unknown-fields") {
        None => false,
        Some(Value::Bool(true)) => true,
        Some(other) => {
            errs.push(format!(
                "{path}.x-kubernetes-preserve-unknown-fields: Invalid value: {other}: must be true or undefined"
            ));
            false
        }
    };
    s.int_or_string = m.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true));
    s.nullable = m.get("nullable") == Some(&Value::Bool(true));
    match m.get("type") {
        None | Some(Value::String(_)) => {}
        Some(other) => errs.push(format!(
            "{path}.type: Invalid value: {}: must be a string",
            go_quote(&other.to_string())
        )),
    }
    s.type_ = m.get("type").and_then(Value::as_str).map(str::to_string);
    match s.type_.as_deref() {
        Some("") | None if !s.preserve_unknown && !s.int_or_string => {
            let why = match place {
                Place::Root => "must not be empty at the root",
                Place::Property => "must not be empty for specified object fields",
                Place::Items => "must not be empty for specified array items",
                Place::Additional => {
                    "must not be empty if additionalProperties or additionalItems is specified"
                }
            };
            errs.push(format!("{path}.type: Required value: {why}"));
        }
        Some("null") => errs.push(format!(
            "{path}.type: Forbidden: type cannot be set to null, use nullable as an alternative"
        )),
        Some(t) if !t.is_empty() && !TYPES.contains(&t) => errs.push(format!(
            "{path}.type: Unsupported value: {}: supported values: {}",
            go_quote(t),
            TYPES.map(go_quote).join(", ")
        )),
        Some(t) if place == Place::Root && t != "object" && !t.is_empty() => errs.push(format!(
            "{path}.type: Invalid value: {}: must be object at the root",
            go_quote(t)
        )),
        _ => {}
    }
    if let Some(props) = m.get("properties").and_then(Value::as_object) {
        for (k, p) in props {
            let child = parse_node(p, &format!("{path}.properties[{k}]"), Place::Property, errs);
            s.properties.insert(k.clone(), child);
        }
    }
    match m.get("additionalProperties") {
        None | Some(Value::Bool(false)) => {}
        Some(_) if place == Place::Root => errs.push(format!(
            "{path}.additionalProperties: Forbidden: must not be used at the root"
        )),
        Some(_) if m.contains_key("properties") => errs.push(format!(
            "{path}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
        )),
        Some(Value::Bool(true)) => {
            s.additional = Some(Box::new(Schema {
                preserve_unknown: true,
                ..Schema::default()
            }));
        }
        Some(a) => {
            let child = parse_node(a, &format!("{path}.additionalProperties"), Place::Additional, errs);
            s.additional = Some(Box::new(child));
        }
    }
    match m.get("items") {
        Some(i) => {
            s.items = Some(Box::new(parse_node(
                i,
                &format!("{path}.items"),
                Place::Items,
                errs,
            )));
        }
        None if s.type_.as_deref() == Some("array") => {
            errs.push(format!("{path}.items: Required value: must be specified"));
        }
        None => {}
    }
    s.required = crate::sim::obj::strings(m.get("required"));
    s.enum_ = m
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let num = |k: &str| m.get(k).and_then(Value::as_f64);
    let count = |k: &str| m.get(k).and_then(Value::as_u64);
    s.minimum = num("minimum");
    s.maximum = num("maximum");
    s.exclusive_minimum = m.get("exclusiveMinimum") == Some(&Value::Bool(true));
    s.exclusive_maximum = m.get("exclusiveMaximum") == Some(&Value::Bool(true));
    s.multiple_of = num("multipleOf");
    s.min_length = count("minLength");
    s.max_length = count("maxLength");
    s.min_items = count("minItems");
    s.max_items = count("maxItems");
    s.max_properties = count("maxProperties");
    if let Some(p) = m.get("pattern").and_then(Value::as_str) {
        match regex::Regex::new(p) {
            Ok(re) => s.pattern = Some((p.to_string(), re)),
            Err(e) => errs.push(format!(
                "{path}.pattern: Invalid value: {}: must be a valid regular expression, but isn't: {}",
                go_quote(p),
                e.to_string().lines().last().unwrap_or("").trim()
            )),
        }
    }
    s.default = m.get("default").cloned();
    if let Some(rules) = m.get("x-kubernetes-validations").and_then(Value::as_array) {
        for (i, r) in rules.iter().enumerate() {
            if let Some(rule) =
                parse_rule(r, &format!("{path}.x-kubernetes-validations[{i}]"), errs)
            {
                s.rules.push(rule);
            }
        }
    }
    s
}

/// The reasons a rule may give its failures.
const REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// Go's `%#v` of the internal ValidationRule, as compile errors print it; a reason is a
/// pointer there, whose address the demo does not make up.
fn go_rule(r: &Value) -> String {
    let s = |k: &str| go_quote(r.get(k).and_then(Value::as_str).unwrap_or(""));
    let reason = if r.get("reason").is_some() {
        "(*apiextensions.FieldValueErrorReason)(0xc000000000)"
    } else {
        "(*apiextensions.FieldValueErrorReason)(nil)"
    };
    let optional = match r.get("optionalOldSelf") {
        Some(_) => "(*bool)(0xc000000000)",
        None => "(*bool)(nil)",
    };
    format!(
        "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{reason}, FieldPath:{}, OptionalOldSelf:{optional}}}",
        s("rule"),
        s("message"),
        s("messageExpression"),
        s("fieldPath")
    )
}

fn parse_rule(r: &Value, path: &str, errs: &mut Vec<String>) -> Option<Rule> {
    let text = r.get("rule").and_then(Value::as_str).unwrap_or("");
    let before = errs.len();
    // One error at most, in validation.go's order; an empty message is no message.
    let message = r
        .get("message")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty());
    let trimmed = message.map_or("", str::trim);
    if text.trim().is_empty() {
        errs.push(format!(
            "{path}.rule: Required value: rule is not specified"
        ));
    } else if message.is_some() && trimmed.is_empty() {
        errs.push(format!(
            "{path}.message: Invalid value: {}: message must be non-empty if specified",
            go_quote(message.unwrap_or(""))
        ));
    } else if trimmed.contains('\n') {
        errs.push(format!(
            "{path}.message: Invalid value: {}: message must not contain line breaks",
            go_quote(message.unwrap_or(""))
        ));
    } else if text.trim().contains('\n') && trimmed.is_empty() {
        errs.push(format!(
            "{path}.message: Required value: message must be specified if rule contains line breaks"
        ));
    }
    let reason = r.get("reason").and_then(Value::as_str);
    if let Some(reason) = reason.filter(|x| !REASONS.contains(x)) {
        errs.push(format!(
            "{path}.reason: Unsupported value: {}: supported values: {}",
            go_quote(reason),
            REASONS.map(go_quote).join(", ")
        ));
    }
    let field_path = r.get("fieldPath").and_then(Value::as_str);
    if let Some(fp) = field_path.filter(|fp| !valid_field_path(fp)) {
        errs.push(format!(
            "{path}.fieldPath: Invalid value: {}: fieldPath must be a valid path",
            go_quote(fp)
        ));
    }
    if text.trim().is_empty() {
        return None;
    }
    let declared = ["self", "oldSelf"];
    let program = match cel::compile_declared(text, &declared) {
        Ok(p) => Some(p),
        Err(e) => {
            errs.push(format!(
                "{path}.rule: Invalid value: {}: compilation failed: {e}",
                go_rule(r)
            ));
            None
        }
    };
    let message_expression = match r.get("messageExpression").and_then(Value::as_str) {
        None => None,
        Some(me) => match cel::compile_declared(me, &["self"]) {
            Ok(p) => Some(Arc::new(p)),
            Err(e) => {
                errs.push(format!(
                    "{path}.messageExpression: Invalid value: {}: messageExpression compilation failed: {e}",
                    go_rule(r)
                ));
                None
            }
        },
    };
    if errs.len() != before {
        return None;
    }
    Some(Rule {
        transition: program.as_ref().is_some_and(|p| p.references("oldSelf")),
        program: Arc::new(program?),
        rule: text.to_string(),
        message: message.map(str::to_string),
        message_expression,
        reason: reason.map(str::to_string),
        field_path: field_path.map(str::to_string),
    })
}

/// A rule's fieldPath: `.a.b`, `.a['b-c']` or `.a[0]`, as validFieldPath accepts.
fn valid_field_path(fp: &str) -> bool {
    let mut rest = fp;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return false;
            }
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let Some(end) = r.find(']') else {
                return false;
            };
            rest = &r[end + 1..];
        } else {
            return false;
        }
    }
    true
}

/// Whether `key` at `path` is the API machinery's rather than the schema's: apiVersion,
/// kind and metadata at the root, which no schema prunes or validates.
pub fn is_machinery(path: &str, key: &str) -> bool {
    path.is_empty() && matches!(key, "apiVersion" | "kind" | "metadata")
}

/// A path step as the pruner and kube-openapi name fields: `spec.foo`, `spec.items[0]`.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Removes what `schema` does not declare from `obj` (the whole object: apiVersion, kind
/// and metadata are kept), and returns the paths it removed, sorted. Nulls in fields that
/// are not nullable and have no default go silently (PruneNonNullableNullsWithoutDefaults).
pub fn prune(schema: &Schema, obj: &mut Value) -> Vec<String> {
    let mut found = Vec::new();
    prune_in(schema, obj, "", &mut found);
    found.sort();
    found
}

fn prune_in(schema: &Schema, v: &mut Value, path: &str, found: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if is_machinery(path, &k) {
                    continue;
                }
                let at = join(path, &k);
                match schema.child(&k) {
                    Some(child) => {
                        if let Some(x) = m.get_mut(&k) {
                            prune_in(child, x, &at, found);
                        }
                        if m.get(&k).is_some_and(Value::is_null)
                            && !child.nullable
                            && child.default.is_none()
                        {
                            m.remove(&k);
                        }
                    }
                    None if schema.preserve_unknown => {}
                    None => {
                        m.remove(&k);
                        found.push(at);
                    }
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = &schema.items {
                for (i, x) in a.iter_mut().enumerate() {
                    prune_in(items, x, &format!("{path}[{i}]"), found);
                }
            }
        }
        _ => {}
    }
}

/// Sets defaults top-down: a property's default where the key is absent (or null and the
/// property is not nullable); items' and additionalProperties' defaults replace nulls.
pub fn default(schema: &Schema, v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, p) in &schema.properties {
                let missing = match m.get(k) {
                    None => true,
                    Some(Value::Null) => !p.nullable,
                    Some(_) => false,
                };
                if missing && let Some(d) = &p.default {
                    m.insert(k.clone(), d.clone());
                }
            }
            for (k, x) in m.iter_mut() {
                if let Some(child) = schema.child(k) {
                    if x.is_null()
                        && !schema.properties.contains_key(k)
                        && let Some(d) = &child.default
                    {
                        *x = d.clone();
                    }
                    default(child, x);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = &schema.items {
                for x in a.iter_mut() {
                    if x.is_null()
                        && let Some(d) = &items.default
                    {
                        *x = d.clone();
                    }
                    default(items, x);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(v: Value) -> (Schema, Vec<String>) {
        let mut errs = Vec::new();
        let s = Schema::parse(&v, "spec.validation.openAPIV3Schema", true, &mut errs);
        (s, errs)
    }

    fn webapp() -> Schema {
        let (s, errs) = parse(json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer", "default": 1},
                "image": {"type": "string"},
                "env": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "value": {"type": "string", "default": ""}}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}},
            "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}));
        assert_eq!(errs, Vec::<String>::new());
        s
    }

    #[test]
    fn structural_errors_name_the_schema_path() {
        let (_, errs) = parse(json!({"type": "object", "properties": {
            "spec": {"properties": {"n": {"type": "int"}, "l": {"type": "array"}}},
            "metadata": {"type": "object", "properties": {"labels": {"type": "object"}}}}}));
        assert_eq!(errs.len(), 4, "{errs:?}");
        assert!(
            errs.iter()
                .any(|e| e.contains("properties[metadata]: Forbidden"))
        );
        assert!(errs.iter().any(|e| e.ends_with(
            "properties[spec].type: Required value: must not be empty for specified object fields"
        )));
        assert!(
            errs.iter()
                .any(|e| e.ends_with("properties[l].items: Required value: must be specified"))
        );
        assert!(
            errs.iter()
                .any(|e| e.contains("Unsupported value: \"int\""))
        );
    }

    #[test]
    fn pruning_drops_undeclared_fields_and_keeps_preserved_ones() {
        let s = webapp();
        let mut o = json!({"apiVersion": "example.com/v1", "kind": "WebApp",
            "metadata": {"name": "a"}, "spec": {"replicas": 2, "imagee": "x",
            "env": [{"name": "A", "valu": "1"}], "labels": {"a": "b"}, "extra": {"any": 1}},
            "other": 1});
        let found = prune(&s, &mut o);
        assert_eq!(found, ["other", "spec.env[0].valu", "spec.imagee"]);
        assert_eq!(o["spec"]["extra"], json!({"any": 1}));
        assert_eq!(o["spec"]["labels"], json!({"a": "b"}));
        assert_eq!(o["metadata"]["name"], "a");
    }

    #[test]
    fn defaults_apply_top_down_where_the_parent_exists() {
        let s = webapp();
        let mut o = json!({"spec": {"env": [{"name": "A"}]}});
        default(&s, &mut o);
        assert_eq!(o["spec"]["replicas"], 1);
        assert_eq!(o["spec"]["env"][0]["value"], "");
        let mut none = json!({});
        default(&s, &mut none);
        assert_eq!(none, json!({}), "no spec, no spec defaults");
    }

    #[test]
    fn rule_messages_are_checked_as_validation_go_checks_them() {
        let errs = |rule: Value| {
            parse(json!({"type": "object", "properties": {"spec": {
            "type": "object", "x-kubernetes-validations": [rule]}}}))
            .1
        };
        // An empty message is no message: the rule's own text is the failure's.
        assert!(errs(json!({"rule": "self.a > 1", "message": ""})).is_empty());
        assert!(
            errs(json!({"rule": "self.a > 1", "message": "  "}))[0]
                .ends_with("message must be non-empty if specified")
        );
        assert!(
            errs(json!({"rule": "self.a > 1", "message": " a\nb "}))[0]
                .ends_with("message must not contain line breaks")
        );
        // A multi-line rule needs a message, a messageExpression notwithstanding.
        let multi = errs(json!({"rule": "self.a >\n 1", "messageExpression": "'x'"}));
        assert_eq!(multi.len(), 1);
        assert!(multi[0].ends_with("message must be specified if rule contains line breaks"));
    }

    #[test]
    fn a_rule_that_does_not_compile_is_refused_with_the_rule_printed() {
        let (_, errs) = parse(
            json!({"type": "object", "properties": {"spec": {"type": "object",
            "x-kubernetes-validations": [{"rule": "self.a >"}, {"rule": "other > 1"}]}}}),
        );
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs[0].starts_with("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.a >\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:"), "{}", errs[0]);
        assert!(
            errs[1].contains("undeclared reference to 'other'"),
            "{}",
            errs[1]
        );
    }
}
