//! Shared test support: random grids, the unit-cell mesh of a grid, brute-force corners.
#![allow(dead_code)]

use proptest::prelude::*;
use taut_grid::{Grid, Point};
use taut_mesh::{Mesh, MeshPoint};

/// A random grid: size, obstacle density, one weighted coin per cell.
pub fn random_grid(max: u32) -> impl Strategy<Value = Grid> {
    (1u32..=max, 1u32..=max, 0.0f64..0.6).prop_flat_map(|(w, h, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize)
            .prop_map(move |blocked| Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize]))
    })
}

/// A grid with many double corners: a checkerboard of blocks with random holes.
pub fn double_corner_grid() -> impl Strategy<Value = Grid> {
    (2u32..=14, 2u32..=14, 1u32..=2).prop_flat_map(|(w, h, cell)| {
        proptest::collection::vec(proptest::bool::weighted(0.15), (w * h) as usize).prop_map(
            move |holes| {
                Grid::from_fn(w, h, |x, y| {
                    let checker = ((x / cell) + (y / cell)) % 2 == 0;
                    checker || holes[(y * w + x) as usize]
                })
            },
        )
    })
}

/// One unit square per free cell: full of collinear vertices and ambiguous double corners,
/// and independent of the mesh builder.
pub fn cell_mesh(g: &Grid) -> Option<Mesh> {
    let (w, h) = (g.width(), g.height());
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| MeshPoint::new(f64::from(x), f64::from(y))))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if g.is_free(x, y) {
                polys.push(vec![id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1)]);
            }
        }
    }
    if polys.is_empty() {
        return None;
    }
    Some(Mesh::new(points, &polys).expect("cell mesh is valid"))
}

/// Lattice points where a path can turn on a grid: exactly one of the four cells around is
/// blocked (cells off the map count as blocked).
pub fn grid_corners(g: &Grid) -> Vec<Point> {
    let free =
        |x: i32, y: i32| x >= 0 && y >= 0 && x < g.width() && y < g.height() && g.is_free(x, y);
    let mut v = Vec::new();
    for y in 0..=g.height() {
        for x in 0..=g.width() {
            let n = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                .iter()
                .filter(|&&(a, b)| free(a, b))
                .count();
            if n == 3 {
                v.push(Point::new(x, y));
            }
        }
    }
    v
}

/// Lattice points whose south-east cell is free: the valid query points of a grid.
pub fn free_points(g: &Grid) -> Vec<Point> {
    let mut v = Vec::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            if g.is_free(x, y) {
                v.push(Point::new(x, y));
            }
        }
    }
    v
}

/// The lattice point at a mesh point with integer coordinates.
pub fn lattice(p: MeshPoint) -> Point {
    Point::new(p.x as i32, p.y as i32)
}

/// The fixture map arena with its mesh and CPD (built here, in memory), and its scenario's
/// queries as mesh points.
pub fn arena_eps() -> (std::sync::Arc<taut_cpd::Eps>, Vec<(MeshPoint, MeshPoint)>) {
    use std::sync::Arc;
    use taut_cpd::{BuildParams, Corners, Cpd, Eps, Graph, NoProgress, mesh_hash};
    use taut_grid::{FreeSet, MapFile, Scenario};
    use taut_testdata::fixtures;
    let grid = Grid::from_map(
        &MapFile::read(fixtures().join("maps/arena.map")).unwrap(),
        &FreeSet::default(),
    );
    let mesh = Arc::new(taut_mesh::mesh_from_grid(&grid).unwrap());
    let corners = Corners::of(&mesh);
    let graph = Graph::build(&mesh, &corners).unwrap();
    let cpd = Cpd::from_graph(
        graph,
        mesh_hash(&mesh),
        &BuildParams::default(),
        &NoProgress,
    );
    let eps = Arc::new(Eps::new(mesh, Arc::new(cpd)).unwrap());
    let scen = Scenario::read(fixtures().join("maps/arena.map.scen")).unwrap();
    let p = |q: Point| MeshPoint::new(f64::from(q.x), f64::from(q.y));
    let queries = scen
        .entries
        .iter()
        .map(|e| (p(e.start), p(e.goal)))
        .collect();
    (eps, queries)
}

/// A decoded CPD, however odd, answers every lookup (first move and whole path, every pair)
/// without panicking.
pub fn exercise(cpd: &taut_cpd::Cpd) {
    let n = cpd.graph().node_count() as u32;
    let mut out = Vec::new();
    for s in 0..n {
        for t in 0..n {
            let _ = cpd.first_move(s, t);
            let _ = cpd.path(s, t, &mut out);
        }
    }
}
