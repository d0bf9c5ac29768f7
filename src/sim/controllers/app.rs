//! The fake app a container runs, and how a terminating pod's containers stop (H4 and the
//! kubelet's `killContainer`): the preStop hook runs first, then the container gets
//! SIGTERM, and SIGKILL when the grace period ends. What the app does with SIGTERM is
//! part of its image: nginx, like most images, exits at once; an image whose reference
//! contains `ignores-sigterm` (`example.com/app:ignores-sigterm`) keeps serving until it
//! is killed.
//!
//! How the app answers its probes and its clients is part of the image too, read from
//! words in its reference (`example.com/app:slow-start-30`, several joined by `-` or `.`
//! as in `example.com/app:slow-start-20.fails-after-90`):
//!
//! - `slow-start-N`: listens only N seconds after its container starts;
//! - `fails-after-N`: stops answering (health checks and clients) N seconds after it
//!   starts, until the container is restarted;
//! - `never-ready`: answers liveness checks, but its readiness endpoint always says 503;
//! - anything else: answers at once and for ever.
//!
//! A preStop hook is read as the time it takes: `lifecycle.preStop.sleep.seconds`
//! (PodLifecycleSleepAction, on by default since 1.30), or an exec hook that runs
//! `sleep N` (`["sleep", "5"]`, `["/bin/sh", "-c", "sleep 5"]`); any other hook is taken
//! to return at once.

use serde_json::Value;

use crate::sim::stored::Stored;
use crate::sim::time::parse_rfc3339;

/// Images whose reference contains this ignore their stop signal: the kubelet kills them
/// when the grace period ends.
pub const IGNORES_SIGTERM: &str = "ignores-sigterm";

