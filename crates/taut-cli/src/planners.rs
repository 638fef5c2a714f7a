//! The planners the CLI can run: the registry of the `taut` facade (one list for the bench, the
//! differential tests and the command line), with the meshes and CPD a planner needs prepared
//! from the command line's options, and the map loaded under its free-terrain set.

use std::io::Write;
use std::path::Path;
pub use taut::registry::{
    Algo, EpsStop, MapMeshes, MeshChoice, MeshSetupError, Tuning, UnknownAlgo,
};

use taut::grid::{Grid, MapFile, Planner};
pub use taut::registry::{CpdSource, HubSource};

use crate::args::PlannerArgs;
use crate::error::CliError;
use crate::progress::TermProgress;

/// The meshes, CPD and hub index the planner `args` select needs, for `grid`: Polyanya, End
/// Point Search and hub labels get the mesh of `--mesh`, or taut's mesh of the grid built
/// here; End Point Search gets the CPD of `--cpd` (which must belong to that mesh), or one
/// built here, saying so on `notes` (with a progress bar on stderr when it is a terminal);
/// hub labels likewise get the index of `--hub` (which must belong to the map and the mesh),
/// or one built here.
///
/// # Errors
/// [`CliError::MeshSetup`] when the mesh or the CPD cannot be read or built, or does not
/// belong to this map.
pub fn prepare(
    grid: &Grid,
    args: &PlannerArgs,
    notes: &mut dyn Write,
) -> Result<(MapMeshes, Tuning), CliError> {
    if args.cpd.is_some() && args.algo != Algo::Eps {
        return Err(CliError::OnlyWith {
            option: "--cpd",
            algo: "eps",
        });
    }
    if args.hub.is_some() && args.algo != Algo::Hub {
        return Err(CliError::OnlyWith {
            option: "--hub",
            algo: "hub",
        });
    }
    let tuning = args.tuning();
    let (mut meshes, _) = MapMeshes::prepare(grid, [(args.algo, &tuning)], args.mesh.as_deref())?;
    if args.algo == Algo::Eps {
        let source = match &args.cpd {
            Some(path) => CpdSource::File(path),
            None => {
                // A note that cannot be written is not worth failing the run for.
                let _ = writeln!(
                    notes,
                    "taut: no --cpd given: building the CPD of the map in memory (`taut cpd build` writes one to reuse)"
                );
                CpdSource::Build
            }
        };
        let progress = TermProgress::stderr();
        meshes.prepare_cpd([(args.algo, &tuning)], source, &progress)?;
        progress.finish();
    }
    if args.algo == Algo::Hub {
        let source = match &args.hub {
            Some(path) => HubSource::File(path),
            None => {
                let _ = writeln!(
                    notes,
                    "taut: no --hub given: building the hub index of the map in memory (`taut hub build` writes one to reuse)"
                );
                HubSource::Build
            }
        };
        meshes.prepare_hub(grid, [(args.algo, &tuning)], source)?;
    }
    Ok((meshes, tuning))
}

/// The planner `args` select, for `grid` ([`prepare`] gives it its mesh and CPD).
///
/// # Errors
/// As [`prepare`].
pub fn make_planner<'g>(
    grid: &'g Grid,
    args: &PlannerArgs,
    notes: &mut dyn Write,
) -> Result<Box<dyn Planner + Send + 'g>, CliError> {
    let (meshes, tuning) = prepare(grid, args, notes)?;
    Ok(taut::registry::make_planner(
        args.algo, grid, &tuning, &meshes,
    )?)
}

/// Builds the grid of a map file under a free-terrain set.
///
/// # Errors
/// The file cannot be read or is not a valid `.map`.
pub fn load_grid(path: &Path, args: &PlannerArgs) -> Result<Grid, CliError> {
    Ok(Grid::from_map(&MapFile::read(path)?, &args.free))
}
