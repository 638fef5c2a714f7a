//! Every expansion's successors against a brute-force list of visible tangent corners
//! (`src/check.rs`), on small random grids full of double corners, collinear corners and
//! aligned pillars. Runs with `--features check-successors`; `TAUT_CHECK_MAPS=n` runs `n`
//! maps of each family instead of the default.

use taut_grid::{Answer, Grid, Point};
use taut_ray::{CheckReport, RayIndex, SearchContext};

/// A xorshift generator (deterministic per seed).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

/// The map families.
const FAMILIES: [&str; 5] = ["speckle", "pillars", "checker", "rooms", "stairs"];

/// A map of `family`, `w × h` cells, from `rng`.
fn map(family: &str, w: u32, h: u32, rng: &mut Rng) -> Grid {
    let mut blocked = vec![false; (w * h) as usize];
    let set = |x: i64, y: i64, b: &mut Vec<bool>| {
        if x >= 0 && y >= 0 && x < i64::from(w) && y < i64::from(h) {
            b[(y as u32 * w + x as u32) as usize] = true;
        }
    };
    match family {
        // Independent cells, 5-45 %: every kind of corner.
        "speckle" => {
            let density = 5 + rng.below(41);
            for c in blocked.iter_mut() {
                *c = rng.below(100) < density;
            }
        }
        // Pillars (1×1 or 2×2) on a regular lattice, some missing: many corners on one line.
        "pillars" => {
            let (sx, sy) = (2 + rng.below(3), 2 + rng.below(3));
            let size = 1 + rng.below(2);
            let (ox, oy) = (rng.below(sx), rng.below(sy));
            let gaps = rng.below(30);
            for y in (oy..h).step_by(sy as usize) {
                for x in (ox..w).step_by(sx as usize) {
                    if rng.below(100) < gaps {
                        continue;
                    }
                    for dy in 0..size {
                        for dx in 0..size {
                            set(i64::from(x + dx), i64::from(y + dy), &mut blocked);
                        }
                    }
                }
            }
        }
        // Checkerboard patches: double corners everywhere inside them.
        "checker" => {
            for _ in 0..1 + rng.below(5) {
                let (x0, y0) = (rng.below(w), rng.below(h));
                let (pw, ph) = (1 + rng.below(8), 1 + rng.below(8));
                let parity = rng.below(2);
                for y in y0..(y0 + ph).min(h) {
                    for x in x0..(x0 + pw).min(w) {
                        if (x + y) % 2 == parity {
                            set(i64::from(x), i64::from(y), &mut blocked);
                        }
                    }
                }
            }
            for c in blocked.iter_mut() {
                if rng.below(100) < 5 {
                    *c = true;
                }
            }
        }
        // Axis-aligned rectangles, often sharing rows and columns: collinear corners.
        "rooms" => {
            let rows: Vec<u32> = (0..3).map(|_| rng.below(h)).collect();
            let cols: Vec<u32> = (0..3).map(|_| rng.below(w)).collect();
            for _ in 0..2 + rng.below(8) {
                let x0 = cols[rng.below(3) as usize];
                let y0 = rows[rng.below(3) as usize];
                let (rw, rh) = (1 + rng.below(6), 1 + rng.below(6));
                for y in y0..(y0 + rh).min(h) {
                    for x in x0..(x0 + rw).min(w) {
                        set(i64::from(x), i64::from(y), &mut blocked);
                    }
                }
            }
        }
        // Staircase walls of slope 1, 2 or 1/2 (collinear convex corners along the slope), and
        // diagonal chains of single cells (double corners).
        _ => {
            for _ in 0..1 + rng.below(4) {
                let (mut x, mut y) = (i64::from(rng.below(w)), i64::from(rng.below(h)));
                let (ax, ay) = [(1, 1), (1, 2), (2, 1)][rng.below(3) as usize];
                let sx = if rng.below(2) == 0 { 1 } else { -1 };
                let chain = rng.below(3) == 0;
                for _ in 0..4 + rng.below(10) {
                    for _ in 0..ax {
                        set(x, y, &mut blocked);
                        x += sx;
                    }
                    if chain {
                        x -= sx * (ax - 1);
                    }
                    for _ in 0..ay - 1 {
                        set(x, y, &mut blocked);
                        y += 1;
                    }
                    y += 1;
                }
            }
        }
    }
    Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize])
}

