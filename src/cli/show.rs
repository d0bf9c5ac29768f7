//! Plain-text views for `list`, `show` and `check`.

use anyhow::Result;
use serde::Serialize;

use crate::content::{Deck, Loaded, Question};

#[derive(Serialize)]
struct Row<'a> {
    id: &'a str,
    topic: &'a str,
    level: &'a str,
    importance: &'a str,
    /// A number only where `frequency_source` says where it comes from.
    frequency: Option<u8>,
    frequency_source: Option<&'a str>,
    scenario: &'a str,
    prompt: &'a str,
}

fn rows(deck: &Deck) -> Vec<Row<'_>> {
    deck.questions
        .iter()
        .map(|q| Row {
            id: &q.id,
            topic: &q.topic,
            level: q.level.as_str(),
            importance: q.importance.as_str(),
            frequency: q.frequency,
            frequency_source: q.frequency_source.as_deref(),
            scenario: &q.demo.scenario,
            prompt: &q.prompt,
        })
        .collect()
}

pub fn list_json(deck: &Deck) -> Result<String> {
    Ok(serde_json::to_string_pretty(&rows(deck))? + "\n")
}

/// `kubedrill search`: id, topic, the field that matched and the text around the match,
/// one question a line, tab-separated so it pipes into `cut` and `column`.
pub fn search_table(hits: &[crate::content::search::Hit<'_>]) -> String {
    hits.iter()
        .map(|h| {
            crate::content::text::terminal_safe(&format!(
                "{}\t{}\t{}\t{}\n",
                h.question.id, h.question.topic, h.field, h.snippet
            ))
            .into_owned()
        })
        .collect()
}

/// `kubedrill search --format json`: an array of {id, topic, level, field, snippet}.
pub fn search_json(hits: &[crate::content::search::Hit<'_>]) -> Result<String> {
    let rows: Vec<serde_json::Value> = hits
        .iter()
        .map(|h| {
            serde_json::json!({
                "id": h.question.id,
                "topic": h.question.topic,
                "level": h.question.level.to_string(),
                "field": h.field,
                "snippet": h.snippet,
            })
        })
        .collect();
    Ok(serde_json::to_string_pretty(&rows)? + "\n")
}

/// Aligned columns, no colour, so it pipes into `sort`, `grep` and `column`.
pub fn list_table(deck: &Deck) -> String {
    let rows = rows(deck);
    let header = ["ID", "TOPIC", "LEVEL", "IMPORTANCE", "FREQ", "SCENARIO"];
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.id.to_string(),
                r.topic.to_string(),
                r.level.to_string(),
                r.importance.to_string(),
                r.frequency.map_or("-".to_string(), |f| format!("{f}%")),
                r.scenario.to_string(),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cols: [&str; 6]| {
        let mut l = String::new();
        for (i, (c, w)) in cols.iter().zip(widths).enumerate() {
            if i + 1 == cols.len() {
                l.push_str(c);
            } else {
                l.push_str(&format!("{c:<w$}   "));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(header);
    for row in &cells {
        line([&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]]);
    }
    out
}

struct Doc {
    out: String,
    styled: bool,
}

impl Doc {
    fn heading(&mut self, text: &str) {
        if self.styled {
            self.out.push_str(&format!("\n\x1b[1m{text}\x1b[0m\n"));
        } else {
            self.out
                .push_str(&format!("\n{text}\n{}\n", "-".repeat(text.chars().count())));
        }
    }

    fn para(&mut self, text: &str) {
        for line in text.trim_end().lines() {
            if line.is_empty() {
                self.out.push('\n');
            } else {
                self.out.push_str("  ");
                self.out.push_str(line);
                self.out.push('\n');
            }
        }
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }
}

/// A question in full, tiers in the order the card reveals them. Escape codes only when
/// `styled` (stdout is a terminal).
pub fn question(deck: &Deck, q: &Question, styled: bool) -> String {
    let mut d = Doc {
        out: String::new(),
        styled,
    };
    let topic = deck
        .topic(&q.topic)
        .map_or(q.topic.as_str(), |t| t.title.as_str());
    let asked = q
        .frequency
        .map_or(String::new(), |f| format!(" · asked in {f}% of interviews"));
    d.line(&format!(
        "{} · {} · {}{asked} · topic: {}",
        q.id, q.level, q.importance, topic
    ));
    if let Some(source) = &q.frequency_source {
        d.line(&format!("frequency source: {source}"));
    }
    d.heading("Question");
    d.para(&q.prompt);
    d.heading("Keypoints");
    for k in &q.keypoints {
        d.line(&format!("  - {k}"));
    }
    d.heading(&format!("Basics (about {} s)", q.basics.seconds));
    d.para(&q.basics.text);
    d.heading(&format!("Solid answer (about {} s)", q.solid.seconds));
    d.para(&q.solid.text);
    let levels = crate::content::Level::ALL;
    if levels.iter().any(|l| q.deeper.at(*l).is_some()) {
        d.heading("Going deeper");
        for level in levels {
            if let Some(text) = q.deeper.at(*level) {
                d.line(&format!("  For a {level}:"));
                d.para(&indent(text));
            }
        }
    }
    if let Some(text) = &q.explainer {
        d.heading("Explainer");
        d.para(text);
    }
    for block in &q.code {
        let mut title = format!("Code ({})", block.lang);
        if let Some(c) = &block.caption {
            title = format!("{title}: {c}");
        }
        if block.runnable {
            title.push_str(" [runs in the demo]");
        }
        d.heading(&title);
        d.para(&indent(&block.text));
    }
    if !q.followups.is_empty() {
        d.heading("Follow-ups");
        for (i, f) in q.followups.iter().enumerate() {
            d.line(&format!("  {}. {}", i + 1, f.q));
            d.para(&indent(&f.a));
        }
    }
    if let Some(a) = &q.analogy {
        d.heading("Analogy");
        d.para(a);
    }
    d.heading("Pitfalls: saying these costs you the question");
    for p in &q.pitfalls {
        d.line(&format!("  x {}", p.claim));
        d.para(&indent(&format!("-> {}", p.why)));
    }
    d.heading(&format!("Demo: scenario `{}`", q.demo.scenario));
    for s in &q.demo.setup {
        d.line(&format!("  setup: {s}"));
    }
    for (i, c) in q.demo.challenges.iter().enumerate() {
        d.line(&format!("  {}. {}", i + 1, c.title));
        match c.hints.as_slice() {
            [] => {}
            [h] => d.para(&indent(&format!("hint: {h}"))),
            hs => {
                for (n, h) in hs.iter().enumerate() {
                    d.para(&indent(&format!("hint {}: {h}", n + 1)));
                }
            }
        }
        d.para(&indent(&format!("goal: {}", c.goal)));
    }
    d.out
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("   {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn check_summary(loaded: &Loaded) -> String {
    let files = loaded.files_loaded();
    let n = loaded.diagnostics.len();
    if n == 0 {
        format!(
            "ok: {} question(s) in {} topic(s), {files} file(s) checked, no problems\n",
            loaded.deck.questions.len(),
            loaded.deck.topics.len()
        )
    } else {
        format!(
            "error: {n} problem(s) in {} file(s); files with problems are not loaded\n",
            loaded.broken_files.len()
        )
    }
}
