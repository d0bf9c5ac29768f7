//! Diagnostics in rustc style: `file:line:col`, the source line, a caret under the span
//! and an optional one-line help.

use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::source::Source;

/// One problem found in content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as shown to the user.
    pub file: String,
    /// Byte range in the (normalised) file text; `None` for whole-file problems such as
    /// unreadable or non-UTF-8 files.
    pub span: Option<Range<usize>>,
    /// 1-based line and column of the span start (0, 0 without a span).
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// Short text under the caret.
    pub label: Option<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn at(src: &Source, span: Range<usize>, message: impl Into<String>) -> Self {
        let (line, col) = src.line_col(span.start);
        Diagnostic {
            file: src.name.clone(),
            span: Some(span),
            line,
            col,
            message: message.into(),
            label: None,
            help: None,
        }
    }

    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.into(),
            span: None,
            line: 0,
            col: 0,
            message: message.into(),
            label: None,
            help: None,
        }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// `file:line:col` (or just the file for whole-file problems).
    pub fn location(&self) -> String {
        if self.span.is_some() {
            format!("{}:{}:{}", self.file, self.line, self.col)
        } else {
            self.file.clone()
        }
    }

    /// Renders like rustc. `src` must be the file the diagnostic points into.
    pub fn render(&self, src: Option<&Source>, styled: bool) -> String {
        let renderer = if styled {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let title = Level::ERROR.primary_title(self.message.as_str());
        let mut group: Group<'_> = match (src, &self.span) {
            (Some(src), Some(span)) => {
                // Show only the lines the span touches: rendering never scans a big file.
                let first = self.line;
                let (last, _) = src.line_col(span.end.saturating_sub(1).max(span.start));
                let last = last.min(first + 3);
                let window = src.line_range(first).start..src.line_range(last).end;
                let start = span.start - window.start;
                let end = (span.end.min(window.end) - window.start).max(start);
                let mut ann = AnnotationKind::Primary.span(start..end);
                if let Some(label) = &self.label {
                    ann = ann.label(label.as_str());
                }
                title.element(
                    Snippet::source(&src.text[window])
                        .line_start(first)
                        .path(src.name.as_str())
                        .annotation(ann),
                )
            }
            _ => Group::with_title(title).element(Level::NOTE.message(format!("in {}", self.file))),
        };
        if let Some(help) = &self.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        renderer.render(&[group])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::source::Origin;

    #[test]
    fn renders_location_source_line_caret_and_help() {
        let src = Source::new(
            "content/x.toml",
            "[topic]\nid = \"t\"\nlevle = \"junior\"\n",
            Origin::User,
        );
        let d = Diagnostic::at(&src, 17..22, "unknown key `levle`")
            .label("not a key of [[question]]")
            .help("did you mean `level`?");
        assert_eq!(d.location(), "content/x.toml:3:1");
        let out = d.render(Some(&src), false);
        assert!(out.starts_with("error: unknown key `levle`"), "{out}");
        assert!(out.contains("--> content/x.toml:3:1"), "{out}");
        assert!(out.contains("levle = \"junior\""), "{out}");
        assert!(out.contains("^^^^^ not a key of [[question]]"), "{out}");
        assert!(out.contains("help: did you mean `level`?"), "{out}");
    }

    #[test]
    fn whole_file_problems_name_the_file() {
        let d = Diagnostic::file("bad.toml", "file is not valid UTF-8");
        let out = d.render(None, false);
        assert!(out.contains("error: file is not valid UTF-8"), "{out}");
        assert!(out.contains("bad.toml"), "{out}");
        assert_eq!(d.location(), "bad.toml");
    }
}