/// Runs `queries` queries between random free points of `grid` (a few between all points of a
/// small sample, so unreachable goals and full searches are among them).
fn run(grid: &Grid, rng: &mut Rng, queries: usize, report: &mut CheckReport) {
    let index = RayIndex::new(grid);
    let mut ctx = SearchContext::new();
    let mut answer = Answer::default();
    let free: Vec<Point> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|p| grid.is_free(p.x, p.y))
        .collect();
    if free.len() < 2 {
        return;
    }
    for _ in 0..queries {
        let s = free[rng.below(free.len() as u32) as usize];
        let t = free[rng.below(free.len() as u32) as usize];
        ctx.search(grid, &index, s, t, &mut answer)
            .expect("valid endpoints");
    }
    let r = ctx.take_check_report();
    report.expansions += r.expansions;
    report.expected += r.expected;
    report.literal += r.literal;
    report.skipped += r.skipped;
    report.recorded += r.recorded;
    report.pockets += r.pockets;
    report.wasted += r.wasted;
    report.failures += r.failures;
    for m in r.mismatches {
        if report.mismatches.len() < 8 {
            report.mismatches.push(m);
        }
    }
}

#[test]
fn every_expansion_offers_every_visible_tangent_corner() {
    let maps: u64 = std::env::var("TAUT_CHECK_MAPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut report = CheckReport::default();
    let mut per_family = Vec::new();
    for (f, &family) in FAMILIES.iter().enumerate() {
        let before = report.expansions;
        for seed in 0..maps {
            let mut rng = Rng::new(seed * 31 + f as u64 + 1);
            let (w, h) = (4 + rng.below(21), 4 + rng.below(21));
            let grid = map(family, w, h, &mut rng);
            let failures = report.failures;
            run(&grid, &mut rng, 60, &mut report);
            if report.failures > failures {
                eprintln!(
                    "family {} seed {seed}: {} expansions failed",
                    family,
                    report.failures - failures
                );
            }
        }
        per_family.push((family, report.expansions - before));
    }
    eprintln!(
        "checked {} expansions ({per_family:?}): {} corners needed; {} visible tangent corners in the field, {} of them skipped; {} recorded, {} dropped as pockets, {} wasted",
        report.expansions,
        report.expected,
        report.literal,
        report.skipped,
        report.recorded,
        report.pockets,
        report.wasted
    );
    if !report.ok() {
        let shown: Vec<String> = report.mismatches.iter().map(|m| m.to_string()).collect();
        panic!(
            "{} of {} expansions differ from the brute-force list; the first {}:\n{}",
            report.failures,
            report.expansions,
            shown.len(),
            shown.join("\n")
        );
    }
    assert!(
        report.expansions > 10_000,
        "only {} expansions checked",
        report.expansions
    );
    for (family, n) in per_family {
        assert!(n > 500, "family {family}: only {n} expansions checked");
    }
}

/// A hand-made map where the check must find work: pillars in a row (collinear grazed corners),
/// a double corner and a staircase.
#[test]
fn the_check_runs_on_a_hand_made_map() {
    let grid = Grid::from_ascii(&[
        "..........",
        ".@..@..@..",
        "..........",
        "....@.....",
        ".....@....",
        "..@@......",
        "...@@.....",
        "....@@....",
        "..........",
    ])
    .unwrap();
    let mut report = CheckReport::default();
    run(&grid, &mut Rng::new(7), 200, &mut report);
    assert!(
        report.expansions > 100 && report.expected > 100,
        "{report:?}"
    );
    assert!(report.ok(), "{}", report.mismatches[0]);
}
