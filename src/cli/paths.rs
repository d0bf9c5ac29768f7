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

/// config.toml as read: absent, its text, or why it could not be used.
pub enum ConfigFile {
    Missing,
    Text { name: String, text: String },
    Unreadable { name: String, why: String },
}

/// A config.toml larger than this is refused: a real one is a few hundred bytes.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Reads the config folder's config.toml: a regular file of at most [`MAX_CONFIG_BYTES`]
/// in UTF-8. A FIFO or a device there is refused unopened, so it cannot hang start-up.
pub fn read_config() -> ConfigFile {
    use crate::content::files::{ReadError, read_regular};
    let Some(path) = config_dir().map(|d| d.join("config.toml")) else {
        return ConfigFile::Missing;
    };
    let name = crate::content::files::shown(&path);
    match read_regular(&path, MAX_CONFIG_BYTES) {
        Err(ReadError::NotFound) => ConfigFile::Missing,
        Err(e) => ConfigFile::Unreadable {
            name,
            why: e.to_string(),
        },
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => ConfigFile::Text { name, text },
            Err(e) => {
                let (line, _, _) =
                    crate::content::text::utf8_error_at(e.as_bytes(), &e.utf8_error());
                ConfigFile::Unreadable {
                    name: format!("{name}:{line}"),
                    why: "not valid UTF-8".into(),
                }
            }
        },
    }
}
