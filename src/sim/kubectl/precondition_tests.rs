//! A6: a resourceVersion in what a writer sends is a precondition, whichever kubectl verb
//! sends it.

use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::session::Session;

const CONFLICT: &str = "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again";

fn session() -> Session {
    Session::new("apply-semantics", 1).expect("scenario exists")
}

fn web_rv(s: &Session) -> String {
    let d = s
        .cluster
        .api
        .get(Kind::Deployment, "web")
        .expect("web exists");
    obj::str(d, &["metadata", "resourceVersion"])
        .unwrap_or_default()
        .to_string()
}

fn replicas(s: &Session) -> i64 {
    let d = s
        .cluster
        .api
        .get(Kind::Deployment, "web")
        .expect("web exists");
    obj::int(d, &["spec", "replicas"]).unwrap_or_default()
}

#[test]
fn a_patch_that_sets_a_stale_resource_version_is_a_conflict() {
    for patch in [
        r#"kubectl patch deploy web --type=merge -p '{"metadata":{"resourceVersion":"1"},"spec":{"replicas":4}}'"#,
        r#"kubectl patch deploy web -p '{"metadata":{"resourceVersion":"1"},"spec":{"replicas":4}}'"#,
        r#"kubectl patch deploy web --type=json -p '[{"op":"replace","path":"/metadata/resourceVersion","value":"1"},{"op":"replace","path":"/spec/replicas","value":4}]'"#,
    ] {
        let mut s = session();
        let before = web_rv(&s);
        let out = s.run_line(patch);
        assert_eq!(
            out.stderr,
            format!("Error from server (Conflict): {CONFLICT}\n"),
            "{patch}"
        );
        assert_eq!(out.stdout, "");
        assert_eq!(replicas(&s), 3, "{patch}");
        assert_eq!(web_rv(&s), before, "nothing was written by {patch}");
    }
}

#[test]
fn a_patch_with_the_current_or_an_empty_resource_version_goes_through() {
    let mut s = session();
    let rv = web_rv(&s);
    let out = s.run_line(&format!(
        r#"kubectl patch deploy web --type=merge -p '{{"metadata":{{"resourceVersion":"{rv}"}},"spec":{{"replicas":4}}}}'"#
    ));
    assert_eq!(out.stdout, "deployment.apps/web patched\n");
    assert_eq!(replicas(&s), 4);
    let out = s.run_line(
        r#"kubectl patch deploy web --type=merge -p '{"metadata":{"resourceVersion":""},"spec":{"replicas":5}}'"#,
    );
    assert_eq!(out.stdout, "deployment.apps/web patched\n");
    assert_eq!(replicas(&s), 5);
}

#[test]
fn a_status_patch_checks_the_resource_version_too() {
    let mut s = session();
    let out = s.run_line(
        r#"kubectl patch deploy web --subresource=status --type=merge -p '{"metadata":{"resourceVersion":"1"},"status":{"replicas":9}}'"#,
    );
    assert_eq!(
        out.stderr,
        format!("Error from server (Conflict): {CONFLICT}\n")
    );
    let d = s
        .cluster
        .api
        .get(Kind::Deployment, "web")
        .expect("web exists");
    assert_eq!(obj::int(d, &["status", "replicas"]), Some(3));
}

#[test]
fn replace_of_a_read_back_file_wins_once_then_conflicts() {
    let mut s = session();
    assert!(s.files["web-stale.yaml"].contains(&format!("resourceVersion: \"{}\"", web_rv(&s))));
    let out = s.run_line("kubectl replace -f web-stale.yaml");
    assert_eq!(out.stdout, "deployment.apps/web replaced\n");
    assert_eq!(replicas(&s), 4);
    let out = s.run_line("kubectl replace -f web-stale.yaml");
    assert_eq!(
        out.stderr,
        format!(
            "Error from server (Conflict): error when replacing \"web-stale.yaml\": {CONFLICT}\n"
        )
    );
    // Without a resourceVersion kubectl sends the current one: the last write wins.
    let out = s.run_line("kubectl replace -f web.yaml");
    assert_eq!(out.stdout, "deployment.apps/web replaced\n");
    assert_eq!(replicas(&s), 3);
}

