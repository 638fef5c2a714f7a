//! The memory-speed frontier of a suite (`taut-bench frontier`, `cargo xtask bench frontier`):
//! per map, how much preprocessed data each exact planner holds against how fast it answers.
//!
//! - Hub labels at each budget of [`FrontierOptions::budgets`] (and, with
//!   [`FrontierOptions::full`], the full index, a label per point): built here with
//!   [`taut::hub::HubIndex::build_within`], timed (with the process's peak memory where Linux
//!   can measure it), written under [`FrontierOptions::hubs_dir`] and then answered by the
//!   `hub` planner through [`run_suite`], so that every length is checked as in any bench run.
//!   A budget no index fits is a row with the reason instead of times.
//! - The baselines ([`FrontierOptions::baselines`], e.g. Anya, Polyanya and End Point Search)
//!   in one [`run_suite`] of their own; End Point Search's index is its CPD (read from the
//!   suite's `cpds` directory when up to date, else built and timed).
//!
//! Every row gives mean and median µs over the queries found, the index's bytes in memory (0
//! for planners that keep none) and the failed checks. [`pareto`] marks the rows no other row
//! of the map beats on both size and median time: what to pick for a given memory.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use plotters::prelude::*;
use taut::grid::{FreeSet, Grid, MapFile};
use taut::hub::{HubError, HubIndex, write_hub};
use taut::registry::PlannerSpec;
use taut::{Guarantee, PathModel, lengths_agree};

use crate::error::BenchError;
use crate::machine::{peak_memory_bytes, reset_peak_memory};
use crate::run::{QueryOutcome, RunOptions, SuiteRun, run_suite};
use crate::suite::Suite;

/// What a frontier run measures.
#[derive(Debug, Clone)]
pub struct FrontierOptions {
    /// Hub label budgets, bytes (each gives the finest index that fits).
    pub budgets: Vec<u64>,
    /// Also the full hub index (a label per point, no budget).
    pub full: bool,
    /// Planners run once each beside the hub indexes (their index, if any, is fixed).
    pub baselines: Vec<PlannerSpec>,
    /// Where the hub indexes built are written: `DIR/SETTING/MAP.hub`.
    pub hubs_dir: PathBuf,
    /// Sampling and limits of the timed runs (its `planners` is ignored).
    pub run: RunOptions,
}

/// One planner (at one setting) on one map.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierRow {
    /// The map.
    pub map: String,
    /// The planner (`hub`, or a baseline's label).
    pub planner: String,
    /// The setting: `full` or the budget (`16MB`) for hub, empty for a baseline.
    pub setting: String,
    /// Region side of a hub index (1: a label per point); 0 for others.
    pub region: u32,
    /// Bytes of preprocessed data in memory (0: none).
    pub index_bytes: u64,
    /// Seconds building it, when built in this run.
    pub build_secs: Option<f64>,
    /// The process's peak resident bytes while building it, when measured.
    pub peak_bytes: Option<u64>,
    /// Queries answered with a path (the times are over these).
    pub queries: usize,
    /// Mean µs per query.
    pub mean_us: f64,
    /// Median µs per query.
    pub median_us: f64,
    /// Answers that failed a check.
    pub failures: usize,
    /// Why there are no times (a budget no index fits), if so.
    pub refused: Option<String>,
}

/// A whole frontier run: its rows, and the suite runs behind them (for the usual reports).
#[derive(Debug, Clone)]
pub struct Frontier {
    /// One row per map and planner setting, maps in suite order.
    pub rows: Vec<FrontierRow>,
    /// The baselines' run, then one run per hub setting that built anything.
    pub runs: Vec<SuiteRun>,
}

impl Frontier {
    /// Failed checks over every row.
    pub fn failures(&self) -> usize {
        self.rows.iter().map(|r| r.failures).sum()
    }
}

