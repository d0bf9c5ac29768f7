//! The shipped content, built into the binary so it runs with no files beside it.
//!
//! build.rs parses and checks content/*.toml when kubedrill is built and packs the deck
//! ([`Prebuilt`]): a start decodes that instead of parsing the TOML. The text of the files
//! is here too, for the tests that check it against the simulator (which build.rs cannot
//! link) and for benchmarks; the binary keeps only what it uses.

use super::prebuilt::Prebuilt;
use super::source::{Origin, Source};

/// The deck build.rs packed from [`SHIPPED`].
static PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/shipped.postcard"));

/// Each shipped file's name and text, in the order the home screen lists their topics
/// (build.rs's `SHIPPED` list).
pub const SHIPPED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped_files.rs"));

/// The shipped deck, as parsed and checked when kubedrill was built.
pub fn shipped() -> Prebuilt {
    // Packed by build.rs from these very types in this build: not input that can be bad.
    Prebuilt::unpack(PACKED).expect("the shipped content packed by build.rs decodes")
}

/// The shipped files as sources, to parse them as `kubedrill check` parses a folder.
pub fn shipped_sources() -> Vec<Source> {
    SHIPPED
        .iter()
        .map(|(name, text)| Source::new(*name, *text, Origin::Shipped))
        .collect()
}
