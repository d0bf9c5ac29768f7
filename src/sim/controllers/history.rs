//! ControllerRevisions, as kube-controller-manager's `pkg/controller/history` keeps them
//! for StatefulSets (and DaemonSets): a revision holds a patch that restores its owner's
//! pod template, is named `<owner>-<hash>`, and is numbered; an equal template reuses its
//! revision (renumbered when it comes back, which is how a rollback looks).

use serde_json::{Value, json};

use crate::sim::names::fnv32;

use super::hash::safe_encode;

/// `controller.kubernetes.io/hash`: the label each revision carries its hash in.
pub const HASH_LABEL: &str = "controller.kubernetes.io/hash";

/// StatefulSet `getPatch`: `{"spec":{"template":{...,"$patch":"replace"}}}`, the template
/// as the API encodes it. Go marshals it from a map, so keys come out sorted, as
/// serde_json writes them.
pub fn template_patch(owner: &Value) -> Value {
    let mut template = owner["spec"]["template"].clone();
    if let Some(m) = template.as_object_mut() {
        m.insert("$patch".into(), json!("replace"));
    }
    json!({"spec": {"template": template}})
}

/// The pod template a revision restores (ApplyRevision of its patch).
pub fn revision_template(rev: &Value) -> Value {
    let mut t = rev["data"]["spec"]["template"].clone();
    if let Some(m) = t.as_object_mut() {
        m.remove("$patch");
    }
    t
}

/// The bytes a revision's data is compared and hashed by.
pub fn data_bytes(data: &Value) -> String {
    data.to_string()
}

/// HashControllerRevision: FNV-1 over the data, then the collision count as decimal text
/// (always written: the controllers pass a count even when it is 0).
pub fn hash(data: &Value, collision_count: i64) -> String {
    let mut bytes = data_bytes(data).into_bytes();
    bytes.extend_from_slice(collision_count.to_string().as_bytes());
    safe_encode(&fnv32(&bytes).to_string())
}

/// ControllerRevisionName: the owner's name (cut to 223 bytes) and the hash.
pub fn revision_name(owner: &str, hash: &str) -> String {
    let prefix = owner.get(..223.min(owner.len())).unwrap_or(owner);
    format!("{prefix}-{hash}")
}

/// NewControllerRevision (with StatefulSet's `newRevision`): named by the hash of its
/// data, which its `controller.kubernetes.io/hash` label carries.
pub fn new_revision(
    owner: &Value,
    owner_kind: &str,
    data: Value,
    revision: i64,
    collision_count: i64,
) -> Value {
    let h = hash(&data, collision_count);
    let name = revision_name(crate::sim::obj::name(owner), &h);
    revision_object(owner, owner_kind, name, (HASH_LABEL, &h), data, revision)
}

/// The revision object both NewControllerRevision and the DaemonSet controller's
/// snapshot build: labelled with the owner's template labels and `label` (the hash under
/// its controller's key), owned by `owner` as its controller, the owner's annotations
/// copied.
pub fn revision_object(
    owner: &Value,
    owner_kind: &str,
    name: String,
    (label_key, h): (&str, &str),
    data: Value,
    revision: i64,
) -> Value {
    let mut labels = owner["spec"]["template"]["metadata"]["labels"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    labels.insert(label_key.into(), json!(h));
    let mut meta = json!({
        "name": name,
        "namespace": "default",
        "labels": labels,
        "ownerReferences": [crate::sim::obj::owner_ref(owner, owner_kind)],
    });
    if let Some(a) = owner["metadata"]["annotations"]
        .as_object()
        .filter(|a| !a.is_empty())
    {
        meta["annotations"] = Value::Object(a.clone());
    }
    json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": meta,
        "data": data,
        "revision": revision,
    })
}

/// A revision's number.
pub fn number(rev: &Value) -> i64 {
    rev["revision"].as_i64().unwrap_or(0)
}

/// SortControllerRevisions: by number, then creation time, then name.
pub fn sort(revisions: &mut [&Value]) {
    revisions.sort_by(|a, b| {
        number(a)
            .cmp(&number(b))
            .then_with(|| {
                let t = |v: &Value| {
                    v["metadata"]["creationTimestamp"]
                        .as_str()
                        .unwrap_or("")
                        .to_string()
                };
                t(a).cmp(&t(b))
            })
            .then_with(|| crate::sim::obj::name(a).cmp(crate::sim::obj::name(b)))
    });
}

/// EqualRevision: the same data, byte for byte (the hash labels are not decimal, so Go's
/// parse of them fails and only the data is compared).
pub fn equal(a: &Value, b: &Value) -> bool {
    holds(a, &b["data"])
}

/// Whether `rev` holds `data`: the comparison EqualRevision makes, without building the
/// revision a template would make.
pub fn holds(rev: &Value, data: &Value) -> bool {
    rev["data"] == *data
}

/// nextRevision: one past the highest, 1 for none (`revisions` sorted).
pub fn next_number(revisions: &[&Value]) -> i64 {
    revisions.last().map_or(1, |r| number(r) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1_matches_go_fnv_new32() {
        // Go: fnv.New32().Write([]byte("a")).Sum32() == 0x050c5d7e.
        assert_eq!(fnv32(b"a"), 0x050c_5d7e);
        assert_eq!(fnv32(b""), 0x811c_9dc5);
    }

    #[test]
    fn the_name_follows_the_data_and_the_collision_count() {
        let set = json!({"metadata": {"name": "web", "uid": "u1"},
            "spec": {"template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}}});
        let a = new_revision(&set, "StatefulSet", template_patch(&set), 1, 0);
        let b = new_revision(&set, "StatefulSet", template_patch(&set), 2, 0);
        let c = new_revision(&set, "StatefulSet", template_patch(&set), 1, 1);
        assert_eq!(
            a["metadata"]["name"], b["metadata"]["name"],
            "the number is not hashed"
        );
        assert_ne!(a["metadata"]["name"], c["metadata"]["name"]);
        assert!(equal(&a, &c));
        let name = a["metadata"]["name"].as_str().unwrap();
        assert!(name.starts_with("web-"), "{name}");
        assert_eq!(a["metadata"]["labels"]["app"], "web");
        assert_eq!(a["data"]["spec"]["template"]["$patch"], "replace");
        // Keys sorted as Go's map marshalling sorts them: `$patch` first.
        assert!(data_bytes(&a["data"]).starts_with(r#"{"spec":{"template":{"$patch":"replace","#));
    }
}
