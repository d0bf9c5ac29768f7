//! The challenge goal language (docs/goals.md): a small boolean expression over the live
//! objects and the demo's history, parsed once and evaluated every simulated second.

use std::fmt;
use std::ops::Range;

use serde_json::Value;
use thiserror::Error;

mod paths;

#[derive(Debug, Clone, PartialEq, Error)]
#[error("{message}")]
pub struct GoalError {
    /// Byte range in the goal text.
    pub span: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    Deploy,
    Rs,
    NewRs,
    OldRs,
    /// The PodDisruptionBudget `web` (scenarios whose files hold one).
    Pdb,
    /// The StatefulSet `web` (the statefulset scenario).
    Sts,
    /// The DaemonSet `agent` (the daemonset scenario).
    Ds,
    /// The HorizontalPodAutoscaler `web` (the hpa and field-fight scenarios).
    Hpa,
    /// The WebApp `shop` (the operator scenario).
    WebApp,
    /// The CustomResourceDefinition webapps.example.com (the operator scenario).
    Crd,
}

impl Root {
    const NAMES: &[(&str, Root)] = &[
        ("deploy", Root::Deploy),
        ("rs", Root::Rs),
        ("newrs", Root::NewRs),
        ("oldrs", Root::OldRs),
        ("pdb", Root::Pdb),
        ("sts", Root::Sts),
        ("ds", Root::Ds),
        ("hpa", Root::Hpa),
        ("webapp", Root::WebApp),
        ("crd", Root::Crd),
    ];
}

/// One step of a path: a field, or `[Type]` picking a list item by its `type` field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Field(String),
    ByType(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    pub root: Root,
    pub steps: Vec<Step>,
}

impl Path {
    /// The value at this path inside `obj`, or null.
    pub fn lookup<'a>(&self, obj: &'a Value) -> Option<&'a Value> {
        let mut cur = obj;
        for step in &self.steps {
            cur = match step {
                Step::Field(f) => cur.get(f)?,
                Step::ByType(t) => cur
                    .as_array()?
                    .iter()
                    .find(|item| item.get("type").and_then(Value::as_str) == Some(t))?,
            };
        }
        Some(cur)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let root = Root::NAMES
            .iter()
            .find(|(_, r)| *r == self.root)
            .map_or("?", |(n, _)| n);
        f.write_str(root)?;
        for s in &self.steps {
            match s {
                Step::Field(x) if x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                    write!(f, ".{x}")?
                }
                Step::Field(x) => write!(f, "[{x:?}]")?,
                Step::ByType(t) => write!(f, "[{t}]")?,
            }
        }
        Ok(())
    }
}

/// Calls, each with its argument kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Pods,
    ReplicaSets,
    Events,
    Errors,
    Ran,
    Deleted,
    Created,
    Changes,
    Stable,
    Managers,
    Owner,
    Controller,
    Trigger,
    Dropped,
    Forged,
    Time,
    Deployments,
    Orphans,
    Survivors,
    Annotated,
    Nodes,
    Endpoints,
    Traffic,
    Restarts,
    StatefulSets,
    Claims,
    Jobs,
    Revisions,
    Utilization,
    Leader,
    Lost,
    Takeovers,
    Webhooks,
    Admission,
    Operator,
    Stored,
    Served,
    Encoded,
    Etcd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arg {
    Str,
    OptStr,
    Value,
    Num,
}

