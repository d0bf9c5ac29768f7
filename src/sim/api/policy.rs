//! The ValidatingAdmissionPolicy plugin as kube-apiserver 1.32 runs it
//! (k8s.io/apiserver pkg/admission/plugin/policy/validating): after object validation and
//! before the validating webhooks, every binding whose policy exists is matched (the
//! policy's matchConstraints, then the binding's matchResources), its matchConditions
//! and validations are evaluated in CEL, and each failing validation takes the binding's
//! actions: Deny refuses the request, Warn adds a warning for the client, Audit only an
//! audit annotation. A validation that cannot be evaluated follows the policy's
//! failurePolicy. Real servers evaluate policies in no fixed order; the demo goes by
//! policy name, then binding name, and reports the first denial.

use serde_json::{Map, Value, json};

use super::ApiServer;
use super::admission::{Request, exempt, resource_of};
use crate::sim::cel;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::status::{ApiError, Reason};

/// A failed validation: its message and the reason its Status carries.
struct Failure {
    message: String,
    reason: Option<String>,
}

/// The CEL variables of a request (params are not simulated). The user is the demo's
/// admin for kubectl, and kube-controller-manager's own name for its controllers (a real
/// one gives each controller a service account of its own).
fn variables(
    req: &Request,
    object: Option<&Value>,
    subresource: &str,
    kubectl: bool,
) -> Map<String, Value> {
    let (group, version, resource) = resource_of(req.kind);
    let op = req.op.as_str();
    let user = if kubectl {
        json!({"username": "kubernetes-admin", "groups": ["kubeadm:cluster-admins", "system:authenticated"]})
    } else {
        json!({"username": "system:kube-controller-manager", "groups": ["system:authenticated"]})
    };
    let mut vars = Map::new();
    vars.insert("object".into(), object.cloned().unwrap_or(Value::Null));
    vars.insert("oldObject".into(), req.old.clone().unwrap_or(Value::Null));
    vars.insert(
        "request".into(),
        json!({"operation": op, "name": req.name, "namespace": req.namespace,
            "kind": {"group": group, "version": version, "kind": req.kind.kind_name()},
            "resource": {"group": group, "version": version, "resource": resource},
            "requestKind": {"group": group, "version": version, "kind": req.kind.kind_name()},
            "requestResource": {"group": group, "version": version, "resource": resource},
            "subResource": subresource, "requestSubResource": subresource,
            "userInfo": user, "dryRun": false}),
    );
    vars.insert(
        "namespaceObject".into(),
        if req.namespace.is_empty() {
            Value::Null
        } else {
            json!({"metadata": {"name": req.namespace,
                "labels": {"kubernetes.io/metadata.name": req.namespace}}})
        },
    );
    vars
}

/// The variables as the CEL bridge binds them.
fn bound(vars: &Map<String, Value>) -> Vec<(&str, &Value)> {
    vars.iter().map(|(k, v)| (k.as_str(), v)).collect()
}

/// Runs `expr` with `vars` bound; compile errors cannot happen for a stored policy (it
/// was validated), but are reported as evaluation errors all the same.
fn check(expr: &str, vars: &Map<String, Value>) -> Result<bool, String> {
    let program = cel::compile(expr)?;
    program.check(&bound(vars))
}

impl ApiServer {
    /// The policy's bindings that exist with their policy, in the demo's order.
    fn bound_policies(&self) -> Vec<(Value, Value)> {
        let mut pairs: Vec<(Value, Value)> = self
            .list(Kind::ValidatingAdmissionPolicyBinding)
            .filter_map(|b| {
                let name = b["spec"]["policyName"].as_str()?;
                let p = self.get(Kind::ValidatingAdmissionPolicy, name).ok()?;
                Some((p.clone(), b.clone()))
            })
            .collect();
        pairs.sort_by(|a, b| {
            (obj::name(&a.0), obj::name(&a.1)).cmp(&(obj::name(&b.0), obj::name(&b.1)))
        });
        pairs
    }

    /// A MatchResources: selectors, then no exclude rule and some resource rule (a
    /// binding's with no rules matches whatever its policy does).
    fn resources_match(
        &self,
        m: &Value,
        req: &Request,
        object: Option<&Value>,
        binding: bool,
    ) -> bool {
        let equivalent = m["matchPolicy"] != "Exact";
        let rules = &m["resourceRules"];
        let any = binding && rules.as_array().is_none_or(Vec::is_empty);
        self.selectors_match(m, req, object)
            && !self.rules_match(&m["excludeResourceRules"], req, equivalent)
            && (any || self.rules_match(rules, req, equivalent))
    }

