//! Events (v1): written by the API server's own recorder, read by `get events` and the
//! describers; nobody writes them by hand, so no schema and no describer.

use super::Strategy;
use crate::sim::table::{Lookup, rows};

pub struct Event;

impl Strategy for Event {
    fn columns(&self, wide: bool) -> &'static [&'static str] {
        if wide {
            &[
                "LAST SEEN",
                "TYPE",
                "REASON",
                "OBJECT",
                "SUBOBJECT",
                "SOURCE",
                "MESSAGE",
                "FIRST SEEN",
                "COUNT",
                "NAME",
            ]
        } else {
            &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
        }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, wide: bool) -> Vec<String> {
        rows::event(obj, now, wide)
    }
}
