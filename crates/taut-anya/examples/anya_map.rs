//! Anya on a MovingAI grid map: one shortest any-angle path, checked, then a whole scenario.
//!
//! ```text
//! cargo run --release -p taut-anya --example anya_map [-- MAP [SX SY GX GY]]
//! ```
//!
//! With no arguments it reads `fixtures/maps/arena.map` and answers one of its scenario's
//! queries; with MAP alone, no single query. Points are lattice points: the top-left corner of
//! a cell, x east, y south. When `MAP.scen` exists beside the map, every query of it is
//! answered too, in one summary line.

use std::error::Error;
use std::path::Path;
use std::time::Instant;

use taut_anya::AnyaPlanner;
use taut_grid::{
    Answer, FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Planner, Point, Scenario, Status,
    lengths_agree, path_length,
};

const USAGE: &str = "usage: anya_map [MAP [SX SY GX GY]]";

/// Reports an error by its message: `Error: "start (1, 1) is on a blocked cell"`.
fn main() -> Result<(), String> {
    run().map_err(|e| e.to_string())
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let default_map = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/maps/arena.map");
    let map_path = Path::new(args.first().map_or(default_map, String::as_str));
    // `.`, `G` and `S` are free terrain, everything else (`@`, `T`, ...) is blocked.
    let grid = Grid::from_map(&MapFile::read(map_path)?, &FreeSet::default());
    println!(
        "{}: {}x{} cells, {} free",
        map_path.display(),
        grid.width(),
        grid.height(),
        grid.free_cells()
    );

    let query = match &args[..] {
        // A query of arena.map.scen that goes around several obstacles.
        [] => Some((Point::new(39, 6), Point::new(12, 40))),
        // A map alone: only its scenario.
        [_] => None,
        [_, sx, sy, gx, gy] => {
            let n = |s: &String| s.parse::<i32>().map_err(|e| format!("{s:?}: {e}; {USAGE}"));
            Some((Point::new(n(sx)?, n(sy)?), Point::new(n(gx)?, n(gy)?)))
        }
        _ => return Err(USAGE.into()),
    };

    // The planner borrows the grid and keeps its search buffers from one query to the next
    // (here the one query, then the scenario's).
    let mut anya = AnyaPlanner::new(&grid);
    if let Some((start, goal)) = query {
        plan_one(&grid, &mut anya, start, goal)?;
    }

    let mut scen_path = map_path.as_os_str().to_owned();
    scen_path.push(".scen");
    if Path::new(&scen_path).exists() {
        run_scenario(&grid, &mut anya, &Scenario::read(&scen_path)?)?;
    } else if query.is_none() {
        println!("no query given, and no {} to run", scen_path.display());
    }
    Ok(())
}

/// Plans one query, prints the path and checks it.
fn plan_one(
    grid: &Grid,
    anya: &mut AnyaPlanner<&Grid>,
    start: Point,
    goal: Point,
) -> Result<(), Box<dyn Error>> {
    let mut answer = Answer::default();
    // An endpoint off the map or on a blocked cell is an error, not "no path".
    match anya.plan(start, goal, &mut answer)? {
        Status::Unreachable => println!("no path from {start} to {goal}"),
        Status::Found => {
            println!(
                "{start} -> {goal}: length {:.6}, {} waypoints, {} nodes expanded",
                answer.length,
                answer.waypoints.len(),
                answer.stats.expanded
            );
            let path: Vec<String> = answer.waypoints.iter().map(|p| p.to_string()).collect();
            println!("  path: {}", path.join(" "));
            // Independent checks: every segment avoids the blocked cells (and the grid's
            // double-corner rule), and the reported length is that of the waypoints.
            grid.check_path(start, goal, &answer.waypoints)?;
            assert!(lengths_agree(path_length(&answer.waypoints), answer.length));
            println!("  checked: the path is legal and its length is its waypoints' length");
        }
    }
    Ok(())
}

/// Answers every query of `scen` and prints one line: how many, how fast, and how much
/// shorter any-angle paths are than the scenario's 8-connected (octile) optima.
fn run_scenario(
    grid: &Grid,
    anya: &mut AnyaPlanner<&Grid>,
    scen: &Scenario,
) -> Result<(), Box<dyn Error>> {
    let mut answer = Answer::default();
    let (mut found, mut any_angle, mut octile) = (0, 0.0, 0.0);
    let t = Instant::now();
    for e in &scen.entries {
        if anya.plan(e.start, e.goal, &mut answer)? == Status::Found {
            grid.check_path(e.start, e.goal, &answer.waypoints)?;
            // Any-angle paths are never longer than the octile optimum.
            assert!(
                answer.length <= e.octile + LENGTH_TOLERANCE,
                "line {}",
                e.line
            );
            found += 1;
            any_angle += answer.length;
            octile += e.octile;
        }
    }
    println!(
        "scenario: {found} of {} queries found and checked in {:.2} ms; any-angle paths are {:.1}% shorter than octile ones in total",
        scen.entries.len(),
        t.elapsed().as_secs_f64() * 1e3,
        100.0 * (1.0 - any_angle / octile)
    );
    Ok(())
}
