//! Every query entry point of the planners, given endpoints that are not valid points of the
//! map or mesh: off the map (also at `i32::MIN`/`i32::MAX`), on a blocked cell, NaN, infinite,
//! huge, inside an obstacle. Each must return the typed error naming the endpoint, never
//! panic, and never answer "unreachable" (which is reserved for valid endpoints with no path
//! between them). One file for all grid planners (Anya, the baselines, Polyanya, End Point
//! Search), since this crate's tests already depend on all of them: one file instead of four.

use std::sync::Arc;

use taut_anya::AnyaPlanner;
use taut_baselines::{Baseline, baseline_planner};
use taut_cpd::{BuildParams, Eps, EpsContext, EpsPlanner, NoProgress, Stop, build_cpd};
use taut_grid::{Answer, Endpoint, FreeSet, Grid, MapFile, Planner, Point, QueryError, Status};
use taut_mesh::{Ambiguity, End, MeshAnswer, MeshPoint, MeshQueryError, mesh_from_grid};
use taut_polyanya::{Options, PolyanyaPlanner, SearchContext};
use taut_testdata::fixtures;

/// `fixtures/maps/small.map` (8 x 6): cell (1, 1) is `@`, cell (6, 1) is `T` (blocked with
/// the default free set), cell (7, 2) is free but walled in (its point is isolated).
fn small() -> Grid {
    let map = MapFile::read(fixtures().join("maps/small.map")).unwrap();
    Grid::from_map(&map, &FreeSet::default())
}

const FREE: Point = Point::new(0, 0);
const FREE2: Point = Point::new(7, 5);
const ISOLATED: Point = Point::new(7, 2);

/// (point, expected variant) for invalid lattice endpoints of `small.map`.
fn invalid_points() -> Vec<(Point, &'static str)> {
    let mut v = vec![
        (Point::new(1, 1), "Blocked"),
        (Point::new(6, 1), "Blocked"),
        (Point::new(1, 2), "Blocked"),
    ];
    for (x, y) in [
        (-1, 0),
        (0, -1),
        (8, 0),
        (0, 6),
        (8, 6),
        (i32::MIN, 0),
        (0, i32::MIN),
        (i32::MAX, 0),
        (0, i32::MAX),
        (i32::MIN, i32::MIN),
        (i32::MAX, i32::MAX),
        (i32::MIN, i32::MAX),
    ] {
        v.push((Point::new(x, y), "OffMap"));
    }
    v
}

fn check(name: &str, planner: &mut dyn Planner) {
    let mut out = Answer::default();
    for (p, want) in invalid_points() {
        for (s, t, which) in [(p, FREE, Endpoint::Start), (FREE, p, Endpoint::Goal)] {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                planner.plan(s, t, &mut out)
            }))
            .unwrap_or_else(|_| panic!("{name}: {s} -> {t} panicked"));
            let ok = match (&r, want) {
                (
                    Err(QueryError::OffMap {
                        which: w, point, ..
                    }),
                    "OffMap",
                ) => *w == which && *point == p,
                (Err(QueryError::Blocked { which: w, point }), "Blocked") => {
                    *w == which && *point == p
                }
                _ => false,
            };
            assert!(
                ok,
                "{name}: {s} -> {t}: expected {want} {which:?}, got {r:?}"
            );
        }
        // Both invalid: the start is reported.
        let r = planner.plan(p, p, &mut out);
        assert!(
            matches!(
                &r,
                Err(QueryError::OffMap {
                    which: Endpoint::Start,
                    ..
                } | QueryError::Blocked {
                    which: Endpoint::Start,
                    ..
                })
            ),
            "{name}: {p} -> {p}: {r:?}"
        );
    }
    // Valid endpoints: an isolated point is unreachable (not an error), one point is itself.
    for (s, t) in [(ISOLATED, FREE), (FREE, ISOLATED)] {
        let r = planner.plan(s, t, &mut out);
        assert_eq!(r, Ok(Status::Unreachable), "{name}: {s} -> {t}");
    }
    assert_eq!(
        planner.plan(FREE2, FREE2, &mut out),
        Ok(Status::Found),
        "{name}"
    );
    assert_eq!(out.length, 0.0, "{name}");
    assert_eq!(
        planner.plan(FREE, FREE2, &mut out),
        Ok(Status::Found),
        "{name}"
    );
}

fn eps_of(grid: &Grid) -> Arc<Eps> {
    let mesh = Arc::new(mesh_from_grid(grid).unwrap());
    let cpd = build_cpd(&mesh, &BuildParams::default(), &NoProgress).unwrap();
    Arc::new(Eps::new(mesh, Arc::new(cpd)).unwrap())
}

