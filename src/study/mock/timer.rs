//! A pausable stopwatch and the countdown shown while the candidate answers. Time is always
//! passed in (a `Duration` since any fixed origin the caller keeps, usually the start of the
//! session), so timers are tested without sleeping.

use std::time::Duration;

/// Measures running time only: paused spans do not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stopwatch {
    /// Time banked by earlier running spans.
    banked: Duration,
    /// When the current running span began; `None` while paused or stopped.
    running_since: Option<Duration>,
    /// Number of pauses taken.
    pauses: u32,
}

impl Stopwatch {
    /// A stopwatch started at `now`.
    pub fn started(now: Duration) -> Self {
        Stopwatch {
            banked: Duration::ZERO,
            running_since: Some(now),
            pauses: 0,
        }
    }

    /// Running time up to `now`. A `now` earlier than the last start counts as that start
    /// (a caller's clock never makes the time go backwards).
    pub fn elapsed(&self, now: Duration) -> Duration {
        match self.running_since {
            Some(since) => self.banked + now.saturating_sub(since),
            None => self.banked,
        }
    }

    pub fn is_running(&self) -> bool {
        self.running_since.is_some()
    }

    pub fn pauses(&self) -> u32 {
        self.pauses
    }

    /// Stops counting; a no-op when already paused.
    pub fn pause(&mut self, now: Duration) {
        if self.running_since.is_some() {
            self.banked = self.elapsed(now);
            self.running_since = None;
            self.pauses += 1;
        }
    }

    /// Counts again from `now`; a no-op when running.
    pub fn resume(&mut self, now: Duration) {
        if self.running_since.is_none() {
            self.running_since = Some(now);
        }
    }

    /// Stops for good and returns the running time. Unlike `pause`, not counted as a pause.
    pub fn stop(&mut self, now: Duration) -> Duration {
        self.banked = self.elapsed(now);
        self.running_since = None;
        self.banked
    }
}

/// Where an answer stands against its two budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Before the basics checkpoint: the one-liner should be out by now.
    Basics,
    /// Between the checkpoint and the solid budget.
    Solid,
    /// Past the solid budget; the clock keeps counting.
    Overtime,
}

/// What a countdown shows at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Countdown {
    pub elapsed: Duration,
    /// The checkpoint (the basics budget); `None` for a timer with a single budget.
    pub checkpoint: Option<Duration>,
    /// The end of the budget (the solid budget, or the follow-up's budget).
    pub budget: Duration,
    pub stage: Stage,
    /// Time left until the end of the budget; zero in overtime.
    pub remaining: Duration,
    /// Time past the budget; zero before it.
    pub overtime: Duration,
    pub paused: bool,
}

impl Countdown {
    pub fn new(
        elapsed: Duration,
        checkpoint: Option<Duration>,
        budget: Duration,
        paused: bool,
    ) -> Self {
        let stage = if elapsed >= budget {
            Stage::Overtime
        } else if checkpoint.is_some_and(|c| elapsed < c) {
            Stage::Basics
        } else {
            Stage::Solid
        };
        Countdown {
            elapsed,
            checkpoint,
            budget,
            stage,
            remaining: budget.saturating_sub(elapsed),
            overtime: elapsed.saturating_sub(budget),
            paused,
        }
    }

    /// Share of the budget used, for a gauge: 0.0 at the start, 1.0 at the budget, above 1.0
    /// in overtime.
    pub fn used(&self) -> f64 {
        if self.budget.is_zero() {
            return 1.0;
        }
        self.elapsed.as_secs_f64() / self.budget.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn paused_time_does_not_count() {
        let mut w = Stopwatch::started(s(100));
        assert_eq!(w.elapsed(s(104)), s(4));
        w.pause(s(104));
        assert_eq!(w.elapsed(s(200)), s(4));
        w.pause(s(201)); // second pause while paused changes nothing
        w.resume(s(200));
        assert_eq!(w.elapsed(s(210)), s(14));
        assert_eq!(w.pauses(), 1);
        assert_eq!(w.stop(s(211)), s(15));
        assert_eq!(w.elapsed(s(999)), s(15));
    }

    #[test]
    fn a_clock_going_backwards_never_makes_negative_time() {
        let w = Stopwatch::started(s(10));
        assert_eq!(w.elapsed(s(5)), Duration::ZERO);
    }

    #[test]
    fn countdown_stages_follow_the_two_budgets() {
        let c = |e| Countdown::new(s(e), Some(s(10)), s(50), false);
        assert_eq!(c(0).stage, Stage::Basics);
        assert_eq!(c(9).stage, Stage::Basics);
        assert_eq!(c(10).stage, Stage::Solid);
        assert_eq!(c(49).remaining, s(1));
        assert_eq!(c(50).stage, Stage::Overtime);
        assert_eq!(c(62).overtime, s(12));
        assert_eq!(c(62).remaining, Duration::ZERO);
        assert!((c(25).used() - 0.5).abs() < 1e-9);
        let single = Countdown::new(s(3), None, s(20), false);
        assert_eq!(single.stage, Stage::Solid);
    }
}
