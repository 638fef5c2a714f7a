//! Reports of a run: one CSV row per query and planner, a Markdown summary with the figures
//! the papers print, and the time-against-difficulty plots.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use crate::error::BenchError;
use crate::machine::Provenance;
use crate::run::{QueryOutcome, Record, SuiteRun};
use taut::registry::PlannerSpec;

/// The summary of one planner on one row of the table (a suite or one of its groups).
#[derive(Debug, Clone, PartialEq)]
pub struct PlannerSummary {
    /// The table row: a suite name or a group name.
    pub row: String,
    /// The planner.
    pub planner: PlannerSpec,
    /// Queries answered (a path or a proof that none exists).
    pub queries: usize,
    /// Mean microseconds per answered query.
    pub mean_us: f64,
    /// Median microseconds per answered query.
    pub median_us: f64,
    /// Mean nodes expanded per answered query.
    pub mean_expanded: f64,
    /// Against A* on the queries both solved, when A* ran and this planner is not A*.
    pub vs_astar: Option<VsAStar>,
    /// Records whose check failed.
    pub failures: usize,
}

/// A planner against A* on the queries both found a path for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VsAStar {
    /// Queries compared.
    pub queries: usize,
    /// Mean A* time over mean planner time.
    pub time_speedup: f64,
    /// Median over queries of A* time over planner time.
    pub median_time_speedup: f64,
    /// Mean A* expansions over mean planner expansions.
    pub expansion_speedup: f64,
    /// Mean over queries (A* length > 0) of 1 − planner length / A* length, in percent:
    /// how much shorter the planner's paths are.
    pub shorter_pct: f64,
    /// Share of queries, in percent, on which the planner was faster than A*.
    pub faster_pct: f64,
}

/// The mean of `v` (NaN when empty).
pub(crate) fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The median of `v`, which it sorts (NaN when empty).
pub(crate) fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The table rows of a run: the suite, then each group.
pub fn summarise(run: &SuiteRun) -> Vec<PlannerSummary> {
    let np = run.planners.len();
    let astar = run.astar();
    let mut rows = vec![(run.name.clone(), None)];
    rows.extend(run.groups.iter().map(|g| (g.clone(), Some(g.as_str()))));
    let mut out = Vec::new();
    for (row, group) in rows {
        let in_row = |r: &Record| match group {
            None => true,
            Some(g) => run.map_groups[r.map as usize].iter().any(|x| x == g),
        };
        for (p, planner) in run.planners.iter().enumerate() {
            let mine: Vec<&Record> = run
                .records
                .iter()
                .filter(|r| {
                    r.planner as usize == p && r.outcome != QueryOutcome::Invalid && in_row(r)
                })
                .collect();
            let mut times: Vec<f64> = mine.iter().map(|r| r.micros).collect();
            let expanded: Vec<f64> = mine.iter().map(|r| r.expanded as f64).collect();
            let failures = run
                .records
                .iter()
                .filter(|r| r.planner as usize == p && r.failure.is_some() && in_row(r))
                .count();
            let vs_astar = astar.filter(|&a| a != p).map(|a| {
                let pairs: Vec<(&Record, &Record)> = run
                    .records
                    .chunks(np)
                    .filter(|q| in_row(&q[0]))
                    .map(|q| (&q[a], &q[p]))
                    .filter(|(x, y)| {
                        x.outcome == QueryOutcome::Found && y.outcome == QueryOutcome::Found
                    })
                    .collect();
                let ta: Vec<f64> = pairs.iter().map(|(x, _)| x.micros).collect();
                let tp: Vec<f64> = pairs.iter().map(|(_, y)| y.micros).collect();
                let ea: Vec<f64> = pairs.iter().map(|(x, _)| x.expanded as f64).collect();
                let ep: Vec<f64> = pairs.iter().map(|(_, y)| y.expanded as f64).collect();
                let mut ratios: Vec<f64> = pairs
                    .iter()
                    .filter(|(_, y)| y.micros > 0.0)
                    .map(|(x, y)| x.micros / y.micros)
                    .collect();
                let shorter: Vec<f64> = pairs
                    .iter()
                    .filter(|(x, _)| x.length > 0.0)
                    .map(|(x, y)| 100.0 * (1.0 - y.length / x.length))
                    .collect();
                let faster = pairs.iter().filter(|(x, y)| y.micros < x.micros).count();
                VsAStar {
                    queries: pairs.len(),
                    time_speedup: mean(&ta) / mean(&tp),
                    median_time_speedup: median(&mut ratios),
                    expansion_speedup: mean(&ea) / mean(&ep),
                    shorter_pct: mean(&shorter),
                    faster_pct: 100.0 * faster as f64 / pairs.len().max(1) as f64,
                }
            });
            out.push(PlannerSummary {
                row: row.clone(),
                planner: planner.clone(),
                queries: mine.len(),
                mean_us: mean(&times),
                median_us: median(&mut times),
                mean_expanded: mean(&expanded),
                vs_astar,
                failures,
            });
        }
    }
    out
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    std::fs::write(path, bytes).map_err(|e| BenchError::Write {
        path: path.to_owned(),
        msg: e.to_string(),
    })
}

