//! One content file: TOML text to topic and questions, with every problem located.

use std::ops::Range;

use super::catalog::DemoCatalog;
use super::diag::Diagnostic;
use super::model::{
    Challenge, CodeBlock, Deeper, Demo, Followup, Importance, Level, Pitfall, Question, Str, Tier,
    Topic,
};
use super::source::Source;
use super::tree;
use super::walk::{Table, Val, Walker, is_kebab};

const ROOT_KEYS: &[&str] = &["topic", "question"];
const TOPIC_KEYS: &[&str] = &["id", "title", "part_of", "summary", "roadmaps"];
const QUESTION_KEYS: &[&str] = &[
    "id",
    "prompt",
    "level",
    "importance",
    "frequency",
    "frequency_source",
    "keypoints",
    "analogy",
    "basics",
    "solid",
    "deeper",
    "explainer",
    "code",
    "followup",
    "pitfall",
    "demo",
];
const TIER_KEYS: &[&str] = &["seconds", "text"];
const DEEPER_KEYS: &[&str] = &["junior", "middle", "senior", "principal"];
const EXPLAINER_KEYS: &[&str] = &["text"];
const CODE_KEYS: &[&str] = &["lang", "caption", "text", "runnable"];
const FOLLOWUP_KEYS: &[&str] = &["q", "a"];
const PITFALL_KEYS: &[&str] = &["claim", "why"];
const DEMO_KEYS: &[&str] = &["scenario", "setup", "challenge"];
const CHALLENGE_KEYS: &[&str] = &["title", "hint", "hints", "goal"];

