//! `taut render`: plans one query with tracing and draws it with [`taut::render`] (the map,
//! the path, its turning points and the search's trace), or a sea route with
//! `--sphere` ([`render_route`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args};
use taut::grid::{Answer, Point, Scenario, Status};
use taut::render::{Layout, Scene, load_mesh, png, sample_trace, svg};
use taut::spherical::LatLon;

use crate::args::{ImageFormat, OutputFile, PlannerArgs, parse_output, parse_point};
use crate::commands::route::AvoidArgs;
use crate::commands::route::plan::plan_route;
use crate::error::{CliError, write_file};
use crate::fields::{InfoFormat, num, write_summary};
use crate::latlon::{CoordError, parse_latlon};
use crate::planners::{load_grid, open_map, planner_for_args};

/// Arguments of `taut render`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("query").required(true).args(["from", "scen"])))]
pub struct RenderArgs {
    /// The MovingAI .map file (with --sphere, a sphere map as in `taut route`).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start lattice point X,Y, the top-left corner of cell (X, Y), x east, y south, from 0
    /// (with --to); with --sphere, LAT,LON in degrees, north and east positive.
    #[arg(long, value_name = "X,Y", value_parser = parse_query_point, allow_hyphen_values = true,
          requires = "to", conflicts_with = "scen")]
    pub from: Option<QueryPoint>,
    /// Goal lattice point X,Y, as --from (with --from); with --sphere, LAT,LON in degrees.
    #[arg(long, value_name = "X,Y", value_parser = parse_query_point, allow_hyphen_values = true,
          requires = "from")]
    pub to: Option<QueryPoint>,
    /// Draw a sphere route instead (as `taut route --render`): the map is a sphere map,
    /// --from/--to are LAT,LON, the projection is equirectangular; no planner options.
    #[arg(long, requires = "from", conflicts_with_all = [
        "scen", "index", "algo", "free", "mesh", "cpd", "hub", "eps_stop", "root_history",
        "no_cul_de_sac", "no_intermediate",
    ])]
    pub sphere: bool,
    /// With --sphere: the map is transposed (a *_T.map file).
    #[arg(long, requires = "sphere")]
    pub transposed: bool,
    /// With --sphere: an endpoint on land is an error instead of moving to the nearest sea
    /// cell.
    #[arg(long, requires = "sphere")]
    pub no_snap: bool,
    /// Take the query from this .scen file (with --index).
    #[arg(long, value_name = "FILE", requires = "index")]
    pub scen: Option<PathBuf>,
    /// The 0-based index of the query in --scen.
    #[arg(long, value_name = "I", requires = "scen")]
    pub index: Option<usize>,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// The picture to write: FILE.svg or FILE.png.
    #[arg(short, long, value_name = "FILE", value_parser = parse_output)]
    pub output: OutputFile,
    /// The longest side of the map in the picture, in pixels (margins come on top): the
    /// largest whole number of pixels per cell that fits, or one pixel per k x k cells.
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Pixels per cell, any positive number (overrides --max-px).
    #[arg(long, value_name = "S", value_parser = parse_scale)]
    pub scale: Option<f64>,
    /// Draw at most N expanded nodes, evenly spread over the search (0: none).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub max_trace: usize,
    /// What to print once the picture is written: text, one line `status S length L
    /// waypoints W expanded E drawn D output FILE` (`status S km K nm N waypoints W expanded
    /// E output FILE` with --sphere), or json, one object with those keys. The status is
    /// `ok` or `unreachable`; a missing length is `inf` (`null` in JSON).
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// A `--from`/`--to` value of `taut render`: two integers are a lattice point (or, with
/// `--sphere`, whole degrees); anything else [`parse_latlon`]
/// accepts is a point in degrees, for `--sphere` only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QueryPoint {
    /// `X,Y`: two integers.
    Lattice(Point),
    /// `LAT,LON` in degrees (not two integers).
    Degrees(LatLon),
}

impl QueryPoint {
    /// The lattice point, if this is one.
    pub fn lattice(self) -> Option<Point> {
        match self {
            QueryPoint::Lattice(p) => Some(p),
            QueryPoint::Degrees(_) => None,
        }
    }

    /// The point in degrees: two integers are latitude and longitude.
    ///
    /// # Errors
    /// Two integers out of range (a latitude beyond ±90, a longitude beyond ±180).
    pub fn degrees(self) -> Result<LatLon, CoordError> {
        match self {
            QueryPoint::Degrees(p) => Ok(p),
            QueryPoint::Lattice(p) => parse_latlon(&format!("{},{}", p.x, p.y)),
        }
    }
}

