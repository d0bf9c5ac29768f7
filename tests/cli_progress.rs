//! `kubedrill stats`, `export` and `import` through the real binary.

use std::path::Path;

use assert_cmd::Command;
use kubedrill::study::store::Mode;
use kubedrill::study::time;
use kubedrill::study::{Grade, Progress, Store, StudyConfig};
use predicates::prelude::*;

fn kubedrill(config: &Path, data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("kubedrill").expect("binary");
    cmd.env("KUBEDRILL_CONFIG_DIR", config)
        .env("KUBEDRILL_DATA_DIR", data)
        .env_remove("NO_COLOR");
    cmd
}

/// Three grades today on two shipped questions, one of them a review-phase pass.
fn seed(data: &Path) {
    let now = time::now();
    let mut p =
        Progress::new(Store::open_dir(data, now).store, StudyConfig::default()).expect("progress");
    p.grade(
        "spec-vs-status",
        Grade::Easy,
        now - 3_000,
        2_000,
        Mode::Review,
    )
    .expect("grade");
    p.grade(
        "deleted-pod-returns",
        Grade::Good,
        now - 2_000,
        2_000,
        Mode::Review,
    )
    .expect("grade");
    p.grade(
        "deleted-pod-returns",
        Grade::Good,
        now - 1_000,
        2_000,
        Mode::Cram,
    )
    .expect("grade");
}

#[test]
fn stats_as_json_has_the_documented_keys() {
    let cfg = tempfile::tempdir().expect("cfg");
    let data = tempfile::tempdir().expect("data");
    seed(data.path());
    let out = kubedrill(cfg.path(), data.path())
        .args(["stats", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(v["reviews"]["total"], 3);
    assert_eq!(v["reviews"]["today"], 3);
    assert_eq!(
        v["due_today"], 1,
        "deleted-pod-returns is in a 10-minute learning step"
    );
    assert_eq!(v["retention"]["desired"], 0.9);
    assert!(
        v["retention"]["all_time"].is_null(),
        "no review-phase grades yet"
    );
    let levels: Vec<&str> = v["by_level"]
        .as_array()
        .expect("array")
        .iter()
        .map(|l| l["name"].as_str().expect("name"))
        .collect();
    assert_eq!(levels, ["junior", "middle", "senior", "principal"]);
    assert_eq!(v["streak"]["current"], 1);
    assert_eq!(v["forecast"].as_array().expect("forecast").len(), 30);

    kubedrill(cfg.path(), data.path())
        .arg("stats")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Reviews: 3 today, 3 in the last 30 days, 3 in all",
        ));
}

#[test]
fn export_and_import_round_trip_through_files() {
    let cfg = tempfile::tempdir().expect("cfg");
    let a = tempfile::tempdir().expect("a");
    let b = tempfile::tempdir().expect("b");
    seed(a.path());
    let file = cfg.path().join("progress.json");
    kubedrill(cfg.path(), a.path())
        .arg("export")
        .arg(&file)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("exported 3 reviews, 2 cards"));
    kubedrill(cfg.path(), b.path())
        .arg("import")
        .arg(&file)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("imported 3 reviews, 2 cards"));
    let first = std::fs::read_to_string(&file).expect("export");
    let again = kubedrill(cfg.path(), b.path())
        .arg("export")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(again).expect("utf8"), first);
}

#[test]
fn import_of_a_bad_file_says_where_and_changes_nothing() {
    let cfg = tempfile::tempdir().expect("cfg");
    let data = tempfile::tempdir().expect("data");
    let file = cfg.path().join("bad.json");
    std::fs::write(
        &file,
        "{\"format\": \"kubedrill-progress\",\n \"version\": \"one\"}",
    )
    .expect("w");
    kubedrill(cfg.path(), data.path())
        .arg("import")
        .arg(&file)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "error: {}:2:",
            file.display()
        )))
        .stderr(predicate::str::contains("not a kubedrill progress export"));
    assert!(!data.path().join("progress.db").exists());
}

#[test]
fn an_unusable_data_folder_is_reported_and_stats_still_run() {
    let cfg = tempfile::tempdir().expect("cfg");
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("not-a-folder");
    std::fs::write(&file, "").expect("file");
    let data = file.join("kubedrill");
    kubedrill(cfg.path(), &data)
        .arg("stats")
        .assert()
        .code(0)
        .stderr(predicate::str::contains(format!(
            "warning: the data folder {} could not be created",
            data.display()
        )))
        .stderr(predicate::str::contains("studying without saving progress"))
        .stdout(predicate::str::contains("(not saving"));
    kubedrill(cfg.path(), &data)
        .arg("export")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "error: cannot export without the progress store",
        ));
}

#[test]
fn data_dir_flag_beats_the_environment() {
    let cfg = tempfile::tempdir().expect("cfg");
    let env_dir = tempfile::tempdir().expect("env");
    let flag_dir = tempfile::tempdir().expect("flag");
    seed(flag_dir.path());
    kubedrill(cfg.path(), env_dir.path())
        .arg("--data-dir")
        .arg(flag_dir.path())
        .args(["stats", "--format", "json"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"total\": 3"));
}

#[test]
fn desired_retention_comes_from_config_toml() {
    let cfg = tempfile::tempdir().expect("cfg");
    let data = tempfile::tempdir().expect("data");
    std::fs::write(
        cfg.path().join("config.toml"),
        "desired_retention = 0.85\nnew_cards_per_day = 1\n",
    )
    .expect("config");
    let out = kubedrill(cfg.path(), data.path())
        .args(["stats", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(
        v["retention"]["desired"]
            .as_f64()
            .map(|r| (r * 100.0).round()),
        Some(85.0)
    );
    assert_eq!(v["new_available_today"], 1);

    std::fs::write(cfg.path().join("config.toml"), "desired_retention = 2\n").expect("config");
    kubedrill(cfg.path(), data.path())
        .arg("stats")
        .assert()
        .code(0)
        .stderr(predicate::str::contains("using the default study settings"));
}
