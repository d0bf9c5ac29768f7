//! Command line: parsing, plain-text subcommands and exit codes. Exit 0 on success, 1 on a
//! content or input error, 2 on a usage error (clap's own).

mod args;
mod deck;
mod paths;
mod progress;
mod show;
mod write;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::content;

use args::parse_args;
pub use args::{Cli, Command, Format};
use deck::{load_all, load_paths, warn_broken};

/// What the terminal app opens on.
enum Open {
    Home,
    Demo(String),
    Cram(crate::study::CramFilter, bool),
    Mock {
        questions: Option<u8>,
        level: Option<crate::content::Level>,
        topic: Option<String>,
        strictness: Option<crate::study::mock::Strictness>,
        report: Option<PathBuf>,
    },
    Quiz(crate::study::quiz::QuizSetup),
}

pub fn main() -> ExitCode {
    let cli = parse_args();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Colour and bold only for a terminal, and never under NO_COLOR.
fn styled(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// An unknown question id on the command line: the error, the nearest id, exit 1.
fn no_such_question(deck: &crate::content::Deck, id: &str) -> ExitCode {
    let ids: Vec<&str> = deck.questions.iter().map(|q| q.id.as_str()).collect();
    eprintln!("error: no question with id `{id}`");
    match crate::content::nearest_id(id, &ids) {
        Some(near) => eprintln!("help: did you mean `{near}`?"),
        None => eprintln!("help: `kubedrill list` shows every id"),
    }
    ExitCode::from(1)
}

/// `export --anki FILE` / `export --csv FILE`: the loaded deck with the schedule.
fn package(cli: &Cli, format: progress::DeckFormat, path: &std::path::Path) -> Result<ExitCode> {
    let loaded = load_all(cli);
    warn_broken(&loaded);
    progress::export_deck(cli, &loaded.deck, format, path)
}

fn run(cli: Cli) -> Result<ExitCode> {
    // A folder named on the command line that is not there is a mistake to say at once,
    // not a warning the app would hide behind its screen.
    for dir in &cli.content {
        if let Err(e) = std::fs::metadata(dir) {
            eprintln!(
                "error: --content {}: {e}",
                crate::content::files::shown(dir)
            );
            return Ok(ExitCode::from(1));
        }
    }
    let command = match &cli.command {
        None => return study(&cli, Open::Home),
        Some(Command::Demo { id }) => return study(&cli, Open::Demo(id.clone())),
        Some(command) => command,
    };
    // Taken per command, never across the terminal app: a lock held there would block
    // the signal thread's last-resort restore.
    let out = &mut std::io::stdout();
    match command {
        Command::List { format } => {
            let loaded = load_all(&cli);
            warn_broken(&loaded);
            let text = match format {
                Format::Table => show::list_table(&loaded.deck),
                Format::Json => show::list_json(&loaded.deck)?,
            };
            write_out(out, &text)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Search { term, format } => {
            let loaded = load_all(&cli);
            warn_broken(&loaded);
            let hits = content::search::search(&loaded.deck, term);
            let text = match format {
                Format::Table => show::search_table(&hits),
                Format::Json => show::search_json(&hits)?,
            };
            write_out(out, &text)?;
            // As grep: 1 when nothing matched.
            Ok(if hits.is_empty() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Show { id } => {
            let loaded = load_all(&cli);
            warn_broken(&loaded);
            match loaded.deck.question(id) {
                Some(q) => {
                    let text = show::question(&loaded.deck, q, styled(&std::io::stdout()));
                    write_out(out, &text)?;
                    Ok(ExitCode::SUCCESS)
                }
                None => Ok(no_such_question(&loaded.deck, id)),
            }
        }
        Command::Sim {
            scenario,
            echo,
            export,
        } => match scenario {
            Some(scenario) => sim(scenario, cli.seed.unwrap_or(1), *echo, *export),
            None => {
                // Name them rather than just say one is missing.
                let names: Vec<&str> = crate::sim::scenario::SCENARIOS
                    .iter()
                    .map(|s| s.id)
                    .collect();
                eprintln!(
                    "error: name a scenario: kubedrill sim SCENARIO, one of {}\n\nFor more information, try '--help'.",
                    names.join(", ")
                );
                Ok(ExitCode::from(2))
            }
        },
        Command::Study {
            cram,
            topic,
            level,
            tag,
            reschedule,
        } => {
            let open = if *cram {
                Open::Cram(
                    crate::study::CramFilter {
                        topic: topic.clone(),
                        level: *level,
                        tag: tag.clone(),
                    },
                    *reschedule,
                )
            } else {
                Open::Home
            };
            study(&cli, open)
        }
        Command::Demo { id } => study(&cli, Open::Demo(id.clone())),
        Command::Mock {
            questions,
            level,
            topic,
            strictness,
            report,
        } => study(
            &cli,
            Open::Mock {
                questions: *questions,
                level: *level,
                topic: topic.clone(),
                strictness: *strictness,
                report: report.clone(),
            },
        ),
        Command::Quiz {
            rounds,
            per_round,
            topic,
            level,
        } => {
            let mut setup = crate::study::quiz::QuizSetup {
                topic: topic.clone(),
                level: *level,
                ..Default::default()
            };
            if !rounds.is_empty() {
                setup.rounds = rounds.clone();
            }
            if let Some(n) = per_round {
                setup.per_round = usize::from(*n);
            }
            study(&cli, Open::Quiz(setup))
        }
        Command::Stats {
            format,
            include_partial,
        } => {
            let loaded = load_all(&cli);
            warn_broken(&loaded);
            progress::stats(&cli, &loaded.deck, *format, *include_partial)
        }
        Command::Export { file, anki, csv } => match (anki, csv) {
            (Some(path), _) => package(&cli, progress::DeckFormat::Anki, path),
            (None, Some(path)) => package(&cli, progress::DeckFormat::Csv, path),
            (None, None) => progress::export(&cli, file.as_deref()),
        },
        Command::Import { file } => progress::import(&cli, file),
        Command::Check { paths } => {
            let loaded = if paths.is_empty() {
                load_all(&cli)
            } else {
                load_paths(content::Prebuilt::default(), paths)
            };
            write_out(out, &loaded.render(styled(&std::io::stdout())))?;
            write_out(out, &show::check_summary(&loaded))?;
            // With no paths, the set kubedrill would load: config.toml is part of it.
            let config_problems = match paths.is_empty() {
                true => config_problems(),
                false => Vec::new(),
            };
            for p in &config_problems {
                write_out(
                    out,
                    &format!("config: {}\n", crate::content::text::terminal_safe(p)),
                )?;
            }
            if !config_problems.is_empty() {
                write_out(
                    out,
                    &format!(
                        "config.toml: {} problem(s); the app uses the defaults for those settings\n",
                        config_problems.len()
                    ),
                )?;
            }
            let code = if loaded.is_clean() && config_problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
            // The process ends here: freeing a large deck piece by piece would only cost time.
            std::mem::forget(loaded);
            Ok(code)
        }
    }
}

/// The terminal app, on the loaded content; MONO theme under NO_COLOR. It opens on home,
/// a question's demo (its card underneath, `q` goes there), a cram session, or the setup
/// of a mock interview or a quiz; bad arguments are reported before the terminal is taken.
fn study(cli: &Cli, open: Open) -> Result<ExitCode> {
    let loaded = load_all(cli);
    let deck = &loaded.deck;
    if let Open::Demo(id) = &open
        && deck.question(id).is_none()
    {
        return Ok(no_such_question(deck, id));
    }
    let topic = match &open {
        Open::Mock { topic, .. } => topic.as_deref(),
        Open::Quiz(q) => q.topic.as_deref(),
        _ => None,
    };
    if let Some(t) = topic
        && deck.topic(t).is_none()
    {
        eprintln!("error: no topic with id `{t}`");
        eprintln!("help: topics: {}", topic_ids(deck));
        return Ok(ExitCode::from(1));
    }
    let cram = match &open {
        Open::Cram(filter, reschedule) => {
            let ids = filter.ids(deck);
            if ids.is_empty() {
                eprintln!(
                    "error: no questions match the cram filter ({})",
                    filter.describe()
                );
                let mut tags: Vec<&str> = deck
                    .topics
                    .iter()
                    .flat_map(|t| t.roadmaps.iter().map(content::Str::as_str))
                    .collect();
                tags.sort_unstable();
                tags.dedup();
                eprintln!(
                    "help: topics: {}; tags: {}",
                    topic_ids(deck),
                    tags.join(", ")
                );
                return Ok(ExitCode::from(1));
            }
            Some((ids, *reschedule))
        }
        _ => None,
    };
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let settings = crate::tui::Settings {
        theme: if no_color {
            crate::tui::ThemeName::Mono
        } else {
            crate::tui::ThemeName::Default
        },
        ..Default::default()
    };
    // Read once: the app's settings and the study settings both come from it.
    let config_file = paths::read_config();
    let config = load_config(settings, &config_file);
    // A mock that cannot be drawn (nothing at or near the level) is said here, in plain text.
    let mut mock_defaults = crate::study::mock::MockSetup {
        level: config.settings.level,
        questions: config.mock_questions.unwrap_or(5),
        strictness: config.mock_strictness.unwrap_or_default(),
        ..Default::default()
    };
    let mut report_file = None;
    if let Open::Mock {
        questions,
        level,
        topic,
        strictness,
        report,
    } = &open
    {
        if let Some(n) = questions {
            mock_defaults.questions = usize::from(*n);
        }
        if let Some(l) = level {
            mock_defaults.level = *l;
        }
        mock_defaults.topic = topic.clone();
        if let Some(s) = strictness {
            mock_defaults.strictness = *s;
        }
        if let Err(e) = crate::study::mock::draw(
            deck,
            &mock_defaults,
            &mut <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0),
        ) {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
        report_file = report.clone();
    }
    if let Open::Quiz(setup) = &open
        && let Err(e) = crate::study::quiz::Quiz::new(deck, setup)
    {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(1));
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!(
            "error: the study app needs a terminal; `kubedrill list` and `kubedrill show ID` \
             print plain text"
        );
        return Ok(ExitCode::from(1));
    }
    if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        eprintln!(
            "error: the study app needs a terminal that can move its cursor, and TERM=dumb \
             says this one cannot; run it in a full terminal, or use `kubedrill list`, \
             `kubedrill show ID` and `kubedrill sim`, which print plain text"
        );
        return Ok(ExitCode::from(1));
    }
    let (study_settings, problem) = progress::study_config(&config_file);
    // A file that cannot be read or parsed is in the banner once, from the app's settings.
    let problem = problem.filter(|p| !p.whole_file).map(|p| p.message);
    let (progress, notices) = progress::open_with(cli, study_settings, None)?;
    let mut app = crate::tui::App::new(loaded, config.settings).with_progress(progress, notices);
    app.keymap = config.keymap;
    // A bad study setting is a config.toml problem like the others: in the banner and `?`.
    app.config_warnings = config.problems;
    app.config_warnings.extend(problem);
    app.seed = cli.seed.unwrap_or(1);
    app.mock_seed = cli.seed;
    app.mock_defaults = mock_defaults;
    app.auto_report = report_file.is_some();
    app.report_sink = Some(report_sink(report_file));
    app.script_sink = Some(script_sink());
    app.now = crate::study::time::now();
    match open {
        Open::Home => {}
        Open::Cram(..) => {
            if let Some((ids, reschedule)) = cram {
                app.start_cram(ids, reschedule);
            }
        }
        Open::Demo(id) => {
            app.open_card(&id);
            if let Err(e) = app.open_demo(&id, &[]) {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(1));
            }
        }
        Open::Mock { .. } => app.open_mock_setup(),
        Open::Quiz(setup) => {
            app.quiz_defaults = setup;
            app.open_quiz_setup();
        }
    }
    crate::tui::run_app(app)?;
    Ok(ExitCode::SUCCESS)
}

fn topic_ids(deck: &crate::content::Deck) -> String {
    deck.topics
        .iter()
        .map(|t| t.id.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes a demo's replay script: to the file named, else to `kubedrill-<question>.sh`
/// in the current folder, as [`write::write_file`] writes.
fn script_sink() -> crate::tui::app::ScriptSink {
    Box::new(|file, id, script| {
        let path = PathBuf::from(file.map_or_else(|| format!("kubedrill-{id}.sh"), String::from));
        let shown = crate::content::files::shown(&path);
        write::write_file(&path, script.as_bytes()).map_err(|e| format!("{shown}: {e}"))?;
        Ok(shown)
    })
}

/// Writes mock reports: to `file` when given, else to `kubedrill-mock-STAMP.md` in the
/// current folder, as [`write::write_file`] writes: a crash never leaves half a report.
fn report_sink(file: Option<PathBuf>) -> crate::tui::app::ReportSink {
    Box::new(move |markdown, now| {
        let path = file.clone().unwrap_or_else(|| {
            PathBuf::from(format!(
                "kubedrill-mock-{}.md",
                crate::study::time::stamp(now)
            ))
        });
        let shown = crate::content::files::shown(&path);
        write::write_file(&path, markdown.as_bytes()).map_err(|e| format!("{shown}: {e}"))?;
        Ok(shown)
    })
}

/// Every problem with config.toml, as the app would report them: its own settings, then
/// the study settings.
fn config_problems() -> Vec<String> {
    let file = paths::read_config();
    let mut problems = load_config(crate::tui::Settings::default(), &file).problems;
    if let (_, Some(p)) = progress::study_config(&file)
        && !p.whole_file
    {
        problems.push(p.message);
    }
    problems
}

/// The config folder's config.toml over `base`; a missing file is no problem, an unreadable
/// or bad one is reported in the app's banner and the defaults stay.
fn load_config(base: crate::tui::Settings, file: &paths::ConfigFile) -> crate::tui::config::Config {
    match file {
        paths::ConfigFile::Text { name, text } => crate::tui::config::parse(text, name, base),
        paths::ConfigFile::Missing => crate::tui::config::parse("", "config.toml", base),
        paths::ConfigFile::Unreadable { name, why } => {
            let mut c = crate::tui::config::parse("", "config.toml", base);
            c.problems.push(format!("{name}: {why}"));
            c
        }
    }
}

/// Writes to stdout; a closed pipe (`kubedrill show x | head`) is not an error.
fn write_out(out: &mut impl Write, text: &str) -> Result<()> {
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => Ok(r?),
    }
}

/// What a simulated command printed, with any control or bidi character it echoed from
/// its input (`kubectl label ... a=$'\e[2J'`) written as `\u{..}` instead of sent raw.
fn write_sim(out: &mut impl Write, text: &str) -> Result<()> {
    write_out(out, &crate::content::text::terminal_safe(text))
}

/// Longest stdin line `kubedrill sim` runs; a longer one is refused, with its number.
const MAX_SIM_LINE: usize = 1024 * 1024;

/// `kubedrill sim`: stdin lines in, what each prints out, in order. With `--export`
/// stdout carries the replay script alone and what the lines print goes to stderr.
fn sim(scenario: &str, seed: u64, echo: bool, export: bool) -> Result<ExitCode> {
    let mut session = match crate::sim::session::Session::new(scenario, seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let mut bad_input = false;
    let mut buf = Vec::new();
    for number in 1.. {
        let line = match read_line(&mut stdin, &mut buf)? {
            Line::End => break,
            Line::Text(t) => t,
            Line::TooLong => {
                bad_input = true;
                write_out(
                    &mut err,
                    &format!(
                        "error: stdin line {number} is longer than {MAX_SIM_LINE} bytes; skipped\n"
                    ),
                )?;
                continue;
            }
            Line::NotUtf8 { column, byte } => {
                bad_input = true;
                write_out(
                    &mut err,
                    &format!(
                        "error: stdin line {number} is not valid UTF-8 (byte 0x{byte:02X} at \
                         column {column}); skipped\n"
                    ),
                )?;
                continue;
            }
        };
        if echo {
            let echoed = format!("$ {line}\n");
            if export {
                write_sim(&mut err, &echoed)?;
            } else {
                write_sim(&mut stdout, &echoed)?;
            }
        }
        let o = session.run_line(&line);
        // In the order kubectl writes them (warnings as they happen, errors last); with
        // --echo everything goes to one stream so a transcript keeps that order.
        for (is_err, text) in o.chunks() {
            if (is_err && !echo) || export {
                write_sim(&mut err, text)?;
            } else {
                write_sim(&mut stdout, text)?;
            }
        }
    }
    if export {
        write_out(&mut stdout, &session.export_script())?;
    }
    Ok(if bad_input {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

enum Line {
    End,
    Text(String),
    TooLong,
    /// 1-based character column of the first bad byte.
    NotUtf8 {
        column: usize,
        byte: u8,
    },
}

/// One line of stdin, without its newline (or CR LF), at most [`MAX_SIM_LINE`] bytes held:
/// a longer one is read to its end and dropped.
fn read_line(input: &mut impl std::io::BufRead, buf: &mut Vec<u8>) -> Result<Line> {
    use std::io::{BufRead, Read};
    buf.clear();
    let n = input
        .by_ref()
        .take(MAX_SIM_LINE as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() != Some(&b'\n') && buf.len() > MAX_SIM_LINE {
        // Skip the rest of the line without holding it.
        let mut sink = Vec::new();
        while input
            .by_ref()
            .take(64 * 1024)
            .read_until(b'\n', &mut sink)?
            > 0
        {
            if sink.last() == Some(&b'\n') {
                break;
            }
            sink.clear();
        }
        return Ok(Line::TooLong);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    match std::str::from_utf8(buf) {
        Ok(s) => Ok(Line::Text(s.to_string())),
        Err(e) => {
            let (_, column, byte) = crate::content::text::utf8_error_at(buf, &e);
            Ok(Line::NotUtf8 { column, byte })
        }
    }
}
