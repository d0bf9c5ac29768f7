//! The simulator's answer to what content may use in a demo: scenario ids, the goal
//! language and the lines a demo can run.

use crate::content::{DemoCatalog, Problem};

use super::goal;
use super::scenario::SCENARIO_IDS;

use super::directive;
use super::kubectl::args::VERBS as KUBECTL_VERBS;

pub struct SimCatalog;

impl DemoCatalog for SimCatalog {
    fn scenario_ids(&self) -> Vec<String> {
        SCENARIO_IDS.iter().map(|s| s.to_string()).collect()
    }

    fn check_goal(&self, goal: &str) -> Result<(), Problem> {
        goal::parse(goal).map(drop).map_err(|e| Problem {
            span: e.span,
            message: e.message,
            help: e.help,
        })
    }

    fn check_line(&self, _scenario: &str, line: &str) -> Result<(), Problem> {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        let verb_at = |w: &str| {
            let start = line.find(w).unwrap_or(0);
            start..start + w.len().max(1)
        };
        match first {
            "kubectl" => {
                let verb = words.next().unwrap_or("");
                if KUBECTL_VERBS.contains(&verb) {
                    Ok(())
                } else {
                    Err(Problem {
                        span: if verb.is_empty() {
                            0..line.len()
                        } else {
                            verb_at(verb)
                        },
                        message: format!("the demo's kubectl has no command `{verb}`"),
                        help: Some(format!("supported: {}", KUBECTL_VERBS.join(", "))),
                    })
                }
            }
            w if directive::WORDS.contains(&w) => {
                let all: Vec<String> = line.split_whitespace().map(String::from).collect();
                match directive::parse(&all) {
                    Some(Err(e)) => Err(Problem {
                        span: 0..line.len(),
                        message: e.trim_start_matches("error: ").to_string(),
                        help: None,
                    }),
                    _ => Ok(()),
                }
            }
            other => Err(Problem {
                span: verb_at(other),
                message: format!("`{other}` is not a kubectl command or a demo directive"),
                help: Some(format!(
                    "demo lines start with `kubectl` or one of: {}",
                    directive::WORDS.join(", ")
                )),
            }),
        }
    }
}
