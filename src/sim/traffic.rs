//! The demo's load generator (`traffic N`): N requests a simulated second to a Service,
//! each sent to an endpoint the way kube-proxy routes it, as the proxies saw the
//! Service's EndpointSlices `delay` seconds ago (the time an endpoint change takes to
//! reach every node's proxy rules). A request succeeds if the pod behind that address is
//! there and its app answers (`controllers::app::answers`): an app that has exited on
//! SIGTERM, or a pod already gone, fails it, as a client sees a 502 or a refused
//! connection.
//!
//! kube-proxy routes to the endpoints that are `ready`; when a Service has none, to the
//! ones that are `serving` and `terminating` (ProxyTerminatingEndpoints, GA in 1.28).
//! Requests are spread evenly, in turn, rather than at random, so the same input gives
//! the same counts.

use std::collections::VecDeque;

use serde_json::Value;

use crate::sim::HashMap;
use crate::sim::api::ApiServer;
use crate::sim::controllers::app;
use crate::sim::kind::Kind;
use crate::sim::kinds::service::SERVICE_NAME_LABEL;
use crate::sim::stored::Stored;
use crate::sim::time::sim_unix;

/// The propagation delay when the directive names none.
pub const DEFAULT_DELAY: u64 = 1;
/// Seconds of counts kept: as the replicas history.
const KEPT: usize = 3600;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Second {
    pub at: u64,
    pub ok: u32,
    pub errors: u32,
}

#[derive(Debug, Clone)]
pub struct Traffic {
    pub service: String,
    pub rate: u32,
    pub delay: u64,
    /// What the proxies could route to at each recent second.
    views: VecDeque<(u64, Vec<(String, i64)>)>,
    next: usize,
    pub history: VecDeque<Second>,
    pub total_ok: u64,
    pub total_errors: u64,
}

/// The addresses (IP and port) kube-proxy routes the Service's traffic to, from its
/// slices now: the endpoints of the slices that carry the Service's (first) port, by its
/// name, at the number that slice gives it.
pub fn routable(api: &ApiServer, service: &str) -> Vec<(String, i64)> {
    let Ok(svc) = api.get(Kind::Service, service) else {
        return Vec::new();
    };
    let port_name = svc["spec"]["ports"][0]["name"].as_str().unwrap_or("");
    let endpoints: Vec<(&Value, i64)> = api
        .list(Kind::EndpointSlice)
        .filter(|s| s["metadata"]["labels"][SERVICE_NAME_LABEL] == service)
        .filter_map(|s| {
            let port = s["ports"]
                .as_array()?
                .iter()
                .find(|p| p["name"].as_str().unwrap_or("") == port_name)?["port"]
                .as_i64()?;
            Some((s, port))
        })
        .flat_map(|(s, port)| {
            s["endpoints"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |e| (e, port))
        })
        .collect();
    let cond = |e: &Value, c: &str| e["conditions"][c].as_bool();
    // A missing `ready` counts as ready, as the API documents.
    let addresses = |keep: &dyn Fn(&Value) -> bool| -> Vec<(String, i64)> {
        endpoints
            .iter()
            .filter(|(e, _)| keep(e))
            .flat_map(|(e, port)| {
                e["addresses"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(move |a| (a.to_string(), *port))
            })
            .collect()
    };
    let mut ips = addresses(&|e| cond(e, "ready") != Some(false));
    if ips.is_empty() {
        ips = addresses(&|e| {
            cond(e, "serving") == Some(true) && cond(e, "terminating") == Some(true)
        });
    }
    ips.sort();
    ips
}

impl Traffic {
    pub fn new(service: &str, rate: u32, delay: u64) -> Traffic {
        Traffic {
            service: service.to_string(),
            rate,
            delay,
            views: VecDeque::new(),
            next: 0,
            history: VecDeque::new(),
            total_ok: 0,
            total_errors: 0,
        }
    }

    /// Notes what the proxies see at second `now` (after the cluster settled): the view
    /// requests `delay` seconds on will use.
    pub fn observe(&mut self, api: &ApiServer, now: u64) {
        self.views.push_back((now, routable(api, &self.service)));
        while self
            .views
            .get(1)
            .is_some_and(|(at, _)| *at + self.delay <= now)
        {
            self.views.pop_front();
        }
    }

    /// Sends this second's requests and counts how they went.
    pub fn send(&mut self, api: &ApiServer, now: u64) -> Second {
        self.observe(api, now);
        // The newest view at least `delay` old; the oldest there is when traffic began
        // later than that.
        let view = self
            .views
            .iter()
            .rev()
            .find(|(at, _)| at + self.delay <= now)
            .or(self.views.front())
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let pods: HashMap<String, &Stored> = api
            .list_shared(Kind::Pod)
            .filter_map(|p| Some((app::pod_ip(p)?.to_string(), &**p)))
            .collect();
        let at = sim_unix(now);
        let mut second = Second {
            at: now,
            ..Second::default()
        };
        for _ in 0..self.rate {
            let answered = if view.is_empty() {
                false
            } else {
                let (ip, port) = &view[self.next % view.len()];
                self.next = self.next.wrapping_add(1);
                pods.get(ip).is_some_and(|p| app::answers(p, *port, at))
            };
            if answered {
                second.ok += 1;
            } else {
                second.errors += 1;
            }
        }
        self.total_ok += u64::from(second.ok);
        self.total_errors += u64::from(second.errors);
        self.history.push_back(second);
        if self.history.len() > KEPT {
            self.history.pop_front();
        }
        second
    }
}
