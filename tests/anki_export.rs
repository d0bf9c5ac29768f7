//! `kubedrill export --anki` and `--csv` through the real binary, read back as Anki reads
//! a package (a zip holding an SQLite collection) and as a spreadsheet reads CSV. When
//! KUBEDRILL_ANKI_PYTHON names a python with the `anki` package, real Anki imports the
//! package too (tests/oracle/anki_import.py).

use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::Path;

use assert_cmd::Command;
use kubedrill::content::{self, Deck};
use kubedrill::sim::catalog::SimCatalog;
use kubedrill::study::package::anki;
use kubedrill::study::store::{Mode, TypedAnswerRecord};
use kubedrill::study::time::{self, DAY_MS, day_of};
use kubedrill::study::{CardState, Grade, Phase, Progress, Store, StudyConfig};
use rusqlite::Connection;

/// What the typed answer says: a comma, quotes, a line break and markup, for the quoting
/// and escaping checks.
const TYPED: &str = "spec is \"what I want\", status is <what is>\nand controllers close the gap";

fn kubedrill(config: &Path, data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("kubedrill").expect("binary");
    cmd.env("KUBEDRILL_CONFIG_DIR", config)
        .env("KUBEDRILL_DATA_DIR", data)
        .env_remove("NO_COLOR");
    cmd
}

fn shipped_deck() -> Deck {
    content::load(content::shipped_sources(), vec![], &SimCatalog).deck
}

/// One card in each phase, a cram grade and an undone grade:
/// - spec-vs-status: Easy, so review; and a typed answer;
/// - deleted-pod-returns: Good, so learning; then a cram Good that moves nothing;
/// - what-is-a-controller: Easy 30 days ago, Again a minute ago, so relearning;
/// - controller-down: Good, undone, so new again.
fn seed(data: &Path) -> HashMap<String, CardState> {
    let now = time::now();
    let mut p =
        Progress::new(Store::open_dir(data, now).store, StudyConfig::default()).expect("progress");
    let grade = |p: &mut Progress, id: &str, g: Grade, at: i64, mode: Mode| {
        p.grade(id, g, at, 2_000, mode).expect("grade")
    };
    grade(
        &mut p,
        "what-is-a-controller",
        Grade::Easy,
        now - 30 * DAY_MS,
        Mode::Review,
    );
    grade(
        &mut p,
        "what-is-a-controller",
        Grade::Again,
        now - 60_000,
        Mode::Review,
    );
    grade(
        &mut p,
        "spec-vs-status",
        Grade::Easy,
        now - 3_000,
        Mode::Review,
    );
    grade(
        &mut p,
        "deleted-pod-returns",
        Grade::Good,
        now - 2_000,
        Mode::Review,
    );
    grade(
        &mut p,
        "deleted-pod-returns",
        Grade::Good,
        now - 1_000,
        Mode::Cram,
    );
    let prev = p.card("controller-down").expect("card");
    let (undo_id, _) = grade(
        &mut p,
        "controller-down",
        Grade::Good,
        now - 500,
        Mode::Review,
    );
    p.store.undo(undo_id, &prev, now - 400).expect("undo");
    p.store
        .record_typed_answer(&TypedAnswerRecord {
            question_id: "spec-vs-status".into(),
            answered_at: now - 3_000,
            text: TYPED.into(),
            keypoints_covered: vec![0],
            keypoints_total: 4,
            pitfalls_said: vec![],
            grade: Grade::Easy,
        })
        .expect("typed answer");
    p.store.cards().expect("cards")
}

/// Seeds a data folder and exports it as an Anki package; the folder holds both.
fn exported() -> (
    tempfile::TempDir,
    HashMap<String, CardState>,
    std::path::PathBuf,
) {
    let dir = tempfile::tempdir().expect("dir");
    let (cfg, data) = (dir.path().join("cfg"), dir.path().join("data"));
    std::fs::create_dir_all(&cfg).expect("cfg");
    let cards = seed(&data);
    let apkg = dir.path().join("deck.apkg");
    let out = kubedrill(&cfg, &data)
        .args(["export", "--anki"])
        .arg(&apkg)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 with a schedule, 5 reviews"), "{err}");
    (dir, cards, apkg)
}

