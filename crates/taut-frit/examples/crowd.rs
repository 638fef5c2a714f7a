//! The batch API's benchmark: N agents on one map, each frame a total expansion budget shared
//! round-robin; reports agents moved per second and the time per frame.
//!
//! `cargo run --release -p taut-frit --example crowd -- MAP [ALGO] [LOOKAHEAD] [BUDGET/AGENT] [FRAMES]`
//! (defaults: p-frit-rt, 16, 16, 200). Agents start and end on random connected free cells
//! (SplitMix64-like stream seeded 1); each count runs the same number of frames.

use std::time::{Duration, Instant};

use taut_frit::batch::{Crowd, FrameBudget, Share};
use taut_frit::{AgentAlgo, World};
use taut_grid::{FreeSet, Grid, MapFile};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let Some(path) = a.get(1) else {
        eprintln!("usage: crowd MAP [ALGO] [LOOKAHEAD] [BUDGET_PER_AGENT] [FRAMES]");
        std::process::exit(2);
    };
    let map = MapFile::read(path).unwrap_or_else(|e| {
        eprintln!("crowd: {e}");
        std::process::exit(1)
    });
    let algo: AgentAlgo = a
        .get(2)
        .map_or(Ok(AgentAlgo::PFritRt), |s| s.parse())
        .unwrap_or(AgentAlgo::PFritRt);
    let arg = |i: usize, d: u64| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (k, per_agent, frames) = (arg(3, 16) as u32, arg(4, 16), arg(5, 200));
    let grid = Grid::from_map(&map, &FreeSet::default());
    let world = World::new(&grid);
    let free: Vec<u32> = (0..world.cells() as u32)
        .filter(|&c| world.is_free(c))
        .collect();
    let mut state = 1u64;
    let mut next = move |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (((z ^ (z >> 31)) as u128 * n as u128) >> 64) as usize
    };
    println!(
        "map {path}, {algo} lookahead {k}, budget {per_agent} expansions per agent per frame, {frames} frames, {} rayon threads",
        rayon::current_num_threads()
    );
    println!(
        "| agents | frames | moves | agents moved per second | mean frame (µs) | max frame (µs) | expansions per frame | memory per agent (KiB) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for n in [1usize, 100, 1000] {
        let mut crowd = Crowd::new(&world);
        while crowd.len() < n {
            let (s, g) = (free[next(free.len())], free[next(free.len())]);
            if s != g && world.connected(s, g) {
                crowd
                    .add(algo, world.xy(s), world.xy(g), k, 0)
                    .expect("free cells");
            }
        }
        let budget = FrameBudget::Expansions(per_agent * n as u64);
        let (mut total, mut max, mut moved, mut exp) = (Duration::ZERO, Duration::ZERO, 0u64, 0u64);
        let t0 = Instant::now();
        for _ in 0..frames {
            let r = crowd.frame(budget, Share::RoundRobin);
            total += r.time;
            max = max.max(r.time);
            moved += r.moved as u64;
            exp += r.expansions;
        }
        let wall = t0.elapsed();
        println!(
            "| {n} | {frames} | {moved} | {:.0} | {:.1} | {:.1} | {:.0} | {:.1} |",
            moved as f64 / wall.as_secs_f64(),
            total.as_secs_f64() * 1e6 / frames as f64,
            max.as_secs_f64() * 1e6,
            exp as f64 / frames as f64,
            crowd.heap_bytes() as f64 / n as f64 / 1024.0
        );
    }
}
