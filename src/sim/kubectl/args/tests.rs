//! The command line parsed as kubectl parses it: each form, and each mistake in kubectl's
//! words.

use super::*;

fn p(line: &str) -> Result<Command, UsageError> {
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse(&words)
}

fn err(line: &str) -> String {
    p(line).unwrap_err().0
}

#[test]
fn get_forms() {
    let Command::Get {
        kinds,
        names,
        print,
        ..
    } = p("get deploy web -o wide").unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (kinds, names, print.output),
        (
            vec![Kind::Deployment],
            vec!["web".to_string()],
            Output::Wide
        )
    );
    let Command::Get { kinds, .. } = p("get deploy,rs,po").unwrap() else {
        panic!()
    };
    assert_eq!(kinds, [Kind::Deployment, Kind::ReplicaSet, Kind::Pod]);
    let Command::Get {
        kinds,
        names,
        print,
        ..
    } = p("get deployment.apps/web -ojsonpath={.spec}").unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (kinds, names, print.output),
        (
            vec![Kind::Deployment],
            vec!["web".into()],
            Output::JsonPath("{.spec}".into())
        )
    );
    let Command::Get { selector, .. } = p("get pods -l app=web").unwrap() else {
        panic!()
    };
    assert_eq!(selector.as_deref(), Some("app=web"));
}

/// Each rollout subcommand has its own flags (checked against kubectl 1.32's help and
/// its offline errors); views the demo does not print are refused in its own words.
#[test]
fn rollout_flags_per_subcommand() {
    assert_eq!(
        err("rollout undo deploy/web --revision=1"),
        "error: unknown flag: --revision\nSee 'kubectl rollout undo --help' for usage."
    );
    assert_eq!(
        err("rollout restart deploy/web --timeout=5s"),
        "error: unknown flag: --timeout\nSee 'kubectl rollout restart --help' for usage."
    );
    assert_eq!(
        err("rollout status deploy/web -w=abc"),
        "error: invalid argument \"abc\" for \"-w, --watch\" flag: strconv.ParseBool: parsing \"abc\": invalid syntax\nSee 'kubectl rollout status --help' for usage."
    );
    assert!(
        err("rollout history deploy/web --revision=2")
            .starts_with("error: kubedrill's demo does not show one revision (--revision=2)")
    );
    assert!(p("rollout history deploy/web --revision=0").is_ok());
    let Command::Rollout { to_revision, .. } =
        p("rollout undo deploy/web --to-revision=2").unwrap()
    else {
        panic!()
    };
    assert_eq!(to_revision, Some(2));
    assert!(err("get pods -w").contains("does not stream with --watch"));
    assert!(p("get pods -w=false").is_ok());
}

/// What a real cluster has but the demo does not model is named as such, never as
/// something that does not exist; a real typo still gets kubectl's own words.
#[test]
fn real_but_unsimulated_is_not_called_unknown() {
    assert_eq!(
        err("get cm"),
        "error: kubedrill's demo has Deployments, ReplicaSets, Pods, Events, Nodes, Leases, PodDisruptionBudgets, Services, Endpoints, EndpointSlices, StatefulSets, ControllerRevisions, PersistentVolumeClaims, DaemonSets, Jobs, CronJobs, HorizontalPodAutoscalers, MutatingWebhookConfigurations, ValidatingWebhookConfigurations, ValidatingAdmissionPolicies, ValidatingAdmissionPolicyBindings and CustomResourceDefinitions only, not \"cm\""
    );
    assert!(err("logs web").starts_with(
        "error: kubedrill's demo does not run `kubectl logs` (its pods run no real containers); it runs get, describe,"
    ));
    assert!(err("logs web").ends_with("set image, cordon, uncordon, drain, taint and autoscale"));
    assert!(err("get pods -A").contains("one namespace, default"));
    assert_eq!(
        err("get foo"),
        "error: the server doesn't have a resource type \"foo\""
    );
    assert!(err("gett pods").starts_with("error: unknown command \"gett\" for \"kubectl\""));
}

#[test]
fn kubectl_error_words() {
    assert_eq!(
        err("scale deploy web --replica=3"),
        "error: unknown flag: --replica\nSee 'kubectl scale --help' for usage."
    );
    assert_eq!(
        err("get pods -x"),
        "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."
    );
    assert_eq!(
        err("get foo"),
        "error: the server doesn't have a resource type \"foo\""
    );
    assert!(err("get").starts_with("You must specify the type of resource to get."));
    assert_eq!(
        err("get pods -o bad"),
        "error: unable to match a printer suitable for the output format \"bad\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
    );
    assert_eq!(
        err("scale deploy web --replicas=-1"),
        "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
    );
    assert_eq!(
        err("scale deploy web"),
        "error: required flag(s) \"replicas\" not set"
    );
    assert_eq!(err("scale --replicas=2"), NO_RESOURCES);
    assert_eq!(
        err("rollout status"),
        "error: required resource not specified"
    );
    assert_eq!(
        err("patch deploy web"),
        "error: must specify --patch or --patch-file containing the contents of the patch"
    );
    assert_eq!(
        err("label deploy web"),
        "error: at least one label update is required"
    );
    assert_eq!(
        err("label deploy web a=b=c"),
        "error: invalid label spec: a=b=c"
    );
    assert!(
        err("create deployment --image=x")
            .starts_with("error: exactly one NAME is required, got 0")
    );
    assert!(err("delete").starts_with("error: You must provide one or more resources"));
    assert_eq!(
        err("gte pods"),
        "error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget"
    );
    assert_eq!(
        err("get pods web -l app=web"),
        "error: name cannot be provided when a selector is specified"
    );
}

#[test]
fn flags_in_every_position_and_form() {
    let Command::Scale {
        target, replicas, ..
    } = p("scale --replicas 5 deploy/web").unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (target.kind, target.names, replicas),
        (Kind::Deployment, vec!["web".into()], 5)
    );
    let Command::Delete {
        target,
        grace_period,
        now,
        ..
    } = p("delete pod web-x --grace-period=0").unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (target.unwrap().names, grace_period, now),
        (vec!["web-x".to_string()], Some(0), false)
    );
    let Command::Apply {
        server_side,
        field_manager,
        force_conflicts,
        ..
    } = p("apply -f web.yaml --server-side --field-manager=me --force-conflicts").unwrap()
    else {
        panic!()
    };
    assert!(server_side && force_conflicts);
    assert_eq!(field_manager.as_deref(), Some("me"));
    let Command::Label {
        changes, overwrite, ..
    } = p("label deploy web tier=front old- --overwrite").unwrap()
    else {
        panic!()
    };
    assert!(overwrite);
    assert_eq!(
        changes,
        [
            MetaChange::Set("tier".into(), "front".into()),
            MetaChange::Remove("old".into())
        ]
    );
    let Command::SetImage { images, .. } = p("set image deploy/web app=nginx:1.28").unwrap() else {
        panic!()
    };
    assert_eq!(images, [("app".to_string(), "nginx:1.28".to_string())]);
    let Command::Rollout {
        action,
        to_revision,
        ..
    } = p("rollout undo deploy/web --to-revision=1").unwrap()
    else {
        panic!()
    };
    assert_eq!((action, to_revision), (RolloutAction::Undo, Some(1)));
}
