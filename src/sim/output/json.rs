//! `kubectl -o json`: Go's `json.MarshalIndent(obj, "", "    ")` plus a newline.

use super::go_number::json_number;
use serde_json::Value;

/// The object exactly as `kubectl get -o json` prints it, trailing newline included. Keys come
/// out in the Value's order (sorted for serde_json's default map, as kubectl sorts).
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v, 0);
    out.push('\n');
    out
}

/// Go's `json.Marshal` (compact, HTML-safe), as jsonpath prints maps and lists.
pub fn to_json_compact(v: &Value) -> String {
    let mut out = String::new();
    write_compact(&mut out, v);
    out
}

fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
        scalar => write_value(out, scalar, 0),
    }
}

fn write_value(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&json_number(n)),
        Value::String(s) => write_string(out, s),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("    ");
    }
}

/// Go's string encoding: HTML-safe (`<`, `>`, `&` as `\u003c`...), U+2028/9 escaped, other
/// non-ASCII raw, and since Go 1.22 `\b` and `\f` short forms.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dry_run_deployment_as_kubectl_label_local_prints_it() {
        let d = json!({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":null,"labels":{"app":"web","x":"y"},"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"strategy":{},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"nginx","resources":{}}]}}},"status":{}});
        // `kubectl label --local -f d.yaml x=y -o json` (kubectl v1.32.4).
        let want = r#"{
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {
        "creationTimestamp": null,
        "labels": {
            "app": "web",
            "x": "y"
        },
        "name": "web"
    },
    "spec": {
        "replicas": 3,
        "selector": {
            "matchLabels": {
                "app": "web"
            }
        },
        "strategy": {},
        "template": {
            "metadata": {
                "creationTimestamp": null,
                "labels": {
                    "app": "web"
                }
            },
            "spec": {
                "containers": [
                    {
                        "image": "nginx:1.27",
                        "name": "nginx",
                        "resources": {}
                    }
                ]
            }
        }
    },
    "status": {}
}
"#;
        assert_eq!(to_json(&d), want);
    }

    #[test]
    fn fixtures_print_byte_identical() {
        // `kubectl label --local -f X x=y -o json` outputs, parsed and printed again.
        for text in [
            include_str!("testdata/dryrun.kubectl.json"),
            include_str!("testdata/server.kubectl.json"),
            include_str!("testdata/rich.kubectl.json"),
            include_str!("testdata/t2b.kubectl.json"),
            include_str!("testdata/t3.kubectl.json"),
            include_str!("testdata/managed.kubectl.json"),
        ] {
            let v: Value = serde_json::from_str(text).expect("fixture");
            assert_eq!(to_json(&v), text);
        }
    }

    #[test]
    fn escapes_like_go() {
        let v = json!({
            "html": "<b>a & b</b>", "uni": "café ☕ 日本", "emoji": "😀", "ctrl": "a\u{1}b",
            "bf": "a\u{8}b\u{c}c", "esc": "a\u{1b}b", "ls": "a\u{2028}b", "tab": "a\tb",
            "cr": "a\rb", "dq": "say \"hi\"", "last": "{\"k\":\"v\"}\n",
            "nested": [[1, 2], [], [{"a": 1, "b": []}], {}], "nl": null, "t": true
        });
        let want = r#"{
    "bf": "a\bb\fc",
    "cr": "a\rb",
    "ctrl": "a\u0001b",
    "dq": "say \"hi\"",
    "emoji": "😀",
    "esc": "a\u001bb",
    "html": "\u003cb\u003ea \u0026 b\u003c/b\u003e",
    "last": "{\"k\":\"v\"}\n",
    "ls": "a\u2028b",
    "nested": [
        [
            1,
            2
        ],
        [],
        [
            {
                "a": 1,
                "b": []
            }
        ],
        {}
    ],
    "nl": null,
    "t": true,
    "tab": "a\tb",
    "uni": "café ☕ 日本"
}
"#;
        assert_eq!(to_json(&v), want);
    }
}
