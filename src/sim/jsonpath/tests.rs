use super::*;

/// `kubectl create deployment web --image=nginx:1.27 --replicas=3 --dry-run=client -o yaml`
/// labelled x=y, as `kubectl label --local -f d.yaml x=y` sees it.
fn dry_run() -> Value {
    serde_json::from_str(include_str!("../output/testdata/dryrun.kubectl.json")).expect("fixture")
}

/// A server-style Deployment with status conditions (testdata/server.kubectl.json).
fn server() -> Value {
    serde_json::from_str(include_str!("../output/testdata/server.kubectl.json")).expect("fixture")
}

fn run(template: &str, data: &Value) -> String {
    match parse(template).and_then(|p| p.execute(data)) {
        Ok(s) => s,
        Err(e) => format!("ERR {e}"),
    }
}

#[test]
fn matches_kubectl_on_the_dry_run_deployment() {
    // Each expectation is the stdout of
    // `kubectl label --local -f d.yaml x=y -o jsonpath='<template>'` (kubectl v1.32.4).
    let d = dry_run();
    let cases = [
        ("{.metadata.labels}", r#"{"app":"web","x":"y"}"#),
        (
            "{.spec.template.spec.containers[*].name} {.spec.replicas}",
            "nginx 3",
        ),
        ("{.nope}", ""),
        ("a{.metadata.name}b{\"\\n\"}c", "awebb\nc"),
        (
            "{.spec.template.spec.containers[0]}",
            r#"{"image":"nginx:1.27","name":"nginx","resources":{}}"#,
        ),
        (
            "{range .spec.template.spec.containers[*]}[{.name}:{.image}]{end}",
            "[nginx:nginx:1.27]",
        ),
        ("{.metadata.labels.app}{\"\\t\"}{' '}x", "web\t x"),
        ("{@.kind}", "Deployment"),
        (
            "{.spec.template.spec.containers[?(@.name==\"nginx\")].image}",
            "nginx:1.27",
        ),
        ("{..image}", "nginx:1.27"),
        ("{.metadata.creationTimestamp}", "null"),
        ("{.spec.strategy}", "{}"),
        ("{.metadata.labels['app']}", "web"),
        ("{range .x}", ""),
        ("{.a[0:2]}", ""),
        ("{.status}", "{}"),
        ("{.metadata.labels.*}", "web y"),
        ("{.spec.template.spec.containers[-1].name}", "nginx"),
        (
            "{.spec.template.spec.containers}",
            r#"[{"image":"nginx:1.27","name":"nginx","resources":{}}]"#,
        ),
        ("{\"a\\\"b\"}", "a\"b"),
        ("{.metadata.name} {.metadata.nope.deeper} z", "web  z"),
    ];
    for (template, want) in cases {
        assert_eq!(run(template, &d), want, "{template}");
    }
}

#[test]
fn matches_kubectl_on_a_server_deployment() {
    let s = server();
    let cases = [
        ("{.}", ""),
        ("{['metadata']['name']}", "web"),
        // kubectl re-parses ['a.b'] as .a.b, so dotted keys in brackets find nothing.
        (
            "{.metadata.annotations['deployment.kubernetes.io/revision']}",
            "",
        ),
        (
            "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}",
            "1",
        ),
        ("{.metadata['name','namespace']}", "web default"),
        (
            "{.status.conditions[?(@.type==\"Available\")].status}",
            "True",
        ),
        (
            "{.status.conditions[?(@.type!=\"Available\")].reason}",
            "NewReplicaSetAvailable",
        ),
        (
            "{.spec.template.spec.containers[0].ports[?(@.containerPort>79)].protocol}",
            "TCP",
        ),
        (
            "{.status.conditions[?(@.message)].type}",
            "Available Progressing",
        ),
        ("{.metadata#}", ""),
        ("{.status.conditions[0:2].type}", "Available Progressing"),
        ("{.status.conditions[1:].type}", "Progressing"),
        ("{.status.conditions[:1].type}", "Available"),
        ("{.status.conditions[::2].type}", "Available"),
        (
            "{.metadata.name}{range .status.conditions[*]}{\"\\n\"}{.type}={.status}{end}{\"\\n\"}",
            "web\nAvailable=True\nProgressing=True\n",
        ),
        (
            "{range .status.conditions[*]}{.type}{\" \"}{end}",
            "Available Progressing ",
        ),
        (
            "{.spec.template.spec.containers[*].args}",
            r#"["--port=80","--verbose"]"#,
        ),
        (
            "{.spec.template.spec.containers[*].args[*]}",
            "--port=80 --verbose",
        ),
        ("{3}", "3"),
        ("{true}", "true"),
        ("{'a'}", "a"),
        ("{.a}}x", "}x"),
        (
            "{.spec.replicas} {.status.conditions[2:2]} after",
            "3  after",
        ),
        (
            "{range .status.conditions[*]}{range .message}{@}{end};{end}",
            "Deployment has minimum availability.;ReplicaSet \"web-7c5ddbdf54\" has successfully progressed.;",
        ),
        ("{'ab'}", "ab"),
        ("{.metadata.generation}{.spec.replicas}", "13"),
        ("{.metadata..name}", "web"),
        ("{..type}", "RollingUpdate Available Progressing"),
        ("{.status.conditions[*]..type}", "Available Progressing"),
        (
            "{.metadata.labels.*}{.status.conditions[?(@.status==\"True\")].type}",
            "web yAvailable Progressing",
        ),
    ];
    for (template, want) in cases {
        assert_eq!(run(template, &s), want, "{template}");
    }
    let whole = run("{$}", &s);
    assert_eq!(whole, run("{@}", &s));
    assert!(whole.starts_with(r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"deployment.kubernetes.io/revision":"1","kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\""#));
}

#[test]
fn scalar_printing_like_go() {
    // `kubectl label --local -f cm.json x=y -o jsonpath=...` on data
    // {"f":1.5,"i":2,"s":"a\"bé\u0001\n","b":true,"n":null,"l":[1,"x"],"e":{}}.
    let cm = serde_json::json!({"data": {"f": 1.5, "i": 2, "s": "a\"bé\u{1}\n", "b": true,
        "n": null, "l": [1, "x"], "e": {}}});
    assert_eq!(
        run(
            "{.data.f} {.data.s} {.data.n} {.data.l} {.data.e} {.data.b} {.data.l[*]}{.nope}|",
            &cm
        ),
        "1.5 a\"bé\u{1}\n null [1,\"x\"] {} true 1 x|"
    );
}

#[test]
fn parse_errors_in_kubectls_words() {
    let cases = [
        (
            "{.metadata.name",
            "error parsing jsonpath {.metadata.name, unclosed action",
        ),
        (
            "{.metadata[}",
            "error parsing jsonpath {.metadata[}, unterminated array",
        ),
        (
            "{.spec.replicas",
            "error parsing jsonpath {.spec.replicas, unclosed action",
        ),
        (
            "{.metadata.annotations[\"deployment.kubernetes.io/revision\"]}",
            "error parsing jsonpath {.metadata.annotations[\"deployment.kubernetes.io/revision\"]}, invalid array index \"deployment.kubernetes.io/revision\"",
        ),
        (
            "{.status.conditions[x]}",
            "error parsing jsonpath {.status.conditions[x]}, invalid array index x",
        ),
        (
            "{.metadata.name}{\"",
            "error parsing jsonpath {.metadata.name}{\", unterminated quoted string",
        ),
        ("{.x[", "error parsing jsonpath {.x[, unterminated array"),
        (
            "{#}",
            "error parsing jsonpath {#}, unrecognized character in action: U+0023 '#'",
        ),
    ];
    for (template, want) in cases {
        let err = parse(template).expect_err(template);
        assert_eq!(err.to_string(), want);
    }
}

#[test]
fn execution_errors_in_kubectls_words() {
    let s = server();
    let reason = |t: &str| match parse(t).and_then(|p| p.execute(&s)) {
        Err(JsonPathError::Execute { reason, .. }) => reason,
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(
        reason("{.status.conditions[0:5].type}"),
        "array index out of bounds: index 4, length 2"
    );
    assert_eq!(
        reason("{.spec.template.spec.containers[5].name}"),
        "array index out of bounds: index 5, length 1"
    );
    assert_eq!(reason("{foo}"), "unrecognized identifier foo");
    assert_eq!(reason("{end}"), "not in range, nothing to end");
    assert_eq!(
        reason("{.spec.template.spec.containers[0].ports[?(@.containerPort>79.5)].protocol}"),
        "incompatible types for comparison"
    );
}

#[test]
fn execution_error_layout() {
    // `kubectl label --local -f cm.json x=y -o jsonpath='{foo}'` on
    // {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{...}}.
    let cm = serde_json::json!({"apiVersion": "v1", "data": {"b": true, "e": {}, "f": 1.5,
        "i": 2, "l": [1, "x"], "n": null, "s": "a\"bé\u{1}\n"}, "kind": "ConfigMap",
        "metadata": {"labels": {"x": "y"}, "name": "c"}});
    let err = parse("{foo}")
        .and_then(|p| p.execute(&cm))
        .expect_err("unknown identifier");
    let want = concat!(
        "error executing jsonpath \"{foo}\": Error executing template: unrecognized identifier foo. ",
        "Printing more information for debugging the template:\n",
        "\ttemplate was:\n\t\t{foo}\n",
        "\tobject given to jsonpath engine was:\n",
        "\t\tmap[string]interface {}{\"apiVersion\":\"v1\", \"data\":map[string]interface {}{\"b\":true, ",
        "\"e\":map[string]interface {}{}, \"f\":1.5, \"i\":2, \"l\":[]interface {}{1, \"x\"}, ",
        "\"n\":interface {}(nil), \"s\":\"a\\\"bé\\x01\\n\"}, \"kind\":\"ConfigMap\", ",
        "\"metadata\":map[string]interface {}{\"labels\":map[string]interface {}{\"x\":\"y\"}, \"name\":\"c\"}}\n\n",
    );
    assert_eq!(err.to_string(), want);
}

#[test]
fn filters_slices_and_errors_match_kubectl() {
    // it.json: `kubectl label --local -f it.json x=y -o jsonpath=...` outputs (v1.32.4).
    let it = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"labels": {"x": "y"}, "name": "w"},
        "spec": {"items": [
            {"name": "a", "n": 1, "ok": true, "f": 1.5, "tags": ["x", "y"]},
            {"name": "b", "n": 2, "ok": false, "f": 2.5, "tags": ["y"]},
            {"name": "c", "n": 3, "f": 0.5, "tags": []}]}});
    let cases = [
        ("{.spec.items[?(@.n>1)].name}", "b c"),
        ("{.spec.items[?(@.name<\"b\")].name}", "a"),
        (
            "{range .spec.items[*]}{.name}{\"\\t\"}{.n}{\"\\n\"}{end}",
            "a\t1\nb\t2\nc\t3\n",
        ),
        ("{.spec.items[*]['name','n']}", "a b c 1 2 3"),
        ("{.spec.items[1:3].name}", "b c"),
        ("{.spec.items[?(@.ok==true)].name}", "a"),
        ("{.spec.items[?(@.f>=1.5)].name}", "a b"),
        ("{.spec.items[?(@.name=='a')].n}", "1"),
        ("{.spec.items[-2:].name}", "b c"),
        ("{.spec.items[*].missing}", ""),
        ("{.spec.items.name}", ""),
        ("{.spec.items[0].name.x}", ""),
        ("{.spec.items[?(@.ok)].name}", "a b"),
        ("{.spec.items[?(@.n!=2)].f}", "1.5 0.5"),
        ("{.spec.items[*].tags[*]}", "x y y"),
        ("{.spec.items[0:0].name}", ""),
        (" {.metadata.name} ", " w "),
        ("{.metadata.name}{@.spec.items[0].name}", "wa"),
        ("{.spec..name}", "a b c"),
        ("{$.metadata.name}", "w"),
    ];
    for (template, want) in cases {
        assert_eq!(run(template, &it), want, "{template}");
    }
    let errors = [
        (
            "{.spec.items[?(@.tags[0]==\"x\")].name}",
            "array index out of bounds: index 0, length 0",
        ),
        (
            "{.spec.items[0][0]}",
            "map[string]interface {} is not array or slice",
        ),
        (
            "{.spec.items[?(@.n==1.0)].name}",
            "incompatible types for comparison",
        ),
        (
            "{.spec[0]}",
            "map[string]interface {} is not array or slice",
        ),
        (
            "{.spec.items[2:1].name}",
            "starting index 2 is greater than ending index 1",
        ),
        ("{.spec.items[::0].name}", "step must be > 0"),
        (
            "{.spec.items[?(@.tags[*]==\"y\")].name}",
            "can only compare one element at a time",
        ),
        (
            "{..tags[0]}",
            "array index out of bounds: index 0, length 0",
        ),
    ];
    for (template, want) in errors {
        match parse(template).and_then(|p| p.execute(&it)) {
            Err(JsonPathError::Execute { reason, .. }) => assert_eq!(reason, want, "{template}"),
            other => panic!("{template}: {other:?}"),
        }
    }
}

#[test]
fn deep_or_explosive_templates_end_in_an_error_not_a_crash() {
    let d = server();
    let ranges = "{range .items[*]}".repeat(25_000);
    let out = run(&ranges, &d);
    assert!(
        out.contains("range blocks nested more than 64 deep"),
        "{out}"
    );
    let filters = format!("{{{}}}", "[?(@.a".repeat(10_000));
    assert!(run(&filters, &d).contains("nested more than 64 deep"));
    // A range over 3,000 items printing 700 values each: past the bound, so it stops.
    let items = Value::from(vec![1; 3_000]);
    let explode = format!("{{range .items[*]}}{}{{end}}", "{.}".repeat(700));
    let out = run(&explode, &serde_json::json!({ "items": items }));
    assert!(
        out.contains("more than 2000000 values"),
        "{}",
        &out[..200.min(out.len())]
    );
    // Two levels is what people write, and it still works.
    let two =
        "{range .spec.template.spec.containers[*]}{range .ports[*]}{.containerPort}{end}{end}";
    assert!(!run(two, &d).starts_with("ERR"));
}

/// Found by fuzzing (a slow unit): twenty `{range}`s without an `end`, each re-running
/// the rest of the template, over wildcards: work that doubles with each one. It ends,
/// in an error, within the bound on values walked.
#[test]
fn a_fuzzed_template_of_unended_ranges_ends_within_the_bound() {
    let t = String::from_utf8_lossy(include_bytes!("testdata/fuzz-slow-unit.txt")).into_owned();
    let out = run(&t, &server());
    assert!(
        out.starts_with("ERR error executing jsonpath"),
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(out.len() <= eval::MAX_OUTPUT);
}
