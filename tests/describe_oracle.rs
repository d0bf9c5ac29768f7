//! The simulator's `describe rs|pod|deploy` and `get` (several kinds, `--no-headers`,
//! `--sort-by`) against what real kubectl 1.32 printed for the simulator's own objects,
//! served by tests/oracle/fake_apiserver.py (tests/fixtures/sim/describe/README.md says
//! how each fixture was made and how to regenerate it).

use std::path::Path;

use kubedrill::sim::session::Session;

/// (scenario, seed, lines) from a state.sim header and body.
fn state(text: &str) -> (String, u64, Vec<String>) {
    let mut scenario = String::new();
    let mut seed = 1;
    let mut lines = Vec::new();
    for l in text.lines() {
        if let Some(s) = l.strip_prefix("# scenario: ") {
            scenario = s.trim().to_string();
        } else if let Some(s) = l.strip_prefix("# seed: ") {
            seed = s.trim().parse().unwrap_or(1);
        } else if !l.starts_with('#') && !l.trim().is_empty() {
            lines.push(l.to_string());
        }
    }
    (scenario, seed, lines)
}

#[test]
fn describe_and_get_match_real_kubectl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sim/describe");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let (scenario, seed, lines) =
            state(&std::fs::read_to_string(dir.join("state.sim")).unwrap());
        let cases = std::fs::read_to_string(dir.join("cases.tsv")).unwrap();
        for case in cases
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (name, args) = case.split_once('\t').unwrap();
            let mut s = Session::new(&scenario, seed).unwrap();
            for l in &lines {
                s.run_line(l);
            }
            // The arguments as render.sh passes them (split on spaces, nothing unquoted):
            // each one quoted for the demo's shell.
            let quoted: Vec<String> = args.split(' ').map(|a| format!("'{a}'")).collect();
            let o = s.run_line(&format!("kubectl {}", quoted.join(" ")));
            let got: String = o.chunks().into_iter().map(|(_, t)| t).collect();
            let want = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{}/{name} (kubectl {args}):\n--- real kubectl\n{want}--- simulator\n{got}",
                    dir.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(checked >= 30, "only {checked} cases found");
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
