//! `taut scen --summary`: one line on stderr after the rows, with the queries' totals and what
//! was built for the map before the first query (the CSV on stdout is unchanged).

use std::io::Write;

use taut::Built;

use crate::row::{Row, RowStatus};

/// The totals of the rows written.
#[derive(Debug, Default)]
pub struct Tally {
    queries: usize,
    ok: usize,
    unreachable: usize,
    invalid: usize,
    limit: usize,
    expanded: u64,
    generated: u64,
    time_us: f64,
}

impl Tally {
    /// Counts one row.
    pub fn add(&mut self, row: &Row) {
        self.queries += 1;
        match row.status {
            RowStatus::Ok(_) => self.ok += 1,
            RowStatus::Unreachable => self.unreachable += 1,
            RowStatus::Invalid => self.invalid += 1,
            RowStatus::Limit => self.limit += 1,
        }
        self.expanded += row.expanded;
        self.generated += row.generated;
        self.time_us += row.time_us;
    }
}

/// `12.345 ms`.
fn millis(secs: f64) -> String {
    format!("{:.3} ms", secs * 1e3)
}

/// `1.23 MiB`, or `45.6 KiB` under a mebibyte.
fn mebibytes(bytes: usize) -> String {
    let kib = bytes as f64 / 1024.0;
    if kib < 1024.0 {
        format!("{kib:.1} KiB")
    } else {
        format!("{:.2} MiB", kib / 1024.0)
    }
}

/// The summary line, without its newline: `taut: summary: 130 queries (130 ok, 0
/// unreachable, 0 invalid), 12345 expanded, 23456 generated, 4.321 ms in the planner; index:
/// ray index built in 1.234 ms, 0.27 MiB` (`index: none` when nothing was built; each thing
/// built or read is listed, `; `-separated, read ones with their file).
pub fn line(tally: &Tally, built: &[Built]) -> String {
    let t = tally;
    let mut s = format!(
        "taut: summary: {} queries ({} ok, {} unreachable, {} invalid{}), {} expanded, {} generated, {} in the planner; index: ",
        t.queries,
        t.ok,
        t.unreachable,
        t.invalid,
        if t.limit > 0 {
            format!(", {} limit", t.limit)
        } else {
            String::new()
        },
        t.expanded,
        t.generated,
        millis(t.time_us / 1e6)
    );
    if built.is_empty() {
        s.push_str("none");
    }
    let parts: Vec<String> = built
        .iter()
        .map(|b| {
            let how = match &b.file {
                Some(f) => format!("read from {} in", f.display()),
                None => "built in".to_owned(),
            };
            let bytes = b
                .heap_bytes
                .map_or(String::new(), |n| format!(", {}", mebibytes(n)));
            format!("{} {how} {}{bytes}", b.what, millis(b.secs))
        })
        .collect();
    s.push_str(&parts.join("; "));
    s
}

/// Writes the summary line to `to` (stderr): a line that cannot be written is not worth
/// failing the run for.
pub fn write(to: &mut dyn Write, tally: &Tally, built: &[Built]) {
    let _ = writeln!(to, "{}", line(tally, built));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_line_lists_totals_and_what_was_built() {
        let mut t = Tally::default();
        let mut row = Row::invalid(0, taut::Point::new(0, 0), taut::Point::new(1, 1));
        t.add(&row);
        row.status = RowStatus::Ok(1.5);
        row.expanded = 7;
        row.generated = 9;
        row.time_us = 1500.0;
        t.add(&row);
        assert_eq!(
            line(&t, &[]),
            "taut: summary: 2 queries (1 ok, 0 unreachable, 1 invalid), 7 expanded, 9 generated, 1.500 ms in the planner; index: none"
        );
        let built = [
            Built {
                what: "ray index".into(),
                secs: 0.0123,
                heap_bytes: Some(3 << 19),
                file: None,
            },
            Built {
                what: "given mesh".into(),
                secs: 0.002,
                heap_bytes: None,
                file: Some(PathBuf::from("m.mesh")),
            },
        ];
        assert!(
            line(&t, &built).ends_with(
                "index: ray index built in 12.300 ms, 1.50 MiB; given mesh read from m.mesh in 2.000 ms"
            ),
            "{}",
            line(&t, &built)
        );
    }
}
