//! The shipped deck: it loads cleanly and every question fills every field the format has.

use kubedrill::content::{self, Level, Question};
use kubedrill::sim::catalog::SimCatalog;

fn deck() -> content::Deck {
    let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
    assert!(loaded.is_clean(), "{}", loaded.render(false));
    loaded.deck
}

/// What a start decodes is what parsing the shipped files gives, places of ids included.
#[test]
fn the_deck_packed_at_build_time_is_the_deck_the_files_load_to() {
    let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
    let packed = content::shipped();
    assert_eq!(packed, content::Prebuilt::from_loaded(&loaded).unwrap());
    assert_eq!(
        packed.files,
        content::SHIPPED.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    );
    // Each place is the line of the id: `id = "..."`.
    for (q, at) in packed.deck.questions.iter().zip(&packed.question_at) {
        let text = content::SHIPPED[at.file as usize].1;
        let line = text.lines().nth(at.line as usize - 1).unwrap();
        assert!(line.contains(&format!("id = \"{}\"", q.id)), "{line}");
    }
}

#[test]
fn the_four_seed_questions_have_their_fixed_metadata() {
    let deck = deck();
    let expect = [
        (
            "spec-vs-status",
            "junior",
            "must-know",
            72,
            "spec-status",
            10,
        ),
        (
            "deleted-pod-returns",
            "middle",
            "must-know",
            58,
            "self-healing",
            20,
        ),
        (
            "create-replace-apply",
            "middle",
            "should-know",
            48,
            "apply-semantics",
            20,
        ),
        (
            "replica-count-fight",
            "senior",
            "should-know",
            34,
            "field-fight",
            20,
        ),
    ];
    for (id, level, importance, freq, scenario, basics) in expect {
        let q = deck.question(id).unwrap_or_else(|| panic!("{id} missing"));
        assert_eq!(q.topic, "desired-state-reconciliation");
        assert_eq!(q.level.as_str(), level, "{id}");
        assert_eq!(q.importance.as_str(), importance, "{id}");
        assert_eq!(q.frequency, Some(freq), "{id}");
        assert!(
            q.frequency_source
                .as_deref()
                .is_some_and(|s| s.contains("question page")),
            "{id}: the figure names its source"
        );
        assert_eq!(q.demo.scenario, scenario, "{id}");
        assert_eq!(q.basics.seconds, basics, "{id}");
        assert_eq!(q.solid.seconds, 50, "{id}");
    }
    let topic = deck.topic("desired-state-reconciliation").unwrap();
    assert_eq!(topic.title, "Desired-State Reconciliation");
    assert_eq!(topic.part_of.as_deref(), Some("Kubernetes"));
    assert!(topic.summary.is_some() && !topic.roadmaps.is_empty());
}

fn assert_full(q: &Question) {
    let id = &q.id;
    assert!(q.keypoints.len() >= 3, "{id}: keypoints");
    assert!(q.analogy.is_some(), "{id}: analogy");
    for level in Level::ALL {
        assert!(q.deeper.at(*level).is_some(), "{id}: deeper.{level}");
    }
    assert!(
        q.explainer
            .as_ref()
            .is_some_and(|e| e.split_whitespace().count() >= 250),
        "{id}: explainer"
    );
    assert!(
        q.code
            .iter()
            .any(|c| c.runnable && c.lines().all(|l| l.starts_with("kubectl "))),
        "{id}: runnable kubectl code"
    );
    assert!(
        q.code.iter().all(|c| c.caption.is_some()),
        "{id}: code captions"
    );
    assert!(q.followups.len() >= 2, "{id}: follow-ups");
    assert!(q.pitfalls.len() >= 4, "{id}: pitfalls");
    assert!(q.demo.challenges.len() >= 2, "{id}: challenges");
    assert!(
        q.demo.challenges.iter().all(|c| !c.hints.is_empty()),
        "{id}: challenge hints"
    );
    // The solid answer is about 50 s of speech: roughly 100 to 170 words.
    let words = q.solid.text.split_whitespace().count();
    assert!(
        (90..=180).contains(&words),
        "{id}: solid answer has {words} words"
    );
}

