//! Opening the progress store for a command: the data folder, config.toml's study
//! settings, and `stats`, `export` and `import`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::content::files::shown;
use crate::content::{Deck, text};
use crate::study::store::Export;
use crate::study::{Progress, Stats, Store, StudyConfig, time};

use super::{Cli, Format, paths, write_out};

/// What was wrong with config.toml for the study settings, which then keep their defaults.
pub struct StudyProblem {
    pub message: String,
    /// The file as a whole could not be read or is not TOML: the app's settings parser
    /// has said so already, so the app shows it once.
    pub whole_file: bool,
}

/// The study settings from config.toml as read, and what was wrong with it.
pub fn study_config(file: &paths::ConfigFile) -> (StudyConfig, Option<StudyProblem>) {
    let problem = |message: String, whole_file| {
        Some(StudyProblem {
            message: format!("{message}; using the default study settings"),
            whole_file,
        })
    };
    match file {
        paths::ConfigFile::Missing => (StudyConfig::default(), None),
        paths::ConfigFile::Unreadable { name, why } => (
            StudyConfig::default(),
            problem(format!("{name}: {why}"), true),
        ),
        paths::ConfigFile::Text { name, text } => match StudyConfig::parse(text, name) {
            Ok(c) => (c, None),
            Err(e) => {
                let whole_file = matches!(e, crate::study::config::ConfigError::Toml { .. });
                (StudyConfig::default(), problem(e.to_string(), whole_file))
            }
        },
    }
}

/// The store in the data folder (or in memory, with a notice saying why) and the study
/// settings, each problem with config.toml among the notices.
pub fn open(cli: &Cli) -> Result<(Progress, Vec<String>)> {
    let (config, problem) = study_config(&paths::read_config());
    open_with(cli, config, problem.map(|p| p.message))
}

/// [`open`] with study settings already read; `problem` joins the notices.
pub fn open_with(
    cli: &Cli,
    config: StudyConfig,
    problem: Option<String>,
) -> Result<(Progress, Vec<String>)> {
    let now = time::now();
    let opened = match paths::data_dir(cli.data_dir.as_deref()) {
        Some(dir) => Store::open_dir(&dir, now),
        None => {
            let why = "no data folder could be found (no home directory); studying without \
                       saving progress; pass --data-dir DIR to save";
            crate::study::Opened {
                store: Store::in_memory(why)?,
                notices: vec![why.to_string()],
            }
        }
    };
    let mut notices = opened.notices;
    notices.extend(problem);
    let progress = Progress::new(opened.store, config)?;
    Ok((progress, notices))
}

fn warn_all(notices: &[String]) {
    for n in notices {
        eprintln!("warning: {n}");
    }
}

