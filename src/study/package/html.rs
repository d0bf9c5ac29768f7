//! Content Markdown as the small HTML an Anki field holds: paragraphs, emphasis, `code`
//! spans, fenced code as `<pre><code>`, lists, links.
//!
//! pulldown-cmark's own HTML writer does the work (it escapes `<`, `>`, `&` and `"` in
//! text). What it would pass through untouched, raw HTML written in the Markdown, is
//! turned into text first, so a `<script>` in a content file reaches Anki as the
//! characters `&lt;script&gt;`, never as markup.

use pulldown_cmark::{Event, Options, Parser, html};

/// The Markdown extensions content is written with (the terminal renders the same).
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// A block of content Markdown as HTML (no trailing newline).
pub fn markdown(md: &str) -> String {
    let events = Parser::new_ext(md, options()).map(|e| match e {
        Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
        Event::InlineMath(s) | Event::DisplayMath(s) => Event::Text(s),
        other => other,
    });
    let mut out = String::with_capacity(md.len() + md.len() / 4);
    html::push_html(&mut out, events);
    clean(out.trim_end())
}

/// One short line of Markdown (a key point, a pitfall's claim) without the paragraph
/// around it.
pub fn inline(md: &str) -> String {
    let block = markdown(md);
    match block
        .strip_prefix("<p>")
        .and_then(|b| b.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => block,
    }
}

/// Plain text (what a learner typed) with `<`, `>`, `&` and `"` escaped and line breaks
/// kept.
pub fn text(s: &str) -> String {
    clean(&escape(s).replace('\n', "<br>"))
}

/// Code shown as written: `<pre><code class="language-LANG">`.
pub fn code(lang: &str, body: &str) -> String {
    let lang: String = lang
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'))
        .collect();
    let class = if lang.is_empty() {
        String::new()
    } else {
        format!(" class=\"language-{lang}\"")
    };
    format!(
        "<pre><code{class}>{}</code></pre>",
        clean(&escape(body.trim_end_matches('\n')))
    )
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Drops control characters Anki refuses in a field (all but tab and newline); the
/// field separator `\x1f` among them.
pub fn clean(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_raw_html_is_not_passed_through() {
        assert_eq!(
            markdown("a < b && c > d \"q\""),
            "<p>a &lt; b &amp;&amp; c &gt; d \"q\"</p>"
        );
        let h = markdown("before <script>alert(1)</script> after");
        assert!(!h.contains("<script>"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
        let block = markdown("<div onclick=\"x\">\nhi\n</div>");
        assert!(!block.contains("<div"), "{block}");
    }

    #[test]
    fn paragraphs_code_spans_fences_and_lists() {
        let h =
            markdown("One `spec.replicas` here.\n\nTwo:\n\n- a\n- b\n\n```yaml\nkind: Pod\n```");
        assert!(
            h.contains("<p>One <code>spec.replicas</code> here.</p>"),
            "{h}"
        );
        assert!(h.contains("<ul>\n<li>a</li>\n<li>b</li>\n</ul>"), "{h}");
        assert!(
            h.contains("<pre><code class=\"language-yaml\">kind: Pod\n</code></pre>"),
            "{h}"
        );
        assert_eq!(inline("the **status**"), "the <strong>status</strong>");
        assert_eq!(inline("one\n\ntwo"), "<p>one</p>\n<p>two</p>");
    }

    #[test]
    fn typed_text_and_code_blocks_are_escaped() {
        assert_eq!(text("a<b>\nc & d"), "a&lt;b&gt;<br>c &amp; d");
        assert_eq!(
            code("sh\"><x", "echo <x>\n"),
            "<pre><code class=\"language-shx\">echo &lt;x&gt;</code></pre>"
        );
        assert_eq!(code("", "x"), "<pre><code>x</code></pre>");
        assert_eq!(clean("a\u{1f}b\u{0}c\td\n"), "abc\td\n");
    }
}
