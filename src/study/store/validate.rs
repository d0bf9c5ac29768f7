//! What an import may bring in: times kubedrill can show, indices that point into real
//! lists, ids of a sane size, and no text that would drive the terminal (escape codes,
//! bidi overrides) when `stats` prints it. Checked before anything is written, each
//! problem named by its place in the document (`reviews[3].reviewed_at`).

use super::export::Export;
use crate::content::text::{find_forbidden, plain};
use crate::study::time::{DAY_MS, Millis};

/// 9999-12-31T23:59:59.999Z: the last time the app can print as a date.
const LAST_TIME: Millis = 253_402_300_799_999;
/// Ids in content are short; a progress row's id the same.
const MAX_ID: usize = 256;
/// Free text in a progress row (a flag's reason).
const MAX_TEXT: usize = 4_096;
/// An answer typed in review.
pub const MAX_ANSWER: usize = 16_384;
/// A duration kept with a grade or an answer: at most a year.
const MAX_DURATION: i64 = 365 * DAY_MS;
/// Keypoints or pitfalls one question may have.
const MAX_ITEMS: u32 = 1_000;

struct Check {
    problems: Vec<String>,
}

impl Check {
    fn fail(&mut self, at: &str, what: String) {
        if self.problems.len() < 20 {
            self.problems.push(format!("{at}: {what}"));
        }
    }

    fn time(&mut self, at: &str, t: Millis) {
        if !(0..=LAST_TIME).contains(&t) {
            self.fail(
                at,
                format!("{t} is not a time between 1970 and 9999 (unix ms)"),
            );
        }
    }

    fn duration(&mut self, at: &str, d: i64) {
        if !(0..=MAX_DURATION).contains(&d) {
            self.fail(at, format!("{d} ms is not a duration of 0 to 365 days"));
        }
    }

    fn text(&mut self, at: &str, s: &str, max: usize) {
        if s.len() > max {
            self.fail(at, format!("{} bytes, the limit is {max}", s.len()));
        } else if let Some(f) = find_forbidden(s) {
            self.fail(at, format!("`{}` holds {}", plain(s), f.describe()));
        }
    }

    /// Every string in a stored JSON value (a scorecard, a quiz result).
    fn json(&mut self, at: &str, v: &serde_json::Value) {
        match v {
            serde_json::Value::String(s) => self.text(at, s, MAX_TEXT),
            serde_json::Value::Array(a) => a.iter().for_each(|x| self.json(at, x)),
            serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
                self.text(at, k, MAX_ID);
                self.json(at, x);
            }),
            _ => {}
        }
    }

    /// What was ticked against a question: indices into its key points (of which there
    /// are `total`) and into its pitfalls.
    fn ticks(&mut self, at: &dyn Fn(&str) -> String, total: u32, covered: &[u32], said: &[u32]) {
        if total > MAX_ITEMS {
            self.fail(
                &at("keypoints_total"),
                format!("{total} is over {MAX_ITEMS}"),
            );
        }
        if let Some(k) = covered.iter().find(|&&k| k >= total) {
            self.fail(
                &at("keypoints_covered"),
                format!("keypoint {k} of {total} does not exist"),
            );
        }
        if let Some(p) = said.iter().find(|&&p| p >= MAX_ITEMS) {
            self.fail(
                &at("pitfalls_said"),
                format!("pitfall {p} is over {MAX_ITEMS}"),
            );
        }
    }

    fn id(&mut self, at: &str, s: &str) {
        if s.is_empty() {
            self.fail(at, "empty".into());
        }
        self.text(at, s, MAX_ID);
    }
}