#[test]
fn every_shipped_question_fills_every_field() {
    let deck = deck();
    assert!(!deck.questions.is_empty());
    for q in &deck.questions {
        assert_full(q);
    }
}

#[test]
fn the_deck_spans_every_level_and_every_subject() {
    let deck = deck();
    assert!(
        deck.questions.len() >= 30,
        "{} questions",
        deck.questions.len()
    );
    // Levels follow real panels (most questions are middle and senior; content/*.toml
    // gives each its reason), yet every level has questions of its own, and a mock at any
    // level has enough to draw from.
    for level in Level::ALL {
        let n = deck.questions.iter().filter(|q| q.level == *level).count();
        assert!(n >= 2, "{level}: only {n} questions");
        let drawable = deck
            .questions
            .iter()
            .filter(|q| kubedrill::study::mock::weight(q, *level) > 0)
            .count();
        assert!(drawable >= 10, "a {level} mock draws from only {drawable}");
    }
    // One topic per subject area of the deck, each with its summary and a few questions.
    let topics = [
        "desired-state-reconciliation",
        "control-loop",
        "api-machinery",
        "workloads",
        "ownership-and-deletion",
        "writers",
        "controller-design",
    ];
    for topic in topics {
        let t = deck
            .topic(topic)
            .unwrap_or_else(|| panic!("{topic} missing"));
        assert!(t.summary.is_some() && !t.roadmaps.is_empty(), "{topic}");
        let n = deck.questions.iter().filter(|q| q.topic == topic).count();
        assert!(n >= 3, "{topic}: only {n} questions");
    }
    // Importance is honest only if it varies: not every question can be a must-know.
    for importance in ["must-know", "should-know", "nice-to-know"] {
        assert!(
            deck.questions
                .iter()
                .any(|q| q.importance.as_str() == importance),
            "no {importance} question"
        );
    }
}

/// Every text of a question a learner can read, lower-cased.
fn all_text(q: &Question) -> String {
    let mut parts: Vec<String> = vec![
        q.prompt.to_string(),
        q.basics.text.to_string(),
        q.solid.text.to_string(),
    ];
    parts.extend(q.keypoints.iter().map(ToString::to_string));
    parts.extend(q.analogy.iter().map(ToString::to_string));
    parts.extend(q.explainer.iter().map(ToString::to_string));
    for l in Level::ALL {
        parts.extend(q.deeper.at(*l).map(str::to_string));
    }
    parts.extend(q.code.iter().map(|c| c.text.to_string()));
    parts.extend(
        q.followups
            .iter()
            .flat_map(|f| [f.q.to_string(), f.a.to_string()]),
    );
    parts.extend(
        q.pitfalls
            .iter()
            .flat_map(|p| [p.claim.to_string(), p.why.to_string()]),
    );
    parts.join("\n").to_lowercase()
}

/// Corrections that must stay corrected: each tests/fixtures/content-facts/*.toml names
/// phrases that must be gone from a shipped question (a wrong claim the deck once made)
/// and phrases that must be there (the correction), each with why.
#[test]
fn corrected_claims_stay_corrected() {
    let deck = deck();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/content-facts");
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for file in files {
        let doc: toml::Table = toml::from_str(&std::fs::read_to_string(&file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (kind, must_appear) in [("gone", false), ("present", true)] {
            let Some(entries) = doc.get(kind).and_then(|v| v.as_array()) else {
                continue;
            };
            for e in entries {
                let id = e["question"].as_str().unwrap();
                let phrase = e["phrase"].as_str().unwrap();
                let why = e.get("why").and_then(|w| w.as_str()).unwrap_or("");
                let q = deck
                    .question(id)
                    .unwrap_or_else(|| panic!("{}: no question `{id}`", file.display()));
                checked += 1;
                if all_text(q).contains(&phrase.to_lowercase()) != must_appear {
                    problems.push(format!(
                        "{id}: {phrase:?} should be {} ({why})",
                        if must_appear { "there" } else { "gone" }
                    ));
                }
            }
        }
    }
    assert!(checked > 0, "no facts found in {}", dir.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
