//! CEL as the API server evaluates it for ValidatingAdmissionPolicies: an expression is
//! compiled once per request and run with the request's variables bound (`object`,
//! `oldObject`, `request`, `params`, `namespaceObject`). The language is the `cel` crate
//! (cel-rust); Kubernetes' own extension libraries (quantities, URLs, authorizer checks)
//! are not there, and an expression that calls one fails to run, which the policy's
//! failurePolicy then decides. Expressions are not type-checked against the schema
//! (kube-apiserver reports that in the policy's status.typeChecking).

use cel::objects::Value as Cel;
use cel::{Context, ExecutionError, Program};
use serde_json::Value;

/// A compiled expression.
pub struct Expression(Program);

/// The first standalone occurrence of identifier `name` in `source` (not after a `.`).
fn position(source: &str, name: &str) -> usize {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    source
        .match_indices(name)
        .find(|(i, _)| {
            let before = source[..*i].chars().next_back();
            let after = source[i + name.len()..].chars().next();
            before.is_none_or(|c| !ident(c) && c != '.') && after.is_none_or(|c| !ident(c))
        })
        .map_or(0, |(i, _)| i)
}

/// The variables a comprehension binds (`list.all(c, ...)`): declared inside it.
fn comprehension_variables(source: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for m in ["all(", "exists(", "exists_one(", "map(", "filter("] {
        for (i, _) in source.match_indices(m) {
            let rest = &source[i + m.len()..];
            if let Some((name, _)) = rest.split_once(',') {
                let name = name.trim();
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// Compiles `source` in an environment that declares `declared`: a reference to any
/// other variable is refused as cel-go's checker refuses it.
pub fn compile_declared(source: &str, declared: &[&str]) -> Result<Expression, String> {
    let e = compile(source)?;
    let bound = comprehension_variables(source);
    let mut undeclared: Vec<&str> = stacker::grow(STACK, || {
        e.0.references()
            .variables()
            .into_iter()
            .filter(|v| !declared.contains(v) && !bound.contains(v))
            .map(|v| {
                // A name of the source's own, so it outlives the references walk.
                let at = position(source, v);
                &source[at..at + v.len()]
            })
            .collect()
    });
    undeclared.sort_by_key(|v| position(source, v));
    if let Some(v) = undeclared.first() {
        let at = position(source, v);
        let line = source[..at].matches('\n').count() + 1;
        let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
        let col = at - line_start;
        let text = source.lines().nth(line - 1).unwrap_or("");
        return Err(format!(
            "ERROR: <input>:{line}:{}: undeclared reference to '{v}' (in container '')\n | {text}\n | {}^",
            col + 1,
            ".".repeat(col)
        ));
    }
    Ok(e)
}

/// The stack a compile or an evaluation runs on. cel-rust's parser and interpreter
/// recurse once or more per nesting level and per operator, with large frames in debug
/// builds (16 nested parentheses overflow a test thread's 2 MiB), so each runs on a
/// stack of its own; only the pages it touches are committed.
const STACK: usize = 256 << 20;

/// How deep brackets may nest, and how many operators an expression may hold: the most
/// the stack above holds with room to spare (cel-go stops at a recursion depth of its
/// own, which long operator chains also count against).
const MAX_NESTING: usize = 64;
const MAX_OPERATORS: usize = 250;

/// The deepest bracket nesting and the operator count of `source`, string literals
/// skipped.
fn shape(source: &str) -> (usize, usize) {
    let (mut depth, mut deepest, mut operators) = (0usize, 0usize, 0usize);
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' => {
                while let Some(x) = chars.next() {
                    if x == '\\' {
                        chars.next();
                    } else if x == c {
                        break;
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '+' | '-' | '*' | '/' | '%' | '<' | '>' | '!' | '?' => operators += 1,
            '=' | '&' | '|' if chars.peek() == Some(&c) => {
                chars.next();
                operators += 1;
            }
            _ => {}
        }
    }
    (deepest, operators)
}

/// Compiles `source`, or says why not in cel-go's format (`ERROR: <input>:1:24: ...`).
pub fn compile(source: &str) -> Result<Expression, String> {
    let (deepest, operators) = shape(source);
    if deepest > MAX_NESTING {
        return Err(format!(
            "kubedrill's demo compiles CEL nested at most {MAX_NESTING} deep; this expression nests {deepest} deep"
        ));
    }
    if operators > MAX_OPERATORS {
        return Err(format!(
            "kubedrill's demo compiles CEL with at most {MAX_OPERATORS} operators; this expression has {operators}"
        ));
    }
    // cel-go indents the source and caret lines one space more than cel-rust.
    stacker::grow(STACK, || {
        Program::compile(source)
            .map(Expression)
            .map_err(|e| e.to_string().replace("\n| ", "\n | "))
    })
}

/// A JSON value as CEL sees a decoded object: maps, lists, int64 where the number is
/// whole, double otherwise.
fn to_cel(v: &Value) -> Cel {
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Cel::Int(i),
            None => Cel::Float(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => Cel::String(s.clone().into()),
        Value::Array(a) => Cel::List(a.iter().map(to_cel).collect::<Vec<_>>().into()),
        Value::Object(m) => {
            let map: std::collections::HashMap<String, Cel> =
                m.iter().map(|(k, v)| (k.clone(), to_cel(v))).collect();
            Cel::Map(map.into())
        }
    }
}

/// A CEL value back as JSON (a variable's value, a messageExpression's string); what JSON
/// cannot hold (bytes, durations, functions) is null.
fn to_json(c: &Cel) -> Value {
    match c {
        Cel::Null => Value::Null,
        Cel::Bool(b) => Value::Bool(*b),
        Cel::Int(i) => Value::from(*i),
        Cel::UInt(u) => Value::from(*u),
        Cel::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Cel::String(s) => Value::String(s.to_string()),
        Cel::List(l) => Value::Array(l.iter().map(to_json).collect()),
        Cel::Map(m) => Value::Object(
            m.map
                .iter()
                .map(|(k, v)| (key_string(k), to_json(v)))
                .collect(),
        ),
        _ => Value::Null,
    }
}

fn key_string(k: &cel::objects::Key) -> String {
    match k {
        cel::objects::Key::String(s) => s.to_string(),
        cel::objects::Key::Int(i) => i.to_string(),
        cel::objects::Key::Uint(u) => u.to_string(),
        cel::objects::Key::Bool(b) => b.to_string(),
    }
}

/// cel-go's words for a runtime error where they differ from cel-rust's.
fn runtime_error(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        other => other.to_string(),
    }
}

impl Expression {
    /// Whether the expression reads the variable `name`.
    pub fn references(&self, name: &str) -> bool {
        stacker::grow(STACK, || self.0.references().has_variable(name))
    }

    /// Runs the expression; `Ok(value)` is what it evaluated to, as JSON.
    pub fn eval(&self, vars: &[(&str, &Value)]) -> Result<Cel, String> {
        stacker::grow(STACK, || {
            let mut ctx = Context::default();
            for (name, value) in vars {
                ctx.add_variable_from_value(*name, to_cel(value));
            }
            self.0.execute(&ctx).map_err(|e| runtime_error(&e))
        })
    }

    /// Runs the expression, its value as JSON.
    pub fn eval_json(&self, vars: &[(&str, &Value)]) -> Result<Value, String> {
        self.eval(vars).map(|c| to_json(&c))
    }

    /// Runs a validation: true, false, or why it could not say (including a value that
    /// is not a bool).
    pub fn check(&self, vars: &[(&str, &Value)]) -> Result<bool, String> {
        match self.eval(vars)? {
            Cel::Bool(b) => Ok(b),
            // A validation's static type is bool in Kubernetes; a dyn value that is not
            // true counts as a failure.
            _ => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn deep_or_long_expressions_are_refused_and_nesting_within_the_limit_runs() {
        let deep = format!("{}true{}", "(".repeat(65), ")".repeat(65));
        assert!(
            compile(&deep)
                .err()
                .unwrap()
                .contains("nested at most 64 deep")
        );
        let long = format!("1{} == 0", " + 1".repeat(300));
        assert!(
            compile(&long)
                .err()
                .unwrap()
                .contains("at most 250 operators")
        );
        // Within the limits, on a test thread's small stack.
        let nested = format!("{}true{}", "(".repeat(40), ")".repeat(40));
        assert_eq!(compile(&nested).unwrap().check(&[]), Ok(true));
        let chain = format!("1{} == 201", " + 1".repeat(200));
        assert_eq!(compile(&chain).unwrap().check(&[]), Ok(true));
        // Brackets and operators inside a string are text.
        assert_eq!(shape("'((((+' + \"]]\""), (0, 1));
    }

    #[test]
    fn validations_read_the_object_as_json() {
        let obj = json!({"metadata": {"labels": {"app": "web"}},
            "spec": {"replicas": 7, "template": {"spec": {"containers": [{"image": "nginx:1.27"}]}}}});
        let run = |src: &str| compile(src).unwrap().check(&[("object", &obj)]);
        assert_eq!(run("object.spec.replicas <= 5"), Ok(false));
        assert_eq!(run("has(object.metadata.labels.team)"), Ok(false));
        assert_eq!(run("'app' in object.metadata.labels"), Ok(true));
        assert_eq!(
            run("object.spec.template.spec.containers.all(c, c.image.startsWith('nginx'))"),
            Ok(true)
        );
        assert_eq!(
            run("object.metadata.name.matches('^w')").map_err(|_| ()),
            Err(())
        );
        assert_eq!(
            run("object.metadata.labels.team == 'x'"),
            Err("no such key: team".into())
        );
        assert_eq!(
            run("object.spec.replicas"),
            Ok(false),
            "not true: a failure"
        );
    }

    #[test]
    fn an_undeclared_variable_is_refused_and_comprehension_variables_are_not() {
        let vars = ["object", "oldObject"];
        let ok = "object.spec.containers.all(c, c.image != '')";
        assert!(compile_declared(ok, &vars).is_ok());
        let e = compile_declared("object.spec.replicas > 1 && variables.x", &vars)
            .err()
            .unwrap();
        assert_eq!(
            e,
            "ERROR: <input>:1:29: undeclared reference to 'variables' (in container '')\n | object.spec.replicas > 1 && variables.x\n | ............................^"
        );
    }

    #[test]
    fn a_syntax_error_names_line_and_column() {
        let e = compile("object.spec.replicas + ").err().unwrap();
        assert!(e.starts_with("ERROR: <input>:1:24: Syntax error"), "{e}");
    }
}
