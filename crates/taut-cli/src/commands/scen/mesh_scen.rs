//! `taut scen --algo polyanya --mesh M.mesh --scen S.scen` on a mesh with no grid map: the
//! scenario names `.mesh` files and may give fractional coordinates (the reference Polyanya's
//! test scenarios do). Same columns as the grid form; coordinates are written as given.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use taut::grid::Status;
use taut::mesh::{Ambiguity, MeshAnswer, read_mesh, read_mesh_scenario};
use taut::polyanya::{Options, SearchContext};

use super::ScenArgs;
use crate::error::CliError;
use crate::row::{Row, RowStatus, RowWriter};

/// Runs a mesh scenario on `mesh_path`. A start or goal off the mesh, or on an ambiguous vertex
/// (obstacles touching there), is `invalid`.
///
/// # Errors
/// The mesh or scenario cannot be read, or writing fails.
pub fn run_mesh_scen(
    args: &ScenArgs,
    mesh_path: &Path,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let t = Instant::now();
    let mesh = read_mesh(mesh_path)?;
    let read = taut::Built {
        what: "given mesh".to_owned(),
        secs: t.elapsed().as_secs_f64(),
        heap_bytes: None,
        file: Some(mesh_path.to_owned()),
    };
    let queries = read_mesh_scenario(&args.scen)?;
    let n = args.limit.map_or(queries.len(), |l| l.min(queries.len()));
    let options = Options {
        cul_de_sac: !args.planner.no_cul_de_sac,
        intermediate: !args.planner.no_intermediate,
        ambiguity: Ambiguity::Refuse,
    };
    let mut ctx = SearchContext::new();
    let mut answer = MeshAnswer::default();
    let mut rows = RowWriter::start(out, args.format.into(), false)?;
    let mut tally = super::summary::Tally::default();
    for (index, q) in queries[..n].iter().enumerate() {
        let t = Instant::now();
        let r = ctx.search(&mesh, q.start, q.goal, &options, &mut answer);
        let time_us = t.elapsed().as_secs_f64() * 1e6;
        let (status, time_us) = match r {
            Ok(Status::Found) => (RowStatus::Ok(answer.length), time_us),
            Ok(Status::Unreachable) => (RowStatus::Unreachable, time_us),
            Err(_) => (RowStatus::Invalid, 0.0),
        };
        let row = Row {
            index,
            start: [q.start.x, q.start.y],
            goal: [q.goal.x, q.goal.y],
            status,
            expanded: answer.stats.expanded,
            generated: answer.stats.generated,
            time_us,
            first_us: None,
            waypoints: None,
        };
        tally.add(&row);
        rows.write(&row)?;
    }
    rows.finish()?;
    if args.summary {
        super::summary::write(warnings, &tally, &[read]);
    }
    Ok(())
}
