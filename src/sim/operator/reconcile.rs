//! The WebApp controller's Reconcile: finalizer first (and the external clean-up on
//! deletion), then the owned Deployment and Service, the DNS record, and last the status.
//! Every write goes through the operator's client (one request each); reads come from its
//! cache, free, as an informer-backed client reads.

use serde_json::{Value, json};

use super::{Bug, FINALIZER, GROUP, KIND, NAME, Operator};
use crate::sim::api::ApiServer;
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::sim::time::rfc3339;

/// The ownerReference a WebApp's Deployment and Service carry (SetControllerReference).
fn owner_ref(app: &Value, version: &str) -> Value {
    json!({"apiVersion": format!("{GROUP}/{version}"), "kind": KIND, "name": obj::name(app),
        "uid": obj::uid(app), "controller": true, "blockOwnerDeletion": true})
}

fn has_finalizer(o: &Value) -> bool {
    o.pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|f| f == FINALIZER))
}

/// Whether `o` is controlled by the WebApp with `uid`.
fn owned_by(o: &Value, uid: &str) -> bool {
    o.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|r| r["uid"] == uid && r["controller"] == true))
}

/// meta.SetStatusCondition: the time moves only when the status does.
fn condition(
    old: Option<&Value>,
    status: &str,
    reason: &str,
    message: &str,
    generation: i64,
    now: u64,
) -> Value {
    let time = match old {
        Some(c) if c["status"] == status => c["lastTransitionTime"].clone(),
        _ => json!(rfc3339(now)),
    };
    json!({"type": "Available", "status": status, "observedGeneration": generation,
        "lastTransitionTime": time, "reason": reason, "message": message})
}

impl Operator {
    pub(super) fn reconcile(&mut self, api: &mut ApiServer, kind: Kind, name: &str, now: u64) {
        // Its client reads the WebApp at the version it was built for.
        let Ok(app) = api
            .get(kind, name)
            .and_then(|o| api.read_custom_at(kind, o, Some(&self.version)))
        else {
            // Gone (what it owned is the garbage collector's), or unreadable.
            return;
        };
        let host = obj::str(&app, &["spec", "host"]).map(str::to_string);
        let finalizes = !self.bugs.contains(&Bug::NoFinalizer);
        if obj::is_deleting(&app) {
            // A build without the finalizer logic leaves one it added before in place:
            // the WebApp then waits for ever.
            if finalizes && has_finalizer(&app) {
                if let Some(h) = &host
                    && self.dns.remove(h).is_some()
                {
                    self.say(
                        now,
                        format!("deleted DNS record {h} for WebApp default/{name}"),
                    );
                }
                let mut next = app.clone();
                if let Some(a) = next
                    .pointer_mut("/metadata/finalizers")
                    .and_then(Value::as_array_mut)
                {
                    a.retain(|f| f != FINALIZER);
                }
                self.write(api, now, name, |api| {
                    api.update(kind, next, None).map(|_| ())
                });
            }
            return;
        }
        let mut app = app;
        if finalizes && !has_finalizer(&app) {
            let mut next = app.clone();
            let list = next
                .pointer_mut("/metadata")
                .and_then(Value::as_object_mut)
                .map(|m| m.entry("finalizers").or_insert_with(|| json!([])));
            if let Some(Value::Array(a)) = list {
                a.push(json!(FINALIZER));
            }
            let written = self.write(api, now, name, |api| api.update(kind, next, None));
            match written {
                Some(stored) => app = stored,
                None => return,
            }
        }
        if let Some(h) = &host
            && !self.dns.contains_key(h)
        {
            self.dns.insert(h.clone(), name.to_string());
            self.say(
                now,
                format!("created DNS record {h} for WebApp default/{name}"),
            );
        }
        let uid = obj::uid(&app).to_string();
        let replicas = obj::int(&app, &["spec", "replicas"]).unwrap_or(1);
        let image = obj::str(&app, &["spec", "image"]).unwrap_or("").to_string();
        let mut blocked = None;
        match api.get(Kind::Deployment, name).cloned() {
            Err(_) => {
                let mut d = crate::sim::scenario::deployment(name, &image, replicas);
                obj::set(
                    &mut d,
                    &["metadata", "ownerReferences"],
                    json!([owner_ref(&app, &self.version)]),
                );
                self.write(api, now, name, |api| {
                    api.create(Kind::Deployment, d, now).map(|_| ())
                });
            }
            Ok(live) if !owned_by(&live, &uid) => {
                blocked = Some(format!(
                    "Deployment {name} exists and is not owned by WebApp {name}"
                ));
            }
            Ok(live) if self.bugs.contains(&Bug::HotLoop) => {
                // The bug: the Deployment it wants, built from scratch, against the live
                // one with DeepEqual. The live one carries the server's defaults and the
                // revision annotation its controller writes, so they never match, and the
                // Update of the from-scratch object drops that annotation.
                let mut desired = crate::sim::scenario::deployment(name, &image, replicas);
                obj::set(
                    &mut desired,
                    &["metadata", "ownerReferences"],
                    json!([owner_ref(&app, &self.version)]),
                );
                if desired != live {
                    if let Some(rv) = live.pointer("/metadata/resourceVersion") {
                        obj::set(&mut desired, &["metadata", "resourceVersion"], rv.clone());
                    }
                    self.write(api, now, name, |api| {
                        api.update(Kind::Deployment, desired, None).map(|_| ())
                    });
                }
            }
            Ok(live) => {
                let same = obj::int(&live, &["spec", "replicas"]) == Some(replicas)
                    && live.pointer("/spec/template/spec/containers/0/image")
                        == Some(&json!(image));
                if !same {
                    let mut next = live.clone();
                    obj::set(&mut next, &["spec", "replicas"], json!(replicas));
                    if let Some(c) = next.pointer_mut("/spec/template/spec/containers/0") {
                        c["image"] = json!(image);
                    }
                    self.write(api, now, name, |api| {
                        api.update(Kind::Deployment, next, None).map(|_| ())
                    });
                }
            }
        }
        if api.get(Kind::Service, name).is_err() && blocked.is_none() {
            let svc = json!({"apiVersion": "v1", "kind": "Service",
                "metadata": {"name": name, "labels": {"app": name}, "ownerReferences": [owner_ref(&app, &self.version)]},
                "spec": {"selector": {"app": name}, "ports": [{"port": 80, "targetPort": 80, "protocol": "TCP"}]}});
            self.write(api, now, name, |api| {
                api.create(Kind::Service, svc, now).map(|_| ())
            });
        }
        self.write_status(api, kind, &app, replicas, blocked, now);
    }

