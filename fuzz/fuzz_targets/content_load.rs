//! A user content file: load (parse, validate, merge) and render every diagnostic.
#![no_main]

use kubedrill::content::{Origin, Source, load};
use kubedrill::sim::catalog::SimCatalog;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let loaded = load(
        vec![Source::new("fuzz.toml", text, Origin::User)],
        vec![],
        &SimCatalog,
    );
    let _ = loaded.render(false);
});
