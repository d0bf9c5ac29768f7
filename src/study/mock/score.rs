//! Scoring a mock interview: one result per question, its score, its grade for the
//! scheduler, and the scorecard over the whole interview. The rules are documented in
//! docs/mock-and-quiz.md; the functions here are the only place they live.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::setup::{MockSetup, Strictness};
use crate::content::{Level, Question};

/// A review grade for the spaced-repetition scheduler, in FSRS's four steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Grade {
    Again,
    Hard,
    Good,
    Easy,
}

impl Grade {
    pub fn as_str(self) -> &'static str {
        match self {
            Grade::Again => "again",
            Grade::Hard => "hard",
            Grade::Good => "good",
            Grade::Easy => "easy",
        }
    }

    /// FSRS's rating number: Again 1, Hard 2, Good 3, Easy 4.
    pub fn rating(self) -> u32 {
        match self {
            Grade::Again => 1,
            Grade::Hard => 2,
            Grade::Good => 3,
            Grade::Easy => 4,
        }
    }
}

impl std::fmt::Display for Grade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The candidate's own verdict on their follow-up answer, after seeing the model answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowupVerdict {
    Answered,
    Partial,
    Missed,
}

impl FollowupVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            FollowupVerdict::Answered => "answered",
            FollowupVerdict::Partial => "partly answered",
            FollowupVerdict::Missed => "missed",
        }
    }

    /// Points the follow-up adds to the question's score.
    pub fn points(self) -> u32 {
        match self {
            FollowupVerdict::Answered => FOLLOWUP_POINTS,
            FollowupVerdict::Partial => FOLLOWUP_POINTS / 2,
            FollowupVerdict::Missed => 0,
        }
    }
}

/// The share of a question's 100 points that its follow-up carries, when one was asked.
pub const FOLLOWUP_POINTS: u32 = 20;

/// The follow-up's timer: half the solid budget, at least the basics budget, at most the
/// solid budget. 25 s for the shipped 10 s / 50 s and 20 s / 50 s questions.
pub fn followup_budget(q: &Question) -> u32 {
    (q.solid.seconds / 2)
        .max(q.basics.seconds)
        .min(q.solid.seconds)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowupResult {
    /// Which of the question's follow-ups was asked (an index into `followups`).
    pub index: usize,
    pub verdict: FollowupVerdict,
    #[serde(with = "millis")]
    pub time: Duration,
    pub budget_seconds: u32,
}

/// What happened on one question. Holds what was observed; scores and grades are derived
/// from it, so a stored result is re-scored by the rules of the program that reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionResult {
    pub question_id: String,
    #[serde(with = "super::setup::level_name")]
    pub level: Level,
    pub keypoints_total: usize,
    /// Indices of the keypoints the candidate ticked as covered, ascending.
    pub covered: Vec<usize>,
    /// Indices of the pitfalls the candidate admitted saying, ascending.
    pub pitfalls_said: Vec<usize>,
    /// Answering time, pauses excluded.
    #[serde(with = "millis")]
    pub time: Duration,
    pub basics_seconds: u32,
    pub solid_seconds: u32,
    pub pauses: u32,
    pub followup: Option<FollowupResult>,
    pub notes: String,
}

impl QuestionResult {
    /// A result for `q` with nothing covered yet and the given answering time.
    pub fn blank(q: &Question, time: Duration) -> Self {
        QuestionResult {
            question_id: q.id.to_string(),
            level: q.level,
            keypoints_total: q.keypoints.len(),
            covered: Vec::new(),
            pitfalls_said: Vec::new(),
            time,
            basics_seconds: q.basics.seconds,
            solid_seconds: q.solid.seconds,
            pauses: 0,
            followup: None,
            notes: String::new(),
        }
    }

    pub fn pitfall_said(&self) -> bool {
        !self.pitfalls_said.is_empty()
    }

    /// Coverage as a whole percent, rounded down. A question without keypoints counts as
    /// fully covered: there was nothing to miss.
    pub fn coverage_percent(&self) -> u32 {
        if self.keypoints_total == 0 {
            return 100;
        }
        (self.covered.len().min(self.keypoints_total) * 100 / self.keypoints_total) as u32
    }

    /// Whether at least `percent` of the keypoints were covered, exactly (no rounding).
    fn covers_at_least(&self, percent: usize) -> bool {
        self.keypoints_total == 0 || self.covered.len() * 100 >= self.keypoints_total * percent
    }

    /// Whole seconds past the solid budget (a fraction of a second over is not overtime).
    pub fn overtime_seconds(&self) -> u64 {
        self.time
            .as_secs()
            .saturating_sub(u64::from(self.solid_seconds))
    }

    /// Started quarters of the solid budget spent in overtime.
    pub fn overtime_quarters(&self) -> u64 {
        let over = self.overtime_seconds();
        let solid = u64::from(self.solid_seconds.max(1));
        (over * 4).div_ceil(solid)
    }

