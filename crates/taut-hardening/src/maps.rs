//! Adversarial grid families for the differential tests and the fuzz target.
//!
//! Each family is a deterministic function of a size and a seed, so a failing case is
//! reproducible from `(family, width, height, seed)` alone. The families aim at the cases that
//! break any-angle planners: double corners everywhere (checkerboards), long diagonal
//! obstacle edges, collinear corner rows, one-cell corridors that force every path through
//! narrow gaps, degenerate shapes (1 × N, N × 1), and the all-free and all-blocked extremes.

use taut::grid::{Grid, Point};

/// A family of generated grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Independent cells, blocked with probability `(seed % 7) / 10` (0 to 60 %).
    Random,
    /// A checkerboard of `k × k` blocks (`k` from the seed: 1 to 3), 30 % of cells flipped: a
    /// double corner at almost every block corner.
    Checkerboard,
    /// Diagonal walls (both directions) one cell thick, with gaps: long staircase obstacle
    /// edges, whose corners lie on common lines; 30 % of wall cells are gaps.
    DiagonalWalls,
    /// Horizontal walls with one-cell gaps at alternating ends and random extra gaps: a
    /// serpentine of one-cell corridors.
    Corridors,
    /// Square rooms joined by one-cell doors.
    Rooms,
    /// Every cell free.
    AllFree,
    /// Every cell blocked.
    AllBlocked,
    /// Randomly blocked cells on a map one cell high or one cell wide (the width or height
    /// asked for is replaced by 1, chosen by the seed's parity).
    Strip,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 8] = [
        Family::Random,
        Family::Checkerboard,
        Family::DiagonalWalls,
        Family::Corridors,
        Family::Rooms,
        Family::AllFree,
        Family::AllBlocked,
        Family::Strip,
    ];
}

/// SplitMix64: a tiny, well-mixed generator, so that generation needs no dependency and a seed
/// means the same map on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// `true` with probability `percent / 100`.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The grid of `family` with (at most) `width × height` cells for `seed`. Sizes are clamped to
/// at least 1.
pub fn generate(family: Family, width: u32, height: u32, seed: u64) -> Grid {
    let (mut w, mut h) = (width.max(1), height.max(1));
    let mut rng = SplitMix::new(seed);
    let blocked: Vec<bool> = match family {
        Family::Random => {
            let p = (seed % 7) * 10;
            (0..w * h).map(|_| rng.chance(p)).collect()
        }
        Family::Checkerboard => {
            let k = 1 + (seed % 3) as u32;
            let phase = (seed / 3 % 2) as u32;
            (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    let b = (x / k + y / k + phase).is_multiple_of(2);
                    b != rng.chance(30)
                })
                .collect()
        }
        Family::DiagonalWalls => {
            let spacing = 3 + (seed % 5) as u32;
            (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    let on_wall = (x + y).is_multiple_of(spacing)
                        || (x + 2 * h - y).is_multiple_of(spacing + 2);
                    on_wall && !rng.chance(30)
                })
                .collect()
        }
        Family::Corridors => (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                if y % 2 == 0 {
                    return false;
                }
                let gap_x = if (y / 2) % 2 == 0 { w - 1 } else { 0 };
                x != gap_x && !rng.chance(4)
            })
            .collect(),
        Family::Rooms => {
            let room = 3 + (seed % 4) as u32;
            let walls: Vec<bool> = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    x % room == room - 1 || y % room == room - 1
                })
                .collect();
            // A door in each wall segment between two rooms.
            let mut blocked = walls;
            for ry in 0..h.div_ceil(room) {
                for rx in 0..w.div_ceil(room) {
                    let (x0, y0) = (rx * room, ry * room);
                    let door_x = x0 + rng.below(u64::from(room - 1)) as u32;
                    let door_y = y0 + rng.below(u64::from(room - 1)) as u32;
                    let east = x0 + room - 1;
                    let south = y0 + room - 1;
                    if east < w && door_y < h {
                        blocked[(door_y * w + east) as usize] = false;
                    }
                    if south < h && door_x < w {
                        blocked[(south * w + door_x) as usize] = false;
                    }
                }
            }
            blocked
        }
        Family::AllFree => vec![false; (w * h) as usize],
        Family::AllBlocked => vec![true; (w * h) as usize],
        Family::Strip => {
            if seed.is_multiple_of(2) {
                h = 1;
            } else {
                w = 1;
            }
            (0..w * h).map(|_| rng.chance(15)).collect()
        }
    };
    Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize])
}

/// `count` queries on `grid` for `seed`: mostly pairs of valid endpoints (free cells' top-left
/// corners, with convex and double corners over-represented), plus about one in eight with an
/// endpoint that is blocked or off the map, which every planner must refuse alike.
pub fn queries(grid: &Grid, count: usize, seed: u64) -> Vec<(Point, Point)> {
    let mut rng = SplitMix::new(seed ^ 0x5eed);
    let (w, h) = (grid.width(), grid.height());
    let mut valid = Vec::new();
    let mut special = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x, y);
            if grid.check_query(p, p).is_ok() {
                valid.push(p);
                if grid.is_corner(p) || grid.is_double_corner(p) {
                    special.push(p);
                }
            }
        }
    }
    let invalid = [
        Point::new(-1, 0),
        Point::new(w, h),
        Point::new(w, 0),
        Point::new(0, h),
        Point::new(i32::MIN, i32::MAX),
    ];
    let pick = |rng: &mut SplitMix| -> Point {
        let r = rng.below(16);
        if r == 0 || valid.is_empty() {
            // Any lattice point, or one of the off-map ones.
            if rng.chance(50) {
                invalid[rng.below(invalid.len() as u64) as usize]
            } else {
                Point::new(
                    rng.below(w as u64 + 1) as i32,
                    rng.below(h as u64 + 1) as i32,
                )
            }
        } else if r < 7 && !special.is_empty() {
            special[rng.below(special.len() as u64) as usize]
        } else {
            valid[rng.below(valid.len() as u64) as usize]
        }
    };
    (0..count)
        .map(|_| {
            let s = pick(&mut rng);
            (s, pick(&mut rng))
        })
        .collect()
}
