//! Every kind of content error, one fixture file each (in the style of bottom's
//! invalid-config tests): the message, the line and column, and the help where there is one.

use std::path::{Path, PathBuf};

use kubedrill::content::{self, Diagnostic};
use kubedrill::sim::catalog::SimCatalog;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/bad-content")
        .join(name)
}

fn check(name: &str) -> Vec<Diagnostic> {
    let (sources, errors) = content::read_paths(&[fixture(name)]);
    let loaded = content::load(sources, errors, &SimCatalog);
    assert!(
        loaded.deck.questions.is_empty(),
        "{name}: a broken file must load nothing"
    );
    loaded.diagnostics
}

/// (file, line, column, message fragment, help fragment)
const CASES: &[(&str, usize, usize, &str, &str)] = &[
    ("syntax.toml", 13, 13, "invalid TOML", ""),
    (
        "unknown-key.toml",
        10,
        1,
        "unknown key `promt` in [[question]]",
        "did you mean `prompt`?",
    ),
    (
        "unknown-table-key.toml",
        51,
        1,
        "unknown key `why_not` in [[question.pitfall]]",
        "did you mean `why`?",
    ),
    (
        "missing-key.toml",
        8,
        1,
        "missing required key `prompt` in [[question]]",
        "",
    ),
    (
        "no-pitfall.toml",
        8,
        1,
        "missing required key `pitfall`",
        "",
    ),
    (
        "missing-topic.toml",
        1,
        1,
        "missing the [topic] table",
        "[topic]",
    ),
    (
        "bad-level.toml",
        11,
        9,
        "invalid level `expert`",
        "junior, middle, senior, principal",
    ),
    (
        "bad-importance.toml",
        12,
        14,
        "invalid importance `critical`",
        "must-know, should-know, nice-to-know",
    ),
    (
        "frequency-range.toml",
        13,
        13,
        "`frequency` is out of range: must be 0 to 100",
        "",
    ),
    ("seconds-zero.toml", 19, 11, "`seconds` is out of range", ""),
    (
        "wrong-type.toml",
        13,
        13,
        "`frequency` must be an integer, found a string",
        "",
    ),
    ("empty-string.toml", 20, 8, "`text` must not be empty", ""),
    ("escape-char.toml", 10, 21, "U+001B (escape)", "control"),
    (
        "bidi-char.toml",
        49,
        18,
        "U+202E (right-to-left override)",
        "reorder",
    ),
    ("zero-width.toml", 15, 35, "U+200B (zero-width space)", ""),
    ("tab-char.toml", 24, 15, "U+0009 (tab)", "spaces"),
    ("not-kebab-id.toml", 9, 6, "is not kebab-case", ""),
    (
        "unknown-scenario.toml",
        53,
        12,
        "unknown demo scenario `spec-stat`",
        "spec-status, self-healing, apply-semantics, field-fight, ownership, rollout",
    ),
    (
        "bad-goal.toml",
        59,
        30,
        "invalid challenge goal: unexpected `=`",
        "==",
    ),
    (
        "goal-path-misspelt.toml",
        59,
        39,
        "invalid challenge goal: `deploy.spec` has no field `replica`",
        "did you mean `deploy.spec.replicas`?",
    ),
    (
        "goal-path-into-value.toml",
        59,
        30,
        "`deploy.spec.replicas` is a single value",
        "",
    ),
    (
        "goal-path-condition-dot.toml",
        59,
        33,
        "`newrs.status.conditions` is a list of conditions: pick one by its type",
        "newrs.status.conditions[Available].status",
    ),
    (
        "goal-call-choice.toml",
        59,
        14,
        "`pods()` does not know \"redy\"",
        "valid values: ready, pending, running, terminating",
    ),
    (
        "frequency-no-source.toml",
        13,
        13,
        "`frequency` needs a `frequency_source`",
        "or leave both out",
    ),
    (
        "source-no-frequency.toml",
        13,
        20,
        "`frequency_source` without a `frequency`",
        "add `frequency = N`",
    ),
    (
        "hint-and-hints.toml",
        59,
        9,
        "a challenge has `hint` or `hints`, not both",
        "hints = [\"Pause it.\", ...]",
    ),
    (
        "bad-runnable-line.toml",
        40,
        9,
        "unknown command \"frobnicate\" for \"kubectl\"",
        "supported:",
    ),
    ("bad-flag-line.toml", 54, 11, "unknown flag: --replica", ""),
    (
        "bad-setup-line.toml",
        54,
        11,
        "`helm` is not a kubectl command",
        "tick",
    ),
    (
        "duplicate-id.toml",
        62,
        6,
        "duplicate question id `fixture-question`",
        "unique",
    ),
];

