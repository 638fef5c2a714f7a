//! The one row type of the query commands: `taut scen` writes one [`Row`] per query (grid and
//! mesh scenarios alike) as CSV or JSON, and `taut path --format json` writes one with its
//! waypoints. Both formats go through the same `serde` serialisation, so they cannot drift
//! apart: same keys, same order, same number formats.

use std::io::Write;

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::value::RawValue;
use taut::Point;

/// The header line of `taut scen --format csv`, and the key names of its JSON objects.
///
/// - `index`: the 0-based position of the query in the scenario file;
/// - `start_x,start_y,goal_x,goal_y`: the query's points (lattice points of a grid map, or as
///   given in a mesh scenario);
/// - `status`: `ok`, `unreachable`, `invalid` (an endpoint off the map or on a blocked cell),
///   or `limit` (`--max-expansions` or `--timeout-ms` stopped the search first);
/// - `length`: the path length with 8 decimals when `ok`, else `inf` (`null` in JSON, which
///   has no infinity): the one convention of every command and of Python (docs/cli.md);
/// - `expanded,generated`: the planner's search statistics (0 when `invalid`);
/// - `time_us`: wall-clock microseconds spent in the planner, 3 decimals (0 when `invalid`).
pub const CSV_HEADER: &str =
    "index,start_x,start_y,goal_x,goal_y,status,length,expanded,generated,time_us";

/// The extra column of `taut scen --algo eps --anytime`: microseconds to End Point Search's
/// first solution (3 decimals; 0 when `invalid`, and the time to prove it when
/// `unreachable`). `time_us` is then the time to the proven optimum, whose length `length`
/// is.
pub const ANYTIME_COLUMN: &str = "first_us";

/// What became of one query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowStatus {
    /// A path of this length was found.
    Ok(f64),
    /// The endpoints are valid but not connected.
    Unreachable,
    /// An endpoint is off the map or on a blocked cell; no planner was run.
    Invalid,
    /// The query's limit (`--max-expansions`, `--timeout-ms`) stopped the search first; the
    /// statistics are the work done.
    Limit,
}

impl RowStatus {
    /// The status of a query that ended: `Ok(length)` when found.
    pub fn from(status: taut::Status, answer: &taut::Answer) -> RowStatus {
        match status {
            taut::Status::Found => RowStatus::Ok(answer.length),
            taut::Status::Unreachable => RowStatus::Unreachable,
        }
    }

    /// The `status` column: `ok`, `unreachable`, `invalid` or `limit`.
    pub fn name(self) -> &'static str {
        match self {
            RowStatus::Ok(_) => "ok",
            RowStatus::Unreachable => "unreachable",
            RowStatus::Invalid => "invalid",
            RowStatus::Limit => "limit",
        }
    }
}

/// One query's result, as `taut scen` and `taut path` write it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 0-based index of the query in the scenario file (0 for `taut path`).
    pub index: usize,
    /// Start point, `[x, y]`.
    pub start: [f64; 2],
    /// Goal point, `[x, y]`.
    pub goal: [f64; 2],
    /// The result.
    pub status: RowStatus,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// Microseconds spent in the planner.
    pub time_us: f64,
    /// With `--anytime`: microseconds to the first solution.
    pub first_us: Option<f64>,
    /// The path's waypoints (`taut path`; never in `taut scen` rows).
    pub waypoints: Option<Vec<Point>>,
}

impl Row {
    /// An `invalid` row for the grid query `start -> goal`: no statistics, no time.
    pub fn invalid(index: usize, start: Point, goal: Point) -> Row {
        let at = |p: Point| [f64::from(p.x), f64::from(p.y)];
        Row {
            index,
            start: at(start),
            goal: at(goal),
            status: RowStatus::Invalid,
            expanded: 0,
            generated: 0,
            time_us: 0.0,
            first_us: None,
            waypoints: None,
        }
    }

    /// The `length` column: 8 decimals when `ok`, else `None` (no path, no length).
    fn length_text(&self) -> Option<String> {
        match self.status {
            RowStatus::Ok(len) => Some(format!("{len:.8}")),
            _ => None,
        }
    }

