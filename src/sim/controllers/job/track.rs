//! What the Job controller reads off its pods and writes into the Job's status
//! (pkg/controller/job: tracking_utils.go, backoff_utils.go, pod_failure_policy.go and
//! the condition helpers of job_controller.go, 1.32).

use serde_json::{Value, json};

use crate::sim::kinds::job::TRACKING_FINALIZER;
use crate::sim::stored::Stored;
use crate::sim::time::{parse_rfc3339, rfc3339};

/// DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff.
const POD_FAILURE_BACKOFF: i64 = 10;
const MAX_POD_FAILURE_BACKOFF: i64 = 600;

pub fn has_finalizer(pod: &Stored) -> bool {
    pod.meta("finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| f.iter().any(|x| x == TRACKING_FINALIZER))
}

/// A Job condition of `type_` that is True.
pub fn condition<'a>(job: &'a Value, type_: &str) -> Option<&'a Value> {
    job["status"]["conditions"]
        .as_array()?
        .iter()
        .find(|c| c["type"] == type_ && c["status"] == "True")
}

/// IsJobFinished: Complete or Failed.
pub fn finished(job: &Value) -> bool {
    condition(job, "Complete").is_some() || condition(job, "Failed").is_some()
}

/// newCondition: probe and transition time both now.
pub fn new_condition(type_: &str, reason: &str, message: &str, now: u64) -> Value {
    json!({
        "type": type_, "status": "True", "reason": reason, "message": message,
        "lastProbeTime": rfc3339(now), "lastTransitionTime": rfc3339(now),
    })
}

/// Why a Job is finishing: its interim condition (SuccessCriteriaMet or FailureTarget)
/// with the reason and message its terminal one will carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finishing {
    pub success: bool,
    pub reason: String,
    pub message: String,
}

impl Finishing {
    pub fn failure(reason: &str, message: impl Into<String>) -> Self {
        Finishing {
            success: false,
            reason: reason.into(),
            message: message.into(),
        }
    }

    pub fn success() -> Self {
        Finishing {
            success: true,
            reason: "CompletionsReached".into(),
            message: "Reached expected number of succeeded pods".into(),
        }
    }

    pub fn interim(&self) -> &'static str {
        if self.success {
            "SuccessCriteriaMet"
        } else {
            "FailureTarget"
        }
    }

    pub fn terminal(&self) -> &'static str {
        if self.success { "Complete" } else { "Failed" }
    }

    /// The interim condition the Job already carries, if any.
    pub fn of(job: &Value) -> Option<Finishing> {
        [("SuccessCriteriaMet", true), ("FailureTarget", false)]
            .into_iter()
            .find_map(|(t, success)| {
                let c = condition(job, t)?;
                Some(Finishing {
                    success,
                    reason: c["reason"].as_str().unwrap_or("").into(),
                    message: c["message"].as_str().unwrap_or("").into(),
                })
            })
    }
}

/// What the pod failure policy says of a failed pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// FailJob: the Job fails, with this message.
    FailJob(String),
    /// Ignore: not counted against backoffLimit.
    Ignore,
    /// Count, or no rule matched.
    Count,
}

