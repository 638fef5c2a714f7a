//! The adapter between grid queries and mesh searches, written once for every mesh planner
//! (Polyanya in `taut-polyanya`, End Point Search in `taut-cpd`).
//!
//! A mesh of a grid's free space has the grid's lattice coordinates (built by
//! [`crate::mesh_from_grid`], or read from a reference mesh of the same map). A grid query on
//! it follows the grid's rules (`docs/conventions.md`):
//! - both endpoints are validated against the grid first ([`taut_grid::begin_query`]): off the
//!   map or on a blocked cell is a [`QueryError`], never "no path";
//! - a lattice point is the mesh point with the same coordinates ([`lattice_point`]);
//! - an endpoint on a double corner belongs to its own, south-east cell
//!   ([`SOUTH_EAST`]): two obstacles touch there, and a mesh would otherwise not know which
//!   side the path leaves or enters by.

use taut_grid::{Answer, Endpoint, Grid, Point, QueryError, Status, begin_query};

use crate::error::{End, MeshQueryError};
use crate::geom::MeshPoint;
use crate::interval::MeshAnswer;
use crate::mesh::Ambiguity;

/// The south-east endpoint rule as a mesh [`Ambiguity`]: a start or goal on a vertex where
/// obstacles touch belongs to the polygons in the direction `(1, 1)`, i.e. the cell whose
/// top-left corner it is.
pub const SOUTH_EAST: Ambiguity = Ambiguity::Towards(1.0, 1.0);

/// The mesh point of lattice point `p`.
#[inline]
pub fn lattice_point(p: Point) -> MeshPoint {
    MeshPoint::new(f64::from(p.x), f64::from(p.y))
}

/// Answers the grid query `start -> goal` with a mesh search: validates both ends on `grid`
/// and answers `start == goal` itself ([`begin_query`]); otherwise calls
/// `search(start, goal, SOUTH_EAST, answer)` with the ends as mesh points, and copies its
/// outcome into `out`: the statistics, and the path (lattice points: grid meshes have integer
/// vertices and every turning point is a vertex) and length when found.
///
/// # Errors
/// The [`QueryError`] of [`begin_query`]; an end the grid accepts but the mesh does not cover
/// (a mesh that does not match the grid) is reported as [`QueryError::Blocked`], and `out` is
/// cleared.
#[inline]
pub fn grid_query(
    grid: &Grid,
    start: Point,
    goal: Point,
    answer: &mut MeshAnswer,
    out: &mut Answer,
    search: impl FnOnce(
        MeshPoint,
        MeshPoint,
        Ambiguity,
        &mut MeshAnswer,
    ) -> Result<Status, MeshQueryError>,
) -> Result<Status, QueryError> {
    if let Some(done) = begin_query(grid, start, goal, out)? {
        return Ok(done);
    }
    let r = search(
        lattice_point(start),
        lattice_point(goal),
        SOUTH_EAST,
        answer,
    );
    out.stats = answer.stats;
    match r {
        Ok(Status::Found) => {
            out.waypoints.extend(
                answer
                    .waypoints
                    .iter()
                    .map(|p| Point::new(p.x as i32, p.y as i32)),
            );
            out.length = answer.length;
            Ok(Status::Found)
        }
        Ok(Status::Unreachable) => Ok(Status::Unreachable),
        Err(e) => {
            out.clear();
            Err(grid_error(e, start, goal))
        }
    }
}

/// The grid error for a mesh's refusal of a grid query's end: [`QueryError::Blocked`] naming
/// the end (the grid accepted it, so the mesh does not cover that point).
pub fn grid_error(e: MeshQueryError, start: Point, goal: Point) -> QueryError {
    let (MeshQueryError::OffMesh { which, .. } | MeshQueryError::Ambiguous { which, .. }) = e;
    let (which, point) = match which {
        End::Start => (Endpoint::Start, start),
        End::Goal => (Endpoint::Goal, goal),
    };
    QueryError::Blocked { which, point }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::mesh_from_grid;

    #[test]
    fn a_straight_grid_query_is_answered_through_the_mesh() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let (mut answer, mut out) = (MeshAnswer::default(), Answer::default());
        let (s, t) = (Point::new(0, 0), Point::new(3, 2));
        let r = grid_query(&grid, s, t, &mut answer, &mut out, |a, b, amb, ans| {
            assert_eq!(
                (a, b, amb),
                (lattice_point(s), lattice_point(t), SOUTH_EAST)
            );
            ans.clear();
            ans.waypoints.extend([a, b]);
            ans.length = a.dist(b);
            ans.stats.expanded = 7;
            Ok(Status::Found)
        });
        assert_eq!(r, Ok(Status::Found));
        assert_eq!(out.waypoints, [s, t]);
        assert_eq!(out.stats.expanded, 7);
        assert!((out.length - 13f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn grid_errors_come_first_and_mesh_refusals_become_blocked_ends() {
        let grid = Grid::from_ascii(&["..", ".."]).unwrap();
        let mesh = mesh_from_grid(&grid).unwrap();
        assert_eq!(mesh.area(), 4.0);
        let (mut answer, mut out) = (MeshAnswer::default(), Answer::default());
        let never = |_: MeshPoint,
                     _: MeshPoint,
                     _: Ambiguity,
                     _: &mut MeshAnswer|
         -> Result<Status, MeshQueryError> {
            panic!("the grid refuses this query before any search")
        };
        let off = grid_query(
            &grid,
            Point::new(0, 0),
            Point::new(5, 0),
            &mut answer,
            &mut out,
            never,
        );
        assert!(matches!(off, Err(QueryError::OffMap { .. })), "{off:?}");
        let refused = grid_query(
            &grid,
            Point::new(0, 0),
            Point::new(1, 1),
            &mut answer,
            &mut out,
            |_, b, _, _| {
                Err(MeshQueryError::OffMesh {
                    which: End::Goal,
                    point: b,
                })
            },
        );
        assert_eq!(
            refused,
            Err(QueryError::Blocked {
                which: Endpoint::Goal,
                point: Point::new(1, 1)
            })
        );
        assert!(out.waypoints.is_empty() && out.length.is_infinite());
    }
}
