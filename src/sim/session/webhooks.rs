//! The `webhook` directive: an admission webhook installed as one is installed for real
//! (its server's Deployment and Service first, the configuration once the server is
//! ready), and what each server answers (see [`crate::sim::webhooks`]); and the report of
//! the configurations, the servers and the API server's request log.

use serde_json::{Value, json};

use super::Session;
use crate::sim::directive::{WebhookCmd, WebhookSpec};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::scenario::deployment;
use crate::sim::webhooks::Mode;

/// Requests the report shows.
const REPORT_REQUESTS: usize = 8;

/// The configuration a `webhook add` registers: one webhook, `NAME.example.com`, calling
/// Service NAME in default on /validate or /mutate.
fn configuration(spec: &WebhookSpec) -> (Kind, Value) {
    let kind = if spec.mutating {
        Kind::MutatingWebhookConfiguration
    } else {
        Kind::ValidatingWebhookConfiguration
    };
    let rules: Vec<Value> = spec
        .resources
        .iter()
        .map(|r| {
            let group = Kind::parse(r)
                .map(|k| k.api_version().rsplit_once('/').map_or("", |(g, _)| g))
                .unwrap_or("");
            json!({"apiGroups": [group], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                "resources": [r], "scope": "Namespaced"})
        })
        .collect();
    let mut hook = json!({
        "name": format!("{}.example.com", spec.name),
        "admissionReviewVersions": ["v1"],
        "sideEffects": "None",
        "failurePolicy": if spec.ignore { "Ignore" } else { "Fail" },
        "clientConfig": {"service": {"name": spec.name, "namespace": "default",
            "path": if spec.mutating { "/mutate" } else { "/validate" }, "port": 443}},
        "rules": rules,
    });
    if let Some(t) = spec.timeout {
        hook["timeoutSeconds"] = json!(t);
    }
    if !spec.skip_namespaces.is_empty() {
        hook["namespaceSelector"] = json!({"matchExpressions": [{"key": "kubernetes.io/metadata.name",
            "operator": "NotIn", "values": spec.skip_namespaces}]});
    }
    if spec.skip_self {
        hook["objectSelector"] = json!({"matchExpressions": [{"key": "app",
            "operator": "NotIn", "values": [spec.name]}]});
    }
    let obj = json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind.kind_name(),
        "metadata": {"name": spec.name}, "webhooks": [hook]});
    (kind, obj)
}

fn service(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "labels": {"app": name}},
        "spec": {"selector": {"app": name}, "ports": [{"port": 443, "targetPort": 8443, "protocol": "TCP"}]}})
}

impl Session {
    pub(super) fn webhook_directive(&mut self, cmd: WebhookCmd) -> Result<String, String> {
        match cmd {
            WebhookCmd::Show => Ok(self.webhook_report()),
            WebhookCmd::Add(spec) => self.webhook_add(&spec),
            WebhookCmd::Set(name, mode) => {
                if self.cluster.api.webhooks.get(&name).is_none() {
                    return Err(format!(
                        "error: no webhook server `{name}`: `webhook add validating|mutating {name}` starts one\n"
                    ));
                }
                let said = format!("webhook server {name}: {}\n", mode.describe());
                self.cluster.api.webhooks.set(&name, mode);
                Ok(said)
            }
        }
    }

    fn webhook_add(&mut self, spec: &WebhookSpec) -> Result<String, String> {
        let name = &spec.name;
        let api = &self.cluster.api;
        if api.webhooks.get(name).is_some()
            || api.get(Kind::Deployment, name).is_ok()
            || api.get(Kind::Service, name).is_ok()
        {
            return Err(format!(
                "error: `{name}` is taken: a webhook server is a Deployment and a Service of that name\n"
            ));
        }
        if let Some(t) = spec.timeout.filter(|t| !(1..=30).contains(t)) {
            return Err(format!(
                "error: timeoutSeconds must be between 1 and 30 seconds, not {t}\n"
            ));
        }
        let (kind, config) = configuration(spec);
        // The configuration is checked now, so a bad one is refused before anything runs.
        let mut checked = config.clone();
        crate::sim::kinds::of(kind).default(&mut checked);
        crate::sim::kinds::of(kind)
            .validate(&checked, None)
            .map_err(|e| format!("{}\n", e.message))?;
        let now = self.cluster.now();
        let image = format!("example.com/{name}-webhook:1.0");
        self.cluster
            .api
            .as_manager("kubectl-create", None, |api| {
                api.create(Kind::Deployment, deployment(name, &image, 1), now)?;
                api.create(Kind::Service, service(name), now)
            })
            .map_err(|e| format!("error: {}\n", e.message))?;
        self.cluster.api.webhooks.set(name, Mode::Allow);
        self.webhook_installs.push((kind, config, None));
        Ok(format!(
            "webhook server {name} starting (Deployment and Service {name}); the {} {name} is registered once a pod of it is ready\n",
            kind.kind_name()
        ))
    }

