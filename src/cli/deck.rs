//! What the commands load: the shipped deck, then the user's folders, with the memory
//! setting a big deck is loaded under.

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

/// User files larger than this in all are read and parsed with transparent huge pages on.
const BIG_DECK: u64 = 1 << 20;

/// The files under `paths` read and loaded over `base`, with transparent huge pages on
/// from the reading when they are big: main turns them off for the app's memory at its
/// first frame, but a whole deck's text, tables and strings are then faulted in 4 KiB at
/// a time, and those faults were a third of the time `check` took on a 4 MB deck (2 MiB
/// at a time with them). The app turns them off again once loaded; pages already made
/// keep their size. Small decks keep small pages: a 2 MiB page for a few KiB is slower.
pub fn load_paths(base: content::Prebuilt, paths: &[PathBuf]) -> Loaded {
    let found = content::find_paths(paths);
    if found.iter().map(|w| w.bytes).sum::<u64>() > BIG_DECK {
        huge_pages(true);
    }
    let (sources, read_errors) = content::read_found(found);
    content::load_over(base, sources, read_errors, &SimCatalog)
}

/// Transparent huge pages on or off for what the process faults in from now on.
pub fn huge_pages(on: bool) {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes integer arguments only and touches no
    // memory of ours; a kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, libc::c_ulong::from(!on), 0, 0, 0);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = on;
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
