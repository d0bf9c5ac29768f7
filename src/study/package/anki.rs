//! The deck and its schedule as an Anki package (`.apkg`), the legacy format every Anki
//! since 2.1 imports: a zip holding `collection.anki21`, an SQLite collection in Anki's
//! schema 11 (`rslib/src/storage/schema11.sql`), and `media`, a JSON map of media files
//! (empty here). With no `meta` entry, Anki's importer (`import_export/package/meta.rs`)
//! takes the package as `Legacy2`: schema 11, uncompressed; `collection.anki21` rather
//! than `collection.anki2` is the name Anki itself gives a collection on the v2/v3
//! scheduler (`schedVer` 2), whose `due` and `left` values this file uses.
//!
//! Why not genanki-rs: it links its own rusqlite (0.25, `bundled`), and two crates that
//! both link the C SQLite (`links = "sqlite3"`) cannot be in one build; it also writes new
//! cards only, with no FSRS state or review log. So the collection is written with the
//! rusqlite kubedrill already has, and zipped with the `zip` crate.
//!
//! The schedule maps onto Anki's as Anki's own v3 scheduler would have left it:
//! - new: `type` 0, `queue` 0, `due` = position in the deck;
//! - learning / relearning: `type` 1 / 3, `queue` 1 (intraday learning), `due` in unix
//!   seconds, `left` = learning steps still to go (kubedrill's steps, 1 and 10 minutes
//!   then 10 minutes, are Anki's defaults);
//! - review: `type` 2, `queue` 2, `due` in days since the collection's `crt`, `ivl` in
//!   days;
//! - buried: `queue` -3 (buried by the user), the type kept;
//! - the FSRS memory state in the card's `data` JSON as Anki keeps it
//!   (`storage/card/data.rs`): stability `s`, difficulty `d`, desired retention `dr`,
//!   `decay` and the last review `lrt`;
//! - the review log in `revlog` (id = review time in ms, ease = the grade, type learning /
//!   review / relearning by the phase before), so Anki's FSRS optimiser sees the history;
//!   cram grades, which did not move the schedule, are Anki's "filtered, no reschedule"
//!   rows (type 3, factor 0) that its optimiser leaves out. Undone grades are left out.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use crate::content::{Deck, Question};
use crate::study::schedule::{CardState, Phase, Scheduler};
use crate::study::time::{DAY_MS, Millis, day_of};

use super::{PackageError, Schedule, html};

/// The collection's name inside the package.
pub const COLLECTION_FILE: &str = "collection.anki21";
pub const NOTETYPE_NAME: &str = "kubedrill question";
pub const PARENT_DECK: &str = "kubedrill";

/// The note type's fields, in order. The first is the question id: Anki checks it for
/// duplicates and sorts the browser by it.
pub const FIELDS: [&str; 12] = [
    "Id",
    "Prompt",
    "Key points",
    "Basics",
    "Solid answer",
    "Deeper",
    "Explainer",
    "Code",
    "Follow-ups",
    "Analogy",
    "Pitfalls",
    "Last typed answer",
];

/// What was written, for the command line's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub notes: usize,
    /// Cards that carry a schedule (not new).
    pub scheduled: usize,
    pub revlog: usize,
}

