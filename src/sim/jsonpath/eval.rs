//! Evaluation as client-go's `util/jsonpath/jsonpath.go` does it, with missing keys allowed
//! (kubectl's `-o jsonpath`). Map iteration (`*`, `..`) is in key order, where Go's is random.

use super::parser::{Node, Param};
use crate::sim::output::go_number::go_g_float;
use crate::sim::output::to_json_compact;
use serde_json::Value;
use std::cmp::Ordering;

/// A value reached while walking: borrowed from the input, or made by the template.
#[derive(Debug, Clone)]
pub enum Item<'a> {
    Ref(&'a Value),
    Owned(Value),
}

impl Item<'_> {
    fn value(&self) -> &Value {
        match self {
            Item::Ref(v) => v,
            Item::Owned(v) => v,
        }
    }
}

#[derive(Default)]
struct State {
    in_range: usize,
    begin_range: usize,
    end_range: usize,
    /// Index (in the current node slice) of the last `end` met, to resume after a range.
    last_end: Option<usize>,
    /// Values produced so far, against [`MAX_VALUES`].
    produced: usize,
}

/// Values one template may produce. Nested ranges over `..*` multiply: a few levels over
/// a large object would run for hours and fill memory; real templates stay far below.
pub const MAX_VALUES: usize = 2_000_000;

/// Bytes one template may print: values are whole subtrees, so fewer values than
/// [`MAX_VALUES`] can still print gigabytes (found by fuzzing).
pub const MAX_OUTPUT: usize = 16 << 20;

/// Runs the top-level nodes against `data` and prints the results.
pub fn execute(nodes: &[Node], data: &Value) -> Result<String, String> {
    let mut state = State::default();
    let results = find_results(&mut state, nodes, 0, Item::Ref(data))?;
    let mut out = String::new();
    for set in results {
        print_results(&mut out, &set);
        if out.len() > MAX_OUTPUT {
            return Err(format!(
                "the template prints more than {} MiB; kubedrill stops there",
                MAX_OUTPUT >> 20
            ));
        }
    }
    Ok(out)
}

/// The first value the template finds in `data`, as kubectl's `--sort-by` reads it
/// (`findJSONPathResults`, then `[0][0]`); `None` when it finds nothing.
pub fn first(nodes: &[Node], data: &Value) -> Result<Option<Value>, String> {
    let mut state = State::default();
    let results = find_results(&mut state, nodes, 0, Item::Ref(data))?;
    Ok(results
        .first()
        .and_then(|set| set.first())
        .map(|item| item.value().clone()))
}

/// `FindResults`: one result set per node; a `range` re-runs the following nodes per item.
/// `base` is the offset of `nodes` in the template so `end` positions stay comparable.
fn find_results<'a>(
    state: &mut State,
    nodes: &[Node],
    base: usize,
    data: Item<'a>,
) -> Result<Vec<Vec<Item<'a>>>, String> {
    let mut full = Vec::new();
    let cur = vec![data];
    let mut i = 0;
    while i < nodes.len() {
        let results = walk(state, &cur, &nodes[i])?;
        state.produced += results.len() + 1;
        if state.produced > MAX_VALUES {
            return Err(format!(
                "the template produces more than {MAX_VALUES} values; kubedrill stops there"
            ));
        }
        if state.end_range > 0 && state.end_range <= state.in_range {
            state.end_range -= 1;
            state.last_end = Some(base + i);
            break;
        }
        if state.begin_range > 0 {
            state.begin_range -= 1;
            state.in_range += 1;
            let rest = &nodes[i + 1..];
            if results.is_empty() {
                find_results(state, rest, base + i + 1, Item::Owned(Value::Null))?;
            } else {
                for item in results {
                    full.extend(find_results(state, rest, base + i + 1, item)?);
                }
            }
            state.in_range -= 1;
            if let Some(end) = state.last_end
                && end > base + i
            {
                i = end - base;
            }
            i += 1;
            continue;
        }
        full.push(results);
        i += 1;
    }
    Ok(full)
}

fn print_results(out: &mut String, results: &[Item]) {
    for (i, r) in results.iter().enumerate() {
        match r.value() {
            v @ (Value::Object(_) | Value::Array(_)) => out.push_str(&to_json_compact(v)),
            Value::String(s) => out.push_str(s),
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) if n.is_f64() => out.push_str(&go_g_float(n.as_f64().unwrap_or(0.0))),
            Value::Number(n) => out.push_str(&n.to_string()),
        }
        if i + 1 != results.len() {
            out.push(' ');
        }
    }
}

