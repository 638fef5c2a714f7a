//! The obstacles of each kind, drawn into a row-major blocked/free bitmap with integer
//! arithmetic only (no floating point, so the same seed draws the same cells on every machine).

use super::{Kind, Rng};

/// A square map of `side × side` cells, `true` where blocked.
pub(super) struct Canvas {
    pub(super) side: u32,
    pub(super) blocked: Vec<bool>,
}

impl Canvas {
    fn new(side: u32) -> Canvas {
        Canvas {
            side,
            blocked: vec![false; side as usize * side as usize],
        }
    }

    /// Blocks cell `(x, y)` if it is on the map (shapes are clipped at the border).
    fn block(&mut self, x: i64, y: i64) {
        let n = i64::from(self.side);
        if (0..n).contains(&x) && (0..n).contains(&y) {
            self.blocked[(y * n + x) as usize] = true;
        }
    }

    /// Frees cell `(x, y)` if it is on the map.
    fn free(&mut self, x: i64, y: i64) {
        let n = i64::from(self.side);
        if (0..n).contains(&x) && (0..n).contains(&y) {
            self.blocked[(y * n + x) as usize] = false;
        }
    }

    /// A 1-cell-thick digital line from `(x0, y0)` to `(x1, y1)` (Bresenham): a staircase of
    /// cells touching at corners when it slants, which no any-angle path may cross.
    fn line(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64)) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = ((x1 - x0).signum(), (y1 - y0).signum());
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            self.block(x, y);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// A filled disc of radius `r` around `(cx, cy)`.
    fn disc(&mut self, cx: i64, cy: i64, r: i64) {
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                if (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
                    self.block(x, y);
                }
            }
        }
    }

    /// `count` cells blocked uniformly at random (with replacement, as the prototype did).
    fn speckle(&mut self, rng: &mut Rng, basis_points: u32) {
        let cells = u64::from(self.side) * u64::from(self.side);
        let count = cells * u64::from(basis_points) / 10_000;
        for _ in 0..count {
            let (x, y) = (rng.coord(self.side), rng.coord(self.side));
            self.block(x, y);
        }
    }
}

/// A value in `[lo, hi)` (`hi > lo`), drawn from `rng`.
fn between(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    lo + rng.below((hi - lo).max(1) as u64) as i64
}

/// The slanted directions of `diagonal` walls: 45° and the steeper and shallower rational
/// slopes around it, in all four quadrants (axis-aligned walls are the `walls` kind's).
const SLANTS: [(i64, i64); 6] = [(1, 1), (2, 1), (1, 2), (3, 1), (1, 3), (3, 2)];

/// Draws a map of `kind` and `side` from `rng`.
pub(super) fn draw(kind: Kind, side: u32, rng: &mut Rng) -> Canvas {
    let mut c = Canvas::new(side);
    let n = i64::from(side);
    match kind {
        Kind::Walls => {
            // The prototype of 2026-12-02 (`gen_big.py`): 12 walls of n/8 to n/2 cells, east
            // or south from a random cell.
            for _ in 0..12 {
                let (x, y) = (rng.coord(side), rng.coord(side));
                let len = between(rng, n / 8, n / 2);
                if rng.below(2) == 0 {
                    c.line((x, y), (x + len - 1, y));
                } else {
                    c.line((x, y), (x, y + len - 1));
                }
            }
        }
        Kind::Speckle => {}
        Kind::Diagonal => {
            // 12 slanted walls of n/8 to n/2 cells' extent along their main axis.
            for _ in 0..12 {
                let (x, y) = (rng.coord(side), rng.coord(side));
                let (a, b) = SLANTS[rng.below(SLANTS.len() as u64) as usize];
                let sx = if rng.below(2) == 0 { 1 } else { -1 };
                let sy = if rng.below(2) == 0 { 1 } else { -1 };
                let len = between(rng, n / 8, n / 2);
                let (dx, dy) = (sx * len * a / a.max(b), sy * len * b / a.max(b));
                c.line((x, y), (x + dx, y + dy));
            }
        }
        Kind::Rooms => {
            // An 8 × 8 grid of rooms: walls every n/8 cells; each wall between two rooms has
            // one doorway (n/128 cells wide, at least 2) at a random place, and one in four a
            // second doorway.
            const ROOMS: i64 = 8;
            let room = n / ROOMS;
            let door = (n / 128).max(2);
            for i in 1..ROOMS {
                let at = i * room;
                c.line((at, 0), (at, n - 1));
                c.line((0, at), (n - 1, at));
            }
            for i in 1..ROOMS {
                let at = i * room;
                for j in 0..ROOMS {
                    for vertical in [true, false] {
                        let doors = if rng.below(4) == 0 { 2 } else { 1 };
                        for _ in 0..doors {
                            let from = j * room + 1 + between(rng, 0, (room - 1 - door).max(1));
                            for k in from..from + door {
                                if vertical {
                                    c.free(at, k);
                                } else {
                                    c.free(k, at);
                                }
                            }
                        }
                    }
                }
            }
        }
        Kind::Traps => {
            // 16 U-shaped traps, n/16 to n/6 cells across, open to one of the four sides: a
            // search drawn into one must back out around its walls.
            for _ in 0..16 {
                let s = between(rng, n / 16, n / 6);
                let (x, y) = (between(rng, 0, n - s), between(rng, 0, n - s));
                let (x1, y1) = (x + s - 1, y + s - 1);
                let open = rng.below(4);
                if open != 0 {
                    c.line((x, y), (x1, y)); // north side, unless open to the north
                }
                if open != 1 {
                    c.line((x1, y), (x1, y1)); // east
                }
                if open != 2 {
                    c.line((x, y1), (x1, y1)); // south
                }
                if open != 3 {
                    c.line((x, y), (x, y1)); // west
                }
            }
        }
        Kind::Blobs => {
            // 24 blobs, each the union of 3 to 6 discs of radius n/64 to n/24 around a centre.
            for _ in 0..24 {
                let (cx, cy) = (rng.coord(side), rng.coord(side));
                let r_max = (n / 24).max(2);
                for _ in 0..between(rng, 3, 7) {
                    let r = between(rng, (n / 64).max(1), r_max);
                    let ox = between(rng, -r_max, r_max + 1);
                    let oy = between(rng, -r_max, r_max + 1);
                    c.disc(cx + ox, cy + oy, r);
                }
            }
        }
    }
    c.speckle(rng, kind.speckle_basis_points());
    c
}