/// The note's fields as HTML, in [`FIELDS`] order.
pub fn fields(q: &Question, typed: &str) -> Vec<String> {
    let deeper: Vec<String> = super::deeper(q)
        .into_iter()
        .map(|(level, text)| {
            format!(
                "<div class=\"deeper\"><div class=\"level\">{}</div>{}</div>",
                level.as_str(),
                html::markdown(text)
            )
        })
        .collect();
    let code: Vec<String> = q
        .code
        .iter()
        .map(|c| {
            let caption = c
                .caption
                .as_deref()
                .map(|t| format!("<div class=\"caption\">{}</div>", html::inline(t)))
                .unwrap_or_default();
            format!("{caption}{}", html::code(&c.lang, &c.text))
        })
        .collect();
    let followups: Vec<String> = q
        .followups
        .iter()
        .map(|f| {
            format!(
                "<div class=\"followup\"><div class=\"q\">{}</div><div class=\"a\">{}</div></div>",
                html::markdown(&f.q),
                html::markdown(&f.a)
            )
        })
        .collect();
    let pitfalls: Vec<String> = q
        .pitfalls
        .iter()
        .map(|p| {
            format!(
                "<div class=\"pitfall\"><div class=\"claim\">{}</div><div class=\"why\">{}</div></div>",
                html::markdown(&p.claim),
                html::markdown(&p.why)
            )
        })
        .collect();
    let keypoints = if q.keypoints.is_empty() {
        String::new()
    } else {
        let items: String = q
            .keypoints
            .iter()
            .map(|k| format!("<li>{}</li>", html::inline(k)))
            .collect();
        format!("<ul>{items}</ul>")
    };
    vec![
        html::clean(&q.id),
        html::markdown(&q.prompt),
        keypoints,
        html::markdown(&q.basics.text),
        html::markdown(&q.solid.text),
        deeper.join("\n"),
        q.explainer
            .as_deref()
            .map(html::markdown)
            .unwrap_or_default(),
        code.join("\n"),
        followups.join("\n"),
        q.analogy.as_deref().map(html::markdown).unwrap_or_default(),
        pitfalls.join("\n"),
        html::text(typed),
    ]
}

fn sha1(s: &str) -> [u8; 20] {
    sha1_smol::Sha1::from(s).digest().bytes()
}

/// Anki's `csum`: the first 4 bytes of the SHA-1 of the first field with its HTML
/// stripped (the id holds none), big-endian (`notes/mod.rs`, `field_checksum`).
pub fn field_checksum(first_field: &str) -> u32 {
    let d = sha1(first_field);
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

/// A note's GUID from its question id alone, in Anki's base-91 alphabet: the same
/// question gets the same GUID in every export, so importing again updates the note.
pub fn guid(question_id: &str) -> String {
    const TABLE: &[u8] =
        b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~";
    let d = sha1(&format!("kubedrill-note:{question_id}"));
    let mut n = u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]);
    let mut out = Vec::new();
    while n > 0 {
        out.push(TABLE[(n % TABLE.len() as u64) as usize]);
        n /= TABLE.len() as u64;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A stable id for a deck, note type or preset: a millisecond timestamp between 2020
/// and 2023, as Anki's own ids are, derived from `key`.
fn stable_id(key: &str) -> i64 {
    let d = sha1(&format!("kubedrill-id:{key}"));
    let n = u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]);
    1_600_000_000_000 + (n % 100_000_000_000) as i64
}

/// `kubedrill::<topic title>`; `::` inside a title would nest a deck, so it is not kept.
pub fn deck_name(topic_title: &str) -> String {
    let title = html::clean(topic_title).replace("::", ":");
    format!("{PARENT_DECK}::{}", title.trim())
}

/// A card row's scheduling columns.
#[derive(Debug, Clone, PartialEq)]
pub struct CardRow {
    pub ctype: i64,
    pub queue: i64,
    pub due: i64,
    pub ivl: i64,
    pub factor: i64,
    pub left: i64,
    pub data: String,
}

/// How a kubedrill card sits in Anki: `position` for a new card, `crt_day` the UTC day
/// number of the collection's creation.
pub fn card_row(
    card: &CardState,
    position: i64,
    crt_day: i64,
    now: Millis,
    scheduler: &Scheduler,
) -> CardRow {
    let remaining = |steps: &[u32]| (steps.len() as i64 - i64::from(card.step)).max(1);
    let (ctype, queue, due, ivl, factor, left) = match card.phase {
        Phase::New => (0, 0, position, 0, 0, 0),
        Phase::Learning => (
            1,
            1,
            card.due.div_euclid(1000),
            0,
            0,
            remaining(&scheduler.learning_steps_min),
        ),
        Phase::Relearning => (
            3,
            1,
            card.due.div_euclid(1000),
            i64::from(card.interval_days.max(1)),
            2500,
            remaining(&scheduler.relearning_steps_min),
        ),
        Phase::Review => (
            2,
            2,
            day_of(card.due) - crt_day,
            i64::from(card.interval_days.max(1)),
            2500,
            0,
        ),
    };
    let queue = if card.phase != Phase::New && card.is_buried(now) {
        -3
    } else {
        queue
    };
    CardRow {
        ctype,
        queue,
        due,
        ivl,
        factor,
        left,
        data: card_data(card, scheduler.retention()),
    }
}

