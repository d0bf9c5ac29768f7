//! The simulator's answer to what content may use in a demo: scenario ids, the goal
//! language and the lines a demo can run.

use crate::content::{DemoCatalog, Problem};

use super::goal;
use super::scenario::SCENARIO_IDS;

/// kubectl verbs the demo understands.
pub const KUBECTL_VERBS: &[&str] = &[
    "get", "describe", "scale", "delete", "patch", "create", "replace", "apply", "rollout",
    "label", "annotate", "set",
];

/// Directives of `kubedrill sim` that may also appear in content setup lines.
pub const DIRECTIVES: &[&str] = &["tick"];

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
            "tick" => match words.next().map(str::parse::<u32>) {
                Some(Ok(_)) => Ok(()),
                _ => Err(Problem {
                    span: 0..line.len(),
                    message: "`tick` needs a number of seconds".into(),
                    help: Some("for example `tick 5`".into()),
                }),
            },
            other => Err(Problem {
                span: verb_at(other),
                message: format!("`{other}` is not a kubectl command or a demo directive"),
                help: Some(format!(
                    "demo lines start with `kubectl` or one of: {}",
                    DIRECTIVES.join(", ")
                )),
            }),
        }
    }
}
