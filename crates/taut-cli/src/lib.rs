//! The `taut` command line: plan one path on a MovingAI map (`taut path`), run every query of
//! a scenario file (`taut scen`) with any planner of the workspace, draw one query and its
//! search (`taut render`), build navigation meshes (`taut mesh`), plan a sea route on the
//! sphere (`taut route`; its GeoJSON is [`taut::render::geojson`]'s), run real-time agents
//! in unknown terrain (`taut agent`), or list the planners (`taut planners`).
//! The pictures of `render`, `route --render` and `agent --render` are drawn by the
//! [`taut::render`] library; this crate reads the inputs, runs the search and writes the file.
//!
//! The binary is a thin shell over this library: [`Cli`] is the parsed command line, [`run`]
//! executes it against any writers (so tests and benches can capture the output), and
//! [`usage_error_line`] turns a clap error into the one line the binary prints. The `scen`
//! output contract (columns, statuses, number formats) is documented on [`CSV_HEADER`]. The
//! library exports only what the binary and the tests use; the command line and its output
//! are the interface.
//!
//! # Example
//! ```
//! use clap::Parser;
//! use taut_cli::{CSV_HEADER, Cli, run};
//!
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/maps");
//! let scen = format!("{dir}/small-edge.scen");
//! // No --map: the map is found by the name the scenario gives, next to the scenario.
//! let cli = Cli::try_parse_from(["taut", "scen", "--scen", &scen, "--limit", "3"]).unwrap();
//! let (mut out, mut warnings) = (Vec::new(), Vec::new());
//! run(&cli, &mut out, &mut warnings).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! let lines: Vec<&str> = text.lines().collect();
//! assert_eq!(lines.len(), 4);
//! assert_eq!(lines[0], CSV_HEADER);
//! // Query 1 starts on a blocked cell: an input error, reported without running a planner.
//! assert_eq!(lines[2], "1,2,1,0,0,invalid,inf,0,0,0.000");
//! assert!(warnings.is_empty());
//! ```

mod args;
mod cli;
mod commands;
mod error;
mod fields;
mod latlon;
mod planners;
mod progress;
mod row;

use std::io::Write;

pub use args::{ImageFormat, parse_output, parse_point};
pub use cli::{Cli, Command, usage_error_line};
pub use commands::render::{QueryPoint, parse_query_point};
pub use commands::route::pairs::PAIRS_HEADER;
pub use commands::route::plan::load_sphere;
pub use error::CliError;
pub use latlon::parse_latlon;
pub use row::CSV_HEADER;

/// Runs a parsed command line: results go to `out`, warnings (one line each, prefixed
/// `taut: warning: `) to `warnings`.
///
/// # Errors
/// Unreadable or malformed files, an invalid `path` query, a map that cannot be found, or a
/// failed write (see [`CliError::is_broken_pipe`]).
pub fn run(cli: &Cli, out: &mut dyn Write, warnings: &mut dyn Write) -> Result<(), CliError> {
    use commands::{agent, cpd, hub, list, mesh, path, render, route, scen, world};
    match &cli.command {
        Command::Path(args) => path::run(args, out, warnings),
        Command::Scen(args) => scen::run(args, out, warnings),
        Command::Render(args) => render::run(args, out, warnings),
        Command::Mesh(args) => mesh::run(args, out, warnings),
        Command::Cpd(args) => cpd::run(args, out),
        Command::Hub(args) => hub::run(args, out),
        Command::Route(args) => route::run(args, out, warnings),
        Command::Agent(args) => agent::run(args, out, warnings),
        Command::World(args) => world::run(args, out),
        Command::Planners(args) => list::run(args, out),
    }
}
