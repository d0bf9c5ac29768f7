//! Load + validate decks of realistic questions, beside reading the same text to a tree
//! with the fast reader (content/reader.rs) and with the toml crate (what it replaced),
//! and a plain `toml::from_str`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kubedrill::content::{self, Origin, Source};
use kubedrill::sim::catalog::SimCatalog;

#[path = "deckgen.rs"]
mod deckgen;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("content");
    group.sample_size(10);
    for n in [100usize, 1_000, 10_000] {
        let files = deckgen::deck(n);
        let bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(BenchmarkId::new("toml_from_str", n), &files, |b, files| {
            b.iter(|| {
                for (_, text) in files {
                    let t: toml::Table = toml::from_str(text).expect("valid");
                    std::hint::black_box(t);
                }
            })
        });
        group.bench_with_input(BenchmarkId::new("tree_reader", n), &files, |b, files| {
            b.iter(|| {
                for (_, text) in files {
                    let t = content::reader::read(text).expect("the reader takes deckgen's TOML");
                    std::hint::black_box(t);
                }
            })
        });
        group.bench_with_input(
            BenchmarkId::new("tree_toml_crate", n),
            &files,
            |b, files| {
                b.iter(|| {
                    for (_, text) in files {
                        let t = content::tree::parse_with_toml(text).expect("valid");
                        std::hint::black_box(t);
                    }
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("load_and_validate", n),
            &files,
            |b, files| {
                b.iter(|| {
                    let sources = files
                        .iter()
                        .map(|(name, text)| Source::new(name.clone(), text.clone(), Origin::User))
                        .collect();
                    let loaded = content::load(sources, vec![], &SimCatalog);
                    assert!(loaded.is_clean(), "{}", loaded.render(false));
                    std::hint::black_box(loaded.deck.questions.len())
                })
            },
        );
    }
    group.finish();

    // What a start does with the shipped content, against what it did before build.rs
    // packed it: parse and check the TOML.
    let mut shipped = c.benchmark_group("shipped");
    shipped.sample_size(20);
    shipped.bench_function("decode_prebuilt", |b| {
        b.iter(|| std::hint::black_box(content::shipped().deck.questions.len()))
    });
    shipped.bench_function("parse_and_check", |b| {
        b.iter(|| {
            let loaded = content::load(content::shipped_sources(), vec![], &SimCatalog);
            std::hint::black_box(loaded.deck.questions.len())
        })
    });
    shipped.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
