//! kubectl's `-o jsonpath=...` (client-go `util/jsonpath`, missing keys allowed) over
//! `serde_json::Value`, with kubectl's error words.

mod eval;
mod parser;

use serde_json::Value;
use thiserror::Error;

use crate::sim::output::go_quote;

/// A parsed template.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonPath {
    template: String,
    nodes: Vec<parser::Node>,
}

/// kubectl's messages; the caller prints `error: ` before and one newline after.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JsonPathError {
    #[error("error parsing jsonpath {template}, {reason}")]
    Parse { template: String, reason: String },
    /// `object` is the Go `%#v` dump kubectl prints of the object it was given.
    #[error(
        "error executing jsonpath {}: Error executing template: {reason}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{object}\n\n",
        go_quote(template)
    )]
    Execute {
        template: String,
        reason: String,
        object: String,
    },
}

/// How deeply brackets, filters and `range` blocks may nest. client-go has no bound; the
/// parser and the evaluator recurse per level, and 25,000 nested `range`s overflowed the
/// stack.
pub const MAX_DEPTH: usize = 64;

/// Parses a template such as `{.items[*].metadata.name}`.
pub fn parse(template: &str) -> Result<JsonPath, JsonPathError> {
    let fail = |reason: String| JsonPathError::Parse {
        template: template.to_string(),
        reason,
    };
    let mut depth = 0usize;
    for c in template.chars() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_DEPTH {
            return Err(fail(format!("brackets nested more than {MAX_DEPTH} deep")));
        }
    }
    let nodes = parser::parse_template(template).map_err(fail)?;
    let mut ranges = 0usize;
    for node in &nodes {
        if let parser::Node::List(action) = node {
            match action.first() {
                Some(parser::Node::Identifier(id)) if id == "range" => ranges += 1,
                Some(parser::Node::Identifier(id)) if id == "end" => {
                    ranges = ranges.saturating_sub(1)
                }
                _ => {}
            }
        }
        if ranges > MAX_DEPTH {
            return Err(fail(format!(
                "range blocks nested more than {MAX_DEPTH} deep"
            )));
        }
    }
    Ok(JsonPath {
        template: template.to_string(),
        nodes,
    })
}

impl JsonPath {
    /// The text kubectl prints for `data` (no trailing newline is added).
    pub fn execute(&self, data: &Value) -> Result<String, JsonPathError> {
        eval::execute(&self.nodes, data).map_err(|reason| JsonPathError::Execute {
            template: self.template.clone(),
            reason,
            object: go_sharp_v(data),
        })
    }
}

impl JsonPath {
    /// The first value found in `data` (kubectl's `--sort-by`), or `None`.
    pub fn first(&self, data: &Value) -> Result<Option<Value>, JsonPathError> {
        eval::first(&self.nodes, data).map_err(|reason| JsonPathError::Execute {
            template: self.template.clone(),
            reason,
            object: go_sharp_v(data),
        })
    }
}

/// Go's `%#v` of the unstructured object (`map[string]interface {}{...}`, keys sorted).
fn go_sharp_v(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.is_f64() => {
            crate::sim::output::go_number::go_g_float(n.as_f64().unwrap_or(0.0))
        }
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_sharp_v).collect();
            format!("[]interface {{}}{{{}}}", parts.join(", "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}:{}", go_quote(k), go_sharp_v(v)))
                .collect();
            format!("map[string]interface {{}}{{{}}}", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests;
