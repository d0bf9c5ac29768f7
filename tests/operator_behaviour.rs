//! CustomResourceDefinitions, custom objects and the WebApp operator on the operator
//! scenario, as kube-apiserver 1.32 and a controller-runtime v0.20 operator behave:
//! storage versions and storedVersions, a finalizer holding a deletion while its operator
//! is away, the garbage collector taking what a deleted WebApp owned, and the operator's
//! client rate limit bounding a hot loop.

use kubedrill::sim::kind::Kind;
use kubedrill::sim::operator;
use kubedrill::sim::session::Session;
use serde_json::Value;

fn session(lines: &[&str]) -> Session {
    let mut s = Session::new("operator", 1).unwrap();
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

fn webapp_kind(s: &Session) -> Kind {
    Kind::Custom(
        s.cluster
            .api
            .custom_kind_named(operator::GROUP, operator::KIND)
            .expect("the CRD is established"),
    )
}

fn webapp<'a>(s: &'a Session, name: &str) -> Option<&'a Value> {
    s.cluster.api.get(webapp_kind(s), name).ok()
}

#[test]
fn the_start_is_a_reconciled_webapp_with_its_dependents_and_finalizer() {
    let s = session(&[]);
    let shop = webapp(&s, "shop").unwrap();
    assert_eq!(shop["metadata"]["finalizers"][0], operator::FINALIZER);
    assert_eq!(shop["status"]["observedGeneration"], 1);
    assert_eq!(shop["status"]["conditions"][0]["status"], "True");
    for kind in [Kind::Deployment, Kind::Service] {
        let dep = s.cluster.api.get(kind, "shop").unwrap();
        assert_eq!(
            dep["metadata"]["ownerReferences"][0]["uid"],
            shop["metadata"]["uid"]
        );
    }
}

/// Every write stores a custom object at the storage version; reads come back at the
/// preferred one; and v1 can leave storedVersions only by hand.
#[test]
fn objects_move_to_the_storage_version_only_when_written() {
    let mut s = session(&["kubectl apply -f webapp-crd-v2.yaml"]);
    let kind = webapp_kind(&s);
    assert_eq!(
        s.cluster.api.stored_at(kind, "v1"),
        1,
        "shop is not rewritten"
    );
    assert_eq!(
        run(&mut s, "kubectl get wa shop -o jsonpath={.apiVersion}"),
        "example.com/v2"
    );
    run(&mut s, "kubectl annotate wa shop migrated=v2");
    assert_eq!(s.cluster.api.stored_at(kind, "v1"), 0);
    assert_eq!(s.cluster.api.stored_at(kind, "v2"), 1);
    let stored = run(
        &mut s,
        "kubectl get crd webapps.example.com -o jsonpath={.status.storedVersions}",
    );
    assert_eq!(
        stored, r#"["v1","v2"]"#,
        "storedVersions only grows by itself"
    );
    let refused = run(&mut s, "kubectl apply -f webapp-crd-v2-only.yaml");
    assert!(
        refused.contains(
            r#"status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions"#
        ),
        "{refused}"
    );
}

/// Dropping v1 from storedVersions before the objects are rewritten strands them: the
/// converter cannot read an object stored at a version the CRD no longer lists.
#[test]
fn an_object_stored_at_a_removed_version_cannot_be_read_until_the_version_returns() {
    let mut s = session(&[
        "kubectl apply -f webapp-crd-v2.yaml",
        r#"kubectl patch crd webapps.example.com --subresource=status --type=json -p '[{"op":"replace","path":"/status/storedVersions","value":["v2"]}]'"#,
        "kubectl apply -f webapp-crd-v2-only.yaml",
    ]);
    let err =
        "Error from server: request to convert CR from an invalid group/version: example.com/v1\n";
    assert_eq!(run(&mut s, "kubectl get wa"), err);
    assert_eq!(run(&mut s, "kubectl delete wa shop"), err);
    run(&mut s, "kubectl apply -f webapp-crd-v2.yaml");
    assert!(run(&mut s, "kubectl get wa").contains("shop"));
}

/// The finalizer keeps a deleted WebApp while its operator is down; once the operator
/// runs, it deletes the DNS record, removes its finalizer, and the garbage collector
/// deletes the Deployment and Service the WebApp owned.
#[test]
fn a_finalizer_holds_a_deletion_until_the_operator_cleans_up() {
    let mut s = session(&[
        "kubectl scale deploy webapp-operator --replicas=0",
        "tick 2",
        "kubectl delete wa shop --wait=false",
        "tick 30",
    ]);
    let shop = webapp(&s, "shop").expect("held by its finalizer");
    assert!(shop["metadata"]["deletionTimestamp"].is_string());
    let op = s.cluster.operator.as_ref().unwrap();
    assert!(op.dns.contains_key("shop.example.com"));
    assert!(s.cluster.api.get(Kind::Deployment, "shop").is_ok());
    run(&mut s, "kubectl scale deploy webapp-operator --replicas=1");
    run(&mut s, "tick 3");
    assert!(webapp(&s, "shop").is_none());
    assert!(s.cluster.operator.as_ref().unwrap().dns.is_empty());
    assert!(s.cluster.api.get(Kind::Deployment, "shop").is_err());
    assert!(s.cluster.api.get(Kind::Service, "shop").is_err());
}

