//! Built-in scenarios.

/// Ids of the shipped scenarios; content may only name one of these.
pub const SCENARIO_IDS: &[&str] = &[
    "spec-status",
    "self-healing",
    "apply-semantics",
    "field-fight",
];

use serde_json::{Value, json};

/// The Deployment `kubectl create deployment NAME --image=IMAGE --replicas=N` sends
/// (its container is named after the image, as kubectl names it).
pub fn deployment(name: &str, image: &str, replicas: i64) -> Value {
    let container = image
        .rsplit('/')
        .next()
        .and_then(|s| s.split([':', '@']).next())
        .unwrap_or(name)
        .to_string();
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"labels": {"app": name}, "name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "strategy": {},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"image": image, "name": container, "resources": {}}]},
            },
        },
    })
}
