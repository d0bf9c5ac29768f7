//! `kubedrill sim --export`: the scenario's manifests and the lines run so far as a shell
//! script for a real cluster. What only the simulator can do is written as a comment that
//! says how to stage it for real, or that it cannot be.

use super::directive::{self, ApplyMode, Component, Directive, KcmCmd, MetricsCmd, TrafficCmd};
use super::scenario::Scenario;
use super::shell;

/// The script for the lines run in a demo of `scenario`, in order.
pub fn script(scenario: &Scenario, lines: &[String]) -> String {
    let mut out = format!(
        "#!/usr/bin/env bash\n\
         # Replays the kubedrill `{}` demo on a real cluster: kind, minikube or any context.\n\
         # It works in the current namespace and creates the Deployment `web`; clean up with\n\
         #   kubectl delete deploy web\n\
         # Errors are part of the lesson (AlreadyExists, Conflict), so the script does not stop on them.\n\
         set -u\n\n",
        scenario.id
    );
    for (name, text) in scenario.files {
        out.push_str(&format!(
            "cat > {name} <<'KUBEDRILL_EOF'\n{text}KUBEDRILL_EOF\n"
        ));
    }
    out.push('\n');
    out.push_str(match scenario.origin {
        super::scenario::Origin::Created => "kubectl create -f web.yaml\n",
        super::scenario::Origin::Applied => "kubectl apply -f web.yaml\n",
    });
    out.push_str("kubectl rollout status deploy/web\n");
    // Files read back from the cluster carry web's resourceVersion: read the real one.
    for (name, text) in super::scenario::read_back_files(scenario.id) {
        out.push_str(&format!(
            "rv=$(kubectl get deploy web -o jsonpath='{{.metadata.resourceVersion}}')\n\
             sed \"s/{{rv}}/$rv/\" > {name} <<'KUBEDRILL_EOF'\n{text}KUBEDRILL_EOF\n"
        ));
    }
    out.push('\n');
    let mut state = Replay::default();
    for line in lines {
        out.push_str(&state.translate(line));
    }
    if state.gitops_running {
        out.push_str(
            "echo \"The GitOps loop keeps running as PID $gitops_pid: kill $gitops_pid to stop it\"\n",
        );
    }
    out
}

/// What the replay has set up so far: a later line builds on it (a second `autoscaler`
/// patches the HPA the first created; a new GitOps loop replaces the running one).
#[derive(Default)]
struct Replay {
    /// The HPA's replica count, once one was made, and whether it exists now.
    hpa: Option<u32>,
    hpa_exists: bool,
    /// The GitOps loop's command, once one was started, and whether it runs now.
    gitops: Option<String>,
    gitops_running: bool,
}

/// A simulator pod name (`web-<template hash>-<5 characters>`): random on a real cluster.
fn is_pod_name(w: &str) -> bool {
    let w = w
        .strip_prefix("pod/")
        .or_else(|| w.strip_prefix("pods/"))
        .unwrap_or(w);
    let parts: Vec<&str> = w.split('-').collect();
    matches!(parts.as_slice(), ["web", hash, suffix]
        if (6..=10).contains(&hash.len())
            && suffix.len() == 5
            && suffix.bytes().all(|b| super::names::NAME_ALPHABET.contains(&b)))
}

