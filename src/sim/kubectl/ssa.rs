//! Server-side apply against the simulated API server.

use serde_json::Value;

use super::apply::Failure;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;

pub fn server_side_apply(
    _cluster: &mut Cluster,
    _kind: Kind,
    _config: Value,
    _manager: &str,
    _force: bool,
) -> Result<(), Failure> {
    Err(Failure::Conflict(
        "error: kubedrill's demo cannot run server-side apply yet\n".into(),
    ))
}