#[test]
fn each_bad_fixture_reports_its_error_where_it_is() {
    for &(file, line, col, message, help) in CASES {
        let diags = check(file);
        assert_eq!(
            diags.len(),
            1,
            "{file}: expected exactly one problem, got {diags:#?}"
        );
        let d = &diags[0];
        assert!(
            d.message.contains(message),
            "{file}: message {:?} lacks {message:?}",
            d.message
        );
        assert_eq!(
            (d.line, d.col),
            (line, col),
            "{file}: wrong location for {:?}",
            d.message
        );
        assert!(d.file.ends_with(file), "{file}: names {}", d.file);
        if !help.is_empty() {
            let h = d.help.as_deref().unwrap_or("");
            assert!(h.contains(help), "{file}: help {h:?} lacks {help:?}");
        }
    }
}

#[test]
fn every_fixture_file_is_covered_by_a_case() {
    let mut files: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    files.sort();
    for f in files {
        let covered = CASES.iter().any(|c| c.0 == f) || f == "not-utf8.toml";
        assert!(covered, "{f} has no asserted case");
    }
}

#[test]
fn duplicate_ids_across_files_point_at_both() {
    let (sources, errors) = content::read_paths(&[fixture("duplicate-across")]);
    let loaded = content::load(sources, errors, &SimCatalog);
    // The first file keeps its question; the second, with the duplicate, loads nothing.
    assert_eq!(loaded.deck.questions.len(), 1);
    assert_eq!(loaded.diagnostics.len(), 1, "{:#?}", loaded.diagnostics);
    let d = &loaded.diagnostics[0];
    assert!(d.file.ends_with("b.toml"));
    assert_eq!((d.line, d.col), (9, 6));
    assert!(d.label.as_deref().unwrap().contains("a.toml:9:6"), "{d:?}");
}

#[test]
fn non_utf8_file_names_the_byte_and_place() {
    let diags = check("not-utf8.toml");
    assert_eq!(diags.len(), 1);
    assert_eq!(
        diags[0].message,
        "file is not valid UTF-8: invalid byte 0xFF at line 19, column 15"
    );
}

#[test]
fn oversized_file_is_refused_without_reading_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.toml");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(content::MAX_FILE_BYTES + 1).unwrap();
    let (sources, errors) = content::read_paths(&[path]);
    assert!(sources.is_empty());
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.starts_with("file is too large"),
        "{}",
        errors[0].message
    );
}

#[test]
fn all_problems_in_a_file_are_reported_together_in_order() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/good/minimal.toml"),
    )
    .unwrap();
    let text = base
        .replace("level = \"junior\"", "level = \"guru\"")
        .replace("frequency = 50", "frequency = 101")
        .replace("why = \"The correction.\"", "why = \"\"");
    let src = content::Source::new("many.toml", text, content::Origin::User);
    let loaded = content::load(vec![src], vec![], &SimCatalog);
    let lines: Vec<usize> = loaded.diagnostics.iter().map(|d| d.line).collect();
    assert_eq!(lines, [11, 13, 50], "{:#?}", loaded.diagnostics);
}

#[test]
fn a_broken_user_file_does_not_hide_the_shipped_content() {
    let (user, errors) = content::read_paths(&[fixture("bad-level.toml")]);
    let loaded = content::load_over(content::shipped(), user, errors, &SimCatalog);
    assert_eq!(loaded.broken_files.len(), 1);
    assert!(loaded.broken_files[0].ends_with("bad-level.toml"));
    assert_eq!(loaded.deck, content::shipped().deck);
}

/// A user file that reuses a shipped id is told where the shipped one is, as when both
/// were parsed in one load: the prebuilt deck keeps the places of its ids.
#[test]
fn a_user_id_that_is_shipped_points_at_the_shipped_file() {
    let text = std::fs::read_to_string(fixture("../good/minimal.toml"))
        .unwrap()
        .replace("id = \"fixture-question\"", "id = \"spec-vs-status\"")
        .replace("id = \"fixture-topic\"", "id = \"workloads\"");
    let user = || {
        vec![content::Source::new(
            "mine.toml",
            text.clone(),
            content::Origin::User,
        )]
    };
    let over = content::load_over(content::shipped(), user(), vec![], &SimCatalog);
    let mut all = content::shipped_sources();
    all.extend(user());
    let parsed = content::load(all, vec![], &SimCatalog);
    let shown = |l: &content::Loaded| -> Vec<String> {
        l.diagnostics
            .iter()
            .map(|d| format!("{} {}", d.message, d.label.clone().unwrap_or_default()))
            .collect()
    };
    let messages = shown(&over);
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(
        messages[0]
            .starts_with("duplicate topic id `workloads` first defined at content/workloads.toml:"),
        "{messages:#?}"
    );
    assert!(
        messages[1].starts_with(
            "duplicate question id `spec-vs-status` first defined at content/reconciliation.toml:"
        ),
        "{messages:#?}"
    );
    assert_eq!(messages, shown(&parsed));
    assert_eq!(over.broken_files, ["mine.toml"]);
    assert_eq!(over.deck, parsed.deck);
}
