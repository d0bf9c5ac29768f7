//! The `traffic` directive: the demo's load generator against a Service (see
//! [`crate::sim::traffic`]), run once a simulated second after the cluster has moved.

use super::Session;
use crate::sim::directive::TrafficCmd;
use crate::sim::kind::Kind;
use crate::sim::traffic::Traffic;

/// Seconds the report sums over.
const RECENT: usize = 10;

impl Session {
    pub(super) fn run_traffic(&mut self) {
        let now = self.cluster.now();
        if let Some(t) = self.traffic.as_mut() {
            t.send(&self.cluster.api, now);
        }
    }

    /// What `traffic ...` prints.
    pub(super) fn traffic_directive(&mut self, cmd: TrafficCmd) -> Result<String, String> {
        match cmd {
            TrafficCmd::Start {
                rate,
                service,
                delay,
            } => {
                let missing = if self.cluster.api.get(Kind::Service, &service).is_err() {
                    format!(
                        " (there is no Service {service} yet: every request fails until there is)"
                    )
                } else {
                    String::new()
                };
                let mut t = Traffic::new(&service, rate, delay);
                // The proxies have been watching all along: they start from what is there now.
                t.observe(&self.cluster.api, self.cluster.now());
                self.traffic = Some(t);
                Ok(format!(
                    "traffic: {rate} requests a second to service {service}; the proxies see endpoint changes {delay}s late{missing}\n"
                ))
            }
            TrafficCmd::Off => match self.traffic.take() {
                Some(t) => Ok(format!(
                    "traffic: stopped; {} requests answered, {} failed\n",
                    t.total_ok, t.total_errors
                )),
                None => Err("error: no traffic is running (`traffic N` starts it)\n".into()),
            },
            TrafficCmd::Show => self
                .traffic_report()
                .ok_or_else(|| "error: no traffic is running (`traffic N` starts it)\n".into()),
        }
    }

    /// The counts: the last seconds' and the totals.
    pub fn traffic_report(&self) -> Option<String> {
        let t = self.traffic.as_ref()?;
        let recent: Vec<_> = t.history.iter().rev().take(RECENT).collect();
        let (ok, err) = recent.iter().fold((0u64, 0u64), |(o, e), s| {
            (o + u64::from(s.ok), e + u64::from(s.errors))
        });
        let failing: Vec<String> = t
            .history
            .iter()
            .filter(|s| s.errors > 0)
            .rev()
            .take(5)
            .map(|s| format!("t={}s: {} failed", s.at, s.errors))
            .collect();
        let mut out = format!(
            "traffic: {}/s to service {} (proxies {}s late); last {}s: {ok} answered, {err} failed; in all: {} answered, {} failed\n",
            t.rate,
            t.service,
            t.delay,
            recent.len(),
            t.total_ok,
            t.total_errors
        );
        if !failing.is_empty() {
            out.push_str(&format!("  latest failures: {}\n", failing.join(", ")));
        }
        Some(out)
    }
}
