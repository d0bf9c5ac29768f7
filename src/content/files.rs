//! Content on disk: folders walked once each and within bounds, regular files only.
//!
//! A symlinked folder is followed at most once per real folder (compared by device and
//! inode), a link back to a folder being walked is reported as a loop, and the walk stops
//! with an error past [`MAX_DEPTH`] levels, [`MAX_FILES`] content files or
//! [`MAX_ENTRIES`] folder entries. Only regular files are opened: a FIFO would block
//! start-up until something wrote to it, and a device such as /dev/zero never ends.

use std::collections::HashSet;
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::diag::Diagnostic;

/// Folder levels below a content folder that are walked.
pub const MAX_DEPTH: usize = 32;
/// `.toml` files one content folder may hold.
pub const MAX_FILES: usize = 10_000;
/// Folder entries of any kind one walk looks at, so a folder of millions of unrelated
/// files is an error rather than a long stall.
pub const MAX_ENTRIES: usize = 200_000;

/// A path as diagnostics name it: with any control or bidi character in it escaped, so a
/// file name cannot drive the terminal that `check` prints to.
pub fn shown(path: &Path) -> String {
    super::text::plain(&path.display().to_string())
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read file: no such file")]
    NotFound,
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    #[error("file is too large: {len} bytes, the limit is {limit} bytes")]
    TooLarge { len: u64, limit: u64 },
    #[error("cannot read file: {0}")]
    Io(#[from] io::Error),
}

/// What a non-regular file is, in words.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// Reads a regular file of at most `limit` bytes. FIFOs, devices and folders are refused
/// before they are opened, so none of them can block or stream without end.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => ReadError::NotFound,
        _ => ReadError::Io(e),
    })?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    let file = File::open(path)?;
    // Checked again on what was opened: the path may have been swapped in between.
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_of(&meta)));
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            len: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // At most one byte past the limit, in case the file grew after the check.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            len: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// The `.toml` files under a path, and the problems met on the way.
#[derive(Debug, Default)]
pub struct Walk {
    /// Sorted, so the load order does not depend on the file system.
    pub files: Vec<PathBuf>,
    pub problems: Vec<Diagnostic>,
}

/// A real folder, whatever path reached it: device and inode, or elsewhere its
/// canonical path.
#[derive(Clone, PartialEq, Eq, Hash)]
struct FolderId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

#[cfg(unix)]
fn folder_id(_path: &Path, meta: &Metadata) -> Option<FolderId> {
    use std::os::unix::fs::MetadataExt;
    Some(FolderId((meta.dev(), meta.ino())))
}

#[cfg(not(unix))]
fn folder_id(path: &Path, _meta: &Metadata) -> Option<FolderId> {
    fs::canonicalize(path).ok().map(FolderId)
}

/// The `.toml` files under `path`: the file itself, or a folder searched recursively.
/// Hidden entries (names starting with `.`, such as `.git` or an editor's `.#x.toml`
/// lock) are skipped. One unreadable subfolder is reported and the rest still load.
pub fn toml_files(path: &Path) -> Walk {
    let mut walk = Walk::default();
    let problem = |msg: String| Diagnostic::file(shown(path), msg);
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) => {
            walk.problems.push(problem(format!("cannot open: {e}")));
            return walk;
        }
    };
    if meta.is_file() {
        walk.files.push(path.to_path_buf());
        return walk;
    }
    if !meta.is_dir() {
        walk.problems.push(problem(format!(
            "not a regular file or folder ({})",
            kind_of(&meta)
        )));
        return walk;
    }
    let mut walker = Walker {
        walk,
        visited: HashSet::new(),
        ancestors: Vec::new(),
        entries: 0,
        stopped: false,
    };
    if let Some(id) = folder_id(path, &meta) {
        walker.visited.insert(id.clone());
        walker.ancestors.push((id, path.to_path_buf()));
    }
    walker.folder(path, 0);
    let mut walk = walker.walk;
    walk.files.sort();
    walk
}

struct Walker {
    walk: Walk,
    visited: HashSet<FolderId>,
    /// The folders from the root down to the one being walked, to name a loop's target.
    ancestors: Vec<(FolderId, PathBuf)>,
    entries: usize,
    /// A bound was hit: the walk ends, its error already recorded.
    stopped: bool,
}

impl Walker {
    fn stop(&mut self, at: &Path, msg: String, help: &str) {
        self.stopped = true;
        self.walk
            .problems
            .push(Diagnostic::file(shown(at), msg).help(help));
    }

    fn unreadable(&mut self, dir: &Path, e: &std::io::Error) {
        self.walk.problems.push(Diagnostic::file(
            shown(dir),
            format!("cannot read folder: {e}"),
        ));
    }

