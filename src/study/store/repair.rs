//! What a progress file must hold before it is used: our schema (not another program's
//! SQLite file, not a version below zero), and rows the readers can read. A file that is
//! not ours is moved aside whole; rows that cannot be read are dropped after a copy of the
//! file as it was is kept beside it, so one bad row no longer fails `stats` and `export`
//! forever, and nothing is lost.

use rusqlite::Connection;

use super::schema::{self, Column};
use super::{StoreError, sql};
use crate::study::time::{Millis, stamp};

/// Why a file is not a kubedrill progress database, or None when it may be one: checked
/// before anything is written to it.
pub fn foreign(conn: &Connection, path: &str) -> Result<Option<String>, StoreError> {
    let err = sql(path);
    // One read transaction: another instance creating the schema sets user_version in the
    // same transaction as its tables, so both reads must see the same moment. Read apart,
    // version 0 then its new tables looked like another program's database (seen when
    // several instances opened a fresh store at once).
    let read = conn.unchecked_transaction().map_err(&err)?;
    let version: i64 = read
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(&err)?;
    if version < 0 {
        return Ok(Some(format!("its schema version is {version}")));
    }
    let tables = table_names(&read).map_err(&err)?;
    drop(read);
    if version == 0 && !tables.is_empty() {
        return Ok(Some(format!(
            "it is another program's database (tables {})",
            tables.join(", ")
        )));
    }
    Ok(None)
}

/// The first table or column the migrated schema lacks.
pub fn missing_schema(conn: &Connection, path: &str) -> Result<Option<String>, StoreError> {
    let err = sql(path);
    for (table, columns) in schema::TABLES {
        let have = column_names(conn, table).map_err(&err)?;
        if have.is_empty() {
            return Ok(Some(format!("it has no table `{table}`")));
        }
        for c in *columns {
            if !have.iter().any(|h| h == c.name) {
                return Ok(Some(format!("table `{table}` has no column `{}`", c.name)));
            }
        }
    }
    Ok(None)
}

/// The tables a database holds, SQLite's own left out, by name.
fn table_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         ORDER BY name",
    )?
    .query_map([], |r| r.get(0))?
    .collect()
}

/// The names of a table's columns in a file, none when it has no such table.
fn column_names(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare(&format!("PRAGMA table_info(\"{table}\")"))?;
    st.query_map([], |r| r.get(1))?.collect()
}

/// Conditions beyond the declared types: the words the readers accept, and JSON columns
/// that must parse as the readers parse them.
fn extra(table: &str) -> &'static [(&'static str, &'static str)] {
    const PHASES: &str = "IN ('new', 'learning', 'review', 'relearning')";
    match table {
        "cards" => &[("phase", PHASES)],
        "reviews" => &[
            ("mode", "IN ('review', 'cram', 'cram-reschedule', 'mock')"),
            ("phase_before", PHASES),
        ],
        "mock_answers" => &[
            ("keypoints_covered", INDEX_LIST),
            ("pitfalls_said", INDEX_LIST),
        ],
        "mock_sessions" => &[("scorecard", "IS NULL OR json_valid(scorecard)")],
        "quiz_sessions" => &[("result", "IS NOT NULL AND json_valid(result)")],
        _ => &[],
    }
}

/// A JSON array of u32 indices, as `Vec<u32>` reads it.
const INDEX_LIST: &str = "JSON_U32_LIST";

fn condition(column: &str, rule: &str) -> String {
    if rule == INDEX_LIST {
        format!(
            "(json_valid({column}) AND json_type({column}) = 'array' AND NOT EXISTS (SELECT 1 \
             FROM json_each({column}) WHERE type != 'integer' OR value < 0 OR value > 4294967295))"
        )
    } else {
        format!("({column} {rule})")
    }
}

/// The type a column's values must have for the readers.
fn type_condition(c: &Column) -> String {
    let types = match c.kind {
        "INTEGER" => "'integer'",
        "REAL" => "'real', 'integer'",
        _ => "'text'",
    };
    let null = if c.not_null { "" } else { ", 'null'" };
    format!("typeof(\"{}\") IN ({types}{null})", c.name)
}

/// Rows the readers cannot read: (table, a description, the key to delete it by).
struct BadRow {
    table: String,
    what: String,
    key: Vec<(String, rusqlite::types::Value)>,
}

