//! Labels and annotations as the API server checks them (apimachinery
//! `pkg/util/validation`: IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain; metav1
//! `ValidateLabels`, core `ValidateAnnotations`), in their words.

use serde_json::Value;

use crate::sim::output::go_quote;

/// IsQualifiedName's rule for the name part.
const QUALIFIED_NAME_RULE: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/// IsDNS1123Subdomain's rule, for a qualified name's prefix.
const DNS1123_SUBDOMAIN_RULE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// IsValidLabelValue's rule (kubectl's `label` checks values with the same words).
pub const LABEL_VALUE_RULE: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, whole.
fn qualified_name_part(s: &str) -> bool {
    let edge = |c: char| c.is_ascii_alphanumeric();
    s.starts_with(edge)
        && s.ends_with(edge)
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A valid label value: empty, or a qualified name part of at most 63 characters.
pub fn valid_label_value(v: &str) -> bool {
    v.is_empty() || (v.len() <= 63 && qualified_name_part(v))
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, whole.
fn is_dns1123_label(l: &str) -> bool {
    let edge = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    l.starts_with(edge)
        && l.ends_with(edge)
        && l.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

pub fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push("must be no more than 253 characters".to_string());
    }
    if !s.split('.').all(is_dns1123_label) {
        errs.push(DNS1123_SUBDOMAIN_RULE.to_string());
    }
    errs
}

/// IsDNS1123Label (a container's name): at most 63 characters, one label, no dots.
pub fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    if !is_dns1123_label(s) {
        errs.push(if s.split('.').all(is_dns1123_label) {
            "must not contain dots".to_string()
        } else {
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".to_string()
        });
    }
    errs
}

/// IsDNS1035Label: at most 63 characters, `[a-z]([-a-z0-9]*[a-z0-9])?`.
pub fn dns1035_label(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let ok = v.starts_with(|c: char| c.is_ascii_lowercase())
        && v.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && v.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok {
        errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')".to_string());
    }
    errs
}

/// IsQualifiedName: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63
/// characters.
pub fn qualified_name(value: &str) -> Vec<String> {
    let parts: Vec<&str> = value.split('/').collect();
    let mut errs = Vec::new();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a qualified name {QUALIFIED_NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    if !qualified_name_part(name) {
        errs.push(format!("name part {QUALIFIED_NAME_RULE}"));
    }
    errs
}

/// ValidateObjectMeta's label and annotation checks of an object's own metadata.
pub fn object_meta(errs: &mut Vec<String>, o: &Value) {
    labels(errs, "metadata.labels", o.pointer("/metadata/labels"));
    annotations(
        errs,
        "metadata.annotations",
        o.pointer("/metadata/annotations"),
    );
}

/// ValidateLabels at `path`: each key a qualified name, each value a label value (Go walks
/// the map in random order; the demo goes by key).
pub fn labels(errs: &mut Vec<String>, path: &str, labels: Option<&Value>) {
    for (k, v) in labels.and_then(Value::as_object).into_iter().flatten() {
        for m in qualified_name(k) {
            errs.push(format!("{path}: Invalid value: {}: {m}", go_quote(k)));
        }
        let v = v.as_str().unwrap_or("");
        if v.len() > 63 {
            errs.push(format!(
                "{path}: Invalid value: {}: must be no more than 63 characters",
                go_quote(v)
            ));
        }
        if !v.is_empty() && !qualified_name_part(v) {
            errs.push(format!(
                "{path}: Invalid value: {}: {LABEL_VALUE_RULE}",
                go_quote(v)
            ));
        }
    }
}

/// ValidateAnnotations at `path`: each key a qualified name, case aside.
pub fn annotations(errs: &mut Vec<String>, path: &str, annotations: Option<&Value>) {
    for k in annotations
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, _)| k)
    {
        for m in qualified_name(&k.to_lowercase()) {
            errs.push(format!("{path}: Invalid value: {}: {m}", go_quote(k)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_as_apimachinery_reads_them() {
        assert!(qualified_name("app").is_empty());
        assert!(qualified_name("example.com/app-name_1").is_empty());
        assert_eq!(
            qualified_name("bad key!"),
            [format!("name part {QUALIFIED_NAME_RULE}")]
        );
        assert_eq!(
            qualified_name("Example.com/x"),
            [format!("prefix part {DNS1123_SUBDOMAIN_RULE}")]
        );
        assert!(qualified_name("a/b/c")[0].starts_with("a qualified name must consist"));
        assert_eq!(
            qualified_name("/x"),
            ["prefix part must be non-empty".to_string()]
        );
        assert_eq!(
            qualified_name(&"x".repeat(64)),
            ["name part must be no more than 63 characters".to_string()]
        );
    }
}
