//! Content layer: the TOML model, loading (embedded and folders) and validation with
//! rustc-style diagnostics. Knows nothing of the layers above: what a demo can run comes
//! in through [`DemoCatalog`].

mod catalog;
mod diag;
mod escape;
pub mod files;
mod load;
mod model;
mod parse;
pub mod search;
mod source;
pub mod text;
mod walk;

pub use catalog::{DemoCatalog, Problem};
pub use diag::Diagnostic;
pub use load::{Loaded, MAX_FILE_BYTES, SHIPPED, load, read_paths, read_source, shipped_sources};
pub use model::{
    Challenge, CodeBlock, Deck, Deeper, Demo, Followup, Importance, Level, Pitfall, Question, Tier,
    Topic,
};
pub use source::{Origin, Source};
pub use walk::nearest as nearest_id;
