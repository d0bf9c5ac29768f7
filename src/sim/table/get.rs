//! `kubectl get` tables: rows of cells aligned by the tabwriter, the kind's columns and
//! cells given by its strategy (`kinds`).

use super::fields::{Lookup, clean_cell, labels_cell};
use super::tabwriter::TabWriter;

/// `-o wide`, the `type/` NAME prefix (several resource types in one `get`), `--show-labels`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableOpts {
    pub wide: bool,
    pub show_kind_prefix: bool,
    pub show_labels: bool,
    pub no_headers: bool,
}

/// The table `kubectl get` prints for objects of one kind, given the kind's columns and
/// its row printer (`kinds`); `kind_group` prefixes names when several kinds are shown.
/// Empty (no header) for no objects.
pub fn get_table<T: Lookup>(
    columns: &[&str],
    kind_group: &str,
    objects: &[T],
    row: impl Fn(&dyn Lookup) -> Vec<String>,
    opts: &TableOpts,
) -> String {
    if objects.is_empty() {
        return String::new();
    }
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(objects.len() + 1);
    let mut header: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    if opts.show_labels {
        header.push("LABELS".to_string());
    }
    if !opts.no_headers {
        rows.push(header);
    }
    let name_col = columns.iter().position(|c| *c == "NAME");
    for obj in objects {
        let mut cells = row(obj);
        cells.truncate(columns.len());
        let mut cells: Vec<String> = cells.iter().map(|c| clean_cell(c)).collect();
        if let (true, Some(i)) = (opts.show_kind_prefix, name_col) {
            cells[i] = format!("{kind_group}/{}", cells[i]);
        }
        if opts.show_labels {
            cells.push(labels_cell(obj));
        }
        rows.push(cells);
    }
    let mut text = String::new();
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    TabWriter::GET.format(&text)
}