fn round_to(v: f32, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (f64::from(v) * f).round() / f
}

/// The card's `data` JSON: FSRS memory state as Anki rounds it (`convert_to_json`).
fn card_data(card: &CardState, retention: f32) -> String {
    let Some(m) = card.memory() else {
        return "{}".into();
    };
    let mut data = json!({
        "s": round_to(m.stability, 4),
        "d": round_to(m.difficulty, 3),
        "dr": round_to(retention, 2),
        "decay": round_to(fsrs::FSRS6_DEFAULT_DECAY, 3),
    });
    if let (Some(at), Value::Object(map)) = (card.last_review, &mut data) {
        map.insert("lrt".into(), json!(at.div_euclid(1000)));
    }
    data.to_string()
}

/// A revlog row's interval: days once graduated, minus the seconds of the step while
/// learning, 0 while new.
fn revlog_ivl(card: &CardState) -> i64 {
    match card.phase {
        Phase::New => 0,
        Phase::Review => i64::from(card.interval_days),
        Phase::Learning | Phase::Relearning => {
            let from = card.last_review.unwrap_or(card.due);
            -((card.due - from) / 1000).max(1)
        }
    }
}

/// Anki's revlog `factor` under FSRS: the difficulty normalised to 0.1..1.1, in
/// thousandths (`difficulty_shifted`).
fn difficulty_factor(d: f32) -> i64 {
    (((f64::from(d) - 1.0) / 9.0 + 0.1) * 1000.0).round() as i64
}

/// One revlog row: id, cid, ease, ivl, lastIvl, factor, time, type.
pub type RevlogRow = [i64; 8];

/// The review log replayed through the scheduler, for the intervals Anki's revlog keeps.
fn revlog(
    schedule: &Schedule,
    card_ids: &HashMap<&str, i64>,
    scheduler: &Scheduler,
) -> Result<Vec<RevlogRow>, PackageError> {
    let mut states: HashMap<&str, CardState> = HashMap::new();
    let mut ids = HashSet::new();
    let mut rows = Vec::new();
    for r in &schedule.reviews {
        if r.undone_at.is_some() {
            continue;
        }
        let Some((&qid, &cid)) = card_ids.get_key_value(r.question_id.as_str()) else {
            continue;
        };
        let prev = states.remove(qid).unwrap_or_else(|| CardState::new(qid));
        let last_ivl = revlog_ivl(&prev);
        let (kind, ivl, factor, next) = if r.mode.moves_schedule() {
            let next = scheduler.apply(&prev, r.grade, r.reviewed_at)?;
            let kind = match r.phase_before {
                Phase::New | Phase::Learning => 0,
                Phase::Review => 1,
                Phase::Relearning => 2,
            };
            let factor = next.difficulty.map_or(0, difficulty_factor);
            (kind, revlog_ivl(&next), factor, next)
        } else {
            (3, last_ivl, 0, prev)
        };
        let mut id = r.reviewed_at;
        while !ids.insert(id) {
            id += 1;
        }
        rows.push([
            id,
            cid,
            i64::from(r.grade.number()),
            ivl,
            last_ivl,
            factor,
            r.took_ms.clamp(0, i64::from(i32::MAX)),
            kind,
        ]);
        states.insert(qid, next);
    }
    Ok(rows)
}

