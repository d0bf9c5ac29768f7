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
    /// Where the match starts in `snippet`, in characters, so a narrow cell can show
    /// the match rather than the context before it.
    pub match_at: usize,
}

impl Hit<'_> {
    /// The snippet cut to start at most `lead` characters before the match.
    pub fn near_match(&self, lead: usize) -> String {
        near(&self.snippet, self.match_at, lead)
    }
}

fn near(snippet: &str, match_at: usize, lead: usize) -> String {
    let skip = match_at.saturating_sub(lead);
    if skip == 0 {
        return snippet.to_string();
    }
    let rest: String = snippet.chars().skip(skip).collect();
    format!("…{rest}")
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

/// The text around a match on one line: whitespace runs as one space, `…` where cut;
/// and where the match starts in it (in characters).
fn snippet(text: &[char], at: usize, len: usize) -> (String, usize) {
    let start = at.saturating_sub(CONTEXT);
    let end = (at + len + CONTEXT).min(text.len());
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut space = false;
    let mut match_at = 0;
    for (i, c) in text[start..end].iter().enumerate() {
        if start + i == at {
            match_at = out.chars().count() + usize::from(space && !out.is_empty());
        }
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
    (out, match_at)
}

/// Where `q` matches `term` first, if it does.
pub fn matches<'d>(q: &'d Question, term: &str) -> Option<Hit<'d>> {
    let needle: Vec<char> = term.trim().chars().map(fold).collect();
    if needle.is_empty() {
        return None;
    }
    fields(q).into_iter().find_map(|(field, text)| {
        let chars: Vec<char> = text.chars().collect();
        find(&chars, &needle).map(|at| {
            let (snippet, match_at) = snippet(&chars, at, needle.len());
            Hit {
                question: q,
                field,
                snippet,
                match_at,
            }
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
        let (s, match_at) = snippet(&text, at, 4);
        assert_eq!(s, "Controllers compare SPEC with status");
        assert_eq!(s.chars().skip(match_at).take(4).collect::<String>(), "SPEC");
    }

    #[test]
    fn a_snippet_is_one_line_cut_with_an_ellipsis() {
        let long = format!("{}needle\n\n  in   a {}", "a".repeat(50), "b".repeat(50));
        let text = chars(&long);
        let at = find(&text, &chars("needle")).expect("found");
        let (s, match_at) = snippet(&text, at, 6);
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("needle in a b"), "{s}");
        assert!(!s.contains('\n'));
        let cut = near(&s, match_at, 3);
        assert!(cut.starts_with("…aaaneedle in a"), "{cut}");
    }

    #[test]
    fn non_ascii_text_is_searched_by_character() {
        let text = chars("Größe ÄNDERN");
        assert_eq!(find(&text, &chars("ändern")), Some(6));
        assert_eq!(find(&text, &chars("")), None);
    }
}
