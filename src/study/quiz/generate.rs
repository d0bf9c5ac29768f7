//! Building quiz items from content. Every item has its options in a shuffled order
//! (except true/false, which keeps "True" first) and exactly one right answer; options are
//! distinct texts.
//!
//! - pitfall-or-fact: a claim taken from a pitfall (false; the correction is its `why`) or
//!   a keypoint (true); half of a round's claims are pitfalls when there are enough.
//! - which-question: a question's one-liner (basics text); the options are its prompt and
//!   up to three other prompts, same-topic ones first.
//! - follow-up recall: a follow-up's question; the options are its answer and up to three
//!   other follow-ups' answers, same-topic ones first.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::content::{Deck, Question};

/// How many options a multiple-choice item offers at most.
pub const MAX_OPTIONS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundKind {
    PitfallOrFact,
    WhichQuestion,
    FollowupRecall,
}

impl RoundKind {
    pub const ALL: &'static [RoundKind] = &[
        RoundKind::PitfallOrFact,
        RoundKind::WhichQuestion,
        RoundKind::FollowupRecall,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RoundKind::PitfallOrFact => "pitfall-or-fact",
            RoundKind::WhichQuestion => "which-question",
            RoundKind::FollowupRecall => "followup-recall",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    /// What the round asks, as a heading.
    pub fn title(self) -> &'static str {
        match self {
            RoundKind::PitfallOrFact => "Pitfall or fact?",
            RoundKind::WhichQuestion => "Which question is this answer from?",
            RoundKind::FollowupRecall => "Follow-up recall",
        }
    }
}

impl std::fmt::Display for RoundKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One quiz question.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Item {
    pub kind: RoundKind,
    /// The content question this item is about: a miss puts it forward for review.
    pub question_id: String,
    /// What is shown: the claim, the one-liner or the follow-up question.
    pub stem: String,
    pub options: Vec<String>,
    /// The index of the right option.
    pub answer: usize,
    /// Shown right after answering: a pitfall's correction, or where the text comes from.
    pub explanation: String,
}

pub const TRUE: &str = "True";
pub const FALSE: &str = "False";

/// Words kept lowercase at the start of a claim: names written that way.
const LOWERCASE_NAMES: &[&str] = &["kubectl", "etcd", "kubelet", "kube-controller-manager"];

/// A pitfall or a keypoint worded as a claim, the same way whichever it came from:
/// pitfalls are written as sentences and keypoints as fragments, and the difference alone
/// would give the answer away. A plain first word gets a capital (identifiers such as
/// `observedGeneration` or `pod-template-hash`, and names like kubectl, keep theirs), and
/// the claim ends with a full stop.
pub fn as_claim(text: &str) -> String {
    let t = text.trim();
    let first = t.split_whitespace().next().unwrap_or("");
    let plain = !first.is_empty()
        && first.chars().all(|c| c.is_ascii_lowercase())
        && !LOWERCASE_NAMES.contains(&first);
    let mut out = if plain {
        let mut c = t.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    } else {
        t.to_string()
    };
    if !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out
}

/// Up to `n` true/false items from `questions`, half of them pitfalls when there are enough.
pub fn pitfall_or_fact(questions: &[&Question], n: usize, rng: &mut ChaCha8Rng) -> Vec<Item> {
    let mut pitfalls: Vec<Item> = Vec::new();
    let mut facts: Vec<Item> = Vec::new();
    // A claim worded the same in two places is asked once, as its first source has it.
    let mut seen = std::collections::HashSet::new();
    for q in questions {
        for p in q.pitfalls.iter().filter(|p| seen.insert(p.claim.as_str())) {
            pitfalls.push(Item {
                kind: RoundKind::PitfallOrFact,
                question_id: q.id.to_string(),
                stem: as_claim(&p.claim),
                options: vec![TRUE.into(), FALSE.into()],
                answer: 1,
                explanation: p.why.to_string(),
            });
        }
        for k in q.keypoints.iter().filter(|k| seen.insert(k.as_str())) {
            facts.push(Item {
                kind: RoundKind::PitfallOrFact,
                question_id: q.id.to_string(),
                stem: as_claim(k),
                options: vec![TRUE.into(), FALSE.into()],
                answer: 0,
                explanation: format!("True: a keypoint of \"{}\"", q.prompt),
            });
        }
    }
    pitfalls.shuffle(rng);
    facts.shuffle(rng);
    let want_pitfalls = n.div_ceil(2).min(pitfalls.len());
    let want_facts = (n - want_pitfalls).min(facts.len());
    // Top up from pitfalls when facts ran short.
    let want_pitfalls = (n - want_facts).min(pitfalls.len());
    let mut items: Vec<Item> = pitfalls.into_iter().take(want_pitfalls).collect();
    items.extend(facts.into_iter().take(want_facts));
    items.shuffle(rng);
    items
}

