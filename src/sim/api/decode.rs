//! What the API server's handlers do with fields a kind does not declare, as the request's
//! `fieldValidation` asks (apiserver 1.32 `endpoints/handlers/{create,update,patch}.go`):
//! `Strict` refuses the request, `Warn` (the server's default when a client sends none,
//! `rest.go` fieldValidation) drops each field with a warning, `Ignore` drops them silently.
//! kubectl sends `Strict` from create, replace and apply unless `--validate` says otherwise,
//! and nothing from patch, scale, label or the rollout verbs.

use serde_json::Value;

use super::{ApiError, Fields, Reason};
use crate::sim::kind::Kind;
use crate::sim::output::{go_print, go_quote};
use crate::sim::schema::{self, FieldPath, decoder_path};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldValidation {
    Strict,
    Warn,
    Ignore,
}

impl FieldValidation {
    /// kubectl's `--validate` (cmdutil.GetValidationDirective): a boolean or a word.
    pub fn from_flag(value: &str) -> Result<Self, String> {
        match value {
            "strict" | "true" | "True" | "TRUE" | "t" | "T" | "1" => Ok(Self::Strict),
            "warn" => Ok(Self::Warn),
            "ignore" | "false" | "False" | "FALSE" | "f" | "F" | "0" => Ok(Self::Ignore),
            other => Err(format!(
                "error: invalid - validate option {}; must be one of: strict (or true), warn, ignore (or false)",
                go_quote(other)
            )),
        }
    }
}

/// Warnings the server sent back, in order (`Warning:` lines in kubectl).
pub type Warnings = Vec<String>;

fn messages(found: &[FieldPath]) -> Vec<String> {
    found
        .iter()
        .map(|p| format!("unknown field {}", go_quote(&decoder_path(p))))
        .collect()
}

fn strict_error(messages: &[String]) -> String {
    format!("strict decoding error: {}", messages.join(", "))
}

fn drop_or_warn(messages: Vec<String>, validation: FieldValidation) -> Warnings {
    match validation {
        FieldValidation::Warn => messages,
        _ => Vec::new(),
    }
}

/// A create or update body (create.go, update.go: the strict JSON decoder, then
/// transformDecodeError): unknown fields are named in the order the decoder meets them;
/// a custom kind's (the schemaCoercingDecoder's pruning) sorted.
pub fn decode_body(
    kind: Kind,
    fields: &Fields,
    obj: &mut Value,
    validation: FieldValidation,
) -> Result<Warnings, ApiError> {
    let (messages, version) = match fields {
        Fields::Custom { schema, version } => (
            custom_messages(&crate::sim::apiextensions::schema::prune(schema, obj)),
            version.as_str(),
        ),
        Fields::Builtin => (
            messages(&schema::prune(crate::sim::kinds::of(kind).schema(), obj)),
            "v1",
        ),
    };
    if messages.is_empty() {
        return Ok(Vec::new());
    }
    if validation == FieldValidation::Strict {
        return Err(ApiError {
            reason: Reason::BadRequest,
            message: format!(
                "{k} in version \"{version}\" cannot be handled as a {k}: {}",
                strict_error(&messages),
                k = kind.kind_name(),
            ),
        });
    }
    Ok(drop_or_warn(messages, validation))
}

/// The paths a custom kind's schema pruned, as unknown-field messages.
fn custom_messages(found: &[String]) -> Vec<String> {
    found
        .iter()
        .map(|p| format!("unknown field {}", go_quote(p)))
        .collect()
}

/// An object a strategic-merge patch produced (patch.go applyPatchToObject: the
/// unstructured converter, which sorts what it finds). A strict failure is an Invalid
/// error on the field `patch` whose value is the patch as Go prints a map.
pub fn decode_patched(
    kind: Kind,
    patched: &mut Value,
    patch: &Value,
    validation: FieldValidation,
) -> Result<Warnings, ApiError> {
    let found = schema::prune(crate::sim::kinds::of(kind).schema(), patched);
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let mut messages = messages(&found);
    messages.sort();
    if validation == FieldValidation::Strict {
        return Err(invalid_patch(&go_print(patch), &strict_error(&messages)));
    }
    Ok(drop_or_warn(messages, validation))
}