#[test]
fn client_side_apply_of_a_stale_file_fails_with_kubectls_patch_error() {
    let mut s = session();
    s.run_line("kubectl scale deploy web --replicas=2");
    let rv = web_rv(&s);
    let out = s.run_line("kubectl apply -f web-stale.yaml");
    assert!(
        out.stderr.contains("Error from server (Conflict): error when applying patch:\n{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.ends_with(&format!(
        "\"resourceVersion\":\"{}\"}},\"spec\":{{\"replicas\":4}}}}\nto:\nResource: \"apps/v1, Resource=deployments\", GroupVersionKind: \"apps/v1, Kind=Deployment\"\nName: \"web\", Namespace: \"default\"\nfor: \"web-stale.yaml\": error when patching \"web-stale.yaml\": {CONFLICT}\n",
        obj::str(&crate::sim::output::parse_manifest(&s.files["web-stale.yaml"]).expect("parses")[0], &["metadata", "resourceVersion"]).unwrap_or_default()
    )), "{}", out.stderr);
    assert_eq!(replicas(&s), 2);
    assert_eq!(web_rv(&s), rv);
    // A file without one is applied as before.
    let out = s.run_line("kubectl apply -f web.yaml");
    assert_eq!(out.stdout, "deployment.apps/web configured\n");
    assert_eq!(replicas(&s), 3);
}

#[test]
fn server_side_apply_checks_fields_first_then_the_resource_version() {
    let mut s = session();
    // While web is untouched the file's version is current: forced, it applies.
    let out = s.run_line("kubectl apply --server-side --force-conflicts -f web-stale.yaml");
    assert_eq!(out.stdout, "deployment.apps/web serverside-applied\n");
    assert_eq!(replicas(&s), 4);
    // Now stale: a 409 with kubectl's conflict help appended.
    let out = s.run_line("kubectl apply --server-side --force-conflicts -f web-stale.yaml");
    assert!(
        out.stderr.starts_with(&format!(
            "error: {CONFLICT}\nPlease review the fields above"
        )),
        "{}",
        out.stderr
    );
    // A field conflict is found while applying, before the version is compared.
    s.run_line("kubectl scale deploy web --replicas=2");
    let out = s.run_line("kubectl apply --server-side -f web-stale.yaml");
    assert!(
        out.stderr.starts_with("error: Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\""),
        "{}",
        out.stderr
    );
}

#[test]
fn the_replay_script_reads_the_real_resource_version_into_the_stale_file() {
    let mut s = session();
    let sim_rv = web_rv(&s);
    s.run_line("kubectl replace -f web-stale.yaml");
    let script = s.export_script();
    let read = "rv=$(kubectl get deploy web -o jsonpath='{.metadata.resourceVersion}')\nsed \"s/{rv}/$rv/\" > web-stale.yaml <<'KUBEDRILL_EOF'\n";
    let at = script
        .find(read)
        .expect("web-stale.yaml is written from the cluster");
    assert!(
        at > script
            .find("kubectl rollout status deploy/web")
            .unwrap_or(usize::MAX)
    );
    assert!(script[at..].contains("  resourceVersion: \"{rv}\"\n"));
    // The simulator's own resourceVersion means nothing on a real cluster.
    assert!(!script.contains(&format!("resourceVersion: \"{sim_rv}\"")));
}

/// kubectl's server-side apply of an object client-side apply managed, from a file that
/// carries the current resourceVersion: the apply succeeds; kubectl then saves the
/// annotation and migrates client-side apply's fields (two more writes), so its re-apply
/// with the same, now stale, version is refused, which kubectl reports as a non-fatal
/// warning before its usual line (apply.go warningMigrationReapplyFailed).
#[test]
fn a_stale_re_apply_after_the_migration_is_a_warning_not_a_failure() {
    let mut s = session();
    s.run_line("kubectl apply -f web.yaml");
    let text = s
        .file("web.yaml")
        .expect("web.yaml exists")
        .replace(
            "  name: web\n",
            &format!("  name: web\n  resourceVersion: \"{}\"\n", web_rv(&s)),
        )
        .replace("replicas: 3", "replicas: 6");
    s.write_file("web-current.yaml", text);
    let out = s.run_line("kubectl apply --server-side -f web-current.yaml");
    assert_eq!(
        out.stderr,
        format!(
            "Warning: failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply. Error: {CONFLICT}\n"
        )
    );
    assert_eq!(out.stdout, "deployment.apps/web serverside-applied\n");
    assert_eq!(replicas(&s), 6, "the first apply stands");
    let managers: Vec<String> = s
        .cluster
        .api
        .get(Kind::Deployment, "web")
        .expect("web exists")["metadata"]["managedFields"]
        .as_array()
        .expect("managedFields")
        .iter()
        .map(|e| e["manager"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        !managers.iter().any(|m| m == "kubectl-client-side-apply"),
        "the migration happened: {managers:?}"
    );
}
