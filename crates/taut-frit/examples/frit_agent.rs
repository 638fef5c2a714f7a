//! A real-time agent in unknown terrain: p-FRIT_RT walks from a start cell to a goal cell of a
//! map it has never seen, sensing the 8 cells around it after every move and thinking at most
//! K expansions per move. Prints how it went, beside the optimum with the map known.
//!
//! ```text
//! cargo run --release -p taut-frit --example frit_agent [-- MAP SX SY GX GY [K]]
//! ```
//!
//! With no arguments it goes from cell (36, 31) to cell (19, 47) of `fixtures/maps/arena.map`,
//! through walls it discovers on the way, with lookahead K = 1 (the CLI's default); add
//! `-- fixtures/maps/arena.map 36 31 19 47 4` to see what a lookahead of 4 buys. Cells are
//! (x east, y south); the agent moves to its 8 neighbours (straight moves cost 1, diagonal
//! ones √2, no corner cutting).

use std::error::Error;

use taut_baselines::astar::AStar;
use taut_frit::{AgentAlgo, RunParams, Scratch, Status, World, run};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Point};

const USAGE: &str = "usage: frit_agent [MAP SX SY GX GY [K]] (lookahead K >= 1)";

/// Reports an error by its message: `Error: "start (1, 1) is a blocked cell"`.
fn main() -> Result<(), String> {
    run_example().map_err(|e| e.to_string())
}

fn run_example() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let default_map = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/maps/arena.map");
    let map_path = args.first().map_or(default_map, String::as_str);
    let grid = Grid::from_map(&MapFile::read(map_path)?, &FreeSet::default());
    let nums = args
        .get(1..)
        .unwrap_or_default()
        .iter()
        .map(|s| s.parse::<i32>().map_err(|e| format!("{s:?}: {e}; {USAGE}")));
    let (start, goal, k) = match nums.collect::<Result<Vec<_>, _>>()?[..] {
        [] if args.is_empty() => ((36, 31), (19, 47), 1),
        [sx, sy, gx, gy] => ((sx, sy), (gx, gy), 1),
        [sx, sy, gx, gy, k] if k >= 1 => ((sx, sy), (gx, gy), k as u32),
        _ => return Err(USAGE.into()),
    };

    // The true map and its connected components. The agent never reads it: it sees the map
    // only through its belief, which starts empty (every unseen cell is assumed free).
    let world = World::new(&grid);
    // p-FRIT_RT is the agent of choice: the CLI's default, and in the experiment of
    // docs/frit.md its mean cost was below daRTAA*'s and FRIT_RT's at every lookahead. It
    // follows an ideal tree towards the goal and, when an obstacle it discovers cuts the
    // tree, reconnects along the obstacle's border, expanding at most K states per move.
    let algo = AgentAlgo::PFritRt;
    let mut agent = algo.agent();
    let params = RunParams::new(algo.effective_lookahead(k));
    // The scratch is per-thread search memory; one serves any number of runs.
    let out = run(
        &world,
        agent.as_mut(),
        start,
        goal,
        &params,
        &mut Scratch::new(),
    )?;
    let s = &out.stats;
    println!("{map_path}: {algo}, lookahead {k}, from cell {start:?} to cell {goal:?}");
    let how = match &out.status {
        Status::Reached => "reached the goal",
        // Decided from the true map's components before the first move.
        Status::Unsolvable => "the goal cannot be reached from the start",
        Status::Cutoff => "gave up at the simulator's move cap",
        Status::Failed(why) => return Err(format!("the agent broke a rule: {why}").into()),
    };
    println!("  {how}: {} moves, {:.2} travelled", s.moves, s.cost);
    println!(
        "  it saw {} blocked cells and planned {} times, expanding at most {} states each time ({:.3} ms in all)",
        s.discovered,
        s.episodes,
        s.max_episode_expansions,
        s.time.as_secs_f64() * 1e3
    );

    // For comparison: the shortest 8-connected path with the whole map known (A*).
    let mut best = Answer::default();
    let (s0, g0) = (Point::new(start.0, start.1), Point::new(goal.0, goal.1));
    AStar::new().search(&grid, s0, g0, &mut best)?;
    if out.status == Status::Reached && best.length > 0.0 {
        println!(
            "  with the map known the shortest path is {:.2}: the agent travelled {:.2}x as far",
            best.length,
            s.cost / best.length
        );
    }
    Ok(())
}
