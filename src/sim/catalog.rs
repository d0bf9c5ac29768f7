//! The simulator's answer to what content may use in a demo: scenario ids, the goal
//! language and the lines a demo can run.

use crate::content::{DemoCatalog, Problem};

use super::goal;
use super::scenario::{SCENARIO_IDS, SCENARIOS};

use super::kubectl::{args, discovery};
use super::{directive, shell};

pub struct SimCatalog;

impl DemoCatalog for SimCatalog {
    fn scenario_ids(&self) -> &[&str] {
        SCENARIO_IDS
    }

    fn check_goal(&self, goal: &str) -> Result<(), Problem> {
        goal::parse(goal).map(drop).map_err(|e| Problem {
            span: e.span,
            message: e.message,
            help: e.help,
        })
    }

    fn check_line(&self, scenario: &str, line: &str) -> Result<(), Problem> {
        let whole = 0..line.len().max(1);
        let words = shell::split(line).map_err(|e| Problem {
            span: whole.clone(),
            message: e.to_string(),
            help: Some("quote as a POSIX shell would".into()),
        })?;
        let first = words.first().map(String::as_str).unwrap_or("");
        let at = |w: &str| {
            let start = line.find(w).unwrap_or(0);
            start..start + w.len().max(1)
        };
        if first == "kubectl" {
            // The custom kinds the scenario's CRDs add resolve as if applied.
            let parsed = discovery::with_served(served_in(scenario), || args::parse(&words[1..]));
            return match parsed {
                Ok(_) => Ok(()),
                Err(e) => {
                    let verb = words.get(1).map(String::as_str).unwrap_or("");
                    let known = args::VERBS.contains(&verb);
                    Err(Problem {
                        span: if known || verb.is_empty() {
                            whole
                        } else {
                            at(verb)
                        },
                        message: first_line(&e.0),
                        help: (!known).then(|| format!("supported: {}", args::VERBS.join(", "))),
                    })
                }
            };
        }
        match directive::parse(&words) {
            Some(Ok(_)) => Ok(()),
            Some(Err(e)) => Err(Problem {
                span: whole,
                message: first_line(&e),
                help: None,
            }),
            None => Err(Problem {
                span: at(first),
                message: format!("`{first}` is not a kubectl command or a demo directive"),
                help: Some(format!(
                    "demo lines start with `kubectl` or one of: {}",
                    directive::WORDS.join(", ")
                )),
            }),
        }
    }
}

/// The custom kinds a scenario's CRDs serve, worked out once per scenario and process,
/// when a line of it is first checked: that parses its manifests and compiles each CRD's
/// schema, and every kubectl line of every question on the scenario asks.
fn served_in(scenario: &str) -> Vec<discovery::Served> {
    static BY_SCENARIO: std::sync::OnceLock<Vec<std::sync::OnceLock<Vec<discovery::Served>>>> =
        std::sync::OnceLock::new();
    let Some(i) = SCENARIOS.iter().position(|sc| sc.id == scenario) else {
        return Vec::new();
    };
    let cells = BY_SCENARIO.get_or_init(|| SCENARIOS.iter().map(|_| Default::default()).collect());
    cells[i]
        .get_or_init(|| {
            let files = SCENARIOS[i].files;
            if files
                .iter()
                .any(|(_, t)| t.contains("CustomResourceDefinition"))
            {
                discovery::scenario_kinds(files)
            } else {
                Vec::new()
            }
        })
        .clone()
}

/// kubectl errors can span lines; a diagnostic wants the first, without the prefix.
fn first_line(msg: &str) -> String {
    let line = msg
        .lines()
        .find(|l| l.starts_with("error:"))
        .or(msg.lines().next())
        .unwrap_or("");
    line.trim_start_matches("error: ").to_string()
}