/// `bytes` as the CLI writes sizes: `16MB`, `1.5GB`, `800KB`, or bytes.
pub fn size_label(bytes: u64) -> String {
    for (unit, scale) in [("GB", 1e9), ("MB", 1e6), ("KB", 1e3)] {
        let v = bytes as f64 / scale;
        if v >= 1.0 {
            return if v.fract() == 0.0 {
                format!("{v:.0}{unit}")
            } else {
                format!("{v}{unit}")
            };
        }
    }
    format!("{bytes}B")
}

/// The row of planner `p` on map `m` of `run`, without its index fields.
fn timed_row(run: &SuiteRun, m: usize, p: usize, setting: &str) -> FrontierRow {
    let records = run
        .records
        .iter()
        .filter(|r| r.map as usize == m && r.planner as usize == p);
    let mut times = Vec::new();
    let mut failures = 0;
    for r in records {
        if r.failure.is_some() {
            failures += 1;
        }
        if r.outcome == QueryOutcome::Found {
            times.push(r.micros);
        }
    }
    // No time when nothing was found (a map where every query is unreachable): 0, not NaN.
    let (mean_us, median_us) = if times.is_empty() {
        (0.0, 0.0)
    } else {
        (
            crate::report::mean(&times),
            crate::report::median(&mut times),
        )
    };
    FrontierRow {
        map: run.maps[m].clone(),
        planner: run.planners[p].label.clone(),
        setting: setting.to_owned(),
        region: 0,
        index_bytes: 0,
        build_secs: None,
        peak_bytes: None,
        queries: times.len(),
        mean_us,
        median_us,
        failures,
        refused: None,
    }
}

