//! The TTL-after-finished controller (kube-controller-manager's
//! `pkg/controller/ttlafterfinished`, 1.32): a finished Job with `ttlSecondsAfterFinished`
//! is deleted that many seconds after its Complete or Failed condition, in the
//! foreground (its pods go first). It records no events.

use crate::sim::api::ApiServer;
use crate::sim::client::RateLimit;
use crate::sim::deletion::Propagation;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::{parse_rfc3339, sim_unix};

pub const WATCHES: &[Kind] = &[Kind::Job];
pub const COMPONENT: &str = "ttl-after-finished-controller";

#[derive(Clone)]
pub struct TtlAfterFinished {
    pub informer: Informer,
    pub client: RateLimit,
}

impl TtlAfterFinished {
    pub fn new(resync: u64) -> Self {
        TtlAfterFinished {
            informer: Informer::new(WATCHES, resync),
            client: RateLimit::default(),
        }
    }

    fn handle(&mut self, deltas: Vec<Delta>) {
        for d in deltas {
            if d.event != crate::sim::api::EventType::Deleted {
                self.informer.enqueue(d.object.name());
            }
        }
    }

    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize {
        let mut n = 0;
        while let Some(name) = super::controller::next_key(&mut self.informer, &self.client) {
            n += 1 + self.sync(api, &name, now);
        }
        n
    }

    /// processJob: deletes the Job once its time is up, or looks again when it will be.
    fn sync(&mut self, api: &mut ApiServer, name: &str, now: u64) -> usize {
        let Some(job) = self.informer.get(Kind::Job, name) else {
            return 0;
        };
        let Some(ttl) = job["spec"]["ttlSecondsAfterFinished"].as_i64() else {
            return 0;
        };
        if obj::is_deleting(job) {
            return 0;
        }
        let Some(finished) = ["Complete", "Failed"]
            .iter()
            .filter_map(|t| super::job::condition(job, t))
            .find_map(|c| c["lastTransitionTime"].as_str().and_then(parse_rfc3339))
        else {
            return 0;
        };
        let expire = finished.saturating_add(ttl);
        let now_unix = sim_unix(now);
        if now_unix < expire {
            self.informer
                .enqueue_after(name, now.saturating_add((expire - now_unix) as u64));
            return 0;
        }
        self.client.spend(1);
        let _ = api.delete_propagating(Kind::Job, name, None, Propagation::Foreground, now);
        1
    }
}

impl super::Controller for TtlAfterFinished {
    super::controller::controller_basics!(TtlAfterFinished, Component::TtlAfterFinished);
    fn resync(&mut self) {
        super::controller::enqueue_all(&mut self.informer, Kind::Job);
    }
}
