//! From the metrics' recommendation to the replicas the HPA writes (horizontal.go, 1.32):
//! the stabilization windows over recent recommendations, and the rate limits, either the
//! fixed ones of an HPA without `behavior` (up to at most max(2 x current, 4); 5 minutes of
//! down-scale stabilization) or its scale-up and scale-down policies. What the controller
//! remembers here lives only in its memory: a restarted kube-controller-manager forgets
//! its recommendations and scale events.

use serde_json::Value;

/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION: i64 = 300;
/// The scale-up limit without `behavior`: max(2 x current, 4) replicas.
const SCALE_UP_LIMIT_FACTOR: f64 = 2.0;
const SCALE_UP_LIMIT_MINIMUM: f64 = 4.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    Max,
    Min,
    Disabled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyType {
    Pods,
    Percent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub kind: PolicyType,
    pub value: i32,
    pub period: i64,
}

/// HPAScalingRules, defaulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    pub stabilization: i64,
    pub select: Select,
    pub policies: Vec<Policy>,
}

impl Rules {
    /// Reads `spec.behavior.scaleUp` or `scaleDown` as stored (the API server has filled
    /// in the defaults); a scale-down window left out is the controller's own 300 s
    /// (maybeInitScaleDownStabilizationWindow).
    pub fn from_json(v: &Value) -> Rules {
        let select = match v["selectPolicy"].as_str() {
            Some("Min") => Select::Min,
            Some("Disabled") => Select::Disabled,
            _ => Select::Max,
        };
        let policies = v["policies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| Policy {
                kind: if p["type"] == "Pods" {
                    PolicyType::Pods
                } else {
                    PolicyType::Percent
                },
                value: p["value"].as_i64().unwrap_or(0) as i32,
                period: p["periodSeconds"].as_i64().unwrap_or(0),
            })
            .collect();
        Rules {
            stabilization: v["stabilizationWindowSeconds"]
                .as_i64()
                .unwrap_or(DOWNSCALE_STABILIZATION),
            select,
            policies,
        }
    }
}

/// A scale the HPA made (timestampedScaleEvent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaleEvent {
    pub change: i32,
    pub at: i64,
    pub outdated: bool,
}

/// What the controller keeps per HPA between syncs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// (recommendation, when): timestampedRecommendation.
    pub recommendations: Vec<(i32, i64)>,
    pub up: Vec<ScaleEvent>,
    pub down: Vec<ScaleEvent>,
}

