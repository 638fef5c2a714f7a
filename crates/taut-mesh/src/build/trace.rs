//! Tracing a grid's free-space boundary into maximal segments.
//!
//! Look at the four cells around a lattice point (outside the map counts as blocked). With
//! none or all of them free, no boundary passes there; with two free cells side by side, a
//! straight boundary passes through and the point is not a vertex. Every other pattern makes
//! the point a vertex: one or three free cells (a convex or reflex corner, where two boundary
//! edges meet) or two diagonally opposite free cells (a double corner, where all four unit
//! edges are boundary edges, so four segments meet: the two obstacles share the vertex).
//!
//! So boundary edges run straight through non-vertices, and a maximal segment goes from one
//! vertex to the next vertex along a lattice line. One row-major sweep over the lattice points
//! finds them all: a horizontal segment ends at a vertex whose left unit edge is a boundary
//! edge and starts at one whose right unit edge is; vertical segments are tracked the same way,
//! one open segment per column. Segments never cross and meet only at their endpoints.

use taut_grid::{Grid, Point, quad};

use crate::geom::MeshPoint;

/// The vertices (row-major order of their lattice points) and the segments between them.
pub(super) struct Traced {
    pub points: Vec<MeshPoint>,
    pub segments: Vec<[usize; 2]>,
}

/// Traces the boundary of `grid`'s free space.
pub(super) fn trace_grid(grid: &Grid) -> Traced {
    trace_window(grid, [0, 0, grid.width(), grid.height()])
}

/// Traces the part of `grid`'s free-space boundary inside the lattice window
/// `[x0, y0, x1, y1]` (inclusive): every vertex in it, and every segment with both ends in it.
/// A segment that leaves the window is left out (vertex status is read from the whole grid, so
/// the vertices are the grid's own).
pub(super) fn trace_window(grid: &Grid, [x0, y0, x1, y1]: [i32; 4]) -> Traced {
    const NONE: usize = usize::MAX;
    let full = [x0, y0, x1, y1] == [0, 0, grid.width(), grid.height()];
    let mut points = Vec::new();
    let mut segments = Vec::new();
    // The vertex where the vertical segment running down column x started, if one is open.
    let mut open_down = vec![NONE; (x1 - x0) as usize + 1];
    for y in y0..=y1 {
        let mut open_right = NONE;
        for x in x0..=x1 {
            let m = grid.point_cells_padded(Point::new(x, y));
            if !is_vertex(m) {
                continue;
            }
            let bit = |b: u8| m & b != 0;
            let left = bit(quad::NW) != bit(quad::SW);
            let right = bit(quad::NE) != bit(quad::SE);
            let up = bit(quad::NW) != bit(quad::NE);
            let down = bit(quad::SW) != bit(quad::SE);
            let v = points.len();
            points.push(MeshPoint::new(f64::from(x), f64::from(y)));
            let column = (x - x0) as usize;
            if left {
                if open_right != NONE {
                    segments.push([open_right, v]);
                } else {
                    debug_assert!(!full, "a segment without a start at ({x}, {y})");
                }
            }
            open_right = if right { v } else { NONE };
            if up {
                if open_down[column] != NONE {
                    segments.push([open_down[column], v]);
                } else {
                    debug_assert!(!full, "a segment without a start at ({x}, {y})");
                }
            }
            open_down[column] = if down { v } else { NONE };
        }
    }
    Traced { points, segments }
}

/// Whether a lattice point with free-cell mask `m` is a vertex of the free-space boundary.
#[inline]
pub(super) fn is_vertex(m: u8) -> bool {
    match m.count_ones() {
        1 | 3 => true,
        2 => quad::is_double_corner(m),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_cell_is_a_square() {
        let g = Grid::from_ascii(&["..@", "@.@"]).unwrap();
        let t = trace_grid(&g);
        // Cells (0,0), (1,0), (1,1): an L of 6 corners, 6 segments.
        assert_eq!(t.points.len(), 6);
        assert_eq!(t.segments.len(), 6);
    }

    #[test]
    fn double_corner_has_four_segments() {
        let g = Grid::from_ascii(&[".@", "@."]).unwrap();
        let t = trace_grid(&g);
        // Two unit squares sharing the centre point (1,1): 7 vertices, 8 segments.
        assert_eq!(t.points.len(), 7);
        assert_eq!(t.segments.len(), 8);
        let centre = t
            .points
            .iter()
            .position(|&p| p == MeshPoint::new(1.0, 1.0))
            .unwrap();
        let at_centre = t.segments.iter().filter(|s| s.contains(&centre)).count();
        assert_eq!(at_centre, 4);
    }
}
