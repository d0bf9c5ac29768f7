//! Images as the kubelet and containerd see them: which references the demo's registry
//! has, the pull back-off of one it has not, the events of a failed pull, and the names,
//! digests and container ids a running container reports.

use serde_json::Value;

use super::kubelet::COMPONENT;
use crate::sim::api::{ApiServer, Note};
use crate::sim::kind::Kind;
use crate::sim::stored::Stored;

/// The demo's registry has every image except those whose reference contains
/// `nonexistent` (`nginx:nonexistent`), which stand for a typo or a tag never pushed.
pub fn pullable(image: &str) -> bool {
    !image.contains("nonexistent")
}

/// What a failing pull shows `secs` after the first attempt: `ErrImagePull` during each
/// attempt, `ImagePullBackOff` in between, the back-off doubling from 10 s up to 300 s
/// (the kubelet's image back-off).
pub(super) fn pull_state(secs: u64) -> &'static str {
    let (mut attempt, mut backoff) = (0u64, 10u64);
    loop {
        if secs == attempt {
            return "ErrImagePull";
        }
        let next = attempt + backoff;
        if secs < next {
            return "ImagePullBackOff";
        }
        attempt = next;
        backoff = (backoff * 2).min(300);
    }
}

/// What the container runtime (containerd) answers for an image the registry lacks; the
/// reference is the normalized one, with `docker.io/library/` and `:latest` filled in.
pub(super) fn pull_error(image: &str) -> String {
    let first = image.split('/').next().unwrap_or("");
    let mut full = if !image.contains('/') {
        format!("docker.io/library/{image}")
    } else if first.contains('.') || first.contains(':') || first == "localhost" {
        image.to_string()
    } else {
        format!("docker.io/{image}")
    };
    let last = full.rsplit('/').next().unwrap_or("");
    if !last.contains(':') && !last.contains('@') {
        full.push_str(":latest");
    }
    format!(
        "rpc error: code = NotFound desc = failed to pull and unpack image \"{full}\": failed to resolve reference \"{full}\": {full}: not found"
    )
}

/// The waiting message beside the reason: the pull error during an attempt, and during
/// the back-off the v1.32 kubelet's "Back-off pulling image" with the last error appended
/// (image_manager.go pullImage, prevPullErrMsg).
pub(super) fn pull_message(reason: &str, image: &str) -> String {
    let err = pull_error(image);
    if reason == "ErrImagePull" {
        err
    } else {
        format!("Back-off pulling image \"{image}\": ErrImagePull: {err}")
    }
}

/// The events the kubelet records (source `kubelet`, the pod as involved object) when a
/// container's waiting reason moves: a pull attempt (`Pulling`, `Failed` "Failed to pull
/// image", `Failed` "Error: ErrImagePull") or a sync during the back-off (`BackOff`,
/// `Failed` "Error: ImagePullBackOff"), as image_manager.go and startContainer do.
/// Repeats fold into the event's count.
pub(super) fn pull_events(api: &mut ApiServer, pod: &Stored, after: &Value, now: u64) {
    let before = pod.field("status").unwrap_or(&Value::Null);
    let waiting = |status: &Value, name: &str| -> Option<String> {
        status["containerStatuses"]
            .as_array()?
            .iter()
            .find(|c| c["name"] == name)
            .and_then(|c| c["state"]["waiting"]["reason"].as_str())
            .map(String::from)
    };
    let Some(cs) = after["containerStatuses"].as_array() else {
        return;
    };
    for c in cs {
        let name = c["name"].as_str().unwrap_or("");
        let image = c["image"].as_str().unwrap_or("");
        let reason = c["state"]["waiting"]["reason"].as_str().unwrap_or("");
        if waiting(before, name).as_deref() == Some(reason) {
            continue;
        }
        let notes: Vec<(&str, &str, String)> = match reason {
            "ErrImagePull" => vec![
                ("Normal", "Pulling", format!("Pulling image \"{image}\"")),
                (
                    "Warning",
                    "Failed",
                    format!("Failed to pull image \"{image}\": {}", pull_error(image)),
                ),
                ("Warning", "Failed", "Error: ErrImagePull".to_string()),
            ],
            "ImagePullBackOff" => vec![
                (
                    "Normal",
                    "BackOff",
                    format!("Back-off pulling image \"{image}\""),
                ),
                ("Warning", "Failed", "Error: ImagePullBackOff".to_string()),
            ],
            _ => continue,
        };
        let field_path = format!("spec.containers{{{name}}}");
        for (type_, reason, message) in &notes {
            let note = Note {
                type_,
                reason,
                message,
                component: COMPONENT,
                field_path: Some(&field_path),
            };
            api.record_event(pod, Kind::Pod, note, now);
        }
    }
}

