//! Go's number formatting: `encoding/json` floats and `strconv.FormatFloat(f, 'g', -1, 64)`.

use serde_json::Number;

/// Shortest round-trip digits and decimal exponent of `f` (`d.ddd * 10^exp`), from Rust's
/// `{:e}`, which yields the same shortest digits as Go's `strconv`.
fn digits_exp(f: f64) -> (String, i32) {
    let s = format!("{:e}", f.abs());
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    (mantissa.replace('.', ""), exp.parse().unwrap_or(0))
}

/// Go's `%e` style with shortest digits: `1e+21`, `1.5e-07`.
fn format_e(f: f64) -> String {
    let (digits, exp) = digits_exp(f);
    let mut out = String::new();
    if f.is_sign_negative() {
        out.push('-');
    }
    out.push_str(&digits[..1]);
    if digits.len() > 1 {
        out.push('.');
        out.push_str(&digits[1..]);
    }
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}", exp.abs()));
    out
}

/// How `encoding/json` writes a float64.
pub fn json_float(f: f64) -> String {
    if !f.is_finite() {
        // Go refuses these; JSON values from serde_json never hold them.
        return "null".to_string();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let mut s = format_e(f);
        // Go trims "e-07" to "e-7" (only for negative exponents).
        if let Some(pos) = s.find("e-0") {
            s.remove(pos + 2);
        }
        s
    } else {
        format!("{f}")
    }
}

/// How `encoding/json` writes any JSON number.
pub fn json_number(n: &Number) -> String {
    if n.is_i64() || n.is_u64() {
        n.to_string()
    } else {
        json_float(n.as_f64().unwrap_or(0.0))
    }
}

/// go-yaml v2's `strconv.FormatFloat(f, 'g', -1, 64)` with YAML's names for infinities.
fn yaml_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    go_g_float(f)
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)`, which is also what `fmt.Print` writes.
pub fn go_g_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let (_, exp) = digits_exp(f);
    // Shortest 'g' switches to exponent form outside 1e-4 <= |f| < 1e6.
    if !(-4..6).contains(&exp) {
        format_e(f)
    } else {
        format!("{f}")
    }
}

/// A number as `kubectl -o yaml` prints it. sigs.k8s.io/yaml re-reads the JSON text with
/// go-yaml, so an integral value becomes an int and anything else a float.
pub fn yaml_number(n: &Number) -> String {
    let text = json_number(n);
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    yaml_float(text.parse::<f64>().unwrap_or(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Number {
        serde_json::from_str(text).expect("number")
    }

    #[test]
    fn json_floats_like_go() {
        // Outputs of `kubectl label --local -f t2.json x=y -o json`.
        let cases = [
            ("0.00001", "0.00001"),
            ("123456789.5", "123456789.5"),
            ("1e-7", "1e-7"),
            ("1.5e300", "1.5e+300"),
            ("1e20", "100000000000000000000"),
            ("1e21", "1e+21"),
            ("0.1", "0.1"),
            ("-0.0", "-0"),
            ("2.0", "2"),
            ("12345678.9", "12345678.9"),
            ("0.000001", "0.000001"),
            ("123456789012345678", "123456789012345678"),
            ("-2", "-2"),
        ];
        for (input, want) in cases {
            assert_eq!(json_number(&num(input)), want, "{input}");
        }
    }

    #[test]
    fn yaml_numbers_like_go() {
        // Outputs of the same document with `-o yaml`.
        let cases = [
            ("0.00001", "1e-05"),
            ("123456789.5", "1.234567895e+08"),
            ("1e-7", "1e-07"),
            ("1.5e300", "1.5e+300"),
            ("1e20", "1e+20"),
            ("1e21", "1e+21"),
            ("0.1", "0.1"),
            ("-0.0", "0"),
            ("2.0", "2"),
            ("1234567.0", "1234567"),
            ("12345678.9", "1.23456789e+07"),
            ("1e6", "1000000"),
            ("0.000001", "1e-06"),
            ("0.0001", "0.0001"),
            ("1.5", "1.5"),
            ("123456789012345678", "123456789012345678"),
        ];
        for (input, want) in cases {
            assert_eq!(yaml_number(&num(input)), want, "{input}");
        }
    }
}