/// Runs the frontier of `suite` (see the module documentation), `progress` lines on stderr
/// when `opts.run.progress`.
///
/// # Errors
/// Missing or malformed maps, scenarios or reference data; a hub index that cannot be built
/// for a reason other than its budget, or written.
pub fn run_frontier(suite: &Suite, opts: &FrontierOptions) -> Result<Frontier, BenchError> {
    let maps: Vec<String> = suite
        .scenario_files()?
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let mut frontier = Frontier {
        rows: Vec::new(),
        runs: Vec::new(),
    };
    // Rows by map, in suite order, each map's rows in the order measured.
    let mut by_map: Vec<Vec<FrontierRow>> = vec![Vec::new(); maps.len()];
    // Every hub answer is also checked against the optimal baselines' lengths
    // ([`check_against`]), so that a suite without reference optima still checks hub.
    let mut optimal: Option<SuiteRun> = None;
    if !opts.baselines.is_empty() {
        let run = run_suite(
            suite,
            &RunOptions {
                planners: Some(opts.baselines.clone()),
                ..opts.run.clone()
            },
        )?;
        for (m, rows) in by_map.iter_mut().enumerate() {
            for p in 0..run.planners.len() {
                let mut row = timed_row(&run, m, p, "");
                if let Some(c) = run.cpds.iter().find(|c| c.map as usize == m)
                    && run.planners[p].algo.name() == "eps"
                {
                    row.index_bytes = c.bytes as u64;
                    row.build_secs = c.built.then_some(c.secs);
                }
                rows.push(row);
            }
        }
        optimal = Some(run.clone());
        frontier.runs.push(run);
    }
    let settings: Vec<Option<u64>> = opts
        .full
        .then_some(None)
        .into_iter()
        .chain(opts.budgets.iter().map(|b| Some(*b)))
        .collect();
    let hub: PlannerSpec = "hub".parse().map_err(|e| BenchError::Suite {
        path: PathBuf::from("hub"),
        msg: format!("{e}"),
    })?;
    for budget in settings {
        let setting = budget.map_or_else(|| "full".to_owned(), size_label);
        let dir = opts.hubs_dir.join(&setting);
        std::fs::create_dir_all(&dir).map_err(|e| BenchError::Write {
            path: dir.clone(),
            msg: e.to_string(),
        })?;
        // Build every map's index first (outside any timing), noting what each cost.
        let mut built: Vec<Option<FrontierRow>> = vec![None; maps.len()];
        for (m, name) in maps.iter().enumerate() {
            let map_path = suite.maps.join(format!("{name}.map"));
            let data = |msg: String| BenchError::Data {
                path: map_path.clone(),
                msg,
            };
            let measured = reset_peak_memory();
            let grid = Grid::from_map(
                &MapFile::read(&map_path).map_err(|e| data(e.to_string()))?,
                &FreeSet::default(),
            );
            let mesh = taut::mesh::mesh_from_grid(&grid).map_err(|e| data(e.to_string()))?;
            let t = Instant::now();
            let index = match budget {
                Some(b) => HubIndex::build_within(&grid, &mesh, b),
                None => HubIndex::build(&grid, &mesh),
            };
            let secs = t.elapsed().as_secs_f64();
            let peak = if measured { peak_memory_bytes() } else { None };
            let mut row = FrontierRow {
                map: name.clone(),
                planner: "hub".into(),
                setting: setting.clone(),
                region: 0,
                index_bytes: 0,
                build_secs: Some(secs),
                peak_bytes: peak,
                queries: 0,
                mean_us: 0.0,
                median_us: 0.0,
                failures: 0,
                refused: None,
            };
            match index {
                Ok(index) => {
                    let file = dir.join(format!("{name}.hub"));
                    write_hub(&file, &index).map_err(|e| BenchError::Write {
                        path: file.clone(),
                        msg: e.to_string(),
                    })?;
                    let s = index.stats();
                    row.region = s.region;
                    row.index_bytes = s.bytes as u64;
                    built[m] = Some(row);
                }
                Err(e @ (HubError::BudgetTooSmall { .. } | HubError::CoreOverBudget { .. })) => {
                    row.refused = Some(e.to_string());
                    by_map[m].push(row);
                }
                Err(e) => return Err(data(e.to_string())),
            }
            if opts.run.progress {
                eprintln!("frontier: hub {setting} {name}: built in {secs:.2} s");
            }
        }
        let only: Vec<String> = maps
            .iter()
            .zip(&built)
            .filter(|(_, b)| b.is_some())
            .map(|(m, _)| m.clone())
            .collect();
        if only.is_empty() {
            continue;
        }
        let sub = Suite {
            name: format!("{}-hub-{setting}", suite.name),
            only: only.clone(),
            hubs: Some(dir.clone()),
            ..suite.clone()
        };
        let mut run = run_suite(
            &sub,
            &RunOptions {
                planners: Some(vec![hub.clone()]),
                ..opts.run.clone()
            },
        )?;
        if let Some(optimal) = &optimal {
            check_against(&mut run, optimal);
        }
        for (sm, name) in run.maps.iter().enumerate() {
            let m = maps
                .iter()
                .position(|x| x == name)
                .expect("a map of the suite");
            let timed = timed_row(&run, sm, 0, &setting);
            let mut row = built[m].take().expect("built above");
            row.queries = timed.queries;
            row.mean_us = timed.mean_us;
            row.median_us = timed.median_us;
            row.failures = timed.failures;
            by_map[m].push(row);
        }
        frontier.runs.push(run);
    }
    frontier.rows = by_map.into_iter().flatten().collect();
    Ok(frontier)
}

