use super::*;
use serde_json::json;

/// Each fixture pair is `kubectl label --local -f X x=y -o json` and `-o yaml` (v1.32.4):
/// printing the parsed JSON must give kubectl's YAML byte for byte.
fn assert_fixture(json_text: &str, yaml_text: &str) {
    let v: Value = serde_json::from_str(json_text).expect("fixture json");
    let got = to_yaml(&v);
    if got != yaml_text {
        for (i, (g, w)) in got.lines().zip(yaml_text.lines()).enumerate() {
            assert_eq!(g, w, "first difference at line {}", i + 1);
        }
        assert_eq!(got, yaml_text);
    }
}

#[test]
fn dry_run_deployment() {
    assert_fixture(
        include_str!("../testdata/dryrun.kubectl.json"),
        include_str!("../testdata/dryrun.kubectl.yaml"),
    );
}

#[test]
fn server_deployment_with_last_applied_and_managed_fields() {
    assert_fixture(
        include_str!("../testdata/server.kubectl.json"),
        include_str!("../testdata/server.kubectl.yaml"),
    );
}

#[test]
fn quoting_folding_numbers_and_nesting() {
    assert_fixture(
        include_str!("../testdata/rich.kubectl.json"),
        include_str!("../testdata/rich.kubectl.yaml"),
    );
}

#[test]
fn escapes_block_hints_key_order_and_floats() {
    assert_fixture(
        include_str!("../testdata/t2b.kubectl.json"),
        include_str!("../testdata/t2b.kubectl.yaml"),
    );
}

#[test]
fn folding_in_sequences_block_scalars_and_complex_keys() {
    assert_fixture(
        include_str!("../testdata/t3.kubectl.json"),
        include_str!("../testdata/t3.kubectl.yaml"),
    );
}

#[test]
fn managed_fields_keys() {
    assert_fixture(
        include_str!("../testdata/managed.kubectl.json"),
        include_str!("../testdata/managed.kubectl.yaml"),
    );
}

#[test]
fn small_cases() {
    assert_eq!(to_yaml(&json!({})), "{}\n");
    assert_eq!(to_yaml(&json!({"a": {"b": []}})), "a:\n  b: []\n");
    assert_eq!(to_yaml(&json!({"a": "x\n"})), "a: |\n  x\n");
    assert_eq!(
        to_yaml(&json!({"a": [{"b": "x\ny"}]})),
        "a:\n- b: |-\n    x\n    y\n"
    );
    assert_eq!(to_yaml(&json!({"a": ["x\ny"]})), "a:\n- |-\n  x\n  y\n");
}

#[test]
fn key_order_is_go_yamls() {
    let mut keys = vec![
        "a10", "a9", "a_", "aA", "a-1", "a-10", "a-2", "a.b", "A", "_", "z",
    ];
    keys.sort_by(|a, b| go_yaml_key_order(a, b));
    assert_eq!(
        keys,
        [
            "_", "A", "a-1", "a-2", "a-10", "a.b", "a_", "a9", "a10", "aA", "z"
        ]
    );
}
