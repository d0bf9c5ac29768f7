//! config.toml as the terminal app and the study layer each read it.
#![no_main]

use kubedrill::study::config::StudyConfig;
use kubedrill::tui::Settings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let cfg = kubedrill::tui::config::parse(text, "config.toml", Settings::default());
    let _ = cfg.problems.len();
    if let Err(e) = StudyConfig::parse(text, "config.toml") {
        let _ = e.to_string();
    }
});
