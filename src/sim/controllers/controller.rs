//! [`Controller`]: what the cluster asks of an informer-driven controller.

use crate::sim::api::{ApiServer, EventType};
use crate::sim::client::RateLimit;
use crate::sim::directive::Component;
use crate::sim::informer::{Delta, Informer};

/// What the cluster asks of a controller that works from informers and a work queue.
pub trait Controller {
    /// Which component it is, for directives (`pause deployment`).
    fn component(&self) -> Component;
    /// The name its events are recorded under (`deployment-controller`).
    fn source(&self) -> &'static str;
    fn informer(&self) -> &Informer;
    fn informer_mut(&mut self) -> &mut Informer;
    /// Its client's rate limiter (kube-controller-manager's `--kube-api-qps`).
    fn client_mut(&mut self) -> &mut RateLimit;
    /// The event handlers: watch deltas to queued keys.
    fn handle(&mut self, deltas: Vec<Delta>);
    /// The workers, as far as the rate limiter lets them; returns the work done.
    fn process(&mut self, api: &mut ApiServer, now: u64) -> usize;
    /// The periodic resync: every cached object's key queued again.
    fn resync(&mut self);
    /// A simulated second has begun: periodic loops that run beside the work queue
    /// (`wait.Until`) come due here.
    fn tick(&mut self, _now: u64) {}
    /// The process dies, taking its memory with it.
    fn crash(&mut self) {
        self.informer_mut().crash();
    }
    /// Requests waiting for the rate limiter.
    fn waiting(&self) -> usize {
        0
    }
    /// Whether its workers run once the others are quiet within a settle, seeing only the
    /// second's final state (the endpoint controllers: nothing else reads what they
    /// write, and syncing a Service's every pod after each round of a rollout would
    /// cost more than the whole rollout).
    fn after_the_others(&self) -> bool {
        false
    }
}

/// CreationObserved / DeletionObserved: the (creates, deletes) a pod delta counts against
/// its owner's expectations. A deletion is seen once, when the pod starts terminating or
/// goes without having done so; most deltas are status changes, which count nothing.
pub(crate) fn observed(d: &Delta) -> (i64, i64) {
    let was_deleting = d.old.as_ref().is_some_and(|o| o.facts().deleting);
    match d.event {
        EventType::Added => (1, 0),
        EventType::Deleted if !was_deleting => (0, 1),
        EventType::Modified if d.object.facts().deleting && !was_deleting => (0, 1),
        _ => (0, 0),
    }
}

/// The periodic resync: every cached object of `kind` queued again.
pub(crate) fn enqueue_all(informer: &mut Informer, kind: crate::sim::kind::Kind) {
    let all: Vec<String> = informer
        .iter(kind)
        .map(|o| crate::sim::obj::name(o).to_string())
        .collect();
    for n in all {
        informer.enqueue(&n);
    }
}

/// `processNextWorkItem`'s guard: the next key to work on, or none when the workers are
/// stopped (paused or crashed), the queue is empty, or the client's rate limit says wait.
pub(crate) fn next_key(informer: &mut Informer, client: &RateLimit) -> Option<String> {
    if informer.state != crate::sim::informer::RunState::Running || !client.ready() {
        return None;
    }
    informer.pop()
}

/// The accessors every informer-driven controller implements the same way, from its
/// `informer` and `client` fields.
macro_rules! informer_and_client {
    () => {
        fn informer(&self) -> &crate::sim::informer::Informer {
            &self.informer
        }
        fn informer_mut(&mut self) -> &mut crate::sim::informer::Informer {
            &mut self.informer
        }
        fn client_mut(&mut self) -> &mut crate::sim::client::RateLimit {
            &mut self.client
        }
    };
}
pub(crate) use informer_and_client;

/// The parts of [`Controller`] every informer-driven controller implements the same way:
/// its component and event source (the module's `COMPONENT`), its informer and client,
/// and its handlers and workers, which are the type's own `handle` and `process`.
macro_rules! controller_basics {
    ($ty:ty, $component:expr) => {
        fn component(&self) -> crate::sim::directive::Component {
            $component
        }
        fn source(&self) -> &'static str {
            COMPONENT
        }
        crate::sim::controllers::controller::informer_and_client!();
        fn handle(&mut self, deltas: Vec<crate::sim::informer::Delta>) {
            <$ty>::handle(self, deltas);
        }
        fn process(&mut self, api: &mut crate::sim::api::ApiServer, now: u64) -> usize {
            <$ty>::process(self, api, now)
        }
    };
}
pub(crate) use controller_basics;
