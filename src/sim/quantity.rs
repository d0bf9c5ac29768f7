//! Resource quantities (`500m`, `1.5`, `128Mi`, `1e3`) as apimachinery's `resource.Quantity`
//! parses and prints them: the API server stores each one in canonical form (`0.5` comes
//! back as `500m`, `1024Mi` as `1Gi`), keeps a string that is canonical already as it was
//! written, and refuses one it cannot parse with the decoder's words.

use std::fmt;

use serde_json::Value;

/// The three ways a quantity prints, remembered from how it was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// `12e6`
    DecimalExponent,
    /// `12Mi`
    BinarySI,
    /// `12M`
    DecimalSI,
}

/// A parsed quantity: its value in billionths (rounded up, away from zero, as the API
/// server rounds to its nano precision), how it prints, and the text it was written as
/// when that is canonical already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantity {
    nanos: i128,
    format: Format,
    kept: Option<String>,
}

/// Why a quantity does not parse: apimachinery's three errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantityError {
    Format,
    Numeric,
    Suffix,
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QuantityError::Format => {
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
            }
            QuantityError::Numeric => "unable to parse numeric part of quantity",
            QuantityError::Suffix => "unable to parse quantity's suffix",
        })
    }
}

const NANO: i128 = 1_000_000_000;

impl Quantity {
    /// A quantity as JSON carries it: a string, or a number (YAML's `cpu: 1`).
    pub fn from_json(v: &Value) -> Result<Self, QuantityError> {
        match v {
            Value::String(s) => parse(s.trim()),
            Value::Number(n) => parse(&go_number(n)),
            _ => Err(QuantityError::Format),
        }
    }

    /// The value in billionths.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    /// The canonical text (`CanonicalizeBytes`): no fractional digits, the largest
    /// suffix of the quantity's own kind that keeps every digit.
    pub fn canonical(&self) -> String {
        if let Some(s) = &self.kept {
            return s.clone();
        }
        if self.nanos == 0 {
            return "0".to_string();
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        let abs = self.nanos.unsigned_abs();
        let format = match self.format {
            // Below 1024, or not a whole number, a binary quantity prints as decimal.
            Format::BinarySI if abs < 1024 * NANO as u128 || !abs.is_multiple_of(NANO as u128) => {
                Format::DecimalSI
            }
            f => f,
        };
        if format == Format::BinarySI {
            let (mut mantissa, mut power) = (abs / NANO as u128, 0);
            while mantissa % 1024 == 0 && power < 6 {
                mantissa /= 1024;
                power += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
            return format!("{sign}{mantissa}{suffix}");
        }
        // Decimal: trailing zeros into the exponent, then down to a multiple of three.
        let (mut mantissa, mut exponent) = (abs, -9i32);
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        while exponent.rem_euclid(3) != 0 {
            mantissa *= 10;
            exponent -= 1;
        }
        let suffix = match (format, exponent) {
            (_, 0) => String::new(),
            (Format::DecimalExponent, e) => format!("e{e}"),
            // A decimal exponent without a suffix prints none: the server ignores the
            // failed lookup (1000E is stored as 1).
            (_, e) => decimal_suffix(e).unwrap_or("").to_string(),
        };
        format!("{sign}{mantissa}{suffix}")
    }
}

/// A JSON number as kubectl's encoder writes it (Go's `encoding/json`): a float in plain
/// decimal from 1e-6 to 1e21, in exponent form outside.
fn go_number(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if !(n.is_i64() || n.is_u64()) => {
            if f == 0.0 || (1e-6..1e21).contains(&f.abs()) {
                format!("{f}")
            } else {
                // Go writes a positive exponent with its sign: 1e+21.
                let text = format!("{f:e}");
                match text.split_once('e') {
                    Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
                    _ => text,
                }
            }
        }
        _ => n.to_string(),
    }
}

/// The canonical text of a quantity in JSON, or why it does not parse.
pub fn canonical(v: &Value) -> Result<String, QuantityError> {
    Quantity::from_json(v).map(|q| q.canonical())
}

/// `ParseQuantity`.
/// A quantity field in nano-units (cores or bytes × 10⁹); 0 when absent or unreadable.
pub fn nanos(v: Option<&Value>) -> i128 {
    v.and_then(|v| Quantity::from_json(v).ok())
        .map_or(0, |q| q.nanos())
}

/// Quantity.MilliValue of a quantity field: thousandths (millicores), rounded up; 0 when
/// absent or unreadable.
pub fn milli_value(v: Option<&Value>) -> i64 {
    let n = nanos(v);
    let m = n / 1_000_000 + i128::from(n % 1_000_000 > 0);
    m.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// What a pod spec asks for and is limited to, as the scheduler and `describe node` count
/// it (`computePodResourceRequest`): the sum over its containers, or the largest init
/// container's when that is more. [cpu requests, cpu limits, memory requests, memory
/// limits], in nano-units.
pub fn pod_totals(spec: &Value) -> [i128; 4] {
    let of = |c: &Value| {
        [
            nanos(c.pointer("/resources/requests/cpu")),
            nanos(c.pointer("/resources/limits/cpu")),
            nanos(c.pointer("/resources/requests/memory")),
            nanos(c.pointer("/resources/limits/memory")),
        ]
    };
    let list = |k: &str| spec[k].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut sum = [0; 4];
    for c in list("containers") {
        for (s, v) in sum.iter_mut().zip(of(c)) {
            *s += v;
        }
    }
    for c in list("initContainers") {
        for (s, v) in sum.iter_mut().zip(of(c)) {
            *s = (*s).max(v);
        }
    }
    sum
}

pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::Format);
    }
    if s == "0" {
        return Ok(Quantity {
            nanos: 0,
            format: Format::DecimalSI,
            kept: Some(s.to_string()),
        });
    }
    let parts = split(s)?;
    let (base, exponent, format) = interpret(parts.suffix).ok_or(QuantityError::Suffix)?;
    let fast = fast_path(&parts, base, exponent);
    // The slow path parses the number text as a decimal, which needs a digit.
    if fast.is_none() && !parts.value.bytes().any(|b| b.is_ascii_digit()) {
        return Err(QuantityError::Numeric);
    }
    let digits = format!("{}{}", parts.num, parts.denom);
    // The value of `digits` times base^exponent, less the fraction's places, in billionths,
    // rounded away from zero.
    let mut value: i128 = 0;
    for b in digits.bytes() {
        value = value
            .saturating_mul(10)
            .saturating_add(i128::from(b - b'0'));
    }
    let mut shift = 9i32.saturating_sub(parts.denom.len() as i32);
    if base == 2 {
        value = value.saturating_mul(1i128 << exponent.clamp(0, 60));
    } else {
        shift = shift.saturating_add(exponent);
    }
    let nanos = if shift >= 0 {
        value.saturating_mul(10i128.saturating_pow(shift as u32))
    } else {
        let divisor = 10i128.checked_pow((-shift) as u32);
        match divisor {
            Some(d) => (value + d - 1) / d,
            // Far below a billionth: the smallest amount, if any at all.
            None => i128::from(value != 0),
        }
    };
    // The slow path caps a binary quantity at the largest int64.
    let nanos = match (format, fast) {
        (Format::BinarySI, None) => nanos.min(i128::from(i64::MAX) * NANO),
        _ => nanos,
    };
    let nanos = if parts.positive { nanos } else { -nanos };
    let kept = (fast == Some(true)).then(|| s.to_string());
    // A binary quantity below one prints as decimal.
    let format = match format {
        Format::BinarySI if nanos != 0 && nanos.abs() < NANO => Format::DecimalSI,
        f => f,
    };
    Ok(Quantity {
        nanos,
        format,
        kept,
    })
}