/// Parses a `--from`/`--to` value of `taut render` (see [`QueryPoint`]).
///
/// ```
/// use taut_cli::{QueryPoint, parse_query_point};
/// assert!(matches!(parse_query_point("3,-4"), Ok(QueryPoint::Lattice(_))));
/// assert!(matches!(parse_query_point("55.5, -3"), Ok(QueryPoint::Degrees(_))));
/// assert!(parse_query_point("x").is_err());
/// ```
pub fn parse_query_point(s: &str) -> Result<QueryPoint, QueryPointError> {
    if let Ok(p) = parse_point(s) {
        return Ok(QueryPoint::Lattice(p));
    }
    parse_latlon(s)
        .map(QueryPoint::Degrees)
        .map_err(|e| QueryPointError {
            text: s.to_owned(),
            reason: e.reason,
        })
}

/// A `taut render` point that is neither two integers nor a point in degrees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{text:?} is not a point: expected two integers X,Y such as 3,4, or with --sphere \
     LAT,LON in degrees ({reason})"
)]
pub struct QueryPointError {
    /// The text given.
    pub text: String,
    /// Why it is not a point in degrees.
    pub reason: String,
}

/// Where the query of `taut render` comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum QuerySource {
    /// `--from X,Y --to X,Y`.
    Points {
        /// Start.
        from: Point,
        /// Goal.
        to: Point,
    },
    /// `--scen FILE --index I`.
    Scenario {
        /// The scenario file.
        scen: PathBuf,
        /// The 0-based query index.
        index: usize,
    },
    /// `--sphere --from LAT,LON --to LAT,LON`.
    Sphere {
        /// Start.
        from: LatLon,
        /// Goal.
        to: LatLon,
    },
}

impl RenderArgs {
    /// The query the arguments name (clap guarantees one of the forms).
    ///
    /// # Errors
    /// The usage message (the caller's `CliError::Usage`) for a point in degrees without `--sphere`,
    /// or a latitude or longitude out of range with it.
    pub fn query(&self) -> Result<QuerySource, String> {
        let usage = |msg: String| format!("{msg} (see `taut render --help`)");
        match (self.from, self.to, &self.scen, self.index) {
            (Some(from), Some(to), _, _) if self.sphere => {
                let deg = |p: QueryPoint, opt: &str| {
                    p.degrees()
                        .map_err(|e| usage(format!("invalid value for '{opt} <LAT,LON>': {e}")))
                };
                Ok(QuerySource::Sphere {
                    from: deg(from, "--from")?,
                    to: deg(to, "--to")?,
                })
            }
            (Some(from), Some(to), _, _) => {
                let lattice = |p: QueryPoint, opt: &str| {
                    p.lattice().ok_or_else(|| {
                        usage(format!(
                            "invalid value for '{opt} <X,Y>': not two integers X,Y \
                             (LAT,LON points need --sphere)"
                        ))
                    })
                };
                Ok(QuerySource::Points {
                    from: lattice(from, "--from")?,
                    to: lattice(to, "--to")?,
                })
            }
            (_, _, Some(scen), Some(index)) => Ok(QuerySource::Scenario {
                scen: scen.clone(),
                index,
            }),
            _ => unreachable!("clap requires --from/--to or --scen/--index"),
        }
    }
}

/// Parses `--scale`: a positive, finite number of pixels per cell.
fn parse_scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{s:?} is not a positive number of pixels per cell")),
    }
}

