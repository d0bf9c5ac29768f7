//! Writes a generated deck of N questions into a folder, for timing `kubedrill check`:
//! `cargo run --release --example gen_deck -- 700 /tmp/deck`
#[path = "../benches/deckgen.rs"]
mod deckgen;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(700);
    let dir = std::path::PathBuf::from(args.next().unwrap_or_else(|| "deck".into()));
    std::fs::create_dir_all(&dir)?;
    let mut total = 0;
    for (name, text) in deckgen::deck(n) {
        total += text.len();
        std::fs::write(dir.join(name), text)?;
    }
    println!("{n} questions, {total} bytes in {}", dir.display());
    Ok(())
}
