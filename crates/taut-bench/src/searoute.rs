//! taut beside `searoute` (PyPI `searoute`, the package ship-routing users install): km and
//! time per route on the same port pairs, both timed in one Python process.
//!
//! [`run`] writes `peers/searoute_sbs.py` and taut's port list into the output directory, runs
//! the script with the Python given (a scratch virtual environment with `searoute` and the
//! `taut` module installed: nothing of searoute is in this repository), keeps its CSV as
//! `routes.csv`, and summarises it per set of pairs (the shared `port_pairs.csv`, and a random
//! sample of port pairs) in `summary.md`: routes each tool found, median and mean time per
//! route and their ratio, and km against searoute's with the two snaps as the allowance
//! (a taut route may be longer than searoute's by at most the distance its two ends moved to
//! reach the sea). docs/bench.md, "Beside searoute", says how to run it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::BenchError;

/// The script, as `peers/searoute_sbs.py` holds it.
pub const SCRIPT: &str = include_str!("../peers/searoute_sbs.py");

/// What to run.
#[derive(Debug, Clone)]
pub struct SearouteOptions {
    /// A Python with `searoute` and `taut` installed.
    pub python: PathBuf,
    /// The sea raster (`earth_0.25deg_nav.map` of the shared data).
    pub map: PathBuf,
    /// The shared `port_pairs.csv`, if any.
    pub shared: Option<PathBuf>,
    /// Random port pairs to add.
    pub random: usize,
    /// Their seed.
    pub seed: u64,
    /// Timed runs per route and tool (each time is the minimum).
    pub repeat: u32,
    /// Where to write `routes.csv` and `summary.md`.
    pub out: PathBuf,
}

/// One row of `routes.csv` as the summary reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRow {
    /// `shared` or `random`.
    pub set: String,
    /// Port codes.
    pub from: String,
    /// Port codes.
    pub to: String,
    /// taut's km (`None` when it found no route).
    pub taut_km: Option<f64>,
    /// The two snaps, km.
    pub snap_km: Option<f64>,
    /// taut's time, µs.
    pub taut_us: Option<f64>,
    /// searoute's km.
    pub searoute_km: Option<f64>,
    /// The ports' distances to searoute's first and last nodes, km.
    pub searoute_snap_km: Option<f64>,
    /// searoute's time, µs.
    pub searoute_us: Option<f64>,
}

/// Runs the comparison; returns the summary (Markdown) and writes it with `routes.csv`.
///
/// # Errors
/// The output cannot be written, the script fails (searoute or taut not installed: its
/// error is in the message), or its CSV is malformed.
pub fn run(opts: &SearouteOptions) -> Result<String, BenchError> {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| BenchError::Write {
            path: path.to_owned(),
            msg: e.to_string(),
        })
    };
    std::fs::create_dir_all(&opts.out).map_err(|e| BenchError::Write {
        path: opts.out.clone(),
        msg: e.to_string(),
    })?;
    let script = opts.out.join("searoute_sbs.py");
    write(&script, SCRIPT)?;
    let ports = opts.out.join("ports.tsv");
    write(&ports, taut::spherical::port::PORTS_TSV)?;
    let mut cmd = Command::new(&opts.python);
    cmd.arg(&script)
        .arg("--map")
        .arg(&opts.map)
        .arg("--ports")
        .arg(&ports)
        .args(["--random", &opts.random.to_string()])
        .args(["--seed", &opts.seed.to_string()])
        .args(["--repeat", &opts.repeat.to_string()]);
    if let Some(shared) = &opts.shared {
        cmd.arg("--shared").arg(shared);
    }
    let output = cmd.output().map_err(|e| BenchError::Data {
        path: opts.python.clone(),
        msg: format!("cannot run it: {e}"),
    })?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        return Err(BenchError::Data {
            path: script,
            msg: format!(
                "failed ({}); is searoute installed beside taut (pip install searoute==1.6.0 ./crates/taut-py)? {}",
                output.status,
                err.lines().last().unwrap_or_default()
            ),
        });
    }
    let csv = String::from_utf8_lossy(&output.stdout).into_owned();
    write(&opts.out.join("routes.csv"), &csv)?;
    let rows = parse(&csv).map_err(|msg| BenchError::Data {
        path: opts.out.join("routes.csv"),
        msg,
    })?;
    let md = summary(&rows, opts);
    write(&opts.out.join("summary.md"), &md)?;
    Ok(md)
}

