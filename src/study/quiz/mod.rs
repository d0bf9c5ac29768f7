//! The quiz: rounds of auto-checked items generated from content (see [`generate`]), a
//! state machine that shows the right answer and its explanation after each answer, and a
//! result listing the mistakes and the questions to put forward for review. No timer: a
//! quiz is untimed.

pub mod generate;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub use generate::{FALSE, Item, MAX_OPTIONS, RoundKind, TRUE};

use crate::content::{Deck, Level, Question};

/// The options chosen before a quiz starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuizSetup {
    /// The rounds, in order; each kind at most once.
    pub rounds: Vec<RoundKind>,
    /// Items per round; fewer when the content has fewer.
    pub per_round: usize,
    /// Only questions of this topic id, when set.
    pub topic: Option<String>,
    /// Only questions at or below this level, when set.
    pub level: Option<Level>,
    pub seed: u64,
}

impl Default for QuizSetup {
    fn default() -> Self {
        QuizSetup {
            rounds: RoundKind::ALL.to_vec(),
            per_round: 5,
            topic: None,
            level: None,
            seed: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuizError {
    #[error("no topic with id `{topic}`; topics: {}", known.join(", "))]
    UnknownTopic { topic: String, known: Vec<String> },
    #[error("the content matching this quiz has nothing to ask")]
    Empty,
    #[error("cannot {action} {when}")]
    WrongPhase {
        action: &'static str,
        when: &'static str,
    },
    #[error("item {index} is malformed: its answer is not one of its options")]
    BadItem { index: usize },
    #[error("no option number {index}: this item has {count}")]
    NoSuchOption { index: usize, count: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuizPhase {
    /// An item is shown, waiting for an answer.
    Asking,
    /// The answer was checked; the right option and the explanation are shown.
    Feedback,
    Done,
}

/// What the candidate sees right after answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Feedback<'a> {
    pub correct: bool,
    pub chosen: usize,
    pub right: usize,
    pub explanation: &'a str,
}

/// A wrong answer, with what is needed to learn from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mistake {
    pub kind: RoundKind,
    pub question_id: String,
    pub stem: String,
    pub chosen: String,
    pub right: String,
    pub explanation: String,
}

/// Score of one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundScore {
    pub kind: RoundKind,
    pub correct: usize,
    pub answered: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuizResult {
    pub seed: u64,
    /// Items generated for the quiz.
    pub planned: usize,
    pub answered: usize,
    pub correct: usize,
    pub rounds: Vec<RoundScore>,
    pub mistakes: Vec<Mistake>,
    /// Question ids to put forward in the review queue: one per question with a mistake,
    /// in the order the mistakes were made.
    pub review: Vec<String>,
}

impl QuizResult {
    /// Correct answers as a whole percent of those answered, rounded down; 0 with none.
    pub fn percent(&self) -> u32 {
        (self.correct * 100).checked_div(self.answered).unwrap_or(0) as u32
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quiz {
    seed: u64,
    items: Vec<Item>,
    answers: Vec<Option<usize>>,
    index: usize,
    phase: QuizPhase,
}

impl Quiz {
    /// Generates the rounds from `setup.seed`; the same deck and setup give the same quiz.
    pub fn new(deck: &Deck, setup: &QuizSetup) -> Result<Quiz, QuizError> {
        if let Some(topic) = &setup.topic
            && deck.topic(topic).is_none()
        {
            return Err(QuizError::UnknownTopic {
                topic: topic.clone(),
                known: deck.topics.iter().map(|t| t.id.to_string()).collect(),
            });
        }
        let questions: Vec<&Question> = deck
            .questions
            .iter()
            .filter(|q| setup.topic.as_deref().is_none_or(|t| q.topic == t))
            .filter(|q| setup.level.is_none_or(|l| q.level <= l))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut items = Vec::new();
        let mut done = Vec::new();
        for &kind in &setup.rounds {
            if done.contains(&kind) {
                continue;
            }
            done.push(kind);
            let n = setup.per_round;
            items.extend(match kind {
                RoundKind::PitfallOrFact => generate::pitfall_or_fact(&questions, n, &mut rng),
                RoundKind::WhichQuestion => generate::which_question(deck, &questions, n, &mut rng),
                RoundKind::FollowupRecall => {
                    generate::followup_recall(deck, &questions, n, &mut rng)
                }
            });
        }
        Quiz::from_items(setup.seed, items)
    }

    /// A quiz over given items (for tests and for replaying a stored quiz).
    pub fn from_items(seed: u64, items: Vec<Item>) -> Result<Quiz, QuizError> {
        if items.is_empty() {
            return Err(QuizError::Empty);
        }
        if let Some(index) = items.iter().position(|i| i.answer >= i.options.len()) {
            return Err(QuizError::BadItem { index });
        }
        Ok(Quiz {
            seed,
            answers: vec![None; items.len()],
            items,
            index: 0,
            phase: QuizPhase::Asking,
        })
    }

    pub fn phase(&self) -> QuizPhase {
        self.phase
    }

    pub fn is_done(&self) -> bool {
        self.phase == QuizPhase::Done
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The current item's number (from 0) and how many there are.
    pub fn position(&self) -> (usize, usize) {
        (self.index.min(self.items.len()), self.items.len())
    }

    /// The item being asked or shown with its feedback; `None` once done.
    pub fn current(&self) -> Option<&Item> {
        if self.is_done() {
            return None;
        }
        self.items.get(self.index)
    }

    /// The current item's place in its round: (number from 0, items in the round).
    pub fn round_position(&self) -> Option<(usize, usize)> {
        let kind = self.current()?.kind;
        let start = self.items[..self.index]
            .iter()
            .rposition(|i| i.kind != kind)
            .map_or(0, |p| p + 1);
        let len = self.items[start..]
            .iter()
            .take_while(|i| i.kind == kind)
            .count();
        Some((self.index - start, len))
    }

    /// Checks `choice` (an option index) and shows the feedback.
    pub fn answer(&mut self, choice: usize) -> Result<Feedback<'_>, QuizError> {
        if self.phase != QuizPhase::Asking {
            return Err(QuizError::WrongPhase {
                action: "answer",
                when: "before the next item",
            });
        }
        let count = self.items[self.index].options.len();
        if choice >= count {
            return Err(QuizError::NoSuchOption {
                index: choice,
                count,
            });
        }
        self.answers[self.index] = Some(choice);
        self.phase = QuizPhase::Feedback;
        self.feedback().ok_or(QuizError::Empty)
    }

    /// The feedback on the current item, once answered.
    pub fn feedback(&self) -> Option<Feedback<'_>> {
        if self.phase != QuizPhase::Feedback {
            return None;
        }
        let item = &self.items[self.index];
        let chosen = self.answers[self.index]?;
        Some(Feedback {
            correct: chosen == item.answer,
            chosen,
            right: item.answer,
            explanation: &item.explanation,
        })
    }

    /// Moves past the feedback to the next item, or to the end.
    pub fn advance(&mut self) -> Result<(), QuizError> {
        if self.phase != QuizPhase::Feedback {
            return Err(QuizError::WrongPhase {
                action: "move on",
                when: "before answering",
            });
        }
        self.index += 1;
        self.phase = if self.index < self.items.len() {
            QuizPhase::Asking
        } else {
            QuizPhase::Done
        };
        Ok(())
    }

    /// Ends the quiz now; unanswered items are left out of the result.
    pub fn end(&mut self) {
        self.phase = QuizPhase::Done;
    }

    /// The result so far (complete once done).
    pub fn result(&self) -> QuizResult {
        let mut rounds: Vec<RoundScore> = Vec::new();
        let mut mistakes = Vec::new();
        let mut review: Vec<String> = Vec::new();
        let mut answered = 0;
        let mut correct = 0;
        for (item, answer) in self.items.iter().zip(&self.answers) {
            let Some(chosen) = *answer else { continue };
            answered += 1;
            let ok = chosen == item.answer;
            correct += usize::from(ok);
            match rounds.iter_mut().find(|r| r.kind == item.kind) {
                Some(r) => {
                    r.answered += 1;
                    r.correct += usize::from(ok);
                }
                None => rounds.push(RoundScore {
                    kind: item.kind,
                    correct: usize::from(ok),
                    answered: 1,
                }),
            }
            if !ok {
                mistakes.push(Mistake {
                    kind: item.kind,
                    question_id: item.question_id.clone(),
                    stem: item.stem.clone(),
                    chosen: item.options[chosen].clone(),
                    right: item.options[item.answer].clone(),
                    explanation: item.explanation.clone(),
                });
                if !review.contains(&item.question_id) {
                    review.push(item.question_id.clone());
                }
            }
        }
        QuizResult {
            seed: self.seed,
            planned: self.items.len(),
            answered,
            correct,
            rounds,
            mistakes,
            review,
        }
    }
}
