//! Shared fixture for the mock-interview and quiz tests: a small deck in two topics.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use kubedrill::content::{self, Deck};

pub fn fixture_deck() -> Deck {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mock");
    let (sources, errors) = content::read_paths(&[dir]);
    let loaded = content::load(sources, errors, &kubedrill::sim::catalog::SimCatalog);
    assert!(loaded.is_clean(), "fixture deck: {}", loaded.render(false));
    loaded.deck
}

pub fn shipped_deck() -> Deck {
    content::load(
        content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    )
    .deck
}

pub fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}