/// Reads the script's CSV.
///
/// # Errors
/// A missing column or a row that does not parse.
pub fn parse(text: &str) -> Result<Vec<RouteRow>, String> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    let cols = [
        col("set")?,
        col("from")?,
        col("to")?,
        col("taut_km")?,
        col("taut_snap_km")?,
        col("taut_us")?,
        col("searoute_km")?,
        col("searoute_us")?,
        col("searoute_snap_km")?,
    ];
    let mut rows = Vec::new();
    for record in reader.records() {
        let r = record.map_err(|e| e.to_string())?;
        let num = |i: usize| -> Result<Option<f64>, String> {
            match r.get(cols[i]).unwrap_or_default() {
                "" => Ok(None),
                s => s.parse().map(Some).map_err(|e| format!("'{s}': {e}")),
            }
        };
        rows.push(RouteRow {
            set: r.get(cols[0]).unwrap_or_default().to_owned(),
            from: r.get(cols[1]).unwrap_or_default().to_owned(),
            to: r.get(cols[2]).unwrap_or_default().to_owned(),
            taut_km: num(3)?,
            snap_km: num(4)?,
            taut_us: num(5)?,
            searoute_km: num(6)?,
            searoute_us: num(7)?,
            searoute_snap_km: num(8)?,
        });
    }
    Ok(rows)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The Markdown summary of `rows`.
pub fn summary(rows: &[RouteRow], opts: &SearouteOptions) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# taut beside searoute\n\nMap `{}`; {} timed runs per route and tool (the minimum), one \
         Python process, taut's ice gates closed and searoute's defaults (its Northwest Passage \
         restricted). Random pairs: {} with seed {}.\n",
        opts.map.display(),
        opts.repeat,
        opts.random,
        opts.seed
    );
    md.push_str(
        "| pairs | routed by both | taut only | searoute only | taut median µs | searoute median µs | median ratio | taut mean µs | searoute mean µs | km: taut − searoute, median | taut longer by more than both tools' snaps |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for set in ["shared", "random"] {
        let of: Vec<&RouteRow> = rows.iter().filter(|r| r.set == set).collect();
        if of.is_empty() {
            continue;
        }
        let both: Vec<&RouteRow> = of
            .iter()
            .copied()
            .filter(|r| r.taut_km.is_some() && r.searoute_km.is_some())
            .collect();
        let taut_only = of
            .iter()
            .filter(|r| r.taut_km.is_some() && r.searoute_km.is_none())
            .count();
        let sr_only = of
            .iter()
            .filter(|r| r.taut_km.is_none() && r.searoute_km.is_some())
            .count();
        let mut t: Vec<f64> = both.iter().filter_map(|r| r.taut_us).collect();
        let mut s: Vec<f64> = both.iter().filter_map(|r| r.searoute_us).collect();
        let (tm, sm) = (mean(&t), mean(&s));
        let (t50, s50) = (median(&mut t), median(&mut s));
        let mut dkm: Vec<f64> = both
            .iter()
            .map(|r| r.taut_km.unwrap_or_default() - r.searoute_km.unwrap_or_default())
            .collect();
        let longer: Vec<String> = both
            .iter()
            .filter(|r| {
                r.taut_km.unwrap_or_default()
                    > r.searoute_km.unwrap_or_default()
                        + r.snap_km.unwrap_or_default()
                        + r.searoute_snap_km.unwrap_or_default()
                        + 1e-6
            })
            .map(|r| format!("{}-{}", r.from, r.to))
            .collect();
        let _ = writeln!(
            md,
            "| {set} ({}) | {} | {taut_only} | {sr_only} | {t50:.1} | {s50:.1} | {:.2} | {tm:.1} | {sm:.1} | {:.1} | {}{} |",
            of.len(),
            both.len(),
            s50 / t50,
            median(&mut dkm),
            longer.len(),
            if longer.is_empty() {
                String::new()
            } else {
                format!(" ({})", longer.join(", "))
            }
        );
    }
    md.push_str(
        "\nThe median ratio is searoute's median time over taut's. Snaps: taut's ends move to the \
         nearest sea cell, searoute's to the nearest node of its network, and its km leave that \
         out; a taut route counts as longer only past the sum of both. `routes.csv` has every \
         pair: both tools' km, snaps, time and passages, and why a tool found no route.\n",
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_what_it_reads() {
        let csv = "set,from,to,taut_status,taut_km,taut_snap_km,taut_us,taut_passages,searoute_km,searoute_snap_km,searoute_us,searoute_passages,note\n\
                   shared,A,B,ok,100,5,10,,104,0,100,,\n\
                   shared,C,D,ok,120,5,30,,110,2,90,,\n\
                   shared,E,F,unreachable,,,20,,50,0,70,,\n";
        let rows = parse(csv).unwrap();
        assert_eq!(rows.len(), 3);
        let opts = SearouteOptions {
            python: "python3".into(),
            map: "m.map".into(),
            shared: None,
            random: 0,
            seed: 1,
            repeat: 3,
            out: ".".into(),
        };
        let md = summary(&rows, &opts);
        // Two routed by both: medians 20 and 95 µs, ratio 4.75; C-D is 10 km longer with 5 + 2
        // km of snaps.
        assert!(
            md.contains(
                "| shared (3) | 2 | 0 | 1 | 20.0 | 95.0 | 4.75 | 20.0 | 95.0 | 3.0 | 1 (C-D) |"
            ),
            "{md}"
        );
        assert!(parse("set,from\nx,y\n").is_err());
    }
}
