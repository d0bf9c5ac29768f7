//! Dynamic admission as kube-apiserver 1.32 runs it (k8s.io/apiserver
//! pkg/admission/plugin/webhook): after decoding and defaulting, the mutating webhooks are
//! called one after another (configurations sorted by name, webhooks in their order), each
//! patch followed by defaulting again, and a webhook with `reinvocationPolicy: IfNeeded`
//! called once more when a later one changed the object; then the object is validated
//! (a 422 comes before any validating webhook); then the validating webhooks, called in
//! parallel, the first failure to complete being the answer; then storage.
//!
//! A webhook is matched by namespaceSelector, objectSelector and rules, in that order. A
//! call that cannot be made (the Service is missing, has no ready endpoint, the program
//! is not listening, or does not answer within `timeoutSeconds`) fails the request with a
//! 500 under `failurePolicy: Fail` and is skipped without a word to the client under
//! `Ignore`; a denial is returned whatever the policy. The configurations themselves are
//! never sent to webhooks, so deleting one always works.
//!
//! Each request a webhook matched is kept, stage by stage, for the demo's request log.

use std::collections::VecDeque;

use serde_json::{Value, json};

use super::ApiServer;
use crate::sim::kind::Kind;
use crate::sim::kinds;
use crate::sim::kinds::service::SERVICE_NAME_LABEL;
use crate::sim::obj;
use crate::sim::output::go_quote;
use crate::sim::status::{ApiError, Reason};
use crate::sim::webhooks::Mode;

/// Requests kept for the request log.
const KEPT: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Create,
    Update,
    Delete,
}

impl Operation {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Operation::Create => "POST",
            Operation::Update => "PUT",
            Operation::Delete => "DELETE",
        }
    }
}

/// One request as the request log shows it: what it was, who sent it, each stage, and
/// how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestTrace {
    pub at: u64,
    pub request: String,
    pub by: String,
    pub stages: Vec<String>,
    pub outcome: String,
    /// Whether any webhook matched it: only those are kept.
    matched: bool,
}

impl RequestTrace {
    /// `12s POST pods by kube-controller-manager: ... -> 500 InternalError`.
    pub fn line(&self) -> String {
        format!(
            "{}s {} by {}: {} -> {}",
            self.at,
            self.request,
            self.by,
            self.stages.join("; "),
            self.outcome
        )
    }
}

/// The admission state of the API server: the request log and the request under way.
#[derive(Debug, Clone, Default)]
pub struct Admission {
    pub log: VecDeque<RequestTrace>,
    open: Option<RequestTrace>,
    /// The request under way, while admission runs for it.
    request: Option<Request>,
    /// Requests a webhook refused: one that could not be called under
    /// `failurePolicy: Fail`, or a denial.
    pub refused: u64,
    /// Of those, the denials.
    pub denied: u64,
    /// Webhook calls that failed under `failurePolicy: Ignore` and let the request on.
    pub failed_open: u64,
    /// Webhook calls cut at their `timeoutSeconds`, whatever the policy.
    pub timeouts: u64,
    /// Patches mutating webhooks applied.
    pub mutated: u64,
    /// Requests a ValidatingAdmissionPolicy's Deny action refused.
    pub policy_denied: u64,
    /// Warnings for the client (a policy's Warn action), taken by kubectl after each
    /// command.
    pub warnings: Vec<String>,
    /// Whether the requests under way are a kubectl command's (its warnings are printed;
    /// a controller's client only logs them).
    pub from_kubectl: bool,
}

/// A webhook of a configuration, copied out of it for one request.
struct Hook {
    spec: Value,
}

impl Hook {
    fn name(&self) -> &str {
        self.spec["name"].as_str().unwrap_or("")
    }

    fn fails_closed(&self) -> bool {
        self.spec["failurePolicy"] != "Ignore"
    }

    fn timeout(&self) -> u64 {
        self.spec["timeoutSeconds"].as_u64().unwrap_or(10)
    }
}

/// What a call brought back.
enum Answer {
    Allowed,
    Denied(String),
    Label(String, String),
}

/// A call that could not be made: the cause after `Post "URL": `, and how long it took.
struct CallError {
    cause: String,
    seconds: u64,
}

