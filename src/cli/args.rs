//! The command line's grammar: what clap parses, and the bare start that skips it.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "kubedrill",
    version,
    about = "Learn and rehearse Kubernetes interview questions on desired-state reconciliation",
    long_about = None
)]
pub struct Cli {
    /// Extra folder of content TOML files (repeatable)
    #[arg(long = "content", value_name = "DIR", global = true)]
    pub content: Vec<PathBuf>,
    /// Where progress is stored [env: KUBEDRILL_DATA_DIR]
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// Seed for everything random (demo pod names, question order)
    #[arg(long, value_name = "N", global = true)]
    pub seed: Option<u64>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// One row per question: id, topic, level, importance, frequency, scenario
    List {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Find questions by any of their text: prompt, keypoints, answers, pitfalls,
    /// follow-ups, code (case ignored); one row per question with the text around the match
    Search {
        term: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print a question in full, tiers in order
    Show {
        /// Question id, as `kubedrill list` shows it
        id: String,
    },
    /// Open the terminal app (also what a bare `kubedrill` does)
    Study {
        /// Start in a cram session: every question, narrowed by --topic, --level and --tag
        #[arg(long)]
        cram: bool,
        /// With --cram: only this topic (its id)
        #[arg(long, requires = "cram", value_name = "ID")]
        topic: Option<String>,
        /// With --cram: only this level (junior, middle, senior, principal)
        #[arg(long, requires = "cram", value_parser = parse_level)]
        level: Option<crate::content::Level>,
        /// With --cram: only topics with this roadmap tag
        #[arg(long, requires = "cram")]
        tag: Option<String>,
        /// With --cram: let the grades move the schedule too
        #[arg(long, requires = "cram")]
        reschedule: bool,
    },
    /// A timed mock interview: the app asks, times, and scores your answers
    Mock {
        /// How many questions (1 to 10; fewer when fewer match)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=10))]
        questions: Option<u8>,
        /// The level you are interviewing for (default: the target level in config.toml)
        #[arg(long, value_parser = parse_level)]
        level: Option<crate::content::Level>,
        /// Only questions of this topic (its id)
        #[arg(long, value_name = "ID")]
        topic: Option<String>,
        /// How hard overtime counts: lenient, standard or strict
        #[arg(long, value_parser = parse_strictness)]
        strictness: Option<crate::study::mock::Strictness>,
        /// Write the Markdown report to FILE when the scorecard shows
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
    },
    /// A quiz checked as you answer: pitfall or fact, which question, follow-up recall
    Quiz {
        /// Rounds to play, comma-separated (default: all three)
        #[arg(long, value_delimiter = ',', value_parser = parse_round)]
        rounds: Vec<crate::study::quiz::RoundKind>,
        /// Items per round (3 to 10)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(3..=10))]
        per_round: Option<u8>,
        /// Only questions of this topic (its id)
        #[arg(long, value_name = "ID")]
        topic: Option<String>,
        /// Only questions at or below this level
        #[arg(long, value_parser = parse_level)]
        level: Option<crate::content::Level>,
    },
    /// Open the terminal app on a question's live demo
    Demo {
        /// Question id, as `kubedrill list` shows it
        id: String,
    },
    /// Validate content: the loaded set, or the given files and folders
    Check {
        /// Files or folders to check instead of the loaded set
        paths: Vec<PathBuf>,
    },
    /// Run a demo scenario headless: one kubectl command or directive per stdin line
    Sim {
        /// spec-status, self-healing, apply-semantics, field-fight, ownership, rollout,
        /// scheduling, node-failure, drain-pdb, service-endpoints, graceful-rollout, probes,
        /// statefulset, daemonset, jobs, hpa, leader-election, admission or operator
        scenario: Option<String>,
        /// Print each input line (as `$ line`) before its output, like a terminal session
        #[arg(long)]
        echo: bool,
        /// After the input, print a shell script that replays the session on a real cluster
        #[arg(long)]
        export: bool,
    },
    /// Review counts, due counts, retention, mastery and streak
    Stats {
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Count quizzes and mocks cut short in the trends, means and bests (they are
        /// listed either way)
        #[arg(long)]
        include_partial: bool,
    },
    /// Write all progress as JSON to FILE (or stdout); or the deck and its schedule as an
    /// Anki package (--anki) or CSV (--csv)
    Export {
        file: Option<PathBuf>,
        /// Write the deck, the schedule and the review log as an Anki package (.apkg)
        #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "csv"])]
        anki: Option<PathBuf>,
        /// Write one row per question, with its schedule, as CSV
        #[arg(long, value_name = "FILE", conflicts_with = "file")]
        csv: Option<PathBuf>,
    },
    /// Merge progress from a JSON export; rows already present are skipped
    Import { file: PathBuf },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
}

fn parse_level(s: &str) -> Result<crate::content::Level, String> {
    crate::content::Level::parse(s).ok_or_else(|| {
        format!(
            "unknown level `{s}`; valid: {}",
            crate::content::Level::names().join(", ")
        )
    })
}

fn parse_strictness(s: &str) -> Result<crate::study::mock::Strictness, String> {
    crate::study::mock::Strictness::parse(s)
        .ok_or_else(|| format!("unknown strictness `{s}`; valid: lenient, standard, strict"))
}

fn parse_round(s: &str) -> Result<crate::study::quiz::RoundKind, String> {
    use crate::study::quiz::RoundKind;
    RoundKind::parse(s).ok_or_else(|| {
        format!(
            "unknown round `{s}`; valid: {}",
            RoundKind::ALL
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The command line. A bare `kubedrill`, how the app is most often started, has nothing to
/// parse, and clap builds its whole tree of commands to parse anything: about a quarter
/// of a millisecond of first touches before the first frame.
pub(super) fn parse_args() -> Cli {
    if std::env::args_os().len() == 1 {
        return Cli::bare();
    }
    Cli::parse()
}

impl Cli {
    /// What clap makes of no arguments (`bare_is_what_clap_parses` holds the two equal).
    fn bare() -> Cli {
        Cli {
            content: Vec::new(),
            data_dir: None,
            seed: None,
            command: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Cli;

    #[test]
    fn bare_is_what_clap_parses() {
        let parsed = Cli::try_parse_from(["kubedrill"]).expect("no arguments parse");
        assert_eq!(format!("{parsed:?}"), format!("{:?}", Cli::bare()));
        // And the comparison can tell them apart.
        let seeded = Cli::try_parse_from(["kubedrill", "--seed", "1"]).expect("parses");
        assert_ne!(format!("{seeded:?}"), format!("{:?}", Cli::bare()));
    }
}
