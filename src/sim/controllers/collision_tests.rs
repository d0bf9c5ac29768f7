//! B3: a new ReplicaSet whose name is taken by a ReplicaSet with another template is a
//! hash collision: collisionCount goes up and the next name is hashed with it.

use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::session::Session;

use super::hash::pod_template_hash;

#[test]
fn editing_the_current_replicasets_template_bumps_collision_count_and_rolls_out_anew() {
    let mut s = Session::new("rollout", 1).unwrap();
    s.run_line("tick 2");
    let d = s.cluster.api.get(Kind::Deployment, "web").unwrap().clone();
    let template = d["spec"]["template"].clone();
    let first = format!("web-{}", pod_template_hash(&template, 0));
    assert!(s.cluster.api.get(Kind::ReplicaSet, &first).is_ok());
    let o = s.run_line(&format!("kubectl set image rs/{first} app=nginx:1.28"));
    assert_eq!(o.stderr, "");
    s.run_line("tick 5");
    let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
    assert_eq!(obj::int(d, &["status", "collisionCount"]), Some(1));
    // The Deployment's own template, under the name hashed with the count.
    let second = format!("web-{}", pod_template_hash(&template, 1));
    assert_ne!(first, second);
    let rs = s.cluster.api.get(Kind::ReplicaSet, &second).unwrap();
    assert_eq!(
        rs["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.27"
    );
    // No endless warnings: the clash is resolved, not reported.
    let events = s.run_line("kubectl get events").stdout;
    assert!(!events.contains("ReplicaSetCreateError"), "{events}");
    assert!(!events.contains("already exists"), "{events}");
    s.run_line("kubectl rollout status deploy/web");
    let spec = |n: &str| {
        obj::int(
            s.cluster.api.get(Kind::ReplicaSet, n).unwrap(),
            &["spec", "replicas"],
        )
    };
    assert_eq!((spec(&first), spec(&second)), (Some(0), Some(3)));
    // Settled: the count stays where it is.
    s.run_line("tick 60");
    let d = s.cluster.api.get(Kind::Deployment, "web").unwrap();
    assert_eq!(obj::int(d, &["status", "collisionCount"]), Some(1));
    assert_eq!(s.cluster.api.count(Kind::ReplicaSet), 2);
}
