//! Lines typed into the simulator's shell: kubectl commands, directives, anything.
#![no_main]

use kubedrill::sim::session::Session;
use libfuzzer_sys::fuzz_target;

const MAX_INPUT: usize = 64 * 1024;
const MAX_LINES: usize = 8;

fuzz_target!(|text: &str| {
    if text.len() > MAX_INPUT {
        return;
    }
    let _ = kubedrill::sim::shell::split(text);
    let mut session = Session::new("rollout", 1).expect("rollout scenario");
    for line in text.lines().take(MAX_LINES) {
        let out = session.run_line(line);
        let _ = out.chunks();
    }
    let _ = session.status_text();
});
