//! End Point Search on the meshes and CPDs taut builds from the 53 shared grids, against the
//! independent optima of `../shared/data/grid/optimal/scen.csv` (`scen-legacy.csv` for
//! maze512-1-0, which has no 2018 scenario), and against Polyanya on the same mesh (skipped,
//! loudly, when the data is absent; a failure under `TAUT_REQUIRE_DATA=1`).
//!
//! CI builds the CPDs of the maps with at most `CI_MAX_CORNERS` corners and runs every
//! `STRIDE`-th query of them; `TAUT_FULL=1` builds every map's CPD and runs every query. For
//! each query:
//! - a row whose `len_gppc` is -1 (an endpoint cell is blocked) is rejected, and no other row;
//! - the optimal EPS length equals `len_gppc` within `taut_grid::LENGTH_TOLERANCE` and
//!   Polyanya's to 1e-9;
//! - the path passes the grid's exact legality checker, and its polyline length is the
//!   reported one (to 1e-9);
//! - the first anytime solution is a legal path no shorter than the optimum, and every later
//!   one strictly shorter than the one before.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use taut_cpd::graph::{Corners, Graph};
use taut_cpd::{BuildParams, Cpd, Eps, EpsContext, EpsPlanner, NoProgress, Stop, mesh_hash};
use taut_grid::{
    Answer, FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Planner, Point, Status, lengths_agree,
};
use taut_mesh::{Ambiguity, MeshPoint, mesh_from_grid};
use taut_polyanya::PolyanyaPlanner;
use taut_testdata::{
    Tolerances, check_reference_answer, lattice_point, mesh_point, optimal_rows_by_map, shared_data,
};

/// The reported length must measure its path to 1e-9, stricter than the comparison with the
/// reference (written with 8 decimals).
const TOLERANCES: Tolerances = Tolerances {
    measured: 1e-9,
    expected: LENGTH_TOLERANCE,
};
/// CI runs every 2nd query of the maps it builds CPDs for; `TAUT_FULL=1` runs them all.
const STRIDE: usize = 2;
/// CI builds the CPDs of maps with at most this many corners (a few seconds each).
const CI_MAX_CORNERS: usize = 2_500;
/// A full run builds the maps up to this many corners: all but six random 512×512 maps. It
/// includes maze512-1-0 (49,154 corners, 2.6 min of CPD on 2 cores) and random512-40-0/1
/// (64,047 and 66,277, about 9 min each). The random maps of 10 to 35 % obstacles (76,000 to
/// 110,000 corners, up to 3.4 million edges) take 23 minutes to over an hour each
/// (`taut cpd estimate`; `benchmarks/results/2026-11-26-eps-parity/cpd-53.csv`); the End
/// Point Search paper's suites have at most about 25,000.
const FULL_MAX_CORNERS: usize = 70_000;

#[derive(Default)]
struct Tally {
    maps: usize,
    skipped: Vec<String>,
    corners: usize,
    queries: usize,
    rejected: usize,
    build_secs: f64,
    eps_secs: f64,
    polyanya_secs: f64,
    failures: Vec<String>,
}