impl Replay {
    fn translate(&mut self, line: &str) -> String {
        let line = &comment(line);
        let Ok(words) = shell::split(line) else {
            return format!("# (not valid shell) {line}\n");
        };
        if words.first().map(String::as_str) == Some("kubectl") {
            return kubectl_line(&words);
        }
        let Some(Ok(d)) = directive::parse(&words) else {
            return format!("# {line}\n");
        };
        let kcm = "stop kube-controller-manager (on kind: docker exec kind-control-plane mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/), or run it with --controllers=*,-deployment-controller to leave one controller out";
        let kcm_back = "start it again (on kind: docker exec kind-control-plane mv /root/kube-controller-manager.yaml /etc/kubernetes/manifests/)";
        match d {
            Directive::Tick(n) => format!("sleep {n}\n"),
            Directive::Pause(c) | Directive::Crash(c) if c.is_controller() => format!(
                "# {line}: a real {c} controller has no switch that stops its workers and keeps its informer; to see the same lag, {kcm}\n"
            ),
            Directive::Resume(c) | Directive::Restart(c) if c.is_controller() => format!(
                "# {line}: {kcm_back}; on start it lists everything and reconciles from current state\n"
            ),
            Directive::Pause(Component::Scheduler) | Directive::Crash(Component::Scheduler) => {
                format!(
                    "# {line}: stop kube-scheduler (on kind: docker exec kind-control-plane mv /etc/kubernetes/manifests/kube-scheduler.yaml /root/); new pods stay Pending\n"
                )
            }
            Directive::Resume(Component::Scheduler) | Directive::Restart(Component::Scheduler) => {
                format!(
                    "# {line}: start kube-scheduler again (on kind: docker exec kind-control-plane mv /root/kube-scheduler.yaml /etc/kubernetes/manifests/)\n"
                )
            }
            Directive::Pause(c) | Directive::Crash(c)
                if matches!(c, Component::NodeLifecycle | Component::TaintEviction) =>
            {
                format!(
                    "# {line}: run kube-controller-manager with --controllers=*,-{c}-controller to leave it out\n"
                )
            }
            Directive::Node(name, false) => format!(
                "# {line}: stop the node's kubelet; its containers keep running (on kind, where nodes are kind-worker, kind-worker2, ...: docker exec kind-worker2 systemctl stop kubelet)\ndocker exec {name} systemctl stop kubelet\n"
            ),
            Directive::Node(name, true) => format!(
                "# {line}: start the node's kubelet again\ndocker exec {name} systemctl start kubelet\n"
            ),
            Directive::NodeAdd(_) => format!(
                "# {line}: a node joins; on kind, recreate the cluster with one more worker in its config (kind has no command that adds a node to a running cluster)\n"
            ),
            Directive::Pause(Component::Kubelet) | Directive::Crash(Component::Kubelet) => format!(
                "# {line}: stop a node's kubelet (on kind: docker exec kind-worker systemctl stop kubelet)\n"
            ),
            Directive::Resume(Component::Kubelet) | Directive::Restart(Component::Kubelet) => {
                format!("# {line}: docker exec kind-worker systemctl start kubelet\n")
            }
            // Never recorded (`MOVES`): the lines kept already lead to the current state.
            Directive::Reset | Directive::Snapshot(_) | Directive::Restore(_) => {
                format!("# {line}\n")
            }
            Directive::Traffic(TrafficCmd::Start { rate, service, .. }) => {
                let pause = 1.0 / f64::from(rate);
                format!(
                    "# {line}: a client inside the cluster, about {rate} requests a second, printing `failed` for each that fails (the proxies' delay is the cluster's own)
kubectl delete pod traffic --ignore-not-found
kubectl run traffic --image=busybox:1.36 --restart=Never -- /bin/sh -c 'while true; do wget -q -T 1 -O /dev/null http://{service} || echo failed; sleep {pause:.3}; done'
"
                )
            }
            Directive::Traffic(TrafficCmd::Off) => {
                format!(
                    "# {line}
kubectl delete pod traffic --ignore-not-found
"
                )
            }
            Directive::Traffic(TrafficCmd::Show) => {
                format!(
                    "# {line}: the failures so far
kubectl logs traffic | grep -c failed
"
                )
            }
            Directive::Operator(_) => format!(
                "# {line}: the demo's WebApp operator is simulated; on a real cluster build one with kubebuilder (controller-runtime) for the CRD in webapp-crd.yaml and run it as the Deployment webapp-operator\n"
            ),
            Directive::Webhook(_) => format!(
                "# {line}: cannot be staged as it stands: a real webhook needs a server that answers AdmissionReview over TLS, with its caBundle in the configuration\n"
            ),
            Directive::Metrics(MetricsCmd::Down(down)) => format!(
                "# {line}: {} metrics-server (on kind, where it is installed from its release manifest)\nkubectl -n kube-system scale deploy metrics-server --replicas={}\n",
                if down { "stop" } else { "start" },
                u8::from(!down)
            ),
            Directive::Metrics(MetricsCmd::Set { target, .. }) => format!(
                "# {line}: real pods use the CPU their work costs; to load {target}, send it work, for example\nkubectl run load --image=busybox:1.36 --restart=Never -- /bin/sh -c 'while true; do wget -q -O /dev/null http://web; done'\n"
            ),
            Directive::Metrics(_) => format!("# {line}\nkubectl top pods\n"),
            Directive::Kcm(KcmCmd::Kill(_) | KcmCmd::Stop(_)) => format!(
                "# {line}: on a control plane with two kube-controller-manager replicas, stop the leader's (the holder in `kubectl -n kube-system get lease kube-controller-manager`), e.g. on kind: docker exec kind-control-plane2 mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/\n"
            ),
            Directive::Kcm(KcmCmd::Slow(..)) => format!(
                "# {line}: cannot be staged faithfully: slow the leader's path to the API server (for example with tc netem on its node) until its renewals take longer than 5 s\n"
            ),
            Directive::Kcm(_) => format!(
                "# {line}\nkubectl -n kube-system get lease kube-controller-manager -o yaml\n"
            ),
            Directive::Drop(..) => format!(
                "# {line}: cannot be staged: a real informer never loses an event (a watch resumes from its resourceVersion, or relists)\n"
            ),
            Directive::Trigger(..) => format!(
                "# {line}: cannot be staged: the built-in controllers are always level-triggered\n"
            ),
            Directive::AutoscalerTarget(n) => {
                self.hpa = Some(n);
                let existed = std::mem::replace(&mut self.hpa_exists, true);
                let cmd = match existed.then_some(()) {
                    // minReplicas = maxReplicas: the HPA enforces the range before it reads
                    // any metric, so no metrics-server is needed.
                    None => {
                        format!("kubectl autoscale deploy web --min={n} --max={n} --cpu-percent=80")
                    }
                    Some(_) => format!(
                        "kubectl patch hpa web -p '{{\"spec\":{{\"minReplicas\":{n},\"maxReplicas\":{n}}}}}'"
                    ),
                };
                format!(
                    "# {line}: an HPA pinned to {n} replicas (min = max, so it needs no metrics)\n{cmd}\n"
                )
            }
            Directive::Pause(Component::Autoscaler) | Directive::Crash(Component::Autoscaler) => {
                if std::mem::replace(&mut self.hpa_exists, false) {
                    format!(
                        "# {line}: without its HPA nothing rescales web\nkubectl delete hpa web\n"
                    )
                } else {
                    format!("# {line}\n")
                }
            }
            Directive::Resume(Component::Autoscaler)
            | Directive::Restart(Component::Autoscaler) => {
                match self.hpa.filter(|_| !self.hpa_exists) {
                    Some(n) => {
                        self.hpa_exists = true;
                        format!(
                            "# {line}: the HPA again\nkubectl autoscale deploy web --min={n} --max={n} --cpu-percent=80\n"
                        )
                    }
                    None => format!("# {line}\n"),
                }
            }
            Directive::GitopsEvery(every, mode, file) => {
                let file = file.unwrap_or_else(|| "gitops.yaml".into());
                let flags = if mode == ApplyMode::ServerSide {
                    " --server-side --force-conflicts"
                } else {
                    ""
                };
                let cmd = format!(
                    "while sleep {every}; do kubectl apply -f {file}{flags} --field-manager=gitops-syncer; done &\ngitops_pid=$!\n"
                );
                let stop = self.stop_gitops();
                self.gitops = Some(cmd.clone());
                self.gitops_running = true;
                format!("# {line}: a GitOps-style loop, replacing any before it\n{stop}{cmd}")
            }
            Directive::Pause(Component::Gitops) | Directive::Crash(Component::Gitops) => {
                let stop = self.stop_gitops();
                format!("# {line}\n{stop}")
            }
            Directive::Resume(Component::Gitops) | Directive::Restart(Component::Gitops) => {
                match self.gitops.clone().filter(|_| !self.gitops_running) {
                    Some(cmd) => {
                        self.gitops_running = true;
                        format!("# {line}\n{cmd}")
                    }
                    None => format!("# {line}\n"),
                }
            }
            Directive::ApiQps(qps, burst) => {
                let burst = burst.map_or(String::new(), |b| format!(" --kube-api-burst={b}"));
                format!(
                    "# {line}: restart kube-controller-manager with --kube-api-qps={qps}{burst} (on kind: edit /etc/kubernetes/manifests/kube-controller-manager.yaml on the control-plane node; the kubelet restarts the static pod)\n"
                )
            }
            Directive::Pause(_)
            | Directive::Resume(_)
            | Directive::Crash(_)
            | Directive::Restart(_)
            | Directive::Files
            | Directive::Cat(_)
            | Directive::Status
            | Directive::Help => format!("# {line}\n"),
        }
    }

