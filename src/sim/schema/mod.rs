//! The declared fields of each kind the simulator stores, as the API server's decoders know
//! them from the Go types (`types.rs`, generated from k8s.io/api v0.32.0). What it is for:
//! a field no type declares is an unknown field, which the API server drops, warns about
//! or refuses according to the request's `fieldValidation` (apiserver
//! `endpoints/handlers/{create,update,patch}.go`), and which server-side apply refuses as
//! "field not declared in schema" (structured-merge-diff `typed/validate.go`).

#[rustfmt::skip]
pub mod types;

use serde_json::Value;

/// A Go struct: its JSON fields, inlined ones flattened into it.
pub struct Type {
    pub name: &'static str,
    pub fields: &'static [Field],
}

/// A JSON field name and the shape of its value.
pub struct Field(pub &'static str, pub Shape);

#[derive(Clone, Copy)]
pub enum Shape {
    /// A string, number or boolean, or a type with its own JSON form (Time, Quantity,
    /// IntOrString).
    Scalar,
    /// Any JSON (FieldsV1, RawExtension).
    Open,
    Struct(&'static Type),
    List(Elem),
    /// A map with string keys (labels, resources' limits).
    Map(Elem),
}

#[derive(Clone, Copy)]
pub enum Elem {
    Scalar,
    Struct(&'static Type),
}

impl Elem {
    fn shape(self) -> Shape {
        match self {
            Elem::Scalar => Shape::Scalar,
            Elem::Struct(t) => Shape::Struct(t),
        }
    }
}

impl Type {
    pub fn field(&self, name: &str) -> Option<Shape> {
        self.fields.iter().find(|f| f.0 == name).map(|f| f.1)
    }
}

/// An object as the API server writes it in a response body: compact JSON, each struct's
/// fields in the Go type's order, maps' keys sorted (encoding/json), strings and numbers
/// as `kubectl -o json` writes them (Go's encoder), and a closing newline (json.Encoder).
/// `None` types everything open: keys sorted.
pub fn response_body(v: &Value, ty: Option<&'static Type>) -> String {
    let mut out = String::new();
    write_body(v, ty.map(Shape::Struct).unwrap_or(Shape::Open), &mut out);
    out.push('\n');
    out
}

fn write_body(v: &Value, shape: Shape, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            if let Shape::Struct(t) = shape {
                // Fields in declaration order; anything undeclared after them, sorted.
                keys.sort_by_key(|k| {
                    t.fields
                        .iter()
                        .position(|f| f.0 == k.as_str())
                        .unwrap_or(usize::MAX)
                });
            }
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::sim::output::write_json_string(out, k);
                out.push(':');
                let inner = match shape {
                    Shape::Struct(t) => t.field(k).unwrap_or(Shape::Open),
                    Shape::Map(e) => e.shape(),
                    _ => Shape::Open,
                };
                write_body(&m[*k], inner, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            let inner = match shape {
                Shape::List(e) => e.shape(),
                _ => Shape::Open,
            };
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_body(x, inner, out);
            }
            out.push(']');
        }
        Value::String(s) => crate::sim::output::write_json_string(out, s),
        Value::Number(n) => out.push_str(&crate::sim::output::go_number::json_number(n)),
        other => out.push_str(&other.to_string()),
    }
}

/// One step of the path to a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where an unknown field is, from the object's root.
pub type FieldPath = Vec<Step>;

/// The path as the API server's decoders print it: `spec.template.spec.containers[0].foo`
/// (sigs.k8s.io/json and apimachinery's unstructured converter agree on this form).
pub fn decoder_path(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Removes from `obj` every field its kind does not declare and returns where each was (see
/// [`unknown`]).
pub fn prune(ty: Option<&'static Type>, obj: &mut Value) -> Vec<FieldPath> {
    let found = unknown(ty, obj);
    for path in &found {
        remove(obj, path);
    }
    found
}

/// Where `obj` holds a field its kind does not declare, in the order a decoder meets them
/// (keys in sorted order, as kubectl sends them); `obj` is only read. Values whose JSON
/// type does not fit their field are left alone: that is a decoding error, not an unknown
/// field.
pub fn unknown(ty: Option<&'static Type>, obj: &Value) -> Vec<FieldPath> {
    let mut found = Vec::new();
    if let Some(ty) = ty {
        find_in(Shape::Struct(ty), obj, &mut Vec::new(), &mut found);
    }
    found
}

fn find_in(shape: Shape, v: &Value, at: &mut FieldPath, found: &mut Vec<FieldPath>) {
    match (shape, v) {
        (Shape::Struct(ty), Value::Object(map)) => {
            for (key, value) in map {
                at.push(Step::Key(key.clone()));
                match ty.field(key) {
                    Some(inner) => find_in(inner, value, at, found),
                    None => found.push(at.clone()),
                }
                at.pop();
            }
        }
        (Shape::List(elem), Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                at.push(Step::Index(i));
                find_in(elem.shape(), item, at, found);
                at.pop();
            }
        }
        (Shape::Map(elem), Value::Object(map)) => {
            for (key, value) in map {
                at.push(Step::Key(key.clone()));
                find_in(elem.shape(), value, at, found);
                at.pop();
            }
        }
        _ => {}
    }
}

/// Removes the field at `path` (which ends in a key: unknown fields are map entries).
fn remove(obj: &mut Value, path: &[Step]) {
    let Some((Step::Key(last), parents)) = path.split_last() else {
        return;
    };
    let parent = parents.iter().try_fold(obj, |cur, step| match step {
        Step::Key(k) => cur.get_mut(k),
        Step::Index(i) => cur.get_mut(*i),
    });
    if let Some(Value::Object(map)) = parent {
        map.remove(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(ty: &'static Type, v: &Value) -> Vec<String> {
        unknown(Some(ty), v)
            .iter()
            .map(|p| decoder_path(p))
            .collect()
    }

    #[test]
    fn a_declared_deployment_has_no_unknown_fields() {
        let d = crate::sim::scenario::deployment("web", "nginx:1.27", 3);
        assert_eq!(paths(&types::DEPLOYMENT, &d), Vec::<String>::new());
    }

    #[test]
    fn unknown_fields_are_found_at_every_depth_in_document_order() {
        let d = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labelz": {"a": "b"}, "labels": {"any-key": "ok"}},
            "spec": {
                "foo": 1,
                "template": {"spec": {"containers": [
                    {"name": "a", "image": "x"},
                    {"name": "b", "image": "y", "imagePolicy": "Always",
                     "resources": {"limits": {"cpu": "1"}}, "livenessProbe": {"httpGet": {"port": 80, "paht": "/"}}}
                ]}}
            }
        });
        assert_eq!(
            paths(&types::DEPLOYMENT, &d),
            [
                "metadata.labelz",
                "spec.foo",
                "spec.template.spec.containers[1].imagePolicy",
                "spec.template.spec.containers[1].livenessProbe.httpGet.paht",
            ]
        );
    }

    #[test]
    fn inlined_go_fields_are_fields_of_their_parent() {
        // Probe inlines ProbeHandler, Volume inlines VolumeSource, EphemeralContainer
        // inlines EphemeralContainerCommon: their fields sit beside the parent's own.
        let pod = json!({"spec": {
            "volumes": [{"name": "v", "emptyDir": {}}],
            "containers": [{"name": "a", "readinessProbe": {"exec": {"command": ["true"]}, "periodSeconds": 5}}],
            "ephemeralContainers": [{"name": "dbg", "image": "busybox", "targetContainerName": "a"}]
        }});
        assert_eq!(paths(&types::POD, &pod), Vec::<String>::new());
    }

    #[test]
    fn prune_removes_what_it_reports_and_keeps_the_rest() {
        let mut d = json!({"spec": {"replicas": 2, "foo": {"bar": 1}}});
        let found = prune(Some(&types::DEPLOYMENT), &mut d);
        assert_eq!(
            found,
            vec![vec![Step::Key("spec".into()), Step::Key("foo".into())]]
        );
        assert_eq!(d, json!({"spec": {"replicas": 2}}));
    }

    #[test]
    fn a_value_of_the_wrong_json_type_is_not_an_unknown_field() {
        let d = json!({"spec": {"template": 5, "selector": {"matchLabels": "x"}}});
        assert_eq!(paths(&types::DEPLOYMENT, &d), Vec::<String>::new());
    }
}
