//! Cron schedules as Kubernetes 1.32 reads them: robfig/cron v3.0.1's `ParseStandard`
//! (five fields, names, ranges, steps, lists, `?`, the `@` descriptors and `@every`) and
//! its `Next`, with its error messages word for word. The demo's clock is UTC, so a
//! schedule is read in UTC; `TZ=`/`CRON_TZ=` prefixes are known only for UTC.
//!
//! Day of month and day of week combine as robfig combines them: if either is a star
//! (`*`, `?`, or a range with step 1) both must match, otherwise either may.

use crate::sim::output::go_quote;
use crate::sim::time::{civil_from_days, days_from_civil};

const STAR: u64 = 1 << 63;

/// One field's bounds and names.
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [&'static str],
}

const MINUTE: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOUR: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTH: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
};

/// A parsed schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Bit sets of the matching minutes, hours, days of month, months and days of week.
    Spec {
        minute: u64,
        hour: u64,
        dom: u64,
        month: u64,
        dow: u64,
    },
    /// `@every D`: every D seconds (at least 1) from the time it is asked about.
    Every(i64),
}

/// ParseStandard, with its errors' words.
pub fn parse(spec: &str) -> Result<Schedule, String> {
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let eq = spec.find('=').unwrap_or(0);
        let Some(space) = spec.find(' ') else {
            // robfig v3.0.1 panics here (the API server's handler recovers and answers
            // 500); the demo refuses the schedule instead, in its own words.
            return Err(format!(
                "kubedrill's demo: no schedule after the time zone in {spec:?} (robfig/cron v3.0.1 panics on this, and the API server answers 500)"
            ));
        };
        let zone = &spec[eq + 1..space];
        // time.LoadLocation("") is UTC too.
        if !matches!(zone, "" | "UTC" | "Etc/UTC") {
            return Err(format!(
                "provided bad location {zone}: unknown time zone {zone}"
            ));
        }
        spec = spec[space..].trim();
    }
    if let Some(d) = spec.strip_prefix('@') {
        return descriptor(d, spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    Ok(Schedule::Spec {
        minute: field(fields[0], &MINUTE)?,
        hour: field(fields[1], &HOUR)?,
        dom: field(fields[2], &DOM)?,
        month: field(fields[3], &MONTH)?,
        dow: field(fields[4], &DOW)?,
    })
}

fn all(b: &Bounds) -> u64 {
    bits(b.min, b.max, 1) | STAR
}

/// The bits from `min` to `max` (both at most 63, checked by the caller) every `step`.
fn bits(min: u64, max: u64, step: u64) -> u64 {
    let mut out = 0u64;
    let mut i = min;
    while i <= max {
        out |= 1 << i;
        i = i.saturating_add(step);
    }
    out
}

fn descriptor(d: &str, spec: &str) -> Result<Schedule, String> {
    let spec_of = |m: u64, h: u64, dom: u64, month: u64, dow: u64| {
        Ok(Schedule::Spec {
            minute: m,
            hour: h,
            dom,
            month,
            dow,
        })
    };
    match d {
        "yearly" | "annually" => spec_of(1, 1, 1 << 1, 1 << 1, all(&DOW)),
        "monthly" => spec_of(1, 1, 1 << 1, all(&MONTH), all(&DOW)),
        "weekly" => spec_of(1, 1, all(&DOM), all(&MONTH), 1),
        "daily" | "midnight" => spec_of(1, 1, all(&DOM), all(&MONTH), all(&DOW)),
        "hourly" => spec_of(1, all(&HOUR), all(&DOM), all(&MONTH), all(&DOW)),
        _ => match d.strip_prefix("every ") {
            // Every(d): at least a second, whole seconds.
            Some(dur) => match go_duration(dur) {
                Ok(secs) => Ok(Schedule::Every(secs.max(1))),
                Err(e) => Err(format!("failed to parse duration {spec}: {e}")),
            },
            None => Err(format!("unrecognized descriptor: {spec}")),
        },
    }
}

/// Go's time.ParseDuration, in whole seconds (truncated, as Every truncates), with its
/// errors' words.
fn go_duration(s: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", go_quote(s));
    let (negative, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n == 0 || rest[..n] == *"." {
            return Err(invalid());
        }
        let value: f64 = rest[..n].parse().map_err(|_| invalid())?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = match &rest[..u] {
            "" => return Err(format!("time: missing unit in duration {}", go_quote(s))),
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            other => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    go_quote(other),
                    go_quote(s)
                ));
            }
        };
        total += value * unit;
        rest = &rest[u..];
    }
    // Go's Duration holds about 292 years of nanoseconds.
    if !total.is_finite() || total > 9.2e9 {
        return Err(invalid());
    }
    Ok(if negative {
        -(total as i64)
    } else {
        total as i64
    })
}