/// Every problem of `doc` (the first 20), or nothing when it may be imported.
pub fn problems(doc: &Export) -> Vec<String> {
    let mut c = Check {
        problems: Vec::new(),
    };
    for (i, r) in doc.reviews.iter().enumerate() {
        let at = |f: &str| format!("reviews[{i}].{f}");
        c.id(&at("question_id"), &r.question_id);
        c.time(&at("reviewed_at"), r.reviewed_at);
        c.duration(&at("took_ms"), r.took_ms);
        if let Some(u) = r.undone_at {
            c.time(&at("undone_at"), u);
        }
    }
    for (i, card) in doc.cards.iter().enumerate() {
        let at = |f: &str| format!("cards[{i}].{f}");
        c.id(&at("question_id"), &card.question_id);
        c.time(&at("due"), card.due);
        for (f, t) in [
            ("last_review", card.last_review),
            ("buried_until", card.buried_until),
        ] {
            if let Some(t) = t {
                c.time(&at(f), t);
            }
        }
        for (f, v) in [
            ("stability", card.stability),
            ("difficulty", card.difficulty),
        ] {
            if v.is_some_and(|v| !v.is_finite() || v < 0.0) {
                c.fail(&at(f), "must be a finite number, 0 or more".into());
            }
        }
        if card.interval_days > 36_500 {
            c.fail(
                &at("interval_days"),
                format!("{} days is over 100 years", card.interval_days),
            );
        }
    }
    for (i, m) in doc.mock_sessions.iter().enumerate() {
        let at = |f: &str| format!("mock_sessions[{i}].{f}");
        c.time(&at("started_at"), m.started_at);
        if let Some(t) = m.finished_at {
            c.time(&at("finished_at"), t);
        }
        for (f, v) in [
            ("level", &m.level),
            ("topic", &m.topic),
            ("strictness", &m.strictness),
        ] {
            if let Some(v) = v {
                c.id(&at(f), v);
            }
        }
        if let Some(sc) = &m.scorecard {
            c.json(&at("scorecard"), sc);
        }
        if m.overall.is_some_and(|o| o > 100) {
            c.fail(&at("overall"), "a score is 0 to 100".into());
        }
        for (j, a) in m.answers.iter().enumerate() {
            let at = |f: &str| format!("mock_sessions[{i}].answers[{j}].{f}");
            c.id(&at("question_id"), &a.question_id);
            c.id(&at("tier"), &a.tier);
            c.time(&at("asked_at"), a.asked_at);
            c.duration(&at("took_ms"), a.took_ms);
            c.duration(&at("budget_ms"), a.budget_ms);
            c.ticks(
                &at,
                a.keypoints_total,
                &a.keypoints_covered,
                &a.pitfalls_said,
            );
            if let Some(f) = &a.followup {
                c.text(&at("followup"), f, MAX_TEXT);
            }
            if !a.score.is_finite() || !(0.0..=100.0).contains(&a.score) {
                c.fail(
                    &at("score"),
                    format!("{} is not a score of 0 to 100", a.score),
                );
            }
        }
    }
    for (i, s) in doc.solved_challenges.iter().enumerate() {
        let at = |f: &str| format!("solved_challenges[{i}].{f}");
        c.id(&at("question_id"), &s.question_id);
        c.text(&at("title"), &s.title, MAX_ID);
        c.time(&at("solved_at"), s.solved_at);
    }
    for (i, q) in doc.quiz_sessions.iter().enumerate() {
        let at = |f: &str| format!("quiz_sessions[{i}].{f}");
        c.time(&at("started_at"), q.started_at);
        if let Some(t) = q.finished_at {
            c.time(&at("finished_at"), t);
        }
        for (f, v) in [("topic", &q.topic), ("level", &q.level)] {
            if let Some(v) = v {
                c.id(&at(f), v);
            }
        }
        if q.correct > q.answered || q.answered > 10_000 || q.planned > 10_000 {
            c.fail(
                &at("correct"),
                format!(
                    "{} right of {} answered ({} planned) does not add up",
                    q.correct, q.answered, q.planned
                ),
            );
        }
        c.json(&at("result"), &q.result);
    }
    for (i, f) in doc.review_flags.iter().enumerate() {
        let at = |x: &str| format!("review_flags[{i}].{x}");
        c.id(&at("question_id"), &f.question_id);
        c.time(&at("flagged_at"), f.flagged_at);
        c.text(&at("reason"), &f.reason, MAX_TEXT);
    }
    for (i, a) in doc.typed_answers.iter().enumerate() {
        let at = |x: &str| format!("typed_answers[{i}].{x}");
        c.id(&at("question_id"), &a.question_id);
        c.time(&at("answered_at"), a.answered_at);
        c.text(&at("text"), &a.text, MAX_ANSWER);
        c.ticks(
            &at,
            a.keypoints_total,
            &a.keypoints_covered,
            &a.pitfalls_said,
        );
    }
    c.problems
}
