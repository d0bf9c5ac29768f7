//! `kubedrill stats`, `export` and `import` through the real binary.

mod history_support;
mod mock_support;

use std::path::Path;

use assert_cmd::Command;
use kubedrill::study::store::{Mode, TypedAnswerRecord};
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
    p.store
        .record_typed_answer(&TypedAnswerRecord {
            question_id: "spec-vs-status".into(),
            answered_at: now - 3_000,
            text: "spec is what I want,\nstatus is what is".into(),
            keypoints_covered: vec![0, 2],
            keypoints_total: 4,
            pitfalls_said: vec![1],
            grade: Grade::Easy,
        })
        .expect("typed answer");
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
    // Days are UTC days: in the last ten minutes of one, the step lands on the next.
    let now = time::now();
    let step_today = time::day_of(now + 10 * time::MINUTE_MS) == time::day_of(now);
    assert_eq!(
        v["due_today"],
        u64::from(step_today),
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
        .stdout(predicate::str::contains("imported 3 reviews, 2 cards"))
        .stdout(predicate::str::contains("and 1 typed answers"));
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

    // `kubedrill check` validates config.toml too: the study setting and the app's own.
    std::fs::write(
        cfg.path().join("config.toml"),
        "desired_retention = 2\ntheme = \"neon\"\n",
    )
    .expect("config");
    kubedrill(cfg.path(), data.path())
        .arg("check")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("config: ").and(predicate::str::contains("theme must be")))
        .stdout(predicate::str::contains("config.toml: 2 problem(s)"))
        .stdout(predicate::str::contains("using the default study settings"));
    std::fs::write(cfg.path().join("config.toml"), "desired_retention = 0.9\n").expect("config");
    kubedrill(cfg.path(), data.path())
        .arg("check")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("config: ").not());
}

