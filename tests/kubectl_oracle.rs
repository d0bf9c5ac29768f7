//! The simulator's `-o yaml` and `-o jsonpath` against real kubectl (v1.32 on this kind of
//! machine): `kubectl label --local -f FILE x=y -o ...` prints a file's object without a
//! server. Skipped, with a message, where kubectl is not installed.

use std::process::Command;

use kubedrill::sim::output::to_yaml;
use kubedrill::sim::session::Session;
use serde_json::Value;

fn kubectl_available() -> bool {
    Command::new("kubectl")
        .arg("version")
        .arg("--client")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn real(file: &std::path::Path, output: &str) -> String {
    let out = Command::new("kubectl")
        .args(["label", "--local", "-f"])
        .arg(file)
        .args(["x=y", "-o", output])
        .output()
        .expect("kubectl runs");
    assert!(
        out.status.success(),
        "kubectl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A Deployment and a pod from a session that has done a few things.
fn objects() -> (Session, Vec<(String, Value)>) {
    let mut s = Session::new("apply-semantics", 3).unwrap();
    for l in [
        "kubectl apply -f web.yaml",
        "kubectl scale deploy web --replicas=4",
        "tick 3",
    ] {
        s.run_line(l);
    }
    let deploy: Value =
        serde_json::from_str(&s.run_line("kubectl get deploy web -o json").stdout).unwrap();
    let pods: Value = serde_json::from_str(&s.run_line("kubectl get pods -o json").stdout).unwrap();
    let pod = pods["items"][0].clone();
    // A finished Job, a CronJob with a schedule YAML must quote, and a completed pod.
    let mut jobs = Session::new("jobs", 3).unwrap();
    for l in ["kubectl apply -f hello.yaml", "tick 75"] {
        jobs.run_line(l);
    }
    let get = |s: &mut Session, what: &str| -> Value {
        serde_json::from_str(&s.run_line(&format!("kubectl get {what} -o json")).stdout).unwrap()
    };
    let job = get(&mut jobs, "job batch");
    let cron = get(&mut jobs, "cronjob hello");
    let done = get(&mut jobs, "pods")["items"][0].clone();
    (
        s,
        vec![
            ("deploy".into(), deploy),
            ("pod".into(), pod),
            ("job".into(), job),
            ("cronjob".into(), cron),
            ("completed-pod".into(), done),
        ],
    )
}

/// `kubectl create job|cronjob` with a client-side dry run prints what kubectl built,
/// byte for byte: the success line, `-o yaml`, and `-o json` in the Go structs' order.
#[test]
fn client_dry_runs_match_kubectl() {
    if !kubectl_available() {
        eprintln!("skipped: kubectl is not installed");
        return;
    }
    let mut s = Session::new("jobs", 1).unwrap();
    for args in [
        r#"create job x --image=busybox --dry-run=client -- sh -c "exit 1""#,
        r#"create job x --image=busybox --dry-run=client -o yaml -- sh -c "sleep 5; exit 1""#,
        r#"create job x --image=busybox:1.36 --dry-run=client -o json -- date"#,
        r#"create job x --image=busybox --dry-run=client -o json"#,
        r#"create cronjob y --image=busybox --schedule="*/5 * * * *" --dry-run=client -o yaml -- date"#,
        r#"create cronjob y --image=busybox --schedule="0 3 * * *" --restart=Never --dry-run=client -o json -- sh -c "echo hi""#,
    ] {
        let words = kubedrill::sim::shell::split(args).expect("the line splits");
        let out = Command::new("kubectl")
            .args(&words)
            .output()
            .expect("kubectl runs");
        let real = String::from_utf8(out.stdout).unwrap();
        let ours = s.run_line(&format!("kubectl {args}")).stdout;
        assert_eq!(ours, real, "kubectl {args}");
    }
}

#[test]
fn yaml_matches_kubectl() {
    if !kubectl_available() {
        eprintln!("skipped: kubectl is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_s, objs) = objects();
    for (name, mut obj) in objs {
        let file = dir.path().join(format!("{name}.json"));
        std::fs::write(&file, serde_json::to_string(&obj).unwrap()).unwrap();
        obj["metadata"]["labels"]["x"] = Value::from("y");
        assert_eq!(
            to_yaml(&obj),
            real(&file, "yaml"),
            "{name}: -o yaml differs from kubectl"
        );
    }
}

#[test]
fn jsonpath_matches_kubectl() {
    if !kubectl_available() {
        eprintln!("skipped: kubectl is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (mut s, objs) = objects();
    let file = dir.path().join("deploy.json");
    std::fs::write(&file, serde_json::to_string(&objs[0].1).unwrap()).unwrap();
    let templates = [
        r#"{.spec.replicas} desired, {.status.readyReplicas} ready{"\n"}"#,
        r#"generation {.metadata.generation}, observed {.status.observedGeneration}{"\n"}"#,
        r#"{range .status.conditions[*]}{.type}={.status} ({.reason}){"\n"}{end}"#,
        r#"{.status.conditions[?(@.type=="Available")].reason}"#,
        r#"{.spec.template.spec.containers[0].image}"#,
        r#"{.metadata.annotations.kubectl\.kubernetes\.io/last-applied-configuration}"#,
        r#"{.spec.strategy}"#,
        r#"{.status.conditions[*].type}"#,
        r#"{.missing.field}"#,
    ];
    for t in templates {
        let ours = s
            .run_line(&format!("kubectl get deploy web -o jsonpath='{t}'"))
            .stdout;
        assert_eq!(ours, real(&file, &format!("jsonpath={t}")), "template {t}");
    }
}
