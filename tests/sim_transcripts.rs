//! Golden transcripts of `kubedrill sim`: each tests/fixtures/sim/<scenario>.txt holds
//! input lines (`$ line`) and the exact output they print (seed 1); tests/fixtures/sim/
//! fidelity/ holds one per fidelity fix against Kubernetes, so none comes back. Run with
//! `KUBEDRILL_BLESS=1` to rewrite them after an intended change, then review the diff.

use std::path::Path;

use kubedrill::sim::session::Session;

fn replay(scenario: &str, inputs: &[String]) -> String {
    let mut s = Session::new(scenario, 1).unwrap();
    let mut out = String::new();
    for line in inputs {
        out.push_str(&format!("$ {line}\n"));
        let o = s.run_line(line);
        // Both streams in the order kubectl writes them, as a terminal shows them.
        for (is_err, text) in o.chunks() {
            out.push_str(text);
            if !is_err && !text.ends_with('\n') {
                // jsonpath prints no newline; the transcript marks it so the next `$` is clear.
                out.push_str("\u{23ce}\n");
            }
        }
    }
    out
}

#[test]
fn transcripts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sim");
    let bless = std::env::var_os("KUBEDRILL_BLESS").is_some();
    let mut checked = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .chain(std::fs::read_dir(dir.join("fidelity")).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let scenario = path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .split('.')
            .next()
            .unwrap()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let inputs: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("$ "))
            .map(String::from)
            .collect();
        let got = replay(&scenario, &inputs);
        if bless {
            std::fs::write(&path, &got).unwrap();
        } else {
            assert_eq!(
                got,
                text,
                "{} differs (KUBEDRILL_BLESS=1 rewrites it)",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 4,
        "expected a transcript per scenario, found {checked}"
    );
}

#[test]
fn same_seed_same_bytes_different_seed_different_names() {
    let inputs: Vec<String> = [
        "kubectl get pods",
        "kubectl delete pods -l app=web",
        "tick 3",
        "kubectl get pods,events",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let run = |seed| {
        let mut s = Session::new("self-healing", seed).unwrap();
        inputs
            .iter()
            .map(|l| s.run_line(l).stdout)
            .collect::<String>()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

/// What `help` says the demo simplifies is what the README's "What the demo simplifies"
/// says: each simplification the help names is in that paragraph too.
#[test]
fn the_readme_names_every_simplification_help_names() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("**What the demo simplifies")
        .expect("the README's simplifications paragraph");
    let section = &readme[start..];
    let section = section[..section.find("\n\n").unwrap_or(section.len())].replace('\n', " ");
    let help = kubedrill::sim::directive::HELP.replace('\n', " ");
    for phrase in [
        "one namespace",
        "no preemption",
        "managedFields",
        "volumes, probes, security contexts and affinity unchecked",
        "rate limit",
        "nonexistent",
        "ignores-sigterm",
        "Pulling",
        "10 simulated minutes",
        "cel-rust",
    ] {
        assert!(help.contains(phrase), "help lacks {phrase:?}");
        assert!(
            section.contains(phrase),
            "the README's simplifications lack {phrase:?}"
        );
    }
}
