//! Following the boundary of the free space from where a ray stopped, to the first point where
//! it turns away from the viewer (a *turning point*) or leaves the sector being swept.
//!
//! The walk keeps the blocked cells on one hand and free space on the other, one unit edge at a
//! step. Blocked cells that touch diagonally belong to one obstacle (the path may not squeeze
//! between them), so at a double corner the walk turns round its own free cell. Seen from the
//! viewer `u`, a walk in direction `dir` (`±1`) moves so that `(v - u) × step` has the sign of
//! `dir` while the boundary faces `u`; the first step whose sign is opposite marks a turning
//! point (after steps along the line of sight, the farthest vertex of that line).

use taut_grid::{Grid, Point, quad};

use crate::cast::Stop;
use crate::geom::{HEADINGS, V, cross, dot, left, right, sub};
use crate::runs::Runs;

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// The boundary left the sector (reached its far bound) while still facing the viewer;
    /// true when it crossed the far bound's ray no farther than where that ray stops (the
    /// walk and the ray meet, so everything in the sector is in front of the walked boundary).
    Exit(bool),
    /// The boundary turns away from the viewer at this vertex.
    Turn(Point),
}

/// The next heading of a walk that arrived at `v` heading `h`, blocked cells on the hand of
/// `dir` (`+1`: on the left on screen, `-1`: on the right).
#[inline(always)]
fn next_heading(grid: &Grid, v: Point, h: usize, dir: i64) -> usize {
    // The four cells round v at once; the cell between heading a and a + 1 (clockwise).
    let m = grid.point_cells_padded(v);
    let (ob, fr, q_ob, q_fr) = if dir > 0 {
        (left(h), right(h), QUAD_AFTER[left(h)], QUAD_AFTER[h])
    } else {
        (right(h), left(h), QUAD_AFTER[h], QUAD_AFTER[left(h)])
    };
    match (m & q_ob != 0, m & q_fr != 0) {
        (true, true) => ob,
        (true, false) | (false, false) => fr,
        (false, true) => h,
    }
}

/// The cell (its bit of [`quad`]) between heading `h` and the next one clockwise, `h + 1`.
const QUAD_AFTER: [u8; 4] = [quad::SE, quad::SW, quad::NW, quad::NE];

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
            let m = grid.point_cells_padded(p);
            let mut edge = (start % 2 == 0).then_some(start / 2);
            let mut slot = start;
            for _ in 0..8 {
                slot = (slot + step) % 8;
                if slot % 2 == 0 {
                    edge = Some(slot / 2);
                } else {
                    let h = slot / 2; // cell between headings h and h + 1
                    if m & QUAD_AFTER[h] == 0 {
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
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk(
    grid: &Grid,
    runs: &Runs,
    u: Point,
    from: V,
    to: V,
    stop: &Stop,
    dir: i64,
    (num, den): (i64, i64),
    limit: usize,
) -> End {
    let Some((mut v, mut h)) = first_step(grid, u, from, stop, dir) else {
        return End::Exit(false);
    };
    // Whether the point v + (a / b)·step (b > 0) of the far ray lies no farther than its stop.
    let meets = |v: Point, step: V, a: i64, b: i64| {
        let (dv, ds, dd) = (
            i128::from(dot(sub(v, u), to)),
            i128::from(dot(step, to)),
            i128::from(dot(to, to)),
        );
        (dv * i128::from(b) + i128::from(a) * ds) * i128::from(den)
            <= i128::from(num) * dd * i128::from(b)
    };
    let mut farthest: Option<Point> = None;
    for _ in 0..limit {
        let uv = sub(v, u);
        let ahead = cross(uv, to) * dir;
        let step = HEADINGS[h];
        let c = cross(uv, step) * dir;
        if ahead <= 0 {
            // On the far bound itself, a turning point still counts: a corner touching the
            // bound ray is seen from u, and no walk on the other side of the ray meets it.
            if ahead == 0 && c < 0 && dot(uv, to) > 0 {
                return End::Turn(farthest.unwrap_or(v));
            }
            return End::Exit(ahead == 0 && dot(uv, to) > 0 && meets(v, step, 0, 1));
        }
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
        // Straight on to the next point where the cells beside the line change: nothing in
        // between can turn the walk.
        let run = runs.run(v, h);
        // Where the run crosses the far bound, if it does.
        let gain = cross(step, to) * dir;
        if gain < 0 {
            let k = ahead / -gain;
            // Straight through the bound: out of the sector. Onto it at the run's end: the
            // vertex there is looked at on the next turn of the loop.
            if k < i64::from(run) {
                return End::Exit(meets(v, step, ahead, -gain));
            }
        }
        v = Point::new(v.x + step.0 as i32 * run, v.y + step.1 as i32 * run);
        h = next_heading(grid, v, h, dir);
    }
    End::Exit(false)
}

/// Whether the corner `w`, seen from `u` along the primitive direction `d` by a ray that stops
/// at parameter `num / den`, leads only into a dead pocket: the boundary walked from `w` round
/// the hidden side of its blocked cell comes back to that ray within `max_runs` straight runs,
/// at a point no farther than the ray's stop, and the pocket so closed (its bounding box) does
/// not hold `goal`. A pocket is closed by the free segment of the ray, so a path that enters
/// it leaves it through that segment and is never shortest unless the goal is inside.
#[allow(clippy::too_many_arguments)]
pub(crate) fn is_pocket(
    grid: &Grid,
    runs: &Runs,
    u: Point,
    d: V,
    (num, den): (i64, i64),
    w: Point,
    first: usize,
    side: i64,
    goal: Point,
    max_runs: usize,
) -> bool {
    let dir = -side;
    let (mut lo, mut hi) = (w, w);
    let mut v = w;
    let mut h = first;
    for _ in 0..max_runs {
        let step = HEADINGS[h];
        let run = runs.run(v, h);
        let prev = v;
        v = Point::new(v.x + step.0 as i32 * run, v.y + step.1 as i32 * run);
        lo = Point::new(lo.x.min(v.x), lo.y.min(v.y));
        hi = Point::new(hi.x.max(v.x), hi.y.max(v.y));
        let now = cross(d, sub(v, u)) * side;
        if now <= 0 {
            // Back on (or across) the ray's line: where, along the ray?
            let before = cross(d, sub(prev, u));
            let b = cross(d, step);
            let (dp, dh, dd) = (
                i128::from(dot(sub(prev, u), d)),
                i128::from(dot(step, d)),
                i128::from(dot(d, d)),
            );
            // The crossing is prev + (a / b)·step with a = -before; its ray parameter times
            // |d|²·b is dp·b + a·dh.
            let (a, b) = (i128::from(-before), i128::from(b));
            if b == 0 {
                return false;
            }
            let lhs = (dp * b + a * dh) * i128::from(den);
            let rhs = i128::from(num) * dd * b;
            let within = if b > 0 { lhs <= rhs } else { lhs >= rhs };
            let k = i128::from(dot(sub(w, u), d) / dot(d, d)); // w = u + k·d (exact, in i64)
            let beyond_w = (dp * b + a * dh) * b.signum() > k * dd * b.abs();
            let inside = goal.x >= lo.x && goal.x <= hi.x && goal.y >= lo.y && goal.y <= hi.y;
            return within && beyond_w && !inside;
        }
        h = next_heading(grid, v, h, dir);
    }
    false
}
