//! `taut scen --algo polyanya --mesh M.mesh --scen S.scen` on a mesh with no grid map: the
//! scenario names `.mesh` files and may give fractional coordinates (the reference Polyanya's
//! test scenarios do). Same columns as the grid form; coordinates are written as given.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use taut::grid::Status;
use taut::mesh::{Ambiguity, MeshAnswer, read_mesh, read_mesh_scenario};
use taut::polyanya::{Options, SearchContext};

use crate::args::{ScenArgs, ScenFormat};
use crate::error::CliError;
use crate::scen::CSV_HEADER;

/// Runs a mesh scenario on `mesh_path`. A start or goal off the mesh, or on an ambiguous vertex
/// (obstacles touching there), is `invalid`.
///
/// # Errors
/// The mesh or scenario cannot be read, or writing fails.
pub fn run_mesh_scen(
    args: &ScenArgs,
    mesh_path: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mesh = read_mesh(mesh_path)?;
    let queries = read_mesh_scenario(&args.scen)?;
    let n = args.limit.map_or(queries.len(), |l| l.min(queries.len()));
    let options = Options {
        cul_de_sac: !args.planner.no_cul_de_sac,
        intermediate: !args.planner.no_intermediate,
        ambiguity: Ambiguity::Refuse,
    };
    let mut ctx = SearchContext::new();
    let mut answer = MeshAnswer::default();
    let json = args.format == ScenFormat::Json;
    if json {
        write!(out, "[")?;
    } else {
        writeln!(out, "{CSV_HEADER}")?;
    }
    for (index, q) in queries[..n].iter().enumerate() {
        let t = Instant::now();
        let r = ctx.search(&mesh, q.start, q.goal, &options, &mut answer);
        let time_us = t.elapsed().as_secs_f64() * 1e6;
        let (status, length, time_us) = match r {
            Ok(Status::Found) => ("ok", format!("{:.8}", answer.length), time_us),
            Ok(Status::Unreachable) => ("unreachable", "-1".to_owned(), time_us),
            Err(_) => ("invalid", "-1".to_owned(), 0.0),
        };
        let (e, g) = (answer.stats.expanded, answer.stats.generated);
        let (s, t) = (q.start, q.goal);
        if json {
            write!(
                out,
                "{}\n  {{\"index\":{index},\"start_x\":{},\"start_y\":{},\"goal_x\":{},\"goal_y\":{},\
                 \"status\":\"{status}\",\"length\":{length},\"expanded\":{e},\"generated\":{g},\"time_us\":{time_us:.3}}}",
                if index == 0 { "" } else { "," },
                s.x,
                s.y,
                t.x,
                t.y
            )?;
        } else {
            writeln!(
                out,
                "{index},{},{},{},{},{status},{length},{e},{g},{time_us:.3}",
                s.x, s.y, t.x, t.y
            )?;
        }
    }
    if json {
        writeln!(out, "{}]", if n == 0 { "" } else { "\n" })?;
    }
    Ok(())
}