/// Whether `ParseQuantity` takes its fast path (int64 arithmetic), and then whether it
/// keeps the text as written, which it does for a string in canonical form already.
/// `None`: the slow path (arbitrary precision), which never keeps the text.
fn fast_path(parts: &Parts<'_>, base: u32, exponent: i32) -> Option<bool> {
    let digits = parts.num.len() + parts.denom.len();
    let precision = match (base, parts.denom.is_empty()) {
        (2, true) => 15 - parts.num.len() as i32 - (exponent as f32 * 3.0 / 10.0) as i32 - 1,
        (2, false) => -1,
        _ => 18 - digits as i32,
    };
    if precision < 0 {
        return None;
    }
    let scale = if base == 2 {
        -(parts.denom.len() as i32)
    } else {
        exponent.saturating_sub(parts.denom.len() as i32)
    };
    if scale < -9 {
        return None;
    }
    let shifted = format!("{}{}", parts.num, parts.denom);
    let value = shifted.parse::<i64>().ok()?;
    let multiplier: i64 = if base == 2 { 1 << exponent } else { 1 };
    value.checked_mul(multiplier)?;
    Some(if base == 2 {
        exponent % 10 == 0 && value & 0x07 != 0
    } else {
        scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0')
    })
}

/// A quantity's text taken apart (`parseQuantityString`).
struct Parts<'a> {
    positive: bool,
    /// The number as written, sign included, without the suffix.
    value: &'a str,
    /// Digits before the point, leading zeros stripped ("0" for none).
    num: &'a str,
    /// Digits after the point.
    denom: &'a str,
    suffix: &'a str,
}

fn split(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    let zero = Parts {
        positive,
        value: "0",
        num: "0",
        denom: "",
        suffix: "",
    };
    if pos >= end {
        return Ok(zero);
    }
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    let num = if pos == start { "0" } else { &s[start..pos] };
    let mut denom = "";
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let start = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &s[start..pos];
    }
    let value = &s[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return Err(QuantityError::Format);
    }
    Ok(Parts {
        positive,
        value,
        num,
        denom,
        suffix: &s[suffix_start..],
    })
}

