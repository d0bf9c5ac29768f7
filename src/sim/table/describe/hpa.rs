//! `kubectl describe hpa` (kubectl 1.32 describe.go `describeHorizontalPodAutoscalerV2`):
//! the metrics as ( current / target ), the replica bounds, `behavior` when set, the
//! target's pods, the conditions and the events.

use super::super::fields::{array_at, at, int_at, sorted_pairs, str_at};
use super::super::tabwriter::TabWriter;
use super::{annotations_multiline, describe_events, labels_multiline};
use crate::sim::time;
use serde_json::Value;

/// Quantity.String() of a stored quantity.
fn quantity(v: &Value) -> String {
    crate::sim::quantity::canonical(v).unwrap_or_default()
}

/// printDirectionBehavior.
fn direction(w: &mut String, title: &str, rules: &Value) {
    if !rules.is_object() {
        return;
    }
    *w += &format!("  {title}:\n");
    if let Some(s) = rules["stabilizationWindowSeconds"].as_i64() {
        *w += &format!("    Stabilization Window: {s} seconds\n");
    }
    let policies = rules["policies"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if !policies.is_empty() {
        *w += &format!(
            "    Select Policy: {}\n",
            rules["selectPolicy"].as_str().unwrap_or("Max")
        );
        *w += "    Policies:\n";
        for p in policies {
            *w += &format!(
                "      - Type: {}\tValue: {}\tPeriod: {} seconds\n",
                p["type"].as_str().unwrap_or(""),
                p["value"].as_i64().unwrap_or(0),
                p["periodSeconds"].as_i64().unwrap_or(0)
            );
        }
    }
}

pub fn describe_hpa(hpa: &Value, events: &[Value], now: u64) -> String {
    let mut w = String::new();
    w += &format!("Name:\t{}\n", str_at(hpa, &["metadata", "name"]));
    w += &format!("Namespace:\t{}\n", str_at(hpa, &["metadata", "namespace"]));
    labels_multiline(
        &mut w,
        "",
        "Labels",
        &sorted_pairs(hpa, &["metadata", "labels"]),
    );
    annotations_multiline(&mut w, "Annotations", hpa, &["metadata", "annotations"]);
    let created = time::parse_rfc3339(str_at(hpa, &["metadata", "creationTimestamp"]));
    w += &format!(
        "CreationTimestamp:\t{}\n",
        created.map(time::rfc1123z).unwrap_or_default()
    );
    let kind = str_at(hpa, &["spec", "scaleTargetRef", "kind"]).to_string();
    w += &format!(
        "Reference:\t{kind}/{}\n",
        str_at(hpa, &["spec", "scaleTargetRef", "name"])
    );
    w += "Metrics:\t( current / target )\n";
    let statuses = array_at(hpa, &["status", "currentMetrics"]);
    for (i, m) in array_at(hpa, &["spec", "metrics"]).iter().enumerate() {
        if m["type"] != "Resource" {
            w += &format!(
                "  <unknown metric type {}>\n",
                crate::sim::output::go_quote(m["type"].as_str().unwrap_or(""))
            );
            continue;
        }
        let r = &m["resource"];
        let current = statuses
            .get(i)
            .map(|s| &s["resource"])
            .filter(|c| c.is_object());
        w += &format!("  resource {} on pods", r["name"].as_str().unwrap_or(""));
        if let Some(avg) = r["target"].get("averageValue").filter(|v| !v.is_null()) {
            let cur = current.map_or("<unknown>".to_string(), |c| {
                quantity(&c["current"]["averageValue"])
            });
            w += &format!(":\t{cur} / {}\n", quantity(avg));
        } else {
            let cur = current
                .and_then(|c| {
                    let u = c["current"]["averageUtilization"].as_i64()?;
                    Some(format!(
                        "{u}% ({})",
                        quantity(&c["current"]["averageValue"])
                    ))
                })
                .unwrap_or_else(|| "<unknown>".to_string());
            let target = r["target"]["averageUtilization"]
                .as_i64()
                .map_or("<auto>".to_string(), |u| format!("{u}%"));
            w += &format!("  (as a percentage of request):\t{cur} / {target}\n");
        }
    }
    let min = at(hpa, &["spec", "minReplicas"])
        .and_then(Value::as_i64)
        .map_or("<unset>".to_string(), |m| m.to_string());
    w += &format!("Min replicas:\t{min}\n");
    w += &format!("Max replicas:\t{}\n", int_at(hpa, &["spec", "maxReplicas"]));
    if let Some(b) = at(hpa, &["spec", "behavior"]).filter(|b| b.is_object()) {
        w += "Behavior:\n";
        direction(&mut w, "Scale Up", &b["scaleUp"]);
        direction(&mut w, "Scale Down", &b["scaleDown"]);
    }
    w += &format!(
        "{kind} pods:\t{} current / {} desired\n",
        int_at(hpa, &["status", "currentReplicas"]),
        int_at(hpa, &["status", "desiredReplicas"])
    );
    let conditions = array_at(hpa, &["status", "conditions"]);
    if !conditions.is_empty() {
        w += "Conditions:\n";
        w += "  Type\tStatus\tReason\tMessage\n";
        w += "  ----\t------\t------\t-------\n";
        for c in conditions {
            w += &format!(
                "  {}\t{}\t{}\t{}\n",
                str_at(c, &["type"]),
                str_at(c, &["status"]),
                str_at(c, &["reason"]),
                str_at(c, &["message"])
            );
        }
    }
    describe_events(&mut w, hpa, Some("HorizontalPodAutoscaler"), events, now);
    TabWriter::DESCRIBE.format(&w)
}
