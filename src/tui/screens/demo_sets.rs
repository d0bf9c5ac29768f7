//! The demo screen's panels for the workloads that are not a Deployment: a StatefulSet
//! `web` (the `statefulset` scenario), its spec beside its status with its revisions and
//! its pods by ordinal with their revision and claim; a DaemonSet (the `daemonset`
//! scenario), its counts and its pods node by node, with why a node has none.
//! `demo_view.rs` draws them where a Deployment's would go.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sim::controllers::daemonset::{HASH_LABEL, should_run, target_node};
use crate::sim::controllers::statefulset::identity::{self, REVISION_LABEL};
use crate::sim::kind::Kind;
use crate::sim::obj;
use crate::tui::theme::Theme;

use super::demo::Demo;
use super::demo_view::{DeploymentLines, pod_line};

/// The revision name without the set's name: `web-784c854f75` is `784c854f75`.
fn short(rev: &str) -> &str {
    rev.rsplit_once('-').map_or(rev, |(_, h)| h)
}

/// Title, body height, spec column, status column, and the revisions line.
pub fn stateful_set_lines(set: &Value, theme: &Theme) -> DeploymentLines {
    let int = |p: &[&str]| obj::int(set, p);
    let show = |v: Option<i64>| v.map_or("-".to_string(), |n| n.to_string());
    let generation = int(&["metadata", "generation"]);
    let observed = int(&["status", "observedGeneration"]);
    let lag = generation != observed;
    let gen_style = if lag { theme.alert } else { Style::new() };
    let image = obj::path(set, &["spec", "template", "spec", "containers"])
        .and_then(|c| c.get(0))
        .and_then(|c| c["image"].as_str())
        .unwrap_or("-")
        .to_string();
    let strategy = match set
        .pointer("/spec/updateStrategy/rollingUpdate/partition")
        .and_then(Value::as_i64)
    {
        Some(p) if p > 0 => format!(" · partition {p}"),
        _ if set["spec"]["updateStrategy"]["type"] == "OnDelete" => " · OnDelete".to_string(),
        _ => String::new(),
    };
    let spec = vec![
        Line::from(format!(
            "replicas {} · {}",
            show(int(&["spec", "replicas"])),
            set["spec"]["podManagementPolicy"].as_str().unwrap_or("-")
        )),
        Line::from(Span::styled(
            format!("generation {}", show(generation)),
            gen_style,
        )),
        Line::from(format!("image {image}{strategy}")),
    ];
    let status = vec![
        Line::from(format!(
            "replicas {} · ready {}",
            show(int(&["status", "replicas"])),
            show(int(&["status", "readyReplicas"]))
        )),
        Line::from(Span::styled(
            format!("observedGeneration {}", show(observed)),
            gen_style,
        )),
        Line::from(format!(
            "updated {} · current {}",
            show(int(&["status", "updatedReplicas"])),
            show(int(&["status", "currentReplicas"]))
        )),
    ];
    let current = obj::str(set, &["status", "currentRevision"]).unwrap_or("-");
    let update = obj::str(set, &["status", "updateRevision"]).unwrap_or("-");
    let revisions = if current == update {
        vec![Line::from(Span::styled(
            format!("revision {}", short(current)),
            theme.good,
        ))]
    } else {
        vec![Line::from(Span::styled(
            format!("rolling {} → {}", short(current), short(update)),
            theme.accent,
        ))]
    };
    let title = Line::from(vec![
        Span::styled(" StatefulSet web: spec │ status ", theme.header),
        Span::styled(
            if lag { " observedGeneration lags " } else { "" },
            theme.alert,
        ),
    ]);
    (title, 4, spec, status, revisions)
}

/// The set's pods in ordinal order, each with its revision, then the claims no pod uses.
pub fn stateful_pod_lines(d: &Demo, set: &Value, theme: &Theme) -> Vec<Line<'static>> {
    let now = d.session.now();
    let mut pods: Vec<&Value> = d.session.objects(Kind::Pod).collect();
    pods.sort_by_key(|p| identity::ordinal(obj::name(p)).unwrap_or(i64::MAX));
    let update = obj::str(set, &["status", "updateRevision"]).unwrap_or("");
    let mut out = vec![Line::from(vec![
        Span::styled(format!("StatefulSet {}", obj::name(set)), theme.key),
        Span::styled("  pods by ordinal, revision", theme.dim),
    ])];
    for p in &pods {
        let mut line = pod_line(p, now, theme);
        let rev = p["metadata"]["labels"][REVISION_LABEL]
            .as_str()
            .unwrap_or("");
        let style = if rev == update {
            theme.dim
        } else {
            theme.accent
        };
        line.spans
            .push(Span::styled(format!(" {}", short(rev)), style));
        out.push(line);
    }
    let used = |c: &str| {
        pods.iter().any(|p| {
            p["spec"]["volumes"].as_array().is_some_and(|vs| {
                vs.iter()
                    .any(|v| v["persistentVolumeClaim"]["claimName"] == c)
            })
        })
    };
    let idle: Vec<String> = d
        .session
        .objects(Kind::PersistentVolumeClaim)
        .map(|c| obj::name(c).to_string())
        .filter(|c| !used(c))
        .collect();
    if !idle.is_empty() {
        out.push(Line::from(Span::styled(
            format!("claims kept without a pod: {}", idle.join(", ")),
            theme.dim,
        )));
    }
    out
}

