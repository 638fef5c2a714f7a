//! Integer vectors, the four headings of a boundary walk, and the cells around a lattice point.

use taut_grid::{Grid, Point, quad};

/// An integer vector (differences of lattice points; products fit `i64` on any map).
pub(crate) type V = (i64, i64);

/// `a × b`: positive when `b` is turned from `a` towards +y from +x (clockwise on screen,
/// where y grows south).
#[inline(always)]
pub(crate) fn cross(a: V, b: V) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

/// `a · b`.
#[inline(always)]
pub(crate) fn dot(a: V, b: V) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

/// `b - a` as a vector.
#[inline(always)]
pub(crate) fn sub(b: Point, a: Point) -> V {
    (i64::from(b.x - a.x), i64::from(b.y - a.y))
}

/// `p + k·d` (the caller keeps it on the map).
#[inline(always)]
pub(crate) fn add(p: Point, d: V, k: i64) -> Point {
    Point::new(p.x + (d.0 * k) as i32, p.y + (d.1 * k) as i32)
}

/// Greatest common divisor of two non-negative numbers, not both zero (binary: no division).
#[inline]
pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a as u64, b as u64);
    if a == 0 || b == 0 {
        return (a | b) as i64;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return (a << shift) as i64;
        }
    }
}

/// How far a boundary walk at `v` heading `h` goes straight (the reference for
/// [`crate::runs::Runs::run`], which reads precomputed change bits instead) before the cells beside its line
/// change (at least 1): one look at the next unit edge, then a word scan if it is the same.
#[cfg(test)]
pub(crate) fn run_length(grid: &Grid, transposed: &Grid, v: Point, h: usize) -> i32 {
    let (x, y) = (v.x, v.y);
    match h {
        0 => {
            if x + 1 > grid.width()
                || grid.is_free_padded(x, y - 1) != grid.is_free_padded(x + 1, y - 1)
                || grid.is_free_padded(x, y) != grid.is_free_padded(x + 1, y)
            {
                1
            } else {
                grid.next_change(x, y).min(grid.width()) - x
            }
        }
        2 => {
            if x - 2 < -1
                || grid.is_free_padded(x - 1, y - 1) != grid.is_free_padded(x - 2, y - 1)
                || grid.is_free_padded(x - 1, y) != grid.is_free_padded(x - 2, y)
            {
                1
            } else {
                x - grid.prev_change(x, y).max(0)
            }
        }
        1 => {
            if y + 1 > grid.height()
                || grid.is_free_padded(x - 1, y) != grid.is_free_padded(x - 1, y + 1)
                || grid.is_free_padded(x, y) != grid.is_free_padded(x, y + 1)
            {
                1
            } else {
                transposed.next_change(y, x).min(grid.height()) - y
            }
        }
        _ => {
            if y - 2 < -1
                || grid.is_free_padded(x - 1, y - 1) != grid.is_free_padded(x - 1, y - 2)
                || grid.is_free_padded(x, y - 1) != grid.is_free_padded(x, y - 2)
            {
                1
            } else {
                y - transposed.prev_change(y, x).max(0)
            }
        }
    }
    .max(1)
}

/// `d` divided by the gcd of its coordinates, and that gcd: `d = k·prim`.
#[inline]
pub(crate) fn primitive(d: V) -> (V, i64) {
    let k = gcd(d.0.abs(), d.1.abs());
    ((d.0 / k, d.1 / k), k)
}

/// Whether direction `t` lies in the closed sector from `a` to `b` turning the way `s`
/// (`±1`, the sign of `a × b`; the sector is less than a half turn).
#[inline]
pub(crate) fn in_closed_sector(a: V, b: V, s: i64, t: V) -> bool {
    let (ca, cb) = (cross(a, t) * s, cross(t, b) * s);
    ca >= 0 && cb >= 0 && (ca > 0 || dot(a, t) > 0) && (cb > 0 || dot(b, t) > 0)
}

/// The four headings of a boundary walk, in the order of increasing `cross` (east, south,
/// west, north: clockwise on screen).
pub(crate) const HEADINGS: [V; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// The heading a quarter turn "left" of `h` on screen (towards negative `cross`).
#[inline(always)]
pub(crate) fn left(h: usize) -> usize {
    (h + 3) & 3
}

/// The heading a quarter turn "right" of `h` on screen (towards positive `cross`).
#[inline(always)]
pub(crate) fn right(h: usize) -> usize {
    (h + 1) & 3
}

/// The free-cell mask of `p` (bits of [`taut_grid::quad`]).
#[inline(always)]
pub(crate) fn mask(grid: &Grid, p: Point) -> u8 {
    grid.point_cells_padded(p)
}

/// The projection field's far bound at a convex corner with free-cell mask `m` reached along
/// `d`: the side (`±1`, the sign of `d × ` the blocked cell) and the heading of the first edge
/// of the blocked cell met turning from `d` that way; `None` when `d` points at the cell's
/// corner head-on (no taut turn there).
pub(crate) fn field_edge(m: u8, d: V) -> Option<(i64, usize)> {
    let (centre, e1, e2) = blocked_cell(m);
    let s = cross(d, centre).signum();
    if s == 0 {
        return None;
    }
    let (h1, h2) = (HEADINGS[e1], HEADINGS[e2]);
    match (cross(d, h1) * s > 0, cross(d, h2) * s > 0) {
        (true, true) => Some((s, if cross(h1, h2) * s > 0 { e1 } else { e2 })),
        (true, false) => Some((s, e1)),
        (false, true) => Some((s, e2)),
        (false, false) => None,
    }
}

/// The one blocked cell of a convex corner with free-cell mask `m`: its doubled centre offset
/// from the corner and the headings of its two edges at the corner, in turning order.
#[inline]
pub(crate) fn blocked_cell(m: u8) -> (V, usize, usize) {
    match !m & 0xF {
        quad::SE => ((1, 1), 0, 1),
        quad::SW => ((-1, 1), 1, 2),
        quad::NW => ((-1, -1), 2, 3),
        _ => ((1, -1), 3, 0),
    }
}
