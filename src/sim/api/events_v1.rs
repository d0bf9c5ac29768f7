//! Events recorded through events.k8s.io/v1 (client-go tools/events), as kube-scheduler
//! records them: `eventTime`, `action`, `reportingController` and `reportingInstance`, no
//! `source`, no counts. A repeat of an isomorphic event (same type, action, reason,
//! reporting controller and instance, and the same object at the same resourceVersion)
//! within six minutes becomes a series: the first repeat is written at once with
//! `series.count` 2; later ones only count in the recorder's cache, which client-go
//! writes every 30 minutes (`refreshExistingEventSeries`). The note stays the first one's.

use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;
use crate::sim::time::rfc3339_micro;

/// `finishTime`: a series (or a lone event) ends six minutes after it was last seen.
const FINISH_SECONDS: u64 = 360;

/// What an events/v1 recorder remembers of an event it wrote.
#[derive(Debug, Clone)]
pub(super) struct SeriesEntry {
    name: String,
    count: u32,
    last: u64,
}

/// An event as kube-scheduler makes one.
pub struct EventV1<'a> {
    pub type_: &'a str,
    pub reason: &'a str,
    pub action: &'a str,
    pub note: &'a str,
    pub controller: &'a str,
    pub instance: &'a str,
}

impl ApiServer {
    /// Records `e` about `involved` (of `kind`), as an events/v1 broadcaster does.
    pub fn record_event_v1(
        &mut self,
        involved: &(impl Involved + ?Sized),
        kind: Kind,
        e: EventV1<'_>,
        now: u64,
    ) {
        let key = format!(
            "{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
            e.type_,
            e.action,
            e.reason,
            e.controller,
            e.instance,
            involved.uid(),
            involved.resource_version()
        );
        // Finished series are dropped once a second, not on every event.
        if self.series_pruned != Some(now) {
            self.series_pruned = Some(now);
            self.series.retain(|_, s| now < s.last + FINISH_SECONDS);
        }
        if let Some(s) = self.series.get_mut(&key) {
            s.count += 1;
            s.last = now;
            if s.count > 2 {
                return;
            }
            let name = s.name.clone();
            self.rv += 1;
            if let Some(stored) = self
                .objects
                .get_mut(&Kind::Event)
                .and_then(|m| m.get_mut(&name))
            {
                let mut d = stored.draft();
                d.set(
                    "series",
                    json!({"count": 2, "lastObservedTime": rfc3339_micro(now)}),
                );
                d.set_meta("resourceVersion", json!(self.rv.to_string()));
                *stored = Arc::new(Stored::from_draft(Kind::Event, d, &mut self.labels));
            }
            return;
        }
        let name = self.new_event_name(involved.name(), now);
        self.rv += 1;
        let own = json!({
            "action": e.action,
            "eventTime": rfc3339_micro(now),
            "firstTimestamp": null,
            "lastTimestamp": null,
            "reportingComponent": e.controller,
            "reportingInstance": e.instance,
            "source": {},
        });
        let note = Note {
            type_: e.type_,
            reason: e.reason,
            message: e.note,
            component: e.controller,
            field_path: None,
        };
        self.store_event(&name, kind.into(), involved, &note, now, own);
        self.series.insert(
            key,
            SeriesEntry {
                name,
                count: 1,
                last: now,
            },
        );
    }
}