/// matchPodFailurePolicy: the first rule that matches the failed pod decides.
pub fn judge(policy: Option<&Value>, pod: &Stored) -> Verdict {
    let Some(rules) = policy.and_then(|p| p["rules"].as_array()) else {
        return Verdict::Count;
    };
    let status = pod.field("status").unwrap_or(&Value::Null);
    let pod_name = pod.name();
    for (i, rule) in rules.iter().enumerate() {
        let action = rule["action"].as_str().unwrap_or("");
        let message = if let Some(codes) = rule.get("onExitCodes").filter(|c| c.is_object()) {
            let values: Vec<i64> = codes["values"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_i64)
                .collect();
            let only = codes["containerName"].as_str();
            let hit = ["containerStatuses", "initContainerStatuses"]
                .iter()
                .flat_map(|k| status[*k].as_array().into_iter().flatten())
                .filter(|c| only.is_none_or(|n| c["name"] == n))
                .find_map(|c| {
                    let code = c["state"]["terminated"]["exitCode"].as_i64()?;
                    let listed = values.contains(&code);
                    let matches = match codes["operator"].as_str() {
                        Some("In") => listed,
                        Some("NotIn") => !listed,
                        _ => false,
                    };
                    (code != 0 && matches).then(|| (c["name"].as_str().unwrap_or(""), code))
                });
            hit.map(|(c, code)| {
                format!(
                    "Container {c} for pod default/{pod_name} failed with exit code {code} matching {action} rule at index {i}"
                )
            })
        } else {
            let patterns = rule["onPodConditions"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            let conditions = status["conditions"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            patterns.iter().find_map(|p| {
                let want = p["status"].as_str().unwrap_or("True");
                conditions
                    .iter()
                    .any(|c| c["type"] == p["type"] && c["status"] == want)
                    .then(|| {
                        format!(
                            "Pod default/{pod_name} has condition {} matching {action} rule at index {i}",
                            p["type"].as_str().unwrap_or("")
                        )
                    })
            })
        };
        if let Some(m) = message {
            return match action {
                "FailJob" => Verdict::FailJob(m),
                "Ignore" => Verdict::Ignore,
                _ => Verdict::Count,
            };
        }
    }
    Verdict::Count
}

/// getFinishedTime: when a finished pod finished: its last container's end, else when
/// it stopped being Ready, else the start of its deletion, else its creation.
pub fn finished_at(pod: &Stored) -> i64 {
    let status = pod.field("status").unwrap_or(&Value::Null);
    let ends: Option<Vec<i64>> = status["containerStatuses"].as_array().map(|cs| {
        cs.iter()
            .filter_map(|c| c["state"]["terminated"]["finishedAt"].as_str())
            .filter_map(parse_rfc3339)
            .collect()
    });
    let all = status["containerStatuses"].as_array().map_or(0, Vec::len);
    if let Some(ends) = ends.filter(|e| !e.is_empty() && e.len() == all) {
        return ends.into_iter().max().unwrap_or(0);
    }
    if let Some(t) = status["conditions"]
        .as_array()
        .and_then(|cs| {
            cs.iter()
                .find(|c| c["type"] == "Ready" && c["status"] == "False")
        })
        .and_then(|c| c["lastTransitionTime"].as_str())
        .and_then(parse_rfc3339)
    {
        return t;
    }
    if let Some(t) = pod
        .meta("deletionTimestamp")
        .and_then(Value::as_str)
        .and_then(parse_rfc3339)
    {
        let grace = pod
            .meta("deletionGracePeriodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        return t - grace;
    }
    pod.pod().created
}

/// The pod re-creation back-off (backoffRecord): failures since the last success, and
/// when the last of them finished.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backoff {
    pub failures: i64,
    pub last_failure: i64,
}

impl Backoff {
    /// newBackoffRecord: the new finished pods, as (finished at, succeeded), move it on.
    pub fn after(self, mut finished: Vec<(i64, bool)>) -> Backoff {
        finished.sort_unstable();
        let mut b = self;
        if let Some(last_success) = finished.iter().rposition(|(_, ok)| *ok) {
            b = Backoff::default();
            finished.drain(..=last_success);
        }
        for (t, _) in finished {
            b.failures += 1;
            b.last_failure = b.last_failure.max(t);
        }
        b
    }

    /// getRemainingTimeForFailuresCount: 10 s doubling per failure, at most 10 minutes,
    /// counted from the last failure.
    pub fn remaining(self, now_unix: i64) -> i64 {
        if self.failures == 0 {
            return 0;
        }
        let shift = (self.failures - 1).min(16) as u32;
        let backoff = (POD_FAILURE_BACKOFF << shift).min(MAX_POD_FAILURE_BACKOFF);
        (backoff - (now_unix - self.last_failure)).max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recreation_back_off_doubles_from_ten_seconds_to_ten_minutes() {
        let b = Backoff::default().after(vec![(100, false)]);
        assert_eq!(b.remaining(100), 10);
        assert_eq!(b.remaining(105), 5);
        let b = b.after(vec![(110, false)]);
        assert_eq!(b.remaining(110), 20);
        let many = Backoff {
            failures: 12,
            last_failure: 0,
        };
        assert_eq!(many.remaining(0), 600);
        // A success resets the count; only failures after it count.
        let b = b.after(vec![(120, true), (125, false)]);
        assert_eq!(b.failures, 1);
        assert_eq!(b.remaining(125), 10);
    }

    #[test]
    fn the_first_matching_rule_decides() {
        let pod = Stored::new(
            crate::sim::kind::Kind::Pod,
            json!({"metadata": {"name": "p"}, "status": {"phase": "Failed",
                "containerStatuses": [{"name": "main", "state": {"terminated": {"exitCode": 42}}}]}}),
        );
        let policy = json!({"rules": [
            {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [1]}},
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}},
        ]});
        assert_eq!(
            judge(Some(&policy), &pod),
            Verdict::FailJob(
                "Container main for pod default/p failed with exit code 42 matching FailJob rule at index 1".into()
            )
        );
        let not_in = json!({"rules": [
            {"action": "Ignore", "onExitCodes": {"operator": "NotIn", "values": [42]}}]});
        assert_eq!(judge(Some(&not_in), &pod), Verdict::Count);
        assert_eq!(judge(None, &pod), Verdict::Count);
    }
}
