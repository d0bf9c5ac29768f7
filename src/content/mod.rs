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
mod prebuilt;
pub mod reader;
pub mod search;
mod shared;
mod shipped;
mod source;
pub mod text;
pub mod tree;
mod walk;

pub use catalog::{DemoCatalog, Problem};
pub use diag::Diagnostic;
pub use load::{Loaded, MAX_FILE_BYTES, Place, load, load_over, read_paths, read_source};
pub use model::{
    Challenge, CodeBlock, Deck, Deeper, Demo, Followup, Importance, Level, Pitfall, Question, Str,
    Tier, Topic,
};
pub use prebuilt::{At, PackError, Prebuilt};
pub use shipped::{SHIPPED, shipped, shipped_sources};
pub use source::{Origin, Source};
pub use walk::nearest as nearest_id;
