//! Hub labels on the indexes taut builds from the shared grids, against the independent
//! optima of `../shared/data/grid/optimal/scen.csv` (`scen-legacy.csv` for maze512-1-0)
//! (skipped, loudly, when the data is absent; a failure under `TAUT_REQUIRE_DATA=1`).
//!
//! CI builds the indexes of the maps with at most `CI_MAX_CORNERS` corners and runs every
//! `STRIDE`-th query of them; `TAUT_FULL=1` builds those up to `FULL_MAX_CORNERS` and runs
//! every query. For each query:
//! - a row whose `len_gppc` is -1 (an endpoint cell is blocked) is rejected, and no other row;
//! - the length equals `len_gppc` within `taut_grid::LENGTH_TOLERANCE`;
//! - the path passes the grid's exact legality checker, and its polyline length is the
//!   reported one (to 1e-9).

use std::sync::Arc;
use std::time::Instant;

use taut_grid::{Answer, FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Planner, Point};
use taut_hub::{HubIndex, HubPlanner};
use taut_mesh::corners::Corners;
use taut_mesh::mesh_from_grid;
use taut_testdata::{Tolerances, check_reference_answer, optimal_rows_by_map, shared_data};

const TOLERANCES: Tolerances = Tolerances {
    measured: 1e-9,
    expected: LENGTH_TOLERANCE,
};
/// CI runs every 2nd query of the maps it builds indexes for; `TAUT_FULL=1` runs them all.
const STRIDE: usize = 2;
/// CI builds the indexes of maps with at most this many corners (about a second each).
const CI_MAX_CORNERS: usize = 2_500;
/// A full run builds the maps up to this many corners (ost100d, 5,179 corners: 57 s and
/// 2.1 GB at the peak on 2 cores). The point labels of the random 512×512 maps (tens of
/// thousands of corners) would need far more memory than a full index is worth; budgets
/// (regions sharing labels) are the way to them.
const FULL_MAX_CORNERS: usize = 6_000;

#[test]
fn hub_labels_equal_len_gppc() {
    let Some(data) = shared_data("hub_labels_equal_len_gppc") else {
        return;
    };
    let full = std::env::var("TAUT_FULL").as_deref() == Ok("1");
    let (stride, max_corners) = if full {
        (1, FULL_MAX_CORNERS)
    } else {
        (STRIDE, CI_MAX_CORNERS)
    };
    let by_map = optimal_rows_by_map(&data).unwrap();
    assert_eq!(by_map.len(), 53, "the shared data has 53 maps");
    let (mut maps, mut queries, mut rejected, mut corners_total) = (0, 0, 0, 0);
    let (mut build_secs, mut query_secs, mut bytes) = (0.0, 0.0, 0usize);
    let (mut skipped, mut failures) = (Vec::new(), Vec::new());
    for (map, rows) in &by_map {
        let path = data.join("grid/maps").join(format!("{map}.map"));
        let grid = Grid::from_map(&MapFile::read(&path).unwrap(), &FreeSet::default());
        let mesh = mesh_from_grid(&grid).unwrap();
        let corners = Corners::of(&mesh).len();
        if corners > max_corners {
            skipped.push(format!("{map} ({corners} corners)"));
            continue;
        }
        let t0 = Instant::now();
        let index = Arc::new(HubIndex::build(&grid, &mesh).unwrap());
        build_secs += t0.elapsed().as_secs_f64();
        bytes += index.heap_bytes();
        maps += 1;
        corners_total += corners;
        let mut planner = HubPlanner::new(&grid, index).unwrap();
        let mut answer = Answer::default();
        for r in rows.iter().step_by(stride) {
            let Some(expected) = r.len_gppc else { continue };
            queries += 1;
            let (s, g) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
            let t1 = Instant::now();
            let got = planner.plan(s, g, &mut answer);
            query_secs += t1.elapsed().as_secs_f64();
            rejected += usize::from(got.is_err());
            if let Err(f) = check_reference_answer(&grid, s, g, &got, &answer, expected, TOLERANCES)
            {
                failures.push(format!("{map} query {}: {f}", r.idx));
            }
        }
    }
    println!(
        "hub ({}): {maps} maps ({corners_total} corners, indexes of {:.0} MB built in {build_secs:.1} s), \
         {queries} queries ({rejected} rejected blocked endpoints), {} failures; {:.2} µs per query",
        if full {
            format!("maps up to {FULL_MAX_CORNERS} corners, every row")
        } else {
            format!("maps up to {CI_MAX_CORNERS} corners, every {stride}th row")
        },
        bytes as f64 / 1e6,
        failures.len(),
        1e6 * query_secs / queries.max(1) as f64,
    );
    if !skipped.is_empty() {
        println!("not built in this run: {}", skipped.join(", "));
    }
    assert!(maps >= 10, "only {maps} maps");
    assert!(queries > 2_000, "only {queries} queries");
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}
