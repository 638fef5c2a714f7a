//! `taut planners`: the facade's table of planners, and what `auto` picks on given maps.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use taut::grid::FreeSet;
use taut::registry::{PLANNERS, markdown_table};
use taut::{Map, MapFile};

use crate::args::parse_free_set;
use crate::error::CliError;
use crate::fields::InfoFormat;

/// Arguments of `taut planners`.
#[derive(Debug, Clone, Args)]
pub struct PlannersArgs {
    /// Also print, for each of these .map files, what `auto` reads of it (free cells,
    /// obstacles, obstacles per thousand free cells) and the planner it picks with nothing
    /// built and once the mesh is built.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub map: Vec<PathBuf>,
    /// The map characters that are free terrain.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Print the table as Markdown (the table of `docs/planners.md`).
    #[arg(long, conflicts_with = "format")]
    pub markdown: bool,
    /// Output format: text (the default), or one JSON object: `planners` (each with `name`,
    /// `summary`, `promise`, `needs` and its `options`, each `name` and `help`) and, with
    /// --map, `maps` (the csv's columns as keys).
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// `taut planners`: every planner of this build, one per line (name, what it is, options), or
/// the Markdown table; then one csv row per `--map`.
///
/// # Errors
/// A map that cannot be read, or a failed write.
pub fn run(args: &PlannersArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.format == InfoFormat::Json {
        let planners: Vec<serde_json::Value> = PLANNERS
            .iter()
            .map(|k| {
                serde_json::json!({
                    "name": k.name,
                    "summary": k.summary,
                    "promise": k.promise.to_string(),
                    "needs": k.needs.describe(),
                    "options": k.options.iter().map(|o| serde_json::json!({
                        "name": o.name, "help": o.help,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut maps = Vec::new();
        for path in &args.map {
            let map = Map::new(taut::Grid::from_map(&MapFile::read(path)?, &args.free));
            let kind = *map.kind();
            let bare = map.auto_algo();
            map.prepare(&taut::PlannerSpec::plain(taut::Algo::Auto))?;
            maps.push(serde_json::json!({
                "map": path.display().to_string(),
                "free_cells": kind.free,
                "obstacles": kind.obstacles,
                "clutter": kind.clutter(),
                "auto": bare.to_string(),
                "auto_with_mesh": map.auto_algo().to_string(),
            }));
        }
        let mut doc = serde_json::json!({ "planners": planners });
        if !args.map.is_empty() {
            doc["maps"] = serde_json::Value::Array(maps);
        }
        serde_json::to_writer(&mut *out, &doc).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    if args.markdown {
        write!(out, "{}", markdown_table())?;
    } else if args.map.is_empty() {
        for k in PLANNERS {
            writeln!(out, "{:<11} {}", k.name, k.summary)?;
            writeln!(
                out,
                "{:<11} promise: {}; needs: {}",
                "",
                k.promise,
                k.needs.describe()
            )?;
            for o in k.options {
                writeln!(out, "{:<11} :{}  {}", "", o.name, o.help)?;
            }
        }
    }
    if !args.map.is_empty() {
        writeln!(out, "map,free_cells,obstacles,clutter,auto,auto_with_mesh")?;
        for path in &args.map {
            let map = Map::new(taut::Grid::from_map(&MapFile::read(path)?, &args.free));
            let kind = *map.kind();
            let bare = map.auto_algo();
            map.prepare(&taut::PlannerSpec::plain(taut::Algo::Auto))?;
            writeln!(
                out,
                "{},{},{},{:.3},{},{}",
                path.display(),
                kind.free,
                kind.obstacles,
                kind.clutter(),
                bare,
                map.auto_algo()
            )?;
        }
    }
    Ok(())
}
