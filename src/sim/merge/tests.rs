//! Tests of `merge`.

use super::*;
use serde_json::json;

// RFC 7386 appendix A.
#[test]
fn merge_patch_rfc7386_examples() {
    let cases = [
        (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
        (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
        (json!({"a":"b"}), json!({"a":null}), json!({})),
        (
            json!({"a":"b","b":"c"}),
            json!({"a":null}),
            json!({"b":"c"}),
        ),
        (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
        (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
        (
            json!({"a":{"b":"c"}}),
            json!({"a":{"b":"d","c":null}}),
            json!({"a":{"b":"d"}}),
        ),
        (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
        (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
        (json!({"a":"b"}), json!(["c"]), json!(["c"])),
        (json!({"a":"foo"}), json!(null), json!(null)),
        (json!({"a":"foo"}), json!("bar"), json!("bar")),
        (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
        (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
        (
            json!({}),
            json!({"a":{"bb":{"ccc":null}}}),
            json!({"a":{"bb":{}}}),
        ),
    ];
    for (target, patch, want) in cases {
        assert_eq!(merge_patch(&target, &patch), want, "{target} + {patch}");
    }
}

#[test]
fn json_patch_operations() {
    let doc = json!({"foo": ["bar", "baz"], "a/b": 1, "m~n": 2});
    let ops = json!([
        {"op": "add", "path": "/foo/1", "value": "qux"},
        {"op": "add", "path": "/foo/-", "value": "end"},
        {"op": "remove", "path": "/foo/0"},
        {"op": "replace", "path": "/a~1b", "value": 10},
        {"op": "test", "path": "/m~0n", "value": 2},
        {"op": "copy", "from": "/m~0n", "path": "/copied"},
        {"op": "move", "from": "/foo", "path": "/moved"},
    ]);
    assert_eq!(
        json_patch(&doc, &ops),
        Ok(json!({"moved": ["qux", "baz", "end"], "a/b": 10, "m~n": 2, "copied": 2}))
    );
}

#[test]
fn json_patch_errors_are_atomic_and_named() {
    let doc = json!({"spec": {"replicas": 3}});
    assert_eq!(
        json_patch(
            &doc,
            &json!([{"op": "test", "path": "/spec/replicas", "value": 4}])
        ),
        Err(PatchError::TestFailed {
            index: 0,
            pointer: "/spec/replicas".into()
        })
    );
    assert_eq!(
        json_patch(&doc, &json!([{"op": "remove", "path": "/spec/paused"}])),
        Err(PatchError::PathNotFound {
            index: 0,
            op: "remove".into(),
            pointer: "/spec/paused".into()
        })
    );
    assert_eq!(
        json_patch(
            &doc,
            &json!([{"op": "replace", "path": "spec", "value": 1}])
        ),
        Err(PatchError::InvalidPointer {
            index: 0,
            pointer: "spec".into()
        })
    );
    assert_eq!(
        json_patch(&doc, &json!([{"op": "add", "path": "/a~2", "value": 1}])),
        Err(PatchError::InvalidPointer {
            index: 0,
            pointer: "/a~2".into()
        })
    );
    assert!(matches!(
        json_patch(&doc, &json!([{"op": "frob", "path": "/spec"}])),
        Err(PatchError::InvalidOperation { index: 0, .. })
    ));
    assert!(matches!(
        json_patch(
            &doc,
            &json!([{"op": "move", "from": "/spec", "path": "/spec/x"}])
        ),
        Err(PatchError::InvalidOperation { index: 0, .. })
    ));
    assert_eq!(json_patch(&doc, &json!({})), Err(PatchError::NotAnArray));
    // Array indices: no leading zeros, no index past the end.
    let list = json!({"l": [1, 2]});
    assert!(json_patch(&list, &json!([{"op": "add", "path": "/l/01", "value": 0}])).is_err());
    assert!(json_patch(&list, &json!([{"op": "add", "path": "/l/3", "value": 0}])).is_err());
    assert_eq!(
        json_patch(&list, &json!([{"op": "add", "path": "/l/2", "value": 3}])),
        Ok(json!({"l": [1, 2, 3]}))
    );
    // A later failure discards earlier operations.
    assert!(
        json_patch(
            &doc,
            &json!([
                {"op": "replace", "path": "/spec/replicas", "value": 9},
                {"op": "test", "path": "/spec/replicas", "value": 3},
            ])
        )
        .is_err()
    );
    // Replacing the root.
    assert_eq!(
        json_patch(&doc, &json!([{"op": "replace", "path": "", "value": [1]}])),
        Ok(json!([1]))
    );
}

fn deployment(image: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [
                    {"name": "app", "image": image,
                     "ports": [{"containerPort": 80}],
                     "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]},
                    {"name": "sidecar", "image": "proxy:1", "args": ["-v", "-x"]}
                ]}
            }
        }
    })
}

#[test]
fn strategic_merge_merges_keyed_lists_and_replaces_others() {
    let live = deployment("app:1.4");
    let patch = json!({
        "metadata": {"labels": {"tier": "web"}},
        "spec": {"template": {"spec": {"containers": [
            {"name": "app", "image": "app:1.5", "env": [{"name": "B", "value": "3"}, {"name": "C", "value": "4"}]},
            {"name": "sidecar", "args": ["-q"]},
            {"name": "new", "image": "n:1", "stdin": null}
        ]}}}
    });
    let got = strategic_merge_patch(&live, &patch);
    let containers = &got["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers[0]["image"], "app:1.5");
    assert_eq!(containers[0]["ports"], json!([{"containerPort": 80}]));
    assert_eq!(
        containers[0]["env"],
        json!([{"name": "A", "value": "1"}, {"name": "B", "value": "3"}, {"name": "C", "value": "4"}])
    );
    assert_eq!(containers[1]["args"], json!(["-q"]));
    assert_eq!(containers[1]["image"], "proxy:1");
    assert_eq!(containers[2], json!({"name": "new", "image": "n:1"}));
    assert_eq!(
        got["metadata"]["labels"],
        json!({"app": "web", "tier": "web"})
    );
}

#[test]
fn strategic_merge_null_and_directives() {
    let live = deployment("app:1.4");
    let patch = json!({"spec": {
        "replicas": null,
        "template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}]}},
        "selector": {"$patch": "replace", "matchLabels": {"x": "y"}}
    }});
    let got = strategic_merge_patch(&live, &patch);
    assert!(got["spec"].get("replicas").is_none());
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    assert_eq!(got["spec"]["selector"], json!({"matchLabels": {"x": "y"}}));
}

/// The example of "Declarative Management of Kubernetes Objects Using Configuration Files":
/// `kubectl scale` changed replicas, the file drops minReadySeconds and changes the image.
#[test]
fn three_way_patch_declarative_config_docs_example() {
    let last_applied = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment"},
        "spec": {
            "minReadySeconds": 5,
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {"metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}]}]}}
        }
    });
    let mut live = last_applied.clone();
    live["spec"]["replicas"] = json!(2); // kubectl scale
    let config = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment"},
        "spec": {
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {"metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.16.1", "ports": [{"containerPort": 80}]}]}}
        }
    });
    let patch = three_way_patch(Some(&last_applied), &config, &live);
    assert_eq!(
        patch,
        json!({"spec": {
            "minReadySeconds": null,
            "template": {"spec": {
                "$setElementOrder/containers": [{"name": "nginx"}],
                "containers": [{"name": "nginx", "image": "nginx:1.16.1"}]
            }}
        }})
    );
    let result = strategic_merge_patch(&live, &patch);
    assert_eq!(
        result["spec"]["replicas"], 2,
        "replicas set by kubectl scale survives"
    );
    assert!(
        result["spec"].get("minReadySeconds").is_none(),
        "removed field is cleared"
    );
    assert_eq!(
        result["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.16.1"
    );
}