    /// Registers each pending configuration whose server has a ready endpoint, as an
    /// installer that waits for the rollout before applying it would.
    pub(super) fn register_ready_webhooks(&mut self) {
        if self.webhook_installs.is_empty() {
            return;
        }
        let now = self.cluster.now();
        let pending = std::mem::take(&mut self.webhook_installs);
        for (kind, config, _) in pending {
            let name = obj::name(&config).to_string();
            if !self.cluster.api.has_ready_endpoint(&name) {
                self.webhook_installs.push((kind, config, None));
                continue;
            }
            let created = self.cluster.api.as_manager("kubectl-create", None, |api| {
                api.create(kind, config.clone(), now)
            });
            // Refused (say, by another webhook): tried again each second, and the report
            // says why.
            if let Err(e) = created {
                self.webhook_installs.push((kind, config, Some(e.message)));
            }
        }
    }

    /// `webhooks()`: the webhooks configured; with "Fail" or "Ignore", those with that
    /// failurePolicy; with "reachable", those whose server would answer a call now.
    pub(super) fn webhooks_counted(&self, which: &str) -> usize {
        let api = &self.cluster.api;
        [
            Kind::MutatingWebhookConfiguration,
            Kind::ValidatingWebhookConfiguration,
        ]
        .into_iter()
        .flat_map(|k| api.list(k))
        .flat_map(|c| c["webhooks"].as_array().into_iter().flatten())
        .filter(|h| match which {
            "" => true,
            "reachable" => {
                let svc = h["clientConfig"]["service"]["name"].as_str().unwrap_or("");
                api.has_ready_endpoint(svc)
                    && api.webhooks.get(svc).is_some_and(|m| *m != Mode::Down)
            }
            policy => h["failurePolicy"] == policy,
        })
        .count()
    }

    /// Each configuration's webhooks and policy, each server and what it does, then the
    /// last requests a webhook saw.
    pub fn webhook_report(&self) -> String {
        let api = &self.cluster.api;
        let mut out = String::new();
        for kind in [
            Kind::MutatingWebhookConfiguration,
            Kind::ValidatingWebhookConfiguration,
        ] {
            for c in api.list(kind) {
                for h in c["webhooks"].as_array().into_iter().flatten() {
                    let svc = h["clientConfig"]["service"]["name"].as_str().unwrap_or("");
                    out += &format!(
                        "{} {}: webhook {} -> Service {svc}, failurePolicy {}, timeout {}s\n",
                        kind.kind_name(),
                        obj::name(c),
                        h["name"].as_str().unwrap_or(""),
                        h["failurePolicy"].as_str().unwrap_or(""),
                        h["timeoutSeconds"]
                    );
                }
            }
        }
        for (kind, config, error) in &self.webhook_installs {
            out += &match error {
                None => format!(
                    "{} {}: waiting for its server to be ready\n",
                    kind.kind_name(),
                    obj::name(config)
                ),
                Some(e) => format!(
                    "{} {}: could not be registered: {e}\n",
                    kind.kind_name(),
                    obj::name(config)
                ),
            };
        }
        for (svc, mode) in api.webhooks.iter() {
            out += &format!("server {svc}: {}\n", mode.describe());
        }
        if out.is_empty() {
            return "no admission webhooks: `webhook add validating NAME` declares one\n".into();
        }
        let log = &api.admission.log;
        if !log.is_empty() {
            out += "requests a webhook saw (newest last):\n";
            for t in log.iter().skip(log.len().saturating_sub(REPORT_REQUESTS)) {
                out += &format!("  {}\n", t.line());
            }
        }
        out
    }
}
