//! Tab completion for the demo's command line: commands, directives, resources, object
//! names, manifest files and controller names, read from the session (never changed).

use crate::sim::directive::Component;
use crate::sim::kind::Kind;
use crate::sim::kubectl::args::VERBS;
use crate::sim::obj;
use crate::sim::session::Session;

const RESOURCES: &[&str] = &["deployments", "replicasets", "pods", "events"];

/// The result of pressing Tab on `line`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The line with its last word completed as far as every candidate agrees.
    pub line: String,
    /// Every candidate, when more than one remains.
    pub choices: Vec<String>,
}

/// Completes the last word of `line` (a trailing space starts a new, empty word).
pub fn complete(line: &str, session: &Session) -> Completion {
    let (head, word) = match line.rfind(' ') {
        Some(i) => (&line[..=i], &line[i + 1..]),
        None => ("", line),
    };
    let before: Vec<&str> = head.split_whitespace().collect();
    let mut cands: Vec<String> = candidates(&before, session)
        .into_iter()
        .filter(|c| c.starts_with(word))
        .collect();
    cands.sort();
    cands.dedup();
    match cands.len() {
        0 => Completion {
            line: line.to_string(),
            choices: Vec::new(),
        },
        1 => Completion {
            line: format!("{head}{} ", cands[0]),
            choices: Vec::new(),
        },
        _ => {
            let common = common_prefix(&cands);
            Completion {
                line: format!(
                    "{head}{}",
                    if common.len() > word.len() {
                        common
                    } else {
                        word
                    }
                ),
                choices: cands,
            }
        }
    }
}

fn common_prefix(words: &[String]) -> &str {
    let first = &words[0];
    let mut n = first.len();
    for w in &words[1..] {
        n = first
            .char_indices()
            .zip(w.chars())
            .take_while(|((_, a), b)| a == b)
            .map(|((i, a), _)| i + a.len_utf8())
            .last()
            .unwrap_or(0)
            .min(n);
    }
    &first[..n]
}

fn names(session: &Session, kind: Kind) -> Vec<String> {
    session
        .objects(kind)
        .map(|o| obj::name(o).to_string())
        .collect()
}

fn components() -> Vec<String> {
    Component::ALL
        .iter()
        .map(|c| c.name().to_string())
        .collect()
}

fn files(session: &Session) -> Vec<String> {
    session.file_names().map(str::to_string).collect()
}

/// What may come next after the words `before`.
fn candidates(before: &[&str], session: &Session) -> Vec<String> {
    let owned = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let Some(&first) = before.first() else {
        // A line starts with kubectl or one of the sim's directives (one list, the sim's).
        // `export` is the app's own: it writes the replay script.
        return std::iter::once("kubectl")
            .chain(crate::sim::directive::WORDS.iter().copied())
            .chain(std::iter::once("export"))
            .map(str::to_string)
            .collect();
    };
    let last = before.last().copied().unwrap_or("");
    match first {
        "kubectl" | "k" => {
            if matches!(last, "-f" | "--filename") {
                return files(session);
            }
            let Some(&verb) = before.get(1) else {
                return owned(VERBS);
            };
            // The first non-flag word after the verb is the resource, the next a name.
            let args: Vec<&str> = before[2..]
                .iter()
                .copied()
                .filter(|w| !w.starts_with('-'))
                .collect();
            let args: &[&str] = if verb == "rollout" || verb == "set" {
                match args.split_first() {
                    None if verb == "rollout" => {
                        return owned(&["status", "history", "undo", "restart", "pause", "resume"]);
                    }
                    None => return owned(&["image"]),
                    Some((_, rest)) => rest,
                }
            } else {
                &args
            };
            match args {
                [] if matches!(verb, "apply" | "create" | "replace") => {
                    let mut c = owned(&["-f"]);
                    if verb == "create" {
                        c.push("deployment".into());
                    }
                    c
                }
                [] => owned(RESOURCES),
                [res] => match Kind::parse(res) {
                    Some(k) => names(session, k),
                    None => Vec::new(),
                },
                _ => Vec::new(),
            }
        }
        "pause" | "resume" | "crash" | "restart" | "drop" if before.len() == 1 => components(),
        "trigger" if before.len() == 1 => vec!["deployment".into(), "replicaset".into()],
        "trigger" if before.len() == 2 => owned(&["level", "edge"]),
        "cat" if before.len() == 1 => files(session),
        "restore" | "snapshot" if before.len() == 1 => {
            session.snapshots().map(str::to_string).collect()
        }
        "gitops" if before.len() == 1 => owned(&["every"]),
        "gitops" if before.len() == 3 => {
            let mut c = owned(&["client-side", "server-side"]);
            c.extend(files(session));
            c
        }
        "gitops" if before.len() == 4 => files(session),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::new("self-healing", 1).expect("scenario")
    }

    #[test]
    fn completes_commands_verbs_resources_and_names() {
        let s = session();
        assert_eq!(complete("kub", &s).line, "kubectl ");
        assert_eq!(
            complete("kubectl de", &s).choices,
            vec!["delete", "describe"]
        );
        assert_eq!(
            complete("kubectl get rep", &s).line,
            "kubectl get replicasets "
        );
        let pods = complete("kubectl delete pod web-", &s);
        assert_eq!(pods.choices.len(), 3, "{pods:?}");
        assert!(pods.line.starts_with("kubectl delete pod web-"));
        assert!(pods.choices.iter().all(|p| p.starts_with(&pods.line[19..])));
        assert_eq!(
            complete("kubectl get deploy ", &s).line,
            "kubectl get deploy web "
        );
    }

    #[test]
    fn completes_files_controllers_and_modes() {
        let s = session();
        assert_eq!(
            complete("kubectl apply -f w", &s).line,
            "kubectl apply -f web.yaml "
        );
        assert_eq!(complete("cat ", &s).line, "cat web.yaml ");
        assert_eq!(complete("k get rep", &s).line, "k get replicasets ");
        let mut s = s;
        s.run_line("snapshot before-scale");
        assert_eq!(complete("restore b", &s).line, "restore before-scale ");
        assert_eq!(
            complete("res", &s).choices,
            vec!["reset", "restart", "restore", "resume"]
        );
        assert_eq!(complete("pause rep", &s).line, "pause replicaset ");
        assert_eq!(
            complete("trigger replicaset e", &s).line,
            "trigger replicaset edge "
        );
        let none = complete("kubectl get pods zzz", &s);
        assert_eq!(none.line, "kubectl get pods zzz");
        assert!(none.choices.is_empty());
    }
}
