//! An answer typed in review, checked by the learner after the reveal: which key points it
//! covered and which pitfalls it fell into. The grade it suggests follows the mock
//! interview's rule for the scheduler (`mock::QuestionResult::grade`), with no clock and no
//! follow-up: the same evidence gives the same grade in both places.

use std::time::Duration;

use super::history::schedule_grade;
use super::mock::QuestionResult;
use super::schedule::Grade;
use super::store::TypedAnswerRecord;
use super::time::Millis;
use crate::content::Question;

/// What the learner ticked against their typed answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerCheck {
    pub text: String,
    pub covered: Vec<bool>,
    pub said: Vec<bool>,
}

impl AnswerCheck {
    /// Nothing ticked yet.
    pub fn new(q: &Question, text: impl Into<String>) -> Self {
        AnswerCheck {
            text: text.into(),
            covered: vec![false; q.keypoints.len()],
            said: vec![false; q.pitfalls.len()],
        }
    }

    /// Rows to tick: key points, then pitfalls.
    pub fn rows(&self) -> usize {
        self.covered.len() + self.said.len()
    }

    /// Ticks or unticks row `i` (key points first, then pitfalls).
    pub fn toggle(&mut self, i: usize) {
        let k = self.covered.len();
        if let Some(c) = self.covered.get_mut(i) {
            *c = !*c;
        } else if let Some(p) = i.checked_sub(k).and_then(|j| self.said.get_mut(j)) {
            *p = !*p;
        }
    }

    fn indices(v: &[bool]) -> Vec<usize> {
        v.iter()
            .enumerate()
            .filter_map(|(i, on)| on.then_some(i))
            .collect()
    }

    /// The grade the ticks suggest, and why, in words for the grade line.
    pub fn suggest(&self, q: &Question) -> (Grade, String) {
        let mut r = QuestionResult::blank(q, Duration::ZERO);
        r.covered = Self::indices(&self.covered);
        r.pitfalls_said = Self::indices(&self.said);
        let grade = schedule_grade(r.grade());
        let said = r.pitfalls_said.len();
        let why = if said > 0 {
            format!(
                "{said} pitfall{} fallen into",
                if said == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "{} of {} key points, no pitfall",
                r.covered.len(),
                r.keypoints_total
            )
        };
        (grade, why)
    }

    /// The row the store keeps for this answer, graded `grade` at `at`.
    pub fn record(&self, q: &Question, at: Millis, grade: Grade) -> TypedAnswerRecord {
        let u32s = |v: &[bool]| {
            Self::indices(v)
                .into_iter()
                .map(|i| i as u32)
                .collect::<Vec<_>>()
        };
        TypedAnswerRecord {
            question_id: q.id.to_string(),
            answered_at: at,
            text: self.text.clone(),
            keypoints_covered: u32s(&self.covered),
            keypoints_total: q.keypoints.len() as u32,
            pitfalls_said: u32s(&self.said),
            grade,
        }
    }
}
