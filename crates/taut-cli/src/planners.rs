//! The planners the CLI can run: the registry of `taut-bench` (one list for the bench and the
//! command line), plus the parsing of planner options.

use taut_anya::RootHistory;
pub use taut_bench::registry::{
    Algo, EpsStop, MapMeshes, MeshChoice, MeshSetupError, Tuning, UnknownAlgo,
};
use taut_grid::{Grid, Planner};

use crate::args::PlannerArgs;
use crate::error::CliError;

/// The planner `args` select, for `grid`: Polyanya gets the mesh of `--mesh`, or taut's mesh
/// of the grid built here.
///
/// # Errors
/// [`CliError::Mesh`] when the mesh cannot be read, built, or is not a mesh of this map.
pub fn make_planner<'g>(
    grid: &'g Grid,
    args: &PlannerArgs,
) -> Result<Box<dyn Planner + Send + 'g>, CliError> {
    let tuning = args.tuning();
    let (meshes, _) = MapMeshes::prepare(grid, [(args.algo, &tuning)], args.mesh.as_deref())?;
    Ok(taut_bench::registry::make_planner(
        args.algo, grid, &tuning, &meshes,
    )?)
}

/// Parses a root-history name (`flat` or `hash`).
pub fn parse_root_history(s: &str) -> Result<RootHistory, String> {
    match s {
        "flat" => Ok(RootHistory::Flat),
        "hash" => Ok(RootHistory::Hash),
        _ => Err(format!(
            "{s:?} is not a root history: expected flat or hash"
        )),
    }
}
