//! `list`, `show` and `check` through the real binary: output and exit codes.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

/// The binary with a private, empty config folder so the user's own content never leaks in.
fn kubedrill(config: &Path) -> Command {
    let mut cmd = Command::cargo_bin("kubedrill").unwrap();
    cmd.env("KUBEDRILL_CONFIG_DIR", config)
        .env_remove("NO_COLOR");
    cmd
}

fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

#[test]
fn check_of_the_shipped_content_is_clean() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path())
        .arg("check")
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("ok: "))
        .stdout(predicate::str::contains("no problems"));
}

#[test]
fn check_of_a_bad_file_prints_rustc_style_and_exits_1() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .arg("check")
        .arg(fixtures().join("bad-content/bad-level.toml"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("error: invalid level `expert`"), "{out}");
    assert!(out.contains("bad-level.toml:11:9"), "{out}");
    assert!(out.contains("11 | level = \"expert\""), "{out}");
    assert!(out.contains("^^^^^^^^ not a valid level"), "{out}");
    assert!(
        out.contains("help: valid values: junior, middle, senior, principal"),
        "{out}"
    );
    // Not a terminal: no escape codes.
    assert!(!out.contains('\x1b'), "{out}");
}

#[test]
fn check_reports_every_file_of_a_folder_together() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .arg("check")
        .arg(fixtures().join("bad-content"))
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    for file in [
        "syntax.toml",
        "bidi-char.toml",
        "not-utf8.toml",
        "duplicate-across/b.toml",
    ] {
        assert!(out.contains(file), "{file} missing from:\n{out}");
    }
}

#[test]
fn check_of_a_good_file_exits_0() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path())
        .arg("check")
        .arg(fixtures().join("good/minimal.toml"))
        .assert()
        .code(0)
        .stdout("ok: 1 question(s) in 1 topic(s), 1 file(s) checked, no problems\n");
}

#[test]
fn a_missing_path_is_an_input_error() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path())
        .args(["check", "/nonexistent/kubedrill"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("cannot open"));
}

#[test]
fn usage_errors_exit_2() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path()).arg("frobnicate").assert().code(2);
    kubedrill(cfg.path())
        .args(["list", "--format", "xml"])
        .assert()
        .code(2);
    kubedrill(cfg.path()).arg("show").assert().code(2);
}

#[test]
fn list_shows_the_four_seed_questions() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .arg("list")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("ID "), "{out}");
    assert!(lines[0].ends_with("SCENARIO"));
    let row = lines
        .iter()
        .find(|l| l.starts_with("spec-vs-status "))
        .expect("spec-vs-status row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "spec-vs-status",
            "desired-state-reconciliation",
            "junior",
            "must-know",
            "72%",
            "spec-status"
        ]
    );
    for id in [
        "deleted-pod-returns",
        "create-replace-apply",
        "replica-count-fight",
    ] {
        assert!(out.contains(id), "{id} missing");
    }
}

#[test]
fn list_json_has_the_contract_fields() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .args(["list", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let rows: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let rows = rows.as_array().unwrap();
    // One row per shipped question, whatever the size of the deck, each with every field.
    let shipped = kubedrill::content::load(
        kubedrill::content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    )
    .deck;
    assert_eq!(rows.len(), shipped.questions.len());
    for row in rows {
        for key in ["id", "topic", "level", "importance", "scenario", "prompt"] {
            assert!(!row[key].is_null(), "{key} missing in {row}");
        }
        // A figure only with its source; both present as keys, null when unmeasured.
        let (f, src) = (&row["frequency"], &row["frequency_source"]);
        assert!(row.get("frequency").is_some() && row.get("frequency_source").is_some());
        assert_eq!(f.is_null(), src.is_null(), "{row}");
        assert!(f.is_null() || f.is_u64(), "{row}");
    }
    // Only the four seed questions have a measured figure, and the page they came from
    // is named.
    let sourced: Vec<(&str, u64)> = rows
        .iter()
        .filter_map(|r| Some((r["id"].as_str()?, r["frequency"].as_u64()?)))
        .collect();
    assert_eq!(
        sourced,
        [
            ("spec-vs-status", 72),
            ("deleted-pod-returns", 58),
            ("create-replace-apply", 48),
            ("replica-count-fight", 34)
        ]
    );
    let fight = rows
        .iter()
        .find(|r| r["id"] == "replica-count-fight")
        .unwrap();
    assert_eq!(fight["topic"], "desired-state-reconciliation");
    assert_eq!(fight["level"], "senior");
    assert_eq!(fight["importance"], "should-know");
    assert_eq!(fight["frequency"], 34);
    assert_eq!(fight["scenario"], "field-fight");
}

#[test]
fn show_prints_tiers_in_order_without_escapes() {
    let out = show("spec-vs-status");
    assert!(!out.contains('\x1b'));
    let order = [
        "Question",
        "Keypoints",
        "Basics (about 10 s)",
        "Solid answer (about 50 s)",
        "Going deeper",
        "For a junior:",
        "For a principal:",
        "Explainer",
        "Code (bash)",
        "Follow-ups",
        "Analogy",
        "Pitfalls",
        "Demo: scenario `spec-status`",
    ];
    let mut at = 0;
    for heading in order {
        let found = out[at..]
            .find(heading)
            .unwrap_or_else(|| panic!("{heading} missing or out of order"));
        at += found + heading.len();
    }
}

#[test]
fn show_of_an_unknown_id_suggests_the_nearest() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path())
        .args(["show", "spec-vs-stats"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "no question with id `spec-vs-stats`",
        ))
        .stderr(predicate::str::contains("did you mean `spec-vs-status`?"));
}

