//! Loading: the shipped files embedded in the binary, then user folders, each file
//! validated on its own, then duplicate ids across all of them.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::catalog::DemoCatalog;
use super::diag::Diagnostic;
use super::files::{ReadError, read_regular, shown, toml_files};
use super::model::{Deck, Str};
use super::parse::{ParsedFile, parse_file};
use super::prebuilt::{At, Prebuilt};
use super::source::{Origin, Source};

/// Files larger than this are refused: no real deck comes near it, and reading one
/// would stall start-up.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The result of loading a set of files. Files with any problem contribute nothing to
/// the deck, so a broken user file never hides the rest.
#[derive(Debug, Default)]
pub struct Loaded {
    pub deck: Deck,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Vec<Source>,
    /// Files that had problems, in load order.
    pub broken_files: Vec<String>,
    /// The files of the prebuilt deck loaded under `sources` (the shipped content).
    pub prebuilt_files: Vec<String>,
    /// Where each of `deck.topics` is defined.
    pub topic_places: Vec<Place>,
    /// Where each of `deck.questions` is defined.
    pub question_places: Vec<Place>,
}

/// Where an item of a loaded deck is defined: its id's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// In `sources[i]`, at this byte range.
    Source(usize, Range<usize>),
    /// In one of `prebuilt_files`.
    Prebuilt(At),
}

impl Loaded {
    pub fn is_clean(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// How many files the deck was loaded from, prebuilt ones included.
    pub fn files_loaded(&self) -> usize {
        self.prebuilt_files.len() + self.sources.len()
    }

    /// Every diagnostic, rendered in order, separated by blank lines.
    pub fn render(&self, styled: bool) -> String {
        let by_name: HashMap<&str, &Source> =
            self.sources.iter().map(|s| (s.name.as_str(), s)).collect();
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(&d.render(by_name.get(d.file.as_str()).copied(), styled));
            out.push_str("\n\n");
        }
        out
    }
}

/// Reads one file, refusing oversized, non-regular and non-UTF-8 ones with a clear message.
pub fn read_source(path: &Path) -> Result<Source, Box<Diagnostic>> {
    let name = shown(path);
    let fail = |msg: String| Box::new(Diagnostic::file(name.clone(), msg));
    let bytes = match read_regular(path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(e @ ReadError::TooLarge { .. }) => {
            return Err(Box::new(
                Diagnostic::file(name.clone(), format!("{e} (8 MiB)"))
                    .help("split the content into several topic files"),
            ));
        }
        Err(e) => return Err(fail(e.to_string())),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(name, text, Origin::User)),
        Err(e) => {
            let (line, col, byte) = super::text::utf8_error_at(e.as_bytes(), &e.utf8_error());
            Err(Box::new(
                Diagnostic::file(
                    name.clone(),
                    format!(
                        "file is not valid UTF-8: invalid byte 0x{byte:02X} at line {line}, column {col}"
                    ),
                )
                .help("save the file as UTF-8"),
            ))
        }
    }
}

/// Reads every `.toml` file under each path. Unreadable paths become diagnostics; one bad
/// file or subfolder does not keep the rest of its folder from loading.
pub fn read_paths(paths: &[PathBuf]) -> (Vec<Source>, Vec<Diagnostic>) {
    let mut sources = Vec::new();
    let mut diags = Vec::new();
    for path in paths {
        let walk = toml_files(path);
        diags.extend(walk.problems);
        for read in par_map(&walk.files, |f| read_source(f)) {
            match read {
                Ok(s) => sources.push(s),
                Err(d) => diags.push(*d),
            }
        }
    }
    (sources, diags)
}

/// Validates and merges the given sources (in order: shipped first, then user files).
/// `read_errors` are problems met while reading files; they are reported first.
pub fn load(
    sources: Vec<Source>,
    read_errors: Vec<Diagnostic>,
    catalog: &dyn DemoCatalog,
) -> Loaded {
    load_over(Prebuilt::default(), sources, read_errors, catalog)
}