fn walk<'a>(state: &mut State, input: &[Item<'a>], node: &Node) -> Result<Vec<Item<'a>>, String> {
    match node {
        Node::List(nodes) => eval_list(state, input, nodes),
        Node::Text(t) => Ok(vec![Item::Owned(Value::String(t.clone()))]),
        Node::Field(name) => Ok(eval_field(input, name)),
        Node::Array(params) => eval_array(input, params),
        Node::Filter { left, right, op } => eval_filter(state, input, left, right, op),
        Node::Int(i) => Ok(input.iter().map(|_| Item::Owned(Value::from(*i))).collect()),
        Node::Float(f) => Ok(input.iter().map(|_| Item::Owned(Value::from(*f))).collect()),
        Node::Bool(b) => Ok(input.iter().map(|_| Item::Owned(Value::Bool(*b))).collect()),
        Node::Wildcard => Ok(eval_wildcard(input)),
        Node::Recursive => Ok(eval_recursive(input)),
        Node::Union(lists) => {
            let mut out = Vec::new();
            for list in lists {
                out.extend(eval_list(state, input, list)?);
            }
            Ok(out)
        }
        Node::Identifier(id) => match id.as_str() {
            "range" => {
                state.begin_range += 1;
                Ok(input.to_vec())
            }
            "end" if state.in_range > 0 => {
                state.end_range += 1;
                Ok(input.to_vec())
            }
            "end" => Err("not in range, nothing to end".into()),
            other => Err(format!("unrecognized identifier {other}")),
        },
    }
}

fn eval_list<'a>(
    state: &mut State,
    input: &[Item<'a>],
    nodes: &[Node],
) -> Result<Vec<Item<'a>>, String> {
    let mut cur = input.to_vec();
    for node in nodes {
        cur = walk(state, &cur, node)?;
    }
    Ok(cur)
}

fn child<'a>(item: &Item<'a>, pick: impl Fn(&Value) -> Option<&Value>) -> Option<Item<'a>> {
    match item {
        Item::Ref(v) => pick(v).map(Item::Ref),
        Item::Owned(v) => pick(v).cloned().map(Item::Owned),
    }
}

fn children<'a>(item: &Item<'a>) -> Vec<Item<'a>> {
    match item {
        Item::Ref(Value::Object(m)) => m.values().map(Item::Ref).collect(),
        Item::Ref(Value::Array(a)) => a.iter().map(Item::Ref).collect(),
        Item::Owned(Value::Object(m)) => m.values().cloned().map(Item::Owned).collect(),
        Item::Owned(Value::Array(a)) => a.iter().cloned().map(Item::Owned).collect(),
        _ => Vec::new(),
    }
}

fn eval_field<'a>(input: &[Item<'a>], name: &str) -> Vec<Item<'a>> {
    input
        .iter()
        .filter_map(|item| child(item, |v| v.as_object().and_then(|m| m.get(name))))
        .collect()
}

fn eval_wildcard<'a>(input: &[Item<'a>]) -> Vec<Item<'a>> {
    input.iter().flat_map(children).collect()
}

fn eval_recursive<'a>(input: &[Item<'a>]) -> Vec<Item<'a>> {
    let mut out = Vec::new();
    for item in input {
        let kids = children(item);
        if !kids.is_empty() {
            out.push(item.clone());
            out.extend(eval_recursive(&kids));
        }
    }
    out
}

fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Object(_) => "map[string]interface {}",
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::Null | Value::Array(_) => "interface {}",
    }
}

