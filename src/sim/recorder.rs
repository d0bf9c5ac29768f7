//! The client side of Events: the EventCorrelator every component's event broadcaster runs
//! (client-go `tools/record/events_cache.go`) before anything reaches the API.
//!
//! - **Aggregation**: once 10 events of one source, object, type and reason but different
//!   messages come within 10 minutes, the rest are folded into one event whose message is
//!   `(combined from similar events): <latest message>`.
//! - **Counting**: a repeat of the same event (same message too) patches the first one's
//!   `count` and `lastTimestamp` instead of creating another.
//! - **Spam filter**: each source may send 25 events about one object, refilled at one
//!   every 5 minutes; the rest are dropped. So a ReplicaSet that creates 1,000 pods has 25
//!   event writes, not 1,000.
//!
//! Each cache holds 4,096 entries, least recently used first out, as client-go's LRUs do.

use std::collections::BTreeSet;
use std::num::NonZeroUsize;

use foldhash::fast::FixedState;
use lru::LruCache;

use crate::sim::HashMap;

/// `defaultAggregateMaxEvents` and `defaultAggregateIntervalInSeconds`.
const AGGREGATE_MAX_EVENTS: usize = 10;
const AGGREGATE_INTERVAL: u64 = 600;
/// `defaultSpamBurst` and `defaultSpamQPS`.
const SPAM_BURST: f64 = 25.0;
const SPAM_QPS: f64 = 1.0 / 300.0;
/// `maxLruCacheEntries`.
const CACHE_ENTRIES: usize = 4096;

/// The prefix of an aggregated event's message (`EventAggregatorByReasonMessageFunc`).
pub const COMBINED: &str = "(combined from similar events): ";

/// The event a component is about to record.
pub struct Incoming<'a> {
    pub component: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    pub uid: &'a str,
    pub type_: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
}

/// What the correlator lets through: a new event or a patch of one already written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    /// The logger's key, for [`Recorders::written`].
    pub key: String,
    /// The message to write (combined, for an aggregate).
    pub message: String,
    /// The count to write: 1 for a new event.
    pub count: u64,
    /// For a repeat: the name and first second of the event it repeats.
    pub earlier: Option<(String, u64)>,
    /// An aggregate event, which client-go builds without a reporting controller.
    pub aggregate: bool,
}

/// A map with client-go's LRU bound: the least recently used key goes first.
#[derive(Clone)]
struct Lru<V>(LruCache<String, V, FixedState>);

impl<V> Default for Lru<V> {
    fn default() -> Self {
        let cap = NonZeroUsize::new(CACHE_ENTRIES).expect("a positive bound");
        Lru(LruCache::with_hasher(cap, FixedState::default()))
    }
}

impl<V> Lru<V> {
    /// The entry for `key`, created by `make` if absent, marked most recently used. One
    /// lookup, and the key is copied only when it is new.
    fn entry(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        self.0.get_or_insert_mut_ref(key, make)
    }
}

#[derive(Clone)]
struct Aggregate {
    messages: BTreeSet<String>,
    last: u64,
}

#[derive(Default, Clone)]
struct Log {
    count: u64,
    first: u64,
    name: String,
}

#[derive(Clone)]
struct Bucket {
    tokens: f64,
    last: u64,
}

/// One component's EventCorrelator.
#[derive(Clone, Default)]
struct Correlator {
    aggregates: Lru<Aggregate>,
    logs: Lru<Log>,
    spam: Lru<Bucket>,
    /// The keys of the event being correlated, written into the same buffers each time:
    /// a ReplicaSet's rollout records an Event a second, which the spam filter mostly
    /// drops, and building keys was most of the work.
    keys: String,
    message_key: String,
}

impl Correlator {
    /// `EventCorrelate`: aggregate, then observe, then filter. The logger counts an event
    /// even when the filter then drops it, as client-go's does.
    fn correlate(&mut self, e: &Incoming<'_>, now: u64) -> Option<Observed> {
        // The object key, then the aggregate key that extends it.
        let keys = &mut self.keys;
        keys.clear();
        for (i, part) in [e.component, e.kind, e.name, e.uid, e.type_, e.reason]
            .iter()
            .enumerate()
        {
            if i > 0 {
                keys.push('\u{0}');
            }
            keys.push_str(part);
        }
        let object_len = keys.len() - e.type_.len() - e.reason.len() - 2;
        let aggregate_key = keys.as_str();
        let record = self.aggregates.entry(aggregate_key, || Aggregate {
            messages: BTreeSet::new(),
            last: now,
        });
        if now.saturating_sub(record.last) > AGGREGATE_INTERVAL {
            record.messages.clear();
        }
        if !record.messages.contains(e.message) {
            record.messages.insert(e.message.to_string());
        }
        record.last = now;
        let aggregate = record.messages.len() >= AGGREGATE_MAX_EVENTS;
        let key = if aggregate {
            // PopAny keeps the set below the limit; Go pops an arbitrary member, the
            // simulation the first, so runs repeat.
            record.messages.pop_first();
            aggregate_key
        } else {
            self.message_key.clear();
            self.message_key.push_str(aggregate_key);
            self.message_key.push('\u{0}');
            self.message_key.push_str(e.message);
            self.message_key.as_str()
        };
        let log = self.logs.entry(key, Log::default);
        let earlier = (log.count > 0).then(|| (log.name.clone(), log.first));
        log.count += 1;
        if earlier.is_none() {
            log.first = now;
        }
        let count = log.count;
        let bucket = self.spam.entry(&self.keys[..object_len], || Bucket {
            tokens: SPAM_BURST,
            last: now,
        });
        bucket.tokens = (bucket.tokens + (now - bucket.last) as f64 * SPAM_QPS).min(SPAM_BURST);
        bucket.last = now;
        if bucket.tokens < 1.0 {
            return None;
        }
        bucket.tokens -= 1.0;
        let (key, message) = if aggregate {
            (self.keys.clone(), format!("{COMBINED}{}", e.message))
        } else {
            (self.message_key.clone(), e.message.to_string())
        };
        Some(Observed {
            key,
            message,
            count,
            earlier,
            aggregate,
        })
    }
}

