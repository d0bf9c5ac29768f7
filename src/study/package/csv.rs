//! The deck and its schedule as CSV (RFC 4180: comma-separated, CRLF line ends, a field
//! quoted when it holds a comma, quote or line break, quotes doubled), for spreadsheets
//! and any tool that is not Anki. One header row, then one row per question in deck
//! order. Text columns keep the content's Markdown as written; lists (key points,
//! pitfalls, follow-ups) are one item per line.

use crate::content::{Deck, Question};
use crate::study::schedule::Phase;

use super::{PackageError, Schedule, rfc3339};

/// The header row.
pub const COLUMNS: [&str; 24] = [
    "id",
    "topic",
    "level",
    "importance",
    "prompt",
    "keypoints",
    "basics",
    "basics_seconds",
    "solid",
    "solid_seconds",
    "deeper",
    "explainer",
    "analogy",
    "pitfalls",
    "followups",
    "tags",
    "phase",
    "due",
    "interval_days",
    "stability",
    "difficulty",
    "reps",
    "lapses",
    "last_typed_answer",
];

fn lines(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join("\n")
}

fn row(q: &Question, schedule: &Schedule) -> Vec<String> {
    let card = schedule.card(&q.id);
    let num = |v: Option<f32>| v.map(|x| format!("{x:.4}")).unwrap_or_default();
    let due = if card.phase == Phase::New {
        String::new()
    } else {
        rfc3339(card.due)
    };
    vec![
        q.id.to_string(),
        q.topic.to_string(),
        q.level.as_str().to_string(),
        q.importance.as_str().to_string(),
        q.prompt.to_string(),
        lines(q.keypoints.iter().map(|k| format!("- {k}"))),
        q.basics.text.to_string(),
        q.basics.seconds.to_string(),
        q.solid.text.to_string(),
        q.solid.seconds.to_string(),
        lines(
            super::deeper(q)
                .into_iter()
                .map(|(l, t)| format!("{}: {t}", l.as_str())),
        ),
        q.explainer.as_deref().unwrap_or_default().to_string(),
        q.analogy.as_deref().unwrap_or_default().to_string(),
        lines(
            q.pitfalls
                .iter()
                .map(|p| format!("- {} -- {}", p.claim, p.why)),
        ),
        lines(q.followups.iter().map(|f| format!("- {} -- {}", f.q, f.a))),
        super::tags(q).join(" "),
        card.phase.as_str().to_string(),
        due,
        card.interval_days.to_string(),
        num(card.stability),
        num(card.difficulty),
        card.reps.to_string(),
        card.lapses.to_string(),
        schedule.typed(&q.id).to_string(),
    ]
}

/// The CSV bytes: the header, then one row per question.
pub fn csv(deck: &Deck, schedule: &Schedule) -> Result<Vec<u8>, PackageError> {
    let mut w = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::CRLF)
        .quote_style(::csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for q in &deck.questions {
        w.write_record(row(q, schedule))?;
    }
    w.into_inner()
        .map_err(|e| PackageError::Io(std::io::Error::other(e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_every_column() {
        let loaded = crate::content::load(
            crate::content::shipped_sources(),
            vec![],
            &crate::sim::catalog::SimCatalog,
        );
        let deck = loaded.deck;
        let bytes = csv(&deck, &Schedule::empty(0.9)).expect("csv");
        let mut r = ::csv::Reader::from_reader(bytes.as_slice());
        assert_eq!(r.headers().expect("header").len(), COLUMNS.len());
        let rows: Vec<_> = r.records().collect::<Result<_, _>>().expect("rows");
        assert_eq!(rows.len(), deck.questions.len());
        assert!(
            rows.iter()
                .all(|row| &row[16] == "new" && row[17].is_empty())
        );
    }
}
