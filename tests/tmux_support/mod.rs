//! A tmux server of the test's own, a shell in it, and what a person would look at: the
//! pane, the prompt, the app's pid. Tests skip (with a note) where tmux is missing.
#![allow(dead_code)]

use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub const MARKER: &str = "KDTEST-PROMPT$";

pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("run tmux")
    }

    pub fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "kd"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "kd"]).stdout).into_owned()
    }

    /// Waits until the pane satisfies `ok`, returning it; panics with the pane after 30 s (a
    /// debug build on a loaded machine is slow to draw).
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let pane = self.capture();
            if ok(&pane) {
                return pane;
            }
            if start.elapsed() > Duration::from_secs(30) {
                panic!("timed out waiting for {what}; pane:\n{pane}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

pub fn last_line(pane: &str) -> &str {
    pane.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
}

/// A tmux server of our own with a 100x30 shell showing the marker prompt, or None
/// (with a printed note) when tmux is missing.
pub fn start(name: &str) -> Option<(Tmux, tempfile::TempDir, tempfile::TempDir)> {
    start_with(name, "")
}

/// As [`start`], with extra `VAR=value` words for the shell's environment.
pub fn start_with(name: &str, env: &str) -> Option<(Tmux, tempfile::TempDir, tempfile::TempDir)> {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("skipped: tmux is not installed");
        return None;
    }
    let config = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let tmux = Tmux {
        socket: format!("kubedrill-test-{name}-{}", std::process::id()),
    };
    let shell = format!(
        "env -i PATH=/usr/bin:/bin TERM=xterm-256color HOME={home} PS1='{MARKER} ' \
         KUBEDRILL_CONFIG_DIR={config} KUBEDRILL_DATA_DIR={data} {env} bash --norc --noprofile",
        home = config.path().display(),
        config = config.path().display(),
        data = data.path().display(),
    );
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "kd",
        "-x",
        "100",
        "-y",
        "30",
        &shell,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tmux.wait_for("the marker prompt", |p| last_line(p).starts_with(MARKER));
    Some((tmux, config, data))
}

/// The terminal is back to normal: main screen, prompt last, the shell runs commands.
pub fn assert_restored(tmux: &Tmux) {
    // A fresh, empty prompt: the command line that started the app also begins with the
    // marker, and shows again as soon as the app leaves the alternate screen, before the
    // app has exited and the shell reads input again.
    let pane = tmux.wait_for("the prompt back", |p| {
        last_line(p).trim_end() == MARKER && !p.contains("Topics")
    });
    let alt = tmux.run(&["display-message", "-p", "-t", "kd", "#{alternate_on}"]);
    assert_eq!(
        String::from_utf8_lossy(&alt.stdout).trim(),
        "0",
        "alternate screen left: {pane}"
    );
    // Raw mode is off and echo is on.
    tmux.send(&["echo restored-$((40+2))", "Enter"]);
    tmux.wait_for("the shell to run a command", |p| p.contains("restored-42"));
}

/// The app's pid: the shell's only child.
pub fn app_pid(tmux: &Tmux) -> Option<String> {
    let shell_pid = String::from_utf8_lossy(
        &tmux
            .run(&["display-message", "-p", "-t", "kd", "#{pane_pid}"])
            .stdout,
    )
    .trim()
    .to_string();
    let children = std::fs::read_to_string(format!("/proc/{shell_pid}/task/{shell_pid}/children"))
        .unwrap_or_default();
    children.split_whitespace().next().map(str::to_string)
}