/// getField: a comma-separated list of ranges (empty items dropped).
fn field(text: &str, b: &Bounds) -> Result<u64, String> {
    let mut out = 0;
    for expr in text.split(',').filter(|e| !e.is_empty()) {
        out |= range(expr, b)?;
    }
    Ok(out)
}

/// getRange.
fn range(expr: &str, b: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end, mut extra) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (b.min, b.max, STAR)
    } else {
        let start = int_or_name(low_and_high[0], b.names)?;
        let end = match low_and_high.len() {
            1 => start,
            2 => int_or_name(low_and_high[1], b.names)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        (start, end, 0)
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_int(range_and_step[1])?;
            // `N/step` is `N-max/step`.
            if single {
                end = b.max;
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < b.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            b.min
        ));
    }
    if end > b.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            b.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(bits(start, end, step) | extra)
}

fn int_or_name(s: &str, names: &[&str]) -> Result<u64, String> {
    let lower = s.to_ascii_lowercase();
    if let Some(i) = names.iter().position(|n| *n == lower) {
        // Month names start at 1, day names at 0.
        return Ok(i as u64 + u64::from(names.len() == 12));
    }
    must_int(s)
}

/// mustParseInt: strconv.Atoi, then no negatives.
fn must_int(s: &str) -> Result<u64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {s}: strconv.Atoi: parsing \"{s}\": invalid syntax"
        ));
    }
    let n: i64 = match s.parse() {
        Ok(n) => n,
        Err(_) => {
            return Err(format!(
                "failed to parse int from {s}: strconv.Atoi: parsing \"{s}\": value out of range"
            ));
        }
    };
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {s}"));
    }
    Ok(n.unsigned_abs())
}

