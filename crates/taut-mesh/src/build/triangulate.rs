//! The constrained Delaunay triangulation (spade) and the extraction of its free triangles.

use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
use taut_grid::Grid;

use super::BuildError;
use crate::geom::MeshPoint;

/// The triangulation type of the builders: plain points, no extra data.
pub(super) type Cdt = ConstrainedDelaunayTriangulation<Point2<f64>>;

/// No neighbour: an obstacle side, or a neighbour that is not free.
pub(super) const NONE: u32 = u32::MAX;

/// The free triangles, counter-clockwise, with their free neighbours: `neighbours[t][i]` is
/// the triangle across the edge from vertex `i` to vertex `i + 1` of triangle `t`, or [`NONE`].
pub(super) struct FreeTriangles {
    pub triangles: Vec<[u32; 3]>,
    pub neighbours: Vec<[u32; 3]>,
    /// Triangles of the whole triangulation.
    pub all_triangles: usize,
}

/// Triangulates `points` with the `segments` as constraint edges, asks `classify` which
/// triangles are free (a flag per face index, the outer face included), and returns those.
/// Vertex `i` of the triangulation is `points[i]`: the points must be distinct.
pub(super) fn triangulate(
    points: &[MeshPoint],
    segments: Vec<[usize; 2]>,
    classify: impl FnOnce(&Cdt) -> Result<Vec<bool>, BuildError>,
) -> Result<FreeTriangles, BuildError> {
    let vertices: Vec<Point2<f64>> = points.iter().map(|p| Point2::new(p.x, p.y)).collect();
    let mut conflict = None;
    let cdt = Cdt::try_bulk_load_cdt(vertices, segments, |e| {
        conflict.get_or_insert(e);
    })
    .map_err(|e| BuildError::Triangulation(e.to_string()))?;
    if let Some([a, b]) = conflict {
        return Err(BuildError::Triangulation(format!(
            "the obstacle side {} - {} crosses another",
            points[a], points[b]
        )));
    }
    if cdt.num_vertices() != points.len() {
        return Err(BuildError::Triangulation("duplicate vertices".into()));
    }
    let free = classify(&cdt)?;
    // Number the free faces, then link them.
    let mut index = vec![NONE; cdt.num_all_faces()];
    let mut triangles = Vec::new();
    for face in cdt.inner_faces() {
        let f = face.fix().index();
        if free[f] {
            index[f] = triangles.len() as u32;
            triangles.push(face.vertices().map(|v| v.fix().index() as u32));
        }
    }
    let mut neighbours = vec![[NONE; 3]; triangles.len()];
    for face in cdt.inner_faces() {
        let t = index[face.fix().index()];
        if t == NONE {
            continue;
        }
        for (i, e) in face.adjacent_edges().iter().enumerate() {
            if let Some(other) = e.rev().face().as_inner() {
                neighbours[t as usize][i] = index[other.fix().index()];
            }
        }
    }
    Ok(FreeTriangles {
        triangles,
        neighbours,
        all_triangles: cdt.num_inner_faces(),
    })
}

/// The free flag of every face of a grid's triangulation: a triangle is free when the cell
/// containing its centroid is. Exact: the vertices are integer points, so three times the
/// centroid is an integer point, and its cell is found by integer division. (A triangle lies
/// wholly in free space or wholly in an obstacle, and the cell whose closed square holds the
/// centroid meets the triangle's interior, so it has the triangle's kind.)
pub(super) fn classify_by_cell(cdt: &Cdt, grid: &Grid) -> Vec<bool> {
    let mut free = vec![false; cdt.num_all_faces()];
    for face in cdt.inner_faces() {
        let [a, b, c] = face.positions();
        let sx = (a.x + b.x + c.x) as i64;
        let sy = (a.y + b.y + c.y) as i64;
        let (cx, cy) = (sx.div_euclid(3), sy.div_euclid(3));
        free[face.fix().index()] = grid.is_free(cx as i32, cy as i32);
    }
    free
}
