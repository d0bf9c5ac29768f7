//! The event log: events recorded through each component's recorder (aggregated and
//! rate-limited as client-go's are) and expired after their TTL.

use std::sync::Arc;

use serde_json::{Value, json};

use super::*;
use crate::sim::kind::Kind;
use crate::sim::recorder::Incoming;
use crate::sim::stored::Stored;
use crate::sim::time::rfc3339;

/// A UUID (v4 layout) derived from a name, for objects whose uid should not draw from the
/// seeded stream (that would change every later random name).
pub fn derived_uid(seed: &str) -> String {
    use crate::sim::names::{FNV64_BASIS, fnv64a};
    uuid_v4(&format!(
        "{:016x}{:016x}",
        fnv64a(seed.as_bytes(), FNV64_BASIS),
        fnv64a(seed.as_bytes(), 0x8422_2325_cbf2_9ce4)
    ))
}

/// 32 hex digits in the UUID v4 layout.
pub(super) fn uuid_v4(h: &str) -> String {
    let mut u = String::with_capacity(36);
    for (sep, part) in [
        ("", &h[0..8]),
        ("-", &h[8..12]),
        ("-4", &h[13..16]),
        ("-a", &h[17..20]),
        ("-", &h[20..32]),
    ] {
        u.push_str(sep);
        u.push_str(part);
    }
    u
}

/// The type an event is about, as its `involvedObject` names it: one of the kinds the demo
/// stores, or an object it only stands in for (the autoscaler's HorizontalPodAutoscaler).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectType {
    pub api_version: &'static str,
    pub kind: &'static str,
}

impl From<Kind> for ObjectType {
    fn from(kind: Kind) -> Self {
        ObjectType {
            api_version: kind.api_version(),
            kind: kind.kind_name(),
        }
    }
}

impl ApiServer {
    /// Events expire an hour after they were last seen (kube-apiserver's default
    /// `--event-ttl`).
    pub fn expire_events(&mut self, now: u64) {
        const TTL: i64 = 3600;
        let cutoff = crate::sim::time::sim_unix(now) - TTL;
        // Times in the form the API writes them (UTC, `Z`, whole seconds or microseconds)
        // order as their text does: compared with the cutoff's text, not parsed.
        let cutoff_text = crate::sim::time::rfc3339(now.saturating_sub(TTL as u64));
        let canonical = |t: &str| {
            t.ends_with('Z') && (t.len() == 20 || (t.len() == 27 && t.as_bytes()[19] == b'.'))
        };
        let later = |t: &str| {
            if canonical(t) && now >= TTL as u64 {
                t > cutoff_text.as_str()
            } else {
                crate::sim::time::parse_rfc3339(t).is_none_or(|t| t > cutoff)
            }
        };
        let Some(events) = self.objects.get_mut(&Kind::Event) else {
            return;
        };
        // An events/v1 event has no lastTimestamp: its series or its eventTime says
        // when it was last seen. Fields are read as stored, not from an assembled copy.
        events.retain(|e| {
            [
                e.field("lastTimestamp"),
                e.field("series").map(|s| &s["lastObservedTime"]),
                e.field("eventTime"),
            ]
            .into_iter()
            .flatten()
            .find_map(Value::as_str)
            .is_none_or(later)
        });
    }