/// Opens the package as Anki does: the zip, then its collection with SQLite.
fn open_package(apkg: &Path, dir: &Path) -> Connection {
    let file = std::fs::File::open(apkg).expect("apkg");
    let mut zip = zip::ZipArchive::new(file).expect("a zip");
    let names: BTreeSet<String> = zip
        .file_names()
        .map(|n| n.map(|n| n.to_string()))
        .collect::<Result<_, _>>()
        .expect("entry names");
    assert_eq!(
        names,
        BTreeSet::from(["collection.anki21".to_string(), "media".to_string()])
    );
    let mut media = String::new();
    zip.by_name("media")
        .expect("media")
        .read_to_string(&mut media)
        .expect("media text");
    assert_eq!(media, "{}");
    let mut bytes = Vec::new();
    zip.by_name(anki::COLLECTION_FILE)
        .expect("collection")
        .read_to_end(&mut bytes)
        .expect("collection bytes");
    let path = dir.join("collection.anki21");
    std::fs::write(&path, bytes).expect("write collection");
    Connection::open(&path).expect("sqlite")
}

#[derive(Debug)]
struct CardRow {
    question: String,
    deck: String,
    ctype: i64,
    queue: i64,
    due: i64,
    ivl: i64,
    reps: i64,
    lapses: i64,
    data: serde_json::Value,
}

