//! Shared test support: brute-force corners, the arena's End Point Search, CPD exercise.
//! (Random grids, cell meshes and free points come from `taut_testdata`.)
#![allow(dead_code)]

use taut_grid::{Grid, Point};
use taut_mesh::MeshPoint;

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

/// The fixture map arena with its mesh and CPD (built here, in memory), and its scenario's
/// queries as mesh points.
pub fn arena_eps() -> (std::sync::Arc<taut_cpd::Eps>, Vec<(MeshPoint, MeshPoint)>) {
    use std::sync::Arc;
    use taut_cpd::graph::{Corners, Graph};
    use taut_cpd::{BuildParams, Cpd, Eps, NoProgress, mesh_hash};
    use taut_testdata::{fixture_queries, mesh_queries};
    let (grid, queries) = fixture_queries("arena");
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
    (eps, mesh_queries(&queries))
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
