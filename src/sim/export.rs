//! `kubedrill sim --export`: the scenario's manifests and the lines run so far as a shell
//! script for a real cluster. What only the simulator can do is written as a comment that
//! says how to stage it for real, or that it cannot be.

use super::directive::{self, ApplyMode, Component, Directive};
use super::session::Session;
use super::shell;

pub fn script(s: &Session) -> String {
    let mut out = format!(
        "#!/usr/bin/env bash\n\
         # Replays the kubedrill `{}` demo on a real cluster: kind, minikube or any context.\n\
         # It works in the current namespace and creates the Deployment `web`; clean up with\n\
         #   kubectl delete deploy web\n\
         # Errors are part of the lesson (AlreadyExists, Conflict), so the script does not stop on them.\n\
         set -u\n\n",
        s.scenario.id
    );
    for (name, text) in s.scenario.files {
        out.push_str(&format!(
            "cat > {name} <<'KUBEDRILL_EOF'\n{text}KUBEDRILL_EOF\n"
        ));
    }
    out.push('\n');
    out.push_str(match s.scenario.origin {
        super::scenario::Origin::Created => "kubectl create -f web.yaml\n",
        super::scenario::Origin::Applied => "kubectl apply -f web.yaml\n",
    });
    out.push_str("kubectl rollout status deploy/web\n");
    // Files read back from the cluster carry web's resourceVersion: read the real one.
    for (name, text) in super::scenario::read_back_files(s.scenario.id) {
        out.push_str(&format!(
            "rv=$(kubectl get deploy web -o jsonpath='{{.metadata.resourceVersion}}')\n\
             sed \"s/{{rv}}/$rv/\" > {name} <<'KUBEDRILL_EOF'\n{text}KUBEDRILL_EOF\n"
        ));
    }
    out.push('\n');
    for line in &s.lines {
        out.push_str(&translate(line));
    }
    out
}

fn translate(line: &str) -> String {
    let Ok(words) = shell::split(line) else {
        return format!("# (not valid shell) {line}\n");
    };
    if words.first().map(String::as_str) == Some("kubectl") {
        return format!("{line}\n");
    }
    let Some(Ok(d)) = directive::parse(&words) else {
        return format!("# {line}\n");
    };
    let kcm = "stop kube-controller-manager (on kind: docker exec kind-control-plane mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/)";
    let kcm_back = "start it again (on kind: docker exec kind-control-plane mv /root/kube-controller-manager.yaml /etc/kubernetes/manifests/)";
    match d {
        Directive::Tick(n) => format!("sleep {n}\n"),
        Directive::Pause(c) | Directive::Crash(c) if c.is_controller() => format!(
            "# {line}: a real {c} controller cannot be paused alone; to see the same lag, {kcm}\n"
        ),
        Directive::Resume(c) | Directive::Restart(c) if c.is_controller() => {
            format!(
                "# {line}: {kcm_back}; on start it lists everything and reconciles from current state\n"
            )
        }
        Directive::Pause(Component::Kubelet) | Directive::Crash(Component::Kubelet) => format!(
            "# {line}: stop a node's kubelet (on kind: docker exec kind-worker systemctl stop kubelet)\n"
        ),
        Directive::Resume(Component::Kubelet) | Directive::Restart(Component::Kubelet) => {
            format!("# {line}: docker exec kind-worker systemctl start kubelet\n")
        }
        Directive::Drop(..) => format!(
            "# {line}: cannot be staged: a real informer never loses an event (a watch resumes from its resourceVersion, or relists)\n"
        ),
        Directive::Trigger(..) => format!(
            "# {line}: cannot be staged: the built-in controllers are always level-triggered\n"
        ),
        Directive::AutoscalerTarget(n) => format!(
            "# {line}: an HPA that wants {n} replicas (needs metrics-server):\nkubectl autoscale deploy web --min={n} --max={n} --cpu-percent=80\n"
        ),
        Directive::GitopsEvery(every, mode, file) => {
            let file = file.unwrap_or_else(|| "gitops.yaml".into());
            let flags = if mode == ApplyMode::ServerSide {
                " --server-side --force-conflicts"
            } else {
                ""
            };
            format!(
                "# {line}: a GitOps-style loop (stop it with: kill %1)\nwhile sleep {every}; do kubectl apply -f {file}{flags} --field-manager=gitops-syncer; done &\n"
            )
        }
        Directive::Pause(_)
        | Directive::Resume(_)
        | Directive::Crash(_)
        | Directive::Restart(_) => {
            format!("# {line}\n")
        }
        Directive::Files | Directive::Cat(_) | Directive::Status | Directive::Help => {
            format!("# {line}\n")
        }
    }
}