/// Checks every answer of `run` against the lengths that `optimal`'s optimal any-angle
/// planners found on the same map and query (those that passed their own checks): an answer
/// of another length gets a failure naming that planner and its length. Returns how many were
/// flagged.
pub fn check_against(run: &mut SuiteRun, optimal: &SuiteRun) -> usize {
    let mut optimum: HashMap<(&str, u32), (f64, &str)> = HashMap::new();
    for r in &optimal.records {
        let p = r.planner as usize;
        if r.failure.is_none()
            && optimal.promises[p] == Some((Guarantee::Optimal, PathModel::AnyAngle))
        {
            optimum
                .entry((optimal.maps[r.map as usize].as_str(), r.idx))
                .or_insert((r.length, optimal.planners[p].label.as_str()));
        }
    }
    let mut flagged = 0;
    for r in &mut run.records {
        if let Some((len, by)) = optimum.get(&(run.maps[r.map as usize].as_str(), r.idx))
            && r.failure.is_none()
            && !lengths_agree(r.length, *len)
        {
            r.failure = Some(format!(
                "length {} differs from {by}'s optimum {len}",
                r.length
            ));
            flagged += 1;
        }
    }
    flagged
}

/// Whether each row of `rows` is on its map's frontier: timed, without failures, and no other
/// such row of the same map has an index at most as large and a lower median (or the same
/// median and a smaller index).
pub fn pareto(rows: &[FrontierRow]) -> Vec<bool> {
    let ok = |r: &FrontierRow| r.refused.is_none() && r.failures == 0 && r.queries > 0;
    rows.iter()
        .map(|r| {
            ok(r)
                && !rows.iter().any(|o| {
                    ok(o)
                        && o.map == r.map
                        && o.index_bytes <= r.index_bytes
                        && (o.median_us < r.median_us
                            || (o.median_us == r.median_us && o.index_bytes < r.index_bytes))
                })
        })
        .collect()
}

/// The header of [`frontier_csv`].
pub const FRONTIER_HEADER: &str = "map,planner,setting,region,index_mb,build_s,peak_mb,queries,mean_us,median_us,failures,pareto,refused";

/// The rows as CSV: a provenance comment, [`FRONTIER_HEADER`], one line per row.
pub fn frontier_csv(rows: &[FrontierRow], provenance: &str) -> String {
    let mut s = format!("# {provenance}\n{FRONTIER_HEADER}\n");
    let front = pareto(rows);
    let opt = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:.3}"));
    for (r, f) in rows.iter().zip(front) {
        let _ = writeln!(
            s,
            "{},{},{},{},{:.3},{},{},{},{:.3},{:.3},{},{},{}",
            r.map,
            r.planner,
            r.setting,
            r.region,
            r.index_bytes as f64 / 1e6,
            opt(r.build_secs),
            opt(r.peak_bytes.map(|b| b as f64 / 1e6)),
            r.queries,
            r.mean_us,
            r.median_us,
            r.failures,
            u8::from(f),
            r.refused.as_deref().unwrap_or("").replace(',', ";")
        );
    }
    s
}

/// The maps of `rows`, each once, in the order they first appear.
fn maps_of(rows: &[FrontierRow]) -> Vec<&str> {
    let mut maps: Vec<&str> = Vec::new();
    for r in rows {
        if !maps.contains(&r.map.as_str()) {
            maps.push(&r.map);
        }
    }
    maps
}

/// The rows as Markdown: per map, a table sorted by index size with the frontier marked.
pub fn frontier_markdown(rows: &[FrontierRow], provenance: &str) -> String {
    let mut s = format!(
        "# Memory against speed: the exact planners' frontier\n\n{provenance}\n\n\
         Index MB is the preprocessed data in memory (0: none). Times are over the queries \
         answered, single-threaded, one query at a time; every length is checked as in any \
         bench run (failures column). ★ marks the frontier: no other planner of the map has an \
         index as small and a lower median.\n"
    );
    let front = pareto(rows);
    for map in maps_of(rows) {
        let _ = writeln!(s, "\n## {map}\n");
        let _ = writeln!(
            s,
            "| planner | setting | region | index MB | build s | peak MB | queries | mean µs | median µs | failures | |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
        let mut idx: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].map == map).collect();
        idx.sort_by_key(|&i| rows[i].index_bytes);
        for i in idx {
            let r = &rows[i];
            let opt =
                |v: Option<f64>, p: usize| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.p$}"));
            if let Some(why) = &r.refused {
                let _ = writeln!(
                    s,
                    "| {} | {} | - | - | {} | {} | - | - | - | - | {why} |",
                    r.planner,
                    r.setting,
                    opt(r.build_secs, 2),
                    opt(r.peak_bytes.map(|b| b as f64 / 1e6), 0)
                );
                continue;
            }
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.2} | {} | {} | {} | {:.2} | {:.2} | {} | {} |",
                r.planner,
                if r.setting.is_empty() {
                    "-"
                } else {
                    &r.setting
                },
                if r.region == 0 {
                    "-".to_owned()
                } else {
                    r.region.to_string()
                },
                r.index_bytes as f64 / 1e6,
                opt(r.build_secs, 2),
                opt(r.peak_bytes.map(|b| b as f64 / 1e6), 0),
                r.queries,
                r.mean_us,
                r.median_us,
                r.failures,
                if front[i] { "★" } else { "" }
            );
        }
    }
    s
}

