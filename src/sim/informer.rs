//! Informers and work queues (k8s-semantics D1-D6): a cache fed from the watch stream,
//! event handlers that enqueue keys, a deduplicating queue, resync, and the teaching
//! switches (lost events, edge-triggering, pause, crash and relist).

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use serde_json::Value;

use super::api::{ApiServer, EventType, WatchEvent};
use super::directive::Trigger;
use super::kind::Kind;
use super::stored::Stored;
use crate::sim::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunState {
    Running,
    /// Workers stopped; the informer keeps caching and queueing.
    Paused,
    /// The process is gone: no cache, no queue, no expectations.
    Crashed,
}

impl RunState {
    pub fn as_str(self) -> &'static str {
        match self {
            RunState::Running => "running",
            RunState::Paused => "paused",
            RunState::Crashed => "crashed",
        }
    }
}

/// An event as an edge-triggered handler sees it: the new object and the cached old one.
#[derive(Debug, Clone)]
pub struct Delta {
    pub kind: Kind,
    pub event: EventType,
    pub object: Arc<Stored>,
    pub old: Option<Arc<Stored>>,
}

/// Cached objects of one kind by name, with the indexes controllers look them up by
/// (client-go's indexers): by uid, and by the uid of their controller owner.
///
/// The objects sit in slots the indexes point into, so a new version of a cached object
/// with the same uid and owner (most watch events: status writes) is stored through one
/// hashed lookup, with no ordered index searched.
#[derive(Default, Clone)]
struct Store {
    slots: Vec<Option<Arc<Stored>>>,
    /// Slots emptied by removals, reused first.
    free: Vec<usize>,
    /// Hashed: every watch event looks its object up here, and only the rare full list
    /// needs name order (see [`Informer::iter`]).
    by_name: HashMap<Arc<str>, usize>,
    /// The uid and name strings are the stored object's own (see [`Stored::facts`]).
    by_uid: HashMap<Arc<str>, Arc<str>>,
    /// Objects with a controller ownerReference, by that owner's uid, in name order.
    by_owner: HashMap<Arc<str>, BTreeMap<Arc<str>, usize>>,
    /// Objects with no controller: candidates for adoption.
    orphans: BTreeMap<Arc<str>, usize>,
}

impl Store {
    fn slot(&self, i: usize) -> &Arc<Stored> {
        self.slots[i]
            .as_ref()
            .expect("the indexes point at filled slots")
    }

    fn get(&self, name: &str) -> Option<&Arc<Stored>> {
        self.by_name.get(name).map(|&i| self.slot(i))
    }

    fn values(&self) -> impl Iterator<Item = &Arc<Stored>> {
        self.slots.iter().flatten()
    }

    fn insert(&mut self, name: &str, o: Arc<Stored>) -> Option<Arc<Stored>> {
        // A new version of an object with the same uid and controller keeps its index
        // entries: only its slot changes.
        if let Some(&i) = self.by_name.get(name)
            && let Some(slot) = self.slots[i].as_mut()
            && same_ids(slot, &o)
        {
            return Some(std::mem::replace(slot, o));
        }
        let old = self.remove(name);
        // The keys are the stored object's own name and owner strings, not copies.
        let facts = o.facts();
        debug_assert_eq!(&*facts.name, name);
        let name = Arc::clone(&facts.name);
        self.by_uid
            .insert(Arc::clone(&facts.uid), Arc::clone(&facts.name));
        let owner = facts.controller.clone();
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i] = Some(o);
                i
            }
            None => {
                self.slots.push(Some(o));
                self.slots.len() - 1
            }
        };
        match owner {
            Some(u) => {
                self.by_owner
                    .entry(u)
                    .or_default()
                    .insert(Arc::clone(&name), i);
            }
            None => {
                self.orphans.insert(Arc::clone(&name), i);
            }
        }
        self.by_name.insert(name, i);
        old
    }

    fn remove(&mut self, name: &str) -> Option<Arc<Stored>> {
        let i = self.by_name.remove(name)?;
        let old = self.slots[i].take()?;
        self.free.push(i);
        let uid = old.uid();
        if self.by_uid.get(uid).is_some_and(|n| &**n == name) {
            self.by_uid.remove(uid);
        }
        match old.controller_uid() {
            Some(u) => {
                if let Some(m) = self.by_owner.get_mut(u) {
                    m.remove(name);
                    if m.is_empty() {
                        self.by_owner.remove(u);
                    }
                }
            }
            None => {
                self.orphans.remove(name);
            }
        }
        Some(old)
    }
}