    /// The fields in order, the `length` of a query that is not `ok` being `inf` in CSV and
    /// `null` in JSON (which has no infinity).
    fn serialize_as<S: Serializer>(&self, serializer: S, csv: bool) -> Result<S::Ok, S::Error> {
        let fields =
            10 + usize::from(self.first_us.is_some()) + usize::from(self.waypoints.is_some());
        let mut s = serializer.serialize_struct("Row", fields)?;
        s.serialize_field("index", &self.index)?;
        // Coordinates as Rust writes them: integers without a fraction, others as given.
        s.serialize_field("start_x", &number::<S>(self.start[0].to_string())?)?;
        s.serialize_field("start_y", &number::<S>(self.start[1].to_string())?)?;
        s.serialize_field("goal_x", &number::<S>(self.goal[0].to_string())?)?;
        s.serialize_field("goal_y", &number::<S>(self.goal[1].to_string())?)?;
        s.serialize_field("status", self.status.name())?;
        match (self.length_text(), csv) {
            (Some(text), _) => s.serialize_field("length", &number::<S>(text)?)?,
            (None, true) => s.serialize_field("length", "inf")?,
            (None, false) => s.serialize_field("length", &None::<f64>)?,
        }
        s.serialize_field("expanded", &self.expanded)?;
        s.serialize_field("generated", &self.generated)?;
        s.serialize_field("time_us", &number::<S>(format!("{:.3}", self.time_us))?)?;
        if let Some(f) = self.first_us {
            s.serialize_field(ANYTIME_COLUMN, &number::<S>(format!("{f:.3}"))?)?;
        }
        if let Some(w) = &self.waypoints {
            let pairs: Vec<[i32; 2]> = w.iter().map(|p| [p.x, p.y]).collect();
            s.serialize_field("waypoints", &pairs)?;
        }
        s.end()
    }
}

/// A row as one CSV record (see [`Row::serialize_as`]).
struct CsvRow<'r>(&'r Row);

impl Serialize for CsvRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_as(serializer, true)
    }
}

/// A number written exactly as formatted: a JSON number token in JSON, a field in CSV.
fn number<S: Serializer>(text: String) -> Result<Box<RawValue>, S::Error> {
    RawValue::from_string(text).map_err(serde::ser::Error::custom)
}

/// The JSON shape of a row: `length` is `null` unless `ok`.
impl Serialize for Row {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_as(serializer, false)
    }
}

/// The output format of a stream of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowFormat {
    /// A header line, then one CSV line per row.
    Csv,
    /// One JSON array, one object per line.
    Json,
}

/// Writes rows as they come (so `taut scen ... | head` shows the first rows at once and ends
/// quietly): the header or the opening bracket first, a row per call, the closing bracket at
/// [`RowWriter::finish`].
pub struct RowWriter<'w> {
    out: &'w mut dyn Write,
    format: RowFormat,
    rows: usize,
    /// One row's bytes, reused: the row is written to `out` whole, and `out` (a buffered
    /// standard output) decides when to flush, as for any other line.
    line: Vec<u8>,
}

