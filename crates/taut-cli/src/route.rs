//! `taut route`: the shortest sea route between two points of the Earth, with Spherical Anya
//! ([`taut::spherical`]) on a sea/land raster.
//!
//! # Snapping
//! An endpoint that lies in a sea (free) cell, or on the boundary of one, is kept as given
//! (snap distance 0). Otherwise it is moved to the centre of the nearest sea cell
//! ([`taut::spherical::SnapIndex`]: nearest by great-circle distance to the cell's centre),
//! and the distance it moved is reported in km (sphere of radius
//! [`EARTH_RADIUS_KM`]). If the ends then lie in waters that do not connect, a moved end
//! outside the main ocean moves to the main ocean's nearest cell instead
//! ([`SeaMap::route`](taut::spherical::SeaMap::route)). With `--no-snap` an endpoint on land
//! is an error.
//!
//! # Output contract
//! `--format text` (the default) prints, one item a line:
//!
//! ```text
//! distance 5383.646 km 2906.936 nm 0.8450236241 rad      (or: unreachable)
//! start 55.000000,0.000000 snap_km 0.000                 (+ " given LAT,LON" if moved)
//! goal 55.000000,90.000000 snap_km 0.000
//! time_us 41.250
//! expanded 12
//! generated 40
//! legs 3 great 2 parallel 1
//! passages -                                             (or: suez,bab-el-mandeb)
//! avoided -                                              (the passages closed by --avoid)
//! waypoints 4
//! 55.000000,0.000000
//! ...
//! ```
//!
//! `--format json` prints one JSON object, [`RouteReport`], whose `status` is `ok`,
//! `unreachable` or `invalid` (see [`RouteStatus`]); an invalid query still prints its object
//! (with `error`) before the command fails.
//!
//! # Exit status
//! 0 for `ok` and `unreachable` (no route is an answer, as for `taut path`); 1 for `invalid`
//! (bad coordinates, an unreadable or malformed map, an endpoint on land with `--no-snap`, a
//! map without sea, a point the planner cannot place, an output file that cannot be
//! written); 2 for usage errors found by the argument parser (a missing option, an unknown
//! `--format`, a `--render` file that is neither `.svg` nor `.png`), with no JSON.

use std::io::Write;
use std::path::Path;

use taut::spherical::{
    EARTH_RADIUS_KM, LatLon, Leg, Outcome, Route, SeaError, SearchContext, SearchStats, Snapped,
    SphereGrid,
};

use crate::args::{AvoidArgs, OutputFile, RenderArgs, RouteArgs, RouteFormat};
pub use crate::args::{fmt_point, parse_latlon};
use crate::error::CliError;
pub use crate::error::RouteError;
use crate::error::write_file;
use taut::render::geojson::route_geojson;
use taut::render::sphere::{End, SphereScene, render_sphere};
use taut::render::{Layout, RenderError};

pub use crate::pairs::{load_sphere, sea_map};

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

/// The answer to a route query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteStatus {
    /// A shortest route was found.
    Ok,
    /// Both endpoints are at sea, but in waters that do not connect.
    Unreachable,
    /// The query could not be answered: see `error`.
    Invalid,
}

/// One leg in the JSON output.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LegReport {
    /// `great` (a great-circle arc) or `parallel` (an arc of a parallel, along the poleward
    /// edge of land).
    pub kind: &'static str,
    /// Where the leg starts, `[lat, lon]` (longitude in [-180, 180)).
    pub from: [f64; 2],
    /// Where the leg ends, `[lat, lon]`.
    pub to: [f64; 2],
    /// Length, km.
    pub km: f64,
    /// Length on the unit sphere, radians.
    pub radians: f64,
    /// Parallel legs: the latitude followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    /// Parallel legs: the signed longitude travelled, degrees (east positive; may exceed the
    /// difference of the wrapped longitudes when the leg crosses the antimeridian).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dlon: Option<f64>,
}

