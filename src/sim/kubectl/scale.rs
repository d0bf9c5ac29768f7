//! `kubectl scale` (kubectl pkg/cmd/scale): `/scale` with kubectl's precondition.

use serde_json::json;

use super::args::Target;
use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;

pub(super) fn scale(
    cluster: &mut Cluster,
    t: &Target,
    replicas: i64,
    current: Option<i64>,
) -> Outcome {
    // The scale client asks for the `/scale` subresource, which the demo's custom
    // resources do not serve: the server's 404.
    if matches!(t.kind, Kind::Custom(_)) {
        return Outcome::default().err(
            "Error from server (NotFound): the server could not find the requested resource\n",
        );
    }
    if !matches!(
        t.kind,
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
    ) {
        return Outcome::default().err(format!(
            "error: no scaler has been implemented for {{\"\" \"{}\"}}\n",
            t.kind.kind_name()
        ));
    }
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    // ScalePrecondition: checked against the scale subresource before the write.
    let was = obj::int(&cur, &["spec", "replicas"]).unwrap_or(1);
    if let Some(want) = current.filter(|w| *w != was) {
        return Outcome::default().err(format!(
            "error: Expected replicas to be {want}, was {was}\n"
        ));
    }
    let mut next = cur;
    next["spec"]["replicas"] = json!(replicas);
    update_then(
        cluster,
        t.kind,
        next,
        format!("{}/{name} scaled\n", t.kind.kind_group()),
    )
}
