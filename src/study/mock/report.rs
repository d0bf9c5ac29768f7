//! The Markdown report of a mock interview: a pure function of the scorecard and the
//! content, so a stored scorecard renders the same report later.

use std::fmt::Write;

use super::score::{QuestionResult, Scorecard};
use crate::content::{Deck, Question};

/// Width of a full bar in the report's chart, in characters.
const BAR_WIDTH: u32 = 20;

/// The report. `date` (as the caller wants it written) goes under the title when given.
pub fn markdown(card: &Scorecard, deck: &Deck, date: Option<&str>) -> String {
    let mut out = String::new();
    let setup = &card.setup;
    let strictness = card.strictness();
    out.push_str("# Mock interview report\n\n");
    if let Some(date) = date {
        let _ = writeln!(out, "{date}\n");
    }
    let topic = match &setup.topic {
        Some(t) => deck
            .topic(t)
            .map_or_else(|| format!("`{t}`"), |topic| topic.title.to_string()),
        None => "all topics".to_string(),
    };
    let _ = writeln!(
        out,
        "Target level **{}**, {topic}, strictness **{strictness}** (pass mark {}), seed {}.\n",
        setup.level,
        strictness.pass_mark(),
        setup.seed
    );

    out.push_str("## Scorecard\n\n");
    let n = card.results.len();
    let _ = writeln!(
        out,
        "**Overall {}/100.** {} of {n} {} passed; {} with a pitfall said; {} spoken against a \
         budget of {} ({} overtime).\n",
        card.overall(),
        card.passed(),
        if n == 1 { "question" } else { "questions" },
        card.pitfalls(),
        clock(card.total_time().as_secs()),
        clock(card.total_budget_seconds()),
        clock(card.total_overtime_seconds()),
    );
    if card.ended_early() {
        let _ = writeln!(
            out,
            "Ended early: {n} of {} drawn questions scored.\n",
            card.planned
        );
    }
    if n == 0 {
        return out;
    }
    out.push_str(
        "| # | question | level | keypoints | time / budget | pitfall | follow-up | score | grade |\n\
         |--:|---|---|---|---|---|---|--:|---|\n",
    );
    for (i, r) in card.results.iter().enumerate() {
        let followup = r.followup.as_ref().map_or("none", |f| f.verdict.as_str());
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {}/{} ({}%) | {} / {}{} | {} | {followup} | {} | {} |",
            i + 1,
            r.question_id,
            match super::setup::is_stretch(r.level, setup.level) {
                true => format!("{} (stretch)", r.level),
                false => r.level.to_string(),
            },
            r.covered.len(),
            r.keypoints_total,
            r.coverage_percent(),
            clock(r.time.as_secs()),
            clock(r.solid_seconds.into()),
            match r.overtime_seconds() {
                0 => String::new(),
                over => format!(" (+{})", clock(over)),
            },
            if r.pitfall_said() { "**yes**" } else { "no" },
            r.score(strictness),
            r.grade(),
        );
    }
    out.push_str("\n```text\n");
    for bar in card.chart() {
        let full = (bar.score * BAR_WIDTH + 50) / 100;
        let _ = writeln!(
            out,
            "{:<4}{}{} {:>3}",
            bar.label,
            "█".repeat(full as usize),
            "░".repeat((BAR_WIDTH - full) as usize),
            bar.score
        );
    }
    out.push_str("```\n");

    for (i, r) in card.results.iter().enumerate() {
        question_section(&mut out, i + 1, r, deck.question(&r.question_id), card);
    }
    // Sections end with a blank line and start with one: keep a single blank line between
    // blocks (user text is quoted line by line, so it never holds a blank line itself).
    while out.contains("\n\n\n") {
        out = out.replace("\n\n\n", "\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn question_section(
    out: &mut String,
    number: usize,
    r: &QuestionResult,
    q: Option<&Question>,
    card: &Scorecard,
) {
    let strictness = card.strictness();
    let _ = writeln!(out, "\n## Q{number}. `{}`\n", r.question_id);
    match q {
        Some(q) => {
            quote(out, &q.prompt);
            out.push('\n');
        }
        None => out.push_str("_This question is not in the loaded content any more._\n\n"),
    }
    let pauses = match r.pauses {
        0 => String::new(),
        1 => ", 1 pause".to_string(),
        p => format!(", {p} pauses"),
    };
    let _ = writeln!(
        out,
        "Answered in {} against {} (checkpoint at {}){pauses}. Score {}, grade {}.\n",
        clock(r.time.as_secs()),
        clock(r.solid_seconds.into()),
        clock(r.basics_seconds.into()),
        r.score(strictness),
        r.grade(),
    );

    let _ = writeln!(
        out,
        "**Keypoints covered: {} of {}**\n",
        r.covered.len(),
        r.keypoints_total
    );
    for k in 0..r.keypoints_total {
        let mark = if r.covered.contains(&k) { 'x' } else { ' ' };
        let text = q
            .and_then(|q| q.keypoints.get(k))
            .map_or_else(|| format!("keypoint {}", k + 1), |t| one_line(t));
        let _ = writeln!(out, "- [{mark}] {text}");
    }
    out.push('\n');

    if r.pitfall_said() {
        out.push_str("**Pitfalls said (each costs the question)**\n\n");
        for &p in &r.pitfalls_said {
            match q.and_then(|q| q.pitfalls.get(p)) {
                Some(pit) => {
                    let _ = writeln!(
                        out,
                        "- **Said:** {} **Instead:** {}",
                        one_line(&pit.claim),
                        one_line(&pit.why)
                    );
                }
                None => {
                    let _ = writeln!(out, "- pitfall {}", p + 1);
                }
            }
        }
        out.push('\n');
    } else {
        out.push_str("No pitfall said.\n\n");
    }

    if let Some(f) = &r.followup {
        let followup = q.and_then(|q| q.followups.get(f.index));
        match followup {
            Some(fu) => {
                let _ = writeln!(out, "**Follow-up:** {}\n", one_line(&fu.q));
                quote(out, &fu.a);
                out.push('\n');
            }
            None => out.push_str("**Follow-up** (no longer in the content)\n\n"),
        }
        let _ = writeln!(
            out,
            "Your verdict: {}, in {} of {}.\n",
            f.verdict.as_str(),
            clock(f.time.as_secs()),
            clock(f.budget_seconds.into())
        );
    }

    if !r.notes.trim().is_empty() {
        out.push_str("**Your notes**\n\n");
        quote(out, &r.notes);
        out.push('\n');
    }

    if let Some(q) = q {
        let _ = writeln!(out, "**The one-liner:** {}\n", one_line(&q.basics.text));
        if let Some(deeper) = q.deeper.at(card.setup.level) {
            let _ = writeln!(out, "**What a {} answer adds:**\n", card.setup.level);
            quote(out, deeper);
            out.push('\n');
        }
    }
}

/// `m:ss`.
fn clock(secs: u64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// Joins lines, so a multi-line text fits a list item or a heading.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A Markdown block quote of `text`, one `>` per line.
fn quote(out: &mut String, text: &str) {
    for line in text.trim_end().lines() {
        if line.trim().is_empty() {
            out.push_str(">\n");
        } else {
            let _ = writeln!(out, "> {line}");
        }
    }
}
