//! `kubectl replace` (kubectl pkg/cmd/replace): a PUT of the file's object, with the
//! resourceVersion it carries or the current one.

use serde_json::Value;

use super::cmdutil::*;
use crate::sim::api::decode::{FieldValidation, decode_body};
use crate::sim::cluster::Cluster;
use crate::sim::obj;

pub(super) fn replace_file(
    cluster: &mut Cluster,
    file: &str,
    objs: Vec<Value>,
    validate: FieldValidation,
) -> Outcome {
    each_object(file, objs, |kind, mut x, o| {
        let name = obj::name(&x).to_string();
        // F2: with no resourceVersion in the file, kubectl sends the current one.
        let rv = crate::sim::api::precondition(&x).map(str::to_string);
        strip_server_fields(&mut x);
        // The update handler decodes the body before it looks at the stored object.
        let o = match decode_body(kind, &cluster.api.fields(kind, &x), &mut x, validate) {
            Ok(warnings) => o.server_warnings(warnings),
            Err(e) => return o.api(&e, Some(format!("error when replacing \"{file}\": "))),
        };
        // Helper.Replace: the version kubectl read just before, when the file has none.
        if rv.is_none()
            && let Some(current) = cluster
                .api
                .get(kind, &name)
                .ok()
                .and_then(|live| obj::str(live, &["metadata", "resourceVersion"]))
                .map(str::to_string)
        {
            obj::set(&mut x, &["metadata", "resourceVersion"], current.into());
        }
        match cluster.api.update(kind, x, rv.as_deref()) {
            Ok(_) => o.out(format!("{}/{name} replaced\n", kind.kind_group())),
            Err(e) => o.api(&e, Some(format!("error when replacing \"{file}\": "))),
        }
    })
}