    fn folder(&mut self, dir: &Path, depth: usize) {
        let entries = match fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => return self.unreadable(dir, &e),
        };
        for entry in entries {
            if self.stopped {
                return;
            }
            let entry = match entry {
                Ok(e) => e,
                Err(e) => return self.unreadable(dir, &e),
            };
            self.entries += 1;
            if self.entries > MAX_ENTRIES {
                self.stop(
                    dir,
                    format!("more than {MAX_ENTRIES} entries under the content folder"),
                    "point --content at the folder that holds the content files",
                );
                return;
            }
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            self.entry(&entry.path(), depth);
        }
    }

    fn entry(&mut self, p: &Path, depth: usize) {
        let is_toml = p.extension().is_some_and(|e| e == "toml");
        // Follows symlinks: a link is what it points at.
        let meta = match fs::metadata(p) {
            Ok(m) => m,
            Err(e) => {
                // A dangling link or a file gone since the listing matters only if it was
                // meant as content.
                if is_toml {
                    self.walk
                        .problems
                        .push(Diagnostic::file(shown(p), format!("cannot open: {e}")));
                }
                return;
            }
        };
        if meta.is_dir() {
            self.subfolder(p, &meta, depth + 1);
        } else if is_toml {
            if !meta.is_file() {
                self.walk.problems.push(
                    Diagnostic::file(
                        shown(p),
                        format!("not a regular file ({}); skipped", kind_of(&meta)),
                    )
                    .help("content files must be regular files"),
                );
                return;
            }
            self.walk.files.push(p.to_path_buf());
            if self.walk.files.len() > MAX_FILES {
                self.stop(
                    p,
                    format!("more than {MAX_FILES} content files under one folder"),
                    "split the content into several folders, each given with --content",
                );
            }
        }
    }

    fn subfolder(&mut self, p: &Path, meta: &Metadata, depth: usize) {
        let Some(id) = folder_id(p, meta) else {
            return;
        };
        if let Some((_, first)) = self.ancestors.iter().find(|(a, _)| *a == id) {
            let msg = format!(
                "symlink loop: this folder is `{}` again; it was not walked twice",
                shown(first)
            );
            self.walk.problems.push(
                Diagnostic::file(shown(p), msg)
                    .help("remove the link, or point it at a folder outside this one"),
            );
            return;
        }
        // Reached before through another link: its files are already in.
        if !self.visited.insert(id.clone()) {
            return;
        }
        if depth > MAX_DEPTH {
            self.stop(
                p,
                format!("folders nested more than {MAX_DEPTH} levels deep"),
                "keep content folders shallow",
            );
            return;
        }
        self.ancestors.push((id, p.to_path_buf()));
        self.folder(p, depth);
        self.ancestors.pop();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn write(p: &Path) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "").unwrap();
    }

    #[test]
    fn a_link_to_an_ancestor_is_a_loop_named_once_and_the_files_still_load() {
        let d = tempfile::tempdir().unwrap();
        write(&d.path().join("a/one.toml"));
        symlink(d.path(), d.path().join("a/up")).unwrap();
        let w = toml_files(d.path());
        assert_eq!(w.files, vec![d.path().join("a/one.toml")]);
        assert_eq!(w.problems.len(), 1, "{:?}", w.problems);
        assert!(w.problems[0].message.starts_with("symlink loop"));
        assert!(w.problems[0].file.ends_with("a/up"));
    }

    #[test]
    fn two_links_to_one_folder_walk_it_once() {
        let d = tempfile::tempdir().unwrap();
        write(&d.path().join("real/q.toml"));
        symlink(d.path().join("real"), d.path().join("l1")).unwrap();
        symlink(d.path().join("real"), d.path().join("l2")).unwrap();
        let w = toml_files(d.path());
        assert_eq!(w.files.len(), 1, "{:?}", w.files);
        assert!(w.problems.is_empty());
    }

    #[test]
    fn depth_past_the_bound_is_an_error() {
        let d = tempfile::tempdir().unwrap();
        let mut p = d.path().to_path_buf();
        for i in 0..=MAX_DEPTH + 1 {
            p.push(format!("d{i}"));
        }
        write(&p.join("deep.toml"));
        let w = toml_files(d.path());
        assert!(w.files.is_empty());
        assert!(w.problems[0].message.contains("nested more than"));
    }

    #[test]
    fn a_fifo_is_reported_not_opened() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("x.toml");
        let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !ok.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let w = toml_files(d.path());
        assert!(w.files.is_empty());
        assert!(w.problems[0].message.contains("named pipe"));
        assert!(matches!(
            read_regular(&fifo, 10),
            Err(ReadError::NotRegular("a named pipe"))
        ));
    }

    #[test]
    fn hidden_entries_are_skipped_and_an_unreadable_sibling_does_not_drop_the_rest() {
        let d = tempfile::tempdir().unwrap();
        write(&d.path().join(".git/x.toml"));
        write(&d.path().join("ok/q.toml"));
        symlink("nowhere.toml", d.path().join(".#lock.toml")).unwrap();
        symlink("nowhere.toml", d.path().join("dangling.toml")).unwrap();
        let w = toml_files(d.path());
        assert_eq!(w.files, vec![d.path().join("ok/q.toml")]);
        assert_eq!(w.problems.len(), 1);
        assert!(w.problems[0].file.ends_with("dangling.toml"));
    }
}