const CSS: &str = ".card { font-family: sans-serif; font-size: 18px; line-height: 1.45; \
text-align: left; color: black; background-color: white; max-width: 46em; margin: 0 auto; }\n\
.nightMode .card, .card.nightMode { color: #ddd; background-color: #222; }\n\
.prompt { font-size: 1.2em; font-weight: bold; }\n\
h3 { font-size: 0.9em; text-transform: uppercase; letter-spacing: 0.05em; opacity: 0.7; \
margin: 1.2em 0 0.3em; }\n\
pre { padding: 0.5em; overflow-x: auto; background: rgba(127,127,127,0.12); }\n\
.level, .caption { font-style: italic; opacity: 0.8; }\n\
.claim { font-weight: bold; }\n\
.followup .q { font-weight: bold; }\n\
.typed { white-space: normal; border-left: 3px solid rgba(127,127,127,0.5); padding-left: 0.5em; }\n";

/// The back of the card: every answer field under its heading, when it has content.
fn answer_template() -> String {
    let mut s = String::from("{{FrontSide}}\n\n<hr id=answer>\n");
    for name in &FIELDS[2..] {
        let class = if *name == "Last typed answer" {
            " class=\"typed\""
        } else {
            ""
        };
        s.push_str(&format!(
            "{{{{#{name}}}}}<h3>{name}</h3><div{class}>{{{{{name}}}}}</div>{{{{/{name}}}}}\n"
        ));
    }
    s.push_str("<div class=\"id\"><small>{{Id}}</small></div>\n");
    s
}

fn notetype_json(id: i64, now_s: i64) -> Value {
    let flds: Vec<Value> = FIELDS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({"name": name, "ord": i, "sticky": false, "rtl": false, "font": "Arial",
                   "size": 20, "description": "", "plainText": false, "collapsed": false,
                   "excludeFromSearch": false})
        })
        .collect();
    json!({
        "id": id, "name": NOTETYPE_NAME, "type": 0, "mod": now_s, "usn": -1, "sortf": 0,
        "did": null,
        "tmpls": [{"name": "Question", "ord": 0,
                   "qfmt": "<div class=\"prompt\">{{Prompt}}</div>",
                   "afmt": answer_template(), "bqfmt": "", "bafmt": "", "did": null,
                   "bfont": "", "bsize": 0}],
        "flds": flds, "css": CSS, "latexPre": "", "latexPost": "", "latexsvg": false,
        "req": [[0, "any", [1]]],
    })
}

fn deck_json(id: i64, name: &str, conf: i64, now_s: i64, desc: &str) -> Value {
    json!({
        "id": id, "mod": now_s, "name": name, "usn": -1,
        "lrnToday": [0, 0], "revToday": [0, 0], "newToday": [0, 0], "timeToday": [0, 0],
        "collapsed": false, "browserCollapsed": false, "desc": desc, "dyn": 0, "conf": conf,
        "extendNew": 0, "extendRev": 0,
    })
}

/// A preset as Anki writes one in schema 11, with kubedrill's steps and retention.
fn deck_config_json(id: i64, name: &str, scheduler: &Scheduler, now_s: i64) -> Value {
    let mins = |steps: &[u32]| steps.iter().map(|&m| f64::from(m)).collect::<Vec<_>>();
    json!({
        "id": id, "mod": now_s, "name": name, "usn": -1, "maxTaken": 60, "autoplay": true,
        "timer": 0, "replayq": true,
        "new": {"bury": false, "delays": mins(&scheduler.learning_steps_min),
                "initialFactor": 2500, "ints": [1, 4, 0], "order": 1, "perDay": 20},
        "rev": {"bury": false, "ease4": 1.3, "ivlFct": 1.0, "maxIvl": 36500, "perDay": 200,
                "hardFactor": 1.2},
        "lapse": {"delays": mins(&scheduler.relearning_steps_min), "leechAction": 1,
                  "leechFails": 8, "minInt": 1, "mult": 0.0},
        "dyn": false, "newMix": 0, "newPerDayMinimum": 0, "interdayLearningMix": 0,
        "reviewOrder": 0, "newSortOrder": 0, "newGatherPriority": 0,
        "buryInterdayLearning": false, "fsrsWeights": [], "fsrsParams5": [],
        "fsrsParams6": [], "desiredRetention": round_to(scheduler.retention(), 2),
        "ignoreRevlogsBeforeDate": "", "easyDaysPercentages": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        "stopTimerOnAnswer": false, "secondsToShowQuestion": 0.0,
        "secondsToShowAnswer": 0.0, "questionAction": 0, "answerAction": 0,
        "waitForAudio": true, "sm2Retention": 0.9, "weightSearch": "",
    })
}

