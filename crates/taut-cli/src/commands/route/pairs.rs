//! `taut route --pairs FILE.csv`: many sea routes at once, on every core.
//!
//! The file is CSV with a header naming the columns `from_lat`, `from_lon`, `to_lat`,
//! `to_lon` (degrees), or `from` and `to` (a port's UN/LOCODE or `LAT,LON`, quoted), and
//! optionally `id`, in any order; other columns are ignored. The map is
//! read, closed (`--avoid`) and indexed once; the rows are routed in parallel (rayon, one search
//! context per thread) and printed in file order, one CSV row each:
//!
//! ```text
//! id,line,status,km,nm,from_lat,from_lon,to_lat,to_lon,snap_km_from,snap_km_to,legs,expanded,time_us,passages,eta_hours,error
//! ```
//!
//! (`eta_hours` with `--speed-knots`, else empty).
//!
//! `status` is `ok`, `unreachable` or `invalid`; `passages` the named passages the route uses,
//! separated by `;`. A row that cannot be read (a missing or non-numeric field) or routed (an
//! end on land with `--no-snap`) is `invalid` with its `error`, and one warning line on stderr
//! names its line; the other rows are routed all the same. With `--geojson FILE`, one
//! FeatureCollection: a Feature per row (the route's line, or a `null` geometry when there is
//! none) with properties `id`, `line`, `status`, `km`, `passages`, ... On a terminal a progress
//! bar runs on stderr; the last stderr line gives the counts and the routes per second.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{Value, json};
use taut::cpd::Progress;
use taut::render::geojson::route_feature;
use taut::spherical::{LatLon, SeaMap, SeaRoute, SearchContext};

use super::RouteArgs;
use super::plan::sea_map;
use crate::error::{CliError, RouteError, write_file};
use crate::progress::TermProgress;

/// The header of the output.
pub const PAIRS_HEADER: [&str; 17] = [
    "id",
    "line",
    "status",
    "km",
    "nm",
    "from_lat",
    "from_lon",
    "to_lat",
    "to_lon",
    "snap_km_from",
    "snap_km_to",
    "legs",
    "expanded",
    "time_us",
    "passages",
    "eta_hours",
    "error",
];

/// One row of the input.
#[derive(Debug, Clone)]
struct Pair {
    /// The `id` column, else the row's 1-based number among the data rows.
    id: String,
    /// The line of the file.
    line: u64,
    /// The two ends, or why the row cannot be read.
    ends: Result<(LatLon, LatLon), String>,
}

/// Reads the pairs file.
fn read_pairs(path: &Path) -> Result<Vec<Pair>, CliError> {
    let bad = |message: String| {
        CliError::Route(RouteError::Pairs {
            path: path.to_owned(),
            message,
        })
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_path(path)
        .map_err(|e| bad(e.to_string()))?;
    let header = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    let col = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
    // Either four numeric columns or `from` and `to` (codes or LAT,LON).
    let by_name = match (col("from"), col("to")) {
        (Some(f), Some(t)) => Some((f, t)),
        _ => None,
    };
    let mut cols = [0usize; 4];
    if by_name.is_none() {
        for (c, name) in cols
            .iter_mut()
            .zip(["from_lat", "from_lon", "to_lat", "to_lon"])
        {
            *c = col(name).ok_or_else(|| {
                bad(format!(
                    "no column {name} in the header (give from_lat, from_lon, to_lat, to_lon, or from and to)"
                ))
            })?;
        }
    }
    let id_col = col("id");
    let mut pairs = Vec::new();
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|e| bad(e.to_string()))?;
        let line = record.position().map_or(0, |p| p.line());
        let field = |i: usize, name: &str| -> Result<f64, String> {
            let text = record.get(i).ok_or_else(|| format!("no {name} field"))?;
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{name} '{text}' is not a number"))
        };
        let ends = (|| {
            if let Some((f, t)) = by_name {
                let end = |i: usize, which: &'static str| -> Result<LatLon, String> {
                    let text = record.get(i).ok_or_else(|| format!("no {which} field"))?;
                    super::parse_end(text, which)
                        .map(|(p, _)| p)
                        .map_err(|e| e.to_string())
                };
                return Ok((end(f, "start")?, end(t, "goal")?));
            }
            let from = LatLon::new(field(cols[0], "from_lat")?, field(cols[1], "from_lon")?);
            let to = LatLon::new(field(cols[2], "to_lat")?, field(cols[3], "to_lon")?);
            Ok((from, to))
        })();
        let id = id_col
            .and_then(|i| record.get(i))
            .map_or_else(|| (n + 1).to_string(), str::to_owned);
        pairs.push(Pair { id, line, ends });
    }
    Ok(pairs)
}