/// The request's resource as rules name it: group, version, plural.
pub(super) fn resource_of(kind: Kind) -> (&'static str, &'static str, &'static str) {
    let gr = kind.group_resource();
    let (resource, group) = gr.split_once('.').unwrap_or((gr, ""));
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    (group, version, resource)
}

/// The admission configuration kinds, never sent to webhooks or policies, so that a
/// broken one can always be fixed.
pub(super) fn exempt(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::MutatingWebhookConfiguration
            | Kind::ValidatingWebhookConfiguration
            | Kind::ValidatingAdmissionPolicy
            | Kind::ValidatingAdmissionPolicyBinding
    )
}

/// Whether `list` holds `*` or `want`.
fn listed(list: &Value, want: &str) -> bool {
    list.as_array()
        .into_iter()
        .flatten()
        .any(|v| v == "*" || v == want)
}

/// rules.Matcher.Matches for one rule; under matchPolicy Equivalent, an HPA rule written
/// for autoscaling/v1 also matches the v2 request (the same resource in another version).
fn rule_matches(rule: &Value, op: Operation, kind: Kind, sub: &str, equivalent: bool) -> bool {
    let (group, version, resource) = resource_of(kind);
    let versions_ok = listed(&rule["apiVersions"], version)
        || (equivalent
            && kind == Kind::HorizontalPodAutoscaler
            && listed(&rule["apiVersions"], "v1"));
    let resources_ok = rule["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .any(|r| {
            let (res, rsub) = r.split_once('/').unwrap_or((r, ""));
            (res == "*" || res == resource) && (rsub == "*" || rsub == sub)
        });
    let namespaced = kinds::of(kind).namespace().is_some();
    let scope_ok = match rule["scope"].as_str().unwrap_or("*") {
        "Namespaced" => namespaced,
        "Cluster" => !namespaced,
        _ => true,
    };
    listed(&rule["operations"], op.as_str())
        && listed(&rule["apiGroups"], group)
        && versions_ok
        && resources_ok
        && scope_ok
}

/// Whether a webhook's label selector is empty (`{}`), selecting everything.
fn empty_selector(selector: &Value) -> bool {
    selector.as_object().is_none_or(|m| {
        m.values().all(|v| {
            v.is_null()
                || v.as_object().is_some_and(|o| o.is_empty())
                || v.as_array().is_some_and(|a| a.is_empty())
        })
    })
}

/// A label selector of a webhook: empty selects everything.
fn selects(selector: &Value, labels: &Value) -> bool {
    empty_selector(selector) || obj::selector_matches_labels(selector, labels)
}

/// The request a write makes, as admission sees it.
#[derive(Debug, Clone)]
pub struct Request {
    pub op: Operation,
    pub kind: Kind,
    /// The namespace of the object (empty for a cluster-scoped kind).
    pub namespace: String,
    /// Empty for a create by generateName: the name is drawn after admission.
    pub name: String,
    pub old: Option<Value>,
}

impl ApiServer {
    /// Whether any webhook configuration exists: without one, writes skip admission.
    pub(super) fn admission_active(&self) -> bool {
        self.count(Kind::MutatingWebhookConfiguration) > 0
            || self.count(Kind::ValidatingWebhookConfiguration) > 0
            || self.count(Kind::ValidatingAdmissionPolicyBinding) > 0
    }

    fn hooks(&self, kind: Kind) -> Vec<Hook> {
        // Listed in name order: the configurations as the webhook manager sorts them.
        self.list(kind)
            .flat_map(|c| c["webhooks"].as_array().into_iter().flatten())
            .map(|h| Hook { spec: h.clone() })
            .collect()
    }

    /// ShouldCallHook: namespaceSelector, objectSelector, then the rules.
    fn should_call(&self, hook: &Hook, req: &Request, object: Option<&Value>) -> bool {
        !exempt(req.kind)
            && self.selectors_match(&hook.spec, req, object)
            && self.rules_match(
                &hook.spec["rules"],
                req,
                hook.spec["matchPolicy"] != "Exact",
            )
    }