/// The pod's containers, read from the template without building the pod's own spec.
fn containers(pod: &Stored) -> &[Value] {
    pod.unfilled("spec")
        .and_then(|s| s.get("containers"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Whether one of the pod's containers ignores its stop signal: its image says so, or it
/// runs a shell script or `sleep` as its first process, which as PID 1 with no handler
/// of its own never sees SIGTERM (the kernel drops signals PID 1 does not handle).
pub fn ignores_sigterm(pod: &Stored) -> bool {
    containers(pod).iter().any(|c| {
        c["image"]
            .as_str()
            .is_some_and(|i| i.contains(IGNORES_SIGTERM))
            || exit_of(c).is_some_and(|_| pid1_shell_or_sleep(c))
    })
}

/// Whether the container's first process is a shell or `sleep`.
fn pid1_shell_or_sleep(container: &Value) -> bool {
    let first = container["command"][0]
        .as_str()
        .or_else(|| container["args"][0].as_str())
        .unwrap_or("");
    let name = first.rsplit('/').next().unwrap_or(first);
    name.ends_with("sh") || name == "sleep"
}

/// How the app in an image behaves, in seconds since its container started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Behaviour {
    pub slow_start: i64,
    pub fails_after: Option<i64>,
    pub never_ready: bool,
}

impl Behaviour {
    pub fn of(image: &str) -> Behaviour {
        let number_after = |word: &str| {
            let i = image.find(word)? + word.len();
            let digits: String = image[i..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<i64>().ok()
        };
        Behaviour {
            slow_start: number_after("slow-start-").unwrap_or(0),
            fails_after: number_after("fails-after-"),
            never_ready: image.contains("never-ready"),
        }
    }

    /// Whether the app listens and answers, `up` seconds after its container started.
    pub fn alive(&self, up: i64) -> bool {
        up >= self.slow_start && self.fails_after.is_none_or(|f| up < f)
    }

    /// Whether its readiness endpoint says yes.
    pub fn ready(&self, up: i64) -> bool {
        self.alive(up) && !self.never_ready
    }
}

/// How long a container's preStop hook runs, in seconds.
pub fn prestop_seconds(container: &Value) -> i64 {
    let hook = &container["lifecycle"]["preStop"];
    if let Some(s) = hook["sleep"]["seconds"].as_i64() {
        return s.max(0);
    }
    let words: Vec<&str> = hook["exec"]["command"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    // `sleep N`, alone or as the script of a shell.
    let script = match words.as_slice() {
        [sh, "-c", script, ..] if sh.ends_with("sh") => script.split_whitespace().collect(),
        _ => words,
    };
    match script.as_slice() {
        // Any sleep past a day outlasts every grace period the demo sees.
        [sleep, n, ..] if sleep.ends_with("sleep") => seconds(n).unwrap_or(0),
        _ => 0,
    }
}

/// How a container's process ends on its own: `after` seconds from its start, with exit
/// code `code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    pub after: i64,
    pub code: i64,
}

/// How the process a container runs ends, read from its `command` and `args` as a batch
/// job's usually are: `sleep N`, `exit N`, `true`, `false`, `echo`/`date`/`printf` (which
/// return at once), alone or as a shell script joined by `;` or `&&`
/// (`["sh", "-c", "echo start; sleep 5; exit 3"]`). `None` for a container that runs
/// its image's own entrypoint or a command the demo cannot read: a server, which runs
/// until it is stopped.
pub fn exit_of(container: &Value) -> Option<Exit> {
    let words: Vec<&str> = ["command", "args"]
        .iter()
        .flat_map(|k| container[*k].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    let script = match words.as_slice() {
        [] => return None,
        [sh, "-c", script, ..] if sh.ends_with("sh") => (*script).to_string(),
        _ => words.join(" "),
    };
    let (mut after, mut code) = (0i64, 0i64);
    // Each statement with the separator that follows it.
    let mut rest = script.as_str();
    while !rest.trim().is_empty() {
        let cut = [";", "&&", "\n"]
            .iter()
            .filter_map(|sep| rest.find(sep).map(|i| (i, sep.len(), *sep == "&&")))
            .min();
        let (statement, and_then) = match cut {
            Some((i, len, and)) => {
                let s = &rest[..i];
                rest = &rest[i + len..];
                (s, and)
            }
            None => (std::mem::take(&mut rest), false),
        };
        let words: Vec<&str> = statement.split_whitespace().collect();
        let name = words.first().map(|w| w.rsplit('/').next().unwrap_or(w));
        code = match (name, words.get(1)) {
            (None, _) => continue,
            (Some("sleep"), Some(n)) => {
                after = after.saturating_add(seconds(n)?);
                0
            }
            (Some("exit"), n) => {
                // The shell keeps the low 8 bits of the status.
                let status = n.map_or(Some(code), |n| n.parse::<i64>().ok())?;
                return Some(Exit {
                    after,
                    code: status.rem_euclid(256),
                });
            }
            (Some("true" | ":" | "echo" | "date" | "printf" | "hostname" | "env"), _) => 0,
            (Some("false"), _) => 1,
            _ => return None,
        };
        if and_then && code != 0 {
            break;
        }
    }
    Some(Exit { after, code })
}

/// `sleep`'s argument in whole seconds (`5`, `2.5`, `10s`), at most a day.
fn seconds(arg: &str) -> Option<i64> {
    arg.trim_end_matches('s')
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| s.ceil().min(86_400.0) as i64)
}

/// When a terminating pod's containers get SIGTERM and when they have all stopped, as
/// Unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    /// When the preStop hooks have returned (the longest one; they run side by side) and
    /// SIGTERM is sent; an app that exits on it stops answering here.
    pub sigterm: i64,
    /// When the last container has exited: the kubelet then removes the pod.
    pub exited: i64,
    /// The end of the grace period (`deletionTimestamp`): SIGKILL.
    pub killed: i64,
}

pub fn stop(pod: &Stored) -> Stop {
    let killed = pod
        .meta("deletionTimestamp")
        .and_then(Value::as_str)
        .and_then(parse_rfc3339)
        .unwrap_or(0);
    let grace = pod
        .meta("deletionGracePeriodSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let start = killed.saturating_sub(grace);
    let prestop = containers(pod)
        .iter()
        .map(prestop_seconds)
        .max()
        .unwrap_or(0);
    // A hook that outlives the grace period is cut short by SIGKILL.
    let sigterm = start.saturating_add(prestop).min(killed);
    // An app that exits on SIGTERM is gone within the second; one that ignores it, or a
    // pod deleted with no grace to speak of, at the end of the grace period.
    let exited = if grace <= 1 || ignores_sigterm(pod) {
        killed
    } else {
        sigterm.saturating_add(1).min(killed)
    };
    Stop {
        sigterm,
        exited,
        killed,
    }
}

/// The pod's IP, once it has one.
pub fn pod_ip(pod: &Stored) -> Option<&str> {
    // A status the kubelet keeps typed is read without building its JSON.
    if let Some(s) = pod.starting() {
        return s.ip();
    }
    let status = pod.field("status")?;
    status["podIPs"][0]["ip"]
        .as_str()
        .or_else(|| status["podIP"].as_str())
        .filter(|ip| !ip.is_empty())
}

/// Whether an app listens on `port`: the fake app listens on the ports its container
/// declares, and on 80 (nginx's) when it declares none.
pub fn listens_on(container: &Value, port: i64) -> bool {
    match container["ports"].as_array().filter(|p| !p.is_empty()) {
        Some(ports) => ports
            .iter()
            .any(|p| p["containerPort"].as_i64() == Some(port)),
        None => port == 80,
    }
}

/// Whether the app in a pod answers a request to `port` at Unix second `at`: some
/// container listens there, its containers run, and a terminating pod's app has not yet
/// exited (at SIGTERM for one that exits on it, at SIGKILL for one that ignores it).
pub fn answers(pod: &Stored, port: i64, at: i64) -> bool {
    if pod.pod_phase() != Some("Running") {
        return false;
    }
    if !containers(pod).iter().any(|c| listens_on(c, port)) {
        return false;
    }
    // Each container's app, counted from when the container (re)started; one not running
    // (restarting, in back-off) answers nothing.
    let statuses = pod
        .field("status")
        .and_then(|s| s["containerStatuses"].as_array())
        .map_or(&[][..], Vec::as_slice);
    for c in statuses {
        let Some(started) = c["state"]["running"]["startedAt"]
            .as_str()
            .and_then(parse_rfc3339)
        else {
            return false;
        };
        let image = c["image"].as_str().unwrap_or("");
        let b = Behaviour::of(image);
        if !b.ready(at - started) {
            return false;
        }
    }
    if !pod.facts().deleting {
        return true;
    }
    let s = stop(pod);
    if ignores_sigterm(pod) {
        at < s.killed
    } else {
        at < s.sigterm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_image_says_how_its_app_behaves() {
        let b = Behaviour::of("example.com/app:slow-start-20.fails-after-90");
        assert_eq!(
            b,
            Behaviour {
                slow_start: 20,
                fails_after: Some(90),
                never_ready: false
            }
        );
        assert!(!b.alive(19) && b.alive(20) && b.alive(89) && !b.alive(90));
        let n = Behaviour::of("example.com/app:never-ready");
        assert!(n.alive(0) && !n.ready(1000));
        assert_eq!(Behaviour::of("nginx:1.27"), Behaviour::default());
    }

    #[test]
    fn a_command_says_when_and_how_its_process_exits() {
        let exit = |c: Value| exit_of(&json!({"command": c}));
        assert_eq!(
            exit(json!(["sleep", "5"])),
            Some(Exit { after: 5, code: 0 })
        );
        assert_eq!(
            exit(json!(["sh", "-c", "echo start; sleep 3; exit 3"])),
            Some(Exit { after: 3, code: 3 })
        );
        assert_eq!(
            exit(json!(["/bin/sh", "-c", "sleep 2 && false && sleep 100"])),
            Some(Exit { after: 2, code: 1 })
        );
        assert_eq!(exit(json!(["date"])), Some(Exit { after: 0, code: 0 }));
        // The script may come as the first argument; the shell keeps 8 bits of status.
        assert_eq!(
            exit_of(&json!({"command": ["sh", "-c"], "args": ["exit 300"]})),
            Some(Exit { after: 0, code: 44 })
        );
        assert_eq!(
            exit_of(&json!({"args": ["sleep", "1.5"]})),
            Some(Exit { after: 2, code: 0 })
        );
        // A server, or a command the demo cannot read, runs until it is stopped.
        assert_eq!(exit_of(&json!({"image": "nginx"})), None);
        assert_eq!(exit(json!(["perl", "-wle", "print 1"])), None);
        assert_eq!(exit(json!(["sleep", "forever"])), None);
        assert_eq!(
            exit(json!(["sh", "-c", "exit -1"])),
            Some(Exit {
                after: 0,
                code: 255
            })
        );
    }

    #[test]
    fn prestop_hooks_are_read_as_how_long_they_sleep() {
        let c = |hook: Value| json!({"lifecycle": {"preStop": hook}});
        assert_eq!(prestop_seconds(&c(json!({"sleep": {"seconds": 5}}))), 5);
        assert_eq!(
            prestop_seconds(&c(json!({"exec": {"command": ["sleep", "10"]}}))),
            10
        );
        assert_eq!(
            prestop_seconds(&c(
                json!({"exec": {"command": ["/bin/sh", "-c", "sleep 3"]}})
            )),
            3
        );
        assert_eq!(
            prestop_seconds(&c(json!({"exec": {"command": ["nginx", "-s", "quit"]}}))),
            0
        );
        assert_eq!(prestop_seconds(&json!({"name": "app"})), 0);
        // Hostile values neither overflow nor go negative.
        assert_eq!(
            prestop_seconds(&c(json!({"exec": {"command": ["sleep", "1e300"]}}))),
            86_400
        );
        assert_eq!(
            prestop_seconds(&c(json!({"exec": {"command": ["sleep", "-5"]}}))),
            0
        );
        assert_eq!(
            prestop_seconds(&c(json!({"sleep": {"seconds": i64::MAX}}))),
            i64::MAX
        );
    }
}
