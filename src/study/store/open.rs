//! Opening the store: the data folder, the file, its damage and its migrations.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};

use super::{Location, Store, StoreError, repair, sql};
use crate::study::time::{Millis, stamp};

/// The database's name inside the data folder.
pub const FILE_NAME: &str = "progress.db";

/// How long a write waits for another instance's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// A store and what the user must be told about how it was opened.
#[derive(Debug)]
pub struct Opened {
    pub store: Store,
    pub notices: Vec<String>,
}

/// Errors that mean the file itself is unreadable, as opposed to a lock. Only asked once
/// the folder is known to be writable, so `CannotOpen` is about the file.
fn is_damage(e: &StoreError) -> bool {
    match e {
        StoreError::Sqlite { source, .. } => matches!(
            source.sqlite_error_code(),
            Some(
                ErrorCode::NotADatabase
                    | ErrorCode::DatabaseCorrupt
                    | ErrorCode::CannotOpen
                    | ErrorCode::PermissionDenied
            )
        ),
        StoreError::BadRow(..) | StoreError::NotOurs { .. } => true,
        _ => false,
    }
}

impl Store {
    /// Opens (or creates) the store in `dir`. Never fails: when the folder cannot hold a
    /// database the store lives in memory, and a notice says that nothing is saved.
    pub fn open_dir(dir: &Path, now: Millis) -> Opened {
        let memory = |why: String| {
            let notice = format!("{why}; studying without saving progress");
            match Store::in_memory(&notice) {
                Ok(store) => Opened {
                    store,
                    notices: vec![notice],
                },
                // SQLite in memory needs no disk; failing here means no memory at all.
                Err(e) => panic!("an in-memory progress store could not be made: {e}"),
            }
        };
        // A first start: nothing to read, so neither the folder nor the file is made
        // until the first write (see `Location::Pending`), when the folder it would go in
        // can be made. Anything else takes the checks below, which make the folder.
        if creatable_later(dir) {
            return Opened {
                store: Store::pending(&dir.join(FILE_NAME)),
                notices: Vec::new(),
            };
        }
        if let Err(e) = std::fs::create_dir_all(dir) {
            return memory(format!(
                "the data folder {} could not be created ({e})",
                dir.display()
            ));
        }
        if let Err(e) = probe_writable(dir) {
            let why = format!("the data folder {} is not writable ({e})", dir.display());
            // Progress already there is still shown (stats, export, the app), from a copy
            // in memory: a read-only or full disk must not look like an empty history.
            let file = dir.join(FILE_NAME);
            if file.exists() {
                let notice = format!(
                    "{why}; the progress in {} is shown, but nothing new is saved",
                    file.display()
                );
                match Store::read_only_copy(&file, &notice) {
                    Ok(store) => {
                        return Opened {
                            store,
                            notices: vec![notice],
                        };
                    }
                    Err(e) => return memory(format!("{why}, and {e}")),
                }
            }
            return memory(why);
        }
        let file = dir.join(FILE_NAME);
        // No file yet (a first start): nothing to read, so none is made until the first
        // write (see `Location::Pending`). A stray -wal without its database is left for
        // SQLite to deal with on a real open.
        let wal = dir.join(format!("{FILE_NAME}-wal"));
        if !file.exists() && !wal.exists() {
            return Opened {
                store: Store::pending(&file),
                notices: Vec::new(),
            };
        }
        match Store::open_file(&file, now) {
            Ok(opened) => opened,
            Err(e) => memory(e.to_string()),
        }
    }

    /// The file at `path`, which cannot be written, copied into memory: every row readable,
    /// nothing written back. The file must be at this kubedrill's schema version (an
    /// older one would need a migration written to it).
    pub fn read_only_copy(path: &Path, reason: &str) -> Result<Store, StoreError> {
        let shown = path.display().to_string();
        let err = sql(&shown);
        let mut store = Store::in_memory(reason)?;
        store.location = Location::Copy(path.to_path_buf(), reason.to_string());
        let Some(conn) = store.reader() else {
            return Err(StoreError::Io(format!("{shown}: no database in memory")));
        };
        let attach = |uri: String| {
            conn.execute("ATTACH DATABASE ?1 AS disk", [uri])
                .and_then(|_| {
                    conn.query_row("PRAGMA disk.user_version", [], |r| r.get::<_, i64>(0))
                })
        };
        let file_uri = |extra: &str| {
            let p = shown
                .replace('%', "%25")
                .replace('?', "%3f")
                .replace('#', "%23");
            format!("file:{p}?mode=ro{extra}")
        };
        // A file left in WAL needs its -shm to be read; where that cannot be made, the
        // main file alone is read as it is on disk.
        let version = match attach(file_uri("")) {
            Ok(v) => v,
            Err(_) => {
                let _ = conn.execute("DETACH DATABASE disk", []);
                attach(file_uri("&immutable=1")).map_err(&err)?
            }
        };
        if version != super::schema::VERSION {
            return Err(StoreError::Io(format!(
                "{shown} is at schema version {version} and cannot be upgraded in place"
            )));
        }
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'")
            .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
            .map_err(&err)?;
        for t in tables {
            conn.execute(
                &format!("INSERT INTO main.\"{t}\" SELECT * FROM disk.\"{t}\""),
                [],
            )
            .map_err(&err)?;
        }
        conn.execute("DETACH DATABASE disk", []).map_err(&err)?;
        Ok(store)
    }

