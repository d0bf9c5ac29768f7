//! The fast TOML reader against the toml crate: whatever the reader takes, the crate reads
//! to the same tree, spans included (tests/toml_reader.rs holds the same property).
#![no_main]

use kubedrill::content::reader::read;
use kubedrill::content::tree::parse_with_toml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(fast) = read(text) {
        let slow = parse_with_toml(text).expect("the reader took text the toml crate rejects");
        assert!(fast == slow, "the reader's tree differs from the toml crate's");
    }
});
