//! The text helpers behind the card: tabs, wrapping, truncation, Markdown under MONO.

use kubedrill::tui::text::{expand_tabs, hang, markdown, truncate, wrap};
use kubedrill::tui::theme::{DEFAULT, MONO};
use proptest::prelude::*;
use ratatui::style::{Color, Modifier};
use ratatui::text::{Line, Span};

fn plain(l: &Line<'_>) -> String {
    l.spans.iter().map(|s| s.content.as_ref()).collect()
}

#[test]
fn tabs_expand_to_stops_of_four() {
    assert_eq!(expand_tabs("a\tb"), "a   b");
    assert_eq!(expand_tabs("\tx\n\ty"), "    x\n    y");
    assert_eq!(expand_tabs("abcd\te"), "abcd    e");
}

#[test]
fn markdown_has_no_tabs_and_mono_has_no_colours() {
    let md = "# Head\n\nSome **bold** and `code`\twith a tab.\n\n```\n\tindented\n```\n";
    for theme in [&DEFAULT, &MONO] {
        let lines = markdown(md, theme);
        assert!(lines.iter().all(|l| !plain(l).contains('\t')));
        assert!(lines.iter().any(|l| plain(l).contains("    indented")));
    }
    let mono = markdown(md, &MONO);
    for l in &mono {
        for s in &l.spans {
            assert!(s.style.fg.is_none() && s.style.bg.is_none(), "{s:?}");
        }
    }
    let bold = mono
        .iter()
        .flat_map(|l| &l.spans)
        .find(|s| s.content == "bold")
        .unwrap();
    assert!(bold.style.add_modifier.contains(Modifier::BOLD));
    let coloured = markdown(md, &DEFAULT);
    assert!(
        coloured
            .iter()
            .flat_map(|l| &l.spans)
            .any(|s| s.style.fg.is_some_and(|c| c != Color::Reset))
    );
}

#[test]
fn wrap_breaks_at_words_keeps_styles_and_hangs() {
    let line = Line::from(vec![
        Span::raw("• one two "),
        Span::styled("three", MONO.key),
        Span::raw(" four"),
    ]);
    let out = wrap(&line, 10, hang(&line));
    let text: Vec<String> = out.iter().map(plain).collect();
    assert_eq!(text, ["• one two", "  three", "  four"]);
    assert!(
        out[1]
            .spans
            .iter()
            .any(|s| s.content == "three" && s.style == MONO.key)
    );
    let long = Line::raw("abcdefghijkl");
    let text: Vec<String> = wrap(&long, 5, 0).iter().map(plain).collect();
    assert_eq!(text, ["abcde", "fghij", "kl"]);
}

#[test]
fn truncate_marks_the_cut() {
    assert_eq!(truncate("kubedrill", 20), "kubedrill");
    assert_eq!(truncate("kubedrill", 5), "kube…");
    assert_eq!(truncate("kubedrill", 0), "");
}

proptest! {
    #[test]
    fn wrapped_lines_fit_and_keep_every_word(
        words in prop::collection::vec("[a-z]{1,30}", 0..40),
        width in 1usize..60,
        indent in 0usize..6,
    ) {
        let src = words.join(" ");
        let out = wrap(&Line::raw(src.clone()), width, indent);
        prop_assert!(!out.is_empty());
        for l in &out {
            prop_assert!(l.width() <= width, "{:?} wider than {}", plain(l), width);
        }
        let joined: String = out.iter().map(plain).collect::<Vec<_>>().join("");
        let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        prop_assert_eq!(squash(&joined), squash(&src));
    }
}
