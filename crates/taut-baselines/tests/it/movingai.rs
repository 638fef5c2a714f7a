//! A* against the octile optima of real MovingAI scenarios, and every Theta* / Lazy Theta*
//! path through the legality checker.
//!
//! The normal suite uses the small `arena` fixture shipped with the repository. The timing
//! run over large maps from the shared data directory is `#[ignore]`d; run it with
//! `cargo test --release -p taut-baselines --test it movingai:: -- --ignored --nocapture`.

use std::path::Path;
use std::time::Instant;

use taut_baselines::astar::AStar;
use taut_baselines::theta::{Theta, Variant};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Scenario, Status, path_length};

fn load(map: &Path, scen: &Path) -> (Grid, Scenario) {
    let map = MapFile::read(map).unwrap();
    let grid = Grid::from_map(&map, &FreeSet::default());
    (grid, Scenario::read(scen).unwrap())
}

/// Runs every query of the scenario; checks A* lengths and any-angle path legality. Returns
/// the mean microseconds per query of A*, Theta*, Lazy Theta*.
fn run(grid: &Grid, scen: &Scenario, check_paths: bool) -> ([f64; 3], [f64; 3]) {
    let mut astar = AStar::new();
    let mut theta = Theta::new();
    let mut out = Answer::default();
    let n = scen.entries.len() as f64;
    let mut exp = [0.0; 3];
    let t = Instant::now();
    for e in &scen.entries {
        let st = astar.search(grid, e.start, e.goal, &mut out).unwrap();
        assert_eq!(st, Status::Found, "line {}", e.line);
        assert!(
            (out.length - e.octile).abs() < 1e-4,
            "line {}: A* {} vs scen {}",
            e.line,
            out.length,
            e.octile
        );
        exp[0] += out.stats.expanded as f64 / n;
    }
    let ta = t.elapsed().as_secs_f64() * 1e6 / n;
    let mut times = [ta, 0.0, 0.0];
    for (i, variant) in [Variant::Theta, Variant::Lazy].into_iter().enumerate() {
        let mut total = 0.0;
        for e in &scen.entries {
            let t = Instant::now();
            let st = theta
                .search(grid, variant, e.start, e.goal, &mut out)
                .unwrap();
            total += t.elapsed().as_secs_f64();
            exp[i + 1] += out.stats.expanded as f64 / n;
            assert_eq!(st, Status::Found, "{variant:?} line {}", e.line);
            assert!((out.length - path_length(&out.waypoints)).abs() < 1e-9);
            if let Err(v) = grid.check_path(e.start, e.goal, &out.waypoints)
                && check_paths
            {
                panic!("{variant:?} line {}: illegal path: {v}", e.line);
            }
        }
        times[i + 1] = total * 1e6 / n;
    }
    (times, exp)
}

#[test]
fn arena_fixture() {
    let dir = taut_testdata::fixtures().join("maps");
    let (grid, scen) = load(&dir.join("arena.map"), &dir.join("arena.map.scen"));
    assert!(scen.entries.len() > 100);
    run(&grid, &scen, true);
}

#[test]
#[ignore = "timing run over large maps; use --release -- --ignored --nocapture"]
fn movingai_timing() {
    let Some(data) = taut_testdata::shared_data("movingai_timing") else {
        return;
    };
    let maps = std::env::var("TAUT_TIMING_MAPS")
        .unwrap_or_else(|_| "arena2,den520d,AcrosstheCape,random512-40-0".into());
    println!("map, queries, astar_us, theta_us, lazy_theta_us, astar_exp, theta_exp, lazy_exp");
    let check = std::env::var("TAUT_TIMING_NOCHECK").is_err();
    for name in maps.split(',') {
        let map = data.join("grid/maps").join(format!("{name}.map"));
        let scen = data.join("grid/scen").join(format!("{name}.map.scen"));
        let (grid, scen) = load(&map, &scen);
        let ([a, t, l], [ea, et, el]) = run(&grid, &scen, check);
        println!(
            "{name}, {}, {a:.1}, {t:.1}, {l:.1}, {ea:.0}, {et:.0}, {el:.0}",
            scen.entries.len()
        );
    }
}
