//! Grids in tests: their query points, their picture, the fixture maps with their scenarios,
//! and their meshes of one polygon (or two triangles) per free cell.

use taut_grid::{FreeSet, Grid, MapFile, Point, Scenario};
use taut_mesh::{Mesh, MeshPoint};

/// Every valid query point of `grid` (the top-left corner of a free cell), in row-major order.
pub fn free_points(grid: &Grid) -> Vec<Point> {
    let mut v = Vec::with_capacity(grid.free_cells() as usize);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if grid.is_free(x, y) {
                v.push(Point::new(x, y));
            }
        }
    }
    v
}

/// Queries spread over the free points of `grid` whatever its size: with `step` the number of
/// free points divided by `n` (at least 1), from every `step`-th free point `s` (the `i`-th)
/// to every `step`-th free point from the `(i mod 3)`-th on (start == goal included): about
/// `n²` queries on a large grid, nearly all ordered pairs on a grid of at most `n` free points.
pub fn spread_queries(grid: &Grid, n: usize) -> Vec<(Point, Point)> {
    let pts = free_points(grid);
    let step = (pts.len() / n.max(1)).max(1);
    let mut queries = Vec::new();
    for (i, &s) in pts.iter().enumerate().step_by(step) {
        for &t in pts.iter().skip(i % 3).step_by(step) {
            queries.push((s, t));
        }
    }
    queries
}

/// The grid as text, one row per line, `.` free and `@` blocked: for failure messages (it
/// pastes back into [`Grid::from_ascii`]).
pub fn show(grid: &Grid) -> String {
    grid.to_ascii()
}

/// The fixture map `fixtures/maps/{name}.map` (MovingAI terrain rules) and the queries of its
/// scenario `fixtures/maps/{name}.map.scen`, in order.
///
/// # Panics
/// When either file cannot be read (they are part of the repository).
pub fn fixture_queries(name: &str) -> (Grid, Vec<(Point, Point)>) {
    let maps = crate::fixtures().join("maps");
    let map_path = maps.join(format!("{name}.map"));
    let map = MapFile::read(&map_path).unwrap_or_else(|e| panic!("{}: {e}", map_path.display()));
    let scen_path = maps.join(format!("{name}.map.scen"));
    let scen =
        Scenario::read(&scen_path).unwrap_or_else(|e| panic!("{}: {e}", scen_path.display()));
    let queries = scen.entries.iter().map(|e| (e.start, e.goal)).collect();
    (Grid::from_map(&map, &FreeSet::default()), queries)
}

/// The mesh point at a lattice point.
pub fn mesh_point(p: Point) -> MeshPoint {
    MeshPoint::new(f64::from(p.x), f64::from(p.y))
}

/// Queries between lattice points as queries between the same points of a mesh.
pub fn mesh_queries(queries: &[(Point, Point)]) -> Vec<(MeshPoint, MeshPoint)> {
    queries
        .iter()
        .map(|&(s, t)| (mesh_point(s), mesh_point(t)))
        .collect()
}

/// The lattice point at a mesh point with integer coordinates (truncating the others).
pub fn lattice_point(p: MeshPoint) -> Point {
    Point::new(p.x as i32, p.y as i32)
}

/// The simplest mesh of a grid's free space: one unit square per free cell, on the lattice
/// points of the grid (all `(w + 1) × (h + 1)` of them, used or not). Independent of taut's
/// mesh builder, and full of collinear vertices and ambiguous double corners. `None` when no
/// cell is free.
///
/// # Panics
/// If `taut_mesh::Mesh::new` rejects the mesh (a defect of the mesh layer).
pub fn cell_mesh(grid: &Grid) -> Option<Mesh> {
    cells(grid, |[a, b, c, d], polys| polys.push(vec![a, b, c, d]))
}

/// Like [`cell_mesh`], but each free cell split into two triangles along its diagonal from
/// the top-left corner: `(x, y), (x+1, y), (x+1, y+1)` and `(x, y), (x+1, y+1), (x, y+1)`.
///
/// # Panics
/// If `taut_mesh::Mesh::new` rejects the mesh (a defect of the mesh layer).
pub fn cell_triangle_mesh(grid: &Grid) -> Option<Mesh> {
    cells(grid, |[a, b, c, d], polys| {
        polys.extend([vec![a, b, c], vec![a, c, d]]);
    })
}

/// The mesh on every lattice point of `grid` whose polygons `polygons` makes of each free
/// cell's corners (top-left, top-right, bottom-right, bottom-left).
fn cells(grid: &Grid, polygons: impl Fn([u32; 4], &mut Vec<Vec<u32>>)) -> Option<Mesh> {
    let (w, h) = (grid.width(), grid.height());
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| mesh_point(Point::new(x, y))))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if grid.is_free(x, y) {
                let corners = [id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1)];
                polygons(corners, &mut polys);
            }
        }
    }
    if polys.is_empty() {
        return None;
    }
    Some(Mesh::new(points, &polys).expect("a cell mesh is valid"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_meshes_cover_the_free_cells() {
        let g = Grid::from_ascii(&["..@", ".@."]).unwrap();
        let squares = cell_mesh(&g).unwrap();
        assert_eq!((squares.vertex_count(), squares.polygon_count()), (12, 4));
        assert_eq!(squares.area(), 4.0);
        let triangles = cell_triangle_mesh(&g).unwrap();
        assert_eq!(triangles.polygon_count(), 8);
        assert_eq!(triangles.area(), 4.0);
        let blocked = Grid::from_ascii(&["@@"]).unwrap();
        assert!(cell_mesh(&blocked).is_none() && cell_triangle_mesh(&blocked).is_none());
    }

    #[test]
    fn points_and_queries() {
        let g = Grid::from_ascii(&[".@", ".."]).unwrap();
        let pts = free_points(&g);
        assert_eq!(pts, [Point::new(0, 0), Point::new(0, 1), Point::new(1, 1)]);
        // Few points: every ordered pair but those the `i mod 3` offset skips.
        let q = spread_queries(&g, 12);
        assert_eq!(q.len(), 3 + 2 + 1);
        assert!(q.contains(&(pts[2], pts[2])));
        assert_eq!(show(&g), ".@\n..\n");
        assert_eq!(
            lattice_point(mesh_point(Point::new(3, 4))),
            Point::new(3, 4)
        );
        let (arena, queries) = fixture_queries("arena");
        assert_eq!((arena.width(), queries.len()), (49, 130));
    }
}
