//! Exact line of sight and path legality (the rules of `docs/conventions.md`).
//!
//! A straight segment between lattice points is *legal* when it
//! 1. does not enter the interior of a blocked cell,
//! 2. does not run along an edge whose two cells are both blocked (off-map cells are blocked),
//! 3. does not pass through a double corner: a point strictly inside the segment where two
//!    blocked cells touch diagonally would let the path squeeze between them. (Every way
//!    through such a point either enters a blocked cell or crosses from one free side to the
//!    other; touching it at a segment's end is fine.)
//!
//! A *path* is legal when each segment is legal and, at each waypoint that is a double
//! corner, the path arrives and leaves on the same free side; a start or goal on a double
//! corner must use the south-east side (the cell whose top-left corner it is).
//!
//! Everything is integer arithmetic; nothing is approximated.

use num_integer::Integer;
use taut_geom::Point;

use crate::grid::{Grid, quad};

/// Why a path is illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PathViolation {
    /// The path has no waypoints.
    #[error("the path has no waypoints")]
    Empty,
    /// The first waypoint is not the start.
    #[error("the path starts at {found}, not at the start {start}")]
    WrongStart {
        /// Expected start.
        start: Point,
        /// First waypoint.
        found: Point,
    },
    /// The last waypoint is not the goal.
    #[error("the path ends at {found}, not at the goal {goal}")]
    WrongGoal {
        /// Expected goal.
        goal: Point,
        /// Last waypoint.
        found: Point,
    },
    /// Two consecutive waypoints are equal.
    #[error("segment {index} has zero length at {at}")]
    Repeated {
        /// Index of the segment (0 = from waypoint 0 to 1).
        index: usize,
        /// The repeated point.
        at: Point,
    },
    /// A segment is blocked (enters a blocked cell, runs between two, passes a double corner).
    #[error("segment {index} from {from} to {to} is blocked")]
    Blocked {
        /// Index of the segment.
        index: usize,
        /// Its start.
        from: Point,
        /// Its end.
        to: Point,
    },
    /// The path turns at a double corner from one free side to the other.
    #[error("the path crosses the double corner {at} at waypoint {index}")]
    CrossesDoubleCorner {
        /// Index of the waypoint.
        index: usize,
        /// The double corner.
        at: Point,
    },
    /// A start or goal on a double corner is left or entered on the north-west side.
    #[error("the path leaves or enters the double-corner endpoint {at} away from its own cell")]
    EndpointQuadrant {
        /// The endpoint.
        at: Point,
    },
}

use crate::grid::quad::double_corner_side as side_of;

impl Grid {
    /// Whether the straight segment from `a` to `b` is legal (exact). `a == b` is legal when the
    /// point touches a free cell. Points off the map's closed rectangle are never legal.
    pub fn segment_is_legal(&self, a: Point, b: Point) -> bool {
        if !self.contains_point(a) || !self.contains_point(b) {
            return false;
        }
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0 && dy == 0 {
            return self.is_traversable_point(a);
        }
        if dy == 0 {
            // Along the horizontal line y: each unit edge needs a free cell above or below.
            let (x0, x1) = if dx > 0 { (a.x, b.x) } else { (b.x, a.x) };
            let y = a.y;
            for x in x0..x1 {
                if !self.is_free_padded(x, y - 1) && !self.is_free_padded(x, y) {
                    return false;
                }
                if x > x0 && self.is_double_corner(Point::new(x, y)) {
                    return false;
                }
            }
            return true;
        }
        if dx == 0 {
            let (y0, y1) = if dy > 0 { (a.y, b.y) } else { (b.y, a.y) };
            let x = a.x;
            for y in y0..y1 {
                if !self.is_free_padded(x - 1, y) && !self.is_free_padded(x, y) {
                    return false;
                }
                if y > y0 && self.is_double_corner(Point::new(x, y)) {
                    return false;
                }
            }
            return true;
        }
        // General case: walk the columns from left to right. Within column strip [c, c+1] the
        // segment's y runs over the open interval between y(c) and y(c+1), so it enters the
        // interior of exactly the cells (c, r) with floor(lo) <= r < ceil(hi).
        let (p, q) = if dx > 0 { (a, b) } else { (b, a) };
        let (dx, dy) = (i64::from(q.x - p.x), i64::from(q.y - p.y));
        // y(c) = num(c) / dx with num(c) = p.y*dx + (c - p.x)*dy.
        let num = |c: i32| i64::from(p.y) * dx + i64::from(c - p.x) * dy;
        for c in p.x..q.x {
            let (n0, n1) = (num(c), num(c + 1));
            let (lo, hi) = if n0 < n1 { (n0, n1) } else { (n1, n0) };
            let r0 = lo.div_euclid(dx) as i32; // floor(lo / dx), dx > 0
            let r1 = -((-hi).div_euclid(dx)) as i32; // ceil(hi / dx)
            for r in r0..r1 {
                if !self.is_free_padded(c, r) {
                    return false;
                }
            }
        }
        // Lattice points strictly inside the segment must not be double corners.
        let g = dx.gcd(&dy.abs());
        let (sx, sy) = ((dx / g) as i32, (dy / g) as i32);
        for k in 1..g as i32 {
            if self.is_double_corner(Point::new(p.x + k * sx, p.y + k * sy)) {
                return false;
            }
        }
        true
    }