#[test]
fn user_content_folders_add_questions_and_broken_ones_only_warn() {
    let cfg = tempfile::tempdir().unwrap();
    let good = fixtures().join("good");
    let out = kubedrill(cfg.path())
        .arg("--content")
        .arg(&good)
        .arg("list")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8(out).unwrap().contains("fixture-question"));

    // A broken file in the config folder: list still works, with a warning naming it.
    let content = cfg.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::copy(
        fixtures().join("bad-content/bad-goal.toml"),
        content.join("mine.toml"),
    )
    .unwrap();
    kubedrill(cfg.path())
        .arg("list")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("spec-vs-status"))
        .stderr(predicate::str::contains("mine.toml"));
    kubedrill(cfg.path())
        .arg("check")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("mine.toml:59:30"));
}

#[test]
fn sim_without_a_scenario_names_them_and_exits_2() {
    let cfg = tempfile::tempdir().unwrap();
    kubedrill(cfg.path())
        .arg("sim")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "one of spec-status, self-healing, apply-semantics, field-fight",
        ));
}

#[test]
fn sim_export_writes_the_script_alone_on_stdout() {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .args(["sim", "spec-status", "--export", "--echo"])
        .write_stdin("kubectl scale deploy web --replicas=4\ntick 3\nkubectl get pods\n")
        .assert()
        .code(0)
        .get_output()
        .clone();
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.starts_with("#!/usr/bin/env bash\n"), "{script}");
    assert!(
        script.contains("kubectl scale deploy web --replicas=4"),
        "{script}"
    );
    // What the lines printed went to stderr, not into the script.
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("deployment.apps/web scaled"), "{err}");
    assert!(!script.contains("deployment.apps/web scaled"), "{script}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("replay.sh");
    std::fs::write(&file, &script).unwrap();
    if let Ok(status) = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .status()
    {
        assert!(status.success(), "bash -n rejected the script:\n{script}");
    }
}

#[test]
fn check_of_a_folder_with_a_link_to_its_ancestor_ends_and_says_where() {
    let cfg = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
    std::fs::copy(
        fixtures().join("good/minimal.toml"),
        dir.path().join("a/q.toml"),
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path(), dir.path().join("a/b/up")).unwrap();
    let out = kubedrill(cfg.path())
        .arg("check")
        .arg(dir.path())
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stdout);
    if cfg!(unix) {
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains("symlink loop"), "{text}");
        assert!(text.contains("a/b/up"), "{text}");
    }
}

/// What `kubedrill show ID` prints, with the exit code checked.
fn show(id: &str) -> String {
    let cfg = tempfile::tempdir().unwrap();
    let out = kubedrill(cfg.path())
        .args(["show", id])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn show_names_the_source_of_a_figure_and_shows_none_without_one() {
    let sourced = show("spec-vs-status");
    assert!(sourced.contains("asked in 72% of interviews"), "{sourced}");
    assert!(sourced.contains("frequency source: the Desired-State Reconciliation question page"));
    let unsourced = show("work-queue");
    assert!(!unsourced.contains("asked in"), "{unsourced}");
    assert!(
        !unsourced.contains('%'),
        "no percentage at all: {unsourced}"
    );
}

/// `kubedrill search` looks through every question of every topic, every field, case
/// ignored; one row per question with the field and the text around the match; exit 1 when
/// nothing matches, as grep.
#[test]
fn search_finds_text_in_any_field_of_any_topic() {
    let cfg = tempfile::tempdir().expect("cfg");
    let out = kubedrill(cfg.path())
        .args(["search", "GITOPS"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("utf-8");
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 4), "{text}");
    let topics: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[1]).collect();
    assert!(topics.len() >= 2, "more than one topic: {text}");
    assert!(
        rows.iter()
            .any(|r| r[0] == "replica-count-fight" && r[2] == "keypoint"),
        "{text}"
    );
    assert!(
        rows.iter().all(|r| r[3].to_lowercase().contains("gitops")),
        "{text}"
    );
    let json = kubedrill(cfg.path())
        .args(["search", "gitops", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(rows.len()));
    assert!(v[0]["snippet"].is_string() && v[0]["level"].is_string());
    kubedrill(cfg.path())
        .args(["search", "no-such-words-anywhere"])
        .assert()
        .code(1)
        .stdout("");
}

/// `kubedrill sim --help` names every scenario the demo ships, so a new one is not missed.
#[test]
fn sim_help_names_every_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let out = kubedrill(dir.path())
        .args(["sim", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    for id in kubedrill::sim::scenario::SCENARIO_IDS {
        assert!(help.contains(id), "sim --help lacks {id}: {help}");
    }
}
