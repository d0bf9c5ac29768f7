//! Simulated time. The simulation counts whole seconds from its start; the start is pinned to
//! a fixed wall-clock instant so timestamps in output are stable across runs.

/// 2025-01-06T10:00:00Z, the wall-clock instant of simulated second 0.
pub const EPOCH_UNIX: i64 = 1_736_157_600;

/// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Inverse of [`days_from_civil`]: (year, month, day).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

struct Civil {
    year: i64,
    month: u32,
    day: u32,
    hour: i64,
    minute: i64,
    second: i64,
    weekday: usize,
}

fn civil(unix: i64) -> Civil {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: secs / 3600,
        minute: secs / 60 % 60,
        second: secs % 60,
        // 1970-01-01 was a Thursday.
        weekday: (days + 4).rem_euclid(7) as usize,
    }
}

/// RFC 3339 in UTC for a simulated second, as Kubernetes writes timestamps.
/// Simulated seconds since the learner took over, as the demo shows them: `t+65s`.
pub fn clock(elapsed: u64) -> String {
    format!("t+{elapsed}s")
}

/// Go's `time.Duration.String()` for whole seconds: `30s`, `1m0s`, `1h0m0s`.
pub fn go_duration(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m{s}s"),
        _ => format!("{h}h{m}m{s}s"),
    }
}

pub fn rfc3339(sim_secs: u64) -> String {
    let unix = EPOCH_UNIX.saturating_add(i64::try_from(sim_secs).unwrap_or(i64::MAX));
    unix_rfc3339(unix)
}

/// A MicroTime (RFC 3339 with microseconds) for a simulated second, as leases carry.
pub fn rfc3339_micro(sim_secs: u64) -> String {
    let whole = rfc3339(sim_secs);
    match whole.strip_suffix('Z') {
        Some(s) => format!("{s}.000000Z"),
        None => whole,
    }
}

