//! `kubedrill import FILE`: a progress export parsed and merged into an (in-memory) store.
#![no_main]

use kubedrill::study::store::{Export, Store};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<Export>(data) else {
        return;
    };
    let mut store = Store::in_memory("fuzz").expect("in-memory store");
    if let Err(e) = store.import(&doc) {
        let _ = e.to_string();
    }
});