pub fn stats(cli: &Cli, deck: &Deck, format: Format, include_partial: bool) -> Result<ExitCode> {
    let (progress, notices) = open(cli)?;
    warn_all(&notices);
    let stats = Stats::compute(deck, &progress, time::now(), include_partial)?;
    let text = match format {
        Format::Table => stats.to_text(),
        Format::Json => serde_json::to_string_pretty(&stats)? + "\n",
    };
    write_out(&mut std::io::stdout().lock(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses to `what` (export, import) when the store is not `usable` for it: an export
/// needs the user's progress, an import a store that saves.
fn usable_or_exit(usable: bool, notices: &[String], what: &str) -> Option<ExitCode> {
    if usable {
        warn_all(notices);
        return None;
    }
    for n in notices {
        eprintln!("error: {n}");
    }
    eprintln!("error: cannot {what} without the progress store");
    Some(ExitCode::from(1))
}

pub fn export(cli: &Cli, file: Option<&Path>) -> Result<ExitCode> {
    let (progress, notices) = open(cli)?;
    if let Some(code) = usable_or_exit(progress.store.holds_progress(), &notices, "export") {
        return Ok(code);
    }
    let doc = progress.store.export()?;
    let json = serde_json::to_string_pretty(&doc)? + "\n";
    match file {
        None => write_out(&mut std::io::stdout().lock(), &json)?,
        Some(path) => {
            // A failed export never leaves half a file, and never replaces a link or a device.
            let name = shown(path);
            super::write::write_file(path, json.as_bytes())
                .with_context(|| format!("cannot write {name}"))?;
            eprintln!(
                "exported {} reviews, {} cards, {} mock interviews, {} solved challenges and {} \
                 typed answers to {}",
                doc.reviews.len(),
                doc.cards.len(),
                doc.mock_sessions.len(),
                doc.solved_challenges.len(),
                doc.typed_answers.len(),
                name
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `export --anki` / `--csv` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeckFormat {
    Anki,
    Csv,
}

/// The deck and its schedule as an Anki package or CSV. Without the progress store (a
/// store in memory) the deck is still written, every card new, with a warning.
pub fn export_deck(cli: &Cli, deck: &Deck, format: DeckFormat, path: &Path) -> Result<ExitCode> {
    use crate::study::package::{Schedule, anki, csv};
    let (progress, notices) = open(cli)?;
    warn_all(&notices);
    let retention = progress.config.desired_retention;
    let schedule = if progress.store.holds_progress() {
        Schedule::from_store(&progress.store, retention)?
    } else {
        eprintln!(
            "warning: the progress store is not available, so the schedule was not included: \
             every card is exported as new"
        );
        Schedule::empty(retention)
    };
    let now = time::now();
    let name = shown(path);
    let (bytes, summary) = match format {
        DeckFormat::Anki => {
            let w = anki::package(deck, &schedule, now).context("cannot build the Anki package")?;
            let summary = format!(
                "exported {} questions ({} with a schedule, {} reviews) as an Anki package to {}",
                w.notes, w.scheduled, w.revlog, name
            );
            (w.bytes, summary)
        }
        DeckFormat::Csv => {
            let bytes = csv::csv(deck, &schedule).context("cannot build the CSV")?;
            let summary = format!(
                "exported {} questions as CSV to {}",
                deck.questions.len(),
                name
            );
            (bytes, summary)
        }
    };
    super::write::write_file(path, &bytes).with_context(|| format!("cannot write {name}"))?;
    eprintln!("{summary}");
    Ok(ExitCode::SUCCESS)
}

/// An export larger than this is refused: years of daily study come to a few MiB.
const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

pub fn import(cli: &Cli, file: &Path) -> Result<ExitCode> {
    let name = shown(file);
    // Read with a bound rather than as a regular file only: `import /dev/stdin` from a
    // pipe is a fair use, and the bound keeps /dev/zero from filling memory.
    let mut bytes = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| {
        use std::io::Read;
        f.take(MAX_IMPORT_BYTES + 1).read_to_end(&mut bytes)
    });
    if let Err(e) = read {
        eprintln!("error: cannot read {name}: {e}");
        return Ok(ExitCode::from(1));
    }
    if bytes.len() as u64 > MAX_IMPORT_BYTES {
        eprintln!("error: {name}: larger than {MAX_IMPORT_BYTES} bytes; not a progress export");
        return Ok(ExitCode::from(1));
    }
    let doc: Export = match serde_json::from_slice(&bytes) {
        Ok(d) => d,
        Err(e) => {
            eprintln!(
                "error: {name}:{}:{}: not a kubedrill progress export: {}",
                e.line(),
                e.column(),
                text::plain(&e.to_string())
            );
            return Ok(ExitCode::from(1));
        }
    };
    let (mut progress, notices) = open(cli)?;
    if let Some(code) = usable_or_exit(progress.store.is_saving(), &notices, "import") {
        return Ok(code);
    }
    match progress.store.import(&doc) {
        Ok(sum) => {
            println!(
                "imported {} reviews, {} cards, {} mock interviews, {} quizzes, {} solved \
                 challenges, {} review flags and {} typed answers (rows already present were \
                 skipped)",
                sum.reviews,
                sum.cards,
                sum.mock_sessions,
                sum.quiz_sessions,
                sum.solved_challenges,
                sum.review_flags,
                sum.typed_answers
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {name}: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
