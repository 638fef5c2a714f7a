//! One sea route: reading a sphere map ([`load_sphere`], [`sea_map`] with `--avoid` closed),
//! snapping the ends and searching ([`plan_route`]), and drawing the answer ([`Planned`]).

use std::io::Write;
use std::path::Path;

use taut::grid::{FreeSet, Grid, MapFile};
use taut::render::sphere::{End, SphereScene, render_sphere};
use taut::render::{Layout, RenderError};
use taut::spherical::{
    Area, LatLon, Route, SeaError, SeaMap, SearchContext, SearchOutcome, SearchStats, Snapped,
    SphereGrid,
};

use super::AvoidArgs;
use crate::args::OutputFile;
use crate::error::{CliError, RouteError, write_file};
use crate::latlon::fmt_point;

/// Reads a sphere map: a MovingAI `.map` whose rows are latitude bands from the North Pole
/// and columns longitude bands from 180°W, with the default free terrain (`.`, `G`, `S` are
/// sea). With `transposed`, the file is the shared data's `*_T.map` layout (file row i is
/// longitude band i), as [`SphereGrid::read_map`] reads it. A map that is taller than wide
/// and not read as transposed gets one warning line (sphere maps are twice as wide as tall).
///
/// # Errors
/// The file cannot be read or is malformed ([`CliError::Grid`], naming the file and line), or
/// is too small to be a sphere.
pub fn load_sphere(
    path: &Path,
    transposed: bool,
    warnings: &mut dyn Write,
) -> Result<SphereGrid, CliError> {
    let grid = Grid::from_map(&MapFile::read(path)?, &FreeSet::default());
    let (w, h) = (grid.width() as u32, grid.height() as u32);
    let sphere = SphereGrid::from_grid_as(&grid, transposed);
    // The error names the file; the warning comes only with a map that is used (an error
    // is the one line on stderr).
    let sphere = sphere.map_err(|source| {
        CliError::Route(RouteError::SphereMap {
            path: path.to_owned(),
            source,
        })
    })?;
    if !transposed && h > w {
        writeln!(
            warnings,
            "taut: warning: {} is taller than wide ({w} x {h}): is it a transposed (_T) \
             map? Then give --transposed",
            path.display()
        )?;
    }
    Ok(sphere)
}

/// Reads a sphere map ([`load_sphere`]) and prepares it for requests ([`SeaMap`]: snapping
/// index, named passages), with the passages and areas of `avoid` closed and the ice gates
/// closed unless `avoid.allow` opens them.
///
/// # Errors
/// As [`load_sphere`]; an unknown passage name (the message lists the known ones); an area
/// file that cannot be read or is not a GeoJSON area (the message names the file).
pub fn sea_map(
    path: &Path,
    transposed: bool,
    avoid: &AvoidArgs,
    warnings: &mut dyn Write,
) -> Result<SeaMap, CliError> {
    let sea = SeaMap::open(load_sphere(path, transposed, warnings)?);
    let (w, h) = (sea.grid().width(), sea.grid().height());
    let mut cells = Vec::new();
    for file in &avoid.avoid_area {
        let area = Area::read(file).map_err(|e| CliError::Route(RouteError::Area(e)))?;
        cells.extend(area.cells(w, h));
    }
    sea.request(&avoid.avoid, &avoid.allow, &cells)
        .map_err(|e| CliError::Route(RouteError::Passage(e)))
}

/// A snapped end as the pictures and GeoJSON take it.
fn end_of(s: Snapped) -> End {
    End {
        point: s.point,
        given: s.given,
        snap_km: s.km,
    }
}

/// The CLI's error for a request the library refused; `map` names the map.
fn sea_error(e: SeaError, map: &Path) -> CliError {
    CliError::Route(match e {
        SeaError::OnLand { which, lat, lon } => RouteError::OnLand {
            which,
            point: LatLon::new(lat, lon),
        },
        SeaError::NoSea { which, lat, lon } => RouteError::NoSea {
            which,
            point: LatLon::new(lat, lon),
            path: map.to_path_buf(),
        },
        SeaError::Sphere(e) => RouteError::Sphere(e),
    })
}

