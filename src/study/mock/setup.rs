//! Setting up a mock interview: its options, and drawing the questions.
//!
//! Questions are drawn without repeats, one at a time, each with probability proportional
//! to its weight among those not drawn yet:
//!
//! `weight = level_fit × importance × (100 + frequency)`
//!
//! - `level_fit` compares the question's level with the target level: the same level 4,
//!   one below 3, two below 2, three below 1 (a senior interview still asks junior
//!   questions, less often), one above 1 (a stretch question), two or more above 0 (never
//!   drawn). A mock asks one stretch question at most, and asks it last: once one is
//!   drawn the others leave the pool.
//! - `importance`: must-know 3, should-know 2, nice-to-know 1.
//! - `frequency` is the percent of interviews that ask the question, where the content
//!   says who measured it (`frequency_source`); a question without a measured figure counts
//!   0 here, so its weight is level and importance alone, and a measured figure can at
//!   most double a question's chance.
//!
//! The randomness is a `ChaCha8Rng` seeded with the setup's seed, so a seed replays the same
//! interview with any version of this program built on the same rand major version.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::content::{Deck, Importance, Level, Question};

/// How hard the scorecard is on overtime, and the score a question needs to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strictness {
    /// Overtime costs nothing; pass mark 50.
    Lenient,
    /// Overtime costs 5 points per started quarter of the solid budget, at most 20; pass
    /// mark 60.
    #[default]
    Standard,
    /// Overtime costs 10 points per started quarter, at most 40; pass mark 70.
    Strict,
}

impl Strictness {
    pub const ALL: &'static [Strictness] = &[
        Strictness::Lenient,
        Strictness::Standard,
        Strictness::Strict,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Strictness::Lenient => "lenient",
            Strictness::Standard => "standard",
            Strictness::Strict => "strict",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }

    /// Points lost per started quarter of the solid budget spent in overtime.
    pub fn overtime_step_penalty(self) -> u32 {
        match self {
            Strictness::Lenient => 0,
            Strictness::Standard => 5,
            Strictness::Strict => 10,
        }
    }

    /// The most overtime can cost one question.
    pub fn overtime_max_penalty(self) -> u32 {
        self.overtime_step_penalty() * 4
    }

    /// The score (0 to 100) a question needs to count as passed.
    pub fn pass_mark(self) -> u32 {
        match self {
            Strictness::Lenient => 50,
            Strictness::Standard => 60,
            Strictness::Strict => 70,
        }
    }
}

impl std::fmt::Display for Strictness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The options chosen before a mock interview starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MockSetup {
    /// How many questions to ask; fewer when fewer match.
    pub questions: usize,
    /// The seniority the candidate is interviewing for.
    #[serde(with = "level_name")]
    pub level: Level,
    /// Only questions of this topic id, when set.
    pub topic: Option<String>,
    pub strictness: Strictness,
    pub seed: u64,
}

impl Default for MockSetup {
    fn default() -> Self {
        MockSetup {
            questions: 5,
            level: Level::Middle,
            topic: None,
            strictness: Strictness::Standard,
            seed: 0,
        }
    }
}

/// A `Level` as its name (the content model only serializes it).
pub(crate) mod level_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::content::Level;

    pub fn serialize<S: Serializer>(l: &Level, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(l.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let name = String::deserialize(d)?;
        Level::parse(&name).ok_or_else(|| {
            D::Error::custom(format!(
                "invalid level `{name}`; valid: {}",
                Level::names().join(", ")
            ))
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("a mock interview needs at least one question")]
    ZeroQuestions,
    #[error("no topic with id `{topic}`; topics: {}", known.join(", "))]
    UnknownTopic { topic: String, known: Vec<String> },
    #[error(
        "no question{} is at or near level {level} (at most one level above it)",
        topic.as_ref().map(|t| format!(" in topic `{t}`")).unwrap_or_default()
    )]
    NoQuestions { level: Level, topic: Option<String> },
}

