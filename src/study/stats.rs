//! Numbers about progress, computed from the review log and card states: reviews per day,
//! true retention, the due forecast, mastery by level and topic, streaks, and the history
//! of mock interviews and quizzes with their trends.

pub mod history;

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::content::{Deck, Level};

use super::schedule::{CardState, Phase};
use super::session::{Progress, StudyError};
use super::store::Mode;
use super::time::{DAY_MS, Millis, date_label, day_of};

pub use history::{History, MissedQuestion, MockEntry, QuizEntry, RoundEntry, Trend, WeakQuestion};

/// Days shown in the reviews-per-day history.
pub const HISTORY_DAYS: usize = 53 * 7;
/// Days in the due forecast, today first.
pub const FORECAST_DAYS: usize = 30;
/// A review interval at least this long makes a card mature (Anki's threshold).
pub const MATURE_DAYS: u32 = 21;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Stats {
    pub date: String,
    /// Today as a UTC day number (days since 1970-01-01).
    pub day: i64,
    pub reviews: ReviewCounts,
    /// Cards due by the end of today (reviews and learning steps), not counting new cards.
    pub due_today: usize,
    /// New cards today's limit still allows.
    pub new_available_today: usize,
    pub retention: Retention,
    pub by_level: Vec<Mastery>,
    pub by_topic: Vec<Mastery>,
    /// Reviews per day for the last `HISTORY_DAYS` days, oldest first.
    pub per_day: Vec<DayCount>,
    /// Cards due on each of the next `FORECAST_DAYS` days, today (with overdue) first.
    pub forecast: Vec<DayCount>,
    pub streak: Streak,
    pub mock_sessions: usize,
    pub solved_challenges: usize,
    /// Whether this progress is being saved.
    pub saving: bool,
    /// Past mock interviews and quizzes, with trends.
    pub history: History,
    /// Questions a quiz put forward, waiting at the front of the review queue.
    pub flagged_for_review: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ReviewCounts {
    /// Every grade logged and not undone, cram included.
    pub total: usize,
    pub today: usize,
    pub last_30_days: usize,
    pub undone: usize,
}

/// True retention: the share of reviews of cards in the review phase (not learning steps,
/// not cram) that were remembered, against the retention FSRS aims for. Mock grades count:
/// see `counts_for_retention`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Retention {
    pub desired: f32,
    pub all_time: Option<f64>,
    pub last_30_days: Option<f64>,
    pub passed: usize,
    pub failed: usize,
    /// Of `passed + failed`, the grades a mock interview gave.
    pub from_mocks: usize,
}

