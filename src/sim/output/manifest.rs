//! Reading manifests (`-f`): YAML or JSON, several documents separated by `---`.

use serde::Deserialize;
use serde_json::Value;
use thiserror::Error;

/// A manifest that does not parse. Display matches the shape of kubectl's inner message; the
/// caller prefixes `error: error parsing <file>: `.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("error converting YAML to JSON: yaml: line {line}: {message}")]
pub struct ManifestError {
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column of the problem.
    pub column: usize,
    pub message: String,
}

/// Parses every non-empty document of `text` into a JSON value.
pub fn parse_manifest(text: &str) -> Result<Vec<Value>, ManifestError> {
    too_deep(text)?;
    let mut docs = Vec::new();
    for doc in serde_norway::Deserializer::from_str(text) {
        let value = Value::deserialize(doc).map_err(|e| yaml_error(&e))?;
        // kubectl skips empty documents (a leading or trailing `---`).
        if !value.is_null() {
            docs.push(value);
        }
    }
    Ok(docs)
}

/// serde_norway refuses values nested deeper than this, but only after libyaml has parsed
/// the whole text, which takes quadratic time in flow nesting (`{"a":{"a":...` 100,000
/// deep did not finish). Refused here first, in one pass.
const MAX_FLOW_DEPTH: usize = 128;

/// The first `[` or `{` nested deeper than [`MAX_FLOW_DEPTH`], outside quotes and comments.
fn too_deep(text: &str) -> Result<(), ManifestError> {
    let (mut depth, mut line, mut column) = (0usize, 1, 0);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut comment = false;
    let mut prev = '\n';
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
            comment = false;
        } else if comment {
        } else if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if q == '"' && c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
        } else {
            match c {
                '"' | '\'' => quote = Some(c),
                '#' if prev.is_whitespace() => comment = true,
                '[' | '{' => {
                    depth += 1;
                    if depth > MAX_FLOW_DEPTH {
                        return Err(ManifestError {
                            line,
                            column,
                            message: format!(
                                "recursion limit exceeded: nested more than {MAX_FLOW_DEPTH} levels deep"
                            ),
                        });
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        prev = c;
    }
    Ok(())
}

fn yaml_error(e: &serde_norway::Error) -> ManifestError {
    let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
    let full = e.to_string();
    // serde_norway appends " at line L column C"; the line is already in our prefix.
    let message = match full.find(" at line ") {
        Some(pos) => full[..pos].to_string(),
        None => full,
    };
    ManifestError {
        line,
        column,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deep_flow_nesting_is_refused_at_once_with_its_place() {
        let deep = format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
        let e = parse_manifest(&deep).unwrap_err();
        assert_eq!((e.line, e.column), (1, 5 * MAX_FLOW_DEPTH + 1));
        assert!(e.message.starts_with("recursion limit exceeded"));
        // Brackets in quotes and comments are text, and 128 levels still parse.
        let quoted = format!(
            "a: \"{}\" # {}\nb: '{}'",
            "[".repeat(500),
            "{".repeat(500),
            "{".repeat(500)
        );
        assert_eq!(parse_manifest(&quoted).unwrap().len(), 1);
        let ok = format!(
            "{}1{}",
            "[".repeat(MAX_FLOW_DEPTH - 1),
            "]".repeat(MAX_FLOW_DEPTH - 1)
        );
        assert!(parse_manifest(&ok).is_ok());
    }

    #[test]
    fn multi_document_yaml() {
        let text = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\n---\nkind: Pod\n";
        let docs = parse_manifest(text).expect("parses");
        assert_eq!(
            docs,
            [
                json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}}),
                json!({"kind": "Pod"})
            ]
        );
    }

    #[test]
    fn json_and_scalars() {
        let docs = parse_manifest(r#"{"kind": "Deployment", "spec": {"replicas": 3}}"#);
        assert_eq!(
            docs,
            Ok(vec![json!({"kind": "Deployment", "spec": {"replicas": 3}})])
        );
        let docs = parse_manifest("a: \"1\"\nb: 1\nc: 1.5\nd: true\ne: null\nf: |\n  x\n");
        assert_eq!(
            docs,
            Ok(vec![
                json!({"a": "1", "b": 1, "c": 1.5, "d": true, "e": null, "f": "x\n"})
            ])
        );
    }

    #[test]
    fn kubectl_output_round_trips() {
        let yaml = include_str!("testdata/server.kubectl.yaml");
        let json: Value =
            serde_json::from_str(include_str!("testdata/server.kubectl.json")).expect("json");
        assert_eq!(parse_manifest(yaml), Ok(vec![json]));
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse_manifest("kind: Pod\nmetadata:\n  name: a: b\n").expect_err("bad yaml");
        assert_eq!(err.line, 3);
        // kubectl: "error: error parsing bad.yaml: error converting YAML to JSON: yaml: line 3:
        // mapping values are not allowed in this context".
        assert_eq!(
            err.to_string(),
            "error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context"
        );
        let err = parse_manifest("a: 'x\n").expect_err("unterminated");
        assert!(err.line >= 1);
    }
}
