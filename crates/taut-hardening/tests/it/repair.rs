//! Local mesh repair: after every random edit (single cells, rectangles up to 6 × 6, cells on the
//! map's edge, blocking and freeing, chains of repairs of repaired meshes), Polyanya on the
//! repaired mesh gives the status of Polyanya on a full rebuild of the edited grid and its
//! length to within 1e-9 (relative): the two meshes triangulate the same free space
//! differently, so equal-length paths may be summed in another order. Every repaired mesh is
//! also, field by field, the mesh `Mesh::new` makes of its own vertices and polygons: the patch
//! that re-derives only what changed derives what a whole build would.

use std::sync::Arc;

use proptest::prelude::*;
use taut::grid::{Answer, CellRect, Grid, Planner, Point, Status};
use taut::mesh::{BuildError, Mesh, mesh_from_grid, repair_mesh};
use taut::polyanya::PolyanyaPlanner;
use taut_hardening::maps::{Family, SplitMix, generate, queries};

/// One query's outcome, comparable up to rounding.
#[derive(Debug)]
enum Outcome {
    Found(f64),
    Other(Status),
    Error(String),
}

/// `Mesh::new` of `m`'s own vertices and polygons, which a patched mesh must equal.
fn renewed(m: &Mesh) -> Mesh {
    let polys: Vec<Vec<u32>> = (0..m.polygon_count() as u32)
        .map(|p| m.poly_vertices(p).to_vec())
        .collect();
    Mesh::new(m.points().to_vec(), &polys).expect("a repaired mesh is valid")
}

fn answer(grid: &Grid, mesh: &Arc<Mesh>, (s, t): (Point, Point)) -> Outcome {
    let mut p = PolyanyaPlanner::new(grid, Arc::clone(mesh));
    let mut a = Answer::default();
    match p.plan(s, t, &mut a) {
        Ok(Status::Found) => Outcome::Found(a.length),
        Ok(s) => Outcome::Other(s),
        Err(e) => Outcome::Error(e.to_string()),
    }
}

fn same(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Found(x), Outcome::Found(y)) => (x - y).abs() <= 1e-9 * x.max(1.0),
        (Outcome::Other(x), Outcome::Other(y)) => x == y,
        (Outcome::Error(x), Outcome::Error(y)) => x == y,
        _ => false,
    }
}

/// A random edit of `grid`: a cell or a rectangle (sometimes on the map's edge), blocked or
/// freed.
fn random_edit(grid: &Grid, rng: &mut SplitMix) -> (CellRect, bool) {
    let (w, h) = (grid.width(), grid.height());
    let rw = 1 + rng.below(6.min(w as u64)) as i32;
    let rh = 1 + rng.below(6.min(h as u64)) as i32;
    let (rw, rh) = if rng.chance(40) { (1, 1) } else { (rw, rh) };
    let mut x0 = rng.below((w - rw + 1) as u64) as i32;
    let mut y0 = rng.below((h - rh + 1) as u64) as i32;
    if rng.chance(20) {
        x0 = if rng.chance(50) { 0 } else { w - rw };
    }
    if rng.chance(20) {
        y0 = if rng.chance(50) { 0 } else { h - rh };
    }
    (CellRect::new(x0, y0, rw, rh), rng.chance(55))
}

/// Runs `edits` random edits on a `family` map, repairing the mesh after each and comparing
/// with a rebuild; returns how many queries were compared.
fn check(family: Family, side: u32, seed: u64, edits: usize, per_edit: usize) -> usize {
    let mut grid = generate(family, side, side, seed);
    let mut rng = SplitMix::new(seed ^ 0xed17);
    let Ok(mut mesh) = mesh_from_grid(&grid).map(Arc::new) else {
        return 0;
    };
    let mut compared = 0;
    for e in 0..edits {
        let (rect, blocked) = random_edit(&grid, &mut rng);
        if grid.set_rect(rect, blocked).expect("on the map") == 0 {
            continue;
        }
        let rebuilt = match mesh_from_grid(&grid) {
            Ok(m) => Arc::new(m),
            Err(BuildError::NoFreeSpace) => {
                assert!(matches!(
                    repair_mesh(&mesh, &grid, rect),
                    Err(BuildError::NoFreeSpace)
                ));
                return compared;
            }
            Err(e) => panic!("rebuild: {e}"),
        };
        let repaired = match repair_mesh(&mesh, &grid, rect) {
            Ok((m, _)) => {
                assert!(
                    m == renewed(&m),
                    "{family:?} {side} seed {seed} edit {e}: patch differs"
                );
                Arc::new(m)
            }
            Err(err) => panic!(
                "{family:?} {side} seed {seed} edit {e} {rect:?} blocked={blocked}: {err}\n{}",
                grid.to_ascii()
            ),
        };
        assert_eq!(repaired.area(), rebuilt.area());
        for q in queries(&grid, per_edit, seed ^ e as u64) {
            let (a, b) = (answer(&grid, &repaired, q), answer(&grid, &rebuilt, q));
            assert!(
                same(&a, &b),
                "{family:?} {side} seed {seed} edit {e} {rect:?} blocked={blocked} query {q:?}: \
                 repaired {a:?}, rebuilt {b:?}\n{}",
                grid.to_ascii()
            );
            compared += 1;
        }
        mesh = repaired;
    }
    compared
}