/// Whether a logged grade is a true-retention test. Cram is practice on cards that are not
/// due, so a pass says little about recall at the scheduled moment. A mock's grade is kept:
/// it is unaided recall of a card, under more pressure than a review, and it moves the
/// schedule like one (docs/mock-and-quiz.md); leaving it out would hide exactly the recalls
/// the learner is preparing for, and FSRS already treats it as evidence. Only review-phase
/// cards count, so a mock question never studied before is not a retention test either.
fn counts_for_retention(phase_before: Phase, mode: Mode) -> bool {
    phase_before == Phase::Review && mode != Mode::Cram
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Mastery {
    /// The level or topic id.
    pub name: String,
    pub total: usize,
    pub new: usize,
    pub learning: usize,
    /// Review phase, interval under `MATURE_DAYS`.
    pub young: usize,
    pub mature: usize,
    /// mature / total.
    pub mastery: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DayCount {
    pub date: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Streak {
    /// Days in a row with a review, ending today (or yesterday, if today has none yet).
    pub current: u32,
    pub longest: u32,
}

fn mastery(name: String, cards: &[Option<&CardState>]) -> Mastery {
    let mut m = Mastery {
        name,
        total: cards.len(),
        new: 0,
        learning: 0,
        young: 0,
        mature: 0,
        mastery: 0.0,
    };
    for c in cards {
        match c.map(|c| (c.phase, c.interval_days)) {
            None | Some((Phase::New, _)) => m.new += 1,
            Some((Phase::Learning | Phase::Relearning, _)) => m.learning += 1,
            Some((Phase::Review, d)) if d >= MATURE_DAYS => m.mature += 1,
            Some((Phase::Review, _)) => m.young += 1,
        }
    }
    if m.total > 0 {
        m.mastery = m.mature as f64 / m.total as f64;
    }
    m
}

impl Stats {
    /// `include_partial`: count quizzes and mocks cut short in the trends (they are listed
    /// either way).
    pub fn compute(
        deck: &Deck,
        progress: &Progress,
        now: Millis,
        include_partial: bool,
    ) -> Result<Stats, StudyError> {
        let store = &progress.store;
        let today = day_of(now);
        let cards = store.cards()?;
        let log = store.reviews()?;

        let mut per_day_map: HashMap<i64, usize> = HashMap::new();
        let mut reviews = ReviewCounts {
            total: 0,
            today: 0,
            last_30_days: 0,
            undone: 0,
        };
        let (mut passed, mut failed, mut passed30, mut failed30) = (0, 0, 0, 0);
        let mut from_mocks = 0;
        for r in &log {
            if r.undone_at.is_some() {
                reviews.undone += 1;
                continue;
            }
            let day = day_of(r.reviewed_at);
            reviews.total += 1;
            *per_day_map.entry(day).or_default() += 1;
            let recent = day > today - 30;
            reviews.today += usize::from(day == today);
            reviews.last_30_days += usize::from(recent);
            if counts_for_retention(r.phase_before, r.mode) {
                from_mocks += usize::from(r.mode == Mode::Mock);
                let ok = r.grade.passed();
                passed += usize::from(ok);
                failed += usize::from(!ok);
                if recent {
                    passed30 += usize::from(ok);
                    failed30 += usize::from(!ok);
                }
            }
        }
        let ratio = |p: usize, f: usize| (p + f > 0).then(|| p as f64 / (p + f) as f64);

        let end_of_today = (today + 1) * DAY_MS;
        let in_deck: Vec<&CardState> = deck
            .questions
            .iter()
            .filter_map(|q| cards.get(q.id.as_str()))
            .filter(|c| c.phase != Phase::New)
            .collect();
        let due_today = in_deck
            .iter()
            .filter(|c| c.due < end_of_today && !c.is_buried(now))
            .count();
        let mut forecast = vec![0usize; FORECAST_DAYS];
        for c in &in_deck {
            let d = (day_of(c.due) - today).max(0) as usize;
            if let Some(slot) = forecast.get_mut(d) {
                *slot += 1;
            }
        }
        let new_in_deck = deck
            .questions
            .iter()
            .filter(|q| {
                cards
                    .get(q.id.as_str())
                    .is_none_or(|c| c.phase == Phase::New)
            })
            .count();
        let started = store.new_cards_started(today * DAY_MS)?;
        let new_available_today =
            new_in_deck.min(progress.config.new_cards_per_day.saturating_sub(started) as usize);

        let by_level = Level::ALL
            .iter()
            .map(|l| {
                let cs: Vec<Option<&CardState>> = deck
                    .questions
                    .iter()
                    .filter(|q| q.level == *l)
                    .map(|q| cards.get(q.id.as_str()))
                    .collect();
                mastery(l.to_string(), &cs)
            })
            .collect();
        let by_topic = deck
            .topics
            .iter()
            .map(|t| {
                let cs: Vec<Option<&CardState>> = deck
                    .questions_in(&t.id)
                    .map(|q| cards.get(q.id.as_str()))
                    .collect();
                mastery(t.id.to_string(), &cs)
            })
            .collect();

        let per_day = (0..HISTORY_DAYS as i64)
            .rev()
            .map(|back| {
                let day = today - back;
                DayCount {
                    date: date_label(day),
                    count: per_day_map.get(&day).copied().unwrap_or(0),
                }
            })
            .collect();
        let forecast = forecast
            .into_iter()
            .enumerate()
            .map(|(i, count)| DayCount {
                date: date_label(today + i as i64),
                count,
            })
            .collect();

        let days: BTreeMap<i64, usize> = per_day_map.into_iter().collect();
        let mut longest = 0u32;
        let mut run = 0u32;
        let mut prev: Option<i64> = None;
        for &d in days.keys() {
            run = if prev == Some(d - 1) { run + 1 } else { 1 };
            longest = longest.max(run);
            prev = Some(d);
        }
        let mut current = 0u32;
        let mut d = if days.contains_key(&today) {
            today
        } else {
            today - 1
        };
        while days.contains_key(&d) {
            current += 1;
            d -= 1;
        }

        let (mock_sessions, solved_challenges) = store.export_counts()?;
        let flags = store.flags()?;
        let history = History::build(&store.mocks()?, &store.quizzes()?, &flags, include_partial);
        Ok(Stats {
            date: date_label(today),
            day: today,
            reviews,
            due_today,
            new_available_today,
            retention: Retention {
                desired: progress.config.desired_retention,
                all_time: ratio(passed, failed),
                last_30_days: ratio(passed30, failed30),
                passed,
                failed,
                from_mocks,
            },
            by_level,
            by_topic,
            per_day,
            forecast,
            streak: Streak { current, longest },
            mock_sessions,
            solved_challenges,
            saving: store.is_saving(),
            history,
            // A flag for a question no longer in the deck never comes up for review.
            flagged_for_review: flags
                .keys()
                .filter(|id| deck.question(id).is_some())
                .count(),
        })
    }

    /// Plain text for `kubedrill stats`.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0));
        let mut s = String::new();
        let _ = writeln!(s, "Progress on {}", self.date);
        if !self.saving {
            let _ = writeln!(s, "(not saving: the progress store is not available)");
        }
        let _ = writeln!(
            s,
            "Reviews: {} today, {} in the last 30 days, {} in all",
            self.reviews.today, self.reviews.last_30_days, self.reviews.total
        );
        let _ = writeln!(
            s,
            "Due today: {} (and {} new)",
            self.due_today, self.new_available_today
        );
        // Two lines: at 100.0% the figures alone would pass 80 columns.
        let _ = writeln!(
            s,
            "True retention: {} last 30 days, {} all time, target {:.0}%",
            pct(self.retention.last_30_days),
            pct(self.retention.all_time),
            self.retention.desired * 100.0
        );
        let _ = writeln!(
            s,
            "  ({} passed, {} failed; {} of them in mock interviews)",
            self.retention.passed, self.retention.failed, self.retention.from_mocks
        );
        let _ = writeln!(
            s,
            "Streak: {} day(s), longest {}",
            self.streak.current, self.streak.longest
        );
        // Mock interviews are counted in the history section below.
        let _ = writeln!(s, "Demo challenges solved: {}", self.solved_challenges);
        let table = |s: &mut String, title: &str, rows: &[Mastery]| {
            let _ = writeln!(
                s,
                "\n{title:<30} {:>5} {:>5} {:>5} {:>5} {:>6} {:>7}",
                "total", "new", "learn", "young", "mature", "mastery"
            );
            for m in rows {
                let _ = writeln!(
                    s,
                    "{:<30} {:>5} {:>5} {:>5} {:>5} {:>6} {:>6.0}%",
                    m.name,
                    m.total,
                    m.new,
                    m.learning,
                    m.young,
                    m.mature,
                    m.mastery * 100.0
                );
            }
        };
        table(&mut s, "level", &self.by_level);
        table(&mut s, "topic", &self.by_topic);
        let _ = writeln!(s, "\nDue in the next {FORECAST_DAYS} days:");
        let next: Vec<String> = self.forecast.iter().map(|d| d.count.to_string()).collect();
        let _ = writeln!(s, "  {}", next.join(" "));
        self.history.write_text(&mut s, self.flagged_for_review);
        s
    }
}