/// Reads `kubedrill stats --format json`.
fn stats_json(cfg: &Path, data: &Path) -> serde_json::Value {
    let out = kubedrill(cfg, data)
        .args(["stats", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).expect("json")
}

#[test]
fn stats_show_past_mocks_and_quizzes_with_trends() {
    use history_support::*;
    use kubedrill::study::time::{date_label, day_of};
    let cfg = tempfile::tempdir().expect("cfg");
    let data = tempfile::tempdir().expect("data");
    let deck = mock_support::shipped_deck();
    let now = time::now();
    let (cards, results) = {
        let mut p = Progress::new(
            Store::open_dir(data.path(), now).store,
            StudyConfig::default(),
        )
        .expect("progress");
        seed_history(&mut p, &deck, now)
    };

    let v = stats_json(cfg.path(), data.path());
    // The keys from before history are all still there.
    for key in [
        "reviews",
        "due_today",
        "retention",
        "by_level",
        "mock_sessions",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
    assert_eq!(v["mock_sessions"], 5);
    let h = &v["history"];
    let mocks = h["mocks"].as_array().expect("mocks");
    assert_eq!(mocks.len(), 5);
    for (m, card) in mocks.iter().zip(&cards) {
        assert_eq!(m["overall"], card.overall(), "{m}");
        assert_eq!(m["passed"], card.passed(), "{m}");
        assert_eq!(m["scored"], card.results.len(), "{m}");
        assert_eq!(m["ended_early"], card.ended_early(), "{m}");
    }
    // The third (2 of 4 scored, strict, senior) and the last (2 of 3) ended early.
    assert_eq!(mocks[2]["planned"], 4);
    assert_eq!(mocks[2]["strictness"], "strict");
    assert_eq!(mocks[2]["level"], "senior");
    assert_eq!(mocks[4]["ended_early"], true);
    assert_eq!(mocks[0]["ended_early"], false);

    let quizzes = h["quizzes"].as_array().expect("quizzes");
    assert_eq!(quizzes.len(), 4);
    for (q, r) in quizzes.iter().zip(&results) {
        assert_eq!(q["correct"], r.correct, "{q}");
        assert_eq!(q["answered"], r.answered, "{q}");
        assert_eq!(q["percent"], r.percent(), "{q}");
        assert_eq!(
            q["rounds"].as_array().expect("rounds").len(),
            r.rounds.len()
        );
    }
    let rounds = quizzes[0]["rounds"].as_array().expect("rounds");
    assert_eq!(rounds[0]["kind"], "pitfall-or-fact");
    assert_eq!(
        rounds[0]["percent"], 50,
        "one of the two pitfall-or-fact items answered wrongly"
    );

    // Trends count finished sessions only (the two that ended early are listed, not
    // counted): the last three against the ones before.
    let overalls: Vec<u32> = cards
        .iter()
        .filter(|c| !c.ended_early())
        .map(|c| c.overall())
        .collect();
    assert_eq!(overalls.len(), 3);
    let mean = |xs: &[u32]| xs.iter().sum::<u32>() as f64 / xs.len() as f64;
    let t = &h["mock_trend"];
    assert_eq!(t["sessions"], 3);
    assert_eq!(t["best"], *overalls.iter().max().expect("max"));
    assert_eq!(t["recent_mean"].as_f64(), Some(mean(&overalls)));
    assert!(t["previous_mean"].is_null(), "{t}");
    let all_best = cards.iter().map(|c| c.overall()).max().expect("max");
    assert!(
        t["best"].as_u64() <= Some(u64::from(all_best)),
        "a best from a mock cut short would not count"
    );
    // The quiz trend too: quizzes answered in full only.
    let percents: Vec<u32> = results
        .iter()
        .zip(quizzes)
        .filter(|(_, q)| q["answered"].as_u64() >= q["planned"].as_u64())
        .map(|(r, _)| r.percent())
        .collect();
    assert!(percents.len() < results.len(), "a seeded quiz is partial");
    assert_eq!(
        h["quiz_trend"]["last"],
        *percents.last().expect("a full quiz")
    );
    assert_eq!(h["quiz_trend"]["sessions"], percents.len());
    // Asked for, the sessions cut short count too.
    let out = kubedrill(cfg.path(), data.path())
        .args(["stats", "--format", "json", "--include-partial"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let all: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(all["history"]["mock_trend"]["sessions"], 5);
    assert_eq!(all["history"]["quiz_trend"]["sessions"], results.len());

    // The weakest mock question has the lowest mean score; missed quiz questions are
    // flagged for review until graded.
    let weak = h["weakest_in_mocks"].as_array().expect("weak");
    assert!(!weak.is_empty() && weak.len() <= 5);
    let scores: Vec<f64> = weak
        .iter()
        .map(|w| w["mean_score"].as_f64().expect("f"))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
    let missed = h["most_missed_in_quizzes"].as_array().expect("missed");
    assert!(!missed.is_empty());
    let review: std::collections::BTreeSet<&str> = results
        .iter()
        .flat_map(|r| r.review.iter().map(String::as_str))
        .collect();
    assert_eq!(v["flagged_for_review"], review.len());
    assert!(missed.iter().all(|m| m["flagged"] == true));

    let out = kubedrill(cfg.path(), data.path())
        .arg("stats")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).expect("utf8");
    let long: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(long.is_empty(), "lines over 80 columns: {long:#?}");
    assert!(text.contains("Mock interviews: 5 (newest first)"), "{text}");
    assert!(text.contains("Quizzes: 4 (newest first)"), "{text}");
    assert!(text.contains("Mock trend: mean "), "{text}");
    assert!(text.contains("Quiz trend: mean "), "{text}");
    assert!(text.contains("Weakest in mocks"), "{text}");
    assert!(text.contains("Most missed in quizzes:"), "{text}");
    assert!(
        text.contains(&format!("Flagged for review: {} question(s)", review.len())),
        "{text}"
    );
    // The newest mock is listed first, with its date, and says it ended early.
    let newest = date_label(day_of(now - 86_400_000));
    let first_row = text
        .lines()
        .skip_while(|l| !l.starts_with("Mock interviews: 5 ("))
        .nth(2)
        .expect("a mock row");
    assert!(first_row.starts_with(&format!("  {newest}")), "{first_row}");
    assert!(
        first_row.contains("2/3") && first_row.ends_with("ended early"),
        "{first_row}"
    );
}

#[test]
fn a_mock_grade_on_a_card_in_review_counts_in_true_retention() {
    use history_support::*;
    use kubedrill::study::mock::{Mock, MockSetup};
    let cfg = tempfile::tempdir().expect("cfg");
    let data = tempfile::tempdir().expect("data");
    let deck = mock_support::shipped_deck();
    let now = time::now();
    let plan = mock_plan(1, 9, &[100, 0]);
    {
        let mut p = Progress::new(
            Store::open_dir(data.path(), now).store,
            StudyConfig::default(),
        )
        .expect("progress");
        // The mock's questions were learned two weeks ago: in the review phase by now.
        let setup = MockSetup {
            questions: 2,
            seed: plan.seed,
            ..MockSetup::default()
        };
        let ids: Vec<String> = Mock::new(&deck, setup)
            .expect("mock")
            .question_ids()
            .iter()
            .map(|s| s.to_string())
            .collect();
        for id in &ids {
            p.grade(id, Grade::Easy, now - 14 * 86_400_000, 1_000, Mode::Review)
                .expect("grade");
        }
        let card = play_mock(&mut p, &deck, &plan, now);
        assert_eq!(card.results.len(), 2);
    }
    let v = stats_json(cfg.path(), data.path());
    // All keypoints is a pass; none is Again, a fail. Both were recall tests of cards in
    // review, so both count.
    assert_eq!(v["retention"]["passed"], 1);
    assert_eq!(v["retention"]["failed"], 1);
    assert_eq!(v["retention"]["from_mocks"], 2);
    assert_eq!(v["retention"]["all_time"], 0.5);
}
