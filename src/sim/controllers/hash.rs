//! Pod-template-hash naming (B3): FNV-32a of the template and the collision count, made
//! safe for names with apimachinery's SafeEncodeString.

use serde_json::Value;

use crate::sim::api::NAME_ALPHABET;

fn fnv32a(bytes: &[u8], mut h: u32) -> u32 {
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// FNV-1a's 64-bit offset basis.
pub const FNV64_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, from `basis`: the simulator's stand-in for ids and digests a real
/// component would draw at random, so they come from a name without touching the seeded
/// stream.
pub fn fnv64a(bytes: &[u8], basis: u64) -> u64 {
    bytes.iter().fold(basis, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Appends `bytes` as lowercase hex, two digits each (Go's `%x` of a byte slice).
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
}

/// The hash of a pod template. Kubernetes hashes Go's deep printing of the struct; the
/// simulator hashes its canonical JSON, so values differ from a real cluster's but have
/// the same form and stability.
pub fn pod_template_hash(template: &Value, collision_count: i64) -> String {
    let mut t = template.clone();
    if let Some(l) = t
        .pointer_mut("/metadata/labels")
        .and_then(Value::as_object_mut)
    {
        l.remove("pod-template-hash");
    }
    let mut h = fnv32a(t.to_string().as_bytes(), 0x811c_9dc5);
    if collision_count > 0 {
        h = fnv32a(&(collision_count as u32).to_le_bytes(), h);
    }
    safe_encode(&h.to_string())
}

/// SafeEncodeString: each byte mapped into the vowel-free alphabet.
pub fn safe_encode(s: &str) -> String {
    s.bytes()
        .map(|b| NAME_ALPHABET[b as usize % NAME_ALPHABET.len()] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hex_is_two_lowercase_digits_a_byte() {
        let mut s = String::from(">");
        push_hex(&mut s, &[0x00, 0x0f, 0xa0, 0xff, 0x12]);
        assert_eq!(s, ">000fa0ff12");
        let h = 0x0123_4567_89ab_cdefu64;
        let mut t = String::new();
        push_hex(&mut t, &h.to_be_bytes());
        assert_eq!(t, format!("{h:016x}"));
    }

    #[test]
    fn stable_and_sensitive_to_the_template_only() {
        let a = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}});
        let mut b = a.clone();
        b["metadata"]["labels"]["pod-template-hash"] = json!("x");
        assert_eq!(pod_template_hash(&a, 0), pod_template_hash(&b, 0));
        let mut c = a.clone();
        c["spec"]["containers"][0]["image"] = json!("nginx:1.28");
        assert_ne!(pod_template_hash(&a, 0), pod_template_hash(&c, 0));
        assert_ne!(pod_template_hash(&a, 0), pod_template_hash(&a, 1));
        let h = pod_template_hash(&a, 0);
        assert!(
            h.len() <= 10 && h.bytes().all(|b| NAME_ALPHABET.contains(&b)),
            "{h}"
        );
    }
}
