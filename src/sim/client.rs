//! kube-controller-manager's client-side rate limit. Each controller reaches the API server
//! through its own clientset, and client-go gives every clientset a token bucket
//! (`flowcontrol.NewTokenBucketRateLimiter`): `--kube-api-qps` 20 requests per second and
//! bursts of `--kube-api-burst` 30 by default (pkg/controller/apis/config/v1alpha1/
//! defaults.go). Every request costs a token, the Events a controller records included; a
//! worker that finds the bucket empty waits. This is why a default cluster creates the pods
//! of a large scale-up at about 20 per second.
//!
//! The demo's clock counts whole seconds, so the bucket is kept as an allowance: the
//! requests that can be made before the next tick, which is the tokens left (at most the
//! burst) plus the second's refill. A request made with none left waits for a tick.

/// kube-controller-manager's defaults.
pub const DEFAULT_QPS: u32 = 20;
pub const DEFAULT_BURST: u32 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub qps: u32,
    pub burst: u32,
    /// Requests left before the next tick; below zero when writes made while waiting
    /// (a status update, an Event) are still owed.
    allowance: i64,
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit::new(DEFAULT_QPS, DEFAULT_BURST)
    }
}

impl RateLimit {
    /// A full bucket, as a client starts with.
    pub fn new(qps: u32, burst: u32) -> Self {
        RateLimit {
            qps,
            burst,
            allowance: i64::from(burst) + i64::from(qps),
        }
    }

    /// One simulated second passes: the unused tokens stay (up to the burst) and the
    /// second's refill is added.
    pub fn tick(&mut self) {
        self.allowance = self.allowance.min(i64::from(self.burst)) + i64::from(self.qps);
    }

    /// True while a request can go out before the next tick.
    pub fn ready(&self) -> bool {
        self.allowance > 0
    }

    /// Requests made: each took a token, or is owed one.
    pub fn spend(&mut self, requests: u64) {
        self.allowance = self
            .allowance
            .saturating_sub(i64::try_from(requests).unwrap_or(i64::MAX));
    }

    /// New flags take effect with a full bucket, as a restarted controller-manager has.
    pub fn set(&mut self, qps: u32, burst: u32) {
        *self = RateLimit::new(qps, burst);
    }

    /// The client a restarted controller builds: the same flags, a full bucket.
    pub fn restart(&mut self) {
        self.set(self.qps, self.burst);
    }

    /// Requests that can go out before the next tick.
    pub fn allowance(&self) -> i64 {
        self.allowance
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests a busy client gets out in each of `secs` seconds.
    fn per_second(mut r: RateLimit, secs: usize) -> Vec<i64> {
        let mut out = Vec::new();
        for _ in 0..secs {
            let mut n = 0;
            while r.ready() {
                r.spend(1);
                n += 1;
            }
            out.push(n);
            r.tick();
        }
        out
    }

    #[test]
    fn a_busy_client_gets_the_burst_then_qps() {
        assert_eq!(per_second(RateLimit::default(), 4), [50, 20, 20, 20]);
    }

    #[test]
    fn an_idle_client_saves_up_to_the_burst_only() {
        let mut r = RateLimit::default();
        for _ in 0..10 {
            r.tick();
        }
        assert_eq!(r.allowance(), 50);
    }

    #[test]
    fn qps_above_the_burst_is_still_the_rate() {
        assert_eq!(per_second(RateLimit::new(100, 30), 3), [130, 100, 100]);
    }

    #[test]
    fn writes_owed_delay_the_next_ones() {
        let mut r = RateLimit::default();
        r.spend(90);
        assert!(!r.ready());
        r.tick();
        assert!(!r.ready(), "40 owed, 20 refilled");
        r.tick();
        assert!(!r.ready(), "exactly paid off");
        r.tick();
        assert_eq!(r.allowance(), 20);
    }
}
