//! Local mesh repair against a full rebuild (`taut-bench repair`).
//!
//! For each map and each edit size (a single cell, a 16 × 16 block, ...): edits at random places
//! of the map, each toggling its rectangle (blocked when it was all free, else freed), applied
//! one after another so that later repairs start from repaired meshes. Each edit is answered
//! twice, alternating which goes first: [`repair_mesh`] of the previous mesh and
//! [`mesh_from_grid`] of the edited grid. The rows give the medians of both, their ratio, the
//! polygons a repair removed, and how many Polyanya queries (of the map's scenario, when given)
//! gave another length on the repaired mesh than on the rebuilt one (must be 0).

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use taut::grid::{Answer, CellRect, Grid, Planner, Point, Scenario, Status};
use taut::mesh::{Mesh, mesh_from_grid, repair_mesh};
use taut::polyanya::PolyanyaPlanner;

use crate::BenchError;
use crate::rng::SplitMix64;

/// What to measure.
#[derive(Debug, Clone)]
pub struct RepairOptions {
    /// Sides of the square edits.
    pub sizes: Vec<i32>,
    /// Edits per size.
    pub edits: usize,
    /// Scenario queries checked after each edit (0: none).
    pub check_queries: usize,
    /// Seed of the edit positions.
    pub seed: u64,
}