    /// Stops the running GitOps loop, if any (its settings are kept for a resume).
    fn stop_gitops(&mut self) -> String {
        if std::mem::replace(&mut self.gitops_running, false) {
            "kill \"$gitops_pid\"\n".into()
        } else {
            String::new()
        }
    }
}

/// One shell word, quoted only when it needs it: the script runs what the learner typed,
/// word for word, and nothing else (no expansion, no second command).
fn quote(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&b));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// A kubectl line rebuilt from its words, with pod names, random on a real cluster,
/// replaced by a lookup of one of web's pods.
fn kubectl_line(words: &[String]) -> String {
    let mut out = String::new();
    let mut pods: Vec<&str> = Vec::new();
    let mut rebuilt = Vec::new();
    for w in words {
        if is_pod_name(w) {
            let (prefix, name) = w.split_once('/').map_or(("", w.as_str()), |(p, n)| (p, n));
            let i = pods.iter().position(|p| *p == name).unwrap_or_else(|| {
                pods.push(name);
                pods.len() - 1
            });
            let prefix = if prefix.is_empty() {
                String::new()
            } else {
                format!("{prefix}/")
            };
            rebuilt.push(format!("{prefix}\"$pod{i}\""));
        } else {
            rebuilt.push(quote(w));
        }
    }
    if !pods.is_empty() {
        out.push_str(
            "# Pod names are random: the simulator's are replaced by pods of web on this cluster.\n",
        );
        for i in 0..pods.len() {
            out.push_str(&format!(
                "pod{i}=$(kubectl get pods -l app=web -o jsonpath='{{.items[{i}].metadata.name}}')\n"
            ));
        }
    }
    out.push_str(&rebuilt.join(" "));
    out.push('\n');
    out
}

