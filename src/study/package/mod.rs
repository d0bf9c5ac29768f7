//! The deck and the learner's schedule in formats other programs read: an Anki package
//! (`anki.rs`, `kubedrill export --anki`) and CSV (`csv.rs`, `kubedrill export --csv`).
//!
//! Why here and not in `cli`: both are pure functions from a [`Deck`] and a [`Schedule`]
//! to bytes, which the tests can read back without a terminal or a data folder; the
//! command line only loads the two and writes the bytes with its safe file writer.
//! Why a separate module from `store/export.rs`: that is kubedrill's own lossless JSON,
//! meant to be imported again; these are one-way translations into other tools' models.

pub mod anki;
pub mod csv;
pub mod html;

use std::collections::HashMap;

use crate::content::{Deck, Level, Question};

use super::schedule::{CardState, ScheduleError};
use super::store::{Review, Store, StoreError};
use super::time::Millis;

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error("writing the Anki collection: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("writing the package: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("writing CSV: {0}")]
    Csv(#[from] ::csv::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("encoding JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// What the learner has done, as the exports need it.
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    /// Card states by question id; a question without one is new.
    pub cards: HashMap<String, CardState>,
    /// The review log in time order (undone reviews included, marked).
    pub reviews: Vec<Review>,
    /// The last answer typed for each question.
    pub typed: HashMap<String, String>,
    /// Desired retention, as config.toml sets it.
    pub desired_retention: f32,
    /// False when the progress store could not be read: every card is then new.
    pub included: bool,
}

impl Schedule {
    /// Read from the progress store.
    pub fn from_store(store: &Store, desired_retention: f32) -> Result<Schedule, StoreError> {
        let mut typed = HashMap::new();
        // Oldest first, so the last one written for a question stays.
        for a in store.typed_answers(None)? {
            typed.insert(a.question_id, a.text);
        }
        Ok(Schedule {
            cards: store.cards()?,
            reviews: store.reviews()?,
            typed,
            desired_retention,
            included: true,
        })
    }

    /// No progress: every card new.
    pub fn empty(desired_retention: f32) -> Schedule {
        Schedule {
            desired_retention,
            ..Schedule::default()
        }
    }

    /// The question's card, new when it has none.
    pub fn card(&self, question_id: &str) -> CardState {
        self.cards
            .get(question_id)
            .cloned()
            .unwrap_or_else(|| CardState::new(question_id))
    }

    pub fn typed(&self, question_id: &str) -> &str {
        self.typed.get(question_id).map_or("", String::as_str)
    }
}

/// A tag without spaces (Anki splits tags on whitespace): runs of whitespace become `_`.
fn tag_part(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join("_")
}

/// `topic::ID level::LEVEL importance::IMPORTANCE`, Anki's hierarchical tags.
pub fn tags(q: &Question) -> Vec<String> {
    vec![
        format!("topic::{}", tag_part(&q.topic)),
        format!("level::{}", q.level.as_str()),
        format!("importance::{}", q.importance.as_str()),
    ]
}

/// What each seniority adds, in level order, as (level, text).
pub fn deeper(q: &Question) -> Vec<(Level, &str)> {
    Level::ALL
        .iter()
        .filter_map(|&l| q.deeper.at(l).map(|t| (l, t)))
        .collect()
}

/// The topic's title, or its id when the deck has no such topic.
pub fn topic_title<'a>(deck: &'a Deck, q: &'a Question) -> &'a str {
    deck.topic(&q.topic)
        .map_or(q.topic.as_str(), |t| t.title.as_str())
}

/// Unix milliseconds as RFC 3339 UTC, to the second: `2026-12-02T14:59:03Z`.
pub fn rfc3339(t: Millis) -> String {
    let day = super::time::day_of(t);
    let secs = t.rem_euclid(super::time::DAY_MS) / 1000;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        super::time::date_label(day),
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_is_utc_to_the_second() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(1_796_169_600_000 + 3_723_999),
            "2026-12-02T01:02:03Z"
        );
    }

    #[test]
    fn tags_hold_no_spaces() {
        assert_eq!(tag_part("a b\tc"), "a_b_c");
    }
}
