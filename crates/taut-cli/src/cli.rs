//! The command line: [`Cli`] and its [`Command`]s, as clap derive types (each command's own
//! arguments live with its runner in `commands/`), and how a usage error becomes one line.

use clap::{Parser, Subcommand};

use crate::commands::agent::{self, AgentArgs};
use crate::commands::cpd::CpdArgs;
use crate::commands::hub::HubArgs;
use crate::commands::list::PlannersArgs;
use crate::commands::mesh::MeshArgs;
use crate::commands::path::PathArgs;
use crate::commands::render::RenderArgs;
use crate::commands::route::{self, RouteArgs};
use crate::commands::scen::ScenArgs;
use crate::commands::world::{self, WorldArgs};

/// Optimal any-angle path planning on grid maps (MovingAI `.map` / `.scen` files).
#[derive(Debug, Clone, Parser)]
#[command(name = "taut", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `taut`.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Plan one path and print its length, waypoints and search statistics.
    Path(PathArgs),
    /// Run the queries of a MovingAI .scen file and print one row per query.
    Scen(ScenArgs),
    /// Draw one query: the map, the path, its turning points and the search (SVG or PNG).
    Render(RenderArgs),
    /// Build navigation meshes (Polyanya "mesh 2" files) from grid or polygon maps.
    Mesh(MeshArgs),
    /// Build, merge and describe compressed path databases (End Point Search's preprocessing).
    Cpd(CpdArgs),
    /// Build and describe hub label indexes (the `hub` planner's preprocessing).
    Hub(HubArgs),
    /// Plan the shortest sea route between two LAT,LON points on a sphere map (Spherical
    /// Anya); print km, nautical miles and waypoints; optionally write GeoJSON or a picture.
    #[command(long_about = route::ABOUT, after_help = route::AFTER_HELP)]
    Route(RouteArgs),
    /// Run a real-time agent in unknown terrain (LRTA*, RTAA*, FRIT, Bug2, ...) on the queries
    /// of a .scen file or on one --start/--goal pair; print one row per query; optionally
    /// draw its trail.
    #[command(long_about = agent::ABOUT, after_help = agent::AFTER_HELP)]
    Agent(AgentArgs),
    /// Run a script of agents and timed edits on a changing map (doors that close and open):
    /// agents re-plan after every edit; print what happened; optionally draw frames before and
    /// after every edit.
    #[command(long_about = world::ABOUT, after_help = world::AFTER_HELP)]
    World(WorldArgs),
    /// List every planner (name, promise, what it needs built, options), or show what `auto`
    /// picks on given maps.
    Planners(PlannersArgs),
}

/// The one stderr line for a clap usage error: clap's message up to its first blank line,
/// joined into one line, without the `error: ` prefix, plus where to find help. `argv` is the
/// command line (program name first); its subcommand, if any, makes the hint precise.
///
/// ```
/// use clap::Parser;
/// let argv = ["taut", "scen", "--limit", "x"];
/// let err = taut_cli::Cli::try_parse_from(argv).unwrap_err();
/// let line = taut_cli::usage_error_line(&err, argv);
/// assert!(line.starts_with("taut: invalid value 'x' for '--limit <N>'"), "{line}");
/// assert!(line.ends_with("(see `taut scen --help`)"), "{line}");
/// assert!(!line.contains('\n'));
/// ```
pub fn usage_error_line<I, S>(err: &clap::Error, argv: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    use clap::CommandFactory;
    use clap::error::ErrorKind;
    let command = Cli::command();
    // No global option takes a value, so the first word that is not an option is the
    // subcommand (if it is one).
    let sub = argv
        .into_iter()
        .skip(1)
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .find(|a| !a.starts_with('-'))
        .filter(|a| command.find_subcommand(a).is_some());
    let hint = match &sub {
        Some(s) => format!("taut {s} --help"),
        None => "taut --help".to_owned(),
    };
    if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let names: Vec<&str> = command
            .get_subcommands()
            .map(|c| c.get_name())
            .filter(|n| *n != "help")
            .collect();
        return format!(
            "taut: no command given: expected one of {} (see `{hint}`)",
            names.join(", ")
        );
    }
    let text = err.render().to_string();
    let message = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    format!("taut: {message} (see `{hint}`)")
}
