//! Pod-template-hash naming (B3): FNV-32a of the template and the collision count, made
//! safe for names with apimachinery's SafeEncodeString.

use serde_json::Value;

use crate::sim::names::{NAME_ALPHABET, fnv32a};

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