/// Up to `n` which-question items: subjects from `questions`, distractors from the deck.
pub fn which_question(
    deck: &Deck,
    questions: &[&Question],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Item> {
    let mut subjects: Vec<&Question> = questions.to_vec();
    subjects.shuffle(rng);
    let mut items = Vec::new();
    for q in subjects {
        if items.len() == n {
            break;
        }
        let others: Vec<(&str, &str)> = deck
            .questions
            .iter()
            .filter(|o| o.id != q.id)
            .map(|o| (o.topic.as_str(), o.prompt.as_str()))
            .collect();
        if let Some((options, answer)) = choices(&q.prompt, &q.topic, &others, rng) {
            items.push(Item {
                kind: RoundKind::WhichQuestion,
                question_id: q.id.to_string(),
                stem: q.basics.text.to_string(),
                options,
                answer,
                explanation: format!("The one-liner of \"{}\"", q.prompt),
            });
        }
    }
    items
}

/// Up to `n` follow-up recall items: subjects from `questions`, distractors from the deck.
pub fn followup_recall(
    deck: &Deck,
    questions: &[&Question],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Item> {
    let mut subjects: Vec<(&Question, usize)> = questions
        .iter()
        .flat_map(|q| (0..q.followups.len()).map(move |i| (*q, i)))
        .collect();
    subjects.shuffle(rng);
    let mut items = Vec::new();
    for (q, i) in subjects {
        if items.len() == n {
            break;
        }
        let f = &q.followups[i];
        let others: Vec<(&str, &str)> = deck
            .questions
            .iter()
            .flat_map(|o| {
                o.followups
                    .iter()
                    .enumerate()
                    .filter(move |(j, _)| !(o.id == q.id && *j == i))
                    .map(move |(_, of)| (o.topic.as_str(), of.a.as_str()))
            })
            .collect();
        if let Some((options, answer)) = choices(&f.a, &q.topic, &others, rng) {
            items.push(Item {
                kind: RoundKind::FollowupRecall,
                question_id: q.id.to_string(),
                stem: f.q.to_string(),
                options,
                answer,
                explanation: format!("A follow-up to \"{}\"", q.prompt),
            });
        }
    }
    items
}

/// The right text plus up to `MAX_OPTIONS - 1` distinct distractors (same topic first),
/// shuffled; `None` when there is no distractor at all.
fn choices(
    right: &str,
    topic: &str,
    others: &[(&str, &str)],
    rng: &mut ChaCha8Rng,
) -> Option<(Vec<String>, usize)> {
    let mut same: Vec<&str> = Vec::new();
    let mut rest: Vec<&str> = Vec::new();
    for (t, text) in others {
        if *text == right || same.contains(text) || rest.contains(text) {
            continue;
        }
        if *t == topic {
            same.push(text);
        } else {
            rest.push(text);
        }
    }
    same.shuffle(rng);
    rest.shuffle(rng);
    let distractors: Vec<&str> = same.into_iter().chain(rest).take(MAX_OPTIONS - 1).collect();
    if distractors.is_empty() {
        return None;
    }
    let mut options: Vec<String> = std::iter::once(right)
        .chain(distractors)
        .map(str::to_string)
        .collect();
    options.shuffle(rng);
    let answer = options.iter().position(|o| o == right)?;
    Some((options, answer))
}