/// Title, body height, spec column, status column, and the misscheduled count.
pub fn daemon_set_lines(ds: &Value, theme: &Theme) -> DeploymentLines {
    let int = |p: &[&str]| obj::int(ds, p);
    let show = |v: Option<i64>| v.map_or("-".to_string(), |n| n.to_string());
    let generation = int(&["metadata", "generation"]);
    let observed = int(&["status", "observedGeneration"]);
    let lag = generation != observed;
    let gen_style = if lag { theme.alert } else { Style::new() };
    let image = obj::path(ds, &["spec", "template", "spec", "containers"])
        .and_then(|c| c.get(0))
        .and_then(|c| c["image"].as_str())
        .unwrap_or("-")
        .to_string();
    let ru = &ds["spec"]["updateStrategy"]["rollingUpdate"];
    let strategy = match ds["spec"]["updateStrategy"]["type"].as_str() {
        Some("RollingUpdate") => format!(
            "maxUnavailable {} · maxSurge {}",
            scalar(&ru["maxUnavailable"]),
            scalar(&ru["maxSurge"])
        ),
        other => other.unwrap_or("-").to_string(),
    };
    let spec = vec![
        Line::from(strategy),
        Line::from(Span::styled(
            format!("generation {}", show(generation)),
            gen_style,
        )),
        Line::from(format!("image {image}")),
    ];
    // The counts are omitempty: a missing one is 0.
    let count = |f: &str| int(&["status", f]).unwrap_or(0);
    let status = vec![
        // CURRENT is shown only when it differs from DESIRED, to keep the line short.
        Line::from(
            match (
                count("desiredNumberScheduled"),
                count("currentNumberScheduled"),
            ) {
                (d, c) if d == c => format!("desired {d} · ready {}", count("numberReady")),
                (d, c) => format!("desired {d} · current {c} · ready {}", count("numberReady")),
            },
        ),
        Line::from(Span::styled(
            format!("observedGeneration {}", show(observed)),
            gen_style,
        )),
        Line::from(format!(
            "up-to-date {} · available {}",
            count("updatedNumberScheduled"),
            count("numberAvailable")
        )),
    ];
    let mis = int(&["status", "numberMisscheduled"]).unwrap_or(0);
    let extra = if mis > 0 {
        vec![Line::from(Span::styled(
            format!("misscheduled {mis}: pods on nodes that no longer want one"),
            theme.accent,
        ))]
    } else {
        Vec::new()
    };
    let title = Line::from(vec![
        Span::styled(
            format!(" DaemonSet {}: spec │ status ", obj::name(ds)),
            theme.header,
        ),
        Span::styled(
            if lag { " observedGeneration lags " } else { "" },
            theme.alert,
        ),
    ]);
    (title, 3 + extra.len(), spec, status, extra)
}

/// An IntOrString as written: `1`, `25%`.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        other => other.to_string(),
    }
}

/// Node by node: the daemon pods there with their revision hash, or why there is none.
pub fn daemon_pod_lines(d: &Demo, ds: &Value, theme: &Theme) -> Vec<Line<'static>> {
    let now = d.session.now();
    let uid = obj::uid(ds);
    let pods: Vec<&Value> = d
        .session
        .objects(Kind::Pod)
        .filter(|p| obj::controller_uid(p) == Some(uid))
        .collect();
    let mut out = Vec::new();
    let mut nodes: Vec<&Value> = d.session.objects(Kind::Node).collect();
    nodes.sort_by(|a, b| obj::name(a).cmp(obj::name(b)));
    for node in nodes {
        let name = obj::name(node);
        let here: Vec<&&Value> = pods
            .iter()
            .filter(|p| target_node(p) == Some(name))
            .collect();
        out.push(Line::from(Span::styled(name.to_string(), theme.key)));
        if here.is_empty() {
            let (run, _) = should_run(ds, node);
            let why = if run {
                "no pod yet".to_string()
            } else {
                why_not(ds, node)
            };
            // Not indented: the panel counts indented rows as pods.
            out.push(Line::from(Span::styled(format!("└ {why}"), theme.dim)));
        }
        for p in here {
            let mut line = pod_line(p, now, theme);
            let hash = p["metadata"]["labels"][HASH_LABEL].as_str().unwrap_or("");
            line.spans.push(Span::styled(format!(" {hash}"), theme.dim));
            out.push(line);
        }
    }
    out
}

/// Why a DaemonSet wants no pod on `node`: its selector, or the first taint it does not
/// tolerate.
fn why_not(ds: &Value, node: &Value) -> String {
    let spec = &ds["spec"]["template"]["spec"];
    let labels = &node["metadata"]["labels"];
    let selected = spec["nodeSelector"]
        .as_object()
        .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)));
    if !selected {
        return "no pod: the node selector does not match".into();
    }
    let tolerations = crate::sim::taints::of_pod(spec);
    crate::sim::taints::of_node(node)
        .iter()
        .filter(|t| matches!(t["effect"].as_str(), Some("NoSchedule" | "NoExecute")))
        .find(|t| !crate::sim::taints::tolerates(tolerations, t))
        .map_or_else(
            || "no pod: not selected".into(),
            |t| {
                let value = t["value"].as_str().filter(|v| !v.is_empty());
                format!(
                    "no pod: taint {}{}:{} not tolerated",
                    t["key"].as_str().unwrap_or(""),
                    value.map(|v| format!("={v}")).unwrap_or_default(),
                    t["effect"].as_str().unwrap_or("")
                )
            },
        )
}