/// Writes every record of `runs` to `path` as CSV: one row per query and planner, after a
/// `#` comment line with the provenance.
///
/// # Errors
/// [`BenchError::Write`] when the file cannot be written.
pub fn write_csv(path: &Path, runs: &[SuiteRun], prov: &Provenance) -> Result<(), BenchError> {
    let err = |e: std::io::Error| BenchError::Write {
        path: path.to_owned(),
        msg: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(err)?;
    let mut w = std::io::BufWriter::new(file);
    writeln!(w, "# {}", prov.line()).map_err(err)?;
    writeln!(
        w,
        "suite,map,idx,bucket,sx,sy,gx,gy,octile,reference,planner,outcome,length,expanded,reference_expanded,generated,heap_ops,us,check"
    )
    .map_err(err)?;
    for run in runs {
        for r in &run.records {
            let reference = r.reference.map_or(String::new(), |v| v.to_string());
            let reference_expanded = r
                .reference_expanded
                .map_or(String::new(), |v| v.to_string());
            let length = if r.outcome == QueryOutcome::Found {
                format!("{:.9}", r.length)
            } else {
                String::new()
            };
            let check = r.failure.as_deref().map_or("ok".to_owned(), |f| {
                format!("\"FAILED: {}\"", f.replace('"', "'"))
            });
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{}",
                run.name,
                run.maps[r.map as usize],
                r.idx,
                r.bucket,
                r.start.x,
                r.start.y,
                r.goal.x,
                r.goal.y,
                r.octile,
                reference,
                run.planners[r.planner as usize],
                r.outcome.name(),
                length,
                r.expanded,
                reference_expanded,
                r.generated,
                r.heap_ops,
                r.micros,
                check
            )
            .map_err(err)?;
        }
    }
    w.flush().map_err(err)
}

fn load(v: Option<f64>) -> String {
    v.map_or("?".into(), |v| format!("{v:.2}"))
}

fn fmt_ratio(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else {
        "–".into()
    }
}

