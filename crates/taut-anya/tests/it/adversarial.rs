//! Adversarial differential tests: Anya against the exact visibility-graph oracle on grids
//! built to break it rather than on uniformly random ones:
//! - 1×N and N×1 grids (every interval is a point or the whole line);
//! - all-free grids, and all-blocked grids with a few isolated free cells (unreachable goals);
//! - diagonal walls: staircases of blocked cells, each step a double corner;
//! - perfect mazes of 1-cell-wide corridors (every turn is a corner, every path long);
//! - dense checkerboards (almost every lattice point a double corner);
//! - long thin maps (up to 400×4 and 4×400) with sparse single blocked cells, so that rays
//!   travel far and interval endpoints are fractions with large denominators.
//!
//! For every sampled query (all ordered pairs of the sampled free points: every free point when
//! there are fewer than 24, else 12 to 24 spread evenly, always with the first and the last)
//! and every combination of options: the status equals the oracle's, the
//! lengths agree to 1e-9, the path passes `Grid::check_path`, and its polyline length is the
//! reported one.
//!
//! The default case counts keep the file under a few seconds in release mode; set
//! `PROPTEST_CASES` to run more (it overrides every count here).

use crate::common::{all_options, check_against_vg};
use proptest::prelude::*;
use taut_grid::{Grid, Point};
use taut_testdata::free_points;

/// `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(n)
}

/// Free points spread evenly over the free cells in row-major order (all of them when there are
/// fewer than 24), always with the first and the last (the two ends of a long map).
fn sample_points(g: &Grid) -> Vec<Point> {
    let all = free_points(g);
    let step = (all.len() / 12).max(1);
    let mut v: Vec<Point> = all.iter().copied().step_by(step).collect();
    if let Some(&last) = all.last()
        && !v.contains(&last)
    {
        v.push(last);
    }
    v
}

/// Checks every ordered pair of sampled points with every option set against the oracle.
fn check_grid(g: &Grid) -> Result<(), TestCaseError> {
    let pts = sample_points(g);
    let queries: Vec<_> = pts
        .iter()
        .flat_map(|&s| pts.iter().map(move |&t| (s, t)))
        .collect();
    check_against_vg(g, &queries, &all_options())
}

/// A grid from a `w × h` vector of "blocked" flags.
fn from_blocked(w: u32, h: u32, blocked: &[bool]) -> Grid {
    Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize])
}

/// 1×N or N×1 with N up to 200 and 0–50 % obstacles.
fn line_grid() -> impl Strategy<Value = Grid> {
    (1u32..=200, any::<bool>(), 0.0f64..0.5).prop_flat_map(|(n, horizontal, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), n as usize).prop_map(
            move |blocked| {
                let (w, h) = if horizontal { (n, 1) } else { (1, n) };
                from_blocked(w, h, &blocked)
            },
        )
    })
}

/// All free, or all blocked but for up to 4 isolated free cells.
fn uniform_grid() -> impl Strategy<Value = Grid> {
    (
        1u32..=40,
        1u32..=40,
        any::<bool>(),
        proptest::collection::vec((0u32..40, 0u32..40), 0..=4),
    )
        .prop_map(|(w, h, all_free, holes)| {
            if all_free {
                Grid::from_fn(w, h, |_, _| true)
            } else {
                Grid::from_fn(w, h, |x, y| {
                    holes.iter().any(|&(hx, hy)| hx % w == x && hy % h == y)
                })
            }
        })
}

/// One diagonal wall: a staircase of blocked cells from `(x0, y0)`, `len` steps in direction
/// `(1, ±1)`, `thick` cells wide horizontally.
#[derive(Debug, Clone, Copy)]
struct Stair {
    x0: u32,
    y0: u32,
    len: u32,
    down: bool,
    thick: u32,
}

/// 1–4 diagonal walls (each step a double corner when `thick` is 1) with a few random holes
/// punched through them and a little random noise.
fn staircase_grid() -> impl Strategy<Value = Grid> {
    (2u32..=24, 2u32..=24).prop_flat_map(|(w, h)| {
        let stair = (0..w, 0..h, 1u32..=24, any::<bool>(), 1u32..=2).prop_map(
            |(x0, y0, len, down, thick)| Stair {
                x0,
                y0,
                len,
                down,
                thick,
            },
        );
        (
            proptest::collection::vec(stair, 1..=4),
            proptest::collection::vec(proptest::bool::weighted(0.05), (w * h) as usize),
            proptest::collection::vec(proptest::bool::weighted(0.05), (w * h) as usize),
        )
            .prop_map(move |(stairs, holes, noise)| {
                let mut blocked = noise;
                for s in &stairs {
                    for i in 0..s.len {
                        let y = if s.down {
                            i64::from(s.y0) + i64::from(i)
                        } else {
                            i64::from(s.y0) - i64::from(i)
                        };
                        for t in 0..s.thick {
                            let x = s.x0 + i + t;
                            if x < w && (0..i64::from(h)).contains(&y) {
                                blocked[(y as u32 * w + x) as usize] = true;
                            }
                        }
                    }
                }
                for (b, &hole) in blocked.iter_mut().zip(&holes) {
                    *b &= !hole;
                }
                from_blocked(w, h, &blocked)
            })
    })
}