#[test]
fn eps_on_taut_cpds_equals_len_gppc() {
    let Some(data) = shared_data("eps_on_taut_cpds_equals_len_gppc") else {
        return;
    };
    let full = std::env::var("TAUT_FULL").as_deref() == Ok("1");
    let stride = if full { 1 } else { STRIDE };
    let by_map = optimal_rows_by_map(&data).unwrap();
    assert_eq!(by_map.len(), 53, "the shared data has 53 maps");
    let total = Mutex::new(Tally::default());
    // Maps one after another (each CPD build uses every core).
    for (map, rows) in &by_map {
        let path = data.join("grid/maps").join(format!("{map}.map"));
        let grid = Grid::from_map(&MapFile::read(&path).unwrap(), &FreeSet::default());
        let t0 = Instant::now();
        let mesh = Arc::new(mesh_from_grid(&grid).unwrap());
        let corners = Corners::of(&mesh);
        if corners.len()
            > if full {
                FULL_MAX_CORNERS
            } else {
                CI_MAX_CORNERS
            }
        {
            total
                .lock()
                .unwrap()
                .skipped
                .push(format!("{map} ({} corners)", corners.len()));
            continue;
        }
        let graph = Graph::build(&mesh, &corners).unwrap();
        let cpd = Cpd::from_graph(
            graph,
            mesh_hash(&mesh),
            &BuildParams::default(),
            &NoProgress,
        );
        let eps = Arc::new(Eps::new(mesh.clone(), Arc::new(cpd)).unwrap());
        let mut t = Tally {
            maps: 1,
            corners: corners.len(),
            build_secs: t0.elapsed().as_secs_f64(),
            ..Tally::default()
        };
        let mut planner = EpsPlanner::new(&grid, eps.clone(), Stop::Optimal);
        let mut poly = PolyanyaPlanner::new(&grid, mesh.clone());
        let mut ctx = EpsContext::new();
        let (mut answer, mut reference) = (Answer::default(), Answer::default());
        let mut anytime_path = Vec::new();
        for r in rows.iter().step_by(stride) {
            let Some(expected) = r.len_gppc else { continue };
            t.queries += 1;
            let (s, g) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
            let t1 = Instant::now();
            let got = planner.plan(s, g, &mut answer);
            t.eps_secs += t1.elapsed().as_secs_f64();
            t.rejected += usize::from(got.is_err());
            let mut failure =
                check_reference_answer(&grid, s, g, &got, &answer, expected, TOLERANCES).err();
            if failure.is_none() && got == Ok(Status::Found) {
                let t2 = Instant::now();
                let p = poly.plan(s, g, &mut reference);
                t.polyanya_secs += t2.elapsed().as_secs_f64();
                failure = if p.is_err() || (answer.length - reference.length).abs() > 1e-9 {
                    Some(format!(
                        "{s} -> {g}: length {} but Polyanya {}",
                        answer.length, reference.length
                    ))
                } else {
                    anytime_failure(&grid, &eps, &mut ctx, s, g, expected, &mut anytime_path)
                        .map(|f| format!("{s} -> {g}: {f}"))
                };
            }
            if let Some(f) = failure {
                t.failures.push(format!("{map} query {}: {f}", r.idx));
            }
        }
        let mut all = total.lock().unwrap();
        all.maps += t.maps;
        all.corners += t.corners;
        all.queries += t.queries;
        all.rejected += t.rejected;
        all.build_secs += t.build_secs;
        all.eps_secs += t.eps_secs;
        all.polyanya_secs += t.polyanya_secs;
        all.failures.extend(t.failures);
    }
    let t = total.into_inner().unwrap();
    println!(
        "EPS ({}): {} maps ({} corners, CPDs built in {:.1} s), {} queries ({} rejected blocked \
         endpoints), {} failures; {:.1} µs per EPS query, {:.1} µs per Polyanya query",
        if full {
            format!("maps up to {FULL_MAX_CORNERS} corners, every row")
        } else {
            format!("maps up to {CI_MAX_CORNERS} corners, every {stride}th row")
        },
        t.maps,
        t.corners,
        t.build_secs,
        t.queries,
        t.rejected,
        t.failures.len(),
        1e6 * t.eps_secs / t.queries.max(1) as f64,
        1e6 * t.polyanya_secs / (t.queries - t.rejected).max(1) as f64,
    );
    if !t.skipped.is_empty() {
        println!(
            "not built in this run (TAUT_FULL=1 builds those up to {FULL_MAX_CORNERS} corners): {}",
            t.skipped.join(", ")
        );
    }
    assert!(t.maps >= 10, "only {} maps", t.maps);
    assert!(t.queries > 2_000, "only {} queries", t.queries);
    assert!(
        t.failures.is_empty(),
        "{} failures, first: {:#?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(10)]
    );
}

/// The anytime sequence of one query: legal, strictly improving, ending at the optimum.
fn anytime_failure(
    grid: &Grid,
    eps: &Eps,
    ctx: &mut EpsContext,
    s: Point,
    g: Point,
    optimum: f64,
    path: &mut Vec<MeshPoint>,
) -> Option<String> {
    if let Err(e) = ctx.start(
        eps,
        mesh_point(s),
        mesh_point(g),
        Ambiguity::Towards(1.0, 1.0),
    ) {
        return Some(format!("anytime start: {e}"));
    }
    let mut last = f64::INFINITY;
    while let Some(sol) = ctx.next_solution(eps) {
        ctx.best_path(eps, path);
        let lattice: Vec<Point> = path.iter().map(|&p| lattice_point(p)).collect();
        if let Err(v) = grid.check_path(s, g, &lattice) {
            return Some(format!("illegal anytime path {lattice:?}: {v}"));
        }
        if sol.length < optimum - LENGTH_TOLERANCE || sol.lower_bound > optimum + LENGTH_TOLERANCE {
            return Some(format!(
                "anytime length {} / bound {} against optimum {optimum}",
                sol.length, sol.lower_bound
            ));
        }
        if !sol.optimal && sol.length >= last {
            return Some(format!("anytime {} after {last}", sol.length));
        }
        if sol.optimal && !lengths_agree(sol.length, optimum) {
            return Some(format!(
                "anytime final {} against optimum {optimum}",
                sol.length
            ));
        }
        last = sol.length;
    }
    (last == f64::INFINITY).then(|| "no anytime solution".to_owned())
}