/// Every family of generated maps, a chain of 12 repairs each.
#[test]
fn repaired_meshes_answer_as_rebuilt_ones() {
    let families = [
        Family::Random,
        Family::Checkerboard,
        Family::DiagonalWalls,
        Family::Corridors,
        Family::Rooms,
        Family::AllFree,
        Family::Strip,
    ];
    let mut compared = 0;
    for (i, &family) in families.iter().enumerate() {
        for seed in 0..6u64 {
            compared += check(
                family,
                20 + 7 * (seed as u32 % 3),
                seed * 31 + i as u64,
                12,
                12,
            );
        }
    }
    assert!(compared > 3_000, "only {compared} queries compared");
}

/// On a larger map the repair stays local: a single cell removes a few polygons of thousands,
/// and a chain of 30 edits still answers as a rebuild.
#[test]
fn repairs_are_local_on_larger_maps() {
    let mut grid = generate(Family::Random, 96, 96, 5);
    let mut mesh = Arc::new(mesh_from_grid(&grid).unwrap());
    let mut rng = SplitMix::new(77);
    for e in 0..30 {
        let (x, y) = (rng.below(96) as i32, rng.below(96) as i32);
        let rect = CellRect::cell(x, y);
        if grid.set_rect(rect, grid.is_free(x, y)).unwrap() == 0 {
            continue;
        }
        let (m, stats) = repair_mesh(&mesh, &grid, rect).unwrap();
        assert!(m == renewed(&m), "edit {e}: patch differs from Mesh::new");
        assert!(
            stats.removed * 20 < mesh.polygon_count(),
            "edit {e}: {} of {} polygons removed",
            stats.removed,
            mesh.polygon_count()
        );
        mesh = Arc::new(m);
    }
    let rebuilt = Arc::new(mesh_from_grid(&grid).unwrap());
    for q in queries(&grid, 300, 9) {
        let (a, b) = (answer(&grid, &mesh, q), answer(&grid, &rebuilt, q));
        assert!(same(&a, &b), "{q:?}: repaired {a:?}, rebuilt {b:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn repair_chains_on_random_maps(seed in any::<u64>(), side in 4u32..28) {
        check(Family::Random, side, seed, 8, 8);
    }
}

/// A mesh of another grid is refused (typed) when the difference shows in the repair: here
/// the old mesh lacks a cell far from the change that the grid has free.
#[test]
fn a_mesh_of_another_grid_is_refused() {
    let rows_a = [
        "..........@.........",
        "..........@.........",
        "..........@.....@...",
        "..........@.........",
        "....................",
    ];
    let mut rows_b = rows_a;
    rows_b[2] = "..........@.........";
    let a = Grid::from_ascii(&rows_a).unwrap();
    let mut b = Grid::from_ascii(&rows_b).unwrap();
    let mesh = mesh_from_grid(&a).unwrap();
    b.set_blocked(3, 1, true).unwrap();
    let r = repair_mesh(&mesh, &b, CellRect::cell(3, 1));
    assert!(matches!(r, Err(BuildError::RepairMismatch(_))), "{r:?}");
}

/// A [`World`] repairs the built mesh of its last version instead of building afresh (also
/// across versions nobody asked a mesh of), and Polyanya on it answers as on a fresh map.
#[test]
fn a_world_repairs_its_mesh_between_versions() {
    use taut::registry::MeshChoice;
    use taut::{Map, World};
    let grid = generate(Family::Rooms, 64, 64, 3);
    let world = World::new(grid);
    let spec = "polyanya".parse().unwrap();
    let mut planner = world.planner(&spec).unwrap();
    let mut rng = SplitMix::new(11);
    let mut repaired = 0;
    for round in 0..24 {
        // One or two edits per round: the second (next to the first, so that the changes'
        // bounding rectangle stays small) makes a version whose mesh is never built.
        let (x, y) = (rng.below(63) as i32, rng.below(64) as i32);
        for dx in 0..1 + round as i32 % 2 {
            let free = world.map().grid().is_free(x + dx, y);
            world.set_blocked(x + dx, y, free).unwrap();
        }
        let fresh = Map::new(world.map().grid().as_ref().clone());
        let mut fresh_planner = fresh.planner(&spec).unwrap();
        for q in queries(world.map().grid(), 10, round) {
            let (mut a, mut b) = (Answer::default(), Answer::default());
            let ra = planner.plan(q.0, q.1, &mut a).map_err(|e| e.to_string());
            let rb = fresh_planner
                .plan(q.0, q.1, &mut b)
                .map_err(|e| e.to_string());
            assert_eq!(ra, rb, "round {round} {q:?}");
            if ra == Ok(Status::Found) {
                assert!((a.length - b.length).abs() <= 1e-9 * a.length.max(1.0));
            }
        }
        let prepared = planner.map().mesh_if_ready(MeshChoice::Built).unwrap();
        repaired += usize::from(prepared.repaired.is_some());
    }
    assert_eq!(repaired, 24, "every version's mesh repaired");
    // Changes over a quarter of the map are built afresh.
    world.set_rect(CellRect::new(0, 0, 40, 40), true).unwrap();
    let mut a = Answer::default();
    let _ = planner.plan(Point::new(50, 50), Point::new(60, 60), &mut a);
    let prepared = planner.map().mesh_if_ready(MeshChoice::Built).unwrap();
    assert!(prepared.repaired.is_none());
}