#[test]
fn grid_planners_refuse_invalid_endpoints() {
    let grid = small();
    check("anya", &mut AnyaPlanner::new(&grid));
    for algo in [
        Baseline::AStar,
        Baseline::Theta,
        Baseline::LazyTheta,
        Baseline::Vg,
    ] {
        check(algo.name(), baseline_planner(algo, &grid).as_mut());
    }
    let eps = eps_of(&grid);
    check(
        "polyanya",
        &mut PolyanyaPlanner::new(&grid, eps.mesh().clone()),
    );
    for stop in [Stop::Optimal, Stop::First, Stop::Within(1.5)] {
        check("eps", &mut EpsPlanner::new(&grid, eps.clone(), stop));
    }
}

/// Mesh points that are not points of the mesh of `small.map`.
fn off_mesh_points() -> Vec<MeshPoint> {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let mut v: Vec<MeshPoint> = [
        (nan, 0.5),
        (0.5, nan),
        (nan, nan),
        (inf, 0.5),
        (-inf, 0.5),
        (0.5, inf),
        (0.5, -inf),
        (1e300, 0.5),
        (0.5, -1e300),
        (f64::MAX, f64::MAX),
        (f64::MIN, 0.0),
        (-0.5, 0.5),
        (8.5, 0.5),
        (0.5, 6.0000001),
        // Inside the blocked cells (1, 1) and (6, 1).
        (1.5, 1.5),
        (6.5, 1.25),
        // A lattice point every one of whose cells is blocked: (2, 2), inside the @@@ block.
        (2.0, 2.0),
    ]
    .iter()
    .map(|&(x, y)| MeshPoint::new(x, y))
    .collect();
    v.push(MeshPoint::new(-f64::MIN_POSITIVE, 0.0));
    v
}

const IN: MeshPoint = MeshPoint::new(0.5, 0.5);

#[test]
fn mesh_searches_refuse_points_off_the_mesh() {
    let grid = small();
    let eps = eps_of(&grid);
    let mesh = eps.mesh().clone();
    let mut ctx = SearchContext::new();
    let mut ectx = EpsContext::new();
    let mut out = MeshAnswer::default();
    let ambiguities = [Ambiguity::Refuse, Ambiguity::Towards(1.0, 1.0)];
    for p in off_mesh_points() {
        for (s, t, which) in [(p, IN, End::Start), (IN, p, End::Goal)] {
            for amb in ambiguities {
                let options = Options {
                    ambiguity: amb,
                    ..Options::default()
                };
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    ctx.search(&mesh, s, t, &options, &mut out)
                }))
                .unwrap_or_else(|_| panic!("polyanya {s:?} -> {t:?} panicked"));
                assert!(
                    matches!(r, Err(MeshQueryError::OffMesh { which: w, .. }) if w == which),
                    "polyanya {s:?} -> {t:?} ({amb:?}): {r:?}"
                );
                for stop in [Stop::Optimal, Stop::First, Stop::Within(2.0)] {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        ectx.search(&eps, s, t, stop, amb, &mut out)
                    }))
                    .unwrap_or_else(|_| panic!("eps {s:?} -> {t:?} panicked"));
                    assert!(
                        matches!(r, Err(MeshQueryError::OffMesh { which: w, .. }) if w == which),
                        "eps {s:?} -> {t:?} ({amb:?}, {stop:?}): {r:?}"
                    );
                }
            }
        }
    }
}

/// A stopping factor that is not a number at least 1 cannot make the search stop early: it
/// runs to the optimum (the same length as `Stop::Optimal`), never panics or loops.
#[test]
fn eps_with_a_meaningless_stopping_factor_runs_to_the_optimum() {
    let grid = small();
    let eps = eps_of(&grid);
    let mut ctx = EpsContext::new();
    let mut out = MeshAnswer::default();
    let (s, t) = (MeshPoint::new(0.0, 0.0), MeshPoint::new(7.0, 5.0));
    ctx.search(&eps, s, t, Stop::Optimal, Ambiguity::Refuse, &mut out)
        .unwrap();
    let best = out.length;
    for q in [f64::NAN, 0.5, 0.0, -1.0, f64::NEG_INFINITY] {
        let r = ctx.search(&eps, s, t, Stop::Within(q), Ambiguity::Refuse, &mut out);
        assert_eq!(r, Ok(Status::Found), "{q}");
        assert!(
            (out.length - best).abs() < 1e-9,
            "{q}: {} vs {best}",
            out.length
        );
    }
}