/// Draws `map`'s rows to an SVG: median µs (log) against index MB (log) for the planners
/// with an index (hub as a line through its settings), and a horizontal line for each
/// planner without one.
///
/// # Errors
/// [`BenchError::Write`] when drawing or writing fails, or nothing was timed.
pub fn write_frontier_svg(
    path: &Path,
    map: &str,
    rows: &[FrontierRow],
    footer: &str,
) -> Result<(), BenchError> {
    let err = |e: String| BenchError::Write {
        path: path.to_owned(),
        msg: e,
    };
    let timed: Vec<&FrontierRow> = rows
        .iter()
        .filter(|r| r.map == map && r.refused.is_none() && r.queries > 0 && r.median_us > 0.0)
        .collect();
    let with_index: Vec<&&FrontierRow> = timed.iter().filter(|r| r.index_bytes > 0).collect();
    if timed.is_empty() || with_index.is_empty() {
        return Err(err(format!("nothing with an index was timed on {map}")));
    }
    let mb = |r: &FrontierRow| r.index_bytes as f64 / 1e6;
    let decade = |v: f64, up: bool| {
        let l = v.log10();
        10f64.powf(if up { l.ceil() } else { l.floor() })
    };
    let (x_lo, x_hi) = with_index.iter().fold((f64::INFINITY, 0f64), |(a, b), r| {
        (a.min(mb(r)), b.max(mb(r)))
    });
    let (y_lo, y_hi) = timed.iter().fold((f64::INFINITY, 0f64), |(a, b), r| {
        (a.min(r.median_us), b.max(r.median_us))
    });
    // Room on the right for the last point's label.
    let (x_lo, x_hi) = (
        decade(x_lo, false),
        decade(x_hi * 5.0, true).max(decade(x_lo, false) * 10.0),
    );
    // Room above the slowest line for the legend.
    let (y_lo, y_hi) = (
        decade(y_lo, false),
        decade(y_hi * 5.0, true).max(decade(y_lo, false) * 10.0),
    );
    let plot_area = crate::plot::canvas(path, footer)?;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(
            format!("{map}: index size against median time"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d((x_lo..x_hi).log_scale(), (y_lo..y_hi).log_scale())
        .map_err(|e| err(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("index in memory (MB)")
        .y_desc("median time per query (µs)")
        .x_label_formatter(&|v| format!("{v}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let palette = [
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0x8c, 0x56, 0x4b),
    ];
    let mut planners: Vec<&str> = Vec::new();
    for r in &timed {
        if !planners.contains(&r.planner.as_str()) {
            planners.push(&r.planner);
        }
    }
    for (k, planner) in planners.iter().enumerate() {
        let colour = palette[k % palette.len()];
        let mine: Vec<&&FrontierRow> = timed.iter().filter(|r| r.planner == *planner).collect();
        let mut points: Vec<(f64, f64)> = mine
            .iter()
            .filter(|r| r.index_bytes > 0)
            .map(|r| (mb(r), r.median_us))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        if points.is_empty() {
            // No index: its time holds at every size.
            let y = mine[0].median_us;
            chart
                .draw_series(LineSeries::new(
                    [(x_lo, y), (x_hi, y)],
                    colour.stroke_width(1),
                ))
                .map_err(|e| err(e.to_string()))?
                .label(format!("{planner} (no index)"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            continue;
        }
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| err(e.to_string()))?
            .label(*planner)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))
            .map_err(|e| err(e.to_string()))?;
        // Each hub point names its setting and region side.
        let labels = mine
            .iter()
            .filter(|r| r.index_bytes > 0 && !r.setting.is_empty());
        chart
            .draw_series(labels.map(|r| {
                Text::new(
                    format!("{} (g={})", r.setting, r.region),
                    (mb(r), r.median_us),
                    ("sans-serif", 11).into_font(),
                )
            }))
            .map_err(|e| err(e.to_string()))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(e.to_string()))?;
    plot_area.present().map_err(|e| err(e.to_string()))?;
    Ok(())
}

/// Writes `frontier.csv`, `frontier.md` (both headed by `provenance` and the `command` that
/// ran) and one `frontier-MAP.svg` per map with an index timed (`provenance` under the plot)
/// into `out`; returns the files written.
///
/// # Errors
/// [`BenchError::Write`].
pub fn write_frontier(
    out: &Path,
    frontier: &Frontier,
    provenance: &str,
    command: &str,
) -> Result<Vec<PathBuf>, BenchError> {
    let head = format!("{provenance}; command `{command}`");
    let write = |path: PathBuf, text: String| -> Result<PathBuf, BenchError> {
        std::fs::write(&path, text).map_err(|e| BenchError::Write {
            path: path.clone(),
            msg: e.to_string(),
        })?;
        Ok(path)
    };
    std::fs::create_dir_all(out).map_err(|e| BenchError::Write {
        path: out.to_owned(),
        msg: e.to_string(),
    })?;
    let mut files = vec![
        write(
            out.join("frontier.csv"),
            frontier_csv(&frontier.rows, &head),
        )?,
        write(
            out.join("frontier.md"),
            frontier_markdown(&frontier.rows, &head),
        )?,
    ];
    for map in maps_of(&frontier.rows) {
        if frontier
            .rows
            .iter()
            .any(|r| r.map == map && r.index_bytes > 0 && r.queries > 0)
        {
            let path = out.join(format!("frontier-{map}.svg"));
            write_frontier_svg(&path, map, &frontier.rows, provenance)?;
            files.push(path);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(map: &str, planner: &str, bytes: u64, median: f64) -> FrontierRow {
        FrontierRow {
            map: map.into(),
            planner: planner.into(),
            setting: String::new(),
            region: 0,
            index_bytes: bytes,
            build_secs: None,
            peak_bytes: None,
            queries: 10,
            mean_us: median,
            median_us: median,
            failures: 0,
            refused: None,
        }
    }

    #[test]
    fn the_frontier_keeps_what_no_smaller_index_beats() {
        let mut rows = vec![
            row("a", "anya", 0, 30.0),
            row("a", "polyanya", 0, 15.0),
            row("a", "eps", 200, 10.0),
            row("a", "hub", 2_000, 12.0),
            row("a", "hub", 30_000, 1.0),
            row("a", "hub", 30_000, 1.0),
            row("b", "anya", 0, 40.0),
            row("a", "hub", 100, 0.5),
        ];
        rows[7].refused = Some("no index fits".into());
        let mut failed = row("b", "hub", 10, 0.1);
        failed.failures = 1;
        rows.push(failed);
        assert_eq!(
            pareto(&rows),
            [false, true, true, false, true, true, true, false, false],
            "Anya is beaten by Polyanya at the same size; the 2 kB hub by the 200 B CPD; equal \
             rows both stay; another map is apart; refused and failing rows never count"
        );
    }
}
