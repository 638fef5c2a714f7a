//! `ray` against Anya (an independent exact planner) on random grids and shipped maps.

use proptest::prelude::*;
use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status, lengths_agree};
use taut_ray::RayPlanner;

/// Compares the two planners on every query between `points`; returns the first difference.
fn compare(grid: &Grid, points: &[Point]) -> Result<usize, String> {
    let mut ray = RayPlanner::new(grid);
    let mut anya = AnyaPlanner::new(grid);
    let (mut a, mut b) = (Answer::default(), Answer::default());
    let mut n = 0;
    for &s in points {
        for &t in points {
            let ra = ray.plan(s, t, &mut a);
            let rb = anya.plan(s, t, &mut b);
            match (ra, rb) {
                (Err(_), Err(_)) => continue,
                (Ok(sa), Ok(sb)) => {
                    if sa != sb || (sa == Status::Found && !lengths_agree(a.length, b.length)) {
                        return Err(format!(
                            "{s} -> {t}: ray {sa:?} {} {:?}, anya {sb:?} {} {:?}\n{}",
                            a.length,
                            a.waypoints,
                            b.length,
                            b.waypoints,
                            grid.to_ascii()
                        ));
                    }
                    if sa == Status::Found {
                        grid.check_path(s, t, &a.waypoints).map_err(|e| {
                            format!(
                                "{s} -> {t}: illegal ray path {:?}: {e}\n{}",
                                a.waypoints,
                                grid.to_ascii()
                            )
                        })?;
                    }
                    n += 1;
                }
                (x, y) => return Err(format!("{s} -> {t}: ray {x:?}, anya {y:?}")),
            }
        }
    }
    Ok(n)
}

fn random_grid(w: u32, h: u32, density: u32, seed: u64) -> Grid {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    Grid::from_fn(w, h, |_, _| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 100) as u32 >= density
    })
}

fn lattice_points(grid: &Grid, step: i32) -> Vec<Point> {
    let mut v = Vec::new();
    for y in (0..=grid.height()).step_by(step as usize) {
        for x in (0..=grid.width()).step_by(step as usize) {
            v.push(Point::new(x, y));
        }
    }
    v
}

#[test]
fn ray_equals_anya_on_small_random_grids() {
    let mut total = 0;
    for seed in 0..300u64 {
        let density = [10, 20, 30, 40][(seed % 4) as usize];
        let g = random_grid(7 + (seed % 5) as u32, 6 + (seed % 4) as u32, density, seed);
        match compare(&g, &lattice_points(&g, 1)) {
            Ok(n) => total += n,
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    assert!(total > 10_000, "only {total} queries compared");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn ray_equals_anya_on_random_grids(seed in any::<u64>(), w in 4u32..24, h in 4u32..24, density in 0u32..45) {
        let g = random_grid(w, h, density, seed);
        let pts = lattice_points(&g, 3);
        prop_assert!(compare(&g, &pts).is_ok(), "{}", compare(&g, &pts).unwrap_err());
    }
}
