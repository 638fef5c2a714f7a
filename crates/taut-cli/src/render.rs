//! `taut render`: plans one query with tracing and draws it with [`taut::render`] (the map,
//! the path, its turning points and the search's trace), or a sea route with
//! `--sphere` ([`crate::route::render_route`]).

use std::io::Write;
use std::path::Path;

use taut::grid::{Answer, Point, Scenario, Status};
use taut::render::{Layout, Scene, load_mesh, png, sample_trace, svg};

use crate::args::{ImageFormat, QuerySource, RenderArgs};
use crate::error::CliError;
use crate::error::write_file;
use crate::planners::load_grid;

/// `taut render`: plans one query with tracing, draws it, writes the file, and prints one
/// line: `length L waypoints N expanded E drawn D output PATH` (`length unreachable` when
/// there is no path; the search is drawn all the same).
///
/// # Errors
/// The map or scenario cannot be read, `--index` names no query, an endpoint is invalid,
/// the image would be too large, or the file cannot be written.
pub fn run_render(
    args: &RenderArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let query = args.query().map_err(CliError::Usage)?;
    if let QuerySource::Sphere { from, to } = query {
        return crate::route::render_route(args, (from, to), out, warnings);
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
    let map = crate::planners::open_map(grid, &args.planner)?;
    let (mut planner, algo) =
        crate::planners::make_planner(&map, &args.planner, false, &mut std::io::stderr())?;
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
    let length = match status {
        Status::Found => format!("{:.8}", answer.length),
        Status::Unreachable => "unreachable".to_owned(),
    };
    writeln!(
        out,
        "length {length} waypoints {} expanded {} drawn {} output {}",
        answer.waypoints.len(),
        answer.stats.expanded,
        drawn.len(),
        args.output.path.display()
    )?;
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