    fn write_status(
        &mut self,
        api: &mut ApiServer,
        kind: Kind,
        app: &Value,
        replicas: i64,
        blocked: Option<String>,
        now: u64,
    ) {
        let name = obj::name(app).to_string();
        let generation = obj::int(app, &["metadata", "generation"]).unwrap_or(0);
        let ready = api
            .get(Kind::Deployment, &name)
            .ok()
            .and_then(|d| obj::int(d, &["status", "readyReplicas"]))
            .unwrap_or(0);
        let old = app
            .pointer("/status/conditions")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().find(|c| c["type"] == "Available"));
        let cond = match &blocked {
            Some(why) => condition(old, "False", "DeploymentNotOwned", why, generation, now),
            None if ready >= replicas => condition(
                old,
                "True",
                "ReplicasReady",
                &format!("{ready}/{replicas} replicas ready"),
                generation,
                now,
            ),
            None => condition(
                old,
                "False",
                "ReplicasNotReady",
                &format!("{ready}/{replicas} replicas ready"),
                generation,
                now,
            ),
        };
        let status = json!({"observedGeneration": generation, "readyReplicas": ready,
            "conditions": [cond]});
        if app.get("status") == Some(&status) {
            return;
        }
        let mut next = app.clone();
        next["status"] = status;
        if self.bugs.contains(&Bug::StatusUpdate) {
            self.write(api, now, &name, |api| {
                api.update(kind, next, None).map(|_| ())
            });
        } else {
            self.write(api, now, &name, |api| {
                api.as_manager(NAME, Some("status"), |api| {
                    api.update_status(kind, next).map(|_| ())
                })
            });
        }
    }

    /// One write through the client, as the operator's field manager; an error is logged
    /// as controller-runtime logs a failed Reconcile, and the WebApp is tried again.
    fn write<T>(
        &mut self,
        api: &mut ApiServer,
        now: u64,
        name: &str,
        f: impl FnOnce(&mut ApiServer) -> Result<T, crate::sim::api::ApiError>,
    ) -> Option<T> {
        let before = api.resource_version();
        let out = api.as_manager(NAME, None, f);
        self.request(before, api);
        match out {
            Ok(v) => Some(v),
            Err(e) => {
                self.retry.insert(name.to_string());
                self.say(
                    now,
                    format!(
                        "ERROR Reconciler error {{\"controller\": \"webapp\", \"namespace\": \"default\", \"name\": \"{name}\", \"error\": \"{}\"}}",
                        e.message
                    ),
                );
                None
            }
        }
    }
}
