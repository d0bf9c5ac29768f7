//! Writing a file the user named (`export FILE`, `mock --report FILE`) the way they would
//! expect: a regular file is replaced whole or not at all, a symlink keeps pointing where
//! it did, and a device is written to, never replaced by a file.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::content::files::kind_of;

/// Writes `bytes` to `path` and returns the file that now holds them:
/// - a new name or a regular file: written beside it, synced and renamed over it, so a
///   crash never leaves half a file;
/// - a symlink: the file it points at is replaced that way (the link stays a link);
/// - a character or block device (`/dev/stdout`, `/dev/null`): written through;
/// - a folder, named pipe or socket: refused.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let real = resolve_links(path)?;
    match fs::metadata(&real) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(&real, bytes),
        Err(e) => Err(e),
        Ok(m) if m.is_file() => replace(&real, bytes),
        Ok(m) if is_device(&m) => {
            let mut f = OpenOptions::new().write(true).open(&real)?;
            f.write_all(bytes)?;
            f.flush()?;
            Ok(real)
        }
        Ok(m) => Err(io::Error::other(format!(
            "{} is {}, not a file",
            real.display(),
            kind_of(&m)
        ))),
    }
}

fn is_device(m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        m.file_type().is_char_device() || m.file_type().is_block_device()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        false
    }
}

/// Where a chain of symlinks ends, the last link allowed to dangle (its target is then
/// created). Bounded like the kernel's own lookups.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// Replaces (or creates) the regular file at `path` through a temporary file beside it.
fn replace(path: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{} names no file", path.display())))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".partial-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(path.to_path_buf())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_regular_file_is_replaced_and_a_symlink_stays_a_symlink() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.json");
        fs::write(&real, "old").unwrap();
        let link = d.path().join("link.json");
        symlink("real.json", &link).unwrap();
        assert_eq!(write_file(&link, b"new").unwrap(), real);
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        // A dangling link gets its target made.
        let dangling = d.path().join("d.json");
        symlink("made.json", &dangling).unwrap();
        write_file(&dangling, b"x").unwrap();
        assert_eq!(fs::read_to_string(d.path().join("made.json")).unwrap(), "x");
        // No temporary file is left beside them.
        let names: Vec<_> = fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 4, "{names:?}");
    }

    #[test]
    fn devices_are_written_through_and_folders_refused() {
        assert!(write_file(Path::new("/dev/null"), b"x").is_ok());
        // Still the device, not a file that replaced it.
        use std::os::unix::fs::FileTypeExt;
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let d = tempfile::tempdir().unwrap();
        let e = write_file(d.path(), b"x").unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        if Path::new("/dev/full").exists() {
            let e = write_file(Path::new("/dev/full"), b"x").unwrap_err();
            assert_eq!(e.raw_os_error(), Some(28), "{e}"); // ENOSPC
        }
    }
}
