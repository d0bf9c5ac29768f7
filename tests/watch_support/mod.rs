//! Shared by the property tests that check every write a command makes, from the API
//! server's watch log, not just the state between commands.

// Each property test that includes this module uses only part of it.
#![allow(dead_code)]

use std::collections::HashMap;

use kubedrill::sim::kind::Kind;
use kubedrill::sim::session::Session;
use serde_json::Value;

/// The session's pods by name: what the replay of the watch log starts from.
pub fn pods_by_name(s: &Session) -> HashMap<String, Value> {
    s.objects(Kind::Pod).map(|p| (name(p), p.clone())).collect()
}

/// An object's name, "" for none.
pub fn name(v: &Value) -> String {
    v["metadata"]["name"].as_str().unwrap_or("").to_string()
}

/// Runs `line` keeping the watch log from before it, as a watching kubectl would, and
/// returns where its writes start.
pub fn run_watched(s: &mut Session, line: &str) -> u64 {
    let from = s.cluster.api.next_seq();
    s.cluster.kubectl_watch = Some(from);
    s.run_line(line);
    from
}