#[test]
fn three_way_patch_image_change_in_keyed_list() {
    let old = deployment("app:1.4");
    let config = deployment("app:1.5");
    let patch = three_way_patch(Some(&old), &config, &old);
    assert_eq!(
        patch,
        json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "app"}, {"name": "sidecar"}],
            "containers": [{"name": "app", "image": "app:1.5"}]
        }}}})
    );
    assert_eq!(strategic_merge_patch(&old, &patch), config);
}

#[test]
fn three_way_patch_unchanged_is_empty() {
    let config = with_last_applied(&deployment("app:1.4"));
    let mut live = config.clone();
    live["metadata"]["uid"] = json!("u-1");
    live["status"] = json!({"replicas": 3});
    let last = deployment("app:1.4");
    assert_eq!(three_way_patch(Some(&last), &config, &live), json!({}));
    // Without a last-applied annotation and with nothing differing: still unchanged.
    assert_eq!(three_way_patch(None, &config, &live), json!({}));
}

#[test]
fn three_way_patch_removed_container_env_and_explicit_null() {
    let last = deployment("app:1.4");
    let mut config = deployment("app:1.4");
    let containers = &mut config["spec"]["template"]["spec"]["containers"];
    if let Some(items) = containers.as_array_mut() {
        items.truncate(1);
    }
    config["spec"]["template"]["spec"]["containers"][0]["env"] =
        json!([{"name": "A", "value": "1"}]);
    config["spec"]["replicas"] = Value::Null;
    let patch = three_way_patch(Some(&last), &config, &last);
    let result = strategic_merge_patch(&last, &patch);
    let want_containers = json!([{"name": "app", "image": "app:1.4",
        "ports": [{"containerPort": 80}], "env": [{"name": "A", "value": "1"}]}]);
    assert_eq!(
        result["spec"]["template"]["spec"]["containers"],
        want_containers
    );
    assert!(result["spec"].get("replicas").is_none());
    // Fields in neither last-applied nor config are untouched; atomic lists replace whole.
    let mut live = last.clone();
    live["spec"]["paused"] = json!(true);
    let mut config = last.clone();
    config["spec"]["template"]["spec"]["containers"][1]["args"] = json!(["-v"]);
    let result = strategic_merge_patch(&live, &three_way_patch(Some(&last), &config, &live));
    assert_eq!(result["spec"]["paused"], true);
    assert_eq!(
        result["spec"]["template"]["spec"]["containers"][1]["args"],
        json!(["-v"])
    );
}

