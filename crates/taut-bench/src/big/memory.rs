//! Resident memory of each planner on one map: `taut-bench big-memory` runs one child process
//! per planner (this same binary, `big-memory --child`), which reads the map, builds what the
//! planner needs, answers the first few queries and reports its peak resident size (`VmHWM`
//! of `/proc/self/status`). One process per planner, so that no planner's peak hides another's
//! and freed memory the allocator keeps does not count twice.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use taut::grid::{Answer, FreeSet, Grid, MapFile, Scenario, Status};
use taut::registry::PlannerSpec;

use crate::error::BenchError;
use crate::machine::{parse_vm_hwm, peak_memory_bytes};

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

/// How a child ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ChildOutcome {
    /// It answered its queries and reported.
    Done(MemoryRow),
    /// It ran past the time limit and was stopped; its peak resident bytes when stopped, read
    /// from `/proc/PID/status` (a lower bound of what it would have reached).
    TimedOut {
        /// The planner.
        planner: String,
        /// `VmHWM` of the child just before it was stopped (0 when unreadable).
        peak_bytes: u64,
        /// The limit, in seconds.
        limit_secs: f64,
    },
}

/// The parent's work: one child process of `exe` per planner (and one that only reads the
/// map, planner `none`), each `exe big-memory --child --map MAP --scen SCEN --planners P
/// --queries N`, whose last output line is its [`MemoryRow`]. A child still running after
/// `limit` is stopped, its peak so far read first. `on_child` sees each outcome as it comes.
///
/// # Errors
/// A child that cannot start, fails or prints no row.
pub fn measure_children(
    exe: &Path,
    map: &Path,
    scen: &Path,
    planners: &[PlannerSpec],
    queries: usize,
    limit: Duration,
    mut on_child: impl FnMut(&ChildOutcome),
) -> Result<Vec<ChildOutcome>, BenchError> {
    let mut outcomes = Vec::new();
    let names: Vec<String> = std::iter::once("none".to_owned())
        .chain(planners.iter().map(ToString::to_string))
        .collect();
    for name in names {
        let failed = |msg: String| BenchError::Data {
            path: map.to_owned(),
            msg: format!("the child for {name}: {msg}"),
        };
        let mut child = Command::new(exe)
            .args(["big-memory", "--child", "--planners", &name, "--queries"])
            .arg(queries.to_string())
            .arg("--map")
            .arg(map)
            .arg("--scen")
            .arg(scen)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| failed(format!("cannot start {}: {e}", exe.display())))?;
        let t = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| failed(e.to_string()))? {
                break Some(status);
            }
            if t.elapsed() > limit {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let outcome = match status {
            None => {
                let peak_bytes = child_peak(child.id()).unwrap_or(0);
                // The child is ours and still running: stop it, then reap it.
                let _ = child.kill();
                let _ = child.wait();
                ChildOutcome::TimedOut {
                    planner: name.clone(),
                    peak_bytes,
                    limit_secs: limit.as_secs_f64(),
                }
            }
            Some(status) => {
                let mut stdout = String::new();
                let mut stderr = String::new();
                if let Some(mut o) = child.stdout.take() {
                    let _ = o.read_to_string(&mut stdout);
                }
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut stderr);
                }
                match (
                    status.success(),
                    stdout.lines().rev().find_map(MemoryRow::parse),
                ) {
                    (true, Some(row)) => ChildOutcome::Done(row),
                    _ => return Err(failed(format!("{status}: {}", stderr.trim()))),
                }
            }
        };
        on_child(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// `VmHWM` of process `pid`, in bytes, where readable.
fn child_peak(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_hwm(&status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_vm_hwm_parses() {
        let row = MemoryRow {
            planner: "anya".into(),
            peak_bytes: 512 * 1024 * 1024,
            load_secs: 1.5,
            prepare_secs: 0.25,
            queries: 3,
            query_secs: 2.0,
            expanded: 1234,
            length_sum: 10.5,
        };
        assert_eq!(MemoryRow::parse(&row.csv()), Some(row));
        assert_eq!(MemoryRow::parse("not,a,row"), None);
        assert_eq!(
            parse_vm_hwm("Name:\tx\nVmHWM:\t  2048 kB\nVmRSS: 1 kB\n"),
            Some(2048 * 1024)
        );
    }
}