/// The suffixes and what they stand for: base, exponent, format.
const SUFFIXES: [(&str, u32, i32, Format); 16] = [
    ("n", 10, -9, Format::DecimalSI),
    ("u", 10, -6, Format::DecimalSI),
    ("m", 10, -3, Format::DecimalSI),
    ("", 10, 0, Format::DecimalSI),
    ("k", 10, 3, Format::DecimalSI),
    ("M", 10, 6, Format::DecimalSI),
    ("G", 10, 9, Format::DecimalSI),
    ("T", 10, 12, Format::DecimalSI),
    ("P", 10, 15, Format::DecimalSI),
    ("E", 10, 18, Format::DecimalSI),
    ("Ki", 2, 10, Format::BinarySI),
    ("Mi", 2, 20, Format::BinarySI),
    ("Gi", 2, 30, Format::BinarySI),
    ("Ti", 2, 40, Format::BinarySI),
    ("Pi", 2, 50, Format::BinarySI),
    ("Ei", 2, 60, Format::BinarySI),
];

/// A suffix's base, exponent and format (`suffixHandler.interpret`).
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    if let Some(&(_, base, exponent, format)) = SUFFIXES.iter().find(|s| s.0 == suffix) {
        return Some((base, exponent, format));
    }
    let exponent = suffix.strip_prefix(['e', 'E']).filter(|e| !e.is_empty())?;
    let e: i64 = exponent.parse().ok()?;
    // Go's int32() conversion wraps, as the server's does.
    Some((10, e as i32, Format::DecimalExponent))
}

/// The decimal suffix of an exponent, as [`SUFFIXES`] has it.
fn decimal_suffix(exponent: i32) -> Option<&'static str> {
    SUFFIXES
        .iter()
        .find(|s| s.1 == 10 && s.2 == exponent)
        .map(|s| s.0)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn canonical_forms() {
        for (written, stored) in [
            ("0", "0"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("500m", "500m"),
            ("1000m", "1"),
            ("1", "1"),
            ("1000", "1k"),
            ("1200", "1200"),
            ("1k", "1k"),
            ("2000k", "2M"),
            ("100u", "100u"),
            ("0.1n", "1n"),
            ("128Mi", "128Mi"),
            ("1024Mi", "1Gi"),
            ("1.5Gi", "1536Mi"),
            ("1Gi", "1Gi"),
            ("0.5Ki", "512"),
            ("1.1Ki", "1126400m"),
            ("1e3", "1e3"),
            ("12e4", "120e3"),
            ("1E3", "1E3"),
            ("-1", "-1"),
            ("-0.5", "-500m"),
            ("01", "01"),
        ] {
            assert_eq!(
                canonical(&json!(written)),
                Ok(stored.to_string()),
                "{written}"
            );
        }
        assert_eq!(canonical(&json!(2)), Ok("2".to_string()));
        assert_eq!(canonical(&json!(0.25)), Ok("250m".to_string()));
        // Numbers as kubectl's encoder writes them.
        assert_eq!(canonical(&json!(0.000001)), Ok("1u".to_string()));
        assert_eq!(canonical(&json!(1e16)), Ok("10P".to_string()));
        assert_eq!(canonical(&json!(1e21)), Ok("1e+21".to_string()));
        assert_eq!(canonical(&json!(1e-7)), Ok("100e-9".to_string()));
        // The server's own limits: a binary quantity caps at the largest int64, and a
        // decimal exponent with no suffix prints none.
        assert_eq!(
            canonical(&json!("8Ei")),
            Ok("9223372036854775807".to_string())
        );
        assert_eq!(canonical(&json!("1000E")), Ok("1".to_string()));
        assert_eq!(
            canonical(&json!("1e2147483646")),
            Ok("1e2147483646".to_string()),
            "no overflow"
        );
        assert_eq!(
            canonical(&json!("1e4294967296")),
            Ok("1e4294967296".to_string())
        );
    }

    #[test]
    fn values_in_billionths() {
        let n = |s: &str| parse(s).map(|q| q.nanos());
        assert_eq!(n("500m"), n("0.5"));
        assert_eq!(n("1Gi"), n("1024Mi"));
        assert_eq!(n("1k"), n("1e3"));
        assert_eq!(n("1.5Ki"), Ok(1536 * NANO));
        assert_eq!(n("0.1n"), Ok(1), "rounded up");
    }

    #[test]
    fn what_does_not_parse() {
        assert_eq!(canonical(&json!("")), Err(QuantityError::Format));
        assert_eq!(canonical(&json!("abc")), Err(QuantityError::Format));
        assert_eq!(canonical(&json!("1 Gi")), Err(QuantityError::Format));
        assert_eq!(canonical(&json!("1Qi")), Err(QuantityError::Format));
        assert_eq!(canonical(&json!("1ki")), Err(QuantityError::Suffix));
        assert_eq!(canonical(&json!("1e")), Err(QuantityError::Suffix));
        assert_eq!(canonical(&json!("Pi")), Err(QuantityError::Numeric));
        assert_eq!(canonical(&json!("e-10")), Err(QuantityError::Numeric));
        assert_eq!(
            canonical(&json!("Ki")),
            Ok("0".to_string()),
            "the fast path reads 0"
        );
        assert_eq!(canonical(&json!(true)), Err(QuantityError::Format));
        assert!(
            QuantityError::Format
                .to_string()
                .starts_with("quantities must match the regular expression")
        );
    }
}
