//! The app never outlives its terminal: closed under each mode (the tmux server killed,
//! so the pty hangs up), it is gone within two seconds, SIGHUP or not; and a signal from
//! outside (TERM, HUP, INT, QUIT) gives the terminal back as it was. Skipped without tmux.

mod tmux_support;

use std::process::Command;
use std::time::{Duration, Instant};

use tmux_support::{Tmux, app_pid, assert_restored, start};

/// Waits until `pid` has exited (gone, or a zombie nobody reaped); false after `limit`.
fn exits_within(pid: &str, limit: Duration) -> bool {
    let start = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next());
        if stat.is_empty() || state == Some("Z") {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Opens one mode as a person would and brings it to the state named, ready to be closed.
fn open_mode(tmux: &Tmux, prefix: &str, mode: &str) {
    let bin = env!("CARGO_BIN_EXE_kubedrill");
    match mode {
        "home" => {
            tmux.send(&[&format!("{prefix}{bin}"), "Enter"]);
            tmux.wait_for("the topics screen", |p| p.contains("Topics"));
        }
        "study" => {
            tmux.send(&[&format!("{prefix}{bin} study --cram"), "Enter"]);
            tmux.wait_for("a card in review", |p| {
                p.contains("cram (schedule untouched)")
            });
        }
        "quiz" => {
            tmux.send(&[&format!("{prefix}{bin} quiz"), "Enter"]);
            tmux.wait_for("the quiz setup", |p| p.contains("quiz setup"));
            tmux.send(&["Enter"]);
            tmux.wait_for("the first item", |p| p.contains("item 1 of"));
        }
        "mock" => {
            tmux.send(&[
                &format!("{prefix}{bin} mock --questions 2 --seed 7"),
                "Enter",
            ]);
            tmux.wait_for("the setup", |p| p.contains("Mock interview"));
            tmux.send(&["Enter"]);
            tmux.wait_for("the first question", |p| p.contains("starts the clock"));
            tmux.send(&["Enter"]);
            tmux.wait_for("the clock past one second", |p| p.contains("0:01 0:"));
        }
        "demo" => {
            tmux.send(&[&format!("{prefix}{bin} demo deleted-pod-returns"), "Enter"]);
            tmux.wait_for("the demo", |p| p.contains("ReplicaSets and pods"));
            tmux.send(&["Space"]);
        }
        other => panic!("no mode {other}"),
    }
}

const MODES: [&str; 5] = ["home", "study", "quiz", "mock", "demo"];

fn closed_under(mode: &str, prefix: &str, tag: &str) {
    let Some((tmux, _config, _data)) = start(&format!("{tag}-{mode}")) else {
        return;
    };
    open_mode(&tmux, prefix, mode);
    let Some(pid) = app_pid(&tmux) else {
        println!("skipped: cannot find the app's pid (no /proc children list)");
        return;
    };
    // The terminal vanishes: its pty reads end-of-file from now on.
    let _ = tmux.run(&["kill-server"]);
    let alive = !exits_within(&pid, Duration::from_secs(2));
    if alive {
        let _ = Command::new("kill").args(["-KILL", &pid]).status();
    }
    assert!(
        !alive,
        "kubedrill ({mode}) still ran 2 s after its terminal went away"
    );
}

#[test]
fn every_mode_exits_within_two_seconds_when_its_terminal_goes_away() {
    for mode in MODES {
        closed_under(mode, "", "gone");
    }
}

/// The same with SIGHUP blocked, as some launchers leave it: the hang-up itself (the tty
/// reading end-of-file) must end the app, not only the signal that usually comes with it.
#[test]
fn a_hang_up_is_noticed_without_its_signal() {
    if Command::new("python3").arg("-V").output().is_err() {
        println!("skipped: no python3 to block SIGHUP with");
        return;
    }
    let prefix = "python3 -c 'import os,signal,sys; \
                  signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP}); \
                  os.execv(sys.argv[1], sys.argv[1:])' ";
    for mode in ["home", "demo", "mock"] {
        closed_under(mode, prefix, "nohup");
    }
}

#[test]
fn each_stopping_signal_gives_the_terminal_back() {
    for (signal, mode) in [
        ("TERM", "home"),
        ("HUP", "demo"),
        ("INT", "quiz"),
        ("QUIT", "mock"),
    ] {
        let Some((tmux, _config, _data)) = start(&format!("sig-{signal}")) else {
            return;
        };
        open_mode(&tmux, "", mode);
        let Some(pid) = app_pid(&tmux) else {
            println!("skipped: cannot find the app's pid (no /proc children list)");
            return;
        };
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(status.success());
        assert_restored(&tmux);
        assert!(
            exits_within(&pid, Duration::from_secs(2)),
            "SIG{signal} in {mode}: still running"
        );
    }
}
