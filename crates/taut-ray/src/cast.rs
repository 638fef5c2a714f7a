//! Casting a ray from a lattice point: where it stops, and the convex corners it grazes.
//!
//! A ray from `u` in the primitive direction `d` is legal up to the first point past which it
//! would enter a blocked cell, run between two blocked cells or cross a double corner (the rules
//! of `docs/conventions.md`). It may pass through a convex corner; a corner whose blocked cell
//! touches the ray only at that point (the cell is beside the ray, not along it ahead) is
//! *grazed*: a taut path can bend round it, so the caller treats it as a successor.

use taut_grid::{Grid, Point, quad};

use crate::geom::{V, add, mask};

/// Where a ray stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// It enters a blocked cell through the inside of the unit edge from `a` to `b`.
    Edge { a: Point, b: Point },
    /// It stops at a lattice point: beyond it lies a blocked cell, an edge between two blocked
    /// cells, or a double corner.
    Vertex(Point),
}

/// A cast ray: where it stops, at parameter `num / den` in units of its direction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cast {
    pub stop: Stop,
    pub num: i64,
    pub den: i64,
}

impl Cast {
    /// Whether the ray reaches the point `u + k·d` (stops there or beyond).
    #[inline]
    pub fn reaches(&self, k: i64) -> bool {
        self.num >= k * self.den
    }
}

/// Casts the ray from `u` in the primitive direction `d`, appending the corners it grazes
/// (in order, before the stop) to `grazed`.
pub(crate) fn cast(grid: &Grid, u: Point, d: V, grazed: &mut Vec<Point>) -> Cast {
    if d.1 == 0 {
        return cast_axis::<true>(grid, u, d.0 as i32, grazed);
    }
    if d.0 == 0 {
        return cast_axis::<false>(grid, u, d.1 as i32, grazed);
    }
    let (sx, sy) = (d.0.signum() as i32, d.1.signum() as i32);
    let (ax, ay) = (d.0.abs(), d.1.abs());
    let mut cx = u.x + if sx > 0 { 0 } else { -1 };
    let mut cy = u.y + if sy > 0 { 0 } else { -1 };
    if !grid.is_free_padded(cx, cy) {
        return Cast {
            stop: Stop::Vertex(u),
            num: 0,
            den: 1,
        };
    }
    // Crossings of vertical lines come at parameters i / ax, of horizontal lines at j / ay.
    let (mut i, mut j) = (1i64, 1i64);
    loop {
        let (tv, th) = (i * ay, j * ax);
        if tv < th {
            let nx = cx + sx;
            if !grid.is_free_padded(nx, cy) {
                let x = u.x + sx * i as i32;
                return Cast {
                    stop: Stop::Edge {
                        a: Point::new(x, cy),
                        b: Point::new(x, cy + 1),
                    },
                    num: i,
                    den: ax,
                };
            }
            cx = nx;
            i += 1;
        } else if th < tv {
            let ny = cy + sy;
            if !grid.is_free_padded(cx, ny) {
                let y = u.y + sy * j as i32;
                return Cast {
                    stop: Stop::Edge {
                        a: Point::new(cx, y),
                        b: Point::new(cx + 1, y),
                    },
                    num: j,
                    den: ay,
                };
            }
            cy = ny;
            j += 1;
        } else {
            // Through the lattice point u + k·d, diagonally into the next cell.
            let k = i / ax;
            let (nx, ny) = (cx + sx, cy + sy);
            let ahead = grid.is_free_padded(nx, ny);
            let (s1, s2) = (grid.is_free_padded(nx, cy), grid.is_free_padded(cx, ny));
            if !ahead || (!s1 && !s2) {
                return Cast {
                    stop: Stop::Vertex(add(u, d, k)),
                    num: k,
                    den: 1,
                };
            }
            if !s1 || !s2 {
                grazed.push(add(u, d, k));
            }
            cx = nx;
            cy = ny;
            i += 1;
            j += 1;
        }
    }
}

/// A ray along a grid line: east/west (`ROW`) or south/north, `s = ±1`.
fn cast_axis<const ROW: bool>(grid: &Grid, u: Point, s: i32, grazed: &mut Vec<Point>) -> Cast {
    // Cells beside the unit edge from p to p + step: (c, r - 1) and (c, r) for a row ray.
    let free = |along: i32, across: i32| {
        if ROW {
            grid.is_free_padded(along, across)
        } else {
            grid.is_free_padded(across, along)
        }
    };
    let (mut a, b) = if ROW { (u.x, u.y) } else { (u.y, u.x) };
    let mut k = 0i64;
    loop {
        let p = if ROW {
            Point::new(a, b)
        } else {
            Point::new(b, a)
        };
        let ahead = if s > 0 { a } else { a - 1 };
        let (l, r) = (free(ahead, b - 1), free(ahead, b));
        if k > 0 {
            let m = mask(grid, p);
            if quad::is_double_corner(m) {
                return Cast {
                    stop: Stop::Vertex(p),
                    num: k,
                    den: 1,
                };
            }
            if l && r {
                let behind = if s > 0 { a - 1 } else { a };
                if free(behind, b - 1) != free(behind, b) {
                    grazed.push(p);
                }
            }
        }
        if !l && !r {
            return Cast {
                stop: Stop::Vertex(p),
                num: k,
                den: 1,
            };
        }
        a += s;
        k += 1;
    }
}
