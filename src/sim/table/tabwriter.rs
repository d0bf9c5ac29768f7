//! Go's `text/tabwriter` with a space pad character: cells end in `\t`, the text after a line's
//! last tab is never padded, and a line without a tab ends every column block.

/// Alignment settings; `get` uses minwidth 6, padding 3, `describe` minwidth 0, padding 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TabWriter {
    pub minwidth: usize,
    pub padding: usize,
}

impl TabWriter {
    /// `kubectl get`'s table writer.
    pub const GET: TabWriter = TabWriter {
        minwidth: 6,
        padding: 3,
    };
    /// `kubectl describe`'s writer.
    pub const DESCRIBE: TabWriter = TabWriter {
        minwidth: 0,
        padding: 2,
    };

    /// Aligns tab-separated `text` as one flush of Go's tabwriter.
    pub fn format(&self, text: &str) -> String {
        let mut lines: Vec<Vec<&str>> = Vec::new();
        let mut ends_with_newline = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (line, nl) = match rest.find('\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            lines.push(line.split('\t').collect());
            ends_with_newline.push(nl);
            rest = if nl { &rest[line.len() + 1..] } else { "" };
        }
        let mut out = String::with_capacity(text.len() * 2);
        let mut widths = Vec::new();
        let ctx = Lines {
            lines: &lines,
            newline: &ends_with_newline,
        };
        self.format_block(&ctx, &mut widths, 0, lines.len(), &mut out);
        out
    }

    /// Go's `Writer.format`: find the blocks of column `widths.len()` in `line0..line1`.
    fn format_block(
        &self,
        ctx: &Lines,
        widths: &mut Vec<usize>,
        mut line0: usize,
        line1: usize,
        out: &mut String,
    ) {
        let column = widths.len();
        let mut this = line0;
        while this < line1 {
            if column + 1 >= ctx.lines[this].len() {
                this += 1;
                continue;
            }
            ctx.write_lines(widths, line0, this, out);
            line0 = this;
            let mut width = self.minwidth;
            while this < line1 && column + 1 < ctx.lines[this].len() {
                width = width.max(ctx.lines[this][column].chars().count() + self.padding);
                this += 1;
            }
            widths.push(width);
            self.format_block(ctx, widths, line0, this, out);
            widths.pop();
            line0 = this;
        }
        ctx.write_lines(widths, line0, line1, out);
    }
}

struct Lines<'a> {
    lines: &'a [Vec<&'a str>],
    newline: &'a [bool],
}

impl Lines<'_> {
    fn write_lines(&self, widths: &[usize], from: usize, to: usize, out: &mut String) {
        for i in from..to {
            let cells = &self.lines[i];
            for (j, cell) in cells.iter().enumerate() {
                out.push_str(cell);
                if j < widths.len() && j + 1 < cells.len() {
                    let w = cell.chars().count();
                    out.extend(std::iter::repeat_n(' ', widths[j].saturating_sub(w)));
                }
            }
            if self.newline[i] {
                out.push('\n');
            }
        }
    }
}

/// Rows of cells, each row one line (`cells.join("\t")`), aligned as Go's tabwriter would.
pub fn tabulate(rows: &[Vec<String>], minwidth: usize, padding: usize) -> String {
    let mut text = String::new();
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    TabWriter { minwidth, padding }.format(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(lines: &[&[&str]]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|l| l.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[test]
    fn get_style_padding() {
        let t = rows(&[
            &["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
            &["web", "3/3", "3", "3", "2m30s"],
        ]);
        assert_eq!(
            tabulate(&t, 6, 3),
            "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           2m30s\n"
        );
    }

    #[test]
    fn empty_last_cell_keeps_previous_padding() {
        let t = rows(&[&["NAME", "AGE", "B"], &["web", "2m30s", ""]]);
        assert_eq!(tabulate(&t, 6, 3), "NAME   AGE     B\nweb    2m30s   \n");
    }

    #[test]
    fn line_without_tab_ends_the_block() {
        let text = "Name:\tweb\nPod Template:\n  Labels:\tapp=web\n  Containers:\nLonger key:\tx\n";
        assert_eq!(
            TabWriter::DESCRIBE.format(text),
            "Name:  web\nPod Template:\n  Labels:  app=web\n  Containers:\nLonger key:  x\n"
        );
    }

    #[test]
    fn shorter_lines_end_inner_columns_only() {
        let text = "a\tbb\tc\naaaa\td\n";
        assert_eq!(TabWriter::DESCRIBE.format(text), "a     bb  c\naaaa  d\n");
    }

    #[test]
    fn counts_characters_not_bytes() {
        assert_eq!(
            TabWriter::DESCRIBE.format("é\tx\nab\ty\n"),
            "é   x\nab  y\n"
        );
    }
}
