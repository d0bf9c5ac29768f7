//! The content model: topics and questions as loaded and validated.

use serde::{Deserialize, Serialize};

pub use super::shared::Str;

/// All content that loaded cleanly.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Deck {
    pub topics: Vec<Topic>,
    pub questions: Vec<Question>,
}

impl Deck {
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.id == id)
    }

    pub fn topic(&self, id: &str) -> Option<&Topic> {
        self.topics.iter().find(|t| t.id == id)
    }

    pub fn questions_in<'a>(&'a self, topic: &'a str) -> impl Iterator<Item = &'a Question> {
        self.questions.iter().filter(move |q| q.topic == topic)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Topic {
    pub id: Str,
    pub title: Str,
    pub part_of: Option<Str>,
    pub summary: Option<Str>,
    pub roadmaps: Vec<Str>,
    /// The file it came from, as shown to the user.
    pub file: Str,
}

/// Defines a closed set of kebab-case names with `ALL`, `as_str` and `parse`.
macro_rules! name_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }

            /// The valid names, for error messages.
            pub fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(|v| v.as_str()).collect()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

name_enum!(
    /// Seniority a question targets, in increasing order.
    Level { Junior = "junior", Middle = "middle", Senior = "senior", Principal = "principal" }
);

name_enum!(
    /// How much an interview depends on knowing the answer.
    Importance { MustKnow = "must-know", ShouldKnow = "should-know", NiceToKnow = "nice-to-know" }
);

/// A timed answer tier: what to say and roughly how long saying it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Tier {
    pub seconds: u32,
    pub text: Str,
}

/// What each seniority adds to the answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Deeper {
    pub junior: Option<Str>,
    pub middle: Option<Str>,
    pub senior: Option<Str>,
    pub principal: Option<Str>,
}

impl Deeper {
    pub fn at(&self, level: Level) -> Option<&str> {
        match level {
            Level::Junior => self.junior.as_deref(),
            Level::Middle => self.middle.as_deref(),
            Level::Senior => self.senior.as_deref(),
            Level::Principal => self.principal.as_deref(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct CodeBlock {
    pub lang: Str,
    pub caption: Option<Str>,
    pub text: Str,
    /// Each line runs in the question's demo.
    pub runnable: bool,
}

impl CodeBlock {
    /// The lines a runnable block sends to the demo (blank lines skipped).
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.text.lines().map(str::trim).filter(|l| !l.is_empty())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Followup {
    pub q: Str,
    pub a: Str,
}

/// A claim that costs the candidate the question, with its correction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Pitfall {
    pub claim: Str,
    pub why: Str,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Challenge {
    pub title: Str,
    /// Steps towards the goal, revealed one at a time: `hints = [...]`, or one `hint`.
    pub hints: Vec<Str>,
    /// A goal in the simulator's challenge language.
    pub goal: Str,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Demo {
    pub scenario: Str,
    pub setup: Vec<Str>,
    pub challenges: Vec<Challenge>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "'de: 'static"))]
pub struct Question {
    pub id: Str,
    /// The id of the topic whose file holds it.
    pub topic: Str,
    pub prompt: Str,
    pub level: Level,
    pub importance: Importance,
    /// Percent of interviews that ask it, only where `frequency_source` says who measured
    /// it: a figure without a source is not shown as data.
    pub frequency: Option<u8>,
    /// Where the figure comes from (free text).
    pub frequency_source: Option<Str>,
    pub keypoints: Vec<Str>,
    pub analogy: Option<Str>,
    pub basics: Tier,
    pub solid: Tier,
    pub deeper: Deeper,
    pub explainer: Option<Str>,
    pub code: Vec<CodeBlock>,
    pub followups: Vec<Followup>,
    pub pitfalls: Vec<Pitfall>,
    pub demo: Demo,
}
