//! Concurrency: one map, one mesh, one compressed path database and one sphere raster, shared
//! by 8 threads that run the same queries (each in its own order: first the plane's, then the
//! sphere's), each with its own planners and search contexts. Every thread's answers (status,
//! length and waypoints, bit for bit) must be those of one thread alone. The public immutable
//! types are `Send + Sync`, and the per-thread search contexts `Send`, checked at compile time
//! below.

use std::sync::Arc;

use taut::anya::AnyaPlanner;
use taut::baselines::{Baseline, baseline_planner};
use taut::cpd::{BuildParams, Eps, EpsPlanner, NoProgress, Stop, build_cpd};
use taut::grid::{Answer, Grid, MapFile, Planner, Point, Scenario};
use taut::mesh::{Mesh, mesh_from_grid};
use taut::polyanya::PolyanyaPlanner;
use taut::spherical::{LatLon, Route, SearchContext as SphereContext, SphereGrid};
use taut_testdata::{assert_send, assert_send_sync, assert_threads_agree, fixture_queries};

const _: () = {
    // Shared, immutable data.
    assert_send_sync::<Grid>();
    assert_send_sync::<MapFile>();
    assert_send_sync::<Scenario>();
    assert_send_sync::<Mesh>();
    assert_send_sync::<taut::cpd::Cpd>();
    assert_send_sync::<taut::cpd::shard::CpdShard>();
    assert_send_sync::<taut::cpd::graph::Graph>();
    assert_send_sync::<Eps>();
    assert_send_sync::<SphereGrid>();
    assert_send_sync::<Answer>();
    assert_send_sync::<Route>();
    // Per-thread state: movable to a worker thread.
    assert_send::<taut::anya::SearchContext>();
    assert_send::<taut::polyanya::SearchContext>();
    assert_send::<taut::cpd::EpsContext>();
    assert_send::<SphereContext>();
    assert_send::<AnyaPlanner<std::sync::Arc<taut::Grid>>>();
    assert_send::<PolyanyaPlanner<std::sync::Arc<taut::Grid>>>();
    assert_send::<EpsPlanner<std::sync::Arc<taut::Grid>>>();
    assert_send_sync::<taut::Map>();
    assert_send::<taut::BoxedPlanner>();
};

/// Every planner of the plane, built for one thread.
fn planners<'g>(
    grid: &'g Grid,
    mesh: &Arc<Mesh>,
    eps: &Arc<Eps>,
) -> Vec<Box<dyn Planner + Send + 'g>> {
    vec![
        Box::new(AnyaPlanner::new(grid)),
        Box::new(PolyanyaPlanner::new(grid, mesh.clone())),
        Box::new(EpsPlanner::new(grid, eps.clone(), Stop::Optimal)),
        baseline_planner(Baseline::AStar, grid),
        baseline_planner(Baseline::Theta, grid),
        baseline_planner(Baseline::Vg, grid),
    ]
}

/// `(planner, status, length bits, waypoints)` of one query, for every planner.
type PlaneAnswers = Vec<(&'static str, String, u64, Vec<Point>)>;

fn plane(
    planners: &mut [Box<dyn Planner + Send + '_>],
    a: &mut Answer,
    (s, t): (Point, Point),
) -> PlaneAnswers {
    planners
        .iter_mut()
        .map(|p| {
            let status = format!("{:?}", p.plan(s, t, a));
            (p.name(), status, a.length.to_bits(), a.waypoints.clone())
        })
        .collect()
}

/// `(outcome, radians bits, legs)` of one sphere query.
fn sphere(
    ctx: &mut SphereContext,
    route: &mut Route,
    grid: &SphereGrid,
    (a, b): (LatLon, LatLon),
) -> (String, u64, String) {
    let o = format!("{:?}", ctx.search(grid, a, b, route));
    (o, route.radians.to_bits(), format!("{:?}", route.legs))
}

#[test]
fn eight_threads_answer_exactly_as_one() {
    let fixtures = taut_testdata::fixtures();
    let (grid, mut queries) = fixture_queries("arena");
    // Invalid queries too: every thread must refuse them alike.
    queries.extend([
        (Point::new(-1, 0), Point::new(3, 3)),
        (Point::new(0, 0), Point::new(i32::MAX, 0)),
    ]);
    let mesh = Arc::new(mesh_from_grid(&grid).unwrap());
    let cpd = build_cpd(&mesh, &BuildParams::default(), &NoProgress).unwrap();
    let eps = Arc::new(Eps::new(mesh.clone(), Arc::new(cpd)).unwrap());

    let sgrid = SphereGrid::read_map(fixtures.join("sphere/tiny_36x18.map"), false).unwrap();
    let mut sq = Vec::new();
    for i in 0..40 {
        let a = LatLon::new(-75.0 + 3.7 * f64::from(i), -170.0 + 8.3 * f64::from(i));
        let b = LatLon::new(70.0 - 3.1 * f64::from(i), 175.0 - 9.1 * f64::from(i));
        sq.push((a, b));
    }
    sq.push((LatLon::new(f64::NAN, 0.0), LatLon::new(0.0, 0.0)));

    // Each thread with its own planners and contexts, running the queries in its own order.
    let one = assert_threads_agree(
        8,
        &queries,
        || (planners(&grid, &mesh, &eps), Answer::default()),
        |(planners, a), &q| plane(planners, a, q),
    );
    let found = one.iter().flatten().filter(|r| r.1 == "Ok(Found)").count();
    assert!(found >= 6 * 130, "the arena queries must have paths");
    let one_sphere = assert_threads_agree(
        8,
        &sq,
        || (SphereContext::new(), Route::default()),
        |(ctx, route), &q| sphere(ctx, route, &sgrid, q),
    );
    assert!(one_sphere.iter().filter(|r| r.0 == "Ok(Found)").count() > 5);
}
