//! Every challenge of the shipped deck is reachable: a scripted sequence of demo lines in
//! tests/fixtures/challenges/<question>/<n>.txt meets challenge n, and no challenge is met
//! before the learner does anything.

use std::path::Path;

use kubedrill::content::{self, Question};
use kubedrill::sim::catalog::SimCatalog;
use kubedrill::sim::session::Session;

fn deck() -> content::Deck {
    let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
    assert!(loaded.is_clean(), "{}", loaded.render(false));
    loaded.deck
}

/// A session at the point the learner takes over: scenario started, setup lines run.
fn start(q: &Question) -> Session {
    let mut s = Session::new(&q.demo.scenario, 1).expect("scenario exists");
    for line in &q.demo.setup {
        let out = s.run_line(line);
        assert!(
            out.stderr.is_empty(),
            "{}: setup `{line}` failed: {}",
            q.id,
            out.stderr
        );
    }
    let goals = q.demo.challenges.iter().map(|c| c.goal.as_str());
    s.set_goals(goals).expect("goals parse");
    s
}

#[test]
fn no_challenge_is_met_before_the_learner_acts() {
    for q in &deck().questions {
        let s = start(q);
        for (c, met) in q.demo.challenges.iter().zip(s.met()) {
            assert!(
                !met,
                "{}: `{}` is met without doing anything",
                q.id, c.title
            );
        }
    }
}

#[test]
fn every_challenge_has_a_script_that_meets_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/challenges");
    for q in &deck().questions {
        for (i, c) in q.demo.challenges.iter().enumerate() {
            let path = root.join(q.id.as_str()).join(format!("{}.txt", i + 1));
            let script = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: no script for `{}` at {}: {e}",
                    q.id,
                    c.title,
                    path.display()
                )
            });
            let mut s = start(q);
            for line in script.lines() {
                s.run_line(line);
            }
            assert!(
                s.met()[i],
                "{}: script {} does not meet `{}` ({})",
                q.id,
                path.display(),
                c.title,
                c.goal
            );
        }
    }
}

#[test]
fn every_runnable_code_line_runs_in_its_demo() {
    for q in &deck().questions {
        for block in q.code.iter().filter(|b| b.runnable) {
            let mut s = start(q);
            for line in block.lines() {
                let out = s.run_line(line);
                // The lessons include refusals and kubectl's warnings.
                let expected_error = out.stderr.contains("AlreadyExists")
                    || out.stderr.contains("Apply failed")
                    || out.stderr.starts_with("Warning:");
                assert!(
                    out.stderr.is_empty() || expected_error,
                    "{}: `{line}` failed in its demo: {}",
                    q.id,
                    out.stderr
                );
                assert!(
                    !out.stdout.is_empty() || expected_error,
                    "{}: `{line}` printed nothing",
                    q.id
                );
            }
        }
    }
}
