//! `taut path`: one query, its length, waypoints and statistics, as text or as one JSON
//! [`Row`](crate::Row) with its waypoints.

use std::io::Write;
use std::time::Instant;

use taut::grid::{Answer, Status};

use crate::args::{PathArgs, PathFormat};
use crate::error::CliError;
use crate::planners::{load_grid, make_planner, open_map};
use crate::row::{Outcome, Row};

/// `taut path`: plans one query and writes its length, waypoints and statistics (notes, such
/// as a CPD built in memory, go to `notes`).
///
/// # Errors
/// The map cannot be loaded, or an endpoint is off the map or blocked ([`CliError::Query`]).
pub fn run_path(
    args: &PathArgs,
    out: &mut dyn Write,
    notes: &mut dyn Write,
) -> Result<(), CliError> {
    let grid = load_grid(&args.map, &args.planner)?;
    grid.check_query(args.from, args.to)?;
    let map = open_map(grid, &args.planner)?;
    // One query: `auto` does not build a mesh for it.
    let (mut planner, _) = make_planner(&map, &args.planner, false, notes)?;
    let mut answer = Answer::default();
    let t = Instant::now();
    let status = planner.plan(args.from, args.to, &mut answer)?;
    let time_us = t.elapsed().as_secs_f64() * 1e6;
    let found = status == Status::Found;
    let stats = answer.stats;
    match args.format {
        PathFormat::Text => {
            if found {
                writeln!(out, "length {:.8}", answer.length)?;
            } else {
                writeln!(out, "unreachable")?;
            }
            writeln!(out, "waypoints {}", answer.waypoints.len())?;
            for p in &answer.waypoints {
                writeln!(out, "{},{}", p.x, p.y)?;
            }
            writeln!(out, "expanded {}", stats.expanded)?;
            writeln!(out, "generated {}", stats.generated)?;
        }
        PathFormat::Json => {
            let row = Row {
                outcome: if found {
                    Outcome::Ok(answer.length)
                } else {
                    Outcome::Unreachable
                },
                expanded: stats.expanded,
                generated: stats.generated,
                time_us,
                waypoints: Some(answer.waypoints),
                ..Row::invalid(0, args.from, args.to)
            };
            serde_json::to_writer(&mut *out, &row).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
