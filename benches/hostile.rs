//! Costs that hostile input once made quadratic or unbounded (issue 28), measured at two or
//! three sizes so a return to superlinear shows: a large `[keys]` table, deep jsonpath and
//! manifests (refused in one pass), and writes between two ticks (still superlinear: every
//! version waits in the watch log until the informers read it at the next tick).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kubedrill::sim::session::Session;

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
    for n in [250usize, 500, 1_000] {
        let lines: Vec<String> = (0..n)
            .map(|i| format!("kubectl label deploy web l{i}=x"))
            .collect();
        g.bench_with_input(
            BenchmarkId::new("writes_between_ticks", n),
            &lines,
            |b, lines| {
                b.iter(|| {
                    let mut s = Session::new("spec-status", 1).expect("scenario");
                    for l in lines {
                        s.run_line(l);
                    }
                    std::hint::black_box(s.lines.len())
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