/// Whether two versions have the same uid and controller owner; versions that share
/// their metadata share these strings too, and are not compared.
fn same_ids(a: &Stored, b: &Stored) -> bool {
    let same = |x: &Arc<str>, y: &Arc<str>| Arc::ptr_eq(x, y) || x == y;
    let (a, b) = (a.facts(), b.facts());
    same(&a.uid, &b.uid)
        && match (&a.controller, &b.controller) {
            (Some(x), Some(y)) => same(x, y),
            (x, y) => x.is_none() && y.is_none(),
        }
}

#[derive(Clone)]
pub struct Informer {
    pub watches: &'static [Kind],
    /// Per kind, by name: lists come out in name order without sorting.
    cache: BTreeMap<Kind, Store>,
    cursor: u64,
    pub state: RunState,
    pub trigger: Trigger,
    queue: VecDeque<String>,
    queued: HashSet<String>,
    /// Edge-triggered mode acts on these instead of on keys.
    pub deltas: VecDeque<Delta>,
    drop_next: u32,
    pub dropped: u64,
    /// Keys to enqueue at a later second (the work queue's AddAfter), by due time.
    delayed: BTreeMap<u64, Vec<String>>,
    pub resync_every: u64,
    last_resync: u64,
}

impl Informer {
    pub fn new(watches: &'static [Kind], resync_every: u64) -> Self {
        Informer {
            watches,
            cache: BTreeMap::new(),
            cursor: 0,
            state: RunState::Running,
            trigger: Trigger::Level,
            queue: VecDeque::new(),
            queued: HashSet::default(),
            deltas: VecDeque::new(),
            drop_next: 0,
            dropped: 0,
            delayed: BTreeMap::new(),
            resync_every,
            last_resync: 0,
        }
    }

    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    pub fn get(&self, kind: Kind, name: &str) -> Option<&Value> {
        self.get_shared(kind, name).map(|o| o.value())
    }

    /// The cached object itself, to keep without copying it.
    pub fn get_shared(&self, kind: Kind, name: &str) -> Option<&Arc<Stored>> {
        self.cache.get(&kind).and_then(|m| m.get(name))
    }

    /// Cached objects of one kind, in name order (deterministic iteration).
    pub fn list(&self, kind: Kind) -> Vec<&Value> {
        self.iter(kind).collect()
    }

