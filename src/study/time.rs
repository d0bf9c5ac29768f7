//! Time as the study layer sees it: unix milliseconds passed in by the caller, never read
//! from a clock here. Days are UTC days.

/// Unix time in milliseconds.
pub type Millis = i64;

pub const MINUTE_MS: Millis = 60_000;
pub const DAY_MS: Millis = 86_400_000;

/// The UTC day number (days since 1970-01-01).
pub fn day_of(t: Millis) -> i64 {
    t.div_euclid(DAY_MS)
}

/// The first millisecond of the day after `t`'s.
pub fn next_day_start(t: Millis) -> Millis {
    (day_of(t) + 1) * DAY_MS
}

/// (year, month, day) of a day number; Howard Hinnant's civil_from_days.
pub fn civil(day: i64) -> (i64, u32, u32) {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `2026-12-02`.
pub fn date_label(day: i64) -> String {
    let (y, m, d) = civil(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `20261202-145903`, for file names.
pub fn stamp(t: Millis) -> String {
    let (y, m, d) = civil(day_of(t));
    let secs = t.rem_euclid(DAY_MS) / 1000;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Monday = 0 .. Sunday = 6.
pub fn weekday(day: i64) -> u32 {
    // 1970-01-01 was a Thursday.
    (day + 3).rem_euclid(7) as u32
}

/// The wall clock, for the edges (cli, tui event loop) that pass time in.
pub fn now() -> Millis {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as Millis)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_and_stamps() {
        assert_eq!(date_label(0), "1970-01-01");
        assert_eq!(date_label(20_424), "2025-12-02");
        assert_eq!(weekday(20_424), 1); // a Tuesday
        assert_eq!(stamp(1_764_687_543_000), "20251202-145903");
        assert_eq!(date_label(day_of(-1)), "1969-12-31");
    }
}