impl LegReport {
    /// The report of one leg.
    pub fn new(leg: &Leg) -> Self {
        let r = leg.radians();
        let (lat, dlon) = match *leg {
            Leg::Great { .. } => (None, None),
            Leg::Parallel {
                lat,
                from_lon,
                to_lon,
            } => (Some(lat), Some(to_lon - from_lon)),
        };
        LegReport {
            kind: match leg {
                Leg::Great { .. } => "great",
                Leg::Parallel { .. } => "parallel",
            },
            from: pair(leg.start()),
            to: pair(leg.end()),
            km: r * EARTH_RADIUS_KM,
            radians: r,
            lat,
            dlon,
        }
    }
}

fn pair(p: LatLon) -> [f64; 2] {
    [p.lat, p.lon]
}

/// The JSON object `taut route --format json` prints. Values that are not known (the route's
/// length when there is none, everything after the point where an invalid query failed) are
/// `null`; lists are then empty.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RouteReport {
    /// `ok`, `unreachable` or `invalid`.
    pub status: RouteStatus,
    /// Route length, km (sphere of radius 6371 km).
    pub km: Option<f64>,
    /// Route length, nautical miles (1852 m).
    pub nm: Option<f64>,
    /// Route length on the unit sphere, radians.
    pub radians: Option<f64>,
    /// How far the start was moved to reach the sea, km (0 if it was not).
    pub snap_km_from: Option<f64>,
    /// How far the goal was moved, km.
    pub snap_km_to: Option<f64>,
    /// Wall-clock microseconds of the search (not of reading the map).
    pub time_us: Option<f64>,
    /// The start searched from, `[lat, lon]` (after snapping).
    pub from: Option<[f64; 2]>,
    /// The goal searched to, `[lat, lon]` (after snapping).
    pub to: Option<[f64; 2]>,
    /// The start as given.
    pub from_given: Option<[f64; 2]>,
    /// The goal as given.
    pub to_given: Option<[f64; 2]>,
    /// The legs in order.
    pub legs: Vec<LegReport>,
    /// The turning points and the ends of parallel-following legs, start and goal included,
    /// `[lat, lon]` each (longitude in [-180, 180)).
    pub waypoints: Vec<[f64; 2]>,
    /// Nodes the search expanded.
    pub expanded: Option<u64>,
    /// Nodes the search generated.
    pub generated: Option<u64>,
    /// The named passages (canals, straits) the route goes through.
    pub passages: Vec<String>,
    /// The named passages closed for this request (`--avoid`).
    pub avoided: Vec<String>,
    /// Why the query is invalid (only when `status` is `invalid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Default for RouteReport {
    fn default() -> Self {
        RouteReport {
            status: RouteStatus::Invalid,
            km: None,
            nm: None,
            radians: None,
            snap_km_from: None,
            snap_km_to: None,
            time_us: None,
            from: None,
            to: None,
            from_given: None,
            to_given: None,
            legs: Vec::new(),
            waypoints: Vec::new(),
            expanded: None,
            generated: None,
            passages: Vec::new(),
            avoided: Vec::new(),
            error: None,
        }
    }
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
    pub outcome: Outcome,
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

impl Planned {
    /// The route when one was found.
    pub fn found(&self) -> Option<&Route> {
        (self.outcome == Outcome::Found).then_some(&self.route)
    }