/// RFC 3339 in UTC for a unix time.
pub fn unix_rfc3339(unix: i64) -> String {
    let c = civil(unix);
    if !(0..=9999).contains(&c.year) {
        return format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        );
    }
    // Written digit by digit: every object write stamps a time, and `format!` was a
    // visible share of a simulated second.
    let mut b = *b"0000-00-00T00:00:00Z";
    let mut put = |at: usize, width: usize, v: i64| {
        let mut v = v;
        for i in (at..at + width).rev() {
            b[i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, 4, c.year);
    put(5, 2, c.month.into());
    put(8, 2, c.day.into());
    put(11, 2, c.hour);
    put(14, 2, c.minute);
    put(17, 2, c.second);
    String::from_utf8_lossy(&b).into_owned()
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|+00:00|±hh:mm)` into unix seconds (fraction dropped).
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    // Digit by digit: controllers read timestamps on every watch event.
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b.get(r)?.iter().try_fold(0i64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    if second > 60 {
        return None;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.len() != 6 || rb[3] != b':' || !matches!(rb[0], b'+' | b'-') {
                return None;
            }
            let oh: i64 = num_str(&rest[1..3])?;
            let om: i64 = num_str(&rest[4..6])?;
            let off = oh * 3600 + om * 60;
            if rb[0] == b'-' { -off } else { off }
        }
    };
    let days = days_from_civil(year, month as u32, day as u32);
    Some(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

fn num_str(s: &str) -> Option<i64> {
    if s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// Go's `time.RFC1123Z` in UTC: "Mon, 06 Jan 2025 10:00:00 +0000" (describe's timestamps).
pub fn rfc1123z(unix: i64) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let c = civil(unix);
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
        DAYS[c.weekday],
        c.day,
        MONTHS[(c.month - 1) as usize],
        c.year,
        c.hour,
        c.minute,
        c.second
    )
}

/// apimachinery's `duration.HumanDuration` for a whole number of seconds.
pub fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".to_string();
    }
    if secs < 0 {
        return "0s".to_string();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        let s = secs % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 192 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = hours / 24;
        let (y, d) = (days / 365, days % 365);
        return if d == 0 {
            format!("{y}y")
        } else {
            format!("{y}y{d}d")
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// Age of an RFC 3339 timestamp at simulated second `now`, or `<unknown>` if unparseable.
pub fn age(timestamp: &str, now: u64) -> String {
    match parse_rfc3339(timestamp) {
        Some(t) => human_duration(sim_unix(now) - t),
        None => "<unknown>".to_string(),
    }
}

/// Unix seconds of a simulated second.
pub fn sim_unix(now: u64) -> i64 {
    EPOCH_UNIX.saturating_add(i64::try_from(now).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_is_the_fixed_start() {
        assert_eq!(rfc3339(0), "2025-01-06T10:00:00Z");
        assert_eq!(rfc3339(150), "2025-01-06T10:02:30Z");
        assert_eq!(rfc3339(86_400 * 365), "2026-01-06T10:00:00Z");
        assert_eq!(unix_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(unix_rfc3339(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn parses_what_it_prints() {
        assert_eq!(parse_rfc3339("2025-01-06T10:00:00Z"), Some(EPOCH_UNIX));
        assert_eq!(
            parse_rfc3339("2025-01-06T10:02:30+00:00"),
            Some(EPOCH_UNIX + 150)
        );
        assert_eq!(parse_rfc3339("2025-01-06T11:00:00+01:00"), Some(EPOCH_UNIX));
        assert_eq!(
            parse_rfc3339("2025-01-06T10:00:00.123456Z"),
            Some(EPOCH_UNIX)
        );
        for s in (0..200_000u64).step_by(7919) {
            assert_eq!(parse_rfc3339(&rfc3339(s)), Some(EPOCH_UNIX + s as i64));
        }
        for bad in [
            "",
            "2025-01-06",
            "2025-01-06 10:00:00Z",
            "2025-13-06T10:00:00Z",
            "x",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
        assert_eq!(parse_rfc3339("2025-01-06T10:00:00"), None);
    }

    #[test]
    fn rfc1123z_like_describe() {
        assert_eq!(rfc1123z(EPOCH_UNIX), "Mon, 06 Jan 2025 10:00:00 +0000");
        assert_eq!(rfc1123z(0), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(rfc1123z(-62_135_596_800), "Mon, 01 Jan 0001 00:00:00 +0000");
        assert_eq!(
            rfc1123z(EPOCH_UNIX + 86_400 * 6 + 5),
            "Sun, 12 Jan 2025 10:00:05 +0000"
        );
    }

    #[test]
    fn human_duration_table_of_kubectl_output_md() {
        let (m, h, d) = (60, 3600, 86_400);
        let rows: &[(i64, &str)] = &[
            (0, "0s"),
            (-1, "0s"), // -1.5s truncates to -1s
            (-3, "<invalid>"),
            (59, "59s"),
            (90, "90s"),
            (119, "119s"),
            (2 * m, "2m"),
            (2 * m + 30, "2m30s"),
            (9 * m + 59, "9m59s"),
            (10 * m, "10m"),
            (179 * m, "179m"),
            (3 * h, "3h"),
            (3 * h + 5 * m, "3h5m"),
            (7 * h + 59 * m, "7h59m"),
            (8 * h, "8h"),
            (47 * h, "47h"),
            (48 * h, "2d"),
            (50 * h, "2d2h"),
            (191 * h, "7d23h"),
            (8 * d, "8d"),
            (400 * d, "400d"),
            (730 * d, "2y"),
            (800 * d, "2y70d"),
            (8 * 365 * d, "8y"),
        ];
        for &(secs, want) in rows {
            assert_eq!(human_duration(secs), want, "{secs}s");
        }
    }

    #[test]
    fn age_of_timestamps() {
        assert_eq!(age("2025-01-06T10:00:00Z", 150), "2m30s");
        assert_eq!(age("", 150), "<unknown>");
    }
}
