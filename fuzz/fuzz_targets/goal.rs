//! A challenge's `goal = "..."` expression.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = kubedrill::sim::goal::parse(text) {
        let _ = e.to_string();
    }
});
