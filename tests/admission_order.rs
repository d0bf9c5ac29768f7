//! The admission chain's order and rules as kube-apiserver 1.32 applies them, on the
//! admission scenario: mutating webhooks in configuration-name order with IfNeeded
//! reinvocation, validating webhooks in parallel (the first failure to finish is the
//! answer), denials whatever the failurePolicy, and configurations never sent to webhooks.

use kubedrill::sim::session::Session;

fn session(lines: &[&str]) -> Session {
    let mut s = Session::new("admission", 1).unwrap();
    for l in lines {
        let out = s.run_line(l);
        assert!(out.stderr.is_empty(), "{l}: {}", out.stderr);
    }
    s
}

fn run(s: &mut Session, line: &str) -> String {
    let o = s.run_line(line);
    format!("{}{}", o.stdout, o.stderr)
}

/// `a` labels tier=a and asks to be called again; `b`, after it by name, sets tier=b: the
/// reinvocation sets it back, once.
#[test]
fn an_if_needed_webhook_is_called_again_after_a_later_change() {
    let mut s = session(&[
        "webhook add mutating a on deployments ignore",
        "webhook add mutating b on deployments ignore",
        "tick 5",
        "webhook a label tier=a",
        "webhook b label tier=b",
    ]);
    run(&mut s, "kubectl create deployment one --image=nginx");
    let got = run(
        &mut s,
        "kubectl get deploy one -o jsonpath={.metadata.labels.tier}",
    );
    assert_eq!(got, "b", "without reinvocation the last webhook wins");
    run(
        &mut s,
        r#"kubectl patch mutatingwebhookconfiguration a --type=json -p '[{"op":"add","path":"/webhooks/0/reinvocationPolicy","value":"IfNeeded"}]'"#,
    );
    run(&mut s, "kubectl create deployment two --image=nginx");
    let got = run(
        &mut s,
        "kubectl get deploy two -o jsonpath={.metadata.labels.tier}",
    );
    assert_eq!(got, "a", "a, called again after b changed the object");
    assert!(
        s.webhook_report()
            .contains("a.example.com called again (IfNeeded)")
    );
}

/// Two validating webhooks fail: the refused connection finishes at once, the hung one
/// only at its timeout, so the refusal is the answer although it comes second by name.
#[test]
fn the_first_validating_failure_to_finish_is_the_answer() {
    let mut s = session(&[
        "webhook add validating alpha on deployments",
        "webhook add validating zeta on deployments",
        "tick 5",
        "webhook alpha slow 30",
        "webhook zeta down",
    ]);
    let out = run(&mut s, "kubectl create deployment one --image=nginx");
    // kubectl's create deployment wraps the server's 500; the dialled IP is zeta's
    // cluster IP.
    assert!(
        out.starts_with(
            "error: failed to create deployment: Internal error occurred: failed calling webhook \"zeta.example.com\": failed to call webhook: Post \"https://zeta.default.svc:443/validate?timeout=10s\": dial tcp 10.96."
        ) && out.ends_with(":443: connect: connection refused\n"),
        "{out}"
    );
    assert!(
        out.contains("zeta.example.com") && !out.contains("alpha.example.com"),
        "{out}"
    );
    assert!(
        s.webhook_report()
            .contains("alpha.example.com failed (no answer in 10s)")
    );
}

/// A denial is returned under Ignore too; the configuration that names its own kind is
/// not consulted about itself, so a broken webhook can always be removed.
#[test]
fn denials_ignore_the_policy_and_configurations_are_exempt() {
    let mut s = session(&[
        r#"kubectl patch validatingwebhookconfiguration policy --type=json -p '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]'"#,
        "webhook policy deny no pods today",
        "kubectl delete pod -l app=web --wait=false",
        "tick 2",
    ]);
    assert!(s.cluster.api.admission.denied >= 1);
    let events = run(&mut s, "kubectl get events");
    assert!(
        events.contains(
            "Error creating: admission webhook \"policy.example.com\" denied the request: no pods today"
        ),
        "{events}"
    );
    run(
        &mut s,
        r#"kubectl patch validatingwebhookconfiguration policy --type=json -p '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Fail"},{"op":"add","path":"/webhooks/0/rules/-","value":{"apiGroups":["admissionregistration.k8s.io"],"apiVersions":["v1"],"operations":["*"],"resources":["validatingwebhookconfigurations"]}}]'"#,
    );
    run(&mut s, "webhook policy down");
    let out = run(
        &mut s,
        "kubectl delete validatingwebhookconfiguration policy",
    );
    assert!(out.contains("deleted"), "{out}");
}