/// The correlators of every component that records events, by component name. A
/// component that crashes loses its own (see [`Recorders::forget`]).
#[derive(Clone, Default)]
pub struct Recorders {
    by_component: HashMap<String, Correlator>,
}

impl Recorders {
    /// Runs `e` through its component's correlator: `None` when the spam filter drops it.
    pub fn correlate(&mut self, e: &Incoming<'_>, now: u64) -> Option<Observed> {
        if !self.by_component.contains_key(e.component) {
            self.by_component
                .insert(e.component.to_string(), Correlator::default());
        }
        self.by_component
            .get_mut(e.component)
            .and_then(|c| c.correlate(e, now))
    }

    /// `UpdateState`: the name the API stored an event under, for the next repeat.
    pub fn written(&mut self, component: &str, key: &str, name: &str) {
        if let Some(c) = self.by_component.get_mut(component) {
            c.logs.entry(key, Log::default).name = name.to_string();
        }
    }

    /// A restarted process starts with empty caches.
    pub fn forget(&mut self, component: &str) {
        self.by_component.remove(component);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created(r: &mut Recorders, pod: usize, now: u64) -> Option<Observed> {
        let message = format!("Created pod: web-{pod}");
        r.correlate(
            &Incoming {
                component: "replicaset-controller",
                kind: "ReplicaSet",
                name: "web-1",
                uid: "u1",
                type_: "Normal",
                reason: "SuccessfulCreate",
                message: &message,
            },
            now,
        )
    }

    #[test]
    fn the_tenth_distinct_message_starts_one_combined_event() {
        let mut r = Recorders::default();
        for i in 1..=9 {
            let o = created(&mut r, i, 0).unwrap();
            assert_eq!((o.count, o.aggregate), (1, false), "event {i}");
            r.written("replicaset-controller", &o.key, &format!("ev{i}"));
        }
        let tenth = created(&mut r, 10, 0).unwrap();
        assert_eq!(
            tenth.message,
            "(combined from similar events): Created pod: web-10"
        );
        assert_eq!(
            (tenth.count, tenth.aggregate, tenth.earlier),
            (1, true, None)
        );
        r.written("replicaset-controller", &tenth.key, "agg");
        let eleventh = created(&mut r, 11, 1).unwrap();
        assert_eq!(
            eleventh.message,
            "(combined from similar events): Created pod: web-11"
        );
        assert_eq!(eleventh.count, 2);
        assert_eq!(eleventh.earlier, Some(("agg".to_string(), 0)));
    }

    #[test]
    fn a_source_sends_25_events_about_an_object_then_one_per_five_minutes() {
        let mut r = Recorders::default();
        let sent = (1..=100).filter_map(|i| created(&mut r, i, 5)).count();
        assert_eq!(sent, 25);
        assert!(created(&mut r, 101, 304).is_none(), "not yet a whole token");
        let late = created(&mut r, 102, 305).expect("one token after 300 s");
        // The logger counted the dropped ones too.
        assert_eq!(late.count, 93);
    }

    #[test]
    fn after_ten_quiet_minutes_messages_are_individual_again() {
        let mut r = Recorders::default();
        for i in 1..=12 {
            created(&mut r, i, 0);
        }
        let o = created(&mut r, 13, 601).unwrap();
        assert!(!o.aggregate);
        assert_eq!(o.message, "Created pod: web-13");
    }

    #[test]
    fn a_repeat_counts_up_and_a_crash_forgets() {
        let mut r = Recorders::default();
        let first = created(&mut r, 1, 0).unwrap();
        r.written("replicaset-controller", &first.key, "ev1");
        let again = created(&mut r, 1, 3).unwrap();
        assert_eq!(
            (again.count, again.earlier),
            (2, Some(("ev1".to_string(), 0)))
        );
        r.forget("replicaset-controller");
        assert_eq!(created(&mut r, 1, 4).unwrap().count, 1);
    }

    #[test]
    fn the_caches_keep_4096_entries() {
        let mut lru = Lru::default();
        for i in 0..5000 {
            *lru.entry(&i.to_string(), || 0) += 1;
        }
        assert_eq!(lru.0.len(), CACHE_ENTRIES);
        assert!(!lru.0.contains("0"), "the oldest went first");
        assert!(lru.0.contains("4999"));
        // A use makes a key the most recent: it outlives newer ones.
        lru.entry("1000", || 0);
        for i in 5000..9095 {
            lru.entry(&i.to_string(), || 0);
        }
        assert!(lru.0.contains("1000") && !lru.0.contains("1001"));
    }
}