    /// Points lost to overtime under `strictness`.
    pub fn overtime_penalty(&self, strictness: Strictness) -> u32 {
        let steps = u32::try_from(self.overtime_quarters()).unwrap_or(u32::MAX);
        steps
            .saturating_mul(strictness.overtime_step_penalty())
            .min(strictness.overtime_max_penalty())
    }

    /// The question's score out of 100: 0 when a pitfall was said; otherwise the keypoint
    /// share (80 points with a follow-up, 100 without) times coverage, plus the follow-up's
    /// points, minus the overtime penalty.
    pub fn score(&self, strictness: Strictness) -> u32 {
        if self.pitfall_said() {
            return 0;
        }
        let share = if self.followup.is_some() {
            100 - FOLLOWUP_POINTS
        } else {
            100
        };
        let keypoints = if self.keypoints_total == 0 {
            share
        } else {
            (self.covered.len().min(self.keypoints_total) as u32) * share
                / self.keypoints_total as u32
        };
        let followup = self.followup.as_ref().map_or(0, |f| f.verdict.points());
        (keypoints + followup).saturating_sub(self.overtime_penalty(strictness))
    }

    pub fn passed(&self, strictness: Strictness) -> bool {
        self.score(strictness) >= strictness.pass_mark()
    }

    /// The grade fed to the scheduler. It does not depend on strictness, so the scheduler
    /// sees the same evidence whatever setting a mock used:
    ///
    /// - Again: a pitfall said, or under 50% of the keypoints;
    /// - Hard: under 80% of the keypoints, or more than 1.5 × the solid budget, or the
    ///   follow-up missed;
    /// - Easy: every keypoint, within the solid budget, and the follow-up (when asked)
    ///   answered within its budget;
    /// - Good: everything else.
    pub fn grade(&self) -> Grade {
        if self.pitfall_said() || !self.covers_at_least(50) {
            return Grade::Again;
        }
        let slow = self.time.as_secs() * 2 > u64::from(self.solid_seconds) * 3;
        let followup_missed = self
            .followup
            .as_ref()
            .is_some_and(|f| f.verdict == FollowupVerdict::Missed);
        if !self.covers_at_least(80) || slow || followup_missed {
            return Grade::Hard;
        }
        let followup_clean = self.followup.as_ref().is_none_or(|f| {
            f.verdict == FollowupVerdict::Answered
                && f.time.as_secs() <= u64::from(f.budget_seconds)
        });
        if self.covers_at_least(100) && self.overtime_seconds() == 0 && followup_clean {
            Grade::Easy
        } else {
            Grade::Good
        }
    }
}

/// One bar of the scorecard chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChartBar {
    /// `Q1`, `Q2`, ... in the order asked.
    pub label: String,
    pub question_id: String,
    pub score: u32,
    pub seconds: u64,
    pub budget_seconds: u32,
}

/// A finished (or ended early) mock interview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scorecard {
    pub setup: MockSetup,
    /// How many questions were drawn for the interview.
    pub planned: usize,
    /// One per question answered through its rubric, in the order asked.
    pub results: Vec<QuestionResult>,
}

impl Scorecard {
    pub fn strictness(&self) -> Strictness {
        self.setup.strictness
    }

    /// Ended before every drawn question was scored.
    pub fn ended_early(&self) -> bool {
        self.results.len() < self.planned
    }

    /// The mean question score, rounded to the nearest whole point; 0 with no results.
    pub fn overall(&self) -> u32 {
        if self.results.is_empty() {
            return 0;
        }
        let sum: u32 = self
            .results
            .iter()
            .map(|r| r.score(self.strictness()))
            .sum();
        let n = self.results.len() as u32;
        (sum * 2 + n) / (2 * n)
    }

    pub fn passed(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.passed(self.strictness()))
            .count()
    }

    /// Questions on which a pitfall was said.
    pub fn pitfalls(&self) -> usize {
        self.results.iter().filter(|r| r.pitfall_said()).count()
    }

    pub fn total_time(&self) -> Duration {
        self.results.iter().map(|r| r.time).sum()
    }

    pub fn total_budget_seconds(&self) -> u64 {
        self.results
            .iter()
            .map(|r| u64::from(r.solid_seconds))
            .sum()
    }

    pub fn total_overtime_seconds(&self) -> u64 {
        self.results
            .iter()
            .map(QuestionResult::overtime_seconds)
            .sum()
    }

    /// Question ids with their grades, for the scheduler.
    pub fn grades(&self) -> Vec<(&str, Grade)> {
        self.results
            .iter()
            .map(|r| (r.question_id.as_str(), r.grade()))
            .collect()
    }

    /// The data for the scorecard's chart: one bar per question, in the order asked.
    pub fn chart(&self) -> Vec<ChartBar> {
        self.results
            .iter()
            .enumerate()
            .map(|(i, r)| ChartBar {
                label: format!("Q{}", i + 1),
                question_id: r.question_id.clone(),
                score: r.score(self.strictness()),
                seconds: r.time.as_secs(),
                budget_seconds: r.solid_seconds,
            })
            .collect()
    }
}

/// Durations as whole milliseconds, so stored scorecards read plainly.
mod millis {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}