const SCHEMA: &str = "
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,
  scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL,
  ls integer NOT NULL, conf text NOT NULL, models text NOT NULL, decks text NOT NULL,
  dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,
  sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL,
  ord integer NOT NULL, mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL,
  queue integer NOT NULL, due integer NOT NULL, ivl integer NOT NULL,
  factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
  left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL,
  flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL,
  ease integer NOT NULL, ivl integer NOT NULL, lastIvl integer NOT NULL,
  factor integer NOT NULL, time integer NOT NULL, type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
";

/// A file in the temporary folder, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new() -> Result<TempFile, PackageError> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "kubedrill-anki-{}-{nanos}-{}.sqlite",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        // Claimed here, so no other process's file is ever written over.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        Ok(TempFile(path))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The `.apkg` bytes for `deck` with `schedule`, as of `now`.
pub fn package(deck: &Deck, schedule: &Schedule, now: Millis) -> Result<Written, PackageError> {
    let tmp = TempFile::new()?;
    let counts = write_collection(&tmp.0, deck, schedule, now)?;
    let collection = std::fs::read(&tmp.0)?;
    drop(tmp);
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file(COLLECTION_FILE, options)?;
    zip.write_all(&collection)?;
    zip.start_file("media", options)?;
    zip.write_all(b"{}")?;
    let bytes = zip.finish()?.into_inner();
    Ok(Written { bytes, ..counts })
}

