//! Past mock interviews and quizzes for the stats: one entry per session, the trend of the
//! scores, and the questions that went worst.
//!
//! A stored scorecard is re-scored here (the rules may have changed since it was saved); a
//! session without one (saved before schema version 3) keeps the score the store holds. A
//! scorecard or quiz result that no longer parses is treated as missing rather than
//! failing the whole stats: history is a view, not the record the schedule depends on.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::study::mock::Scorecard;
use crate::study::quiz::QuizResult;
use crate::study::store::{MockSummary, QuizSummary};
use crate::study::time::{Millis, date_label, day_of};

/// Sessions in each half of a trend: the last `TREND_WINDOW` against the ones before.
pub const TREND_WINDOW: usize = 3;
/// Questions listed as weakest in mocks and most missed in quizzes.
pub const WORST_LIMIT: usize = 5;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct History {
    /// Every mock interview, oldest first.
    pub mocks: Vec<MockEntry>,
    /// Every quiz, oldest first.
    pub quizzes: Vec<QuizEntry>,
    /// The overall scores of mocks with at least one question scored; `None` with none.
    pub mock_trend: Option<Trend>,
    /// The percents of quizzes with at least one answer; `None` with none.
    pub quiz_trend: Option<Trend>,
    /// Lowest mean score across mock scorecards, worst first, at most `WORST_LIMIT`.
    pub weakest_in_mocks: Vec<WeakQuestion>,
    /// Most quiz mistakes, most first, at most `WORST_LIMIT`.
    pub most_missed_in_quizzes: Vec<MissedQuestion>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MockEntry {
    pub id: i64,
    /// The day it started, `2024-10-04` (UTC).
    pub date: String,
    pub started_at: Millis,
    pub finished: bool,
    pub level: Option<String>,
    pub topic: Option<String>,
    pub strictness: Option<String>,
    /// Questions scored.
    pub scored: u32,
    /// Questions drawn; `None` for sessions from before schema version 3.
    pub planned: Option<u32>,
    /// 0 to 100; `None` when nothing was scored.
    pub overall: Option<u32>,
    /// Questions at or above the strictness's pass mark; needs the scorecard.
    pub passed: Option<usize>,
    /// Questions on which a pitfall was said; needs the scorecard.
    pub pitfalls: Option<usize>,
    /// Fewer questions scored than drawn; `None` when the number drawn is unknown.
    pub ended_early: Option<bool>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct QuizEntry {
    pub id: i64,
    pub date: String,
    pub started_at: Millis,
    pub finished: bool,
    pub topic: Option<String>,
    pub level: Option<String>,
    pub planned: u32,
    pub answered: u32,
    pub correct: u32,
    /// Correct as a whole percent of answered, rounded down (as the quiz shows it);
    /// `None` with no answers.
    pub percent: Option<u32>,
    /// Per round, in the order asked; empty when the stored result is unreadable.
    pub rounds: Vec<RoundEntry>,
    pub mistakes: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RoundEntry {
    /// `pitfall-or-fact`, `which-question` or `followup-recall`.
    pub kind: String,
    pub correct: usize,
    pub answered: usize,
    pub percent: Option<u32>,
}

/// How scores (0 to 100) move over sessions, oldest first.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Trend {
    /// Sessions counted.
    pub sessions: usize,
    pub last: u32,
    pub best: u32,
    pub mean: f64,
    /// Mean of the last `TREND_WINDOW` sessions (fewer when there are fewer).
    pub recent_mean: f64,
    /// Mean of up to `TREND_WINDOW` sessions before those; `None` when there are none.
    pub previous_mean: Option<f64>,
    /// `recent_mean - previous_mean`, in points.
    pub change: Option<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct WeakQuestion {
    pub question_id: String,
    /// Times it was scored in a mock.
    pub asked: usize,
    pub mean_score: f64,
    pub last_score: u32,
    /// Times a pitfall was said on it.
    pub pitfalls: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MissedQuestion {
    pub question_id: String,
    /// Wrong answers about it, across quizzes.
    pub misses: usize,
    /// Quizzes with at least one of those.
    pub quizzes: usize,
    /// Still waiting at the front of the review queue.
    pub flagged: bool,
}

fn mean(xs: &[u32]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len() as f64
}

/// The trend of `scores`, oldest first; `None` when empty.
pub fn trend(scores: &[u32]) -> Option<Trend> {
    let last = *scores.last()?;
    let split = scores.len().saturating_sub(TREND_WINDOW);
    let (before, recent) = scores.split_at(split);
    let previous = &before[before.len().saturating_sub(TREND_WINDOW)..];
    let recent_mean = mean(recent);
    let previous_mean = (!previous.is_empty()).then(|| mean(previous));
    Some(Trend {
        sessions: scores.len(),
        last,
        best: scores.iter().copied().max().unwrap_or(last),
        mean: mean(scores),
        recent_mean,
        previous_mean,
        change: previous_mean.map(|p| recent_mean - p),
    })
}

fn percent(correct: usize, answered: usize) -> Option<u32> {
    (correct * 100).checked_div(answered).map(|p| p as u32)
}

fn mock_entry(m: &MockSummary, card: Option<&Scorecard>) -> MockEntry {
    let scored = card.map_or(m.answered, |c| c.results.len() as u32);
    let overall = match card {
        Some(c) if !c.results.is_empty() => Some(c.overall()),
        Some(_) => None,
        None => m.overall.filter(|_| scored > 0),
    };
    let planned = card.map(|c| c.planned as u32).or(m.planned);
    MockEntry {
        id: m.id,
        date: date_label(day_of(m.started_at)),
        started_at: m.started_at,
        finished: m.finished_at.is_some(),
        level: m.level.clone(),
        topic: m.topic.clone(),
        strictness: m.strictness.clone(),
        scored,
        planned,
        overall,
        passed: card.map(Scorecard::passed),
        pitfalls: card.map(Scorecard::pitfalls),
        ended_early: planned.map(|p| scored < p),
    }
}

fn quiz_entry(q: &QuizSummary, result: Option<&QuizResult>) -> QuizEntry {
    let rounds = result.map_or_else(Vec::new, |r| {
        r.rounds
            .iter()
            .map(|s| RoundEntry {
                kind: s.kind.as_str().to_string(),
                correct: s.correct,
                answered: s.answered,
                percent: percent(s.correct, s.answered),
            })
            .collect()
    });
    QuizEntry {
        id: q.id,
        date: date_label(day_of(q.started_at)),
        started_at: q.started_at,
        finished: q.finished_at.is_some(),
        topic: q.topic.clone(),
        level: q.level.clone(),
        planned: q.planned,
        answered: q.answered,
        correct: q.correct,
        percent: percent(q.correct as usize, q.answered as usize),
        rounds,
        mistakes: result.map_or((q.answered - q.correct.min(q.answered)) as usize, |r| {
            r.mistakes.len()
        }),
    }
}

impl History {
    /// From the store's sessions (oldest first) and the questions flagged for review.
    /// Sessions cut short are listed either way; `include_partial` counts them in the
    /// trends too.
    pub fn build(
        mocks: &[MockSummary],
        quizzes: &[QuizSummary],
        flagged: &HashMap<String, Millis>,
        include_partial: bool,
    ) -> History {
        let cards: Vec<Option<Scorecard>> = mocks
            .iter()
            .map(|m| {
                m.scorecard
                    .as_deref()
                    .and_then(|s| serde_json::from_str(s).ok())
            })
            .collect();
        let results: Vec<Option<QuizResult>> = quizzes
            .iter()
            .map(|q| serde_json::from_str(&q.result).ok())
            .collect();
        let mock_entries: Vec<MockEntry> = mocks
            .iter()
            .zip(&cards)
            .map(|(m, c)| mock_entry(m, c.as_ref()))
            .collect();
        let quiz_entries: Vec<QuizEntry> = quizzes
            .iter()
            .zip(&results)
            .map(|(q, r)| quiz_entry(q, r.as_ref()))
            .collect();
        // A session with nothing answered says nothing (older versions saved them); one cut
        // short is listed but kept out of the trend, its mean and its best.
        let mock_entries: Vec<MockEntry> =
            mock_entries.into_iter().filter(|m| m.scored > 0).collect();
        let quiz_entries: Vec<QuizEntry> = quiz_entries
            .into_iter()
            .filter(|q| q.answered > 0)
            .collect();
        let mock_scores: Vec<u32> = mock_entries
            .iter()
            .filter(|m| include_partial || m.ended_early != Some(true))
            .filter_map(|m| m.overall)
            .collect();
        let quiz_scores: Vec<u32> = quiz_entries
            .iter()
            .filter(|q| include_partial || q.answered >= q.planned)
            .filter_map(|q| q.percent)
            .collect();
        History {
            mock_trend: trend(&mock_scores),
            quiz_trend: trend(&quiz_scores),
            weakest_in_mocks: weakest(cards.iter().flatten()),
            most_missed_in_quizzes: most_missed(results.iter().flatten(), flagged),
            mocks: mock_entries,
            quizzes: quiz_entries,
        }
    }
}

/// Sessions of each kind `kubedrill stats` lists; the JSON has them all.
pub const TEXT_ROWS: usize = 10;

/// A round's name in a narrow column.
pub fn round_label(kind: &str) -> &str {
    match kind {
        "pitfall-or-fact" => "pitfall",
        "which-question" => "which",
        "followup-recall" => "follow-up",
        other => other,
    }
}

impl Trend {
    /// `mean 61 in the last 3 vs 48 in the 3 before (+13); best 85`.
    pub fn describe(&self, unit: &str) -> String {
        let recent = self.sessions.min(TREND_WINDOW);
        let before = (self.sessions - recent).min(TREND_WINDOW);
        let head = match (self.previous_mean, self.change) {
            (Some(p), Some(c)) => format!(
                "mean {:.0}{unit} in the last {recent} vs {:.0}{unit} in the {before} before ({})",
                self.recent_mean,
                p,
                signed(c)
            ),
            _ => format!("mean {:.0}{unit} over {recent}", self.recent_mean),
        };
        format!("{head}; best {}{unit}", self.best)
    }
}

/// `+13`, `-4`, `±0`: whole points with their direction.
pub fn signed(change: f64) -> String {
    let r = change.round();
    if r == 0.0 {
        "±0".into()
    } else {
        format!("{r:+.0}")
    }
}

/// At most `n` characters, the last an ellipsis when cut (ids are ASCII slugs; the study
/// layer does not reach for the TUI's width-aware version).
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `once`, `twice`, `3 times`.
fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn opt<T: std::fmt::Display>(v: Option<T>, suffix: &str) -> String {
    v.map_or("-".into(), |v| format!("{v}{suffix}"))
}

impl History {
    /// The history section of `kubedrill stats`: recent sessions newest first, the trend
    /// lines and the weakest questions, in 80 columns.
    pub fn write_text(&self, s: &mut String, flagged: usize) {
        use std::fmt::Write;
        let older = |s: &mut String, n: usize| {
            if n > TEXT_ROWS {
                let _ = writeln!(
                    s,
                    "  ({} older not shown; --format json lists them all)",
                    n - TEXT_ROWS
                );
            }
        };
        if self.mocks.is_empty() {
            let _ = writeln!(s, "\nMock interviews: none yet");
        } else {
            let _ = writeln!(s, "\nMock interviews: {} (newest first)", self.mocks.len());
            let _ = writeln!(
                s,
                "  {:<10}  {:<9}  {:<10}  {:>6}  {:>6}  {:>5}",
                "date", "level", "strictness", "scored", "passed", "score"
            );
            for m in self.mocks.iter().rev().take(TEXT_ROWS) {
                let scored = format!("{}/{}", m.scored, opt(m.planned, ""));
                let passed = m.passed.map_or("-".into(), |p| format!("{p}/{}", m.scored));
                let note = if m.ended_early == Some(true) {
                    if m.finished {
                        "  ended early"
                    } else {
                        "  not finished"
                    }
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "  {:<10}  {:<9}  {:<10}  {:>6}  {:>6}  {:>5}{note}",
                    m.date,
                    m.level.as_deref().unwrap_or("-"),
                    m.strictness.as_deref().unwrap_or("-"),
                    scored,
                    passed,
                    opt(m.overall, "")
                );
            }
            older(s, self.mocks.len());
            if let Some(t) = &self.mock_trend {
                let _ = writeln!(s, "Mock trend: {}", t.describe(""));
            }
            if !self.weakest_in_mocks.is_empty() {
                let _ = writeln!(s, "Weakest in mocks (mean score):");
                for w in &self.weakest_in_mocks {
                    let pitfalls = match w.pitfalls {
                        0 => String::new(),
                        n => format!(", a pitfall said {}", times(n)),
                    };
                    let _ = writeln!(
                        s,
                        "  {:<36} {:>3.0}  asked {}{pitfalls}",
                        clip(&w.question_id, 36),
                        w.mean_score,
                        times(w.asked)
                    );
                }
            }
        }
        if self.quizzes.is_empty() {
            let _ = writeln!(s, "\nQuizzes: none yet");
        } else {
            let _ = writeln!(s, "\nQuizzes: {} (newest first)", self.quizzes.len());
            let _ = writeln!(
                s,
                "  {:<10}  {:>7}  {:>7}  by round",
                "date", "correct", "percent"
            );
            for q in self.quizzes.iter().rev().take(TEXT_ROWS) {
                let rounds: Vec<String> = q
                    .rounds
                    .iter()
                    .filter(|r| r.answered > 0)
                    .map(|r| format!("{} {}", round_label(&r.kind), opt(r.percent, "%")))
                    .collect();
                // Cut short: listed, not in the trend (80 columns leave room for a word).
                let partial = if q.answered < q.planned {
                    "  partial"
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "  {:<10}  {:>7}  {:>7}  {}{partial}",
                    q.date,
                    format!("{}/{}", q.correct, q.answered),
                    opt(q.percent, "%"),
                    rounds.join("  ")
                );
            }
            older(s, self.quizzes.len());
            if let Some(t) = &self.quiz_trend {
                let _ = writeln!(s, "Quiz trend: {}", t.describe("%"));
            }
            if !self.most_missed_in_quizzes.is_empty() {
                let _ = writeln!(s, "Most missed in quizzes:");
                for m in &self.most_missed_in_quizzes {
                    let _ = writeln!(
                        s,
                        "  {:<36} {:>3} {} in {}{}",
                        clip(&m.question_id, 36),
                        m.misses,
                        if m.misses == 1 { "miss" } else { "misses" },
                        plural(m.quizzes, "quiz", "quizzes"),
                        if m.flagged { ", flagged" } else { "" }
                    );
                }
            }
        }
        let _ = writeln!(s, "\nFlagged for review: {flagged} question(s)");
    }
}

/// Questions by mean mock score, lowest first; ties go to the one asked more often (more
/// evidence it is weak), then by id so the order is stable.
pub fn weakest<'a>(cards: impl Iterator<Item = &'a Scorecard>) -> Vec<WeakQuestion> {
    // id -> (scores oldest first, pitfalls)
    let mut by_id: BTreeMap<&str, (Vec<u32>, usize)> = BTreeMap::new();
    for card in cards {
        for r in &card.results {
            let e = by_id.entry(r.question_id.as_str()).or_default();
            e.0.push(r.score(card.strictness()));
            e.1 += usize::from(r.pitfall_said());
        }
    }
    let mut out: Vec<WeakQuestion> = by_id
        .into_iter()
        .map(|(id, (scores, pitfalls))| WeakQuestion {
            question_id: id.to_string(),
            asked: scores.len(),
            mean_score: mean(&scores),
            last_score: scores.last().copied().unwrap_or(0),
            pitfalls,
        })
        .collect();
    out.sort_by(|a, b| {
        a.mean_score
            .total_cmp(&b.mean_score)
            .then(b.asked.cmp(&a.asked))
            .then(a.question_id.cmp(&b.question_id))
    });
    out.truncate(WORST_LIMIT);
    out
}

/// Questions by quiz mistakes, most first, then by id.
pub fn most_missed<'a>(
    results: impl Iterator<Item = &'a QuizResult>,
    flagged: &HashMap<String, Millis>,
) -> Vec<MissedQuestion> {
    let mut by_id: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in results {
        let mut seen: Vec<&str> = Vec::new();
        for m in &r.mistakes {
            let e = by_id.entry(m.question_id.as_str()).or_default();
            e.0 += 1;
            if !seen.contains(&m.question_id.as_str()) {
                seen.push(&m.question_id);
                e.1 += 1;
            }
        }
    }
    let mut out: Vec<MissedQuestion> = by_id
        .into_iter()
        .map(|(id, (misses, quizzes))| MissedQuestion {
            question_id: id.to_string(),
            misses,
            quizzes,
            flagged: flagged.contains_key(id),
        })
        .collect();
    out.sort_by(|a, b| {
        b.misses
            .cmp(&a.misses)
            .then(a.question_id.cmp(&b.question_id))
    });
    out.truncate(WORST_LIMIT);
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::content::Level;
    use crate::study::mock::{MockSetup, QuestionResult};
    use crate::study::quiz::{Mistake, RoundKind};
    use crate::study::time::DAY_MS;

    #[test]
    fn no_sessions_no_trend() {
        assert_eq!(trend(&[]), None);
    }

    #[test]
    fn one_session_is_its_own_recent_mean_with_nothing_to_compare() {
        let t = trend(&[70]).expect("trend");
        assert_eq!((t.sessions, t.last, t.best), (1, 70, 70));
        assert_eq!(t.recent_mean, 70.0);
        assert_eq!((t.previous_mean, t.change), (None, None));
    }

    #[test]
    fn three_sessions_fill_the_recent_window_only() {
        let t = trend(&[40, 50, 90]).expect("trend");
        assert_eq!(t.recent_mean, 60.0);
        assert_eq!(t.previous_mean, None);
        assert_eq!(t.best, 90);
    }

    #[test]
    fn a_fourth_session_compares_the_last_three_with_the_one_before() {
        let t = trend(&[20, 40, 50, 90]).expect("trend");
        assert_eq!(t.recent_mean, 60.0);
        assert_eq!(t.previous_mean, Some(20.0));
        assert_eq!(t.change, Some(40.0));
        assert_eq!(t.mean, 50.0);
    }

    #[test]
    fn older_sessions_beyond_two_windows_only_count_in_the_mean_and_best() {
        // 100 is outside both windows: recent 70,80,90 (80) vs 30,40,50 (40).
        let t = trend(&[100, 30, 40, 50, 70, 80, 90]).expect("trend");
        assert_eq!(t.recent_mean, 80.0);
        assert_eq!(t.previous_mean, Some(40.0));
        assert_eq!(t.change, Some(40.0));
        assert_eq!((t.best, t.last, t.sessions), (100, 90, 7));
    }

    #[test]
    fn a_falling_trend_is_negative() {
        let t = trend(&[90, 90, 90, 60, 60, 30]).expect("trend");
        assert_eq!(t.change, Some(50.0 - 90.0));
    }

    fn result(id: &str, covered: usize, pitfall: bool) -> QuestionResult {
        QuestionResult {
            question_id: id.into(),
            level: Level::Middle,
            keypoints_total: 4,
            covered: (0..covered).collect(),
            pitfalls_said: if pitfall { vec![0] } else { vec![] },
            time: Duration::from_secs(10),
            basics_seconds: 10,
            solid_seconds: 50,
            pauses: 0,
            followup: None,
            notes: String::new(),
        }
    }

    fn card(planned: usize, results: Vec<QuestionResult>) -> Scorecard {
        Scorecard {
            setup: MockSetup::default(),
            planned,
            results,
        }
    }

    fn summary(id: i64, card: Option<&Scorecard>, overall: Option<u32>) -> MockSummary {
        MockSummary {
            id,
            started_at: id * DAY_MS,
            finished_at: Some(id * DAY_MS + 1),
            level: Some("middle".into()),
            topic: None,
            strictness: Some("standard".into()),
            seed: Some(1),
            planned: card.map(|c| c.planned as u32),
            answered: card.map_or(0, |c| c.results.len() as u32),
            overall,
            scorecard: card.map(|c| serde_json::to_string(c).expect("json")),
        }
    }

    #[test]
    fn weakest_is_the_lowest_mean_score_and_a_pitfall_counts_as_zero() {
        let cards = [
            card(2, vec![result("a", 4, false), result("b", 2, false)]),
            card(2, vec![result("a", 4, true), result("c", 3, false)]),
        ];
        let w = weakest(cards.iter());
        let ids: Vec<(&str, f64, usize)> = w
            .iter()
            .map(|w| (w.question_id.as_str(), w.mean_score, w.asked))
            .collect();
        // a: (100 + 0) / 2 = 50, tied with b's 50 but asked twice, so it comes first.
        assert_eq!(ids, [("a", 50.0, 2), ("b", 50.0, 1), ("c", 75.0, 1)]);
        assert_eq!((w[0].pitfalls, w[0].last_score), (1, 0));
    }

    #[test]
    fn a_mock_is_rescored_from_its_scorecard_and_an_old_one_keeps_its_stored_score() {
        let ended = card(3, vec![result("a", 2, false)]);
        let mocks = [
            // Before schema 3: no scorecard, no planned count; the stored score stands.
            MockSummary {
                planned: None,
                answered: 2,
                ..summary(1, None, Some(70))
            },
            // The stored 99 is stale: the scorecard says 50.
            summary(2, Some(&ended), Some(99)),
            // Started, nothing scored: not a session worth listing (older versions saved
            // such rows).
            summary(3, Some(&card(2, vec![])), Some(0)),
        ];
        let h = History::build(&mocks, &[], &HashMap::new(), false);
        let got: Vec<(Option<u32>, Option<usize>, Option<bool>)> = h
            .mocks
            .iter()
            .map(|m| (m.overall, m.passed, m.ended_early))
            .collect();
        assert_eq!(
            got,
            [(Some(70), None, None), (Some(50), Some(0), Some(true))]
        );
        assert_eq!(h.mocks[0].date, "1970-01-02");
        // The second ended early: listed, not in the trend.
        let t = h.mock_trend.expect("trend");
        assert_eq!((t.sessions, t.best, t.last), (1, 70, 70));
    }

    #[test]
    fn most_missed_counts_misses_and_quizzes_and_says_which_are_flagged() {
        let mistake = |id: &str| Mistake {
            kind: RoundKind::PitfallOrFact,
            question_id: id.into(),
            stem: String::new(),
            chosen: String::new(),
            right: String::new(),
            explanation: String::new(),
        };
        let quiz = |mistakes: Vec<Mistake>| QuizResult {
            seed: 0,
            planned: 4,
            answered: 4,
            correct: 4 - mistakes.len(),
            rounds: vec![],
            review: vec![],
            mistakes,
        };
        let results = [
            quiz(vec![mistake("x"), mistake("x"), mistake("y")]),
            quiz(vec![mistake("y")]),
            quiz(vec![mistake("z")]),
        ];
        let flagged = HashMap::from([("y".to_string(), 5)]);
        let m = most_missed(results.iter(), &flagged);
        let got: Vec<(&str, usize, usize, bool)> = m
            .iter()
            .map(|m| (m.question_id.as_str(), m.misses, m.quizzes, m.flagged))
            .collect();
        assert_eq!(
            got,
            [("x", 2, 1, false), ("y", 2, 2, true), ("z", 1, 1, false)]
        );
    }

    #[test]
    fn a_quiz_result_that_does_not_parse_keeps_the_stored_counts() {
        let q = QuizSummary {
            id: 1,
            started_at: 0,
            finished_at: None,
            topic: None,
            level: None,
            seed: 0,
            planned: 6,
            answered: 3,
            correct: 2,
            result: "{}".into(),
        };
        let h = History::build(&[], std::slice::from_ref(&q), &HashMap::new(), false);
        let e = &h.quizzes[0];
        assert_eq!((e.percent, e.mistakes, e.rounds.len()), (Some(66), 1, 0));
        // 3 of 6 answered: listed as partial, kept out of the trend.
        assert_eq!(h.quiz_trend, None);
        let mut text = String::new();
        h.write_text(&mut text, 0);
        assert!(text.contains("  partial"), "{text}");
        // Asked for, it counts.
        let h = History::build(&[], &[q], &HashMap::new(), true);
        assert_eq!(h.quiz_trend.map(|t| t.last), Some(66));
    }

    #[test]
    fn trend_text_gives_direction_and_windows() {
        let t = trend(&[20, 40, 50, 90]).expect("trend");
        assert_eq!(
            t.describe("%"),
            "mean 60% in the last 3 vs 20% in the 1 before (+40); best 90%"
        );
        let t = trend(&[70]).expect("trend");
        assert_eq!(t.describe(""), "mean 70 over 1; best 70");
        assert_eq!(signed(-0.4), "±0");
        assert_eq!(signed(-3.6), "-4");
    }

    #[test]
    fn quiz_percent_rounds_down_and_is_none_without_answers() {
        assert_eq!(percent(2, 3), Some(66));
        assert_eq!(percent(0, 0), None);
        assert_eq!(percent(5, 5), Some(100));
    }
}