fn bad_rows(conn: &Connection, path: &str) -> Result<Vec<BadRow>, StoreError> {
    let err = sql(path);
    let mut out = Vec::new();
    for (table, cols) in schema::TABLES {
        let table = table.to_string();
        let mut checks: Vec<(String, String)> = cols
            .iter()
            .map(|c| {
                (
                    type_condition(c),
                    format!("`{}` holds a value of the wrong type", c.name),
                )
            })
            .collect();
        for (column, rule) in extra(&table) {
            checks.push((
                condition(column, rule),
                format!("`{column}` holds a value kubedrill does not know"),
            ));
        }
        let key: Vec<&Column> = cols.iter().filter(|c| c.pk > 0).collect();
        let reason = checks
            .iter()
            .map(|(cond, why)| format!("WHEN NOT ({cond}) THEN '{why}'"))
            .collect::<Vec<_>>()
            .join(" ");
        let key_sql = key
            .iter()
            .map(|c| format!("\"{}\"", c.name))
            .collect::<Vec<_>>()
            .join(", ");
        let q = format!(
            "SELECT * FROM (SELECT CASE {reason} ELSE NULL END AS why, {key_sql} FROM \"{table}\") \
             WHERE why IS NOT NULL"
        );
        let mut st = conn.prepare(&q).map_err(&err)?;
        let mut rows = st.query([]).map_err(&err)?;
        while let Some(r) = rows.next().map_err(&err)? {
            let why: String = r.get(0).map_err(&err)?;
            let mut k = Vec::new();
            for (i, c) in key.iter().enumerate() {
                k.push((c.name.to_string(), r.get(i + 1).map_err(&err)?));
            }
            out.push(BadRow {
                table: table.clone(),
                what: why,
                key: k,
            });
        }
    }
    // Rows whose parent is gone (an answer of a deleted mock, an undo of no review).
    let mut st = conn.prepare("PRAGMA foreign_key_check").map_err(&err)?;
    let orphans: Vec<(String, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(&err)?
        .collect::<rusqlite::Result<_>>()
        .map_err(&err)?;
    for (table, rowid) in orphans {
        out.push(BadRow {
            table,
            what: "refers to a row that is not there".into(),
            key: vec![("rowid".into(), rowid.into())],
        });
    }
    Ok(out)
}

/// Drops the rows the readers cannot read, after copying the file as it was to
/// `NAME.damaged-STAMP`. Returns what to tell the user, if anything was dropped.
pub fn drop_bad_rows(
    conn: &mut Connection,
    path: &std::path::Path,
    now: Millis,
) -> Result<Option<String>, StoreError> {
    let shown = path.display().to_string();
    let err = sql(&shown);
    let bad = bad_rows(conn, &shown)?;
    if bad.is_empty() {
        return Ok(None);
    }
    let mut copy = path.with_file_name(format!(
        "{}.damaged-{}",
        path.file_name()
            .map_or("progress.db".into(), |n| n.to_string_lossy()),
        stamp(now)
    ));
    let mut n = 1;
    while copy.exists() {
        n += 1;
        copy = path.with_file_name(format!("{}-{n}", copy.display()));
    }
    conn.execute("VACUUM INTO ?1", [copy.display().to_string()])
        .map_err(&err)?;
    let tx = conn.transaction().map_err(&err)?;
    for row in &bad {
        let cond = row
            .key
            .iter()
            .map(|(c, _)| format!("\"{c}\" = ?"))
            .collect::<Vec<_>>()
            .join(" AND ");
        let values: Vec<&rusqlite::types::Value> = row.key.iter().map(|(_, v)| v).collect();
        // Children first: the foreign keys would refuse the parent's deletion.
        let children: &[(&str, &str)] = match row.table.as_str() {
            "reviews" => &[("undos", "review_id")],
            "mock_sessions" => &[("mock_answers", "session_id")],
            _ => &[],
        };
        for (child, column) in children {
            if let Some((_, id)) = row.key.first() {
                tx.execute(
                    &format!("DELETE FROM \"{child}\" WHERE \"{column}\" = ?1"),
                    [id],
                )
                .map_err(&err)?;
            }
        }
        tx.execute(
            &format!("DELETE FROM \"{}\" WHERE {cond}", row.table),
            rusqlite::params_from_iter(values),
        )
        .map_err(&err)?;
    }
    tx.commit().map_err(&err)?;
    let first = &bad[0];
    Ok(Some(format!(
        "{} row{} of the progress database {} could not be read (first: {} row {}: {}) and \
         {} dropped; the file as it was is kept at {}",
        bad.len(),
        if bad.len() == 1 { "" } else { "s" },
        shown,
        first.table,
        first
            .key
            .iter()
            .map(|(c, v)| format!("{c}={}", crate::content::text::plain(&show(v))))
            .collect::<Vec<_>>()
            .join(","),
        first.what,
        if bad.len() == 1 { "was" } else { "were" },
        copy.display()
    )))
}

fn show(v: &rusqlite::types::Value) -> String {
    use rusqlite::types::Value;
    match v {
        Value::Null => "null".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => f.to_string(),
        Value::Text(t) => t.chars().take(80).collect(),
        Value::Blob(b) => format!("{} bytes", b.len()),
    }
}