    /// The namespace and object selectors of a webhook or of a policy's MatchResources.
    pub(super) fn selectors_match(&self, m: &Value, req: &Request, object: Option<&Value>) -> bool {
        // A cluster-scoped request always passes the namespace selector; every namespace
        // carries its own name as the label kubernetes.io/metadata.name.
        if !req.namespace.is_empty() {
            let ns_labels = json!({"kubernetes.io/metadata.name": req.namespace});
            if !selects(&m["namespaceSelector"], &ns_labels) {
                return false;
            }
        }
        let sel = &m["objectSelector"];
        let labels = |o: &Value| {
            obj::path(o, &["metadata", "labels"])
                .cloned()
                .unwrap_or(json!({}))
        };
        // matchObjectSelector: the new object's labels or the old one's; a request with
        // neither (a DELETE before the object is read) matches only an empty selector.
        empty_selector(sel)
            || [object, req.old.as_ref()]
                .into_iter()
                .flatten()
                .filter(|o| o.is_object())
                .any(|o| selects(sel, &labels(o)))
    }

    /// Whether any of `rules` matches the request (with a policy rule's resourceNames,
    /// when it lists any, naming the object).
    pub(super) fn rules_match(&self, rules: &Value, req: &Request, equivalent: bool) -> bool {
        let sub = self.manager.1.as_deref().unwrap_or("");
        rules.as_array().into_iter().flatten().any(|r| {
            let names = r["resourceNames"].as_array().map_or(&[][..], Vec::as_slice);
            rule_matches(r, req.op, req.kind, sub, equivalent)
                && (names.is_empty() || names.iter().any(|n| n == req.name.as_str()))
        })
    }

    /// The URL the API server posts to: the Service's DNS name, port and path, with the
    /// timeout as a query parameter.
    fn url(hook: &Hook) -> String {
        let svc = &hook.spec["clientConfig"]["service"];
        let path = svc["path"].as_str().unwrap_or("");
        format!(
            "https://{}.{}.svc:{}{}?timeout={}s",
            svc["name"].as_str().unwrap_or(""),
            svc["namespace"].as_str().unwrap_or(""),
            svc["port"].as_i64().unwrap_or(443),
            if path.is_empty() { "/" } else { path },
            hook.timeout()
        )
    }

    /// Whether the Service `name` has a ready endpoint in its EndpointSlices.
    pub fn has_ready_endpoint(&self, service: &str) -> bool {
        self.list(Kind::EndpointSlice).any(|s| {
            obj::str(s, &["metadata", "labels", SERVICE_NAME_LABEL]) == Some(service)
                && s["endpoints"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|e| e["conditions"]["ready"] == true)
        })
    }