fn eval_array<'a>(input: &[Item<'a>], params: &[Param; 3]) -> Result<Vec<Item<'a>>, String> {
    let mut out = Vec::new();
    for item in input {
        let v = item.value();
        if v.is_null() {
            continue;
        }
        let Some(arr) = v.as_array() else {
            return Err(format!("{} is not array or slice", go_type(v)));
        };
        let len = arr.len() as i64;
        let mut p = *params;
        if !p[0].known {
            p[0].value = 0;
        }
        if p[0].value < 0 {
            p[0].value += len;
        }
        if !p[1].known {
            p[1].value = len;
        }
        if p[1].value < 0 || (p[1].value == 0 && p[1].derived) {
            p[1].value += len;
        }
        if p[1].value == p[0].value {
            // Zero elements asked: client-go returns what it has, skipping later inputs.
            return Ok(out);
        }
        if p[0].value >= len || p[0].value < 0 {
            return Err(format!(
                "array index out of bounds: index {}, length {len}",
                p[0].value
            ));
        }
        if p[1].value > len || p[1].value < 0 {
            return Err(format!(
                "array index out of bounds: index {}, length {len}",
                p[1].value - 1
            ));
        }
        if p[0].value > p[1].value {
            return Err(format!(
                "starting index {} is greater than ending index {}",
                p[0].value, p[1].value
            ));
        }
        let step = if p[2].known {
            if p[2].value <= 0 {
                return Err("step must be > 0".into());
            }
            p[2].value as usize
        } else {
            1
        };
        let (from, to) = (p[0].value as usize, p[1].value as usize);
        for idx in (from..to).step_by(step) {
            if let Some(c) = child(item, |v| v.as_array().and_then(|a| a.get(idx))) {
                out.push(c);
            }
        }
    }
    Ok(out)
}

fn eval_filter<'a>(
    state: &mut State,
    input: &[Item<'a>],
    left: &[Node],
    right: &[Node],
    op: &str,
) -> Result<Vec<Item<'a>>, String> {
    let mut out = Vec::new();
    for item in input {
        let v = item.value();
        if !v.is_array() {
            return Err(format!(
                "{} is not array or slice and cannot be filtered",
                go_value(v)
            ));
        }
        for element in children(item) {
            let temp = [element.clone()];
            let lefts = eval_list(state, &temp, left);
            if op == "exists" {
                if lefts.is_ok_and(|l| !l.is_empty()) {
                    out.push(element);
                }
                continue;
            }
            let lefts = lefts?;
            let l = match lefts.as_slice() {
                [] => continue,
                [one] => one.value().clone(),
                _ => return Err("can only compare one element at a time".into()),
            };
            let rights = eval_list(state, &temp, right)?;
            let r = match rights.as_slice() {
                [] => continue,
                [one] => one.value().clone(),
                _ => return Err("can only compare one element at a time".into()),
            };
            let pass = match op {
                "==" => equal(&l, &r)?,
                "!=" => !equal(&l, &r)?,
                "<" => less(&l, &r)? == Ordering::Less,
                ">" => less(&l, &r)? == Ordering::Greater,
                "<=" => less(&l, &r)? != Ordering::Greater,
                ">=" => less(&l, &r)? != Ordering::Less,
                other => return Err(format!("unrecognized filter operator {other}")),
            };
            if pass {
                out.push(element);
            }
        }
    }
    Ok(out)
}

/// A short `%v` of a value for error text.
fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => to_json_compact(other),
    }
}

/// The forked text/template `eq`: same basic kind required (ints and floats differ).
fn equal(l: &Value, r: &Value) -> Result<bool, String> {
    match (l, r) {
        (Value::Bool(a), Value::Bool(b)) => Ok(a == b),
        (Value::String(a), Value::String(b)) => Ok(a == b),
        (Value::Number(a), Value::Number(b)) if a.is_f64() == b.is_f64() => {
            Ok(a.as_f64() == b.as_f64())
        }
        (Value::Number(_), Value::Number(_))
        | (Value::Bool(_), Value::String(_) | Value::Number(_))
        | (Value::String(_), Value::Bool(_) | Value::Number(_))
        | (Value::Number(_), Value::Bool(_) | Value::String(_)) => {
            Err("incompatible types for comparison".into())
        }
        _ => Err("invalid type for comparison".into()),
    }
}

/// The forked text/template `lt` family: strings and numbers of the same kind only.
fn less(l: &Value, r: &Value) -> Result<Ordering, String> {
    match (l, r) {
        (Value::String(a), Value::String(b)) => Ok(a.cmp(b)),
        (Value::Number(a), Value::Number(b)) if a.is_f64() == b.is_f64() => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            Ok(x.partial_cmp(&y).unwrap_or(Ordering::Equal))
        }
        (Value::String(_) | Value::Number(_), Value::String(_) | Value::Number(_)) => {
            Err("incompatible types for comparison".into())
        }
        _ => Err("invalid type for comparison".into()),
    }
}
