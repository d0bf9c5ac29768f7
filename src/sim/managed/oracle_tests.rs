//! Tests: [`apply`], [`record_update`] and [`record_status_update`] replayed against the
//! ssa-oracle (structured-merge-diff v4.1.2 itself) on the scripts in tests/fixtures/ssa/:
//! each step's result, conflicts, every manager's fields and the live object. No upstream
//! file: the oracle's output stands in for structured-merge-diff's `merge` tests.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::fieldpath::{FieldSet, PathElement, path_string};
use super::managers::ManagedField;
use super::test_support::field;
use super::update::{apply, record_status_update, record_update};

/// The oracle's FieldsV1 with what this model does not track taken out: `apiVersion`,
/// `kind` and `metadata.name` (the API server strips them) and, in an applier's set,
/// `"."` on plain objects (an artifact of the oracle's deduced schema, where `labels` is
/// an undeclared map entry; an Update's created objects are owned in both).
fn normalize_oracle(fields: &FieldSet, applied: bool) -> FieldSet {
    let identity = [
        field(&["apiVersion"]),
        field(&["kind"]),
        field(&["metadata", "name"]),
    ];
    fields
        .iter()
        .filter(|p| !identity.contains(p))
        .filter(|p| {
            !(applied
                && matches!(p.last(), Some(PathElement::Field(_)))
                && fields.has_descendant(p))
        })
        .cloned()
        .collect()
}

/// The oracle keeps an applied `null` in the object; the API server would drop it.
fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        _ => value.clone(),
    }
}

/// Replays a script through [`apply`] / [`record_update`] and compares each step with the
/// ssa-oracle's output (structured-merge-diff v4.1.2): result, conflicts, every manager's
/// fields and the live object.
fn replay_against_oracle(script: &str, oracle: &str) {
    let mut entries: Vec<ManagedField> = Vec::new();
    let mut live = json!({});
    let steps = script.lines().filter(|l| !l.trim().is_empty());
    let outputs = oracle.lines().filter(|l| !l.trim().is_empty());
    let mut count = 0;
    for (n, (step, want)) in steps.zip(outputs).enumerate() {
        count += 1;
        let step: Value = serde_json::from_str(step).expect("script line is JSON");
        let want: Value = serde_json::from_str(want).expect("oracle line is JSON");
        let time = format!("2025-01-06T10:{n:02}:00Z");
        let manager = step["manager"].as_str().expect("manager");
        let object = &step["object"];
        let mut conflicts: Vec<String> = Vec::new();
        match step["op"].as_str() {
            Some("apply") => {
                let force = step["force"].as_bool().unwrap_or(false);
                match apply(&mut entries, &live, object, manager, force, &time) {
                    Ok(new) => live = new,
                    Err(e) => {
                        conflicts = e
                            .conflicts
                            .iter()
                            .map(|c| format!("{} {}", c.manager, path_string(&c.path)))
                            .collect();
                        conflicts.sort();
                    }
                }
            }
            Some("update") if step["subresource"] == "status" => {
                record_status_update(&mut entries, &live, object, manager, &time);
                live = object.clone();
            }
            Some("update") => {
                record_update(&mut entries, &live, object, manager, None, &time);
                live = object.clone();
            }
            other => panic!("unknown op {other:?}"),
        }
        let step_no = n + 1;
        let result = if conflicts.is_empty() {
            "ok"
        } else {
            "conflict"
        };
        assert_eq!(want["result"], result, "step {step_no}: result");
        let want_conflicts: Vec<String> = want["conflicts"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(conflicts, want_conflicts, "step {step_no}: conflicts");
        let mut want_managed = BTreeMap::new();
        for (name, fields) in want["managed"].as_object().expect("managed") {
            let parsed: Value =
                serde_json::from_str(fields.as_str().expect("fields string")).expect("json");
            let applied = script.lines().any(|l| {
                l.contains("\"op\":\"apply\"") && l.contains(&format!("\"manager\":\"{name}\""))
            });
            let set = normalize_oracle(
                &FieldSet::from_fields_v1(&parsed).expect("fieldsV1"),
                applied,
            );
            if !set.is_empty() {
                want_managed.insert(name.clone(), set.to_fields_v1());
            }
        }
        let got_managed: BTreeMap<String, Value> = entries
            .iter()
            .map(|e| (e.manager.clone(), e.fields.to_fields_v1()))
            .collect();
        assert_eq!(got_managed, want_managed, "step {step_no}: managed fields");
        assert_eq!(
            live,
            without_nulls(&want["live"]),
            "step {step_no}: live object"
        );
    }
    assert_eq!(
        count,
        oracle.lines().filter(|l| !l.trim().is_empty()).count()
    );
    assert!(count > 0);
}

#[test]
fn oracle_hpa_fight() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/hpa-fight.jsonl"),
        include_str!("../../../tests/fixtures/ssa/hpa-fight.oracle.jsonl"),
    );
}

#[test]
fn oracle_ownership_rules() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/ownership.jsonl"),
        include_str!("../../../tests/fixtures/ssa/ownership.oracle.jsonl"),
    );
}

#[test]
fn oracle_two_appliers_and_updates() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/two-appliers.jsonl"),
        include_str!("../../../tests/fixtures/ssa/two-appliers.oracle.jsonl"),
    );
}

/// Status writes (the oracle sees whole objects; the replay records them as `/status`
/// Updates): created `status`, `conditions` and `annotations` are owned as nodes, a
/// forged field changes hands; `spec.selector` is atomic, so an applier's different
/// selector conflicts on `.spec.selector` as a whole.
#[test]
fn oracle_status_writes_and_an_atomic_selector() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/status-and-selector.jsonl"),
        include_str!("../../../tests/fixtures/ssa/status-and-selector.oracle.jsonl"),
    );
}

/// New keyed list items are appended after the live ones, whatever the config's order.
#[test]
fn oracle_list_order() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/list-order.jsonl"),
        include_str!("../../../tests/fixtures/ssa/list-order.oracle.jsonl"),
    );
}

/// An explicit null in an apply config owns and clears the field, and conflicts with
/// another owner of it.
#[test]
fn oracle_explicit_null() {
    replay_against_oracle(
        include_str!("../../../tests/fixtures/ssa/explicit-null.jsonl"),
        include_str!("../../../tests/fixtures/ssa/explicit-null.oracle.jsonl"),
    );
}
