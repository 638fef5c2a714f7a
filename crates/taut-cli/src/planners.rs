//! The planners the CLI can run: the facade's table of planners ([`taut::registry::PLANNERS`]),
//! on a prepared [`Map`] made from the command line's options (the mesh of `--mesh`, the CPD
//! of `--cpd`, the index of `--hub`, else built in memory), with the map loaded under its
//! free-terrain set.

use std::io::Write;
use std::path::Path;

use taut::registry::{Algo, BoxedPlanner, PlannerSpec};
use taut::{Grid, Map, MapFile, Source};

use crate::args::PlannerArgs;
use crate::error::CliError;
use crate::progress::TermProgress;

/// The prepared map of `grid` for the planner `args` select: the mesh of `--mesh`, the CPD of
/// `--cpd` and the index of `--hub` (each checked against the map when first used), else
/// built in memory on first use.
///
/// # Errors
/// [`CliError::OnlyWith`] when `--cpd` or `--hub` is given with a planner that does not read
/// it.
pub fn open_map(grid: Grid, args: &PlannerArgs) -> Result<Map, CliError> {
    if args.cpd.is_some() && !matches!(args.algo(), Algo::Eps | Algo::Auto) {
        return Err(CliError::OnlyWith {
            option: "--cpd",
            algo: "eps or auto",
        });
    }
    if args.hub.is_some() && !matches!(args.algo(), Algo::Hub | Algo::Auto) {
        return Err(CliError::OnlyWith {
            option: "--hub",
            algo: "hub or auto",
        });
    }
    let mut map = Map::new(grid);
    if let Some(mesh) = &args.mesh {
        map = map.with_mesh_file(mesh);
    }
    if let Some(cpd) = &args.cpd {
        map = map.with_cpd(Source::File(cpd.clone()));
    }
    if let Some(hub) = &args.hub {
        map = map.with_hub(Source::File(hub.clone()));
    }
    Ok(map)
}

/// The planner `args` select, on `map`, with `auto` resolved to the planner it picks (after
/// building the mesh when the map is one where that pays and `many` queries will follow).
/// End Point Search without `--cpd` builds its CPD here, saying so on `notes` (with a progress
/// bar on stderr when it is a terminal); hub labels without `--hub` likewise build their index.
/// Returns the planner and the planner it is.
///
/// # Errors
/// [`CliError::MeshSetup`] when the mesh, CPD or index cannot be read or built, or does not
/// belong to this map.
pub fn planner_for_args(
    map: &Map,
    args: &PlannerArgs,
    many: bool,
    notes: &mut dyn Write,
) -> Result<(BoxedPlanner, Algo), CliError> {
    let mut algo = args.algo();
    if algo == Algo::Auto {
        if many {
            map.prepare(&PlannerSpec::plain(Algo::Auto))?;
        }
        algo = map.auto_algo();
    }
    let spec = PlannerSpec {
        algo,
        tuning: args.tuning(),
        label: algo.name().to_owned(),
    };
    if algo == Algo::Eps {
        if *map.cpd_source() == Source::Build {
            // A note that cannot be written is not worth failing the run for.
            let _ = writeln!(
                notes,
                "taut: no --cpd given: building the CPD of the map in memory (`taut cpd build` writes one to reuse)"
            );
        }
        let progress = TermProgress::stderr();
        map.cpd_with_progress(spec.tuning.mesh, &progress)?;
        progress.finish();
    }
    if algo == Algo::Hub && *map.hub_source() == Source::Build {
        let _ = writeln!(
            notes,
            "taut: no --hub given: building the hub index of the map in memory (`taut hub build` writes one to reuse)"
        );
    }
    Ok((map.planner(&spec)?, algo))
}

/// Builds the grid of a map file under a free-terrain set.
///
/// # Errors
/// The file cannot be read or is not a valid `.map`.
pub fn load_grid(path: &Path, args: &PlannerArgs) -> Result<Grid, CliError> {
    Ok(Grid::from_map(&MapFile::read(path)?, &args.free))
}