    /// Records a core/v1 Event as a component's event broadcaster does: through its
    /// correlator (aggregation, counting, spam filter; see [`super::recorder`]), then as a
    /// create or, for a repeat, a patch of the event it repeats.
    pub fn record_event(
        &mut self,
        involved: &(impl Involved + ?Sized),
        kind: impl Into<ObjectType>,
        note: Note<'_>,
        now: u64,
    ) {
        let kind: ObjectType = kind.into();
        let Note {
            type_,
            reason,
            message,
            component,
            field_path,
        } = note;
        let involved_name = involved.name();
        let incoming = Incoming {
            component,
            kind: kind.kind,
            name: involved_name,
            uid: involved.uid(),
            type_,
            reason,
            message,
        };
        let Some(o) = self.recorders.correlate(&incoming, now) else {
            return;
        };
        let ts = json!(rfc3339(now));
        self.rv += 1;
        let stored = o.earlier.as_ref().and_then(|(name, _)| {
            self.objects
                .get_mut(&Kind::Event)
                .and_then(|m| m.get_mut(name))
        });
        if let Some(e) = stored {
            let mut repeat = e.draft();
            repeat.set("count", json!(o.count));
            repeat.set("lastTimestamp", ts);
            repeat.set("message", json!(o.message));
            repeat.set_meta("resourceVersion", json!(self.rv.to_string()));
            *e = Arc::new(Stored::from_draft(Kind::Event, repeat, &mut self.labels));
            return;
        }
        // A repeat of an event the API has since expired is created again under its old
        // name and first time (recordEvent falls back to Create on NotFound).
        let (name, first) = match o.earlier {
            Some((name, first)) => (name, json!(rfc3339(first))),
            None => (self.new_event_name(involved_name, now), ts.clone()),
        };
        self.recorders.written(component, &o.key, &name);
        // client-go builds an aggregate event without the reporting controller.
        let reporting = if o.aggregate { "" } else { component };
        let mut own = json!({
            "count": o.count,
            "firstTimestamp": first,
            "lastTimestamp": ts,
            // A core/v1 Event's eventTime is a non-pointer MicroTime: null when unset.
            "eventTime": null,
            "reportingComponent": reporting,
            "reportingInstance": "",
            "source": {"component": component},
        });
        if let Some(path) = field_path {
            own["involvedObject"] = json!({ "fieldPath": path });
        }
        let note = Note {
            type_,
            reason,
            message: &o.message,
            component,
            field_path,
        };
        self.store_event(&name, kind, involved, &note, now, own);
    }

    /// The name a recorder gives a new event, `<object>.<%x of UnixNano>`; events of one
    /// simulated second are told apart by microseconds.
    pub(super) fn new_event_name(&mut self, object: &str, now: u64) -> String {
        self.event_seq += 1;
        let nanos = crate::sim::time::sim_unix(now) as u64 * 1_000_000_000
            + (self.event_seq % 1_000_000) * 1_000;
        format!("{object}.{nanos:x}")
    }

    /// Stores a new Event as both recorders write it: its metadata at the current
    /// resourceVersion, the object it is about, its type, reason and message, and `own`,
    /// what the recorder adds (merged one level deep, so `involvedObject` can gain a
    /// fieldPath).
    pub(super) fn store_event(
        &mut self,
        name: &str,
        kind: ObjectType,
        involved: &(impl Involved + ?Sized),
        note: &Note<'_>,
        now: u64,
        own: Value,
    ) {
        let mut event = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "involvedObject": {
                "apiVersion": kind.api_version,
                "kind": kind.kind,
                "name": involved.name(),
                "namespace": involved.namespace(),
                "resourceVersion": involved.resource_version(),
                "uid": involved.uid(),
            },
            "message": note.message,
            "metadata": {
                "creationTimestamp": rfc3339(now),
                "name": name,
                // An event lives in its object's namespace; a node's (none) in default.
                "namespace": match involved.namespace() {
                    "" => "default",
                    ns => ns,
                },
                "resourceVersion": self.rv.to_string(),
                "uid": derived_uid(name),
            },
            "reason": note.reason,
            "type": note.type_,
        });
        if involved.bare()
            && let Some(refd) = event["involvedObject"].as_object_mut()
        {
            refd.retain(|_, v| v != "");
        }
        if let (Some(base), Value::Object(own)) = (event.as_object_mut(), own) {
            for (k, v) in own {
                match (base.get_mut(&k), v) {
                    (Some(Value::Object(b)), Value::Object(v)) => b.extend(v),
                    (_, v) => {
                        base.insert(k, v);
                    }
                }
            }
        }
        self.objects.entry(Kind::Event).or_default().insert(
            name,
            Arc::new(Stored::interned(Kind::Event, event, &mut self.labels)),
        );
    }

    /// A component's process is gone: its event correlator starts afresh.
    pub fn forget_recorder(&mut self, component: &str) {
        self.recorders.forget(component);
    }
}