    /// [`Grid::segment_is_legal`] computed incrementally: the same answer, with no division
    /// per column (the segment's row at each column boundary is carried as a floor and a
    /// remainder), and lattice points on the segment found on the way instead of through a
    /// gcd. Cost: one cell lookup per cell the segment enters. Planners use it to test
    /// whether the goal is directly visible before searching.
    pub fn line_of_sight(&self, a: Point, b: Point) -> bool {
        if a.x == b.x || a.y == b.y || !self.contains_point(a) || !self.contains_point(b) {
            return self.segment_is_legal(a, b);
        }
        let (p, q) = if a.x < b.x { (a, b) } else { (b, a) };
        let dx = q.x - p.x;
        let dy = q.y - p.y;
        // y at column boundary c is p.y + (c - p.x) * dy / dx = f + m / dx, 0 <= m < dx.
        let (sq, sr) = (dy.div_euclid(dx), dy.rem_euclid(dx));
        let (mut f, mut m) = (p.y, 0);
        for c in p.x..q.x {
            if c > p.x && m == 0 && self.is_double_corner(Point::new(c, f)) {
                // A lattice point strictly inside the segment.
                return false;
            }
            let (f0, m0) = (f, m);
            f += sq;
            m += sr;
            if m >= dx {
                m -= dx;
                f += 1;
            }
            // The open y-interval over column c enters rows floor(lo) .. ceil(hi) - 1.
            let (r0, r1) = if dy > 0 {
                (f0, f + i32::from(m > 0))
            } else {
                (f, f0 + i32::from(m0 > 0))
            };
            for r in r0..r1 {
                if !self.is_free_padded(c, r) {
                    return false;
                }
            }
        }
        true
    }

    /// Checks a path from `start` to `goal` against every rule of `docs/conventions.md`.
    ///
    /// `path` lists the waypoints from start to goal inclusive; for `start == goal` it is the
    /// single point `[start]`. The endpoints themselves must be valid query endpoints (checked
    /// separately by [`Grid::check_query`]); this function checks the geometry.
    pub fn check_path(
        &self,
        start: Point,
        goal: Point,
        path: &[Point],
    ) -> Result<(), PathViolation> {
        let (&first, &last) = match (path.first(), path.last()) {
            (Some(f), Some(l)) => (f, l),
            _ => return Err(PathViolation::Empty),
        };
        if first != start {
            return Err(PathViolation::WrongStart {
                start,
                found: first,
            });
        }
        if last != goal {
            return Err(PathViolation::WrongGoal { goal, found: last });
        }
        for (index, w) in path.windows(2).enumerate() {
            if w[0] == w[1] {
                return Err(PathViolation::Repeated { index, at: w[0] });
            }
            if !self.segment_is_legal(w[0], w[1]) {
                return Err(PathViolation::Blocked {
                    index,
                    from: w[0],
                    to: w[1],
                });
            }
        }
        let delta = |from: Point, to: Point| Point::new(to.x - from.x, to.y - from.y);
        // Intermediate double corners: arrive and leave on the same free side.
        for (i, w) in path.windows(3).enumerate() {
            let at = w[1];
            let m = self.point_cells(at);
            if self.is_double_corner(at)
                && side_of(m, delta(at, w[0])) != side_of(m, delta(at, w[2]))
            {
                return Err(PathViolation::CrossesDoubleCorner { index: i + 1, at });
            }
        }
        // Endpoints on a double corner use the south-east side.
        if path.len() >= 2 {
            let ends = [(start, path[1]), (goal, path[path.len() - 2])];
            for (at, next) in ends {
                if self.is_double_corner(at)
                    && side_of(self.point_cells(at), delta(at, next)) != quad::SE
                {
                    return Err(PathViolation::EndpointQuadrant { at });
                }
            }
        }
        Ok(())
    }

    /// Whether a path may leave (or enter) the endpoint `at` towards `next` as its first (or
    /// last) segment: always, unless `at` is a double corner and `next` is not on its
    /// south-east side. Planners use this to honour the double-corner endpoint rule.
    #[inline]
    pub fn endpoint_allows(&self, at: Point, next: Point) -> bool {
        !self.is_double_corner(at)
            || side_of(
                self.point_cells(at),
                Point::new(next.x - at.x, next.y - at.y),
            ) == quad::SE
    }

    /// Whether a path arriving at the double corner `at` from `prev` may continue to `next`
    /// (true for any point that is not a double corner).
    #[inline]
    pub fn turn_allowed(&self, prev: Point, at: Point, next: Point) -> bool {
        if !self.is_double_corner(at) {
            return true;
        }
        let m = self.point_cells(at);
        side_of(m, Point::new(prev.x - at.x, prev.y - at.y))
            == side_of(m, Point::new(next.x - at.x, next.y - at.y))
    }
}

/// The Euclidean length of a polyline.
pub fn path_length(path: &[Point]) -> f64 {
    path.windows(2).map(|w| w[0].dist(w[1])).sum()
}

/// The absolute tolerance within which two lengths of the same path model are equal, in
/// cells: every comparison of a length with a reference optimum, with another planner's, or
/// with [`path_length`] of its own waypoints uses it (`docs/conventions.md`). Lengths are sums
/// of `f64` square roots of exact lattice distances, so independent optimal planners agree to
/// about 1e-10 on maps of thousands of cells; the reference data is written with 8 decimals.
pub const LENGTH_TOLERANCE: f64 = 1e-6;

/// Whether two lengths are equal within [`LENGTH_TOLERANCE`] (two infinities are equal: both
/// say "no path").
#[inline]
pub fn lengths_agree(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= LENGTH_TOLERANCE
}
