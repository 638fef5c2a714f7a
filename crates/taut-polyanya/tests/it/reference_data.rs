//! Polyanya on the meshes taut builds from the 53 shared grids, against the independent optima
//! of `../shared/data/grid/optimal/scen.csv` (`scen-legacy.csv` for maze512-1-0, which has no
//! 2018 scenario) (skipped, loudly, when the data is absent; a
//! failure under `TAUT_REQUIRE_DATA=1`).
//!
//! For every `STRIDE`-th row (every row with `TAUT_FULL=1`):
//! - a row whose `len_gppc` is -1 (an endpoint cell is blocked) is rejected, and no other row;
//! - Polyanya's length equals `len_gppc` within `taut_grid::LENGTH_TOLERANCE`;
//! - the path passes the grid's exact legality checker and its polyline length is the
//!   reported one (to 1e-9).
//!
//! Maps run in parallel (rayon); each map's mesh is built once.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;
use taut_grid::{Answer, FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Planner, Point, Status};
use taut_mesh::mesh_from_grid;
use taut_polyanya::PolyanyaPlanner;
use taut_testdata::{Tolerances, check_reference_answer, optimal_rows_by_map, shared_data};

/// The reported length must measure its path to 1e-9, stricter than the comparison with the
/// reference (written with 8 decimals).
const TOLERANCES: Tolerances = Tolerances {
    measured: 1e-9,
    expected: LENGTH_TOLERANCE,
};
/// CI runs every 4th query; `TAUT_FULL=1` runs them all.
const STRIDE: usize = 4;

#[derive(Default)]
struct Tally {
    queries: usize,
    rejected: usize,
    expanded: u64,
    polygons: usize,
    build_secs: f64,
    search_secs: f64,
    failures: Vec<String>,
}

#[test]
fn polyanya_on_taut_meshes_equals_len_gppc() {
    let Some(data) = shared_data("polyanya_on_taut_meshes_equals_len_gppc") else {
        return;
    };
    let stride = if std::env::var("TAUT_FULL").as_deref() == Ok("1") {
        1
    } else {
        STRIDE
    };
    let by_map = optimal_rows_by_map(&data).unwrap();
    assert_eq!(by_map.len(), 53, "the shared data has 53 maps");
    let total = Mutex::new(Tally::default());
    by_map.par_iter().for_each(|(map, rows)| {
        let path = data.join("grid/maps").join(format!("{map}.map"));
        let grid = Grid::from_map(&MapFile::read(&path).unwrap(), &FreeSet::default());
        let t0 = Instant::now();
        let mesh = Arc::new(mesh_from_grid(&grid).unwrap());
        let mut t = Tally {
            build_secs: t0.elapsed().as_secs_f64(),
            polygons: mesh.polygon_count(),
            ..Tally::default()
        };
        let mut planner = PolyanyaPlanner::new(&grid, mesh);
        let mut answer = Answer::default();
        let t1 = Instant::now();
        for r in rows.iter().step_by(stride) {
            let Some(expected) = r.len_gppc else { continue };
            t.queries += 1;
            let (s, g) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
            let result = planner.plan(s, g, &mut answer);
            t.rejected += usize::from(result.is_err());
            if result == Ok(Status::Found) {
                t.expanded += answer.stats.expanded;
            }
            if let Err(f) =
                check_reference_answer(&grid, s, g, &result, &answer, expected, TOLERANCES)
            {
                t.failures.push(format!("{map} query {}: {f}", r.idx));
            }
        }
        t.search_secs = t1.elapsed().as_secs_f64();
        let mut all = total.lock().unwrap();
        all.queries += t.queries;
        all.rejected += t.rejected;
        all.expanded += t.expanded;
        all.polygons += t.polygons;
        all.build_secs += t.build_secs;
        all.search_secs += t.search_secs;
        all.failures.extend(t.failures);
    });
    let t = total.into_inner().unwrap();
    println!(
        "scen.csv ({}): {} queries ({} rejected blocked endpoints), {} failures; \
         53 meshes, {} polygons, built in {:.2} s; {:.1} expansions and {:.0} µs per query (summed over threads)",
        if stride == 1 {
            "every row".to_owned()
        } else {
            format!("every {stride}th row")
        },
        t.queries,
        t.rejected,
        t.failures.len(),
        t.polygons,
        t.build_secs,
        t.expanded as f64 / t.queries.max(1) as f64,
        1e6 * t.search_secs / t.queries.max(1) as f64,
    );
    assert!(t.queries > 5_000, "only {} queries", t.queries);
    assert!(
        t.failures.is_empty(),
        "{} failures, first: {:#?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(10)]
    );
}