    /// ValidatingAdmissionPolicy for the request under way.
    pub(super) fn admit_policies(
        &mut self,
        req: &Request,
        object: Option<&Value>,
    ) -> Result<(), ApiError> {
        if exempt(req.kind) || self.count(Kind::ValidatingAdmissionPolicyBinding) == 0 {
            return Ok(());
        }
        let mut denied: Option<(String, String, Failure)> = None;
        let mut notes = Vec::new();
        for (policy, binding) in self.bound_policies() {
            let (p, b) = (
                obj::name(&policy).to_string(),
                obj::name(&binding).to_string(),
            );
            let spec = &policy["spec"];
            if !self.resources_match(&spec["matchConstraints"], req, object, false) {
                continue;
            }
            if let Some(m) = binding["spec"]
                .get("matchResources")
                .filter(|m| m.is_object())
                && !self.resources_match(m, req, object, true)
            {
                continue;
            }
            let fail_closed = spec["failurePolicy"] != "Ignore";
            let before = notes.len();
            let subresource = self.manager.1.clone().unwrap_or_default();
            let mut vars = variables(req, object, &subresource, self.admission.from_kubectl);
            // Variables in order, each seeing the ones before it; one that cannot be
            // evaluated fails the expressions that use it, with its own error.
            let mut values = Map::new();
            let mut broken: Vec<(String, String)> = Vec::new();
            for v in spec["variables"].as_array().into_iter().flatten() {
                let name = v["name"].as_str().unwrap_or("").to_string();
                let expr = v["expression"].as_str().unwrap_or("");
                vars.insert("variables".into(), Value::Object(values.clone()));
                match cel::compile(expr).and_then(|e| e.eval_json(&bound(&vars))) {
                    Ok(value) => {
                        values.insert(name, value);
                    }
                    Err(e) => {
                        broken.push((name, format!("expression '{expr}' resulted in error: {e}")))
                    }
                }
            }
            vars.insert("variables".into(), Value::Object(values));
            let run = |expr: &str| -> Result<bool, String> {
                if let Some((_, e)) = broken
                    .iter()
                    .find(|(n, _)| expr.contains(&format!("variables.{n}")))
                {
                    return Err(e.clone());
                }
                check(expr, &vars)
                    .map_err(|e| format!("expression '{expr}' resulted in error: {e}"))
            };
            // matchConditions: any false and the policy does not apply; errors (with none
            // false) are a failure under Fail, and skip the policy under Ignore.
            let mut errors = Vec::new();
            let mut applies = true;
            for c in spec["matchConditions"].as_array().into_iter().flatten() {
                match run(c["expression"].as_str().unwrap_or("")) {
                    Ok(true) => {}
                    Ok(false) => applies = false,
                    Err(e) => errors.push(e),
                }
            }
            if !applies || (!errors.is_empty() && !fail_closed) {
                continue;
            }
            let actions: Vec<&str> = binding["spec"]["validationActions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut failures: Vec<Failure> = errors
                .into_iter()
                .map(|message| Failure {
                    message,
                    reason: None,
                })
                .collect();
            if failures.is_empty() {
                for v in spec["validations"].as_array().into_iter().flatten() {
                    let failure = match run(v["expression"].as_str().unwrap_or("")) {
                        Ok(true) => continue,
                        Ok(false) => Failure {
                            message: self.failure_message(v, &vars),
                            reason: v["reason"].as_str().map(str::to_string),
                        },
                        Err(message) if fail_closed => Failure {
                            message,
                            reason: None,
                        },
                        Err(_) => continue,
                    };
                    failures.push(failure);
                }
            }
            for failure in failures {
                notes.push(format!("{p} ({b}) failed: {}", failure.message));
                // A controller's client logs warnings; only kubectl's reach a person.
                if actions.contains(&"Warn") && self.admission.from_kubectl {
                    self.admission.warnings.push(format!(
                        "Validation failed for ValidatingAdmissionPolicy '{p}' with binding '{b}': {}",
                        failure.message
                    ));
                }
                if actions.contains(&"Deny") && denied.is_none() {
                    denied = Some((p.clone(), b.clone(), failure));
                }
            }
            if notes.len() == before {
                notes.push(format!("{p} ({b}) passed"));
            }
        }
        if notes.is_empty() && denied.is_none() {
            return Ok(());
        }
        self.mark_matched();
        self.stage(format!("validating admission policy: {}", notes.join(", ")));
        let Some((p, b, failure)) = denied else {
            return Ok(());
        };
        self.admission.policy_denied += 1;
        Err(self.policy_denial(req, object, &p, &b, failure))
    }

    /// messageExpression's string, else the message, else the expression itself.
    fn failure_message(&self, v: &Value, vars: &Map<String, Value>) -> String {
        let from_expression = v["messageExpression"].as_str().and_then(|me| {
            let out = cel::compile(me).ok()?.eval_json(&bound(vars)).ok()?;
            let s = out.as_str()?.trim().to_string();
            (!s.is_empty() && !s.contains('\n') && s.len() <= 5120).then_some(s)
        });
        from_expression
            .or_else(|| {
                v["message"]
                    .as_str()
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| {
                format!(
                    "failed expression: {}",
                    v["expression"].as_str().unwrap_or("").trim()
                )
            })
    }

    /// admission.NewForbidden with the policy's message, its reason the validation's
    /// (Invalid when it gives none).
    fn policy_denial(
        &self,
        req: &Request,
        object: Option<&Value>,
        policy: &str,
        binding: &str,
        failure: Failure,
    ) -> ApiError {
        let name = Some(req.name.as_str())
            .filter(|n| !n.is_empty())
            .or_else(|| object.map(obj::name).filter(|n| !n.is_empty()))
            .unwrap_or("Unknown");
        let message = format!(
            "{} {} is forbidden: ValidatingAdmissionPolicy '{policy}' with binding '{binding}' denied request: {}",
            req.kind.group_resource(),
            crate::sim::output::go_quote(name),
            failure.message
        );
        let reason = match failure.reason.as_deref() {
            Some("Forbidden") => Reason::Forbidden,
            Some("RequestEntityTooLarge") => Reason::RequestEntityTooLarge,
            _ => Reason::InvalidCause,
        };
        ApiError { reason, message }
    }
}
