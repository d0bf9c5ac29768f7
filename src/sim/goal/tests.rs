//! Tests of `goal`.

use super::*;
use serde_json::json;

struct Fx(Value);
impl Facts for Fx {
    fn object(&self, root: Root) -> Option<&Value> {
        (root == Root::Deploy).then_some(&self.0)
    }
    fn call(&self, func: Func, args: &[CallArg]) -> Value {
        match (func, args) {
            (Func::Errors, [CallArg::Str(r)]) if r == "Conflict" => json!(2),
            (Func::Controller, [CallArg::Str(_)]) => json!("paused"),
            _ => json!(0),
        }
    }
}

fn deploy() -> Fx {
    Fx(json!({
        "metadata": {"generation": 3, "annotations": {"a/b": "x"}},
        "spec": {"replicas": 3},
        "status": {"observedGeneration": 2, "conditions": [
            {"type": "Available", "status": "True"},
            {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}
        ]}
    }))
}

fn eval(goal: &str) -> bool {
    parse(goal)
        .unwrap_or_else(|e| panic!("{goal}: {e}"))
        .eval(&deploy())
}

#[test]
fn comparisons_paths_and_calls() {
    assert!(eval(
        "deploy.status.observedGeneration < deploy.metadata.generation"
    ));
    assert!(!eval(
        "deploy.status.observedGeneration == deploy.metadata.generation"
    ));
    assert!(eval(
        "deploy.status.conditions[Progressing].reason == \"NewReplicaSetAvailable\""
    ));
    assert!(eval("deploy.metadata.annotations[\"a/b\"] == \"x\""));
    assert!(eval(
        "errors(\"Conflict\") >= 1 and controller(\"deployment\") == \"paused\""
    ));
    assert!(eval("not errors(\"AlreadyExists\") or time() > 5"));
    assert!(eval(
        "(deploy.spec.replicas == 2 or deploy.spec.replicas == 3) and deploy.spec.replicas"
    ));
}

#[test]
fn missing_fields_are_null() {
    assert!(eval("deploy.status.readyReplicas == null"));
    assert!(!eval("deploy.status.readyReplicas == 0"));
    assert!(!eval("deploy.status.readyReplicas < 5"));
    assert!(eval("deploy.status.readyReplicas != 5"));
}

#[test]
fn tracked_values_are_found() {
    let g = parse("stable(pods(\"ready\"), 30) and changes(deploy.spec.replicas) >= 4").unwrap();
    let keys: Vec<String> = g.tracked().iter().map(|p| p.to_string()).collect();
    assert_eq!(keys, ["pods(\"ready\")", "deploy.spec.replicas"]);
}

#[test]
fn nesting_past_the_bound_is_an_error_at_the_first_token_too_deep() {
    let deep = format!("{}time() > 1{}", "(".repeat(10_000), ")".repeat(10_000));
    let e = parse(&deep).unwrap_err();
    assert_eq!(e.span, MAX_DEPTH..MAX_DEPTH + 1);
    assert!(e.message.contains("more than 64 deep"), "{}", e.message);
    let nots = format!("{}time() > 1", "not ".repeat(20_000));
    let e = parse(&nots).unwrap_err();
    assert_eq!(e.span.start, 4 * MAX_DEPTH);
    // At the bound it still parses and means what it says.
    let odd = MAX_DEPTH - 1 + MAX_DEPTH % 2;
    let ok = format!("{}time() > 1", "not ".repeat(odd));
    assert_eq!(eval(&ok), !eval("time() > 1"));
}

#[test]
fn errors_point_at_the_problem() {
    let e = parse("deploy.spec.replicas = 3").unwrap_err();
    assert_eq!(e.span, 21..22);
    assert!(e.help.unwrap().contains("=="));
    let e = parse("podz() > 1").unwrap_err();
    assert_eq!(
        (e.span.clone(), e.message.as_str()),
        (0..4, "unknown call `podz()`")
    );
    assert_eq!(e.help.as_deref(), Some("did you mean `pods()`?"));
    let e = parse("pods(\"redy\") > 1").unwrap_err();
    assert_eq!(e.span, 5..11);
    let e = parse("deployment.spec.replicas > 1").unwrap_err();
    assert_eq!(e.message, "unknown name `deployment`");
    let e = parse("stable(deploy.spec.replicas)").unwrap_err();
    assert!(e.message.contains("takes 2 argument(s)"), "{}", e.message);
    let e = parse("deploy.spec.replicas > 1 deploy").unwrap_err();
    assert_eq!(e.span, 25..31);
    let e = parse("(pods() > 1").unwrap_err();
    assert!(e.message.contains("`)`"));
    assert!(parse("").is_err());
    assert!(parse("events(\"x").is_err());
}

#[test]
fn paths_outside_the_objects_are_errors_with_the_nearest_field() {
    let e = parse("pods(\"ready\") < deploy.spec.replica").unwrap_err();
    assert_eq!(e.span, 28..35);
    assert_eq!(e.message, "`deploy.spec` has no field `replica`");
    assert_eq!(
        e.help.as_deref(),
        Some("did you mean `deploy.spec.replicas`?")
    );
    let e = parse("newrs.status.readyreplicas == 1").unwrap_err();
    assert_eq!(
        e.help.as_deref(),
        Some("did you mean `newrs.status.readyReplicas`?")
    );
    let e = parse("deploy.status.conditions.Available == 1").unwrap_err();
    assert!(e.message.contains("pick one by its type"), "{}", e.message);
    let e = parse("deploy.spec.replicas.value == 1").unwrap_err();
    assert!(e.message.contains("single value"), "{}", e.message);
    let e = parse("deploy.spec[Available] == 1").unwrap_err();
    assert_eq!(e.span, 12..21);
    // Maps take any key; condition types are open (a forged status may add any).
    assert!(parse("deploy.metadata.annotations[\"a/b\"] != null").is_ok());
    assert!(parse("deploy.status.conditions[Ready].status == \"True\"").is_ok());
    assert!(parse("rs.spec.template.spec.securityContext.runAsUser == 1").is_ok());
}