impl Func {
    const ALL: &[(&str, Func, &[Arg])] = &[
        ("pods", Func::Pods, &[Arg::OptStr]),
        ("replicasets", Func::ReplicaSets, &[]),
        ("events", Func::Events, &[Arg::Str]),
        ("errors", Func::Errors, &[Arg::Str]),
        ("ran", Func::Ran, &[Arg::Str]),
        ("deleted", Func::Deleted, &[Arg::Str]),
        ("created", Func::Created, &[Arg::Str]),
        ("changes", Func::Changes, &[Arg::Value]),
        ("stable", Func::Stable, &[Arg::Value, Arg::Num]),
        ("forged", Func::Forged, &[]),
        ("managers", Func::Managers, &[Arg::Str]),
        ("owner", Func::Owner, &[Arg::Str]),
        ("controller", Func::Controller, &[Arg::Str]),
        ("trigger", Func::Trigger, &[Arg::Str]),
        ("dropped", Func::Dropped, &[]),
        ("time", Func::Time, &[]),
        ("deployments", Func::Deployments, &[]),
        ("orphans", Func::Orphans, &[Arg::Str]),
        ("survivors", Func::Survivors, &[]),
        ("annotated", Func::Annotated, &[Arg::Str]),
        ("nodes", Func::Nodes, &[Arg::OptStr]),
        ("endpoints", Func::Endpoints, &[Arg::OptStr]),
        ("traffic", Func::Traffic, &[Arg::Str]),
        ("restarts", Func::Restarts, &[]),
        ("statefulsets", Func::StatefulSets, &[]),
        ("claims", Func::Claims, &[Arg::OptStr]),
        ("jobs", Func::Jobs, &[Arg::OptStr]),
        ("revisions", Func::Revisions, &[]),
        ("utilization", Func::Utilization, &[]),
        ("leader", Func::Leader, &[]),
        ("lost", Func::Lost, &[]),
        ("takeovers", Func::Takeovers, &[]),
        ("webhooks", Func::Webhooks, &[Arg::OptStr]),
        ("admission", Func::Admission, &[Arg::Str]),
        ("operator", Func::Operator, &[Arg::Str]),
        ("stored", Func::Stored, &[Arg::Str]),
        ("served", Func::Served, &[Arg::Str]),
        ("encoded", Func::Encoded, &[Arg::Str]),
        ("etcd", Func::Etcd, &[Arg::Str]),
    ];