/// [`load`] on top of a deck loaded before (the shipped content, parsed when kubedrill
/// was built): its items come first, and an id in `sources` that it holds is a duplicate.
pub fn load_over(
    base: Prebuilt,
    sources: Vec<Source>,
    read_errors: Vec<Diagnostic>,
    catalog: &dyn DemoCatalog,
) -> Loaded {
    let mut loaded = Loaded {
        broken_files: read_errors.iter().map(|d| d.file.clone()).collect(),
        diagnostics: read_errors,
        topic_places: base.topic_at.iter().copied().map(Place::Prebuilt).collect(),
        question_places: (base.question_at.iter().copied())
            .map(Place::Prebuilt)
            .collect(),
        prebuilt_files: base.files,
        deck: base.deck,
        ..Loaded::default()
    };
    let mut seen_t: Seen = (loaded.deck.topics.iter().map(|t| t.id.clone()))
        .zip(loaded.topic_places.iter().cloned())
        .collect();
    let mut seen_q: Seen = (loaded.deck.questions.iter().map(|q| q.id.clone()))
        .zip(loaded.question_places.iter().cloned())
        .collect();
    let parsed_all = parse_all(&sources, catalog);
    for (i, (src, parsed)) in sources.iter().zip(parsed_all).enumerate() {
        let firsts = (&sources[..], &loaded.prebuilt_files[..]);
        let mut diags = parsed.diagnostics;
        if let Some((t, span)) = &parsed.topic {
            diags.extend(duplicate(firsts, src, "topic", &t.id, span, &seen_t));
        }
        let mut in_file: HashMap<&str, &Range<usize>> = HashMap::new();
        for (q, span) in &parsed.questions {
            if let Some(first) = in_file.insert(&q.id, span) {
                let (l, c) = src.line_col(first.start);
                diags.push(
                    Diagnostic::at(
                        src,
                        span.clone(),
                        format!("duplicate question id `{}`", q.id),
                    )
                    .label(format!("first defined at {}:{l}:{c}", src.name))
                    .help("ids must be unique across every loaded file: progress is keyed on them"),
                );
            } else {
                diags.extend(duplicate(firsts, src, "question", &q.id, span, &seen_q));
            }
        }
        if diags.is_empty() {
            if let Some((t, span)) = parsed.topic {
                let place = Place::Source(i, span);
                seen_t.insert(t.id.clone(), place.clone());
                loaded.topic_places.push(place);
                loaded.deck.topics.push(t);
            }
            for (q, span) in parsed.questions {
                let place = Place::Source(i, span);
                seen_q.insert(q.id.clone(), place.clone());
                loaded.question_places.push(place);
                loaded.deck.questions.push(q);
            }
        } else {
            loaded.broken_files.push(src.name.clone());
            loaded.diagnostics.extend(diags);
        }
    }
    loaded.sources = sources;
    loaded
}

/// Each file parsed and validated on its own, side by side: parsing is most of a load's
/// work, and files do not depend on each other until the duplicate checks, which stay in
/// order.
fn parse_all(sources: &[Source], catalog: &dyn DemoCatalog) -> Vec<ParsedFile> {
    par_map(sources, |s| parse_file(s, catalog))
}

/// `f` of each item, on as many threads as there are cores (each takes the next item not
/// yet taken), in the items' order.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    // Asked only when there is a choice: the answer reads cgroup files, a cost a start
    // with no user files has no reason to pay.
    let workers = match items.len() {
        0 | 1 => 1,
        n => std::thread::available_parallelism().map_or(1, |c| usize::from(c).min(n)),
    };
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for h in helpers {
            // A worker that panicked is a bug; the panic goes on, as on one thread.
            match h.join() {
                Ok(part) => all.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

type Seen = HashMap<Str, Place>;

/// The file and 1-based line and column of a place.
fn locate<'a>(
    sources: &'a [Source],
    prebuilt_files: &'a [String],
    place: &Place,
) -> (&'a str, usize, usize) {
    match place {
        Place::Source(i, span) => {
            let (l, c) = sources[*i].line_col(span.start);
            (&sources[*i].name, l, c)
        }
        Place::Prebuilt(at) => (
            prebuilt_files
                .get(at.file as usize)
                .map_or("", String::as_str),
            at.line as usize,
            at.col as usize,
        ),
    }
}

/// A diagnostic if `id` was already defined in an earlier file.
fn duplicate(
    (sources, prebuilt_files): (&[Source], &[String]),
    src: &Source,
    kind: &str,
    id: &str,
    span: &Range<usize>,
    seen: &Seen,
) -> Option<Diagnostic> {
    let (file, l, c) = locate(sources, prebuilt_files, seen.get(id)?);
    Some(
        Diagnostic::at(src, span.clone(), format!("duplicate {kind} id `{id}`"))
            .label(format!("first defined at {file}:{l}:{c}"))
            .help("ids must be unique across every loaded file: progress is keyed on them"),
    )
}
