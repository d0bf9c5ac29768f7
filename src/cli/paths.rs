//! Where kubedrill keeps its files: the `directories` crate's answer, with overrides so
//! tests and users can point elsewhere.

use std::path::PathBuf;

use directories::ProjectDirs;

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "kubedrill")
}

/// The config folder: `KUBEDRILL_CONFIG_DIR`, else `~/.config/kubedrill` on Linux and
/// `~/Library/Application Support/kubedrill` on macOS.
pub fn config_dir() -> Option<PathBuf> {
    match std::env::var_os("KUBEDRILL_CONFIG_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => project().map(|p| p.config_dir().to_path_buf()),
    }
}

/// The user's own content folder inside the config folder.
pub fn config_content_dir() -> Option<PathBuf> {
    config_dir().map(|d| d.join("content"))
}

/// The data folder: `--data-dir`, else `KUBEDRILL_DATA_DIR`, else `~/.local/share/kubedrill`
/// on Linux and `~/Library/Application Support/kubedrill` on macOS.
pub fn data_dir(flag: Option<&std::path::Path>) -> Option<PathBuf> {
    if let Some(d) = flag {
        return Some(d.to_path_buf());
    }
    match std::env::var_os("KUBEDRILL_DATA_DIR") {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => project().map(|p| p.data_dir().to_path_buf()),
    }
}