    /// Opens the file at `path`, migrating it; a damaged file is moved aside under a
    /// timestamped name and a fresh one started.
    pub fn open_file(path: &Path, now: Millis) -> Result<Opened, StoreError> {
        match Store::try_open_waiting(path, now) {
            Ok((store, migrated, repaired)) => Ok(Opened {
                store,
                notices: migrated
                    .map(|from| {
                        format!(
                            "the progress database {} was upgraded from schema version {from} \
                             to {}",
                            path.display(),
                            super::schema::VERSION
                        )
                    })
                    .into_iter()
                    .chain(repaired)
                    .collect(),
            }),
            Err(e) if is_damage(&e) => {
                let aside = move_aside(path, now)?;
                let (store, _, _) = Store::try_open_waiting(path, now)?;
                Ok(Opened {
                    store,
                    notices: vec![format!(
                        "the progress database {} could not be read ({}); it was moved aside \
                         to {} and a fresh one started (nothing was deleted)",
                        path.display(),
                        cause(&e),
                        aside.display()
                    )],
                })
            }
            Err(e) => Err(e),
        }
    }

    /// [`Self::try_open`], waiting out another instance that holds the file: some steps
    /// of opening (switching a new file to WAL) get SQLITE_BUSY at once rather than after
    /// the busy timeout, so they are retried here for as long.
    fn try_open_waiting(
        path: &Path,
        now: Millis,
    ) -> Result<(Store, Option<i64>, Option<String>), StoreError> {
        let start = std::time::Instant::now();
        loop {
            match Store::try_open(path, now) {
                Err(e) if is_busy(&e) && start.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                other => return other,
            }
        }
    }

    /// The store, and the schema version it was upgraded from, if it was.
    fn try_open(
        path: &Path,
        now: Millis,
    ) -> Result<(Store, Option<i64>, Option<String>), StoreError> {
        let shown = path.display().to_string();
        let err = sql(&shown);
        let mut conn = Connection::open(path).map_err(&err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(&err)?;
        // Checked before anything is written, so a damaged file is moved aside untouched.
        let check: String = conn
            .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
            .map_err(&err)?;
        if check != "ok" {
            return Err(StoreError::Sqlite {
                where_: shown,
                source: rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
                    Some(check),
                ),
            });
        }
        if let Some(why) = repair::foreign(&conn, &shown)? {
            return Err(StoreError::NotOurs { path: shown, why });
        }
        // WAL: readers never block the writer, so two instances can run side by side. A
        // file already in WAL is left alone: switching takes an exclusive lock.
        let current: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .map_err(&err)?;
        let mode: String = if current.eq_ignore_ascii_case("wal") {
            current
        } else {
            conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
                .map_err(&err)?
        };
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Io(format!(
                "{shown}: the database refused write-ahead logging (journal mode {mode})"
            )));
        }
        // FULL: a committed grade is on disk when commit returns, even through a power cut.
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(&err)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(&err)?;
        let migrated = super::migrate(&mut conn, &shown)?;
        if let Some(why) = repair::missing_schema(&conn, &shown)? {
            return Err(StoreError::NotOurs { path: shown, why });
        }
        let repaired = repair::drop_bad_rows(&mut conn, path, now)?;
        let store = Store {
            conn: Some(conn),
            location: Location::File(path.to_path_buf()),
        };
        Ok((store, migrated, repaired))
    }
}

/// Another instance holds the file for now.
fn is_busy(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Sqlite { source, .. } if matches!(
            source.sqlite_error_code(),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
        )
    )
}

fn cause(e: &StoreError) -> String {
    match e {
        StoreError::Sqlite { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

/// Whether `dir` does not exist yet and the nearest folder above it that does is one this
/// process may create entries in (`access(2)`, which also knows a read-only mount).
#[cfg(unix)]
fn creatable_later(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let mut up = dir;
    loop {
        match std::fs::metadata(up) {
            Ok(meta) => {
                let Ok(c) = std::ffi::CString::new(up.as_os_str().as_bytes()) else {
                    return false;
                };
                // SAFETY: `c` is a NUL-terminated path that lives across the call.
                let ok = unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0;
                return up != dir && meta.is_dir() && ok;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                up = match up.parent() {
                    Some(p) if p.as_os_str().is_empty() => Path::new("."),
                    Some(p) => p,
                    None => return false,
                };
            }
            Err(_) => return false,
        }
    }
}

/// Elsewhere the folder is made and probed at start, as before.
#[cfg(not(unix))]
fn creatable_later(_: &Path) -> bool {
    false
}

/// Creates and removes a file, to learn whether SQLite could write here.
fn probe_writable(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".kubedrill-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(&probe)
}

/// Renames the database (and its -wal and -shm files) to `NAME.damaged-STAMP`; returns
/// the new name of the database.
fn move_aside(path: &Path, now: Millis) -> Result<PathBuf, StoreError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| FILE_NAME.to_string());
    let base = format!("{name}.damaged-{}", stamp(now));
    let mut target = path.with_file_name(&base);
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = path.with_file_name(format!("{base}-{n}"));
    }
    let io = |e: std::io::Error, from: &Path| {
        StoreError::Io(format!(
            "the damaged progress database {} could not be moved aside: {e}",
            from.display()
        ))
    };
    std::fs::rename(path, &target).map_err(|e| io(e, path))?;
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            let to = PathBuf::from(format!("{}{suffix}", target.display()));
            std::fs::rename(&side, &to).map_err(|e| io(e, &side))?;
        }
    }
    Ok(target)
}
