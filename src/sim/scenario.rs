//! Built-in scenarios.

/// Ids of the shipped scenarios; content may only name one of these.
pub const SCENARIO_IDS: &[&str] = &["spec-status", "self-healing", "apply-semantics", "field-fight"];