impl Schedule {
    /// Next: the first time strictly after `unix` (UTC seconds) the schedule fires, or
    /// `None` when it never does within five years (robfig returns the zero time).
    pub fn next(&self, unix: i64) -> Option<i64> {
        let (minute, hour, dom, month, dow) = match *self {
            Schedule::Every(d) => return unix.checked_add(d),
            Schedule::Spec {
                minute,
                hour,
                dom,
                month,
                dow,
            } => (minute, hour, dom, month, dow),
        };
        let day_matches = |days: i64| {
            let (_, _, d) = civil_from_days(days);
            let weekday = (days + 4).rem_euclid(7) as u32; // 1970-01-01 was a Thursday
            let dom_match = dom & (1 << d) != 0;
            let dow_match = dow & (1 << weekday) != 0;
            if dom & STAR != 0 || dow & STAR != 0 {
                dom_match && dow_match
            } else {
                dom_match || dow_match
            }
        };
        // A field with no value (`,`) parses, but never matches: robfig searches five
        // years to find out; the demo knows at once.
        let none = |set: u64| set & !STAR == 0;
        if none(minute) || none(hour) || none(month) || (none(dom) && none(dow)) {
            return None;
        }
        // From the next whole minute (seconds are always 0).
        let mut t = (unix.div_euclid(60) + 1) * 60;
        let (start_year, _, _) = civil_from_days(t.div_euclid(86_400));
        let limit = start_year + 5;
        'wrap: loop {
            let days = t.div_euclid(86_400);
            let (y, m, _) = civil_from_days(days);
            if y > limit {
                return None;
            }
            // Month.
            if month & (1 << m) == 0 {
                let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                t = days_from_civil(ny, nm, 1) * 86_400;
                continue 'wrap;
            }
            // Day.
            if !day_matches(days) {
                t = (days + 1) * 86_400;
                continue 'wrap;
            }
            let secs = t.rem_euclid(86_400);
            let (h, min) = ((secs / 3600) as u32, ((secs % 3600) / 60) as u32);
            if hour & (1 << h) == 0 {
                t = t - secs + i64::from(h + 1) * 3600;
                continue 'wrap;
            }
            if minute & (1 << min) == 0 {
                t = t - secs + i64::from(h) * 3600 + i64::from(min + 1) * 60;
                continue 'wrap;
            }
            return Some(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::parse_rfc3339;

    fn at(s: &str) -> i64 {
        parse_rfc3339(s).unwrap()
    }

    #[test]
    fn parse_errors_are_robfigs_words() {
        let e = |s: &str| parse(s).unwrap_err();
        assert_eq!(e(""), "empty spec string");
        assert_eq!(
            e("* * * * * *"),
            "expected exactly 5 fields, found 6: [* * * * * *]"
        );
        assert_eq!(
            e("x * * * *"),
            "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"
        );
        assert_eq!(e("60 * * * *"), "end of range (60) above maximum (59): 60");
        assert_eq!(
            e("* * 0 * *"),
            "beginning of range (0) below minimum (1): 0"
        );
        assert_eq!(e("* * * * 7"), "end of range (7) above maximum (6): 7");
        assert_eq!(
            e("5-1 * * * *"),
            "beginning of range (5) beyond end of range (1): 5-1"
        );
        assert_eq!(
            e("*/0 * * * *"),
            "step of range should be a positive number: */0"
        );
        assert_eq!(e("1-2-3 * * * *"), "too many hyphens: 1-2-3");
        assert_eq!(e("1/2/3 * * * *"), "too many slashes: 1/2/3");
        assert_eq!(e("@foo"), "unrecognized descriptor: @foo");
        assert_eq!(
            e("99999999999999999999 * * * *"),
            "failed to parse int from 99999999999999999999: strconv.Atoi: parsing \"99999999999999999999\": value out of range"
        );
        assert_eq!(
            e("99999999 * * * *"),
            "end of range (99999999) above maximum (59): 99999999"
        );
        assert_eq!(
            e("@every 1x"),
            "failed to parse duration @every 1x: time: unknown unit \"x\" in duration \"1x\""
        );
        assert_eq!(
            e("@every 5"),
            "failed to parse duration @every 5: time: missing unit in duration \"5\""
        );
        // Zero and negative durations are a second.
        assert_eq!(parse("@every 0"), Ok(Schedule::Every(1)));
        assert_eq!(parse("@every -1m"), Ok(Schedule::Every(1)));
        assert_eq!(parse("@every 1h30m"), Ok(Schedule::Every(5400)));
        // A field with no values parses, and never fires.
        assert_eq!(parse(", * * * *").unwrap().next(0), None);
        assert!(parse("*/61 * * * *").is_ok());
        assert!(parse("0 9 * jan-mar MON-fri").is_ok());
    }

    #[test]
    fn next_finds_the_first_matching_minute_after() {
        let s = parse("*/15 * * * *").unwrap();
        assert_eq!(
            s.next(at("2025-01-06T10:00:00Z")),
            Some(at("2025-01-06T10:15:00Z"))
        );
        assert_eq!(
            s.next(at("2025-01-06T10:14:59Z")),
            Some(at("2025-01-06T10:15:00Z"))
        );
        let nightly = parse("0 3 * * *").unwrap();
        assert_eq!(
            nightly.next(at("2025-01-06T10:00:00Z")),
            Some(at("2025-01-07T03:00:00Z"))
        );
        let yearly = parse("@yearly").unwrap();
        assert_eq!(
            yearly.next(at("2025-01-06T10:00:00Z")),
            Some(at("2026-01-01T00:00:00Z"))
        );
        // 2025-01-06 is a Monday.
        let friday = parse("30 8 * * fri").unwrap();
        assert_eq!(
            friday.next(at("2025-01-06T10:00:00Z")),
            Some(at("2025-01-10T08:30:00Z"))
        );
        // Never: 31 February.
        assert_eq!(
            parse("59 23 31 2 *")
                .unwrap()
                .next(at("2025-01-06T10:00:00Z")),
            None
        );
        assert_eq!(parse("@every 90s").unwrap().next(100), Some(190));
    }

    #[test]
    fn day_of_month_and_week_combine_as_robfig_combines_them() {
        // Both restricted: the 13th or a Friday.
        let either = parse("0 0 13 * 5").unwrap();
        assert_eq!(
            either.next(at("2025-01-06T10:00:00Z")),
            Some(at("2025-01-10T00:00:00Z"))
        );
        assert_eq!(
            either.next(at("2025-01-10T00:00:00Z")),
            Some(at("2025-01-13T00:00:00Z"))
        );
        // A star (*/1 too) makes it both.
        let fridays = parse("0 0 */1 * 5").unwrap();
        assert_eq!(
            fridays.next(at("2025-01-10T00:00:00Z")),
            Some(at("2025-01-17T00:00:00Z"))
        );
    }
}
