//! What the commands load: the shipped deck, then the user's folders.

use std::path::PathBuf;

use crate::content::{self, Loaded};
use crate::sim::catalog::SimCatalog;

use super::{Cli, paths};

/// Shipped content (parsed when kubedrill was built), then the config folder's
/// `content/`, then each `--content` folder.
pub fn load_all(cli: &Cli) -> Loaded {
    let mut dirs: Vec<PathBuf> = paths::config_content_dir()
        .filter(|d| d.is_dir())
        .into_iter()
        .collect();
    dirs.extend(cli.content.iter().cloned());
    load_paths(content::shipped(), &dirs)
}

/// The files under `paths` read and loaded over `base`.
pub fn load_paths(base: content::Prebuilt, paths: &[PathBuf]) -> Loaded {
    let (sources, read_errors) = content::read_paths(paths);
    content::load_over(base, sources, read_errors, &SimCatalog)
}

/// For commands that use content: warn about broken files without failing.
pub fn warn_broken(loaded: &Loaded) {
    if loaded.broken_files.is_empty() {
        return;
    }
    eprintln!(
        "warning: skipped {} content file(s) with problems: {} (run `kubedrill check` for details)",
        loaded.broken_files.len(),
        crate::content::text::plain(&loaded.broken_files.join(", "))
    );
}