/// One map and edit size.
#[derive(Debug, Clone, Copy)]
pub struct RepairRow {
    /// Side of the edits.
    pub size: i32,
    /// Edits made.
    pub edits: usize,
    /// Median repair time, milliseconds.
    pub repair_ms: f64,
    /// Median time of its local part (removing, tracing, triangulating, merging), ms.
    pub local_ms: f64,
    /// Median full-rebuild time of the same edited grids, ms.
    pub rebuild_ms: f64,
    /// Median of the per-edit ratios rebuild / repair.
    pub speedup: f64,
    /// Median polygons removed per repair.
    pub removed: usize,
    /// Polygons of the repaired mesh at the end.
    pub polygons: usize,
    /// Polygons of a full build of the final grid.
    pub rebuilt_polygons: usize,
    /// Polyanya's total time on up to 1,000 scenario queries over the final grid, on the
    /// repaired mesh over on the rebuilt one (paired per query, alternating order; NaN without
    /// queries): what the repairs cost later searches.
    pub query_ratio: f64,
    /// Queries compared.
    pub checked: usize,
    /// Queries whose length or status differed (must be 0).
    pub differ: usize,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn mesh_err(e: taut::mesh::BuildError) -> BenchError {
    BenchError::Data {
        path: "mesh".into(),
        msg: e.to_string(),
    }
}

/// The rows of one map.
///
/// # Errors
/// When a mesh cannot be built or repaired.
pub fn measure(
    grid: &Grid,
    queries: &[(Point, Point)],
    opts: &RepairOptions,
) -> Result<Vec<RepairRow>, BenchError> {
    let mut rows = Vec::new();
    for &size in &opts.sizes {
        let mut grid = grid.clone();
        let mut mesh = Arc::new(mesh_from_grid(&grid).map_err(mesh_err)?);
        let mut rng = SplitMix64::new(opts.seed ^ size as u64);
        let (mut repair, mut local, mut rebuild, mut ratio, mut removed) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut checked, mut differ) = (0, 0);
        let mut done = 0;
        while done < opts.edits {
            let x = rng.below((grid.width() - size + 1) as usize) as i32;
            let y = rng.below((grid.height() - size + 1) as usize) as i32;
            let rect = CellRect::new(x, y, size, size);
            let all_free = (y..y + size).all(|yy| (x..x + size).all(|xx| grid.is_free(xx, yy)));
            let before = grid.clone();
            if grid.set_rect(rect, all_free).unwrap_or(0) == 0 || grid.free_cells() == 0 {
                grid = before;
                continue;
            }
            let mut timed_repair = None;
            let mut timed_rebuild = None;
            for first in [done % 2 == 0, done % 2 != 0] {
                if first {
                    let t = Instant::now();
                    let (m, stats) = repair_mesh(&mesh, &grid, rect).map_err(mesh_err)?;
                    timed_repair = Some((t.elapsed().as_secs_f64() * 1e3, m, stats));
                } else {
                    let t = Instant::now();
                    let m = mesh_from_grid(&grid).map_err(mesh_err)?;
                    timed_rebuild = Some((t.elapsed().as_secs_f64() * 1e3, m));
                }
            }
            let (Some((rep_ms, repaired, stats)), Some((reb_ms, rebuilt))) =
                (timed_repair, timed_rebuild)
            else {
                unreachable!("both ran");
            };
            let (repaired, rebuilt) = (Arc::new(repaired), Arc::new(rebuilt));
            for &q in queries.iter().take(opts.check_queries) {
                if grid.check_query(q.0, q.1).is_err() {
                    continue;
                }
                let length = |m: &Arc<Mesh>| {
                    let mut p = PolyanyaPlanner::new(&grid, Arc::clone(m));
                    let mut a = Answer::default();
                    match p.plan(q.0, q.1, &mut a) {
                        Ok(Status::Found) => Some(a.length),
                        _ => None,
                    }
                };
                let (a, b) = (length(&repaired), length(&rebuilt));
                checked += 1;
                let same = match (a, b) {
                    (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.max(1.0),
                    (None, None) => true,
                    _ => false,
                };
                differ += usize::from(!same);
            }
            repair.push(rep_ms);
            local.push(stats.local_time.as_secs_f64() * 1e3);
            rebuild.push(reb_ms);
            ratio.push(reb_ms / rep_ms);
            removed.push(stats.removed as f64);
            mesh = repaired;
            done += 1;
        }
        let rebuilt = Arc::new(mesh_from_grid(&grid).map_err(mesh_err)?);
        let query_ratio = query_time_ratio(&grid, &mesh, &rebuilt, queries);
        rows.push(RepairRow {
            size,
            rebuilt_polygons: rebuilt.polygon_count(),
            query_ratio,
            edits: done,
            repair_ms: median(&mut repair),
            local_ms: median(&mut local),
            rebuild_ms: median(&mut rebuild),
            speedup: median(&mut ratio),
            removed: median(&mut removed) as usize,
            polygons: mesh.polygon_count(),
            checked,
            differ,
        });
    }
    Ok(rows)
}

/// Polyanya's total time on `queries` (valid ones, at most 1,000) on mesh `a` over mesh `b`:
/// one warm planner per mesh, each query timed on both, alternating which goes first.
fn query_time_ratio(grid: &Grid, a: &Arc<Mesh>, b: &Arc<Mesh>, queries: &[(Point, Point)]) -> f64 {
    let mut pa = PolyanyaPlanner::new(grid, Arc::clone(a));
    let mut pb = PolyanyaPlanner::new(grid, Arc::clone(b));
    let mut ans = Answer::default();
    let (mut ta, mut tb) = (0.0f64, 0.0f64);
    let valid = queries
        .iter()
        .filter(|q| grid.check_query(q.0, q.1).is_ok())
        .take(1000);
    for (i, &(s, t)) in valid.enumerate() {
        for first_a in [i % 2 == 0, i % 2 != 0] {
            let start = Instant::now();
            if first_a {
                let _ = pa.plan(s, t, &mut ans);
                ta += start.elapsed().as_secs_f64();
            } else {
                let _ = pb.plan(s, t, &mut ans);
                tb += start.elapsed().as_secs_f64();
            }
        }
    }
    if tb > 0.0 { ta / tb } else { f64::NAN }
}

/// The report of every map, as Markdown.
///
/// # Errors
/// When a map or scenario cannot be read, or a mesh cannot be built or repaired.
pub fn run(maps: &[&Path], opts: &RepairOptions) -> Result<String, BenchError> {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "{} edits per size, each toggling a square (blocked when all free, else freed), applied in turn; repair and rebuild paired, alternating order; medians.\n",
        opts.edits
    );
    let _ = writeln!(
        md,
        "| map | side | edit | repair ms | of it local ms | rebuild ms | rebuild / repair | polygons removed | polygons repaired / rebuilt at the end | Polyanya time repaired / rebuilt at the end | queries checked | differing |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|---|");
    for &path in maps {
        let grid = taut::Map::read(path, &taut::FreeSet::default())?
            .grid()
            .as_ref()
            .clone();
        let scen_path = crate::scenario_of(path);
        let queries: Vec<(Point, Point)> = if scen_path.exists() {
            let scen = Scenario::read(&scen_path)?;
            let n = scen.entries.len().max(1);
            (0..n)
                .map(|i| &scen.entries[(i * 7919) % n])
                .map(|e| (e.start, e.goal))
                .collect()
        } else {
            Vec::new()
        };
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        for r in measure(&grid, &queries, opts)? {
            let _ = writeln!(
                md,
                "| {name} | {}×{} | {s}×{s} | {:.2} | {:.2} | {:.1} | {:.1} | {} | {} / {} | {:.3} | {} | {} |",
                grid.width(),
                grid.height(),
                r.repair_ms,
                r.local_ms,
                r.rebuild_ms,
                r.speedup,
                r.removed,
                r.polygons,
                r.rebuilt_polygons,
                r.query_ratio,
                r.checked,
                r.differ,
                s = r.size
            );
        }
    }
    Ok(md)
}
