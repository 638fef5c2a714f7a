//! Reference optima: a CSV with one row per query (`map`, `idx`, the query's coordinates and a
//! length column), as `optimal/scen.csv` of the shared data.

use std::collections::HashMap;
use std::path::Path;

use taut::geom::Point;

use crate::error::BenchError;

/// Splits a CSV's header line `first` (`None`: the file is empty) into its fields and finds
/// the column of each of `names` (fields are compared trimmed). The error says which column is
/// missing.
pub(crate) fn csv_header<'t, const N: usize>(
    first: Option<&'t str>,
    names: [&str; N],
) -> Result<(Vec<&'t str>, [usize; N]), String> {
    let header: Vec<&str> = first.ok_or("empty file")?.split(',').collect();
    let mut cols = [0; N];
    for (c, name) in cols.iter_mut().zip(names) {
        *c = header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or_else(|| format!("no column {name:?}"))?;
    }
    Ok((header, cols))
}

/// One query's reference optimum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RefRow {
    /// The start the reference solved (checked against the scenario's).
    pub start: Point,
    /// The goal the reference solved.
    pub goal: Point,
    /// The optimum; `None` where the reference planner did not finish; negative when an
    /// endpoint is blocked (the query is invalid).
    pub length: Option<f64>,
    /// The nodes the reference Java Anya popped from its open list on this query (the
    /// optional column `anya_java_expanded`), for comparing Anya's expansion counts.
    pub java_expanded: Option<u64>,
}

/// The column of the reference data with the reference Java Anya's expansion count per
/// query (nodes popped from its open list; intermediate nodes expanded inline not counted).
pub const EXPANDED_COLUMN: &str = "anya_java_expanded";

/// Reference optima by (map name without `.map`, 0-based query index).
#[derive(Debug, Clone, Default)]
pub struct Reference {
    rows: HashMap<String, HashMap<u32, RefRow>>,
}

impl Reference {
    /// Reads the rows of `maps` from `path`, taking the optimum from `column`.
    ///
    /// # Errors
    /// [`BenchError::Data`] naming the file and line when the file is unreadable, lacks a
    /// needed column or has a malformed value.
    pub fn read(path: &Path, column: &str, maps: &[String]) -> Result<Reference, BenchError> {
        let err = |line: usize, msg: String| BenchError::Data {
            path: path.to_owned(),
            msg: if line == 0 {
                msg
            } else {
                format!("line {line}: {msg}")
            },
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(0, e.to_string()))?;
        let mut lines = text.lines();
        let (header, [c_map, c_idx, c_sx, c_sy, c_gx, c_gy, c_len]) =
            csv_header(lines.next(), ["map", "idx", "sx", "sy", "gx", "gy", column])
                .map_err(|m| err(1, m))?;
        let c_exp = header.iter().position(|h| h.trim() == EXPANDED_COLUMN);
        let mut rows: HashMap<String, HashMap<u32, RefRow>> = HashMap::new();
        for (i, line) in lines.enumerate() {
            let n = i + 2;
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != header.len() {
                return Err(err(
                    n,
                    format!("{} fields, the header has {}", f.len(), header.len()),
                ));
            }
            if !maps.iter().any(|m| m == f[c_map]) {
                continue;
            }
            let int = |c: usize| -> Result<i32, BenchError> {
                f[c].parse()
                    .map_err(|_| err(n, format!("{:?} is not an integer", f[c])))
            };
            let idx = u32::try_from(int(c_idx)?)
                .map_err(|_| err(n, format!("negative index {}", f[c_idx])))?;
            let length = match f[c_len] {
                "" => None,
                v => Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| err(n, format!("{v:?} is not a length")))?,
                ),
            };
            let java_expanded = match c_exp.map(|c| f[c].trim()) {
                None | Some("") => None,
                Some(v) => Some(
                    v.parse::<u64>()
                        .map_err(|_| err(n, format!("{v:?} is not an expansion count")))?,
                ),
            };
            let row = RefRow {
                start: Point::new(int(c_sx)?, int(c_sy)?),
                goal: Point::new(int(c_gx)?, int(c_gy)?),
                length,
                java_expanded,
            };
            let of_map = rows.entry(f[c_map].to_owned()).or_default();
            if of_map.insert(idx, row).is_some() {
                return Err(err(n, format!("a second row for {} {idx}", f[c_map])));
            }
        }
        Ok(Reference { rows })
    }

    /// The reference row of query `idx` of `map`.
    pub fn get(&self, map: &str, idx: u32) -> Option<&RefRow> {
        self.rows.get(map)?.get(&idx)
    }

    /// Whether the reference has any row for `map` (a suite may cover more maps than its
    /// reference does).
    pub fn has_map(&self, map: &str) -> bool {
        self.rows.contains_key(map)
    }

    /// How many rows were read.
    pub fn len(&self) -> usize {
        self.rows.values().map(HashMap::len).sum()
    }

    /// Whether no row was read.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}
