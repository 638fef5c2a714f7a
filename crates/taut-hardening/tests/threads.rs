//! Concurrency: one map, one mesh, one compressed path database and one sphere raster, shared
//! by 8 threads that run the same queries, each with its own planners and search contexts.
//! Every thread's answers (status, length and waypoints, bit for bit) must be those of one
//! thread alone. The public immutable types are `Send + Sync`, and the per-thread search
//! contexts `Send`, checked at compile time below.

use std::sync::Arc;

use taut::anya::AnyaPlanner;
use taut::baselines::{Algo, make_planner};
use taut::cpd::{BuildParams, Eps, EpsPlanner, NoProgress, Stop, build_cpd};
use taut::grid::{Answer, FreeSet, Grid, MapFile, Planner, Point, Scenario};
use taut::mesh::{Mesh, mesh_from_grid};
use taut::polyanya::PolyanyaPlanner;
use taut::spherical::{LatLon, Route, SearchContext as SphereContext, SphereGrid};

const fn send_sync<T: Send + Sync>() {}
const fn send<T: Send>() {}
const _: () = {
    // Shared, immutable data.
    send_sync::<Grid>();
    send_sync::<MapFile>();
    send_sync::<Scenario>();
    send_sync::<Mesh>();
    send_sync::<taut::cpd::Cpd>();
    send_sync::<taut::cpd::CpdShard>();
    send_sync::<taut::cpd::Graph>();
    send_sync::<Eps>();
    send_sync::<SphereGrid>();
    send_sync::<Answer>();
    send_sync::<Route>();
    // Per-thread state: movable to a worker thread.
    send::<taut::anya::SearchContext>();
    send::<taut::polyanya::SearchContext>();
    send::<taut::cpd::EpsContext>();
    send::<SphereContext>();
    send::<AnyaPlanner<'static>>();
    send::<PolyanyaPlanner<'static>>();
    send::<EpsPlanner<'static>>();
};

/// `(planner, status, length bits, waypoints)` of every query, in order.
type Answers = Vec<(&'static str, String, u64, Vec<Point>)>;

fn plane(grid: &Grid, mesh: &Arc<Mesh>, eps: &Arc<Eps>, queries: &[(Point, Point)]) -> Answers {
    let mut planners: Vec<Box<dyn Planner + Send + '_>> = vec![
        Box::new(AnyaPlanner::new(grid)),
        Box::new(PolyanyaPlanner::new(grid, mesh.clone())),
        Box::new(EpsPlanner::new(grid, eps.clone(), Stop::Optimal)),
        make_planner(Algo::AStar, grid),
        make_planner(Algo::Theta, grid),
        make_planner(Algo::Vg, grid),
    ];
    let mut out = Vec::new();
    let mut a = Answer::default();
    for p in &mut planners {
        for &(s, t) in queries {
            let status = format!("{:?}", p.plan(s, t, &mut a));
            out.push((p.name(), status, a.length.to_bits(), a.waypoints.clone()));
        }
    }
    out
}

fn sphere(grid: &SphereGrid, queries: &[(LatLon, LatLon)]) -> Vec<(String, u64, String)> {
    let mut ctx = SphereContext::new();
    let mut route = Route::default();
    queries
        .iter()
        .map(|&(a, b)| {
            let o = format!("{:?}", ctx.search(grid, a, b, &mut route));
            (o, route.radians.to_bits(), format!("{:?}", route.legs))
        })
        .collect()
}

#[test]
fn eight_threads_answer_exactly_as_one() {
    let fixtures = taut_testdata::fixtures();
    let map = MapFile::read(fixtures.join("maps/arena.map")).unwrap();
    let grid = Grid::from_map(&map, &FreeSet::default());
    let scen = Scenario::read(fixtures.join("maps/arena.map.scen")).unwrap();
    let mut queries: Vec<(Point, Point)> = scen.entries.iter().map(|e| (e.start, e.goal)).collect();
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

    let one = plane(&grid, &mesh, &eps, &queries);
    let one_sphere = sphere(&sgrid, &sq);
    assert!(
        one.iter().filter(|r| r.1 == "Ok(Found)").count() >= 6 * 130,
        "the arena queries must have paths"
    );
    assert!(one_sphere.iter().filter(|r| r.0 == "Ok(Found)").count() > 5);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| (plane(&grid, &mesh, &eps, &queries), sphere(&sgrid, &sq))))
            .collect();
        for (i, h) in handles.into_iter().enumerate() {
            let (p, s) = h.join().expect("a worker panicked");
            assert!(p == one, "thread {i} answered differently on the plane");
            assert!(
                s == one_sphere,
                "thread {i} answered differently on the sphere"
            );
        }
    });
}