/// The Markdown summary of `runs`: provenance, checks, one table row per suite (and group)
/// and planner, and links to the plots named by `plots` (suite name → file name).
pub fn markdown(
    runs: &[SuiteRun],
    prov: &Provenance,
    plots: &[(String, String)],
    command: &str,
) -> String {
    let mut s = String::new();
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    let _ = writeln!(s, "# Benchmark: {}\n", names.join(", "));
    let _ = writeln!(s, "{}\n", prov.line());
    let _ = writeln!(s, "Command: `{command}`\n");
    let total: usize = runs.iter().map(|r| r.records.len()).sum();
    let failures: Vec<(&SuiteRun, &Record)> = runs
        .iter()
        .flat_map(|run| run.records.iter().map(move |r| (run, r)))
        .filter(|(_, r)| r.failure.is_some())
        .collect();
    let wall: f64 = runs.iter().map(|r| r.wall.as_secs_f64()).sum();
    let _ = writeln!(
        s,
        "{total} planner answers in {wall:.0} s of wall time (single-threaded timing; each planner gets one untimed warm-up query per map; planners take turns map by map).\n"
    );
    let _ = writeln!(s, "## Checks\n");
    let _ = writeln!(
        s,
        "| suite | sample | maps | queries | vs reference optimum | vs octile column | cross-checked | paths walked | rejected (blocked endpoint) | proved unreachable | wall s | load start → end | **failures** |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for run in runs {
        let c = run.checked;
        let f = run.records.iter().filter(|r| r.failure.is_some()).count();
        let _ = writeln!(
            s,
            "| {} | every {}{} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {} → {} | **{}** |",
            run.name,
            if run.sample == 1 {
                "query".to_owned()
            } else {
                format!("{}th query", run.sample)
            },
            run.max_queries
                .map_or(String::new(), |n| format!(", at most {n} per map")),
            run.maps.len(),
            run.records.len() / run.planners.len().max(1),
            c.reference,
            c.octile,
            c.cross,
            c.paths,
            c.rejected,
            c.unreachable,
            run.wall.as_secs_f64(),
            load(run.load.0),
            load(run.load.1),
            f
        );
    }
    let mesh_runs: Vec<&SuiteRun> = runs.iter().filter(|r| !r.meshes.is_empty()).collect();
    if !mesh_runs.is_empty() {
        let _ = writeln!(s, "\n### Meshes\n");
        let _ = writeln!(
            s,
            "| suite | maps | taut mesh build s (total) | build ms (mean) | build ms (max) | taut polygons | given polygons | taut / given |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
        for run in mesh_runs {
            let m = &run.meshes;
            let total: f64 = m.iter().map(|i| i.build_secs).sum();
            let max = m.iter().map(|i| i.build_secs).fold(0.0, f64::max);
            let built: usize = m.iter().map(|i| i.built_polygons).sum();
            let given: usize = m.iter().map(|i| i.given_polygons).sum();
            let ratio = if built > 0 && given > 0 {
                format!("{:.3}", built as f64 / given as f64)
            } else {
                "–".into()
            };
            let _ = writeln!(
                s,
                "| {} | {} | {:.2} | {:.1} | {:.1} | {} | {} | {} |",
                run.name,
                m.len(),
                total,
                1e3 * total / m.len() as f64,
                1e3 * max,
                built,
                given,
                ratio
            );
        }
    }
    let cpd_runs: Vec<&SuiteRun> = runs.iter().filter(|r| !r.cpds.is_empty()).collect();
    if !cpd_runs.is_empty() {
        let _ = writeln!(s, "\n### CPDs\n");
        let _ = writeln!(
            s,
            "| suite | maps | built | read | build s (total) | build s (max) | read s (total) | MB (total) | nodes | edges | runs | runs per node |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|");
        for run in cpd_runs {
            let c = &run.cpds;
            let built: Vec<_> = c.iter().filter(|i| i.built).collect();
            let build_total = built.iter().map(|i| i.secs).fold(0.0, |a, b| a + b);
            let build_max = built.iter().map(|i| i.secs).fold(0.0, f64::max);
            let read_total = c
                .iter()
                .filter(|i| !i.built)
                .map(|i| i.secs)
                .fold(0.0, |a, b| a + b);
            let mb = c.iter().map(|i| i.bytes).sum::<usize>() as f64 / 1e6;
            let nodes: usize = c.iter().map(|i| i.nodes).sum();
            let edges: usize = c.iter().map(|i| i.edges).sum();
            let runs: usize = c.iter().map(|i| i.runs).sum();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {:.1} |",
                run.name,
                c.len(),
                built.len(),
                c.len() - built.len(),
                build_total,
                build_max,
                read_total,
                mb,
                nodes,
                edges,
                runs,
                if nodes == 0 {
                    0.0
                } else {
                    runs as f64 / nodes as f64
                }
            );
        }
        let _ = writeln!(
            s,
            "\nCPDs are read from the suite's `cpds` directory when up to date (`cargo xtask preprocess --cpd`), else built in memory before any query is timed; MB is the in-memory size."
        );
    }
    let hub_runs: Vec<&SuiteRun> = runs.iter().filter(|r| !r.hubs.is_empty()).collect();
    if !hub_runs.is_empty() {
        let _ = writeln!(s, "\n### Hub indexes\n");
        let _ = writeln!(
            s,
            "| suite | maps | built | read | build s (total) | build s (max) | read s (total) | MB (total) | MB (max) | corners | region sides |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|");
        for run in hub_runs {
            let h = &run.hubs;
            let secs = |built: bool| h.iter().filter(move |i| i.built == built).map(|i| i.secs);
            let mut sides: Vec<u32> = h.iter().map(|i| i.region).collect();
            sides.sort_unstable();
            sides.dedup();
            let sides: Vec<String> = sides.iter().map(u32::to_string).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} |",
                run.name,
                h.len(),
                h.iter().filter(|i| i.built).count(),
                h.iter().filter(|i| !i.built).count(),
                secs(true).sum::<f64>(),
                secs(true).fold(0.0, f64::max),
                secs(false).sum::<f64>(),
                h.iter().map(|i| i.bytes).sum::<usize>() as f64 / 1e6,
                h.iter().map(|i| i.bytes).max().unwrap_or(0) as f64 / 1e6,
                h.iter().map(|i| i.corners).sum::<usize>(),
                sides.join(", ")
            );
        }
        let _ = writeln!(
            s,
            "\nHub indexes are read from the suite's `hubs` directory when up to date (`cargo xtask preprocess --hub`, with `--budget` or `--region`), else built in memory with a label per point before any query is timed; MB is the in-memory size."
        );
    }
    let _ = writeln!(
        s,
        "\nOptimal any-angle lengths must equal the reference optimum to {} and never exceed the octile length; A* must equal the octile column to one unit of its last written digit (some files truncate); Theta*-style and `eps:first` lengths must not fall below the optimum, and `eps:qF` lengths must also stay within F times it. Every path found is walked by `Grid::check_path`.\n",
        taut::LENGTH_TOLERANCE
    );
    if !failures.is_empty() {
        let _ = writeln!(s, "### FAILURES ({})\n", failures.len());
        for (run, r) in failures.iter().take(50) {
            let _ = writeln!(
                s,
                "- {} {} query {} ({:?}→{:?}) {}: {}",
                run.name,
                run.maps[r.map as usize],
                r.idx,
                r.start,
                r.goal,
                run.planners[r.planner as usize],
                r.failure.as_deref().unwrap_or_default()
            );
        }
        if failures.len() > 50 {
            let _ = writeln!(s, "- ... and {} more (see the CSV)", failures.len() - 50);
        }
        s.push('\n');
    }
    table_section(
        &mut s,
        "Time, expansions and path length against A*",
        "Speedups are A*'s figure over the planner's on the queries both solved; \"shorter\" is the mean of 1 − length / A* length.",
        &[
            "suite",
            "planner",
            "queries",
            "mean µs",
            "median µs",
            "mean expanded",
            "time speedup (means)",
            "time speedup (median per query)",
            "expansion speedup",
            "faster than A*",
            "shorter than A*",
            "failures",
        ],
    );
    for run in runs {
        for p in summarise(run) {
            let (ts, mts, es, faster, shorter) = match p.vs_astar {
                Some(v) => (
                    fmt_ratio(v.time_speedup),
                    fmt_ratio(v.median_time_speedup),
                    fmt_ratio(v.expansion_speedup),
                    format!("{:.1} %", v.faster_pct),
                    format!("{:.2} %", v.shorter_pct),
                ),
                None => ("–".into(), "–".into(), "–".into(), "–".into(), "–".into()),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.1} | {:.1} | {:.0} | {} | {} | {} | {} | {} | {} |",
                p.row,
                p.planner,
                p.queries,
                p.mean_us,
                p.median_us,
                p.mean_expanded,
                ts,
                mts,
                es,
                faster,
                shorter,
                p.failures
            );
        }
    }
    write_reference_expansions(&mut s, runs);
    if !plots.is_empty() {
        let _ = writeln!(s, "\n## Time against A* difficulty\n");
        let _ = writeln!(
            s,
            "Queries sorted by the number of nodes A* expands, in percentile bins; the mean time per query of each planner in each bin (log scale), as Figure 4 of the End Point Search paper (IJCAI 2020).\n"
        );
        for (suite, file) in plots {
            let _ = writeln!(s, "![{suite}]({file})\n");
        }
    }
    s
}

