//! What every kubectl verb shares (kubectl's pkg/cmd/util): the outcome a command prints,
//! reading manifests, finding its target, and printing an object as `-o` asks.

use serde_json::Value;

use super::args::{Output, Target};
use super::wait::Wait;
use crate::sim::api::{ApiError, Reason};
use crate::sim::cluster::Cluster;
use crate::sim::jsonpath;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::output::{parse_manifest, to_json, to_yaml};
use std::collections::BTreeMap;

/// What a command printed, and what the demo counts about it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    /// The API error reason, when the server refused.
    pub error: Option<Reason>,
    pub failed: bool,
    /// Pods the command deleted.
    pub deleted_pods: u32,
    /// Writes through `/status`.
    pub forged: u32,
    /// Warnings kubectl writes to stderr as it goes, each with the length stdout had
    /// then; `stderr` holds what it prints at the end (errors, "No resources found").
    pub warnings: Vec<(usize, String)>,
    /// The command is still watching: see [`super::wait`].
    pub wait: Option<Box<Wait>>,
}

impl Outcome {
    pub(super) fn out(mut self, s: impl AsRef<str>) -> Self {
        self.stdout.push_str(s.as_ref());
        self
    }
    pub(super) fn waiting(mut self, w: Wait) -> Self {
        self.wait = Some(Box::new(w));
        self
    }
    /// Looks again, for a command still watching, at the cluster one simulated second on
    /// (see [`super::wait`]).
    pub fn resume(mut self, cluster: &mut Cluster) -> Outcome {
        let Some(w) = self.wait.take() else {
            return self;
        };
        let step = w.step(cluster);
        for (is_err, line) in step.lines {
            if is_err {
                self = self.warn(line);
            } else {
                self.stdout.push_str(&line);
            }
        }
        self.stdout.push_str(&step.out);
        if let Some(e) = step.err {
            return self.err(e);
        }
        self.wait = step.next.map(Box::new);
        self
    }

    /// Whether the command has more to do once the clock moves on.
    pub fn is_waiting(&self) -> bool {
        self.wait.is_some()
    }
    /// A warning written now, before whatever stdout gets next.
    pub(super) fn warn(mut self, s: impl AsRef<str>) -> Self {
        self.warnings
            .push((self.stdout.len(), s.as_ref().to_string()));
        self
    }
    /// This outcome followed by `next`, as one command's output.
    pub(super) fn then(mut self, next: Outcome) -> Self {
        let at = self.stdout.len();
        self.warnings
            .extend(next.warnings.into_iter().map(|(i, w)| (i + at, w)));
        self.stdout.push_str(&next.stdout);
        self.stderr.push_str(&next.stderr);
        self.error = next.error.or(self.error);
        self.failed |= next.failed;
        self.deleted_pods += next.deleted_pods;
        self.forged += next.forged;
        self
    }

    pub(super) fn err(mut self, s: impl AsRef<str>) -> Self {
        self.stderr.push_str(s.as_ref());
        self.failed = true;
        self
    }
    /// Warnings the API server sent with its answer, which client-go's warning handler
    /// prints to stderr as `Warning: ...` as the response arrives.
    pub(super) fn server_warnings(self, warnings: Vec<String>) -> Self {
        if warnings.is_empty() {
            return self;
        }
        let text: String = warnings.iter().map(|w| format!("Warning: {w}\n")).collect();
        self.warn(text)
    }

    /// [`Self::server_warnings`] that came with the command's first response: before
    /// anything it printed.
    pub(super) fn server_warnings_first(mut self, warnings: Vec<String>) -> Self {
        let text: String = warnings.iter().map(|w| format!("Warning: {w}\n")).collect();
        if !text.is_empty() {
            self.warnings.insert(0, (0, text));
        }
        self
    }

    pub(super) fn api_error(self, e: &ApiError, context: Option<String>) -> Self {
        self.api(e, context)
    }

    pub(super) fn api(self, e: &ApiError, context: Option<String>) -> Self {
        // kubectl prints validation failures as they come: `The Deployment "web" is invalid: ...`.
        let msg = match context {
            _ if e.reason == Reason::Invalid => format!("{}\n", e.message),
            // checkErr's Invalid form from the details: the plural resource (no group),
            // the name, and the one cause with its empty field.
            _ if e.reason == Reason::InvalidCause => {
                let (lhs, cause) = e.message.split_once(" is forbidden: ").unwrap_or(("", ""));
                let (resource, name) = lhs.split_once(' ').unwrap_or((lhs, "\"\""));
                let plural = resource.split('.').next().unwrap_or(resource);
                format!("The {plural} {name} is invalid: : {cause}\n")
            }
            // No reason: kubectl's StandardErrorMessage leaves out the parentheses.
            Some(c) if e.reason == Reason::Unknown => {
                format!("Error from server: {c}{}\n", e.message)
            }
            None if e.reason == Reason::Unknown => format!("Error from server: {}\n", e.message),
            Some(c) => format!(
                "Error from server ({}): {c}{}\n",
                e.reason.as_str(),
                e.message
            ),
            None => format!("Error from server ({}): {}\n", e.reason.as_str(), e.message),
        };
        let mut o = self.err(msg);
        o.error = Some(e.reason);
        o
    }
}

/// The scenario's manifest files, by name.
pub type Files = BTreeMap<String, String>;