    /// Allowed string arguments, where the set is closed.
    fn choices(self) -> Option<&'static [&'static str]> {
        match self {
            // Plus `node:NAME`, checked where the argument is (see `valid_choice`).
            Func::Pods => Some(&[
                "ready",
                "pending",
                "running",
                "terminating",
                "unscheduled",
                "crashloop",
                "startup-probe",
            ]),
            Func::Deleted | Func::Created => Some(&["pods"]),
            Func::Orphans => Some(&["pods", "replicasets"]),
            Func::Nodes => Some(&["ready", "notready", "unschedulable", "tainted"]),
            Func::Endpoints => Some(&["ready", "notready", "serving", "terminating"]),
            Func::Traffic => Some(&["answered", "failed"]),
            Func::Webhooks => Some(&["Fail", "Ignore", "reachable"]),
            Func::Admission => Some(&[
                "refused",
                "denied",
                "failed-open",
                "timeouts",
                "mutated",
                "policy-denied",
            ]),
            Func::Operator => Some(&[
                "rate",
                "leaked",
                "running",
                "throttled",
                "hot-loop",
                "status-update",
                "no-finalizer",
            ]),
            Func::Claims => Some(&["bound", "terminating", "unused"]),
            Func::Jobs => Some(&[
                "running",
                "complete",
                "failed",
                "failuretarget",
                "suspended",
                "terminating",
            ]),
            Func::Controller | Func::Trigger => Some(&[
                "deployment",
                "replicaset",
                "kubelet",
                "scheduler",
                "node-lifecycle",
                "taint-eviction",
                "disruption",
                "endpoints",
                "endpointslice",
                "statefulset",
                "volume",
                "daemonset",
                "job",
                "ttl-after-finished",
                "cronjob",
                "autoscaler",
                "gitops",
            ]),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum CallArg {
    Str(String),
    /// A path or a nested call whose value is tracked over time (`changes`, `stable`).
    Value(Box<Operand>),
    Num(f64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Num(f64),
    Str(String),
    Null,
    Path(Path),
    Call(Func, Vec<CallArg>),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Goal {
    Or(Vec<Goal>),
    And(Vec<Goal>),
    Not(Box<Goal>),
    Truthy(Operand),
    Cmp(Operand, CmpOp, Operand),
}

/// What a goal can ask the running demo. `path` lookups resolve roots to objects.
pub trait Facts {
    fn object(&self, root: Root) -> Option<&Value>;
    fn call(&self, func: Func, args: &[CallArg]) -> Value;
}

impl Goal {
    pub fn eval(&self, facts: &dyn Facts) -> bool {
        match self {
            Goal::Or(gs) => gs.iter().any(|g| g.eval(facts)),
            Goal::And(gs) => gs.iter().all(|g| g.eval(facts)),
            Goal::Not(g) => !g.eval(facts),
            Goal::Truthy(o) => truthy(&o.value(facts)),
            Goal::Cmp(a, op, b) => compare(&a.value(facts), *op, &b.value(facts)),
        }
    }

    /// Every value the goal follows through `changes` and `stable`, so the demo can
    /// keep their history (keyed by their text, see `Display`).
    pub fn tracked(&self) -> Vec<&Operand> {
        let mut out = Vec::new();
        self.walk_operands(&mut |o| {
            if let Operand::Call(Func::Changes | Func::Stable, args) = o {
                for a in args {
                    if let CallArg::Value(v) = a {
                        out.push(v.as_ref());
                    }
                }
            }
        });
        out
    }

    fn walk_operands<'a>(&'a self, f: &mut dyn FnMut(&'a Operand)) {
        match self {
            Goal::Or(gs) | Goal::And(gs) => gs.iter().for_each(|g| g.walk_operands(f)),
            Goal::Not(g) => g.walk_operands(f),
            Goal::Truthy(o) => f(o),
            Goal::Cmp(a, _, b) => {
                f(a);
                f(b);
            }
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Num(n) => write!(f, "{n}"),
            Operand::Str(s) => write!(f, "{s:?}"),
            Operand::Null => f.write_str("null"),
            Operand::Path(p) => write!(f, "{p}"),
            Operand::Call(func, args) => {
                let name = Func::ALL
                    .iter()
                    .find(|(_, g, _)| g == func)
                    .map_or("?", |(n, _, _)| n);
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match a {
                        CallArg::Str(s) => write!(f, "{s:?}")?,
                        CallArg::Value(v) => write!(f, "{v}")?,
                        CallArg::Num(n) => write!(f, "{n}")?,
                    }
                }
                f.write_str(")")
            }
        }
    }
}

impl Operand {
    /// The operand's current value.
    pub fn value(&self, facts: &dyn Facts) -> Value {
        match self {
            Operand::Num(n) => serde_json::json!(n),
            Operand::Str(s) => Value::String(s.clone()),
            Operand::Null => Value::Null,
            Operand::Path(p) => facts
                .object(p.root)
                .and_then(|o| p.lookup(o))
                .cloned()
                .unwrap_or(Value::Null),
            Operand::Call(f, args) => facts.call(*f, args),
        }
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

fn compare(a: &Value, op: CmpOp, b: &Value) -> bool {
    use std::cmp::Ordering;
    let ord = match (a, b) {
        (Value::Number(x), Value::Number(y)) => x
            .as_f64()
            .zip(y.as_f64())
            .and_then(|(x, y)| x.partial_cmp(&y)),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Null, Value::Null) => Some(Ordering::Equal),
        _ => None,
    };
    match (op, ord) {
        (CmpOp::Eq, o) => o == Some(Ordering::Equal),
        (CmpOp::Ne, o) => o != Some(Ordering::Equal),
        (_, None) => false,
        (CmpOp::Lt, Some(o)) => o.is_lt(),
        (CmpOp::Le, Some(o)) => o.is_le(),
        (CmpOp::Gt, Some(o)) => o.is_gt(),
        (CmpOp::Ge, Some(o)) => o.is_ge(),
    }
}

// ---- lexer ----

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(f64),
    Op(CmpOp),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    Comma,
}

fn err(span: Range<usize>, message: impl Into<String>) -> GoalError {
    GoalError {
        span,
        message: message.into(),
        help: None,
    }
}

fn lex(src: &str) -> Result<Vec<(Tok, Range<usize>)>, GoalError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let single = match c {
            b' ' | b'\n' => {
                i += 1;
                continue;
            }
            b'(' => Some(Tok::LParen),
            b')' => Some(Tok::RParen),
            b'[' => Some(Tok::LBracket),
            b']' => Some(Tok::RBracket),
            b'.' => Some(Tok::Dot),
            b',' => Some(Tok::Comma),
            _ => None,
        };
        if let Some(t) = single {
            i += 1;
            out.push((t, start..i));
            continue;
        }
        let tok = match c {
            b'"' => {
                let end = src[i + 1..]
                    .find('"')
                    .ok_or_else(|| err(start..src.len(), "unterminated string"))?;
                i += end + 2;
                Tok::Str(src[start + 1..i - 1].to_string())
            }
            b'=' | b'!' | b'<' | b'>' => {
                let two = b.get(i + 1) == Some(&b'=');
                let op = match (c, two) {
                    (b'=', true) => CmpOp::Eq,
                    (b'!', true) => CmpOp::Ne,
                    (b'<', true) => CmpOp::Le,
                    (b'>', true) => CmpOp::Ge,
                    (b'<', false) => CmpOp::Lt,
                    (b'>', false) => CmpOp::Gt,
                    _ => {
                        let e = err(start..start + 1, format!("unexpected `{}`", c as char));
                        return Err(GoalError {
                            help: Some(
                                "compare with ==, !=, <, <=, >, >=; negate with `not`".into(),
                            ),
                            ..e
                        });
                    }
                };
                i += if two { 2 } else { 1 };
                Tok::Op(op)
            }
            b'0'..=b'9' | b'-' => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                let n = src[start..i]
                    .parse()
                    .map_err(|_| err(start..i, format!("bad number `{}`", &src[start..i])))?;
                Tok::Num(n)
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                Tok::Ident(src[start..i].to_string())
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(err(
                    i..i + ch.len_utf8(),
                    format!("unexpected character `{ch}`"),
                ));
            }
        };
        out.push((tok, start..i));
    }
    Ok(out)
}