/// Writes a Markdown section's title, its intro paragraph and the header of its table.
fn table_section(s: &mut String, title: &str, intro: &str, columns: &[&str]) {
    let _ = writeln!(s, "## {title}\n");
    let _ = writeln!(s, "{intro}\n");
    let _ = writeln!(s, "| {} |", columns.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(columns.len()));
}

/// The section comparing Anya's expansion counts with the reference Java Anya's, per suite
/// and Anya variant, over the found queries whose reference count is known. Nothing when no
/// run has such queries.
fn write_reference_expansions(s: &mut String, runs: &[SuiteRun]) {
    let mut rows = Vec::new();
    for run in runs {
        for (pi, spec) in run.planners.iter().enumerate() {
            if spec.algo != taut::registry::Algo::Anya {
                continue;
            }
            // Per map: (taut's sum, the reference's sum, queries).
            let mut per_map = vec![(0u64, 0u64, 0usize); run.maps.len()];
            for r in &run.records {
                if r.planner as usize != pi || r.outcome != QueryOutcome::Found {
                    continue;
                }
                if let Some(j) = r.reference_expanded {
                    let m = &mut per_map[r.map as usize];
                    m.0 += r.expanded;
                    m.1 += j;
                    m.2 += 1;
                }
            }
            let (mine, theirs, n) = per_map
                .iter()
                .fold((0, 0, 0), |a, m| (a.0 + m.0, a.1 + m.1, a.2 + m.2));
            if n == 0 || theirs == 0 {
                continue;
            }
            let ratios: Vec<f64> = per_map
                .iter()
                .filter(|m| m.1 > 0)
                .map(|m| m.0 as f64 / m.1 as f64)
                .collect();
            let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ratios.iter().copied().fold(0.0, f64::max);
            rows.push(format!(
                "| {} | {} | {n} | {:.1} | {:.1} | {:.3} | {lo:.3} – {hi:.3} |",
                run.name,
                spec,
                mine as f64 / n as f64,
                theirs as f64 / n as f64,
                mine as f64 / theirs as f64,
            ));
        }
    }
    if rows.is_empty() {
        return;
    }
    s.push('\n');
    table_section(
        s,
        "Anya's expansions against the reference Java Anya",
        "taut counts nodes popped and expanded; the reference (`anya_java_expanded` of the reference data) counts nodes popped from its open list, intermediate nodes expanded inline not counted. Per query both are in the CSV (`expanded`, `reference_expanded`); `docs/anya.md` explains the differences.",
        &[
            "suite",
            "planner",
            "queries",
            "taut mean",
            "reference mean",
            "taut / reference",
            "range over maps",
        ],
    );
    for r in rows {
        let _ = writeln!(s, "{r}");
    }
}

/// Writes the Markdown summary to `path`.
///
/// # Errors
/// [`BenchError::Write`] when the file cannot be written.
pub fn write_markdown(path: &Path, text: &str) -> Result<(), BenchError> {
    write_file(path, text.as_bytes())
}
