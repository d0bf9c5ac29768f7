//! Searching the deck: every question of every topic, across its id, prompt, keypoints,
//! tiers, what each level adds, pitfalls, follow-ups, code and the rest, without regard to
//! case. One hit per question (its first matching field, in the order a card shows them),
//! with the text around the match, so a learner sees why it matched.

use super::model::{Deck, Level, Question};

/// A question that matched: where, and the text around the match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit<'d> {
    pub question: &'d Question,
    pub field: String,
    pub snippet: String,
}

/// Characters of context on each side of a match in a snippet.
const CONTEXT: usize = 30;

/// The fields of a question as a card shows them: (name, text).
fn fields(q: &Question) -> Vec<(String, &str)> {
    let mut out: Vec<(String, &str)> = vec![("id".into(), &q.id), ("prompt".into(), &q.prompt)];
    out.extend(q.keypoints.iter().map(|k| ("keypoint".into(), k.as_str())));
    out.extend(q.analogy.as_deref().map(|a| ("analogy".into(), a)));
    out.push(("basics".into(), &q.basics.text));
    out.push(("solid".into(), &q.solid.text));
    for &level in Level::ALL {
        if let Some(t) = q.deeper.at(level) {
            out.push((format!("{level} adds"), t));
        }
    }
    out.extend(q.explainer.as_deref().map(|e| ("explainer".into(), e)));
    for c in &q.code {
        out.extend(c.caption.as_deref().map(|t| ("code".into(), t)));
        out.push(("code".into(), &c.text));
    }
    for f in &q.followups {
        out.push(("follow-up".into(), &f.q));
        out.push(("follow-up".into(), &f.a));
    }
    for p in &q.pitfalls {
        out.push(("pitfall".into(), &p.claim));
        out.push(("pitfall".into(), &p.why));
    }
    out
}

/// A character folded for comparison: its first lowercase character.
fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Where `needle` (already folded) starts in `text`, in characters.
fn find(text: &[char], needle: &[char]) -> Option<usize> {
    if needle.is_empty() || needle.len() > text.len() {
        return None;
    }
    (0..=text.len() - needle.len()).find(|&i| {
        text[i..i + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| fold(*a) == *b)
    })
}

/// The text around a match on one line: whitespace runs as one space, `…` where cut.
fn snippet(text: &[char], at: usize, len: usize) -> String {
    let start = at.saturating_sub(CONTEXT);
    let end = (at + len + CONTEXT).min(text.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut space = false;
    for c in &text[start..end] {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() && !out.ends_with('…') {
            out.push(' ');
        }
        space = false;
        out.push(*c);
    }
    if end < text.len() {
        out.push('…');
    }
    out
}

/// Where `q` matches `term` first, if it does.
pub fn matches<'d>(q: &'d Question, term: &str) -> Option<Hit<'d>> {
    let needle: Vec<char> = term.trim().chars().map(fold).collect();
    if needle.is_empty() {
        return None;
    }
    fields(q).into_iter().find_map(|(field, text)| {
        let chars: Vec<char> = text.chars().collect();
        find(&chars, &needle).map(|at| Hit {
            question: q,
            field,
            snippet: snippet(&chars, at, needle.len()),
        })
    })
}

/// Every question of the deck that matches `term`, in deck order.
pub fn search<'d>(deck: &'d Deck, term: &str) -> Vec<Hit<'d>> {
    deck.questions
        .iter()
        .filter_map(|q| matches(q, term))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn matching_ignores_case_and_keeps_the_texts_own() {
        let text = chars("Controllers compare SPEC with status");
        let at = find(&text, &chars("spec")).expect("found");
        assert_eq!(
            snippet(&text, at, 4),
            "Controllers compare SPEC with status"
        );
    }

    #[test]
    fn a_snippet_is_one_line_cut_with_an_ellipsis() {
        let long = format!("{}needle\n\n  in   a {}", "a".repeat(50), "b".repeat(50));
        let text = chars(&long);
        let at = find(&text, &chars("needle")).expect("found");
        let s = snippet(&text, at, 6);
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("needle in a b"), "{s}");
        assert!(!s.contains('\n'));
    }

    #[test]
    fn non_ascii_text_is_searched_by_character() {
        let text = chars("Größe ÄNDERN");
        assert_eq!(find(&text, &chars("ändern")), Some(6));
        assert_eq!(find(&text, &chars("")), None);
    }
}
