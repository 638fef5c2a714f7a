//! Resident memory of each planner on one map: `taut-bench big-memory` runs one child process
//! per planner (this same binary, `big-memory --child`), which reads the map, builds what the
//! planner needs, answers the first few queries and reports its peak resident size (`VmHWM`
//! of `/proc/self/status`). One process per planner, so that no planner's peak hides another's
//! and freed memory the allocator keeps does not count twice.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use taut::grid::{Answer, FreeSet, Grid, MapFile, Scenario, Status};
use taut::registry::PlannerSpec;

use crate::error::BenchError;
use crate::machine::peak_memory_bytes;

/// One planner's figures on one map, as its child process measured them.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryRow {
    /// The planner (`none`: the map read and nothing else, the baseline).
    pub planner: String,
    /// Peak resident bytes of the whole process (`VmHWM`).
    pub peak_bytes: u64,
    /// Seconds to read the `.map` file and build the grid.
    pub load_secs: f64,
    /// Seconds to build what the planner needs (mesh, index) and the planner itself.
    pub prepare_secs: f64,
    /// Queries answered.
    pub queries: usize,
    /// Seconds for those queries.
    pub query_secs: f64,
    /// Nodes expanded over those queries.
    pub expanded: u64,
    /// Sum of the lengths found (to compare planners; unreachable queries add nothing).
    pub length_sum: f64,
}

impl MemoryRow {
    /// The CSV header of [`MemoryRow::csv`].
    pub const CSV_HEADER: &'static str =
        "planner,peak_mib,load_s,prepare_s,queries,query_s,expanded,length_sum";

    /// The row as CSV.
    pub fn csv(&self) -> String {
        format!(
            "{},{:.1},{:.3},{:.3},{},{:.3},{},{:.6}",
            self.planner,
            self.peak_bytes as f64 / (1024.0 * 1024.0),
            self.load_secs,
            self.prepare_secs,
            self.queries,
            self.query_secs,
            self.expanded,
            self.length_sum
        )
    }

    fn parse(line: &str) -> Option<MemoryRow> {
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() != 8 {
            return None;
        }
        Some(MemoryRow {
            planner: f[0].to_owned(),
            peak_bytes: (f[1].parse::<f64>().ok()? * 1024.0 * 1024.0) as u64,
            load_secs: f[2].parse().ok()?,
            prepare_secs: f[3].parse().ok()?,
            queries: f[4].parse().ok()?,
            query_secs: f[5].parse().ok()?,
            expanded: f[6].parse().ok()?,
            length_sum: f[7].parse().ok()?,
        })
    }
}

/// The child's work: read `map`, prepare `planner` (`None`: only read the map), answer the
/// first `queries` queries of `scen`, and measure.
///
/// # Errors
/// Unreadable files, a planner that cannot be built, a query rejected as invalid.
pub fn measure_here(
    map: &Path,
    scen: &Path,
    planner: Option<&PlannerSpec>,
    queries: usize,
) -> Result<MemoryRow, BenchError> {
    let t = Instant::now();
    let grid = Grid::from_map(&MapFile::read(map)?, &FreeSet::default());
    let load_secs = t.elapsed().as_secs_f64();
    let scen = Scenario::read(scen)?;
    let data = |msg: String| BenchError::Data {
        path: map.to_owned(),
        msg,
    };
    let mut row = MemoryRow {
        planner: planner.map_or_else(|| "none".to_owned(), ToString::to_string),
        peak_bytes: 0,
        load_secs,
        prepare_secs: 0.0,
        queries: 0,
        query_secs: 0.0,
        expanded: 0,
        length_sum: 0.0,
    };
    if let Some(spec) = planner {
        let t = Instant::now();
        let prepared = taut::Map::new(grid);
        prepared.prepare(spec).map_err(|e| data(e.to_string()))?;
        let mut p = prepared.planner(spec).map_err(|e| data(e.to_string()))?;
        row.prepare_secs = t.elapsed().as_secs_f64();
        let mut answer = Answer::default();
        let t = Instant::now();
        for e in scen.entries.iter().take(queries) {
            let status = p
                .plan(e.start, e.goal, &mut answer)
                .map_err(|err| data(format!("query {:?}→{:?}: {err}", e.start, e.goal)))?;
            row.queries += 1;
            row.expanded += answer.stats.expanded;
            if status == Status::Found {
                row.length_sum += answer.length;
            }
        }
        row.query_secs = t.elapsed().as_secs_f64();
    }
    row.peak_bytes = peak_memory_bytes().unwrap_or(0);
    Ok(row)
}

/// The parent's work: one child process of `exe` per planner (and one that only reads the
/// map, planner `none`), each `exe big-memory --child --map MAP --scen SCEN --planner P
/// --queries N`, whose one output line is its [`MemoryRow`].
///
/// # Errors
/// A child that cannot start, fails or prints no row.
pub fn measure_children(
    exe: &Path,
    map: &Path,
    scen: &Path,
    planners: &[PlannerSpec],
    queries: usize,
) -> Result<Vec<MemoryRow>, BenchError> {
    let mut rows = Vec::new();
    let names: Vec<String> = std::iter::once("none".to_owned())
        .chain(planners.iter().map(ToString::to_string))
        .collect();
    for name in names {
        let out = Command::new(exe)
            .args(["big-memory", "--child", "--planners", &name, "--queries"])
            .arg(queries.to_string())
            .arg("--map")
            .arg(map)
            .arg("--scen")
            .arg(scen)
            .output()
            .map_err(|e| BenchError::Data {
                path: PathBuf::from(exe),
                msg: format!("starting the child for {name}: {e}"),
            })?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let row = stdout.lines().rev().find_map(MemoryRow::parse);
        match (out.status.success(), row) {
            (true, Some(row)) => rows.push(row),
            _ => {
                return Err(BenchError::Data {
                    path: map.to_owned(),
                    msg: format!(
                        "the child for {name} failed ({}): {}",
                        out.status,
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                });
            }
        }
    }
    Ok(rows)
}