#[test]
fn three_way_patch_explicit_null_is_always_sent() {
    let live = deployment("app:1.4");
    let mut config = deployment("app:1.4");
    config["spec"]["paused"] = Value::Null;
    assert_eq!(
        three_way_patch(Some(&config), &config, &live),
        json!({"spec": {"paused": null}})
    );
    assert_eq!(
        strategic_merge_patch(&live, &json!({"spec": {"paused": null}})),
        live
    );
}

#[test]
fn strategic_merge_retain_keys_and_ignored_directives() {
    let live = json!({"spec": {"strategy": {"type": "RollingUpdate",
        "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}}});
    let patch = json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}});
    assert_eq!(
        strategic_merge_patch(&live, &patch),
        json!({"spec": {"strategy": {"type": "Recreate"}}})
    );
    let with_order = json!({"spec": {"template": {"spec": {
        "$setElementOrder/containers": [{"name": "app"}],
        "containers": [{"name": "app", "image": "app:2"}]}}}});
    let got = strategic_merge_patch(&deployment("app:1.4"), &with_order);
    assert_eq!(
        got["spec"]["template"]["spec"]["containers"][0]["image"],
        "app:2"
    );
    assert!(
        got["spec"]["template"]["spec"]
            .get("$setElementOrder/containers")
            .is_none()
    );
}

#[test]
fn with_last_applied_embeds_config_without_itself() {
    let config = deployment("app:1.4");
    let annotated = with_last_applied(&config);
    let stored = annotated["metadata"]["annotations"][LAST_APPLIED_ANNOTATION]
        .as_str()
        .map(serde_json::from_str::<Value>);
    let mut want = config.clone();
    want["metadata"]["annotations"] = json!({});
    assert!(matches!(stored, Some(Ok(ref v)) if *v == want));
    assert_eq!(with_last_applied(&annotated), annotated);
    // kubectl encodes it with json.Encoder: one line and a newline, which is why
    // `get -o yaml` prints the annotation as a `|` block.
    let text = annotated["metadata"]["annotations"][LAST_APPLIED_ANNOTATION]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.ends_with("}\n") && text.matches('\n').count() == 1,
        "{text:?}"
    );
}

