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
