//! What the API server does to any custom object with a structural schema (pruning,
//! defaulting, validation), over random objects against the operator scenario's WebApp
//! schema: pruning and defaulting are idempotent, a pruned object has nothing left to
//! prune, defaults never bring back an undeclared field, and validation's errors come
//! sorted by field path, with the note on unchecked rules exactly when an error blocks them.

use kubedrill::sim::apiextensions::schema::{self, Schema};
use kubedrill::sim::apiextensions::validate::validate;
use proptest::prelude::*;
use serde_json::{Value, json};

fn webapp_schema() -> Schema {
    let crd: Value = serde_norway::from_str(include_str!("../src/sim/manifests/webapp-crd.yaml"))
        .expect("the shipped CRD parses");
    let mut errs = Vec::new();
    let s = Schema::parse(
        &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"],
        "spec.validation.openAPIV3Schema",
        true,
        &mut errs,
    );
    assert!(errs.is_empty(), "{errs:?}");
    s
}

/// JSON values a few levels deep, with keys the schema declares among them.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-20i64..20).prop_map(Value::from),
        (-2.5f64..2.5).prop_map(|f| json!(f)),
        "[a-z.]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("spec".to_string()),
                    Just("status".to_string()),
                    Just("replicas".to_string()),
                    Just("image".to_string()),
                    Just("host".to_string()),
                    Just("conditions".to_string()),
                    Just("type".to_string()),
                    "[a-z]{1,4}",
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    (any_json(), any_json()).prop_map(|(spec, status)| {
        json!({"apiVersion": "example.com/v1", "kind": "WebApp",
            "metadata": {"name": "x"}, "spec": spec, "status": status})
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn pruning_and_defaulting_settle_in_one_pass(obj in object()) {
        let s = webapp_schema();
        let mut once = obj.clone();
        schema::prune(&s, &mut once);
        schema::default(&s, &mut once);
        let mut twice = once.clone();
        prop_assert!(schema::prune(&s, &mut twice).is_empty(), "defaults added an undeclared field");
        schema::default(&s, &mut twice);
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(&once["apiVersion"], &obj["apiVersion"]);
        prop_assert_eq!(&once["metadata"], &obj["metadata"]);
    }

    #[test]
    fn validation_gives_sorted_errors_and_rules_only_when_nothing_blocks(
        obj in object(), old in object()
    ) {
        let s = webapp_schema();
        let mut new = obj;
        schema::prune(&s, &mut new);
        schema::default(&s, &mut new);
        for errs in [validate(&s, &new, None), validate(&s, &new, Some(&old))] {
            let blocked = errs.iter().any(|e| e.blocking);
            let (checks, tail) = match errs.split_last() {
                Some((last, rest)) if last.path == "<nil>" => (rest, Some(last)),
                _ => (&errs[..], None),
            };
            prop_assert_eq!(blocked, tail.is_some(), "the `<nil>` note follows exactly the blocking errors");
            let mut sorted = checks.to_vec();
            sorted.sort();
            prop_assert_eq!(&sorted, &checks.to_vec());
        }
    }
}