fn rank(level: Level) -> i32 {
    match level {
        Level::Junior => 0,
        Level::Middle => 1,
        Level::Senior => 2,
        Level::Principal => 3,
    }
}

/// How well a question's level fits the target level (see the module docs).
pub fn level_fit(question: Level, target: Level) -> u32 {
    match rank(target) - rank(question) {
        0 => 4,
        1 => 3,
        2 => 2,
        d if d >= 3 => 1,
        -1 => 1,
        _ => 0,
    }
}

pub fn importance_weight(importance: Importance) -> u32 {
    match importance {
        Importance::MustKnow => 3,
        Importance::ShouldKnow => 2,
        Importance::NiceToKnow => 1,
    }
}

/// The chance weight of a question in a mock at `target` level; 0 means never drawn.
pub fn weight(q: &Question, target: Level) -> u32 {
    level_fit(q.level, target)
        * importance_weight(q.importance)
        * (100 + u32::from(q.frequency.unwrap_or(0)))
}

/// Draws up to `setup.questions` questions from the deck without repeats (see the module
/// docs for the weighting), in the order they will be asked.
pub fn draw<'d>(
    deck: &'d Deck,
    setup: &MockSetup,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<&'d Question>, SetupError> {
    if setup.questions == 0 {
        return Err(SetupError::ZeroQuestions);
    }
    if let Some(topic) = &setup.topic
        && deck.topic(topic).is_none()
    {
        return Err(SetupError::UnknownTopic {
            topic: topic.clone(),
            known: deck.topics.iter().map(|t| t.id.to_string()).collect(),
        });
    }
    let mut pool: Vec<(&Question, u32)> = deck
        .questions
        .iter()
        .filter(|q| setup.topic.as_deref().is_none_or(|t| q.topic == t))
        .map(|q| (q, weight(q, setup.level)))
        .filter(|(_, w)| *w > 0)
        .collect();
    if pool.is_empty() {
        return Err(SetupError::NoQuestions {
            level: setup.level,
            topic: setup.topic.clone(),
        });
    }
    let mut drawn = Vec::new();
    while drawn.len() < setup.questions && !pool.is_empty() {
        let total: u64 = pool.iter().map(|(_, w)| u64::from(*w)).sum();
        let mut r = rng.random_range(0..total);
        let mut pick = pool.len() - 1;
        for (i, (_, w)) in pool.iter().enumerate() {
            if r < u64::from(*w) {
                pick = i;
                break;
            }
            r -= u64::from(*w);
        }
        // `remove`, not `swap_remove`: the pool keeps deck order, so a seed's draw only
        // depends on the deck and the seed.
        let q = pool.remove(pick).0;
        if is_stretch(q.level, setup.level) {
            // One question above the target at most: the stretch question.
            pool.retain(|(other, _)| !is_stretch(other.level, setup.level));
        }
        drawn.push(q);
    }
    // The stretch question comes last, after the ones at the target level or below.
    drawn.sort_by_key(|q| is_stretch(q.level, setup.level));
    Ok(drawn)
}

/// A question one level above the target: a mock asks one at most, last, and says so.
pub fn is_stretch(question: Level, target: Level) -> bool {
    rank(question) > rank(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_fit_prefers_the_target_and_never_goes_two_above() {
        use Level::*;
        assert_eq!(level_fit(Senior, Senior), 4);
        assert_eq!(level_fit(Middle, Senior), 3);
        assert_eq!(level_fit(Junior, Senior), 2);
        assert_eq!(level_fit(Junior, Principal), 1);
        assert_eq!(level_fit(Principal, Senior), 1);
        assert_eq!(level_fit(Senior, Junior), 0);
        assert_eq!(level_fit(Principal, Junior), 0);
    }

    #[test]
    fn strictness_names_round_trip() {
        for s in Strictness::ALL {
            assert_eq!(Strictness::parse(s.as_str()), Some(*s));
        }
        assert_eq!(Strictness::parse("harsh"), None);
    }
}
