//! Casting a ray from a lattice point: where it stops, and the convex corners it grazes.
//!
//! A ray from `u` in the primitive direction `d` is legal up to the first point past which it
//! would enter a blocked cell, run between two blocked cells or cross a double corner (the rules
//! of `docs/conventions.md`). It may pass through a convex corner; a corner whose blocked cell
//! touches the ray only at that point (the cell is beside the ray, not along it ahead) is
//! *grazed*: a taut path can bend round it, so the caller treats it as a successor.

use taut_grid::{Grid, Point, quad};

use crate::bits::Bits;
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
/// (in order, before the stop) to `grazed`. `transposed` is the map's transpose (vertical
/// rays read its rows).
pub(crate) fn cast(
    grid: &Grid,
    transposed: &Grid,
    (cells, tcells): (&Bits, &Bits),
    u: Point,
    d: V,
    grazed: &mut Vec<Point>,
) -> Cast {
    if d.1 == 0 {
        return cast_row::<false>(grid, u, d.0 as i32, grazed);
    }
    if d.0 == 0 {
        return cast_row::<true>(transposed, Point::new(u.y, u.x), d.1 as i32, grazed);
    }
    if d.0.abs() >= d.1.abs() {
        cast_slanted::<false>(grid, cells, u, d, grazed)
    } else {
        cast_slanted::<true>(transposed, tcells, Point::new(u.y, u.x), (d.1, d.0), grazed)
    }
}

/// A slanted ray that is at least as wide as it is tall (`|d.0| >= |d.1| >= 1`) on `grid`;
/// with `SWAP`, `grid` is a transpose and points are reported with x and y swapped back.
/// Between two crossings of horizontal grid lines the ray stays in one row of cells, whose span
/// is tested a word at a time.
fn cast_slanted<const SWAP: bool>(
    grid: &Grid,
    cells: &Bits,
    u: Point,
    d: V,
    grazed: &mut Vec<Point>,
) -> Cast {
    let out = |p: Point| if SWAP { Point::new(p.y, p.x) } else { p };
    let (sx, sy) = (d.0.signum() as i32, d.1.signum() as i32);
    let (ax, ay) = (d.0.abs(), d.1.abs());
    let mut cx = u.x + if sx > 0 { 0 } else { -1 };
    let mut cy = u.y + if sy > 0 { 0 } else { -1 };
    // The current cell's position in `cells`, and the steps to the next column and row.
    let mut at = cells.pos(cx, cy);
    let (xs, ys) = (sx as isize, cells.rows(sy));
    if !cells.free(at) {
        return Cast {
            stop: Stop::Vertex(out(u)),
            num: 0,
            den: 1,
        };
    }
    // Crossings of vertical lines come at parameters i / ax, of horizontal lines at j / ay.
    let (mut i, mut j) = (1i64, 1i64);
    // Shallow rays cross long spans of a row between two horizontal lines: test those a word at
    // a time; steeper ones step cell by cell (no division per row).
    let shallow = ax > 8 * ay;
    loop {
        let jx = j * ax;
        if shallow {
            // The vertical crossings strictly before horizontal crossing j, all in row cy.
            let last = (jx + ay - 1) / ay - 1;
            if last >= i {
                let n = (last - i + 1) as i32;
                let blocked = if sx > 0 {
                    grid.first_blocked(cy, cx + 1, (cx + n).min(grid.width()))
                } else {
                    grid.last_blocked(cy, (cx - n).max(-1), cx - 1)
                };
                if let Some(bc) = blocked {
                    let x = if sx > 0 { bc } else { bc + 1 };
                    return Cast {
                        stop: Stop::Edge {
                            a: out(Point::new(x, cy)),
                            b: out(Point::new(x, cy + 1)),
                        },
                        num: i + i64::from((bc - cx).abs()) - 1,
                        den: ax,
                    };
                }
                cx += sx * n;
                at += xs * n as isize;
                i = last + 1;
            }
        } else {
            while i * ay < jx {
                let nx = cx + sx;
                if !cells.free(at + xs) {
                    let x = if sx > 0 { nx } else { nx + 1 };
                    return Cast {
                        stop: Stop::Edge {
                            a: out(Point::new(x, cy)),
                            b: out(Point::new(x, cy + 1)),
                        },
                        num: i,
                        den: ax,
                    };
                }
                cx = nx;
                at += xs;
                i += 1;
            }
        }
        if i * ay == jx {
            // Through the lattice point u + k·d, diagonally into the next cell.
            let k = j / ay;
            let (nx, ny) = (cx + sx, cy + sy);
            let ahead = cells.free(at + xs + ys);
            let (s1, s2) = (cells.free(at + xs), cells.free(at + ys));
            if !ahead || (!s1 && !s2) {
                return Cast {
                    stop: Stop::Vertex(out(add(u, d, k))),
                    num: k,
                    den: 1,
                };
            }
            if !s1 || !s2 {
                grazed.push(out(add(u, d, k)));
            }
            cx = nx;
            cy = ny;
            at += xs + ys;
            i += 1;
            j += 1;
        } else {
            let ny = cy + sy;
            if !cells.free(at + ys) {
                let y = u.y + sy * j as i32;
                return Cast {
                    stop: Stop::Edge {
                        a: out(Point::new(cx, y)),
                        b: out(Point::new(cx + 1, y)),
                    },
                    num: j,
                    den: ay,
                };
            }
            cy = ny;
            at += ys;
            j += 1;
        }
    }
}

/// A ray along the horizontal grid line through `u`, east (`s = 1`) or west (`s = -1`), on
/// `grid`; with `SWAP`, `grid` is a transpose and points are reported with x and y swapped
/// back. Between two points where the cells beside the line change (found a word at a time)
/// nothing can stop or graze the ray, so it jumps from one such point to the next.
fn cast_row<const SWAP: bool>(grid: &Grid, u: Point, s: i32, grazed: &mut Vec<Point>) -> Cast {
    let out = |p: Point| if SWAP { Point::new(p.y, p.x) } else { p };
    let y = u.y;
    let mut x = u.x;
    loop {
        let p = Point::new(x, y);
        let k = i64::from((x - u.x).abs());
        let ahead = if s > 0 { x } else { x - 1 };
        let (l, r) = (
            grid.is_free_padded(ahead, y - 1),
            grid.is_free_padded(ahead, y),
        );
        if k > 0 {
            if quad::is_double_corner(mask(grid, p)) {
                return Cast {
                    stop: Stop::Vertex(out(p)),
                    num: k,
                    den: 1,
                };
            }
            if l && r {
                let behind = if s > 0 { x - 1 } else { x };
                if grid.is_free_padded(behind, y - 1) != grid.is_free_padded(behind, y) {
                    grazed.push(out(p));
                }
            }
        }
        if !l && !r {
            return Cast {
                stop: Stop::Vertex(out(p)),
                num: k,
                den: 1,
            };
        }
        x = if s > 0 {
            grid.next_change(x, y).min(grid.width())
        } else {
            grid.prev_change(x, y).max(0)
        };
    }
}