/// The hot loop (the operator overwriting the Deployment it compares, field for field, with
/// the live one, and the Deployment controller writing its revision annotation back) is
/// bounded by the two clients: no second sees more writes to the Deployment than their
/// token buckets hold, and the loop stops with the fix.
#[test]
fn a_hot_loop_spends_the_whole_client_budget_and_no_more() {
    let mut s = session(&["operator bug hot-loop"]);
    let rv = |s: &Session| -> u64 {
        s.cluster.api.get(Kind::Deployment, "shop").unwrap()["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap()
    };
    let budget = u64::from(2 * (operator::QPS + operator::BURST));
    for _ in 0..20 {
        let before = rv(&s);
        run(&mut s, "tick 1");
        let moved = rv(&s) - before;
        assert!(moved >= 2, "the loop runs every second");
        assert!(moved <= budget, "{moved}");
    }
    let op = s.cluster.operator.as_ref().unwrap();
    assert!(
        op.requests
            .per_second
            .iter()
            .all(|n| *n <= u64::from(operator::QPS))
    );
    assert!(op.requests.rate() >= f64::from(operator::QPS) - 1.0);
    assert!(op.requests.throttled_seconds >= 10);
    run(&mut s, "operator fix hot-loop");
    run(&mut s, "tick 2");
    let before = rv(&s);
    run(&mut s, "tick 10");
    assert_eq!(rv(&s), before, "the loop stops with the fix");
}

/// Status through the main endpoint is dropped while the CRD has the status subresource:
/// the write succeeds, changes nothing, and observedGeneration falls behind.
#[test]
fn status_written_with_update_never_arrives() {
    let mut s = session(&[
        "operator bug status-update",
        r#"kubectl patch wa shop --type merge -p '{"spec":{"replicas":3}}'"#,
        "tick 10",
    ]);
    let shop = webapp(&s, "shop").unwrap();
    assert_eq!(shop["metadata"]["generation"], 2);
    assert_eq!(shop["status"]["observedGeneration"], 1);
    let op = s.cluster.operator.as_ref().unwrap();
    assert!(
        op.requests.unchanged >= 1,
        "the dropped writes changed nothing"
    );
    run(&mut s, "operator fix all");
    run(&mut s, "tick 2");
    assert_eq!(
        webapp(&s, "shop").unwrap()["status"]["observedGeneration"],
        2
    );
}

/// Without a finalizer the external record outlives its WebApp.
#[test]
fn no_finalizer_leaks_the_external_record() {
    let mut s = session(&[
        "operator bug no-finalizer",
        "kubectl apply -f blog.yaml",
        "tick 3",
        "kubectl delete wa blog",
        "tick 2",
    ]);
    let op = s.cluster.operator.as_ref().unwrap();
    assert_eq!(op.leaked(&s.cluster.api), ["blog.example.com"]);
    assert!(webapp(&s, "blog").is_none());
    // The Deployment and Service still go: owner references do not need the operator.
    assert!(s.cluster.api.get(Kind::Deployment, "blog").is_err());
    run(&mut s, "operator fix all");
}

/// A CRD being deleted takes every object of its kind with it, and goes once they are
/// gone; while a finalizer holds one, it stays Terminating.
#[test]
fn deleting_a_crd_waits_for_its_objects() {
    let mut s = session(&[
        "kubectl scale deploy webapp-operator --replicas=0",
        "tick 2",
        "kubectl delete crd webapps.example.com --wait=false",
        "tick 70",
    ]);
    let crd = s
        .cluster
        .api
        .get(Kind::CustomResourceDefinition, "webapps.example.com")
        .unwrap();
    let terminating = crd["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "Terminating")
        .unwrap();
    assert_eq!(terminating["reason"], "InstanceDeletionCheck");
    run(&mut s, "kubectl scale deploy webapp-operator --replicas=1");
    run(&mut s, "tick 3");
    assert!(
        s.cluster
            .api
            .get(Kind::CustomResourceDefinition, "webapps.example.com")
            .is_err()
    );
    assert_eq!(
        run(&mut s, "kubectl get webapps"),
        "error: the server doesn't have a resource type \"webapps\"\n"
    );
}

/// A CRD and an object of its kind in one apply: kubectl maps every object before it
/// writes, so the object's kind is unknown to it; the CRD is created all the same.
#[test]
fn a_crd_and_its_object_in_one_apply_need_two() {
    let mut s = session(&[
        "kubectl delete wa shop",
        "tick 3",
        "kubectl delete crd webapps.example.com",
        "tick 3",
    ]);
    let out = run(&mut s, "kubectl apply -f webapp-crd.yaml,shop.yaml");
    assert!(
        out.contains("customresourcedefinition.apiextensions.k8s.io/webapps.example.com created"),
        "{out}"
    );
    assert!(out.contains("error: resource mapping not found for name: \"shop\" namespace: \"\" from \"shop.yaml\": no matches for kind \"WebApp\" in version \"example.com/v1\"\nensure CRDs are installed first"), "{out}");
    assert_eq!(
        run(&mut s, "kubectl apply -f shop.yaml"),
        "webapp.example.com/shop created\n"
    );
}