/// A line shown in a comment: one line, whatever it held.
fn comment(line: &str) -> String {
    line.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(lines: &[&str]) -> String {
        let mut r = Replay::default();
        lines.iter().map(|l| r.translate(l)).collect()
    }

    #[test]
    fn simulator_pod_names_become_lookups_of_real_pods() {
        assert!(is_pod_name("web-85cc69484d-b9z74"));
        assert!(is_pod_name("pod/web-85cc69484d-b9z74"));
        assert!(!is_pod_name("web-85cc69484d"), "a ReplicaSet");
        assert!(!is_pod_name("web"));
        let out = replay(&["kubectl delete pod web-85cc69484d-b9z74 --now"]);
        assert!(out.contains(
            "pod0=$(kubectl get pods -l app=web -o jsonpath='{.items[0].metadata.name}')\n"
        ));
        assert!(
            out.ends_with("kubectl delete pod \"$pod0\" --now\n"),
            "{out}"
        );
    }

    #[test]
    fn a_replayed_line_runs_its_own_words_and_nothing_else() {
        let out = replay(&["kubectl get pods $(id)", "kubectl get pods;echo hi"]);
        assert!(out.contains("kubectl get pods '$(id)'\n"), "{out}");
        assert!(out.contains("kubectl get 'pods;echo' hi\n"), "{out}");
        let jp = replay(&["kubectl get deploy web -o jsonpath='{.spec.replicas}'"]);
        assert!(
            jp.contains("kubectl get deploy web -o 'jsonpath={.spec.replicas}'\n"),
            "{jp}"
        );
        let quoted = replay(&["kubectl delete pod 'web-85cc69484d-b9z74'"]);
        assert!(
            quoted.ends_with("kubectl delete pod \"$pod0\"\n"),
            "{quoted}"
        );
        let apostrophe = replay(&["kubectl annotate deploy web note=\"it's\""]);
        assert!(apostrophe.contains("'note=it'\\''s'"), "{apostrophe}");
    }

    #[test]
    fn a_second_autoscaler_target_patches_the_hpa_the_first_made() {
        let out = replay(&["autoscaler 5", "autoscaler 2"]);
        assert_eq!(out.matches("kubectl autoscale deploy web").count(), 1);
        assert!(out.contains(
            "kubectl patch hpa web -p '{\"spec\":{\"minReplicas\":2,\"maxReplicas\":2}}'"
        ));
    }

    #[test]
    fn a_new_gitops_loop_stops_the_one_before_and_pause_stops_it_once() {
        let out = replay(&[
            "gitops every 10 client-side",
            "gitops every 5 server-side",
            "pause gitops",
            "pause gitops",
        ]);
        assert_eq!(out.matches("kill \"$gitops_pid\"").count(), 2, "{out}");
        assert_eq!(out.matches("done &\ngitops_pid=$!").count(), 2);
    }
}