#[test]
fn the_apkg_read_back_holds_every_question_its_schedule_and_log() {
    let (dir, states, apkg) = exported();
    let deck = shipped_deck();
    let db = open_package(&apkg, dir.path());

    let (crt, ver, decks_json, models_json): (i64, i64, String, String) = db
        .query_row("SELECT crt, ver, decks, models FROM col", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .expect("col");
    assert_eq!(ver, 11);
    let decks: serde_json::Value = serde_json::from_str(&decks_json).expect("decks json");
    let deck_names: HashMap<i64, String> = decks
        .as_object()
        .expect("decks object")
        .values()
        .map(|d| {
            (
                d["id"].as_i64().expect("id"),
                d["name"].as_str().expect("name").to_string(),
            )
        })
        .collect();
    let mut want_decks: BTreeSet<String> = deck
        .topics
        .iter()
        .map(|t| anki::deck_name(&t.title))
        .collect();
    want_decks.insert("kubedrill".into());
    want_decks.insert("Default".into());
    assert_eq!(
        deck_names.values().cloned().collect::<BTreeSet<_>>(),
        want_decks
    );
    let models: serde_json::Value = serde_json::from_str(&models_json).expect("models json");
    let model = models
        .as_object()
        .expect("models")
        .values()
        .next()
        .expect("one note type");
    assert_eq!(model["name"], anki::NOTETYPE_NAME);
    let field_names: Vec<&str> = model["flds"]
        .as_array()
        .expect("flds")
        .iter()
        .map(|f| f["name"].as_str().expect("name"))
        .collect();
    assert_eq!(field_names, anki::FIELDS);

    // Notes: every question once, its GUID from its id, fields and tags as rendered.
    let mut st = db
        .prepare("SELECT id, guid, tags, flds, sfld, csum FROM notes")
        .expect("notes");
    let notes: Vec<(i64, String, String, String, String, i64)> = st
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(notes.len(), deck.questions.len());
    let by_guid: HashMap<&str, &(i64, String, String, String, String, i64)> =
        notes.iter().map(|n| (n.1.as_str(), n)).collect();
    assert_eq!(by_guid.len(), notes.len(), "GUIDs are distinct");
    let mut note_question: HashMap<i64, String> = HashMap::new();
    for q in &deck.questions {
        let typed = if q.id == "spec-vs-status" { TYPED } else { "" };
        let note = by_guid
            .get(anki::guid(&q.id).as_str())
            .unwrap_or_else(|| panic!("no note for {}", q.id));
        let fields: Vec<&str> = note.3.split('\u{1f}').collect();
        assert_eq!(fields, anki::fields(q, typed), "{}", q.id);
        assert_eq!(fields[0], q.id);
        assert_eq!(note.4, q.id, "sort field");
        assert_eq!(note.5, i64::from(anki::field_checksum(&q.id)));
        let tags: Vec<&str> = note.2.split_whitespace().collect();
        assert_eq!(
            tags,
            [
                format!("topic::{}", q.topic),
                format!("level::{}", q.level),
                format!("importance::{}", q.importance)
            ]
        );
        note_question.insert(note.0, q.id.to_string());
    }
    let typed_field = by_guid[anki::guid("spec-vs-status").as_str()]
        .3
        .split('\u{1f}')
        .next_back()
        .expect("last field")
        .to_string();
    assert_eq!(
        typed_field,
        "spec is &quot;what I want&quot;, status is &lt;what is&gt;<br>and controllers close the gap"
    );

    // Cards: one per note, in its topic's deck, scheduled as kubedrill has it.
    let mut st = db
        .prepare("SELECT nid, did, ord, type, queue, due, ivl, reps, lapses, data FROM cards")
        .expect("cards");
    let cards: HashMap<String, CardRow> = st
        .query_map([], |r| {
            let data: String = r.get(9)?;
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                [
                    r.get::<_, i64>(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                ],
                data,
            ))
        })
        .expect("query")
        .map(|row| {
            let (nid, did, ord, [ctype, queue, due, ivl, reps, lapses], data) = row.expect("row");
            assert_eq!(ord, 0);
            let question = note_question[&nid].clone();
            (
                question.clone(),
                CardRow {
                    question,
                    deck: deck_names[&did].clone(),
                    ctype,
                    queue,
                    due,
                    ivl,
                    reps,
                    lapses,
                    data: serde_json::from_str(&data).expect("card data json"),
                },
            )
        })
        .collect();
    assert_eq!(cards.len(), deck.questions.len());
    for q in &deck.questions {
        let title = deck
            .topic(&q.topic)
            .map_or(q.topic.as_str(), |t| t.title.as_str());
        assert_eq!(
            cards[q.id.as_str()].deck,
            anki::deck_name(title),
            "{}",
            q.id
        );
    }
    let crt_day = crt / 86_400;
    assert_eq!(crt % 86_400, 0, "crt is a UTC midnight");

    let review = &cards["spec-vs-status"];
    let state = &states["spec-vs-status"];
    assert_eq!(state.phase, Phase::Review);
    assert_eq!((review.ctype, review.queue), (2, 2), "{review:?}");
    assert_eq!(review.due, day_of(state.due) - crt_day);
    assert_eq!(review.ivl, i64::from(state.interval_days));
    assert_eq!((review.reps, review.lapses), (1, 0));
    let close = |v: &serde_json::Value, want: Option<f32>, places: i32| {
        let got = v.as_f64().expect("a number");
        let want = f64::from(want.expect("memory state"));
        assert!(
            (got - want).abs() <= 0.6 * 10f64.powi(-places),
            "{got} vs {want}"
        );
    };
    close(&review.data["s"], state.stability, 4);
    close(&review.data["d"], state.difficulty, 3);
    assert_eq!(review.data["dr"], 0.9);

    let learning = &cards["deleted-pod-returns"];
    let state = &states["deleted-pod-returns"];
    assert_eq!(state.phase, Phase::Learning);
    assert_eq!((learning.ctype, learning.queue), (1, 1), "{learning:?}");
    assert_eq!(learning.due, state.due / 1000, "unix seconds");
    assert_eq!(learning.reps, 1, "the cram grade moved nothing");

    let relearning = &cards["what-is-a-controller"];
    assert_eq!(states["what-is-a-controller"].phase, Phase::Relearning);
    assert_eq!(
        (relearning.ctype, relearning.queue),
        (3, 1),
        "{relearning:?}"
    );
    assert_eq!((relearning.reps, relearning.lapses), (2, 1));
    assert_eq!(relearning.due, states["what-is-a-controller"].due / 1000);

    let undone = &cards["controller-down"];
    assert_eq!(
        (undone.ctype, undone.queue, undone.reps),
        (0, 0, 0),
        "{undone:?}"
    );
    assert!(undone.data.as_object().is_some_and(|m| m.is_empty()));
    assert!(cards.values().all(|c| !c.question.is_empty()));

    // The log: every grade but the undone one, the cram grade as Anki's cramming row.
    let mut st = db
        .prepare(
            "SELECT r.id, n.flds, r.ease, r.ivl, r.lastIvl, r.factor, r.type FROM revlog r \
                  JOIN cards c ON c.id = r.cid JOIN notes n ON n.id = c.nid ORDER BY r.id",
        )
        .expect("revlog");
    let log: Vec<(String, i64, i64, i64, i64, i64)> = st
        .query_map([], |r| {
            let flds: String = r.get(1)?;
            let id = flds.split('\u{1f}').next().unwrap_or_default().to_string();
            Ok((id, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let summary: Vec<(&str, i64, i64)> = log
        .iter()
        .map(|(id, ease, _, _, _, ty)| (id.as_str(), *ease, *ty))
        .collect();
    assert_eq!(
        summary,
        [
            ("what-is-a-controller", 4, 0),
            ("what-is-a-controller", 1, 1),
            ("spec-vs-status", 4, 0),
            ("deleted-pod-returns", 3, 0),
            ("deleted-pod-returns", 3, 3),
        ]
    );
    let cram = &log[4];
    assert_eq!(cram.4, 0, "a cram row has factor 0");
    assert!(log[0].2 > 0, "graduated: a day interval");
    assert!(
        log[1].2 < 0 && log[1].3 > 0,
        "lapse: from days to a step in seconds"
    );
    assert!(log[..4].iter().all(|r| (100..=1100).contains(&r.4)));
}

#[test]
fn real_anki_imports_the_package() {
    let Some(python) = std::env::var_os("KUBEDRILL_ANKI_PYTHON").filter(|p| !p.is_empty()) else {
        println!(
            "skipped the Anki oracle: KUBEDRILL_ANKI_PYTHON is not set (point it at a python \
             with `pip install anki` to run it; .ci/run does)"
        );
        return;
    };
    let (_dir, states, apkg) = exported();
    let deck = shipped_deck();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/anki_import.py");
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(&apkg)
        .output()
        .expect("run the Anki oracle");
    assert!(
        out.status.success(),
        "Anki could not import the package:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("oracle json");
    assert_eq!(v["log"]["new"], deck.questions.len(), "{}", v["log"]);
    for bad in [
        "conflicting",
        "duplicate",
        "missing_notetype",
        "missing_deck",
        "empty_first_field",
    ] {
        assert_eq!(v["log"][bad], 0, "{bad}: {}", v["log"]);
    }
    let notes = v["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), deck.questions.len());
    for q in &deck.questions {
        let typed = if q.id == "spec-vs-status" { TYPED } else { "" };
        let note = notes
            .iter()
            .find(|n| n["fields"]["Id"] == q.id.as_str())
            .unwrap_or_else(|| panic!("Anki has no note {}", q.id));
        assert_eq!(note["guid"], anki::guid(&q.id));
        assert_eq!(note["notetype"], anki::NOTETYPE_NAME);
        let want = anki::fields(q, typed);
        for (name, value) in anki::FIELDS.iter().zip(&want) {
            assert_eq!(note["fields"][name], value.as_str(), "{} {name}", q.id);
        }
        let tags: Vec<&str> = note["tags"]
            .as_array()
            .expect("tags")
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        assert_eq!(tags.len(), 3, "{tags:?}");
    }
    let card = |id: &str| {
        v["cards"]
            .as_array()
            .expect("cards")
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("Anki has no card {id}"))
            .clone()
    };
    let review = card("spec-vs-status");
    let state = &states["spec-vs-status"];
    assert_eq!(
        (review["type"].as_i64(), review["queue"].as_i64()),
        (Some(2), Some(2)),
        "{review}"
    );
    assert_eq!(review["ivl"], state.interval_days);
    let s = review["stability"]
        .as_f64()
        .expect("Anki kept the stability");
    let d = review["difficulty"]
        .as_f64()
        .expect("Anki kept the difficulty");
    assert!(
        (s - f64::from(state.stability.expect("s"))).abs() < 1e-3,
        "{s}"
    );
    assert!(
        (d - f64::from(state.difficulty.expect("d"))).abs() < 1e-2,
        "{d}"
    );
    // Due in as many days from Anki's today as from kubedrill's. kubedrill counts UTC
    // days and Anki the machine's local days, so away from UTC the two may differ by one
    // around midnight.
    let days_left = day_of(state.due) - day_of(time::now());
    let anki_days_left =
        review["due"].as_i64().expect("due") - v["days_elapsed"].as_i64().expect("today");
    assert!(
        (anki_days_left - days_left).abs() <= 1,
        "Anki: due in {anki_days_left} days, kubedrill: in {days_left}"
    );
    if std::env::var("TZ").is_ok_and(|tz| tz == "UTC" || tz == "UTC0") {
        assert_eq!(anki_days_left, days_left);
    }
    assert_eq!(review["revlog"], 1);

    let learning = card("deleted-pod-returns");
    assert_eq!(
        (learning["type"].as_i64(), learning["queue"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(learning["due"], states["deleted-pod-returns"].due / 1000);
    let relearning = card("what-is-a-controller");
    assert_eq!(
        (relearning["type"].as_i64(), relearning["queue"].as_i64()),
        (Some(3), Some(1))
    );
    assert_eq!(relearning["lapses"], 1);
    assert!(relearning["stability"].as_f64().is_some());
    let new = card("controller-down");
    assert_eq!(
        (new["type"].as_i64(), new["queue"].as_i64()),
        (Some(0), Some(0))
    );
    assert!(new["stability"].is_null());
    assert_eq!(v["revlog"], 5);
    let decks: Vec<&str> = v["decks"]
        .as_array()
        .expect("decks")
        .iter()
        .filter_map(|d| d.as_str())
        .collect();
    for t in &deck.topics {
        assert!(
            decks.contains(&anki::deck_name(&t.title).as_str()),
            "{decks:?}"
        );
    }
    println!(
        "Anki oracle: {}",
        serde_json::to_string(&v["log"]).unwrap_or_default()
    );
}

#[test]
fn the_csv_reads_back_one_row_per_question_quoted() {
    let dir = tempfile::tempdir().expect("dir");
    let (cfg, data) = (dir.path().join("cfg"), dir.path().join("data"));
    std::fs::create_dir_all(&cfg).expect("cfg");
    let states = seed(&data);
    let path = dir.path().join("deck.csv");
    kubedrill(&cfg, &data)
        .args(["export", "--csv"])
        .arg(&path)
        .assert()
        .code(0);
    let bytes = std::fs::read(&path).expect("csv");
    let text = String::from_utf8(bytes.clone()).expect("utf-8");
    assert!(text.starts_with("id,topic,level,importance,prompt,keypoints,"));
    assert!(text.contains("\r\n"), "RFC 4180 line ends");
    // The typed answer's quotes are doubled inside a quoted field that keeps its comma
    // and line break.
    assert!(
        text.contains(
            "\"spec is \"\"what I want\"\", status is <what is>\nand controllers close the gap\""
        ),
        "{}",
        &text[..400.min(text.len())]
    );
    let deck = shipped_deck();
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let header: Vec<String> = r
        .headers()
        .expect("header")
        .iter()
        .map(str::to_string)
        .collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let rows: Vec<csv::StringRecord> = r.records().collect::<Result<_, _>>().expect("rows");
    assert_eq!(rows.len(), deck.questions.len());
    for (row, q) in rows.iter().zip(&deck.questions) {
        assert_eq!(row.len(), header.len());
        assert_eq!(&row[col("id")], q.id);
        assert_eq!(
            &row[col("prompt")],
            q.prompt,
            "prompts with commas and quotes survive"
        );
        assert_eq!(&row[col("solid")], q.solid.text);
        assert_eq!(
            &row[col("tags")],
            format!(
                "topic::{} level::{} importance::{}",
                q.topic, q.level, q.importance
            )
        );
        assert_eq!(row[col("keypoints")].lines().count(), q.keypoints.len());
    }
    let row = |id: &str| rows.iter().find(|r| &r[col("id")] == id).expect("row");
    let spec = row("spec-vs-status");
    assert_eq!(&spec[col("last_typed_answer")], TYPED);
    assert_eq!(&spec[col("phase")], "review");
    let state = &states["spec-vs-status"];
    assert_eq!(&spec[col("interval_days")], state.interval_days.to_string());
    assert_eq!(&spec[col("reps")], "1");
    let due = &spec[col("due")];
    assert!(due.ends_with('Z') && due.len() == 20, "{due}");
    let stability: f32 = spec[col("stability")].parse().expect("stability");
    assert!((stability - state.stability.expect("s")).abs() < 1e-3);
    assert_eq!(&row("deleted-pod-returns")[col("phase")], "learning");
    assert_eq!(&row("what-is-a-controller")[col("phase")], "relearning");
    let new = row("controller-down");
    assert_eq!(
        (
            &new[col("phase")],
            &new[col("due")],
            &new[col("last_typed_answer")]
        ),
        ("new", "", "")
    );
}

#[test]
fn anki_and_csv_exclude_each_other_and_the_json_file() {
    let dir = tempfile::tempdir().expect("dir");
    for args in [
        &["export", "--anki", "a.apkg", "--csv", "a.csv"][..],
        &["export", "p.json", "--anki", "a.apkg"][..],
        &["export", "p.json", "--csv", "a.csv"][..],
    ] {
        kubedrill(dir.path(), dir.path())
            .current_dir(dir.path())
            .args(args)
            .assert()
            .code(2);
    }
}

#[test]
fn without_the_progress_store_the_deck_is_exported_new_with_a_warning() {
    let dir = tempfile::tempdir().expect("dir");
    // A data folder that cannot be made: the store is in memory.
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, "x").expect("file");
    let apkg = dir.path().join("deck.apkg");
    let out = kubedrill(dir.path(), &not_a_folder)
        .args(["export", "--anki"])
        .arg(&apkg)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "warning: the progress store is not available, so the schedule was not included"
        ),
        "{err}"
    );
    let db = open_package(&apkg, dir.path());
    let (notes, scheduled, revlog): (i64, i64, i64) = db
        .query_row(
            "SELECT (SELECT COUNT(*) FROM notes), (SELECT COUNT(*) FROM cards WHERE type != 0), \
             (SELECT COUNT(*) FROM revlog)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("counts");
    assert_eq!(
        (notes as usize, scheduled, revlog),
        (shipped_deck().questions.len(), 0, 0)
    );
}

#[test]
fn an_unwritable_target_is_an_error_with_exit_1() {
    let dir = tempfile::tempdir().expect("dir");
    let out = kubedrill(dir.path(), dir.path())
        .args(["export", "--anki"])
        .arg(dir.path().join("no/such/folder/deck.apkg"))
        .assert()
        .code(1)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot write") || err.contains("\nerror: cannot write"),
        "{err}"
    );
}