// ---- parser ----

struct Parser<'a> {
    toks: Vec<(Tok, Range<usize>)>,
    pos: usize,
    src: &'a str,
    /// `not`s and parentheses open around the current token.
    depth: usize,
}

/// How deeply `not` and parentheses may nest: far beyond any real goal, and well within
/// the stack (20,000 nested `not`s overflowed it in parsing and evaluation).
pub const MAX_DEPTH: usize = 64;

/// Parses and checks a goal.
pub fn parse(src: &str) -> Result<Goal, GoalError> {
    let mut p = Parser {
        toks: lex(src)?,
        pos: 0,
        src,
        depth: 0,
    };
    if p.toks.is_empty() {
        return Err(err(0..src.len().max(1), "the goal is empty"));
    }
    let g = p.or()?;
    if let Some((_, span)) = p.toks.get(p.pos) {
        return Err(GoalError {
            help: Some("join conditions with `and` / `or`".into()),
            ..err(span.clone(), "unexpected text after the end of the goal")
        });
    }
    Ok(g)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn span(&self) -> Range<usize> {
        self.toks
            .get(self.pos)
            .map_or(self.src.len()..self.src.len() + 1, |(_, s)| s.clone())
    }

    fn next(&mut self) -> Option<(Tok, Range<usize>)> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(x)) if x == w)
    }

    fn expect(&mut self, want: Tok, what: &str) -> Result<(), GoalError> {
        match self.next() {
            Some((t, _)) if t == want => Ok(()),
            Some((_, span)) => Err(err(span, format!("expected {what}"))),
            None => Err(err(
                self.src.len()..self.src.len() + 1,
                format!("expected {what}, found the end"),
            )),
        }
    }

    fn or(&mut self) -> Result<Goal, GoalError> {
        let mut gs = vec![self.and()?];
        while self.is_word("or") {
            self.pos += 1;
            gs.push(self.and()?);
        }
        Ok(if gs.len() == 1 {
            gs.remove(0)
        } else {
            Goal::Or(gs)
        })
    }

    fn and(&mut self) -> Result<Goal, GoalError> {
        let mut gs = vec![self.not()?];
        while self.is_word("and") {
            self.pos += 1;
            gs.push(self.not()?);
        }
        Ok(if gs.len() == 1 {
            gs.remove(0)
        } else {
            Goal::And(gs)
        })
    }

    fn not(&mut self) -> Result<Goal, GoalError> {
        let nests = self.is_word("not") || self.peek() == Some(&Tok::LParen);
        if nests {
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err(GoalError {
                    help: Some(
                        "split the condition, or drop the extra `not`s and parentheses".into(),
                    ),
                    ..err(
                        self.span(),
                        format!("the goal nests `not` and parentheses more than {MAX_DEPTH} deep"),
                    )
                });
            }
        }
        let g = self.nested();
        if nests {
            self.depth -= 1;
        }
        g
    }

    fn nested(&mut self) -> Result<Goal, GoalError> {
        if self.is_word("not") {
            self.pos += 1;
            return Ok(Goal::Not(Box::new(self.not()?)));
        }
        if self.peek() == Some(&Tok::LParen) {
            self.pos += 1;
            let g = self.or()?;
            self.expect(Tok::RParen, "`)`")?;
            return Ok(g);
        }
        let a = self.operand()?;
        if let Some(Tok::Op(op)) = self.peek().cloned() {
            self.pos += 1;
            let b = self.operand()?;
            return Ok(Goal::Cmp(a, op, b));
        }
        Ok(Goal::Truthy(a))
    }

    fn operand(&mut self) -> Result<Operand, GoalError> {
        let span = self.span();
        match self.next() {
            Some((Tok::Num(n), _)) => Ok(Operand::Num(n)),
            Some((Tok::Str(s), _)) => Ok(Operand::Str(s)),
            Some((Tok::Ident(w), _)) if w == "null" => Ok(Operand::Null),
            Some((Tok::Ident(w), _)) if w == "true" || w == "false" => {
                Ok(Operand::Num(if w == "true" { 1.0 } else { 0.0 }))
            }
            Some((Tok::Ident(w), _)) if self.peek() == Some(&Tok::LParen) => self.call(&w, span),
            Some((Tok::Ident(w), _)) => self.path_from(&w, span).map(Operand::Path),
            Some((_, span)) => Err(err(span, "expected a value, a path or a call")),
            None => Err(err(span, "expected a value, found the end of the goal")),
        }
    }

    fn path_from(&mut self, name: &str, span: Range<usize>) -> Result<Path, GoalError> {
        let Some((_, root)) = Root::NAMES.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = Root::NAMES.iter().map(|(n, _)| *n).collect();
            let funcs: Vec<&str> = Func::ALL.iter().map(|(n, _, _)| *n).collect();
            return Err(GoalError {
                help: Some(format!(
                    "paths start with {}; calls are {}",
                    names.join(", "),
                    funcs
                        .iter()
                        .map(|f| format!("{f}()"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                ..err(span, format!("unknown name `{name}`"))
            });
        };
        let mut steps: Vec<(Step, Range<usize>)> = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Dot) => {
                    self.pos += 1;
                    match self.next() {
                        Some((Tok::Ident(f), s)) => steps.push((Step::Field(f), s)),
                        Some((_, s)) => return Err(err(s, "expected a field name after `.`")),
                        None => return Err(err(self.span(), "expected a field name after `.`")),
                    }
                }
                Some(Tok::LBracket) => {
                    self.pos += 1;
                    match self.next() {
                        Some((Tok::Str(s), sp)) => steps.push((Step::Field(s), sp)),
                        Some((Tok::Ident(t), sp)) => steps.push((Step::ByType(t), sp)),
                        Some((_, s)) => {
                            return Err(err(
                                s,
                                "expected a \"key\" or a condition type inside `[]`",
                            ));
                        }
                        None => return Err(err(self.span(), "unclosed `[`")),
                    }
                    self.expect(Tok::RBracket, "`]`")?;
                }
                _ => break,
            }
        }
        if steps.is_empty() {
            return Err(GoalError {
                help: Some(format!("for example `{name}.status.readyReplicas`")),
                ..err(span, "a path needs at least one field")
            });
        }
        paths::check(*root, name, &steps)?;
        let steps = steps.into_iter().map(|(s, _)| s).collect();
        Ok(Path { root: *root, steps })
    }

    fn call(&mut self, name: &str, span: Range<usize>) -> Result<Operand, GoalError> {
        let Some(&(_, func, params)) = Func::ALL.iter().find(|(n, _, _)| *n == name) else {
            let names: Vec<&str> = Func::ALL.iter().map(|(n, _, _)| *n).collect();
            let near = names
                .iter()
                .map(|n| (strsim::jaro_winkler(name, n), *n))
                .filter(|(s, _)| *s > 0.8)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            return Err(GoalError {
                help: Some(match near {
                    Some((_, n)) => format!("did you mean `{n}()`?"),
                    None => format!("known calls: {}", names.join(", ")),
                }),
                ..err(span, format!("unknown call `{name}()`"))
            });
        };
        self.expect(Tok::LParen, "`(`")?;
        let mut args = Vec::new();
        while self.peek() != Some(&Tok::RParen) {
            if !args.is_empty() {
                self.expect(Tok::Comma, "`,` or `)`")?;
            }
            let aspan = self.span();
            let arg = match self.next() {
                Some((Tok::Str(s), _)) => CallArg::Str(s),
                Some((Tok::Num(n), _)) => CallArg::Num(n),
                Some((Tok::Ident(w), s)) if self.peek() == Some(&Tok::LParen) => {
                    CallArg::Value(Box::new(self.call(&w, s)?))
                }
                Some((Tok::Ident(w), s)) => {
                    CallArg::Value(Box::new(Operand::Path(self.path_from(&w, s)?)))
                }
                _ => return Err(err(aspan, "expected an argument")),
            };
            args.push((arg, aspan));
        }
        self.pos += 1; // `)`
        let required = params.iter().filter(|p| **p != Arg::OptStr).count();
        if args.len() < required || args.len() > params.len() {
            return Err(err(
                span,
                format!(
                    "`{name}()` takes {} argument(s), got {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        for ((arg, aspan), want) in args.iter().zip(params.iter()) {
            let ok = matches!(
                (arg, want),
                (CallArg::Str(_), Arg::Str | Arg::OptStr)
                    | (CallArg::Value(_), Arg::Value)
                    | (CallArg::Num(_), Arg::Num)
            );
            if !ok {
                let what = match want {
                    Arg::Str | Arg::OptStr => "a \"string\"",
                    Arg::Value => "a path such as deploy.spec.replicas, or a call such as pods()",
                    Arg::Num => "a number of seconds",
                };
                return Err(err(
                    aspan.clone(),
                    format!("`{name}()` expects {what} here"),
                ));
            }
            if let (CallArg::Str(s), Some(choices)) = (arg, func.choices())
                && !choices.contains(&s.as_str())
                && !(func == Func::Pods && s.strip_prefix("node:").is_some_and(|n| !n.is_empty()))
            {
                let also = if func == Func::Pods {
                    ", node:NAME"
                } else {
                    ""
                };
                return Err(GoalError {
                    help: Some(format!("valid values: {}{also}", choices.join(", "))),
                    ..err(aspan.clone(), format!("`{name}()` does not know \"{s}\""))
                });
            }
        }
        Ok(Operand::Call(
            func,
            args.into_iter().map(|(a, _)| a).collect(),
        ))
    }
}

#[cfg(test)]
mod tests;