/// A condition the normalization sets: (type, status, reason, message).
pub type Cond = (&'static str, bool, &'static str, &'static str);

const READY_FOR_NEW_SCALE: Cond = (
    "AbleToScale",
    true,
    "ReadyForNewScale",
    "recommended size matches current size",
);
const SCALE_DOWN_STABILIZED: Cond = (
    "AbleToScale",
    true,
    "ScaleDownStabilized",
    "recent recommendations were higher than current one, applying the highest recent recommendation",
);
const SCALE_UP_STABILIZED: Cond = (
    "AbleToScale",
    true,
    "ScaleUpStabilized",
    "recent recommendations were lower than current one, applying the lowest recent recommendation",
);

fn limited(limited: bool, (reason, message): (&'static str, &'static str)) -> Cond {
    ("ScalingLimited", limited, reason, message)
}

const WITHIN_RANGE: (&str, &str) = (
    "DesiredWithinRange",
    "the desired count is within the acceptable range",
);
const TOO_FEW: (&str, &str) = (
    "TooFewReplicas",
    "the desired replica count is less than the minimum replica count",
);
const TOO_MANY: (&str, &str) = (
    "TooManyReplicas",
    "the desired replica count is more than the maximum replica count",
);
const UP_LIMIT: (&str, &str) = (
    "ScaleUpLimit",
    "the desired replica count is increasing faster than the maximum scale rate",
);
const DOWN_LIMIT: (&str, &str) = (
    "ScaleDownLimit",
    "the desired replica count is decreasing faster than the maximum scale rate",
);

impl Memory {
    /// recordInitialRecommendation: the first sync remembers the current size.
    pub fn init(&mut self, current: i32, now: i64) {
        if self.recommendations.is_empty() {
            self.recommendations.push((current, now));
        }
    }

    /// Replaces the oldest-found outdated recommendation, or adds one.
    fn record(&mut self, old: Option<usize>, rec: i32, now: i64) {
        match old {
            Some(i) => self.recommendations[i] = (rec, now),
            None => self.recommendations.push((rec, now)),
        }
    }

    /// normalizeDesiredReplicas, for an HPA without `behavior`: the highest recommendation
    /// of the last 5 minutes, then min/max and the fixed scale-up limit. Returns the
    /// replicas and the two conditions it sets.
    pub fn normalize(
        &mut self,
        (current, desired): (i32, i32),
        (min, max): (i32, i32),
        now: i64,
    ) -> (i32, [Cond; 2]) {
        // stabilizeRecommendation
        let cutoff = now - DOWNSCALE_STABILIZATION;
        let mut stabilized = desired;
        let mut old = None;
        for (i, &(rec, at)) in self.recommendations.iter().enumerate() {
            if at < cutoff {
                old = Some(i);
            } else if rec > stabilized {
                stabilized = rec;
            }
        }
        self.record(old, desired, now);
        let able = if stabilized != desired {
            SCALE_DOWN_STABILIZED
        } else {
            READY_FOR_NEW_SCALE
        };
        // convertDesiredReplicasWithRules
        let up_limit =
            (SCALE_UP_LIMIT_FACTOR * f64::from(current)).max(SCALE_UP_LIMIT_MINIMUM) as i32;
        let (maximum, over) = if max > up_limit {
            (up_limit, UP_LIMIT)
        } else {
            (max, TOO_MANY)
        };
        let (replicas, why) = if stabilized < min {
            (min, TOO_FEW)
        } else if stabilized > maximum {
            (maximum, over)
        } else {
            (stabilized, WITHIN_RANGE)
        };
        (replicas, [able, limited(replicas != stabilized, why)])
    }

    /// normalizeDesiredReplicasWithBehaviors: the recommendation held between the lowest
    /// of the scale-up window and the highest of the scale-down window, then the
    /// policies' rate limits and min/max.
    pub fn normalize_with_behaviors(
        &mut self,
        (current, desired): (i32, i32),
        (min, max): (i32, i32),
        (up, down): (&Rules, &Rules),
        now: i64,
    ) -> (i32, [Cond; 2]) {
        // stabilizeRecommendationWithBehaviors
        let up_cutoff = now - up.stabilization;
        let down_cutoff = now - down.stabilization;
        let (mut up_rec, mut down_rec) = (desired, desired);
        let mut old = None;
        for (i, &(rec, at)) in self.recommendations.iter().enumerate() {
            if at > up_cutoff {
                up_rec = up_rec.min(rec);
            }
            if at > down_cutoff {
                down_rec = down_rec.max(rec);
            }
            if at < up_cutoff && at < down_cutoff {
                old = Some(i);
            }
        }
        let stabilized = current.max(up_rec).min(down_rec);
        self.record(old, desired, now);
        let able = if stabilized == desired {
            READY_FOR_NEW_SCALE
        } else if desired >= current {
            SCALE_UP_STABILIZED
        } else {
            SCALE_DOWN_STABILIZED
        };
        // convertDesiredReplicasWithBehaviorRate
        let (replicas, why) = if stabilized > current {
            let limit = rate_limit(true, current, (&self.up, &self.down), up, now).max(current);
            let (maximum, why) = if max > limit {
                (limit, UP_LIMIT)
            } else {
                (max, TOO_MANY)
            };
            if stabilized > maximum {
                (maximum, why)
            } else {
                (stabilized, WITHIN_RANGE)
            }
        } else if stabilized < current {
            let limit = rate_limit(false, current, (&self.up, &self.down), down, now).min(current);
            let (minimum, why) = if min < limit {
                (limit, DOWN_LIMIT)
            } else {
                (min, TOO_FEW)
            };
            if stabilized < minimum {
                (minimum, why)
            } else {
                (stabilized, WITHIN_RANGE)
            }
        } else {
            (stabilized, WITHIN_RANGE)
        };
        (replicas, [able, limited(replicas != stabilized, why)])
    }

    /// storeScaleEvent: only an HPA with `behavior` keeps them; an event older than the
    /// longest policy period is reused.
    pub fn store_scale_event(
        &mut self,
        rules: Option<(&Rules, &Rules)>,
        from: i32,
        to: i32,
        now: i64,
    ) {
        let Some((up, down)) = rules else { return };
        let (events, rules, change) = if to > from {
            (&mut self.up, up, to - from)
        } else {
            (&mut self.down, down, from - to)
        };
        let longest = rules.policies.iter().map(|p| p.period).max().unwrap_or(0);
        for e in events.iter_mut() {
            if e.at < now - longest {
                e.outdated = true;
            }
        }
        let event = ScaleEvent {
            change,
            at: now,
            outdated: false,
        };
        match events.iter_mut().find(|e| e.outdated) {
            Some(slot) => *slot = event,
            None => events.push(event),
        }
    }
}

/// getReplicasChangePerPeriod: what the HPA changed in the last `period` seconds.
fn change_in(period: i64, events: &[ScaleEvent], now: i64) -> i32 {
    events
        .iter()
        .filter(|e| e.at > now - period)
        .map(|e| e.change)
        .sum()
}

/// calculateScaleUpLimitWithScalingRules (`up`) and calculateScaleDownLimitWithBehaviors:
/// each policy's bound from the count at the start of its period; Max takes the bound
/// allowing the biggest change, Min the smallest, Disabled none.
fn rate_limit(
    up: bool,
    current: i32,
    (ups, downs): (&[ScaleEvent], &[ScaleEvent]),
    rules: &Rules,
    now: i64,
) -> i32 {
    if rules.select == Select::Disabled {
        return current;
    }
    // The biggest change is the highest ceiling going up and the lowest floor going down.
    let highest = (rules.select == Select::Max) == up;
    let mut result = if highest { i32::MIN } else { i32::MAX };
    for p in &rules.policies {
        let start = current - change_in(p.period, ups, now) + change_in(p.period, downs, now);
        let proposed = match (p.kind, up) {
            (PolicyType::Pods, true) => start.saturating_add(p.value),
            (PolicyType::Pods, false) => start.saturating_sub(p.value),
            // Rounded up going up, so a small count still grows; truncated going down.
            (PolicyType::Percent, true) => {
                (f64::from(start) * (1.0 + f64::from(p.value) / 100.0)).ceil() as i32
            }
            (PolicyType::Percent, false) => {
                (f64::from(start) * (1.0 - f64::from(p.value) / 100.0)) as i32
            }
        };
        result = if highest {
            result.max(proposed)
        } else {
            result.min(proposed)
        };
    }
    result
}
