//! `kubectl set image` (kubectl pkg/cmd/set).

use serde_json::{Value, json};

use super::args::Target;
use super::cmdutil::*;
use crate::sim::cluster::Cluster;
use crate::sim::kind::Kind;
use crate::sim::obj;

pub(super) fn set_image(cluster: &mut Cluster, t: &Target, images: &[(String, String)]) -> Outcome {
    let (cur, name) = match one(cluster, t) {
        Ok(x) => (x.0.clone(), x.1),
        Err(o) => return o,
    };
    let mut next = cur.clone();
    let path: &[&str] = if t.kind == Kind::Pod {
        &["spec", "containers"]
    } else {
        &["spec", "template", "spec", "containers"]
    };
    let Some(containers) = obj::path(&cur, path).and_then(Value::as_array).cloned() else {
        return Outcome::default().err("error: the object has no containers\n");
    };
    let mut updated = containers.clone();
    for (c, image) in images {
        let mut hit = false;
        for u in updated.iter_mut() {
            if c == "*" || u["name"] == json!(c) {
                u["image"] = json!(image);
                hit = true;
            }
        }
        if !hit {
            return Outcome::default()
                .err(format!("error: unable to find container named \"{c}\"\n"));
        }
    }
    if updated == containers {
        return Outcome::default();
    }
    obj::set(&mut next, path, Value::Array(updated));
    update_then(
        cluster,
        t.kind,
        next,
        format!("{}/{name} image updated\n", t.kind.kind_group()),
    )
}