fn write_collection(
    path: &Path,
    deck: &Deck,
    schedule: &Schedule,
    now: Millis,
) -> Result<Written, PackageError> {
    let scheduler = Scheduler::new(schedule.desired_retention)?;
    let now_s = now.div_euclid(1000);
    // The collection starts on the UTC day of the first review, so no review card is due
    // before it; its days are UTC days (creationOffset 0, rollover at midnight).
    let first = schedule
        .reviews
        .iter()
        .map(|r| r.reviewed_at)
        .chain(schedule.cards.values().filter_map(|c| c.last_review))
        .chain(
            schedule
                .cards
                .values()
                .filter(|c| c.phase != Phase::New)
                .map(|c| c.due),
        )
        .chain([now])
        .min()
        .unwrap_or(now);
    let crt_day = day_of(first);

    let notetype_id = stable_id("notetype:kubedrill question:1");
    let dconf_id = stable_id("preset:kubedrill");
    let parent_id = stable_id("deck:");
    let mut decks: BTreeMap<String, i64> = BTreeMap::new();
    decks.insert(PARENT_DECK.to_string(), parent_id);
    for t in &deck.topics {
        decks.insert(deck_name(&t.title), stable_id(&format!("deck:{}", t.id)));
    }
    for q in &deck.questions {
        let name = deck_name(super::topic_title(deck, q));
        decks
            .entry(name)
            .or_insert_with(|| stable_id(&format!("deck:{}", q.topic)));
    }

    let mut conn = Connection::open(path)?;
    conn.execute_batch("PRAGMA journal_mode = MEMORY;")?;
    conn.execute_batch(SCHEMA)?;
    let tx = conn.transaction()?;

    let n = deck.questions.len() as i64;
    // Note and card ids are creation times in Anki; none may lie in the future.
    let base_id = now - n;
    let mut card_ids: HashMap<&str, i64> = HashMap::new();
    let mut scheduled = 0;
    {
        let mut note_st = tx.prepare(
            "INSERT INTO notes (id, guid, mid, mod, usn, tags, flds, sfld, csum, flags, data) \
             VALUES (?1, ?2, ?3, ?4, -1, ?5, ?6, ?7, ?8, 0, '')",
        )?;
        let mut card_st = tx.prepare(
            "INSERT INTO cards (id, nid, did, ord, mod, usn, type, queue, due, ivl, factor, \
             reps, lapses, left, odue, odid, flags, data) VALUES (?1, ?2, ?3, 0, ?4, -1, ?5, \
             ?6, ?7, ?8, ?9, ?10, ?11, ?12, 0, 0, 0, ?13)",
        )?;
        for (i, q) in deck.questions.iter().enumerate() {
            let id = base_id + i as i64;
            let fields = fields(q, schedule.typed(&q.id));
            let tags = format!(" {} ", super::tags(q).join(" "));
            note_st.execute(params![
                id,
                guid(&q.id),
                notetype_id,
                now_s,
                tags,
                fields.join("\u{1f}"),
                fields[0],
                field_checksum(&fields[0]),
            ])?;
            let card = schedule.card(&q.id);
            if card.phase != Phase::New {
                scheduled += 1;
            }
            let row = card_row(&card, i as i64 + 1, crt_day, now, &scheduler);
            let did = decks
                .get(&deck_name(super::topic_title(deck, q)))
                .copied()
                .unwrap_or(parent_id);
            card_st.execute(params![
                id,
                id,
                did,
                now_s,
                row.ctype,
                row.queue,
                row.due,
                row.ivl,
                row.factor,
                card.reps,
                card.lapses,
                row.left,
                row.data,
            ])?;
            card_ids.insert(q.id.as_str(), id);
        }
    }

    let rows = revlog(schedule, &card_ids, &scheduler)?;
    {
        let mut st = tx.prepare(
            "INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) \
             VALUES (?1, ?2, -1, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for r in &rows {
            st.execute(params![r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]])?;
        }
    }

    let mut decks_json = serde_json::Map::new();
    decks_json.insert("1".into(), deck_json(1, "Default", 1, now_s, ""));
    for (name, id) in &decks {
        let desc = if name == PARENT_DECK {
            "Kubernetes interview questions on desired-state reconciliation, from kubedrill."
        } else {
            ""
        };
        decks_json.insert(id.to_string(), deck_json(*id, name, dconf_id, now_s, desc));
    }
    let mut dconf = serde_json::Map::new();
    dconf.insert(
        "1".into(),
        deck_config_json(1, "Default", &Scheduler::new(0.9)?, now_s),
    );
    dconf.insert(
        dconf_id.to_string(),
        deck_config_json(dconf_id, "kubedrill", &scheduler, now_s),
    );
    let mut models = serde_json::Map::new();
    models.insert(notetype_id.to_string(), notetype_json(notetype_id, now_s));
    let conf = json!({
        "activeDecks": [parent_id], "curDeck": parent_id, "curModel": notetype_id,
        "nextPos": n + 1, "schedVer": 2, "sched2021": true, "creationOffset": 0,
        "rollover": 0, "fsrs": true, "addToCur": true, "dueCounts": true,
        "estTimes": true, "newSpread": 0, "collapseTime": 1200, "timeLim": 0,
        "sortType": "noteFld", "sortBackwards": false, "dayLearnFirst": false,
    });
    tx.execute(
        "INSERT INTO col (id, crt, mod, scm, ver, dty, usn, ls, conf, models, decks, dconf, \
         tags) VALUES (1, ?1, ?2, ?2, 11, 0, 0, 0, ?3, ?4, ?5, ?6, '{}')",
        params![
            crt_day * (DAY_MS / 1000),
            now,
            conf.to_string(),
            Value::Object(models).to_string(),
            Value::Object(decks_json).to_string(),
            Value::Object(dconf).to_string(),
        ],
    )?;
    tx.commit()?;
    conn.close().map_err(|(_, e)| e)?;
    Ok(Written {
        bytes: Vec::new(),
        notes: deck.questions.len(),
        scheduled,
        revlog: rows.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::Grade;
    use crate::study::time::MINUTE_MS;

    const NOW: Millis = 1_796_400_000_000;

    fn sched() -> Scheduler {
        Scheduler::new(0.9).expect("scheduler")
    }

    #[test]
    fn guids_are_stable_distinct_and_base91() {
        assert_eq!(guid("spec-vs-status"), guid("spec-vs-status"));
        assert_ne!(guid("spec-vs-status"), guid("spec-vs-status2"));
        let g = guid("spec-vs-status");
        assert!((8..=10).contains(&g.len()), "{g}");
        assert!(
            g.bytes()
                .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\'')
        );
        // Pinned: a change here would duplicate every note on the learner's next import.
        assert_eq!(guid("spec-vs-status"), "ttr@!]5n|N");
        assert_eq!(stable_id("deck:x"), stable_id("deck:x"));
    }

    #[test]
    fn checksum_is_the_first_four_bytes_of_sha1() {
        // sha1("abc") = a9993e36...
        assert_eq!(field_checksum("abc"), 0xa999_3e36);
    }

    #[test]
    fn each_phase_maps_to_anki_type_queue_and_due() {
        let s = sched();
        let crt_day = day_of(NOW) - 10;
        let new = CardState::new("q");
        let r = card_row(&new, 7, crt_day, NOW, &s);
        assert_eq!((r.ctype, r.queue, r.due, r.ivl, r.left), (0, 0, 7, 0, 0));
        assert_eq!(r.data, "{}");

        // First Good on a new card: learning, second step, due in 10 minutes.
        let learning = s.apply(&new, Grade::Good, NOW).expect("apply");
        assert_eq!(learning.phase, Phase::Learning);
        let r = card_row(&learning, 1, crt_day, NOW, &s);
        assert_eq!((r.ctype, r.queue), (1, 1));
        assert_eq!(r.due, (NOW + 10 * MINUTE_MS) / 1000);
        assert_eq!(r.left, 1);
        let data: Value = serde_json::from_str(&r.data).expect("json");
        assert!(data["s"].as_f64().is_some() && data["d"].as_f64().is_some());
        assert_eq!(data["dr"], 0.9);
        assert_eq!(data["lrt"], NOW / 1000);

        // Easy graduates: review, due in days since crt.
        let review = s.apply(&new, Grade::Easy, NOW).expect("apply");
        assert_eq!(review.phase, Phase::Review);
        let r = card_row(&review, 1, crt_day, NOW, &s);
        assert_eq!((r.ctype, r.queue, r.factor), (2, 2, 2500));
        assert_eq!(r.ivl, i64::from(review.interval_days));
        assert_eq!(r.due, 10 + i64::from(review.interval_days));

        // Again on a review card: relearning, intraday, unix seconds.
        let later = review.due + DAY_MS;
        let relearn = s.apply(&review, Grade::Again, later).expect("apply");
        assert_eq!(relearn.phase, Phase::Relearning);
        let r = card_row(&relearn, 1, crt_day, later, &s);
        assert_eq!((r.ctype, r.queue, r.left), (3, 1, 1));
        assert_eq!(r.due, (later + 10 * MINUTE_MS) / 1000);
        assert!(r.ivl >= 1);

        // Buried until tomorrow: Anki's user-buried queue.
        let mut buried = review.clone();
        buried.buried_until = Some(NOW + DAY_MS);
        assert_eq!(card_row(&buried, 1, crt_day, NOW, &s).queue, -3);
    }

    #[test]
    fn difficulty_factor_is_ankis_shifted_difficulty() {
        assert_eq!(difficulty_factor(1.0), 100);
        assert_eq!(difficulty_factor(10.0), 1100);
    }

    #[test]
    fn deck_names_nest_under_kubedrill_once() {
        assert_eq!(deck_name("Spec and status"), "kubedrill::Spec and status");
        assert_eq!(deck_name("a::b"), "kubedrill::a:b");
    }
}