/// Runs `taut route --pairs` (see the module documentation).
///
/// # Errors
/// The map or the pairs file cannot be read, an `--avoid` name is unknown, or an output
/// cannot be written. Rows that cannot be routed are reported, not errors.
pub fn run_pairs(
    args: &RouteArgs,
    path: &Path,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let sea = sea_map(&args.map, args.transposed, &args.avoid, warnings)?;
    let pairs = read_pairs(path)?;
    let threads = args
        .jobs
        .map_or_else(rayon::current_num_threads, |n| n as usize);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let bar = TermProgress::stderr();
    bar.begin("routes", pairs.len() as u64);
    let t0 = Instant::now();
    let snap = !args.no_snap;
    let answers: Vec<Result<SeaRoute, String>> = pool.install(|| {
        pairs
            .par_iter()
            .map_init(SearchContext::new, |ctx, pair| {
                let answer = route_one(&sea, ctx, pair, snap);
                bar.advance(1);
                answer
            })
            .collect()
    });
    let seconds = t0.elapsed().as_secs_f64();
    bar.finish();

    let json = args.format == super::RouteFormat::Json;
    let mut csv = csv::Writer::from_writer(&mut *out);
    if !json {
        csv.write_record(PAIRS_HEADER)
            .map_err(std::io::Error::from)?;
    }
    let mut objects = Vec::new();
    let mut counts = [0usize; 3];
    let mut features = Vec::new();
    for (pair, answer) in pairs.iter().zip(&answers) {
        let (status, row, feature) = describe(pair, answer, args.speed_knots);
        counts[status as usize] += 1;
        let notes = match answer {
            Err(e) => vec![e.clone()],
            Ok(a) => super::plan::closed_end_warnings(&sea, a),
        };
        for note in notes {
            writeln!(
                warnings,
                "taut: warning: {} line {}: {note}",
                path.display(),
                pair.line
            )?;
        }
        if json {
            objects.push(row_object(&row));
        } else {
            csv.write_record(&row).map_err(std::io::Error::from)?;
        }
        features.push(feature);
    }
    csv.flush()?;
    drop(csv);
    if json {
        serde_json::to_writer(&mut *out, &objects).map_err(std::io::Error::from)?;
        writeln!(out)?;
    }
    if let Some(file) = &args.geojson {
        let doc = json!({ "type": "FeatureCollection", "features": features });
        let mut text = serde_json::to_string(&doc).map_err(std::io::Error::from)?;
        text.push('\n');
        write_file(file, text.as_bytes())?;
    }
    writeln!(
        warnings,
        "taut: routed {} pairs in {seconds:.2} s on {threads} threads ({:.1} routes/s): ok {}, \
         unreachable {}, invalid {}",
        pairs.len(),
        pairs.len() as f64 / seconds.max(1e-9),
        counts[0],
        counts[1],
        counts[2]
    )?;
    Ok(())
}

/// One csv row as the JSON object of `--format json`: the header's keys, numbers as numbers,
/// `passages` a list, `null` for an empty field or `inf` (JSON has no infinity).
fn row_object(row: &[String]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (key, text) in PAIRS_HEADER.iter().zip(row) {
        let value = match *key {
            "passages" => json!(
                text.split(';')
                    .filter(|p| !p.is_empty())
                    .collect::<Vec<_>>()
            ),
            _ if text.is_empty() || text == "inf" => serde_json::Value::Null,
            "id" | "status" | "error" => json!(text),
            _ => serde_json::from_str(text).unwrap_or_else(|_| json!(text)),
        };
        m.insert((*key).to_owned(), value);
    }
    serde_json::Value::Object(m)
}

fn route_one(
    sea: &SeaMap,
    ctx: &mut SearchContext,
    pair: &Pair,
    snap: bool,
) -> Result<SeaRoute, String> {
    let (from, to) = pair.ends.clone()?;
    sea.route(ctx, from, to, snap).map_err(|e| e.to_string())
}

/// Status index (0 ok, 1 unreachable, 2 invalid), the CSV row and the GeoJSON Feature of one
/// answer.
fn describe(
    pair: &Pair,
    answer: &Result<SeaRoute, String>,
    knots: Option<f64>,
) -> (u8, Vec<String>, Value) {
    let num = |x: f64, decimals: usize| format!("{x:.decimals$}");
    let mut row = vec![pair.id.clone(), pair.line.to_string()];
    let props = |status: &str| json!({ "id": pair.id, "line": pair.line, "status": status });
    match answer {
        Err(e) => {
            row.push("invalid".into());
            // No route, no length: km and nm are `inf`, as every command writes it.
            row.extend(["inf".to_owned(), "inf".to_owned()]);
            row.extend(std::iter::repeat_n(String::new(), 11));
            row.push(e.clone());
            let mut p = props("invalid");
            p["error"] = json!(e);
            let feature = json!({ "type": "Feature", "geometry": null, "properties": p });
            (2, row, feature)
        }
        Ok(a) => {
            let found = a.found();
            let status = if found.is_some() { "ok" } else { "unreachable" };
            row.push(status.into());
            match found {
                Some(r) => {
                    row.push(num(r.km(), 3));
                    row.push(num(r.nm(), 3));
                }
                None => row.extend(["inf".to_owned(), "inf".to_owned()]),
            }
            for p in [a.from.point, a.to.point] {
                row.push(num(p.lat, 6));
                row.push(num(p.lon, 6));
            }
            row.push(num(a.from.km, 3));
            row.push(num(a.to.km, 3));
            row.push(found.map_or(String::new(), |r| r.legs.len().to_string()));
            row.push(a.stats.expanded.to_string());
            row.push(num(a.time_us, 1));
            row.push(a.passages.join(";"));
            let eta = knots.zip(found).map(|(k, r)| super::eta_hours(r.nm(), k));
            row.push(eta.map_or(String::new(), |h| num(h, 2)));
            row.push(String::new());
            let mut p = props(status);
            p["passages"] = json!(a.passages);
            if let Some(h) = eta {
                p["speed_knots"] = json!(knots);
                p["eta_hours"] = json!(h);
                p["eta_days"] = json!(h / 24.0);
            }
            p["snap_km_from"] = json!(a.from.km);
            p["snap_km_to"] = json!(a.to.km);
            let feature = found
                .and_then(|r| route_feature(r, p.clone()))
                .unwrap_or_else(|| json!({ "type": "Feature", "geometry": null, "properties": p }));
            (u8::from(found.is_none()), row, feature)
        }
    }
}
