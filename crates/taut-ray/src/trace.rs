//! Following the boundary of the free space from where a ray stopped, to the first point where
//! it turns away from the viewer (a *turning point*) or leaves the sector being swept.
//!
//! The walk keeps the blocked cells on one hand and free space on the other, one unit edge at a
//! step. Blocked cells that touch diagonally belong to one obstacle (the path may not squeeze
//! between them), so at a double corner the walk turns round its own free cell. Seen from the
//! viewer `u`, a walk in direction `dir` (`±1`) moves so that `(v - u) × step` has the sign of
//! `dir` while the boundary faces `u`; the first step whose sign is opposite marks a turning
//! point (after steps along the line of sight, the farthest vertex of that line).

use taut_grid::{Grid, Point};

use crate::cast::Stop;
use crate::geom::{HEADINGS, V, cross, dot, left, quad_free, right, sub};

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// The boundary left the sector (reached its far bound) while still facing the viewer.
    Exit,
    /// The boundary turns away from the viewer at this vertex.
    Turn(Point),
}

/// The next heading of a walk that arrived at `v` heading `h`, blocked cells on the hand of
/// `dir` (`+1`: on the left on screen, `-1`: on the right).
#[inline(always)]
fn next_heading(grid: &Grid, v: Point, h: usize, dir: i64) -> usize {
    let (ob, fr) = if dir > 0 {
        (left(h), right(h))
    } else {
        (right(h), left(h))
    };
    let ahead_ob = quad_free(grid, v, h, ob);
    let ahead_fr = quad_free(grid, v, h, fr);
    match (ahead_ob, ahead_fr) {
        (true, true) => ob,
        (true, false) | (false, false) => fr,
        (false, true) => h,
    }
}

/// The heading index of a unit axis vector.
#[inline]
fn heading_of(v: V) -> usize {
    HEADINGS
        .iter()
        .position(|&h| h == v)
        .expect("a unit axis step")
}

/// The first vertex and heading of a walk in direction `dir` from a ray's stop, the ray being
/// `from` (from the viewer `u`).
fn first_step(grid: &Grid, u: Point, from: V, stop: &Stop, dir: i64) -> Option<(Point, usize)> {
    match *stop {
        Stop::Edge { a, b } => {
            let (p, q) = if cross(from, sub(a, u)) * dir > 0 {
                (a, b)
            } else {
                (b, a)
            };
            let h = heading_of(sub(p, q));
            Some((p, next_heading(grid, p, h, dir)))
        }
        Stop::Vertex(p) => {
            // Slots round p in increasing-cross order: edges E, S, W, N at even slots, the
            // cells between them (SE, SW, NW, NE) at odd slots. Start from the slot holding the
            // direction back to the viewer and turn the way opposite to `dir` until the first
            // blocked cell; the edge last passed starts the walk.
            let back = (-from.0, -from.1);
            let start = if back.0 == 0 || back.1 == 0 {
                2 * heading_of((back.0.signum(), back.1.signum()))
            } else {
                match (back.0 > 0, back.1 > 0) {
                    (true, true) => 1,
                    (false, true) => 3,
                    (false, false) => 5,
                    (true, false) => 7,
                }
            };
            let step = if dir > 0 { 7 } else { 1 };
            let mut edge = (start % 2 == 0).then_some(start / 2);
            let mut slot = start;
            for _ in 0..8 {
                slot = (slot + step) % 8;
                if slot % 2 == 0 {
                    edge = Some(slot / 2);
                } else {
                    let h = slot / 2; // cell between headings h and h + 1
                    if !quad_free(grid, p, h, (h + 1) & 3) {
                        return edge.map(|e| (p, e));
                    }
                }
            }
            None
        }
    }
}

/// Walks the boundary from a ray's stop in direction `dir`, within the open sector from `from`
/// (the ray) to `to`, as seen from `u`. `limit` bounds the number of unit steps.
pub(crate) fn walk(
    grid: &Grid,
    u: Point,
    from: V,
    to: V,
    stop: &Stop,
    dir: i64,
    limit: usize,
) -> End {
    let Some((mut v, mut h)) = first_step(grid, u, from, stop, dir) else {
        return End::Exit;
    };
    let mut farthest: Option<Point> = None;
    for _ in 0..limit {
        let uv = sub(v, u);
        if cross(uv, to) * dir <= 0 {
            return End::Exit;
        }
        let step = HEADINGS[h];
        let c = cross(uv, step) * dir;
        if c < 0 {
            return End::Turn(farthest.unwrap_or(v));
        }
        if c == 0 {
            // Along the line of sight: towards u, v is the farthest of this line so far.
            if dot(uv, step) < 0 && farthest.is_none() {
                farthest = Some(v);
            }
        } else {
            farthest = None;
        }
        v = Point::new(v.x + step.0 as i32, v.y + step.1 as i32);
        h = next_heading(grid, v, h, dir);
    }
    End::Exit
}