impl<'w> RowWriter<'w> {
    /// Starts the output: the CSV header (with [`ANYTIME_COLUMN`] when `anytime`) or `[`.
    ///
    /// # Errors
    /// The write fails.
    pub fn start(
        out: &'w mut dyn Write,
        format: RowFormat,
        anytime: bool,
    ) -> std::io::Result<RowWriter<'w>> {
        match format {
            RowFormat::Json => write!(out, "[")?,
            RowFormat::Csv if anytime => writeln!(out, "{CSV_HEADER},{ANYTIME_COLUMN}")?,
            RowFormat::Csv => writeln!(out, "{CSV_HEADER}")?,
        }
        Ok(RowWriter {
            out,
            format,
            rows: 0,
            line: Vec::with_capacity(256),
        })
    }

    /// Writes one row.
    ///
    /// # Errors
    /// The write fails.
    pub fn write(&mut self, row: &Row) -> std::io::Result<()> {
        match self.format {
            RowFormat::Json => {
                write!(self.out, "{}\n  ", if self.rows == 0 { "" } else { "," })?;
                serde_json::to_writer(&mut *self.out, row).map_err(std::io::Error::from)?;
            }
            RowFormat::Csv => {
                self.line.clear();
                let mut csv = csv::WriterBuilder::new()
                    .has_headers(false)
                    .buffer_capacity(256)
                    .from_writer(&mut self.line);
                csv.serialize(CsvRow(row)).map_err(csv_io)?;
                csv.flush()?; // into `line`: a Vec, nothing reaches `out` yet
                drop(csv);
                self.out.write_all(&self.line)?;
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// Ends the output (the closing bracket of JSON).
    ///
    /// # Errors
    /// The write fails.
    pub fn finish(self) -> std::io::Result<()> {
        if self.format == RowFormat::Json {
            writeln!(self.out, "{}]", if self.rows == 0 { "" } else { "\n" })?;
        }
        Ok(())
    }
}

/// A CSV error as the I/O error it is (a row of numbers and words cannot fail otherwise).
fn csv_io(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        let mut ok = Row::invalid(0, Point::new(19, 26), Point::new(19, 29));
        ok.status = RowStatus::Ok(3.0);
        ok.expanded = 4;
        ok.generated = 9;
        ok.time_us = 1.23456;
        let mut frac = Row::invalid(2, Point::new(0, 0), Point::new(0, 0));
        frac.goal = [0.5, 2.25];
        frac.status = RowStatus::Unreachable;
        vec![
            ok,
            Row::invalid(1, Point::new(2, 1), Point::new(0, 0)),
            frac,
        ]
    }

    fn write_all(format: RowFormat, anytime: bool, rows: &[Row]) -> String {
        let mut out = Vec::new();
        let mut w = RowWriter::start(&mut out, format, anytime).unwrap();
        for r in rows {
            w.write(r).unwrap();
        }
        w.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_and_json_write_the_same_fields_in_the_same_formats() {
        assert_eq!(
            write_all(RowFormat::Csv, false, &rows()),
            format!(
                "{CSV_HEADER}\n0,19,26,19,29,ok,3.00000000,4,9,1.235\n\
                 1,2,1,0,0,invalid,inf,0,0,0.000\n2,0,0,0.5,2.25,unreachable,inf,0,0,0.000\n"
            )
        );
        assert_eq!(
            write_all(RowFormat::Json, false, &rows()),
            "[\n  {\"index\":0,\"start_x\":19,\"start_y\":26,\"goal_x\":19,\"goal_y\":29,\
             \"status\":\"ok\",\"length\":3.00000000,\"expanded\":4,\"generated\":9,\"time_us\":1.235},\n  \
             {\"index\":1,\"start_x\":2,\"start_y\":1,\"goal_x\":0,\"goal_y\":0,\"status\":\"invalid\",\
             \"length\":null,\"expanded\":0,\"generated\":0,\"time_us\":0.000},\n  \
             {\"index\":2,\"start_x\":0,\"start_y\":0,\"goal_x\":0.5,\"goal_y\":2.25,\
             \"status\":\"unreachable\",\"length\":null,\"expanded\":0,\"generated\":0,\"time_us\":0.000}\n]\n"
        );
        // The header is written even when there is no row.
        assert_eq!(
            write_all(RowFormat::Csv, true, &[]),
            format!("{CSV_HEADER},first_us\n")
        );
        assert_eq!(write_all(RowFormat::Json, false, &[]), "[]\n");
    }

    #[test]
    fn anytime_and_waypoint_fields_follow_the_others() {
        let mut r = rows().remove(0);
        r.first_us = Some(0.5);
        assert_eq!(
            write_all(RowFormat::Csv, true, std::slice::from_ref(&r)),
            format!("{CSV_HEADER},first_us\n0,19,26,19,29,ok,3.00000000,4,9,1.235,0.500\n")
        );
        r.first_us = None;
        r.waypoints = Some(vec![Point::new(19, 26), Point::new(19, 29)]);
        let v: serde_json::Value = serde_json::to_value(&r).unwrap();
        assert_eq!(v["waypoints"], serde_json::json!([[19, 26], [19, 29]]));
        assert_eq!(v["length"], serde_json::json!(3.0));
    }
}