/// A route query answered: the map, the snapped endpoints and the search's result.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The map as searched (closed passages and areas blocked).
    pub grid: SphereGrid,
    /// The start (snapped).
    pub from: End,
    /// The goal (snapped).
    pub to: End,
    /// Whether a route was found.
    pub outcome: SearchOutcome,
    /// The route (no legs unless found).
    pub route: Route,
    /// The search's counters.
    pub stats: SearchStats,
    /// Wall-clock microseconds of the search.
    pub time_us: f64,
    /// The named passages the route goes through.
    pub passages: Vec<String>,
    /// The named passages closed for this request.
    pub avoided: Vec<String>,
}

/// Reads the map, closes what `avoid` names, snaps both endpoints and searches.
///
/// # Errors
/// See [`sea_map`]; an endpoint on land with `snap` false, a map without sea, or the
/// planner's own refusals ([`RouteError::Sphere`]).
pub fn plan_route(
    map: &Path,
    transposed: bool,
    (from, to): (LatLon, LatLon),
    snap: bool,
    avoid: &AvoidArgs,
    warnings: &mut dyn Write,
) -> Result<Planned, CliError> {
    let sea = sea_map(map, transposed, avoid, warnings)?;
    let answer = sea
        .route(&mut SearchContext::new(), from, to, snap)
        .map_err(|e| sea_error(e, map))?;
    let avoided = sea.closed_passages().to_vec();
    for line in closed_end_warnings(&sea, &answer) {
        writeln!(warnings, "taut: warning: {line}")?;
    }
    Ok(Planned {
        grid: sea.into_grid(),
        from: end_of(answer.from),
        to: end_of(answer.to),
        outcome: answer.outcome,
        route: answer.route,
        stats: answer.stats,
        time_us: answer.time_us,
        passages: answer.passages,
        avoided,
    })
}

/// What to say about each end of `answer` that lay in a closed passage
/// ([`SeaMap::closed_ends`]): it moved out of it to open water, and what to allow.
pub fn closed_end_warnings(sea: &SeaMap, answer: &taut::spherical::SeaRoute) -> Vec<String> {
    sea.closed_ends(answer)
        .into_iter()
        .map(|e| {
            let hint = if e.by_default {
                format!("--allow {} to route from there", e.passage)
            } else {
                "it is closed by --avoid".to_owned()
            };
            format!(
                "the {} is in {}, which is closed: it moved {:.0} km to open water ({hint})",
                e.which, e.passage, e.km
            )
        })
        .collect()
}

impl Planned {
    /// The route when one was found.
    pub fn found(&self) -> Option<&Route> {
        (self.outcome == SearchOutcome::Found).then_some(&self.route)
    }

    /// The one-line description of the picture of this answer.
    pub fn caption(&self) -> String {
        let what = match self.found() {
            Some(route) => format!(
                "{:.1} km ({:.1} nm), {} legs",
                route.km(),
                route.nm(),
                route.legs.len()
            ),
            None => "unreachable".to_owned(),
        };
        format!(
            "route {} → {}: {what}",
            fmt_point(self.from.point),
            fmt_point(self.to.point)
        )
    }

    /// Draws the answer ([`SphereScene`]) into an SVG or PNG file.
    ///
    /// # Errors
    /// The picture would be too large, or the file cannot be written.
    pub fn draw(&self, output: &OutputFile, layout: &Layout) -> Result<(), CliError> {
        let scene = SphereScene {
            grid: &self.grid,
            route: self.found(),
            from: self.from,
            to: self.to,
        };
        let bytes = render_sphere(&scene, layout, output.format.into(), &self.caption())?;
        write_file(&output.path, &bytes)
    }

    /// The layout of a picture of this map: `scale` pixels per cell, or the map's long side
    /// in `max_px` pixels (as `taut render`).
    ///
    /// # Errors
    /// As [`Layout::fit`].
    pub fn layout(&self, max_px: u32, scale: Option<f64>) -> Result<Layout, RenderError> {
        Layout::fit(
            self.grid.width() as i32,
            self.grid.height() as i32,
            max_px,
            scale,
        )
    }
}