/// A perfect maze of 1-cell-wide corridors on the odd cells of a `(2a+1) × (2b+1)` grid,
/// carved by a randomised depth-first search driven by `seed`; `loops` extra walls removed.
fn maze(a: u32, b: u32, seed: u64, loops: u32) -> Grid {
    let (w, h) = (2 * a + 1, 2 * b + 1);
    let mut free = vec![false; (w * h) as usize];
    let mut rng = seed | 1;
    let mut next = move |n: u32| {
        // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        ((rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % u64::from(n)) as u32
    };
    let idx = |x: u32, y: u32| (y * w + x) as usize;
    let mut seen = vec![false; (a * b) as usize];
    let mut stack = vec![(0u32, 0u32)];
    seen[0] = true;
    free[idx(1, 1)] = true;
    while let Some(&(cx, cy)) = stack.last() {
        let mut dirs = Vec::new();
        for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (cx as i32 + dx, cy as i32 + dy);
            if nx >= 0 && ny >= 0 && (nx as u32) < a && (ny as u32) < b {
                let (nx, ny) = (nx as u32, ny as u32);
                if !seen[(ny * a + nx) as usize] {
                    dirs.push((nx, ny));
                }
            }
        }
        if dirs.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = dirs[next(dirs.len() as u32) as usize];
        seen[(ny * a + nx) as usize] = true;
        free[idx(cx + nx + 1, cy + ny + 1)] = true; // the wall between
        free[idx(2 * nx + 1, 2 * ny + 1)] = true;
        stack.push((nx, ny));
    }
    for _ in 0..loops {
        let (x, y) = (1 + next(w - 2), 1 + next(h - 2));
        if (x + y) % 2 == 1 {
            free[idx(x, y)] = true;
        }
    }
    Grid::from_fn(w, h, |x, y| free[idx(x, y)])
}

fn maze_grid() -> impl Strategy<Value = Grid> {
    (1u32..=12, 1u32..=12, any::<u64>(), 0u32..=6)
        .prop_map(|(a, b, seed, loops)| maze(a, b, seed, loops))
}

/// A checkerboard of single cells (every interior lattice point a double corner), with a few
/// cells flipped.
fn checkerboard_grid() -> impl Strategy<Value = Grid> {
    (2u32..=20, 2u32..=20, any::<bool>(), 0.0f64..0.1).prop_flat_map(|(w, h, phase, flip)| {
        proptest::collection::vec(proptest::bool::weighted(flip), (w * h) as usize).prop_map(
            move |flips| {
                Grid::from_fn(w, h, |x, y| {
                    ((x + y) % 2 == 0) ^ phase ^ flips[(y * w + x) as usize]
                })
            },
        )
    })
}

/// Long thin maps, 100–400 by 2–4 cells either way round, with 0–15 % single blocked cells.
fn long_thin_grid() -> impl Strategy<Value = Grid> {
    (100u32..=400, 2u32..=4, any::<bool>(), 0.0f64..0.15).prop_flat_map(
        |(long, short, wide, density)| {
            proptest::collection::vec(proptest::bool::weighted(density), (long * short) as usize)
                .prop_map(move |blocked| {
                    let (w, h) = if wide { (long, short) } else { (short, long) };
                    from_blocked(w, h, &blocked)
                })
        },
    )
}

proptest! {
    #![proptest_config(cases(150))]

    #[test]
    fn lines(g in line_grid()) {
        check_grid(&g)?;
    }

    #[test]
    fn all_free_or_all_blocked(g in uniform_grid()) {
        check_grid(&g)?;
    }

    #[test]
    fn diagonal_walls(g in staircase_grid()) {
        check_grid(&g)?;
    }

    #[test]
    fn one_cell_corridors(g in maze_grid()) {
        check_grid(&g)?;
    }

    #[test]
    fn checkerboards(g in checkerboard_grid()) {
        check_grid(&g)?;
    }
}

proptest! {
    #![proptest_config(cases(40))]

    #[test]
    fn long_thin_maps(g in long_thin_grid()) {
        check_grid(&g)?;
    }
}

/// Deterministic extremes that random generation may never hit exactly.
#[test]
fn fixed_extremes() {
    let mut grids = vec![
        Grid::from_fn(1, 1, |_, _| true),
        Grid::from_fn(400, 1, |_, _| true),
        Grid::from_fn(1, 400, |_, _| true),
        Grid::from_fn(400, 2, |_, _| true),
        Grid::from_fn(2, 400, |_, _| true),
        // A full checkerboard: every interior point a double corner, so no free cell
        // connects to another and every query between different cells is unreachable.
        Grid::from_fn(12, 12, |x, y| (x + y) % 2 == 0),
        // One long staircase across a square map.
        Grid::from_fn(30, 30, |x, y| x != y),
        Grid::from_fn(30, 30, |x, y| x + y != 29),
        // A single blocked cell in the middle of a long corridor: rays graze it from far.
        Grid::from_fn(3, 399, |x, y| !(x == 1 && y == 200)),
        Grid::from_fn(399, 3, |x, y| !(x == 200 && y == 1)),
    ];
    grids.push(maze(12, 12, 7, 0));
    for g in &grids {
        check_grid(g).unwrap();
    }
}
