//! The admission webhook servers of the demo: programs that run in the pods behind a
//! Service and answer the API server's AdmissionReview calls. The API server
//! (`api::admission`) reaches one through its Service's cluster IP, as kube-apiserver's
//! default service resolver does; what the program then answers is set here by the
//! `webhook` directive. A leaf beside `metrics`: no clock, no IO.

use std::collections::BTreeMap;

/// What a webhook server does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// `allowed: true`, no patch.
    Allow,
    /// `allowed: false` with this message, code 403 and reason Forbidden, as
    /// controller-runtime's `admission.Denied` answers.
    Deny(String),
    /// The process is not listening: the connection is refused.
    Down,
    /// Answers after this many seconds (allowing), which a shorter `timeoutSeconds` cuts.
    Slow(u64),
    /// A mutating server's JSONPatch: adds this label (a validating call is allowed).
    Label(String, String),
}

impl Mode {
    /// How the `webhook` directive and the demo name the mode.
    pub fn describe(&self) -> String {
        match self {
            Mode::Allow => "allows".into(),
            Mode::Deny(m) => format!("denies: {m}"),
            Mode::Down => "down (connection refused)".into(),
            Mode::Slow(s) => format!("answers after {s}s"),
            Mode::Label(k, v) => format!("adds label {k}={v}"),
        }
    }
}

/// The webhook programs, by the name of the Service in `default` that fronts them.
#[derive(Debug, Clone, Default)]
pub struct WebhookServers {
    servers: BTreeMap<String, Mode>,
}

impl WebhookServers {
    pub fn set(&mut self, service: &str, mode: Mode) {
        self.servers.insert(service.to_string(), mode);
    }

    /// The program behind `service`, if the demo runs one there.
    pub fn get(&self, service: &str) -> Option<&Mode> {
        self.servers.get(service)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Mode)> {
        self.servers.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }
}