/// An object a JSON merge patch or JSON patch produced (patch.go jsonPatcher: the strict
/// JSON decoder over the patched document). The Invalid value is the patched JSON.
pub fn decode_json_patched(
    kind: Kind,
    fields: &Fields,
    patched: &mut Value,
    validation: FieldValidation,
) -> Result<Warnings, ApiError> {
    if let Fields::Custom { schema, .. } = fields {
        let mut pruned = patched.clone();
        let messages = custom_messages(&crate::sim::apiextensions::schema::prune(
            schema,
            &mut pruned,
        ));
        if messages.is_empty() {
            return Ok(Vec::new());
        }
        if validation == FieldValidation::Strict {
            return Err(invalid_patch(
                &patched.to_string(),
                &strict_error(&messages),
            ));
        }
        *patched = pruned;
        return Ok(drop_or_warn(messages, validation));
    }
    let found = schema::unknown(crate::sim::kinds::of(kind).schema(), patched);
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let messages = messages(&found);
    if validation == FieldValidation::Strict {
        return Err(invalid_patch(
            &patched.to_string(),
            &strict_error(&messages),
        ));
    }
    schema::prune(crate::sim::kinds::of(kind).schema(), patched);
    Ok(drop_or_warn(messages, validation))
}

/// `errors.NewInvalid(schema.GroupKind{}, "", {field.Invalid(field.NewPath("patch"), value,
/// detail)})` as kubectl 1.32 prints it (cmdutil checkErr): with no kind or name and a
/// cause, "The request is invalid: " and the cause alone; the status message, and with it
/// any context kubectl wrapped around it, is not printed.
fn invalid_patch(value: &str, detail: &str) -> ApiError {
    ApiError::invalid(format!(
        "The request is invalid: patch: Invalid value: {}: {detail}",
        go_quote(value)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strict_names_every_unknown_field_and_stores_nothing() {
        let mut d = json!({"spec": {"foo": 1, "template": {"spec": {"containers": [{"name": "a", "imagee": "x"}]}}}});
        let e = decode_body(
            Kind::Deployment,
            &Fields::Builtin,
            &mut d,
            FieldValidation::Strict,
        )
        .unwrap_err();
        assert_eq!(e.reason, Reason::BadRequest);
        assert_eq!(
            e.message,
            "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.foo\", unknown field \"spec.template.spec.containers[0].imagee\""
        );
    }

    #[test]
    fn warn_drops_and_warns_ignore_drops_silently() {
        let mut d = json!({"spec": {"replicas": 2, "foo": 1}});
        let w = decode_body(
            Kind::Deployment,
            &Fields::Builtin,
            &mut d,
            FieldValidation::Warn,
        )
        .unwrap();
        assert_eq!(w, ["unknown field \"spec.foo\""]);
        assert_eq!(d, json!({"spec": {"replicas": 2}}));
        let mut d = json!({"spec": {"replicas": 2, "foo": 1}});
        let w = decode_body(
            Kind::Deployment,
            &Fields::Builtin,
            &mut d,
            FieldValidation::Ignore,
        )
        .unwrap();
        assert!(w.is_empty());
        assert_eq!(d, json!({"spec": {"replicas": 2}}));
    }

    #[test]
    fn a_strict_strategic_patch_is_refused_with_the_patch_printed_as_go_prints_a_map() {
        let patch = json!({"spec": {"foo": 1000000, "paused": true, "x": [1.5, "a"], "y": null}});
        let mut patched = json!({"spec": {"foo": 1000000, "paused": true, "x": [1.5, "a"]}});
        let e = decode_patched(
            Kind::Deployment,
            &mut patched,
            &patch,
            FieldValidation::Strict,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "The request is invalid: patch: Invalid value: \"map[spec:map[foo:1000000 paused:true x:[1.5 a] y:<nil>]]\": strict decoding error: unknown field \"spec.foo\", unknown field \"spec.x\""
        );
    }

    #[test]
    fn validate_flag_words_follow_kubectl() {
        assert_eq!(
            FieldValidation::from_flag("true"),
            Ok(FieldValidation::Strict)
        );
        assert_eq!(
            FieldValidation::from_flag("false"),
            Ok(FieldValidation::Ignore)
        );
        assert_eq!(
            FieldValidation::from_flag("warn"),
            Ok(FieldValidation::Warn)
        );
        assert_eq!(
            FieldValidation::from_flag("yes").unwrap_err(),
            "error: invalid - validate option \"yes\"; must be one of: strict (or true), warn, ignore (or false)"
        );
    }
}
