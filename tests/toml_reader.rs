//! The fast TOML reader against the toml crate: whatever the reader takes, the crate reads
//! to the same tree, spans included; what the crate rejects, the reader never takes. And
//! the shipped files, the shape user files copy, are all taken (else `check` is slow).

use std::path::{Path, PathBuf};

use kubedrill::content::reader::read;
use kubedrill::content::tree::parse_with_toml;
use proptest::prelude::*;

/// The reader's verdict on `text` is the crate's, or it declines.
fn agrees(text: &str) -> Result<(), TestCaseError> {
    if let Some(fast) = read(text) {
        let shown: String = text.chars().take(300).collect();
        let slow = parse_with_toml(text);
        prop_assert!(
            slow.is_ok(),
            "reader took what toml rejects: {shown:?}\n{slow:?}"
        );
        prop_assert!(fast == slow.expect("checked"), "trees differ for {shown:?}");
    }
    Ok(())
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read fixture folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            toml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

#[test]
fn shipped_files_are_read_fast_and_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    toml_files(&root.join("content"), &mut files);
    assert!(files.len() >= 10, "found {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let fast = read(&text).unwrap_or_else(|| panic!("reader declined {}", path.display()));
        let slow = parse_with_toml(&text).expect("shipped files are valid TOML");
        assert_eq!(fast, slow, "{}", path.display());
    }
}

#[test]
fn every_fixture_is_read_the_same_or_declined() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    toml_files(&root.join("tests/fixtures"), &mut files);
    assert!(files.len() >= 20, "found {} fixtures", files.len());
    for path in files {
        // Some hostile fixtures are not UTF-8 on purpose: the loader rejects them first.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        agrees(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Pieces of TOML, valid and not, over few names so that tables and keys collide.
fn piece() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec!["a", "b", "q", "a.b", "b.a", "\"a\"", "a-1", ""]);
    let value = prop::sample::select(vec![
        "'x'",
        "\"y\"",
        "\"\"",
        "''",
        "'''\nml\n'''",
        "'''ml'''''",
        "''''''",
        "\"\"\"\nb\\\n  c\"\"\"",
        "\"t\\tq\\\"\"",
        "\"bad\\q\"",
        "\"\\u00e9\"",
        "'é →'",
        "1",
        "-0",
        "01",
        "+2",
        "1_0",
        "9999999999999999999",
        "true",
        "false",
        "tru",
        "1.5",
        "1979-05-27",
        "[]",
        "['a', \"b\",]",
        "[\n 1, # c\n 2\n]",
        "[[1], ['x']]",
        "[1 2]",
        "{x = 1}",
        "'\u{1}'",
        "'open",
    ]);
    prop_oneof![
        (key.clone(), value).prop_map(|(k, v)| format!("{k} = {v}\n")),
        key.clone().prop_map(|k| format!("[{k}]\n")),
        key.prop_map(|k| format!("[[{k}]]\n")),
        prop::sample::select(vec![
            "\n",
            "\r\n",
            "# note\n",
            "  \t\n",
            "[ a ]\n",
            "[[a]\n",
            "x = 1 # c\r\n",
            "\r",
            "# \u{7}\n",
            "\u{feff}",
            "=\n",
            "k = 'a' 'b'\n",
        ])
        .prop_map(str::to_string),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reader_agrees_with_toml(pieces in prop::collection::vec(piece(), 0..12)) {
        agrees(&pieces.concat())?;
    }

    #[test]
    fn reader_agrees_on_arbitrary_text(text in "[\\[\\]a-b=.'\"#\n\r \t0-9\\\\,{}-]{0,60}") {
        agrees(&text)?;
    }
}