    /// One call through the Service's cluster IP (kube-apiserver's default resolver).
    fn call(&self, hook: &Hook, mutating: bool) -> Result<Answer, CallError> {
        let refused = |cause: String| Err(CallError { cause, seconds: 0 });
        let svc = &hook.spec["clientConfig"]["service"];
        let name = svc["name"].as_str().unwrap_or("");
        let port = svc["port"].as_i64().unwrap_or(443);
        let found = self
            .get(Kind::Service, name)
            .ok()
            .filter(|s| obj::str(s, &["metadata", "namespace"]) == svc["namespace"].as_str());
        let Some(service) = found else {
            return refused(format!("service {} not found", go_quote(name)));
        };
        let ip = obj::str(service, &["spec", "clusterIP"]).unwrap_or("");
        if ip == "None" {
            return refused("cannot route to service with ClusterIP \"None\"".into());
        }
        let has_port = service["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["port"].as_i64() == Some(port));
        if !has_port {
            return refused(format!(
                "no service port {port} found for service {}",
                go_quote(name)
            ));
        }
        // kube-proxy rejects a connection to a cluster IP with no ready endpoint; a pod
        // whose program does not listen refuses it itself.
        let ready = self.has_ready_endpoint(name);
        let refusal = format!("dial tcp {ip}:{port}: connect: connection refused");
        let mode = match self.webhooks.get(name) {
            Some(m) if ready => m,
            _ => return refused(refusal),
        };
        match mode {
            Mode::Down => refused(refusal),
            Mode::Slow(s) if *s >= hook.timeout() => Err(CallError {
                cause: "context deadline exceeded".into(),
                seconds: hook.timeout(),
            }),
            Mode::Allow | Mode::Slow(_) => Ok(Answer::Allowed),
            Mode::Deny(m) => Ok(Answer::Denied(m.clone())),
            Mode::Label(k, v) if mutating => Ok(Answer::Label(k.clone(), v.clone())),
            // A patch in a validating webhook's answer is an invalid response, a call error.
            Mode::Label(..) => Err(CallError {
                cause: "received invalid webhook response: validating webhook may not return response.patch".into(),
                seconds: 0,
            }),
        }
    }

    /// ErrCallingWebhook under `failurePolicy: Fail`: a 500. A transport error names the
    /// POST; an answer that was not a valid AdmissionReview says so alone.
    fn call_error(hook: &Hook, e: &CallError) -> ApiError {
        let reason = if e.cause.starts_with("received invalid webhook response") {
            e.cause.clone()
        } else {
            format!(
                "failed to call webhook: Post {}: {}",
                go_quote(&Self::url(hook)),
                e.cause
            )
        };
        ApiError {
            reason: Reason::InternalError,
            message: format!(
                "Internal error occurred: failed calling webhook {}: {reason}",
                go_quote(hook.name())
            ),
        }
    }

    /// A denial as controller-runtime answers it (code 403, reason Forbidden).
    fn denial(hook: &Hook, message: &str) -> ApiError {
        ApiError {
            reason: Reason::Forbidden,
            message: format!(
                "admission webhook {} denied the request: {message}",
                go_quote(hook.name())
            ),
        }
    }

    /// Opens the request log's entry for a write (authentication and authorization pass:
    /// the demo's users are its admin and the controllers).
    fn admission_begin(&mut self, req: Request, now: u64) {
        let (_, _, resource) = resource_of(req.kind);
        let mut request = format!("{} {resource}", req.op.verb());
        if !req.name.is_empty() {
            request += &format!("/{}", req.name);
        }
        if let Some(sub) = &self.manager.1 {
            request += &format!("/{sub}");
        }
        self.admission.open = Some(RequestTrace {
            at: now,
            request,
            by: self.manager.0.clone(),
            stages: vec!["authenticated, authorized".into()],
            outcome: String::new(),
            matched: false,
        });
        self.admission.request = Some(req);
    }

    /// Runs `write` as one request through admission: `write` calls [`Self::mutate`] and
    /// [`Self::validate_admitted`] at its stages. Without any webhook configuration it
    /// just runs.
    pub(super) fn admitted<T>(
        &mut self,
        req: impl FnOnce() -> Request,
        now: u64,
        write: impl FnOnce(&mut Self) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        if !self.admission_active() {
            return write(self);
        }
        self.admission_begin(req(), now);
        let result = write(self);
        self.admission.request = None;
        self.admission_end(&result);
        result
    }

    /// The mutating phase of the request under way (none: nothing to do).
    pub(super) fn mutate(&mut self, object: &mut Value) -> Result<(), ApiError> {
        let Some(req) = self.admission.request.take() else {
            return Ok(());
        };
        // A DELETE is admitted with the stored object as oldObject, mutation included.
        let r = self.admit_mutating(&req, object);
        self.admission.request = Some(req);
        r
    }

    /// The object passed validation; the validating phase of the request under way.
    pub(super) fn validate_admitted(&mut self, object: Option<&Value>) -> Result<(), ApiError> {
        let Some(req) = self.admission.request.take() else {
            return Ok(());
        };
        self.stage("validation: ok".into());
        // ValidatingAdmissionPolicy comes before ValidatingAdmissionWebhook.
        let r = self
            .admit_policies(&req, object)
            .and_then(|()| self.admit_validating(&req, object));
        self.admission.request = Some(req);
        r
    }

    pub(super) fn stage(&mut self, s: String) {
        if let Some(t) = &mut self.admission.open {
            t.stages.push(s);
        }
    }

    /// Closes the entry with the request's result; kept only if a webhook matched.
    fn admission_end<T>(&mut self, result: &Result<T, ApiError>) {
        let Some(mut t) = self.admission.open.take() else {
            return;
        };
        t.outcome = match result {
            Ok(_) => "stored".into(),
            Err(e) if e.reason == Reason::Invalid => {
                t.stages.push("validation: invalid".into());
                "422 Invalid".into()
            }
            Err(e) => format!("refused ({})", e.reason.as_str()),
        };
        if t.matched {
            if self.admission.log.len() == KEPT {
                self.admission.log.pop_front();
            }
            self.admission.log.push_back(t);
        }
    }

    /// MutatingAdmissionWebhook: each matching webhook in turn may patch `object`, which
    /// is defaulted again after each patch; a webhook that asked to be called again is,
    /// once, if a later one changed the object.
    fn admit_mutating(&mut self, req: &Request, object: &mut Value) -> Result<(), ApiError> {
        let hooks = self.hooks(Kind::MutatingWebhookConfiguration);
        let mut notes = Vec::new();
        let result = self.mutate_all(&hooks, req, object, &mut notes);
        if let Err(e) = &result {
            self.count_webhook_refusal(e);
        }
        if !notes.is_empty() {
            self.mark_matched();
            self.stage(format!("mutating admission: {}", notes.join(", ")));
        }
        result
    }

    fn mutate_all(
        &mut self,
        hooks: &[Hook],
        req: &Request,
        object: &mut Value,
        notes: &mut Vec<String>,
    ) -> Result<(), ApiError> {
        let mut called: Vec<(usize, bool)> = Vec::new();
        let mut last_change = None;
        for (i, hook) in hooks.iter().enumerate() {
            if !self.should_call(hook, req, Some(object)) {
                continue;
            }
            called.push((i, hook.spec["reinvocationPolicy"] == "IfNeeded"));
            if self.mutate_once(hook, req, object, notes)? {
                last_change = Some(i);
            }
        }
        let Some(last) = last_change else {
            return Ok(());
        };
        for &(i, if_needed) in &called {
            if if_needed && i < last {
                notes.push(format!("{} called again (IfNeeded)", hooks[i].name()));
                self.mutate_once(&hooks[i], req, object, notes)?;
            }
        }
        Ok(())
    }

    /// One mutating call; whether it changed the object.
    fn mutate_once(
        &mut self,
        hook: &Hook,
        req: &Request,
        object: &mut Value,
        notes: &mut Vec<String>,
    ) -> Result<bool, ApiError> {
        match self.call(hook, true) {
            Ok(Answer::Allowed) => {
                notes.push(format!("{} allowed", hook.name()));
                Ok(false)
            }
            Ok(Answer::Label(k, v)) => {
                if req.op == Operation::Delete {
                    return Err(ApiError {
                        reason: Reason::InternalError,
                        message: format!(
                            "Internal error occurred: admission webhook {} attempted to modify the object, which is not supported for this operation",
                            go_quote(hook.name())
                        ),
                    });
                }
                let before = obj::path(object, &["metadata", "labels", &k]).cloned();
                obj::set(object, &["metadata", "labels", &k], json!(v));
                kinds::of(req.kind).default(object);
                notes.push(format!("{} patched label {k}={v}", hook.name()));
                self.admission.mutated += 1;
                Ok(before.as_ref() != Some(&json!(v)))
            }
            Ok(Answer::Denied(m)) => {
                notes.push(format!("{} denied", hook.name()));
                Err(Self::denial(hook, &m))
            }
            Err(e) => self.failed_call(hook, &e, notes).map(|()| false),
        }
    }

    /// A request a webhook refused: a call that failed closed (500) or a denial (403).
    fn count_webhook_refusal(&mut self, e: &ApiError) {
        self.admission.refused += 1;
        self.admission.denied += u64::from(e.reason == Reason::Forbidden);
    }

    pub(super) fn mark_matched(&mut self) {
        if let Some(t) = &mut self.admission.open {
            t.matched = true;
        }
    }

    /// A call that could not be made: under Fail the request ends here; under Ignore it
    /// goes on, and only the server's log and metrics would know.
    fn failed_call(
        &mut self,
        hook: &Hook,
        e: &CallError,
        notes: &mut Vec<String>,
    ) -> Result<(), ApiError> {
        let how = if e.seconds > 0 {
            self.admission.timeouts += 1;
            format!("no answer in {}s", e.seconds)
        } else {
            e.cause.rsplit(": ").next().unwrap_or("").to_string()
        };
        if hook.fails_closed() {
            notes.push(format!(
                "{} failed ({how}), failurePolicy Fail",
                hook.name()
            ));
            return Err(Self::call_error(hook, e));
        }
        notes.push(format!(
            "{} failed ({how}), failurePolicy Ignore: failing open",
            hook.name()
        ));
        self.admission.failed_open += 1;
        Ok(())
    }

    /// ValidatingAdmissionWebhook: every matching webhook is called at once; of those
    /// that fail, the first to finish decides (equal times: the first in order).
    fn admit_validating(&mut self, req: &Request, object: Option<&Value>) -> Result<(), ApiError> {
        let hooks = self.hooks(Kind::ValidatingWebhookConfiguration);
        let mut notes = Vec::new();
        let mut failures: Vec<(u64, usize, ApiError)> = Vec::new();
        let mut any = false;
        for (i, hook) in hooks.iter().enumerate() {
            if !self.should_call(hook, req, object) {
                continue;
            }
            any = true;
            match self.call(hook, false) {
                Ok(Answer::Allowed | Answer::Label(..)) => {
                    notes.push(format!("{} allowed", hook.name()));
                }
                Ok(Answer::Denied(m)) => {
                    notes.push(format!("{} denied", hook.name()));
                    failures.push((0, i, Self::denial(hook, &m)));
                }
                Err(e) => {
                    if let Err(err) = self.failed_call(hook, &e, &mut notes) {
                        failures.push((e.seconds, i, err));
                    }
                }
            }
        }
        if !any {
            return Ok(());
        }
        self.mark_matched();
        self.stage(format!("validating admission: {}", notes.join(", ")));
        failures.sort_by_key(|(s, i, _)| (*s, *i));
        match failures.into_iter().next() {
            Some((_, _, e)) => {
                self.count_webhook_refusal(&e);
                Err(e)
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_resource_and_subresource_as_written() {
        let rule = |res: &str| {
            json!({"operations": ["CREATE", "UPDATE"], "apiGroups": ["apps"],
                "apiVersions": ["v1"], "resources": [res], "scope": "*"})
        };
        let d = Kind::Deployment;
        assert!(rule_matches(
            &rule("deployments"),
            Operation::Create,
            d,
            "",
            true
        ));
        assert!(!rule_matches(
            &rule("deployments"),
            Operation::Update,
            d,
            "scale",
            true
        ));
        assert!(rule_matches(
            &rule("deployments/scale"),
            Operation::Update,
            d,
            "scale",
            true
        ));
        assert!(rule_matches(
            &rule("*/scale"),
            Operation::Update,
            d,
            "scale",
            true
        ));
        assert!(!rule_matches(
            &rule("deployments"),
            Operation::Delete,
            d,
            "",
            true
        ));
        assert!(!rule_matches(
            &rule("deployments"),
            Operation::Create,
            Kind::Pod,
            "",
            true
        ));
        let pods = json!({"operations": ["*"], "apiGroups": [""], "apiVersions": ["v1"],
            "resources": ["pods"], "scope": "Namespaced"});
        assert!(rule_matches(&pods, Operation::Delete, Kind::Pod, "", true));
        let hpa_v1 = json!({"operations": ["CREATE"], "apiGroups": ["autoscaling"],
            "apiVersions": ["v1"], "resources": ["horizontalpodautoscalers"]});
        let hpa = Kind::HorizontalPodAutoscaler;
        assert!(rule_matches(&hpa_v1, Operation::Create, hpa, "", true));
        assert!(!rule_matches(&hpa_v1, Operation::Create, hpa, "", false));
    }

    #[test]
    fn an_empty_selector_selects_every_object_and_not_in_excludes() {
        assert!(selects(&json!({}), &json!({})));
        let not_in = json!({"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["policy"]}]});
        assert!(selects(&not_in, &json!({"app": "web"})));
        assert!(selects(&not_in, &json!({})));
        assert!(!selects(&not_in, &json!({"app": "policy"})));
    }
}