    /// Fills the report's fields from this answer.
    pub fn report(&self, r: &mut RouteReport) {
        r.status = match self.outcome {
            Outcome::Found => RouteStatus::Ok,
            Outcome::Unreachable => RouteStatus::Unreachable,
        };
        if let Some(route) = self.found() {
            r.km = Some(route.km());
            r.nm = Some(route.nm());
            r.radians = Some(route.radians);
            r.legs = route.legs.iter().map(LegReport::new).collect();
            r.waypoints = route.waypoints().into_iter().map(pair).collect();
        }
        r.snap_km_from = Some(self.from.snap_km);
        r.snap_km_to = Some(self.to.snap_km);
        r.time_us = Some(self.time_us);
        r.from = Some(pair(self.from.point));
        r.to = Some(pair(self.to.point));
        r.expanded = Some(self.stats.expanded);
        r.generated = Some(self.stats.generated);
        r.passages.clone_from(&self.passages);
        r.avoided.clone_from(&self.avoided);
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

/// `taut route`: parses the endpoints, plans, writes `--geojson` and `--render` files, and
/// prints the answer (see the module documentation for the formats and exit status).
///
/// # Errors
/// Any failure makes the query `invalid`: with `--format json` its object is printed first.
pub fn run_route(
    args: &RouteArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    if let Some(pairs) = &args.pairs {
        return crate::pairs::run_pairs(args, pairs, out, warnings);
    }
    let mut report = RouteReport::default();
    let result = answer(args, &mut report, warnings);
    match (&result, args.format) {
        (Ok(planned), RouteFormat::Text) => write_text(planned, out)?,
        (_, RouteFormat::Json) => {
            if let Err(e) = &result {
                report.status = RouteStatus::Invalid;
                report.error = Some(e.to_string().replace('\n', " "));
            }
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        (Err(_), RouteFormat::Text) => {}
    }
    result.map(|_| ())
}

/// Everything but printing: fills `report` as far as the query gets.
fn answer(
    args: &RouteArgs,
    report: &mut RouteReport,
    warnings: &mut dyn Write,
) -> Result<Planned, CliError> {
    // clap requires both without --pairs; a missing one would read as empty, an invalid point.
    let (from, to) = (
        args.from.as_deref().unwrap_or_default(),
        args.to.as_deref().unwrap_or_default(),
    );
    let from = parse_latlon(from).map_err(|source| RouteError::Coordinate {
        which: "start",
        source,
    })?;
    report.from_given = Some(pair(from));
    let to = parse_latlon(to).map_err(|source| RouteError::Coordinate {
        which: "goal",
        source,
    })?;
    report.to_given = Some(pair(to));
    let planned = plan_route(
        &args.map,
        args.transposed,
        (from, to),
        !args.no_snap,
        &args.avoid,
        warnings,
    )?;
    planned.report(report);
    if let Some(path) = &args.geojson {
        let doc = route_geojson(
            planned.found(),
            &planned.from,
            &planned.to,
            &planned.passages,
        );
        let mut text = serde_json::to_string(&doc).map_err(std::io::Error::from)?;
        text.push('\n');
        write_file(path, text.as_bytes())?;
    }
    if let Some(output) = &args.render {
        let layout = planned.layout(args.max_px, None)?;
        planned.draw(output, &layout)?;
    }
    Ok(planned)
}

/// Names joined by commas, or `-` for none.
fn names_or_dash(names: &[String]) -> String {
    if names.is_empty() {
        "-".to_owned()
    } else {
        names.join(",")
    }
}

/// The text format (see the module documentation).
fn write_text(p: &Planned, out: &mut dyn Write) -> Result<(), CliError> {
    match p.found() {
        Some(route) => writeln!(
            out,
            "distance {:.3} km {:.3} nm {:.10} rad",
            route.km(),
            route.nm(),
            route.radians
        )?,
        None => writeln!(out, "unreachable")?,
    }
    for (name, end) in [("start", &p.from), ("goal", &p.to)] {
        write!(
            out,
            "{name} {} snap_km {:.3}",
            fmt_point(end.point),
            end.snap_km
        )?;
        if let Some(given) = end.given {
            write!(out, " given {}", fmt_point(given))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "time_us {:.3}", p.time_us)?;
    writeln!(out, "expanded {}", p.stats.expanded)?;
    writeln!(out, "generated {}", p.stats.generated)?;
    let legs = p.found().map_or(&[][..], |r| &r.legs[..]);
    let great = legs
        .iter()
        .filter(|l| matches!(l, Leg::Great { .. }))
        .count();
    writeln!(
        out,
        "legs {} great {great} parallel {}",
        legs.len(),
        legs.len() - great
    )?;
    writeln!(out, "passages {}", names_or_dash(&p.passages))?;
    writeln!(out, "avoided {}", names_or_dash(&p.avoided))?;
    let waypoints = p.found().map(Route::waypoints).unwrap_or_default();
    writeln!(out, "waypoints {}", waypoints.len())?;
    for w in waypoints {
        writeln!(out, "{}", fmt_point(w))?;
    }
    Ok(())
}

/// `taut render --sphere`: plans the route between `ends`, draws it, and prints one line:
/// `length K km N nm waypoints W expanded E output PATH` (`length unreachable ...` when there
/// is no route; the picture is written all the same).
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
    let length = match planned.found() {
        Some(r) => format!("{:.3} km {:.3} nm", r.km(), r.nm()),
        None => "unreachable".to_owned(),
    };
    let waypoints = planned.found().map_or(0, |r| r.waypoints().len());
    writeln!(
        out,
        "length {length} waypoints {waypoints} expanded {} output {}",
        planned.stats.expanded,
        args.output.path.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use taut::spherical::{KM_PER_NM, SearchStats};

    /// The analytic route of `analytic_cases.json`'s cap60_blocked_endpoints_55N, built by
    /// hand: what the search will answer on a map blocked north of 60N.
    fn cap60() -> Planned {
        let (a, d) = (LatLon::new(55.0, 0.0), LatLon::new(55.0, 90.0));
        let (b, c) = (
            LatLon::new(60.0, 34.4579522522933),
            LatLon::new(60.0, 55.5420477477067),
        );
        let legs = vec![
            Leg::Great { from: a, to: b },
            Leg::Parallel {
                lat: 60.0,
                from_lon: b.lon,
                to_lon: c.lon,
            },
            Leg::Great { from: c, to: d },
        ];
        let mut route = Route { legs, radians: 0.0 };
        route.radians = route.legs_radians();
        let end = |point| End {
            point,
            given: None,
            snap_km: 0.0,
        };
        Planned {
            grid: SphereGrid::from_fn(36, 18, |r, _| r >= 3).unwrap(),
            from: end(a),
            to: End {
                point: d,
                given: Some(LatLon::new(55.5, 90.5)),
                snap_km: 12.25,
            },
            outcome: Outcome::Found,
            route,
            stats: SearchStats {
                expanded: 7,
                generated: 9,
                roots: 3,
                swept: 0,
            },
            time_us: 1.5,
            passages: Vec::new(),
            avoided: vec!["suez".to_owned()],
        }
    }

    #[test]
    fn the_text_of_a_found_route() {
        let p = cap60();
        assert!((p.route.radians - 0.8450236240639002).abs() < 1e-9);
        let mut out = Vec::new();
        write_text(&p, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "distance 5383.646 km 2906.936 nm 0.8450236241 rad\n\
             start 55.000000,0.000000 snap_km 0.000\n\
             goal 55.000000,90.000000 snap_km 12.250 given 55.500000,90.500000\n\
             time_us 1.500\n\
             expanded 7\n\
             generated 9\n\
             legs 3 great 2 parallel 1\n\
             passages -\n\
             avoided suez\n\
             waypoints 4\n\
             55.000000,0.000000\n\
             60.000000,34.457952\n\
             60.000000,55.542048\n\
             55.000000,90.000000\n"
        );
    }

    #[test]
    fn the_json_of_a_found_route() {
        let p = cap60();
        let mut r = RouteReport::default();
        p.report(&mut r);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["status"], "ok");
        let rad = v["radians"].as_f64().unwrap();
        assert!((rad - 0.8450236240639002).abs() < 1e-9);
        assert_eq!(v["km"].as_f64(), Some(rad * EARTH_RADIUS_KM));
        assert_eq!(v["nm"].as_f64(), Some(rad * EARTH_RADIUS_KM / KM_PER_NM));
        assert_eq!(v["snap_km_to"].as_f64(), Some(12.25));
        assert_eq!(v["to"], serde_json::json!([55.0, 90.0]));
        assert!(v.get("error").is_none());
        let legs = v["legs"].as_array().unwrap();
        assert_eq!(legs.len(), 3);
        assert_eq!(legs[1]["kind"], "parallel");
        assert_eq!(legs[1]["lat"], 60.0);
        assert!((legs[1]["dlon"].as_f64().unwrap() - 21.0840954954134).abs() < 1e-9);
        assert!(legs[0].get("lat").is_none() && legs[0]["kind"] == "great");
        let km: f64 = legs.iter().map(|l| l["km"].as_f64().unwrap()).sum();
        assert!((km - rad * EARTH_RADIUS_KM).abs() < 1e-9);
        assert_eq!(v["waypoints"].as_array().unwrap().len(), 4);
        assert_eq!(v["waypoints"][1], legs[0]["to"]);
        assert!(p.caption().contains("5383.6 km (2906.9 nm), 3 legs"));
    }
}
