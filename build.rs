//! Parses and checks the shipped content when kubedrill is built, and packs the deck into
//! the binary: a start decodes it instead of parsing about 900 KB of TOML, which was most
//! of the time before the first frame.
//!
//! The files are loaded by the content layer's own code (src/content, compiled into this
//! script below), so a shipped file with a problem fails the build with the diagnostics
//! `kubedrill check` prints. Demo lines and challenge goals need the simulator, which a
//! build script cannot link: tests/shipped_content.rs checks those, and checks that this
//! deck is the one a load of the same files gives.

use std::path::Path;

/// The content layer, as the crate has it, less what only a running kubedrill uses. Lints
/// that hold for it as the crate's public API are allowed here, where nothing is public.
#[allow(dead_code, unused_imports, clippy::enum_variant_names)]
mod content {
    #[path = "../src/content/catalog.rs"]
    pub mod catalog;
    #[path = "../src/content/diag.rs"]
    pub mod diag;
    #[path = "../src/content/escape.rs"]
    pub mod escape;
    #[path = "../src/content/files.rs"]
    pub mod files;
    #[path = "../src/content/load.rs"]
    pub mod load;
    #[path = "../src/content/model.rs"]
    pub mod model;
    #[path = "../src/content/parse.rs"]
    pub mod parse;
    #[path = "../src/content/prebuilt.rs"]
    pub mod prebuilt;
    #[path = "../src/content/reader.rs"]
    pub mod reader;
    #[path = "../src/content/shared.rs"]
    pub mod shared;
    #[path = "../src/content/source.rs"]
    pub mod source;
    #[path = "../src/content/text.rs"]
    pub mod text;
    #[path = "../src/content/tree.rs"]
    pub mod tree;
    #[path = "../src/content/walk.rs"]
    pub mod walk;
}

use content::catalog::{DemoCatalog, Problem};
use content::prebuilt::Prebuilt;
use content::source::{Origin, Source};

/// The shipped files, in the order the home screen lists their topics. Every `.toml` in
/// content/ must be here: a file left out would silently not ship.
const SHIPPED: &[&str] = &[
    "reconciliation",
    "control-loop",
    "api-machinery",
    "workloads",
    "ownership",
    "writers",
    "controller-design",
    "nodes",
    "traffic",
    "stateful",
    "autoscaling",
];

/// Accepts every scenario, line and goal: the tests check them against the simulator.
struct LaterChecked;

impl DemoCatalog for LaterChecked {
    fn scenario_ids(&self) -> &[&str] {
        &[]
    }
    fn knows_scenario(&self, _: &str) -> bool {
        true
    }
    fn check_goal(&self, _: &str) -> Result<(), Problem> {
        Ok(())
    }
    fn check_line(&self, _: &str, _: &str) -> Result<(), Problem> {
        Ok(())
    }
}

fn main() {
    println!("cargo::rerun-if-changed=content");
    // The app is linked as a position-dependent executable on Linux: as a PIE, the dynamic
    // loader applied about 43,000 relocations at every start (800 K instructions) and
    // copied the 650 KB of pointers they touch, 180 of the 340 page faults of `kubedrill
    // --version`, about 0.7 ms of a start that must draw within a few. The cost: the
    // executable's own image is not placed at a random address (its libraries, stack, heap
    // and mappings still are); kubedrill takes no input from the network and runs with
    // the user's own rights. Tests and benchmarks are linked as before.
    let linux_gnu = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux")
        && std::env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|env| env == "gnu");
    if linux_gnu {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    if let Err(e) = run(Path::new(&root), Path::new(&out)) {
        eprintln!("error: the shipped content: {e}");
        std::process::exit(1);
    }
}

fn run(root: &Path, out: &Path) -> Result<(), String> {
    let dir = root.join("content");
    let mut unlisted: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".toml")?;
            (!SHIPPED.contains(&stem)).then(|| name.clone())
        })
        .collect();
    unlisted.sort();
    if !unlisted.is_empty() {
        return Err(format!(
            "content/{} is not in build.rs's SHIPPED list; add it where its topic should be \
             listed",
            unlisted.join(", content/")
        ));
    }
    let mut sources = Vec::new();
    let mut listing = String::from("&[\n");
    for stem in SHIPPED {
        let path = dir.join(format!("{stem}.toml"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = format!("content/{stem}.toml");
        listing += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        );
        sources.push(Source::new(name, text, Origin::Shipped));
    }
    listing += "]\n";
    let loaded = content::load::load(sources, Vec::new(), &LaterChecked);
    let packed = Prebuilt::from_loaded(&loaded)
        .and_then(|p| p.pack())
        .map_err(|e| e.to_string())?;
    write(&out.join("shipped.postcard"), &packed)?;
    write(&out.join("shipped_files.rs"), listing.as_bytes())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}