    /// [`Self::list`] without collecting the values.
    pub fn iter(&self, kind: Kind) -> impl Iterator<Item = &Value> {
        let mut all: Vec<&Arc<Stored>> = self
            .cache
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.values())
            .collect();
        all.sort_unstable_by(|a, b| a.name().cmp(b.name()));
        all.into_iter().map(|o| o.value())
    }

    /// Cached objects of one kind in no order, for sums that need none.
    pub fn values_shared(&self, kind: Kind) -> impl Iterator<Item = &Arc<Stored>> {
        self.cache.get(&kind).into_iter().flat_map(|m| m.values())
    }

    /// The name of the cached object with this uid.
    pub fn name_by_uid(&self, kind: Kind, uid: &str) -> Option<&Arc<str>> {
        self.cache.get(&kind).and_then(|m| m.by_uid.get(uid))
    }

    /// Cached objects whose controller owner has `owner_uid`, in name order.
    pub fn owned_by<'a>(
        &'a self,
        kind: Kind,
        owner_uid: &str,
    ) -> impl Iterator<Item = &'a Arc<Stored>> + 'a {
        let found = self
            .cache
            .get(&kind)
            .and_then(|m| Some((m, m.by_owner.get(owner_uid)?)));
        found
            .into_iter()
            .flat_map(|(m, owned)| owned.values().map(move |&i| m.slot(i)))
    }

    /// Cached objects of a kind with no controller owner, in name order.
    pub fn orphans(&self, kind: Kind) -> impl Iterator<Item = &Arc<Stored>> {
        self.cache
            .get(&kind)
            .into_iter()
            .flat_map(|m| m.orphans.values().map(move |&i| m.slot(i)))
    }

    pub fn queue_len(&self) -> usize {
        match self.trigger {
            Trigger::Level => self.queue.len(),
            Trigger::Edge => self.deltas.len(),
        }
    }

    pub fn enqueue(&mut self, key: &str) {
        // D2: a key already waiting is processed once.
        if !self.queued.contains(key) {
            self.queued.insert(key.to_string());
            self.queue.push_back(key.to_string());
        }
    }

    /// Enqueues `key` at simulated second `at` (AddAfter); a crash forgets it, as the
    /// in-memory queue is lost.
    pub fn enqueue_after(&mut self, key: &str, at: u64) {
        let keys = self.delayed.entry(at).or_default();
        if !keys.iter().any(|k| k == key) {
            keys.push(key.to_string());
        }
    }

    /// Moves every delayed key due by `now` into the queue.
    pub fn release_due(&mut self, now: u64) {
        while let Some(entry) = self.delayed.first_entry() {
            if *entry.key() > now {
                break;
            }
            for k in entry.remove() {
                if self.state != RunState::Crashed {
                    self.enqueue(&k);
                }
            }
        }
    }

    pub fn pop(&mut self) -> Option<String> {
        let k = self.queue.pop_front()?;
        self.queued.remove(&k);
        Some(k)
    }

    pub fn drop_next(&mut self, n: u32) {
        self.drop_next = self.drop_next.saturating_add(n);
    }

    /// Feeds new watch events into the cache; returns the deltas for the event handlers.
    /// A dropped event updates the cache but never reaches the handlers: the teaching
    /// fault of a lost notification (real watches resume from the last resourceVersion).
    pub fn deliver(&mut self, api: &ApiServer) -> Vec<Delta> {
        if self.state == RunState::Crashed {
            return Vec::new();
        }
        let events: Vec<WatchEvent> = api
            .events_since(self.cursor)
            .filter(|e| self.watches.contains(&e.kind))
            .cloned()
            .collect();
        self.cursor = api.next_seq();
        let mut out = Vec::with_capacity(events.len());
        for e in events {
            let store = self.cache.entry(e.kind).or_default();
            let old = match e.event {
                EventType::Deleted => store.remove(e.object.name()),
                _ => store.insert(e.object.name(), Arc::clone(&e.object)),
            };
            if self.drop_next > 0 {
                // The notification is lost; the cache is still right, so anything that
                // rereads it (a later event for the object, the resync) sees the truth.
                self.drop_next -= 1;
                self.dropped += 1;
                continue;
            }
            out.push(Delta {
                kind: e.kind,
                event: e.event,
                object: e.object,
                old,
            });
        }
        out
    }

    /// D4: at each resync period the cache is redelivered as updates with no change.
    pub fn due_for_resync(&mut self, now: u64) -> bool {
        if self.state == RunState::Crashed || self.resync_every == 0 {
            return false;
        }
        if now >= self.last_resync + self.resync_every {
            self.last_resync = now;
            return true;
        }
        false
    }

    pub fn crash(&mut self) {
        self.state = RunState::Crashed;
        self.cache.clear();
        self.queue.clear();
        self.delayed.clear();
        self.queued.clear();
        self.deltas.clear();
        self.drop_next = 0;
    }

    /// D6: a fresh LIST: every object arrives as Added, nothing missed is replayed.
    pub fn relist(&mut self, api: &ApiServer, now: u64) -> Vec<Delta> {
        self.cache.clear();
        let mut out = Vec::new();
        for kind in self.watches {
            for o in api.list_shared(*kind) {
                let o = Arc::clone(o);
                self.cache
                    .entry(*kind)
                    .or_default()
                    .insert(o.name(), Arc::clone(&o));
                out.push(Delta {
                    kind: *kind,
                    event: EventType::Added,
                    object: o,
                    old: None,
                });
            }
        }
        self.cursor = api.next_seq();
        self.state = RunState::Running;
        self.last_resync = now;
        out
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(name: &str, uid: &str, owner: Option<&str>, rv: &str) -> Arc<Stored> {
        let mut meta = json!({"name": name, "uid": uid, "resourceVersion": rv});
        if let Some(o) = owner {
            meta["ownerReferences"] = json!([{"controller": true, "uid": o}]);
        }
        Arc::new(Stored::new(Kind::Pod, json!({"metadata": meta})))
    }

    fn names<'a>(it: impl Iterator<Item = &'a Arc<Stored>>) -> Vec<String> {
        it.map(|o| o.name().to_string()).collect()
    }

    #[test]
    fn the_indexes_follow_updates_owner_changes_and_removals() {
        let mut s = Store::default();
        for (name, uid) in [("web-c", "u3"), ("web-a", "u1"), ("web-b", "u2")] {
            assert!(s.insert(name, pod(name, uid, Some("rs1"), "1")).is_none());
        }
        s.insert("lone", pod("lone", "u9", None, "1"));
        let owned = |s: &Store| {
            names(
                s.by_owner
                    .get("rs1")
                    .into_iter()
                    .flat_map(|m| m.values().map(|&i| s.slot(i))),
            )
        };
        assert_eq!(owned(&s), ["web-a", "web-b", "web-c"], "name order");
        // A new version with the same ids replaces the old one where the indexes point.
        let old = s.insert("web-b", pod("web-b", "u2", Some("rs1"), "2"));
        assert_eq!(
            old.and_then(|o| o.meta("resourceVersion").cloned()),
            Some(json!("1"))
        );
        let rv = |s: &Store, n| s.get(n).and_then(|o| o.meta("resourceVersion").cloned());
        assert_eq!(rv(&s, "web-b"), Some(json!("2")));
        // Released: it moves from its owner to the orphans.
        s.insert("web-b", pod("web-b", "u2", None, "3"));
        assert_eq!(owned(&s), ["web-a", "web-c"]);
        assert_eq!(
            names(s.orphans.values().map(|&i| s.slot(i))),
            ["lone", "web-b"]
        );
        // Removed, then a new object takes the freed slot; nothing points at the old one.
        assert!(s.remove("web-a").is_some() && s.get("web-a").is_none());
        assert!(!s.by_uid.contains_key("u1"));
        s.insert("web-d", pod("web-d", "u4", Some("rs1"), "4"));
        assert_eq!(s.slots.len(), 4, "the freed slot is reused");
        assert_eq!(owned(&s), ["web-c", "web-d"]);
        assert_eq!(rv(&s, "web-d"), Some(json!("4")));
        // A recreated object (same name, new uid) is indexed afresh.
        s.insert("web-c", pod("web-c", "u5", Some("rs2"), "5"));
        assert_eq!(owned(&s), ["web-d"]);
        assert_eq!(s.by_uid.get("u5").map(|n| &**n), Some("web-c"));
        assert!(!s.by_uid.contains_key("u3"));
        let mut all = names(s.values());
        all.sort();
        assert_eq!(all, ["lone", "web-b", "web-c", "web-d"]);
        assert!(s.remove("web-a").is_none(), "gone already");
    }
}
