//! Costs that hostile input once made quadratic or unbounded (issue 28), measured at two or
//! three sizes so a return to superlinear shows: a large `[keys]` table, deep jsonpath and
//! manifests (refused in one pass), a pasted text into the demo's command line and its
//! editor, `kubectl get pods` over 1,000 and 10,000 pods, and writes between two ticks (the
//! watch log no longer keeps their versions, since every watcher reads on after each
//! command; a write that grows the object costs in proportion to its size, as on an API
//! server, while writes of a constant size stay linear in their number).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kubedrill::sim::session::Session;
use kubedrill::tui::{App, Msg};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The app on the demo of a shipped question, with its command line (`:`) or its editor
/// (`e`) open.
fn demo_app(open: char) -> App {
    let loaded = kubedrill::content::load(
        kubedrill::content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    );
    let mut app = App::new(loaded, kubedrill::tui::Settings::default());
    app.update(Msg::Resize(120, 40));
    app.open_card("spec-vs-status");
    app.open_demo("spec-vs-status", &[]).expect("demo");
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(open),
        KeyModifiers::NONE,
    )));
    app
}

/// The app in a mock interview, answering its first question, with its notes open.
fn mock_app() -> App {
    let loaded = kubedrill::content::load(
        kubedrill::content::shipped_sources(),
        vec![],
        &kubedrill::sim::catalog::SimCatalog,
    );
    let mut app = App::new(loaded, kubedrill::tui::Settings::default());
    app.update(Msg::Resize(120, 40));
    for code in [
        KeyCode::Char('m'),
        KeyCode::Enter,
        KeyCode::Enter,
        KeyCode::Char('n'),
    ] {
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
    assert_eq!(app.context(), kubedrill::tui::keymap::Context::Notes);
    app
}

fn keys_table(n: usize) -> String {
    let mut t = String::from("[keys]\n");
    for i in 0..n {
        t.push_str(&format!("k{i} = \"x\"\n"));
    }
    t
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("hostile");
    g.sample_size(10);
    for n in [10_000usize, 40_000] {
        let text = keys_table(n);
        g.bench_with_input(BenchmarkId::new("config_keys", n), &text, |b, text| {
            b.iter(|| {
                let c = kubedrill::tui::config::parse(
                    text,
                    "config.toml",
                    kubedrill::tui::Settings::default(),
                );
                std::hint::black_box(c.problems.len())
            })
        });
    }
    for n in [25_000usize, 100_000] {
        let template = "{range .a}".repeat(n);
        g.bench_with_input(BenchmarkId::new("jsonpath_ranges", n), &template, |b, t| {
            b.iter(|| std::hint::black_box(kubedrill::sim::jsonpath::parse(t).is_err()))
        });
        let manifest = format!("{}1{}", "[".repeat(n), "]".repeat(n));
        g.bench_with_input(BenchmarkId::new("manifest_depth", n), &manifest, |b, m| {
            b.iter(|| std::hint::black_box(kubedrill::sim::output::parse_manifest(m).is_err()))
        });
    }
    for kib in [256usize, 1024] {
        let text = "kubectl get pods -o wide\n".repeat(kib * 1024 / 24);
        for (name, open) in [("paste_command_line", ':'), ("paste_editor", 'e')] {
            g.bench_with_input(BenchmarkId::new(name, kib), &text, |b, text| {
                b.iter_batched(
                    || demo_app(open),
                    |mut app| {
                        app.update(Msg::Paste(text.clone()));
                        std::hint::black_box(app.should_quit())
                    },
                    criterion::BatchSize::LargeInput,
                )
            });
        }
    }
    for kib in [16usize, 256] {
        let notes =
            "the controller compares spec with status, Every time.\n".repeat(kib * 1024 / 54);
        g.bench_with_input(
            BenchmarkId::new("paste_mock_notes", kib),
            &notes,
            |b, text| {
                b.iter_batched(
                    mock_app,
                    |mut app| {
                        app.update(Msg::Paste(text.clone()));
                        std::hint::black_box(app.should_quit())
                    },
                    criterion::BatchSize::LargeInput,
                )
            },
        );
    }
    // `kubectl get pods` over a large ReplicaSet: the table reads the stored pods in place.
    for n in [1_000usize, 10_000] {
        let mut s = Session::new("self-healing", 1).expect("scenario");
        // The controllers' default rate limit creates 20 pods a second.
        for line in [
            format!("kubectl scale deploy web --replicas={n}"),
            "tick 600".to_string(),
        ] {
            s.run_line(&line);
        }
        let rows = s.run_line("kubectl get pods").stdout.lines().count();
        assert_eq!(rows, n + 1, "every pod is listed");
        g.bench_function(BenchmarkId::new("get_pods", n), |b| {
            b.iter(|| std::hint::black_box(s.run_line("kubectl get pods").stdout.len()))
        });
    }
    // Each write adds a label, so the object grows: every write stores (and tracks the
    // fields of) an object one label larger, as an API server does. The same-size series
    // rewrites one annotation: its time should grow with n alone.
    for (name, growing) in [
        ("writes_between_ticks", true),
        ("writes_between_ticks_same_size", false),
    ] {
        for n in [250usize, 500, 1_000] {
            let lines: Vec<String> = (0..n)
                .map(|i| match growing {
                    true => format!("kubectl label deploy web l{i}=x"),
                    false => format!("kubectl annotate deploy web note=n{i} --overwrite"),
                })
                .collect();
            bench_lines(&mut g, name, n, lines);
        }
    }
    g.finish();
}

fn bench_lines(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    n: usize,
    lines: Vec<String>,
) {
    {
        g.bench_with_input(BenchmarkId::new(name, n), &lines, |b, lines| {
            b.iter(|| {
                let mut s = Session::new("spec-status", 1).expect("scenario");
                for l in lines {
                    s.run_line(l);
                }
                std::hint::black_box(s.lines.len())
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
