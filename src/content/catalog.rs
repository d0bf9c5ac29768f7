//! What content validation needs to know about demos, supplied by the layer above so
//! that `content` depends on nothing: the scenario ids, the goal language, and which
//! lines a demo can run.

use std::ops::Range;

/// A problem inside a goal or demo line, located in that string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Byte range inside the checked string.
    pub span: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

/// `Sync`: files are parsed side by side, all asking the one catalog.
pub trait DemoCatalog: Sync {
    /// Ids of the scenarios a demo may name, in the order help lists them.
    fn scenario_ids(&self) -> &[&str];
    /// Whether a demo may name `id`.
    fn knows_scenario(&self, id: &str) -> bool {
        self.scenario_ids().contains(&id)
    }
    /// Checks a challenge goal parses and type-checks.
    fn check_goal(&self, goal: &str) -> Result<(), Problem>;
    /// Checks that a setup line or runnable code line can run in `scenario`.
    fn check_line(&self, scenario: &str, line: &str) -> Result<(), Problem>;
}