/// What real kubectl 1.32 sent (the body of its PATCH, logged by tests/oracle/
/// fake_apiserver.py) for a configuration that reorders two containers, changes one's
/// image, adds a port and drops minReadySeconds: every changed keyed list travels with its
/// `$setElementOrder`, nested ones too, and the merged result takes the new order.
#[test]
fn three_way_patch_matches_real_kubectl_with_element_order() {
    let last = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment", "namespace": "default"},
        "spec": {"minReadySeconds": 5, "selector": {"matchLabels": {"app": "nginx"}},
            "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [
                {"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80}]},
                {"name": "side", "image": "busybox"}]}}}});
    let mut live = with_last_applied(&last);
    live["spec"]["replicas"] = json!(2);
    let config = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "nginx-deployment", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"app": "nginx"}},
            "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [
                {"name": "side", "image": "busybox"},
                {"name": "nginx", "image": "nginx:1.16.1",
                 "ports": [{"containerPort": 80}, {"containerPort": 443}]}]}}}});
    let annotated = with_last_applied(&config);
    let patch = three_way_patch(Some(&last), &annotated, &live);
    let real: Value = serde_json::from_str(r#"{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"name\":\"nginx-deployment\",\"namespace\":\"default\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"nginx\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"nginx\"}},\"spec\":{\"containers\":[{\"image\":\"busybox\",\"name\":\"side\"},{\"image\":\"nginx:1.16.1\",\"name\":\"nginx\",\"ports\":[{\"containerPort\":80},{\"containerPort\":443}]}]}}}}\n"}},"spec":{"minReadySeconds":null,"template":{"spec":{"$setElementOrder/containers":[{"name":"side"},{"name":"nginx"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80},{"containerPort":443}],"image":"nginx:1.16.1","name":"nginx","ports":[{"containerPort":443}]}]}}}}"#).unwrap();
    assert_eq!(patch.to_string(), real.to_string());
    let merged = strategic_merge_patch(&live, &patch);
    let names: Vec<&str> = merged["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["side", "nginx"], "the new order is taken");
    assert_eq!(merged["spec"]["replicas"], 2);
}

/// A server-only item (added by someone else) is merged into the items the patch orders by
/// comparing live positions with the next ordered item (strategicpatch mergeSortedSlice):
/// `injected` sat before `b`, the ordered list's head, so it comes first.
#[test]
fn element_order_keeps_server_only_items_where_they_were() {
    let live = json!({"containers": [{"name": "a"}, {"name": "injected"}, {"name": "b"}]});
    let patch = json!({"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}]});
    let merged = strategic_merge_patch(&live, &patch);
    let names: Vec<&str> = merged["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["injected", "b", "a"]);
}

/// A Service's `spec.ports` merge by `port` (its patchMergeKey); a container's `ports`,
/// deeper in a pod spec, still merge by `containerPort`.
#[test]
fn service_ports_merge_by_port_and_container_ports_by_container_port() {
    let svc = json!({"spec": {"ports": [{"name": "http", "port": 80, "targetPort": "http"}]}});
    let got = strategic_merge_patch(
        &svc,
        &json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}]}}),
    );
    assert_eq!(
        got["spec"]["ports"],
        json!([{"name": "http", "port": 80, "targetPort": 8080}])
    );
    let pod = json!({"spec": {"containers": [{"name": "app", "ports": [{"containerPort": 80, "name": "http"}]}]}});
    let got = strategic_merge_patch(
        &pod,
        &json!({"spec": {"containers": [{"name": "app", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}),
    );
    assert_eq!(
        got["spec"]["containers"][0]["ports"],
        json!([{"containerPort": 80, "name": "http", "protocol": "TCP"}])
    );
}
