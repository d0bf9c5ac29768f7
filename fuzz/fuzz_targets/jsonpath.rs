//! `kubectl get -o jsonpath=TEMPLATE`: parse, then execute against a small Deployment.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::LazyLock;

static DEPLOYMENT: LazyLock<Value> = LazyLock::new(|| {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "generation": 2,
            "resourceVersion": "1042",
            "labels": {"app": "web", "tier": "front"},
            "annotations": {"kubernetes.io/change-cause": "nginx 1.28"}
        },
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {
                    "containers": [
                        {"name": "app", "image": "nginx:1.28", "ports": [{"containerPort": 80}],
                         "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}},
                        {"name": "sidecar", "image": "busybox:1.36", "args": ["sleep", "3600"]}
                    ]
                }
            }
        },
        "status": {
            "observedGeneration": 2,
            "replicas": 3,
            "readyReplicas": 2,
            "updatedReplicas": 3,
            "availableReplicas": 2,
            "conditions": [
                {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
                {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}
            ]
        }
    })
});

fuzz_target!(|text: &str| {
    if let Ok(path) = kubedrill::sim::jsonpath::parse(text) {
        match path.execute(&DEPLOYMENT) {
            Ok(out) => drop(out),
            Err(e) => drop(e.to_string()),
        }
    }
});