/// Reads every file of a comma-separated `-f` list first (kubectl's builder fails before
/// any write if one is missing or broken), then runs `f` on each file's objects in order.
pub(super) fn with_manifests(
    files: &Files,
    list: &str,
    mut f: impl FnMut(&str, Vec<Value>) -> Outcome,
) -> Outcome {
    let mut read = Vec::new();
    for file in list.split(',').filter(|s| !s.is_empty()) {
        let Some(text) = files.get(file) else {
            return Outcome::default().err(format!("error: the path \"{file}\" does not exist\n"));
        };
        match parse_manifest(text) {
            Ok(objs) => read.push((file, objs)),
            Err(e) => {
                return Outcome::default().err(format!("error: error parsing {file}: {e}\n"));
            }
        }
    }
    if read.iter().all(|(_, objs)| objs.is_empty()) {
        return Outcome::default().err("error: no objects passed to apply\n");
    }
    read.into_iter()
        .fold(Outcome::default(), |done, (file, objs)| {
            done.then(f(file, objs))
        })
}

/// The kind a manifest object maps to, or kubectl's error naming `file`.
pub(super) fn manifest_kind(o: &Value, file: &str) -> Result<Kind, String> {
    let kind = o["kind"].as_str().unwrap_or("");
    let api_version = o["apiVersion"].as_str().unwrap_or("");
    let group = |v: &str| v.rsplit_once('/').map_or("", |(g, _)| g).to_string();
    // A kind is its name in its group: a CRD may name a kind `Deployment` in its own.
    let builtin =
        Kind::from_kind_name(kind).filter(|k| group(k.api_version()) == group(api_version));
    match builtin.or_else(|| super::discovery::map_custom(api_version, kind)) {
        // Nodes and leases are the scenario's kubelets' to register, not a manifest's.
        Some(k @ (Kind::Node | Kind::Lease)) => Err(format!(
            "error: kubedrill's demo keeps the nodes and leases its scenario registers; it \
             does not create, replace or apply a {}\n",
            k.kind_name()
        )),
        Some(Kind::HorizontalPodAutoscaler) if o["apiVersion"] != "autoscaling/v2" => Err(format!(
            "error: kubedrill's demo serves HorizontalPodAutoscalers at autoscaling/v2 only; write `apiVersion: autoscaling/v2` (a 1.32 server also serves autoscaling/v1, got {})\n",
            o["apiVersion"]
        )),
        Some(k) if k != Kind::Event => Ok(k),
        _ => Err(format!(
            "error: resource mapping not found for name: \"{}\" namespace: \"{}\" from \"{file}\": no matches for kind \"{kind}\" in version \"{}\"\nensure CRDs are installed first\n",
            obj::name(o),
            obj::str(o, &["metadata", "namespace"]).unwrap_or(""),
            o["apiVersion"].as_str().unwrap_or("")
        )),
    }
}

/// Everything the API does not keep from a client's object.
pub(super) fn strip_server_fields(o: &mut Value) {
    for f in [
        "uid",
        "creationTimestamp",
        "generation",
        "managedFields",
        "selfLink",
        "deletionTimestamp",
    ] {
        obj::remove(o, &["metadata", f]);
    }
}

pub(super) fn hide_managed_fields(mut v: Value) -> Value {
    obj::remove(&mut v, &["metadata", "managedFields"]);
    v
}

/// A main-endpoint update that prints `line` on success.
pub(super) fn update_then(cluster: &mut Cluster, kind: Kind, next: Value, line: String) -> Outcome {
    match cluster.api.update(kind, next, None) {
        Ok(_) => Outcome::default().out(line),
        Err(e) => Outcome::default().api(&e, None),
    }
}

/// The object a command reads before it writes, as kubectl GETs it: a custom object at
/// the version kubectl prefers, so the write goes back at that version.
pub(super) fn one(cluster: &Cluster, t: &Target) -> Result<(Value, String), Outcome> {
    let name = t.names.first().cloned().unwrap_or_default();
    cluster
        .api
        .get(t.kind, &name)
        .and_then(|v| cluster.api.read_custom(t.kind, v))
        .map(|v| (v, name.clone()))
        .map_err(|e| Outcome::default().api(&e, None))
}

/// One object printed as `-o` asks, as kubectl prints what it would send or got back.
pub(super) fn print_object(kind: Kind, v: &Value, output: &Output) -> Outcome {
    match output {
        Output::Json => Outcome::default().out(to_json(v)),
        Output::Yaml => Outcome::default().out(to_yaml(v)),
        Output::JsonPath(t) => match jsonpath::parse(t).and_then(|jp| jp.execute(v)) {
            Ok(s) => Outcome::default().out(s),
            Err(e) => Outcome::default().err(format!("error: {e}\n")),
        },
        Output::Name | Output::Table | Output::Wide => {
            Outcome::default().out(format!("{}/{}\n", kind.kind_group(), obj::name(v)))
        }
    }
}

/// Runs `f` on each manifest object of a known kind, in file order; an unknown kind is
/// reported in its place and skipped.
pub(super) fn each_object(
    file: &str,
    objs: Vec<Value>,
    mut f: impl FnMut(Kind, Value, Outcome) -> Outcome,
) -> Outcome {
    let mut o = Outcome::default();
    for x in objs {
        o = match manifest_kind(&x, file) {
            Ok(kind) => f(kind, x, o),
            Err(e) => o.err(e),
        };
    }
    o
}
