//! The `operator` directive: the WebApp operator installed as one is installed for real
//! (its Deployment; it runs once a pod of it is available), its bugs switched on and off,
//! and the report of what it did.

use super::Session;
use crate::sim::directive::OperatorCmd;
use crate::sim::kind::Kind;
use crate::sim::operator::{self, Bug, Operator};

/// Log lines the report shows.
const REPORT_LOG: usize = 8;

impl Session {
    pub(super) fn operator_directive(&mut self, cmd: OperatorCmd) -> Result<String, String> {
        if cmd != OperatorCmd::Install && self.cluster.operator.is_none() {
            return Err("error: no operator: `operator install` starts it\n".into());
        }
        match cmd {
            OperatorCmd::Show => Ok(self.operator_report()),
            OperatorCmd::Install => self.operator_install(),
            OperatorCmd::Bug(b) => {
                if let Some(op) = self.cluster.operator.as_mut() {
                    op.bugs.insert(b);
                    op.restart();
                }
                self.cluster.settle();
                Ok(format!(
                    "operator bug {} on (a new build rolled out; it restarts and lists every WebApp): it {}\n",
                    b.name(),
                    b.describe()
                ))
            }
            OperatorCmd::Use(version) => {
                if let Some(op) = self.cluster.operator.as_mut() {
                    op.version = version.clone();
                    op.restart();
                }
                self.cluster.settle();
                Ok(format!(
                    "operator rebuilt against example.com/{version} (a new build rolled out; it restarts and lists every WebApp)\n"
                ))
            }
            OperatorCmd::Fix(which) => {
                let Some(op) = self.cluster.operator.as_mut() else {
                    return Ok(String::new());
                };
                op.restart();
                let said = match which {
                    Some(b) => {
                        op.bugs.remove(&b);
                        format!("operator bug {} off (a fixed build rolled out)\n", b.name())
                    }
                    None => {
                        op.bugs.clear();
                        "operator bugs all off (a fixed build rolled out)\n".to_string()
                    }
                };
                self.cluster.settle();
                Ok(said)
            }
        }
    }

    fn operator_install(&mut self) -> Result<String, String> {
        if self.cluster.operator.is_some() {
            return Err("error: the operator is installed: `operator` shows it\n".into());
        }
        let now = self.cluster.now();
        let name = operator::NAME;
        self.cluster
            .api
            .as_manager("kubectl-create", None, |api| {
                api.create(
                    Kind::Deployment,
                    crate::sim::scenario::deployment(name, operator::IMAGE, 1),
                    now,
                )
            })
            .map_err(|e| format!("error: {}\n", e.message))?;
        self.cluster.operator = Some(Operator::new(self.cluster.api.next_seq()));
        self.cluster.settle();
        Ok(format!(
            "operator starting (Deployment {name}); it reconciles WebApps once a pod of it is available\n"
        ))
    }

    /// The operator's state, bugs, request rate, DNS records (leaked ones marked) and
    /// its last log lines.
    pub fn operator_report(&self) -> String {
        let Some(op) = self.cluster.operator.as_ref() else {
            return "no operator: `operator install` starts it\n".into();
        };
        let api = &self.cluster.api;
        let mut out = format!(
            "operator {}: {}\n",
            operator::NAME,
            if Operator::running(api) {
                "running"
            } else {
                "down (no available pod)"
            }
        );
        out += &format!("  client: example.com/{} WebApps\n", op.version);
        if op.kind(api).is_none() {
            out += &if api
                .custom_kind_named(operator::GROUP, operator::KIND)
                .is_some()
            {
                format!(
                    "  the CRD no longer serves example.com/{}: it cannot watch WebApps (`operator use VERSION`)\n",
                    op.version
                )
            } else {
                "  the CRD webapps.example.com is not established: nothing to watch\n".into()
            };
        }
        let bugs: Vec<&str> = op.bugs.iter().map(|b| b.name()).collect();
        out += &format!(
            "  bugs: {}\n",
            if bugs.is_empty() {
                "none".to_string()
            } else {
                bugs.join(", ")
            }
        );
        let r = &op.requests;
        out += &format!(
            "  requests: {} ({:.1}/s over the last {} s; {} changed nothing), reconciles: {}, seconds throttled: {}\n",
            r.total,
            r.rate(),
            r.per_second.len(),
            r.unchanged,
            r.reconciles,
            r.throttled_seconds
        );
        let leaked = op.leaked(api);
        for (host, app) in &op.dns {
            let mark = if leaked.contains(host) {
                " (leaked: the WebApp is gone)"
            } else {
                ""
            };
            out += &format!("  DNS record {host} -> WebApp {app}{mark}\n");
        }
        if !op.log.is_empty() {
            out += "log (newest last):\n";
            for l in op.log.iter().skip(op.log.len().saturating_sub(REPORT_LOG)) {
                out += &format!("  {l}\n");
            }
        }
        out
    }

    /// The WebApp kind at whichever version its CRD serves.
    pub(super) fn webapp_kind(&self) -> Option<Kind> {
        self.cluster
            .api
            .custom_kind_named(operator::GROUP, operator::KIND)
            .map(Kind::Custom)
    }

    /// The WebApp `shop` as kubectl would read it now.
    pub(super) fn read_webapp(&self) -> Option<serde_json::Value> {
        let api = &self.cluster.api;
        let kind = self.webapp_kind()?;
        api.read_custom(kind, api.get(kind, "shop").ok()?).ok()
    }

    /// `operator(...)`: requests per second over the last seconds, leaked DNS records,
    /// whether it runs, or whether a bug is on.
    pub(super) fn operator_fact(&self, which: &str) -> f64 {
        let Some(op) = self.cluster.operator.as_ref() else {
            return 0.0;
        };
        let api = &self.cluster.api;
        match which {
            "rate" => op.requests.rate(),
            "leaked" => op.leaked(api).len() as f64,
            "running" => f64::from(u8::from(Operator::running(api))),
            "throttled" => op.requests.throttled_seconds as f64,
            bug => f64::from(u8::from(
                Bug::parse(bug).is_some_and(|b| op.bugs.contains(&b)),
            )),
        }
    }
}
