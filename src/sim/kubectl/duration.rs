//! Go's `time.ParseDuration`, which pflag uses for duration flags such as
//! `rollout status --timeout`: `300ms`, `1.5h`, `2h45m`, `-1s`, a bare `0`.

/// A duration in whole milliseconds (the demo's clock counts seconds; finer is enough).
pub fn parse_go_duration(s: &str) -> Result<i64, String> {
    let orig = s;
    let invalid = || format!("time: invalid duration \"{orig}\"");
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total_ns: f64 = 0.0;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num = &rest[..num_len];
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return Err(invalid());
        }
        let value: f64 = num.parse().map_err(|_| invalid())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        let scale = match unit {
            "" => return Err(format!("time: missing unit in duration \"{orig}\"")),
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            u => return Err(format!("time: unknown unit \"{u}\" in duration \"{orig}\"")),
        };
        total_ns += value * scale;
        rest = &rest[unit_len..];
    }
    if total_ns > i64::MAX as f64 {
        return Err(invalid());
    }
    let ms = (total_ns / 1e6).floor() as i64;
    Ok(if neg { -ms } else { ms })
}

#[cfg(test)]
mod tests {
    use super::parse_go_duration as p;

    #[test]
    fn parses_what_go_parses() {
        assert_eq!(p("5s"), Ok(5000));
        assert_eq!(p("0"), Ok(0));
        assert_eq!(p("1m30s"), Ok(90_000));
        assert_eq!(p("1.5h"), Ok(5_400_000));
        assert_eq!(p("500ms"), Ok(500));
        assert_eq!(p("-1s"), Ok(-1000));
    }

    #[test]
    fn refuses_what_go_refuses() {
        assert_eq!(p("5"), Err("time: missing unit in duration \"5\"".into()));
        assert_eq!(
            p("5x"),
            Err("time: unknown unit \"x\" in duration \"5x\"".into())
        );
        assert_eq!(p(""), Err("time: invalid duration \"\"".into()));
        assert_eq!(p("s"), Err("time: invalid duration \"s\"".into()));
    }
}
