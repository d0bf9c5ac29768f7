//! `kubectl describe poddisruptionbudget` (kubectl 1.32 describe.go
//! `describePodDisruptionBudgetV1`).

use serde_json::Value;

use super::super::fields::{at, int_at, selector_string, str_at};
use super::super::tabwriter::TabWriter;
use super::describe_events;

pub fn describe_pdb(pdb: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(pdb, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(pdb, &["metadata", "namespace"]));
    let int_or_string = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if let Some(v) = at(pdb, &["spec", "minAvailable"]).filter(|v| !v.is_null()) {
        w += &format!("Min available:\t{}\n", int_or_string(v));
    } else if let Some(v) = at(pdb, &["spec", "maxUnavailable"]).filter(|v| !v.is_null()) {
        w += &format!("Max unavailable:\t{}\n", int_or_string(v));
    }
    match at(pdb, &["spec", "selector"]).filter(|v| !v.is_null()) {
        // FormatLabelSelector of a selector that selects everything.
        Some(s) if selector_string(Some(s)).is_empty() => w += "Selector:\t<none>\n",
        Some(s) => w += &format!("Selector:\t{}\n", selector_string(Some(s))),
        None => w += "Selector:\t<unset>\n",
    }
    w += "Status:\n";
    w += &format!(
        "    Allowed disruptions:\t{}\n",
        int_at(pdb, &["status", "disruptionsAllowed"])
    );
    w += &format!(
        "    Current:\t{}\n",
        int_at(pdb, &["status", "currentHealthy"])
    );
    w += &format!(
        "    Desired:\t{}\n",
        int_at(pdb, &["status", "desiredHealthy"])
    );
    w += &format!("    Total:\t{}\n", int_at(pdb, &["status", "expectedPods"]));
    describe_events(&mut w, pdb, Some("PodDisruptionBudget"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