/// What one file yields. Items are only usable when `diagnostics` is empty.
pub struct ParsedFile {
    pub topic: Option<(Topic, Range<usize>)>,
    /// Each question with the span of its `id` value, for duplicate reports.
    pub questions: Vec<(Question, Range<usize>)>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn parse_file(src: &Source, catalog: &dyn DemoCatalog) -> ParsedFile {
    let root = match tree::parse(&src.text) {
        Ok(root) => root,
        Err(e) => {
            let d = Diagnostic::at(src, e.span, format!("invalid TOML: {}", e.message))
                .label("TOML syntax error");
            return ParsedFile {
                topic: None,
                questions: Vec::new(),
                diagnostics: vec![d],
            };
        }
    };
    let mut w = Walker::new(src);
    let root = Table {
        map: &root,
        start: 0,
        end: 0,
        name: "the file",
    };
    w.check_keys(root, ROOT_KEYS);
    let topic = match w.get(root, "topic", false) {
        Some(v) => w.as_table(v, "topic", "[topic]").map(|t| topic(&mut w, t)),
        None => {
            let d = w.error(0..0, "missing the [topic] table");
            d.help = Some("start the file with [topic] and at least `id` and `title`".into());
            None
        }
    };
    let topic_id = topic
        .as_ref()
        .map(|(t, _)| t.id.clone())
        .unwrap_or_default();
    let questions = w
        .tables(root, "question", "[[question]]", false)
        .into_iter()
        .map(|t| question(&mut w, t, &topic_id, catalog))
        .collect();
    let mut diagnostics = w.diags;
    diagnostics.sort_by_key(|d| d.span.as_ref().map(|s| s.start));
    ParsedFile {
        topic,
        questions,
        diagnostics,
    }
}

fn id_key(w: &mut Walker<'_>, t: Table<'_, '_>, what: &str) -> (Str, Range<usize>) {
    let span = t.map.get("id").map_or(t.span(), |v| v.span());
    let Some(id) = w.str_key(t, "id", true) else {
        return (Str::default(), span);
    };
    if !is_kebab(&id) {
        let d = w.error(span.clone(), format!("{what} id `{id}` is not kebab-case"));
        d.label = Some("ids are stable keys".into());
        d.help =
            Some("use lowercase letters, digits and single dashes, e.g. `spec-vs-status`".into());
    }
    (id, span)
}

fn topic(w: &mut Walker<'_>, t: Table<'_, '_>) -> (Topic, Range<usize>) {
    w.check_keys(t, TOPIC_KEYS);
    let (id, span) = id_key(w, t, "topic");
    let topic = Topic {
        id,
        title: w.str_key(t, "title", true).unwrap_or_default(),
        part_of: w.str_key(t, "part_of", false),
        summary: w.str_key(t, "summary", false),
        roadmaps: w.str_list(t, "roadmaps", false),
        file: Str::from(w.src.name.as_str()),
    };
    (topic, span)
}

fn tier(w: &mut Walker<'_>, q: Table<'_, '_>, key: &str, name: &'static str, max: i64) -> Tier {
    let Some(t) = w.get(q, key, true).and_then(|v| w.as_table(v, key, name)) else {
        return Tier {
            seconds: 0,
            text: Str::default(),
        };
    };
    w.check_keys(t, TIER_KEYS);
    Tier {
        seconds: w.int_key(t, "seconds", true, 1..=max).unwrap_or(0) as u32,
        text: w.str_key(t, "text", true).unwrap_or_default(),
    }
}

fn question(
    w: &mut Walker<'_>,
    t: Table<'_, '_>,
    topic: &str,
    catalog: &dyn DemoCatalog,
) -> (Question, Range<usize>) {
    w.check_keys(t, QUESTION_KEYS);
    let (id, span) = id_key(w, t, "question");
    let level = w.name_key(t, "level", Level::parse, &Level::names());
    let importance = w.name_key(t, "importance", Importance::parse, &Importance::names());
    let (frequency, frequency_source) = frequency(w, t);
    let prompt = w.str_key(t, "prompt", true).unwrap_or_default();
    let keypoints = w.str_list(t, "keypoints", true);
    let analogy = w.str_key(t, "analogy", false);
    let basics = tier(w, t, "basics", "[question.basics]", 120);
    let solid = tier(w, t, "solid", "[question.solid]", 600);
    let deeper = match w.get(t, "deeper", false) {
        Some(v) => w
            .as_table(v, "deeper", "[question.deeper]")
            .map_or_else(Deeper::default, |d| {
                w.check_keys(d, DEEPER_KEYS);
                Deeper {
                    junior: w.str_key(d, "junior", false),
                    middle: w.str_key(d, "middle", false),
                    senior: w.str_key(d, "senior", false),
                    principal: w.str_key(d, "principal", false),
                }
            }),
        None => Deeper::default(),
    };
    let explainer = w
        .get(t, "explainer", false)
        .and_then(|v| w.as_table(v, "explainer", "[question.explainer]"))
        .and_then(|e| {
            w.check_keys(e, EXPLAINER_KEYS);
            w.str_key(e, "text", true)
        });
    let followups = w
        .tables(t, "followup", "[[question.followup]]", false)
        .into_iter()
        .map(|f| {
            w.check_keys(f, FOLLOWUP_KEYS);
            Followup {
                q: w.str_key(f, "q", true).unwrap_or_default(),
                a: w.str_key(f, "a", true).unwrap_or_default(),
            }
        })
        .collect();
    let pitfall_tables = w.tables(t, "pitfall", "[[question.pitfall]]", true);
    if pitfall_tables.is_empty()
        && let Some(v) = t.map.get("pitfall")
    {
        let d = w.error(
            v.span(),
            "a question needs at least one [[question.pitfall]]",
        );
        d.label = Some("empty".into());
    }
    let pitfalls = pitfall_tables
        .into_iter()
        .map(|p| {
            w.check_keys(p, PITFALL_KEYS);
            Pitfall {
                claim: w.str_key(p, "claim", true).unwrap_or_default(),
                why: w.str_key(p, "why", true).unwrap_or_default(),
            }
        })
        .collect();
    let demo = demo(w, t, catalog);
    let code = code_blocks(w, t, demo.as_ref().map(|d| d.scenario.as_str()), catalog);
    let question = Question {
        id,
        topic: Str::from(topic),
        prompt,
        level: level.unwrap_or(Level::Junior),
        importance: importance.unwrap_or(Importance::NiceToKnow),
        frequency,
        frequency_source,
        keypoints,
        analogy,
        basics,
        solid,
        deeper,
        explainer,
        code,
        followups,
        pitfalls,
        demo: demo.unwrap_or(Demo {
            scenario: Str::default(),
            setup: Vec::new(),
            challenges: Vec::new(),
        }),
    };
    (question, span)
}

/// `frequency` and `frequency_source` come together or not at all: a percentage nobody
/// measured would read as data.
fn frequency(w: &mut Walker<'_>, t: Table<'_, '_>) -> (Option<u8>, Option<Str>) {
    let number = w.int_key(t, "frequency", false, 0..=100).map(|n| n as u8);
    let source = w.str_key(t, "frequency_source", false);
    let span = |w: &mut Walker<'_>, key: &str| w.get(t, key, false).map(|v| v.span());
    match (number, &source) {
        (Some(_), None) => {
            if let Some(at) = span(w, "frequency") {
                let d = w.error(at, "`frequency` needs a `frequency_source`");
                d.label = Some("a figure with no source".into());
                d.help = Some(
                    "say where the percentage comes from (frequency_source = \"...\"), or leave both out: the app then shows no percentage".into(),
                );
            }
            (None, None)
        }
        (None, Some(_)) if span(w, "frequency").is_none() => {
            if let Some(at) = span(w, "frequency_source") {
                let d = w.error(at, "`frequency_source` without a `frequency`");
                d.label = Some("a source of no figure".into());
                d.help = Some("add `frequency = N` (0 to 100), or remove the source".into());
            }
            (None, None)
        }
        _ => (number, source),
    }
}

/// The demo block; `None` if absent or its scenario is unknown (lines cannot be checked).
fn demo(w: &mut Walker<'_>, q: Table<'_, '_>, catalog: &dyn DemoCatalog) -> Option<Demo> {
    let t = w.get(q, "demo", true)?;
    let t = w.as_table(t, "demo", "[question.demo]")?;
    w.check_keys(t, DEMO_KEYS);
    let scenario_val = w.get(t, "scenario", true);
    let scenario = scenario_val.and_then(|v| w.string(v, "scenario"));
    let scenario = match (scenario, scenario_val) {
        (Some(s), Some(v)) if !catalog.knows_scenario(&s) => {
            let d = w.error(v.span(), format!("unknown demo scenario `{s}`"));
            d.label = Some("no such scenario".into());
            d.help = Some(format!(
                "known scenarios: {}",
                catalog.scenario_ids().join(", ")
            ));
            None
        }
        (s, _) => s,
    };
    let setup = w.spanned_str_list(t, "setup", false);
    if let Some(sc) = &scenario {
        for (line, v) in &setup {
            check_line(w, catalog, sc, line, v, 0);
        }
    }
    let challenges = w
        .tables(t, "challenge", "[[question.demo.challenge]]", false)
        .into_iter()
        .map(|c| {
            w.check_keys(c, CHALLENGE_KEYS);
            let goal_val = w.get(c, "goal", true);
            let goal = goal_val
                .and_then(|v| w.string(v, "goal"))
                .unwrap_or_default();
            if let (Some(v), false) = (goal_val, goal.is_empty())
                && let Err(p) = catalog.check_goal(&goal)
            {
                let span = w.inner_span(v, p.span.clone());
                let d = w.error(span, format!("invalid challenge goal: {}", p.message));
                d.label = Some("here".into());
                d.help = p
                    .help
                    .or_else(|| Some("the goal language is described in docs/goals.md".into()));
            }
            let one = w.str_key(c, "hint", false);
            let many = w.get(c, "hints", false).map(|v| v.span());
            let mut hints = w.str_list(c, "hints", false);
            match (one, many) {
                (Some(h), Some(span)) => {
                    let d = w.error(span, "a challenge has `hint` or `hints`, not both");
                    d.label = Some("second set of hints".into());
                    d.help = Some(format!(
                        "put the single hint first in the list: hints = [{h:?}, ...]"
                    ));
                }
                (Some(h), None) => hints = vec![h],
                _ => {}
            }
            Challenge {
                title: w.str_key(c, "title", true).unwrap_or_default(),
                hints,
                goal,
            }
        })
        .collect();
    Some(Demo {
        scenario: scenario?,
        setup: setup.into_iter().map(|(s, _)| s).collect(),
        challenges,
    })
}

fn code_blocks(
    w: &mut Walker<'_>,
    q: Table<'_, '_>,
    scenario: Option<&str>,
    catalog: &dyn DemoCatalog,
) -> Vec<CodeBlock> {
    w.tables(q, "code", "[[question.code]]", false)
        .into_iter()
        .map(|c| {
            w.check_keys(c, CODE_KEYS);
            let text_val = w.get(c, "text", true);
            let text = text_val
                .and_then(|v| w.string(v, "text"))
                .unwrap_or_default();
            let block = CodeBlock {
                lang: w.str_key(c, "lang", true).unwrap_or_default(),
                caption: w.str_key(c, "caption", false),
                runnable: w.bool_key(c, "runnable").unwrap_or(false),
                text,
            };
            if let (true, Some(sc), Some(v)) = (block.runnable, scenario, text_val) {
                let mut offset = 0;
                for raw_line in block.text.split('\n') {
                    let trimmed = raw_line.trim();
                    if !trimmed.is_empty() {
                        let lead = raw_line.len() - raw_line.trim_start().len();
                        check_line(w, catalog, sc, trimmed, v, offset + lead);
                    }
                    offset += raw_line.len() + 1;
                }
            }
            block
        })
        .collect()
}

/// Checks one demo line found at `offset` inside the string value `v`.
fn check_line(
    w: &mut Walker<'_>,
    catalog: &dyn DemoCatalog,
    scenario: &str,
    line: &str,
    v: &Val<'_>,
    offset: usize,
) {
    if let Err(p) = catalog.check_line(scenario, line) {
        let span = w.inner_span(
            v,
            offset + p.span.start..offset + p.span.end.max(p.span.start + 1),
        );
        let d = w.error(
            span,
            format!(
                "this line cannot run in the `{scenario}` demo: {}",
                p.message
            ),
        );
        d.label = Some("here".into());
        d.help = p.help;
    }
}