/// `taut render`: plans one query with tracing, draws it, writes the file, and prints one
/// line: `length L waypoints N expanded E drawn D output PATH` (`length unreachable` when
/// there is no path; the search is drawn all the same).
///
/// # Errors
/// The map or scenario cannot be read, `--index` names no query, an endpoint is invalid,
/// the image would be too large, or the file cannot be written.
pub fn run(
    args: &RenderArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let query = args.query().map_err(CliError::Usage)?;
    if let QuerySource::Sphere { from, to } = query {
        return render_route(args, (from, to), out, warnings);
    }
    let grid = load_grid(&args.map, &args.planner)?;
    let (start, goal) = match query {
        QuerySource::Points { from, to } => (from, to),
        QuerySource::Scenario { scen, index } => scenario_query(&scen, index)?,
        QuerySource::Sphere { .. } => unreachable!("drawn above"),
    };
    grid.check_query(start, goal)?;
    let layout = Layout::fit(grid.width(), grid.height(), args.max_px, args.scale)?;
    // Polyanya draws the mesh it searches (given with --mesh, or built from the map); the
    // other planners draw the --mesh given, if any.
    let map = open_map(grid, &args.planner)?;
    let (mut planner, algo) = planner_for_args(&map, &args.planner, false, &mut std::io::stderr())?;
    let grid = &**map.grid();
    let tuning = args.planner.tuning();
    let mesh = match (map.mesh_if_ready(tuning.mesh), &args.planner.mesh) {
        (Some(m), _) if algo.needs_mesh() => Some(m.mesh),
        (_, Some(path)) => Some(std::sync::Arc::new(load_mesh(path, grid)?)),
        _ => None,
    };
    let mut answer = Answer::default();
    let mut trace = Vec::new();
    let status = planner.plan_traced(start, goal, &mut answer, &mut trace)?;
    let drawn = sample_trace(&trace, args.max_trace);
    let scene = Scene {
        grid,
        start,
        goal,
        path: &answer.waypoints,
        trace: &drawn,
        trace_len: trace.len(),
        mesh: mesh.as_deref(),
    };
    let caption = caption(algo.name(), status, &answer, &scene);
    let bytes = match args.output.format {
        ImageFormat::Svg => svg::render(&scene, &layout, &caption).into_bytes(),
        ImageFormat::Png => png::render(&scene, &layout)?,
    };
    write_file(&args.output.path, &bytes)?;
    let (word, length) = match status {
        Status::Found => ("ok", Some(format!("{:.8}", answer.length))),
        Status::Unreachable => ("unreachable", None),
    };
    let (waypoints, expanded) = (answer.waypoints.len(), answer.stats.expanded);
    let output = args.output.path.display().to_string();
    let text = format!(
        "status {word} length {} waypoints {waypoints} expanded {expanded} drawn {} output {output}",
        length.as_deref().unwrap_or("inf"),
        drawn.len(),
    );
    let json = serde_json::json!({"status": word, "length": length.map(num),
        "waypoints": waypoints, "expanded": expanded, "drawn": drawn.len(), "output": output});
    write_summary(out, args.format, &text, &json)?;
    Ok(())
}

/// The one-line description of a picture (the SVG shows it under the map).
fn caption(algo: &str, status: Status, answer: &Answer, scene: &Scene<'_>) -> String {
    let (s, t) = (scene.start, scene.goal);
    let what = match status {
        Status::Found => format!(
            "length {:.4}, {} turning points",
            answer.length,
            answer.waypoints.len().saturating_sub(2)
        ),
        Status::Unreachable => "unreachable".to_owned(),
    };
    let drawn = if scene.trace.len() < scene.trace_len {
        format!(" ({} drawn)", scene.trace.len())
    } else {
        String::new()
    };
    format!(
        "{algo} ({},{}) → ({},{}): {what}; {} expanded{drawn}",
        s.x, s.y, t.x, t.y, scene.trace_len
    )
}

/// Query `index` (0-based) of a scenario file.
fn scenario_query(scen: &Path, index: usize) -> Result<(Point, Point), CliError> {
    let sc = Scenario::read(scen)?;
    sc.entries
        .get(index)
        .map(|e| (e.start, e.goal))
        .ok_or_else(|| CliError::NoSuchQuery {
            scen: scen.to_path_buf(),
            index,
            count: sc.entries.len(),
        })
}

/// `taut render --sphere`: plans the route between `ends`, draws it, and prints one line,
/// `status S km K nm N waypoints W expanded E output PATH` (`status unreachable km inf nm inf
/// ...` when there is no route; the picture is written all the same), or its JSON object.
///
/// # Errors
/// As [`plan_route`], and the picture cannot be made or written.
pub fn render_route(
    args: &RenderArgs,
    ends: (LatLon, LatLon),
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let planned = plan_route(
        &args.map,
        args.transposed,
        ends,
        !args.no_snap,
        &AvoidArgs::default(),
        warnings,
    )?;
    let layout = planned.layout(args.max_px, args.scale)?;
    planned.draw(&args.output, &layout)?;
    let found = planned.found();
    let word = if found.is_some() { "ok" } else { "unreachable" };
    let km = found.map(|r| format!("{:.3}", r.km()));
    let nm = found.map(|r| format!("{:.3}", r.nm()));
    let waypoints = found.map_or(0, |r| r.waypoints().len());
    let expanded = planned.stats.expanded;
    let output = args.output.path.display().to_string();
    let text = format!(
        "status {word} km {} nm {} waypoints {waypoints} expanded {expanded} output {output}",
        km.as_deref().unwrap_or("inf"),
        nm.as_deref().unwrap_or("inf"),
    );
    let json = serde_json::json!({"status": word, "km": km.map(num), "nm": nm.map(num),
        "waypoints": waypoints, "expanded": expanded, "output": output});
    write_summary(out, args.format, &text, &json)?;
    Ok(())
}
