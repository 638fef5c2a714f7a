//! `taut path`: one query, its length, waypoints and statistics, as text or as one JSON
//! [`Row`](crate::row::Row) with its waypoints.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use taut::grid::{Answer, PlanError, Point};

use crate::args::{LimitArgs, PlannerArgs, parse_point};
use crate::error::CliError;
use crate::planners::{load_grid, open_map, planner_for_args};
use crate::row::{Row, RowStatus};

/// Arguments of `taut path`.
#[derive(Debug, Clone, Args)]
pub struct PathArgs {
    /// The MovingAI .map file.
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start lattice point X,Y: the top-left corner of cell (X, Y), x east, y south, from 0;
    /// valid when that cell is on the map and free.
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub from: Point,
    /// Goal lattice point X,Y, as --from.
    #[arg(long, value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    pub to: Point,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PathFormat::Text)]
    pub format: PathFormat,
    /// The bound on the query.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Output formats of `taut path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PathFormat {
    /// `length L` (or `unreachable`), `waypoints N`, N lines `x,y`, `expanded E`, `generated G`.
    Text,
    /// One JSON object.
    Json,
}

/// `taut path`: plans one query and writes its length, waypoints and statistics (notes, such
/// as a CPD built in memory, go to `notes`).
///
/// # Errors
/// The map cannot be loaded, or an endpoint is off the map or blocked ([`CliError::Query`]).
pub fn run(args: &PathArgs, out: &mut dyn Write, notes: &mut dyn Write) -> Result<(), CliError> {
    let grid = load_grid(&args.map, &args.planner)?;
    grid.check_query(args.from, args.to)?;
    let map = open_map(grid, &args.planner)?;
    // One query: `auto` does not build a mesh for it.
    let (mut planner, _) = planner_for_args(&map, &args.planner, false, notes)?;
    let mut answer = Answer::default();
    let t = Instant::now();
    let limit = args.limits.limit();
    let status = if limit.is_none() {
        RowStatus::from(planner.plan(args.from, args.to, &mut answer)?, &answer)
    } else {
        match planner.plan_within(args.from, args.to, limit, &mut answer) {
            Ok(s) => RowStatus::from(s, &answer),
            Err(PlanError::Query(e)) => return Err(e.into()),
            Err(PlanError::Limit(reached)) => {
                answer.stats = reached.stats;
                RowStatus::Limit
            }
        }
    };
    let time_us = t.elapsed().as_secs_f64() * 1e6;
    let stats = answer.stats;
    match args.format {
        PathFormat::Text => {
            match status {
                RowStatus::Ok(length) => writeln!(out, "length {length:.8}")?,
                RowStatus::Limit => writeln!(
                    out,
                    "limit reached after {} expansions ({:.3} ms): no path",
                    stats.expanded,
                    time_us / 1e3
                )?,
                _ => writeln!(out, "unreachable")?,
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
                status,
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
