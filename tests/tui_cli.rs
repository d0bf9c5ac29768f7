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