/// A ValidatingAdmissionPolicy runs after validation, with the generated name: a pod the
/// ReplicaSet controller creates is refused by name; under Ignore an expression that
/// cannot run lets the request on.
#[test]
fn a_policy_refuses_a_controllers_pod_by_its_generated_name() {
    let mut s = session(&[]);
    let policy = r#"kubectl patch validatingadmissionpolicy no-pods --type=merge -p '{"spec":{"failurePolicy":"Ignore"}}'"#;
    let files = [(
        "no-pods.yaml",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: no-pods\nspec:\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [\"\"]\n      apiVersions: [\"v1\"]\n      operations: [\"CREATE\"]\n      resources: [\"pods\"]\n  validations:\n  - expression: \"object.metadata.labels.app != 'web'\"\n    message: no web pods today\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: no-pods\nspec:\n  policyName: no-pods\n  validationActions: [Deny]\n",
    )];
    for (name, text) in files {
        s.files.insert(name.into(), text.into());
    }
    let out = run(&mut s, "kubectl apply -f no-pods.yaml");
    assert!(out.contains("created"), "{out}");
    run(&mut s, "kubectl delete pod -l app=web --wait=false");
    run(&mut s, "tick 2");
    let events = run(&mut s, "kubectl get events");
    assert!(
        events.contains("Error creating: pods \"web-85cc69484d-")
            && events.contains(
                "is forbidden: ValidatingAdmissionPolicy 'no-pods' with binding 'no-pods' denied request: no web pods today"
            ),
        "{events}"
    );
    // A typo'd field cannot be evaluated: Fail refuses, Ignore admits.
    run(
        &mut s,
        r#"kubectl patch validatingadmissionpolicy no-pods --type=json -p '[{"op":"replace","path":"/spec/validations/0/expression","value":"object.metadata.labelz.app != \"web\""}]'"#,
    );
    let before = s.cluster.api.admission.policy_denied;
    run(&mut s, "tick 3");
    assert!(
        s.cluster.api.admission.policy_denied > before,
        "Fail refuses"
    );
    run(&mut s, policy);
    run(&mut s, "tick 30");
    let ready = run(&mut s, "kubectl get deploy web");
    assert!(ready.contains("3/3"), "Ignore admits: {ready}");
}

/// DELETEs are admitted too: the kubelet's final removal of a pod whose grace period has
/// ended is refused while a webhook on pod DELETEs cannot be called, and the pod stays
/// Terminating until it can.
#[test]
fn a_webhook_on_deletes_keeps_a_pod_terminating_while_it_is_down() {
    let mut s = session(&[
        r#"kubectl patch validatingwebhookconfiguration policy --type=json -p '[{"op":"replace","path":"/webhooks/0/rules/0/operations","value":["CREATE","UPDATE","DELETE"]}]'"#,
    ]);
    let out = run(&mut s, "kubectl delete pod -l app=web --wait=false");
    assert!(out.contains("deleted"), "{out}");
    run(&mut s, "webhook policy down");
    run(&mut s, "tick 40");
    let pods = run(&mut s, "kubectl get pods -l app=web");
    assert_eq!(pods.matches("Terminating").count(), 3, "{pods}");
    let out = run(&mut s, "kubectl delete pod -l app=web --wait=false");
    assert!(out.contains("failed calling webhook"), "{out}");
    run(&mut s, "webhook policy up");
    run(&mut s, "tick 3");
    let pods = run(&mut s, "kubectl get pods -l app=web");
    assert!(!pods.contains("Terminating"), "{pods}");
}