/// An image's full reference and its image id (repository digest).
pub(super) fn pulled(image: &str) -> (String, String) {
    let image = normalized_image(image);
    let repo = image.rsplit_once(':').map_or(image.as_str(), |(r, _)| r);
    let id = format!("{repo}@sha256:{}", hex256(&[&image]));
    (image, id)
}

pub(crate) fn container_id(uid: &str, name: &str) -> String {
    format!("containerd://{}", hex256(&[uid, "/", name]))
}

/// An image reference as containerd reports it: registry and `library/` for Docker Hub
/// names, `:latest` when untagged.
pub(super) fn normalized_image(image: &str) -> String {
    let (first, _) = image.split_once('/').unwrap_or(("", image));
    let domain = first.contains('.') || first.contains(':') || first == "localhost";
    let mut full = if !image.contains('/') {
        format!("docker.io/library/{image}")
    } else if !domain {
        format!("docker.io/{image}")
    } else {
        image.to_string()
    };
    let last = full.rsplit('/').next().unwrap_or("");
    if !last.contains(':') && !full.contains('@') {
        full.push_str(":latest");
    }
    full
}

/// 64 hex digits derived from `seed` (four FNV-1a passes): a stand-in for a digest or a
/// container id that is the same for the same input and differs between inputs.
/// `seed` is the concatenation of the parts.
pub(super) fn hex256(seed: &[&str]) -> String {
    let mut out = String::with_capacity(64);
    for i in 0..4u64 {
        let h = seed
            .iter()
            .fold(crate::sim::names::FNV64_BASIS ^ i, |h, part| {
                crate::sim::names::fnv64a(part.as_bytes(), h)
            });
        crate::sim::names::push_hex(&mut out, &h.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_reported_as_containerd_names_them() {
        assert_eq!(
            normalized_image("nginx:1.27"),
            "docker.io/library/nginx:1.27"
        );
        assert_eq!(normalized_image("nginx"), "docker.io/library/nginx:latest");
        assert_eq!(
            normalized_image("bitnami/redis:7"),
            "docker.io/bitnami/redis:7"
        );
        assert_eq!(normalized_image("ghcr.io/a/b:1"), "ghcr.io/a/b:1");
        assert_eq!(
            normalized_image("localhost:5000/app"),
            "localhost:5000/app:latest"
        );
        assert_ne!(hex256(&["uid-1/app"]), hex256(&["uid-2/app"]));
        assert_eq!(hex256(&["uid-1", "/", "app"]), hex256(&["uid-1/app"]));
        assert_eq!(hex256(&["x"]).len(), 64);
    }

    #[test]
    fn a_failing_pull_backs_off_doubling_up_to_five_minutes() {
        assert!(pullable("nginx:1.28") && !pullable("nginx:nonexistent"));
        let at = |secs| pull_state(secs);
        assert_eq!(at(0), "ErrImagePull");
        assert_eq!(at(1), "ImagePullBackOff");
        assert_eq!(at(10), "ErrImagePull");
        assert_eq!(at(29), "ImagePullBackOff");
        assert_eq!(at(30), "ErrImagePull");
        assert_eq!(at(70), "ErrImagePull");
        // 10 + 20 + 40 + 80 + 160 = 310, then every 300 s.
        assert_eq!(at(310), "ErrImagePull");
        assert_eq!(at(610), "ErrImagePull");
        assert_eq!(at(609), "ImagePullBackOff");
    }
}
