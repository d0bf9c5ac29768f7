//! `kubedrill` and `kubedrill study` open the terminal app; without a terminal they say so.

use assert_cmd::Command;

fn kubedrill(config: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("kubedrill").unwrap();
    c.env("KUBEDRILL_CONFIG_DIR", config).env_remove("NO_COLOR");
    c
}

#[test]
fn bare_and_study_need_a_terminal() {
    let cfg = tempfile::tempdir().unwrap();
    for args in [&[][..], &["study"][..]] {
        let out = kubedrill(cfg.path())
            .args(args)
            .write_stdin("")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("needs a terminal"), "{err}");
        assert!(out.stdout.is_empty(), "nothing drawn on a pipe");
    }
}

#[test]
fn study_is_in_the_help() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path()).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("study"), "{help}");
}

#[test]
fn demo_names_an_unknown_question_and_suggests_the_nearest() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .args(["demo", "deleted-pod-return"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no question with id `deleted-pod-return`"),
        "{err}"
    );
    assert!(err.contains("did you mean `deleted-pod-returns`?"), "{err}");
    // A known id without a terminal gets the terminal message, not a demo on a pipe.
    let out = kubedrill(cfg.path())
        .args(["demo", "deleted-pod-returns"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    assert!(out.stdout.is_empty());
    let help = kubedrill(cfg.path()).arg("--help").output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("demo"));
}

/// `mock` and `quiz` check their options before taking the terminal: a usage error is 2,
/// an unknown topic or an impossible draw is 1 with what is known, and good options
/// without a terminal get the terminal message.
#[test]
fn mock_and_quiz_options_are_checked_before_the_terminal() {
    let cfg = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = kubedrill(cfg.path())
            .args(args)
            .write_stdin("")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["mock", "--questions", "0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--questions"), "{err}");
    let (code, err) = run(&["mock", "--strictness", "harsh"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("valid: lenient, standard, strict"), "{err}");
    let (code, err) = run(&["quiz", "--rounds", "pitfall-or-fact,trivia"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown round `trivia`"), "{err}");

    let (code, err) = run(&["mock", "--topic", "networking"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no topic with id `networking`"), "{err}");
    assert!(
        err.contains("topics: desired-state-reconciliation, control-loop"),
        "{err}"
    );
    let (code, err) = run(&["quiz", "--topic", "networking"]);
    assert_eq!(code, Some(1), "{err}");

    for args in [
        &["mock", "--questions", "2", "--seed", "7"][..],
        &["quiz", "--rounds", "which-question", "--per-round", "3"][..],
    ] {
        let (code, err) = run(args);
        assert_eq!(code, Some(1), "{args:?}");
        assert!(err.contains("needs a terminal"), "{err}");
    }
}
