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
//! eta 207.64 h 8.65 d at 14 kn                           (only with --speed-knots)
//! start 55.000000,0.000000 snap_km 0.000                 (+ " given LAT,LON" if moved,
//!                                                          + " port CODE (Name)")
//! goal 55.000000,90.000000 snap_km 0.000
//! time_us 41.250
//! expanded 12
//! generated 40
//! legs 3 great 2 parallel 1
//! passages -                                             (or: suez,bab-el-mandeb)
//! avoided -                                              (the passages closed: --avoid, and
//!                                                          the ice gates not --allow-ed)
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
//! `--format`, an `-o` file that is neither GeoJSON nor `.svg` nor `.png`), with no JSON.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use taut::render::geojson::route_geojson;
use taut::spherical::port::is_locode;
use taut::spherical::{LatLon, Leg, Port, PortError, Ports, Route};

use crate::args::{OutputFile, parse_output};
use crate::error::{CliError, RouteError, write_file};
use crate::latlon::{fmt_point, parse_latlon};

pub mod pairs;
pub mod plan;
pub mod report;

use plan::{Planned, plan_route};
use report::{PortReport, RouteReport, RouteStatus, pair};

/// The long help of `taut route` (`taut route --help`).
pub const ABOUT: &str = "\
Plan the shortest sea route between two points of the Earth (or of any sphere map) with
Spherical Anya: great-circle arcs that turn at the corners of land cells and follow the
poleward edges of land along parallels. Lengths are on a sphere of radius 6371 km.

The map is a MovingAI .map read as the whole sphere: row 0 touches the North Pole, column 0
starts at 180°W, cells are 180/height by 360/width degrees, longitude wraps; `.` (and G, S)
is sea, anything else land (e.g. earth_0.25deg_nav.map of the shared data).

Snapping: an endpoint in a sea cell, or on its boundary, is kept as given (snap distance 0);
an endpoint on land moves to the centre of the nearest sea cell (great-circle distance), and
the distance moved is reported (snap_km). If the two ends then lie in waters that do not
connect, a moved end outside the main ocean (the largest connected water: the nearest sea to
a port is sometimes a lagoon) moves to the nearest cell of the main ocean instead. With
--no-snap an endpoint on land is an error.";

/// The end of `taut route --help`: the output formats, `--pairs`, `-o`, exit status.
pub const AFTER_HELP: &str = "\
Output (--format json): one object with the keys status (ok, unreachable, invalid), km, nm,
radians, snap_km_from, snap_km_to, time_us, from, to (the snapped endpoints, [lat, lon]),
from_given, to_given, legs (kind great|parallel, from, to, km, radians; lat and dlon for
parallel legs), waypoints ([lat, lon] turning points and ends of parallel legs), expanded,
generated, passages (the named canals, straits and ice gates the route goes through),
avoided (those closed: by --avoid, and the ice gates not allowed), from_port and to_port
({code, name} of a port given by code, else null), speed_knots, eta_hours and eta_days (with
--speed-knots), and error (only when invalid). Unknown values are null.

Ports: --from and --to take a port's UN/LOCODE (CNSHA, NLRTM, USNYC: 3,923 ports, from the
port list of the searoute package, Apache-2.0; docs/spherical.md) as well as LAT,LON. The
port moves to the nearest sea cell like any point on land, and snap_km says how far. An
unknown code is an error that suggests close ones.

Ice gates: the maps have no sea ice, so on a map of 1-degree cells or finer four Arctic
gates are closed unless --allow names them: bering (the Bering Strait), northwest-passage,
northern-sea-route (each opens bering too) and central-arctic (north of 84N); --allow arctic
opens all four. Shanghai to New York then goes by Panama, as ships do; with --allow
northwest-passage it may go through the Canadian Arctic, and lists the gates it uses.

ETA: --speed-knots K adds the time at sea at K knots (nautical miles per hour), in hours and
days, to the text, the JSON and the GeoJSON (and an eta_hours column with --pairs).

Passages: on the shared Earth rasters (360x180, 720x360, 1440x720), thirteen canals and
straits are named: suez, panama, gibraltar, bosporus, dardanelles, oresund, bab-el-mandeb,
hormuz, dover, singapore, juan-de-fuca, puget-sound, uraga (those a raster resolves).
--avoid closes them for this request; a route that needs one becomes a detour, or
`unreachable` when the water beyond has no other way in.

--avoid-area FILE.geojson: every cell that the file's polygons touch (closed rectangles
against closed polygons, holes left open; rings across the antimeridian split or not) is
closed for this request; an end inside the area moves to the nearest open cell. A file that
is not a GeoJSON area (no polygon, a Point, not JSON) is one error line naming it.

--pairs FILE.csv: route every row (columns from_lat, from_lon, to_lat, to_lon, or from and
to holding port codes or quoted LAT,LON, optional id, in any order) on every core. Prints
the CSV header
  id,line,status,km,nm,from_lat,from_lon,to_lat,to_lon,snap_km_from,snap_km_to,legs,
  expanded,time_us,passages,eta_hours,error
and one row per input row, in file order (passages separated by ';'; km and nm inf when
there is no route); --format json prints one JSON array instead, an object per row with
those keys (numbers as numbers, passages a list, null where the csv is empty or inf). A row that cannot be
read or routed is `invalid`, with one warning line on stderr naming its line; the others are
routed. The last stderr line gives the counts and routes per second. With -o FILE.geojson,
one FeatureCollection with a Feature per row. --jobs N (formerly --threads) routes on N
threads.

-o/--output FILE.geojson (or .json; formerly --geojson): a GeoJSON FeatureCollection
(RFC 7946, [lon, lat]): the route as a
LineString, or a MultiLineString split at the antimeridian, densified to a point every 0.25
degrees at most, with properties km, nm, radians, passages; its waypoints; Point features
start and goal, and the points as given when snapping moved them. -o FILE.svg or FILE.png
(formerly --render): the map, the route and its waypoints; both -o may be given.

Exit status: 0 when the query is answered, `ok` or `unreachable` (no route is an answer);
1 when it is invalid (bad coordinates, an unreadable map, an endpoint on land with
--no-snap, an output file that cannot be written): one line `taut: ...` on stderr, and with
--format json the object with status invalid on stdout; 2 for usage errors (one line, no
JSON).

Examples:
  taut route --map earth_0.25deg_nav.map --from 40.70,-74.02 --to 51.90,4.44 -o r.geojson -o r.png
  taut route --map earth_0.25deg_nav.map --from CNSHA --to USNYC --speed-knots 14
  taut route --map earth_0.25deg_nav.map --from CNSHA --to USNYC --allow northwest-passage
  taut route --map earth_0.25deg_nav.map --from 18.9,72.8 --to 51.9,4.4 --avoid suez
  taut route --map earth_0.25deg_nav.map --from 18.9,72.8 --to 51.9,4.4 --avoid-area zone.geojson
  taut route --map earth_0.25deg_nav.map --pairs pairs.csv -o routes.geojson > routes.csv";

/// Arguments of `taut route`.
#[derive(Debug, Clone, Args)]
pub struct RouteArgs {
    /// The sphere map (MovingAI .map; rows are latitude bands from the North Pole, columns
    /// longitude bands from 180°W).
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Start: latitude and longitude in degrees, north and east positive, such as
    /// 40.7,-74.0, "40.7, -74.0" or 40.7N,74W; or a port's UN/LOCODE, such as CNSHA.
    #[arg(
        long,
        value_name = "LAT,LON|CODE",
        allow_hyphen_values = true,
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub from: Option<String>,
    /// Goal: latitude and longitude in degrees, or a port's UN/LOCODE, as --from.
    #[arg(
        long,
        value_name = "LAT,LON|CODE",
        allow_hyphen_values = true,
        required_unless_present = "pairs",
        conflicts_with = "pairs"
    )]
    pub to: Option<String>,
    /// Route every row of this CSV file instead (columns from_lat, from_lon, to_lat, to_lon,
    /// and optionally id, in any order), on all cores; one CSV row per route on stdout, and
    /// with -o FILE.geojson one FeatureCollection of all routes.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["render"])]
    pub pairs: Option<PathBuf>,
    /// With --pairs: threads to route on (default: every core; a single route uses one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// The old name of --jobs (warns; goes in the next release).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          hide = true, conflicts_with = "jobs")]
    pub threads: Option<u32>,
    /// Passages and areas to keep out of.
    #[command(flatten)]
    pub avoid: AvoidArgs,
    /// The map is transposed (the shared data's *_T.map files: file row i is longitude band
    /// i).
    #[arg(long)]
    pub transposed: bool,
    /// Do not move an endpoint on land to the nearest sea cell: it is an error instead.
    #[arg(long)]
    pub no_snap: bool,
    /// Also write a file, chosen by its extension (repeat for both): FILE.geojson or
    /// FILE.json, the route as GeoJSON (a FeatureCollection, split at the antimeridian; with
    /// --pairs, every route); FILE.svg or FILE.png, the map, the route and its waypoints
    /// (equirectangular; not with --pairs).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub outputs: Vec<PathBuf>,
    /// The old name of `-o FILE.geojson` (warns; goes in the next release).
    #[arg(long, value_name = "FILE", hide = true)]
    pub geojson: Option<PathBuf>,
    /// The old name of `-o FILE.svg|.png` (warns; goes in the next release).
    #[arg(long, value_name = "FILE", value_parser = parse_output, hide = true)]
    pub render: Option<OutputFile>,
    /// With a picture: the map's long side in pixels (as in `taut render`).
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RouteFormat::Text)]
    pub format: RouteFormat,
    /// The ship's speed in knots: adds the time at sea (hours and days) to the output.
    #[arg(long, value_name = "K", value_parser = parse_knots)]
    pub speed_knots: Option<f64>,
}

/// A speed in knots: a positive, finite number.
fn parse_knots(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(k) if k.is_finite() && k > 0.0 => Ok(k),
        _ => Err(format!("{s:?} is not a positive number of knots")),
    }
}

/// Hours at sea for `nm` nautical miles at `knots`.
pub fn eta_hours(nm: f64, knots: f64) -> f64 {
    nm / knots
}

/// An end given as `LAT,LON` or as a port's UN/LOCODE: the point, and the port.
///
/// # Errors
/// [`RouteError::Coordinate`] for text that is neither, [`RouteError::Port`] for an unknown
/// code (with close ones suggested).
pub fn parse_end(
    text: &str,
    which: &'static str,
) -> Result<(LatLon, Option<&'static Port>), RouteError> {
    if is_locode(text) {
        let port = Ports::embedded()
            .get(text)
            .map_err(|source| RouteError::Port { which, source })?;
        return Ok((port.at, Some(port)));
    }
    match parse_latlon(text) {
        Ok(p) => Ok((p, None)),
        // A word that names ports is not a point: suggest their codes.
        Err(source) if text.chars().any(char::is_alphabetic) && !text.contains(',') => {
            match Ports::embedded().get(text) {
                Err(e @ PortError::Unknown { .. }) if e.has_suggestions() => {
                    Err(RouteError::Port { which, source: e })
                }
                _ => Err(RouteError::Coordinate { which, source }),
            }
        }
        Err(source) => Err(RouteError::Coordinate { which, source }),
    }
}

/// What `taut route` keeps out of, for this request only.
#[derive(Debug, Clone, Default, Args)]
pub struct AvoidArgs {
    /// Close these named passages (comma-separated or repeated): suez, panama, gibraltar,
    /// bosporus, dardanelles, oresund, bab-el-mandeb, hormuz, dover, singapore,
    /// juan-de-fuca, puget-sound, uraga, those the map has (the shared Earth rasters; an
    /// unknown name is an error listing the map's).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub avoid: Vec<String>,
    /// Open these ice gates, closed by default because the maps have no sea ice (on a map of
    /// 1-degree cells or finer): bering (the Bering Strait), northwest-passage and
    /// northern-sea-route (each opens bering too, its way in from the Pacific),
    /// central-arctic (north of 84N); `arctic` opens them all. A route through a gate lists
    /// it among its passages.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub allow: Vec<String>,
    /// Close every cell that the polygons of this GeoJSON file touch (Polygon, MultiPolygon,
    /// Feature or FeatureCollection of them; [lon, lat]; split at the antimeridian or not).
    /// Repeat for several files.
    #[arg(long, value_name = "FILE.geojson")]
    pub avoid_area: Vec<PathBuf>,
}

/// Output formats of `taut route`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RouteFormat {
    /// Lines: `distance K km N nm R rad` (or `unreachable`), `start`/`goal` with `snap_km`,
    /// `time_us`, `expanded`, `generated`, `legs`, `waypoints N` and N lines `lat,lon`.
    /// With --pairs: the csv.
    Text,
    /// With --pairs: a header and one row per route (the default there).
    Csv,
    /// One JSON object (its keys are listed at the end of `taut route --help`).
    Json,
}

/// `taut route`: parses the endpoints, plans, writes the `-o` files, and
/// prints the answer (see the module documentation for the formats and exit status).
///
/// # Errors
/// Any failure makes the query `invalid`: with `--format json` its object is printed first.
pub fn run(
    args: &RouteArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let args = &resolve_outputs(args, warnings)?;
    if let Some(pairs) = &args.pairs {
        return pairs::run_pairs(args, pairs, out, warnings);
    }
    if args.format == RouteFormat::Csv {
        return Err(CliError::Usage(
            "--format csv is for --pairs; one route prints text or json (see taut route --help)"
                .into(),
        ));
    }
    let mut report = RouteReport::default();
    let result = answer(args, &mut report, warnings);
    match (&result, args.format) {
        (Ok(planned), RouteFormat::Text) => write_text(planned, &report, out)?,
        (_, RouteFormat::Json) => {
            if let Err(e) = &result {
                report.status = RouteStatus::Invalid;
                report.error = Some(e.to_string().replace('\n', " "));
            }
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        (Err(_), RouteFormat::Text) | (_, RouteFormat::Csv) => {}
    }
    result.map(|_| ())
}

/// `args` with the files of `-o/--output` sorted into GeoJSON and picture, and the old names
/// (`--geojson`, `--render`, `--threads`) taken in with one warning each.
///
/// # Errors
/// [`CliError::Usage`] for an output whose extension names no format, two files of one
/// format, or a picture with `--pairs`.
fn resolve_outputs(args: &RouteArgs, warnings: &mut dyn Write) -> Result<RouteArgs, CliError> {
    let mut args = args.clone();
    let mut warn = |old: &str, new: &str| {
        let _ = writeln!(
            warnings,
            "taut: warning: {old} is now {new} (the old name goes in the next release)"
        );
    };
    if args.geojson.is_some() {
        warn("--geojson FILE", "-o/--output FILE.geojson");
    }
    if args.render.is_some() {
        warn("--render FILE", "-o/--output FILE.svg|.png");
    }
    if args.threads.is_some() {
        warn("--threads", "--jobs");
        args.jobs = args.jobs.or(args.threads);
    }
    let usage = |m: String| CliError::Usage(format!("{m} (see taut route --help)"));
    for file in std::mem::take(&mut args.outputs) {
        let ext = file
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("geojson" | "json") => {
                if args.geojson.replace(file.clone()).is_some() {
                    return Err(usage(format!(
                        "two GeoJSON outputs, the second {}",
                        file.display()
                    )));
                }
            }
            Some("svg" | "png") => {
                if args.pairs.is_some() {
                    return Err(usage(format!(
                        "-o {}: --pairs draws no picture (write GeoJSON: -o FILE.geojson)",
                        file.display()
                    )));
                }
                let picture =
                    parse_output(&file.to_string_lossy()).map_err(|e| usage(e.to_string()))?;
                if args.render.replace(picture).is_some() {
                    return Err(usage(format!(
                        "two pictures, the second {}",
                        file.display()
                    )));
                }
            }
            _ => {
                return Err(usage(format!(
                    "-o {}: the extension says what to write: .geojson or .json (GeoJSON), .svg or .png (a picture)",
                    file.display()
                )));
            }
        }
    }
    Ok(args)
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
    let (from, from_port) = parse_end(from, "start")?;
    report.from_given = Some(pair(from));
    report.from_port = from_port.map(PortReport::of);
    let (to, to_port) = parse_end(to, "goal")?;
    report.to_given = Some(pair(to));
    report.to_port = to_port.map(PortReport::of);
    let planned = plan_route(
        &args.map,
        args.transposed,
        (from, to),
        !args.no_snap,
        &args.avoid,
        warnings,
    )?;
    planned.report(report);
    if let (Some(knots), Some(nm)) = (args.speed_knots, report.nm) {
        report.speed_knots = Some(knots);
        report.eta_hours = Some(eta_hours(nm, knots));
        report.eta_days = Some(eta_hours(nm, knots) / 24.0);
    }
    if let Some(path) = &args.geojson {
        let mut doc = route_geojson(
            planned.found(),
            &planned.from,
            &planned.to,
            &planned.passages,
        );
        add_eta(&mut doc, report);
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

/// Adds `speed_knots`, `eta_hours` and `eta_days` to the properties of the route's line
/// feature (when there is an ETA).
pub fn add_eta(doc: &mut serde_json::Value, report: &RouteReport) {
    let Some(hours) = report.eta_hours else {
        return;
    };
    let Some(features) = doc["features"].as_array_mut() else {
        return;
    };
    for f in features {
        let line = f["geometry"]["type"]
            .as_str()
            .is_some_and(|t| t.ends_with("LineString"));
        if line && let Some(props) = f["properties"].as_object_mut() {
            props.insert("speed_knots".into(), serde_json::json!(report.speed_knots));
            props.insert("eta_hours".into(), serde_json::json!(hours));
            props.insert("eta_days".into(), serde_json::json!(hours / 24.0));
        }
    }
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
fn write_text(p: &Planned, r: &RouteReport, out: &mut dyn Write) -> Result<(), CliError> {
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
    if let (Some(h), Some(d), Some(k)) = (r.eta_hours, r.eta_days, r.speed_knots) {
        writeln!(out, "eta {h:.2} h {d:.2} d at {k} kn")?;
    }
    for (name, end, port) in [
        ("start", &p.from, &r.from_port),
        ("goal", &p.to, &r.to_port),
    ] {
        write!(
            out,
            "{name} {} snap_km {:.3}",
            fmt_point(end.point),
            end.snap_km
        )?;
        if let Some(given) = end.given {
            write!(out, " given {}", fmt_point(given))?;
        }
        if let Some(port) = port {
            write!(out, " port {} ({})", port.code, port.name)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use taut::render::sphere::End;
    use taut::spherical::{
        EARTH_RADIUS_KM, KM_PER_NM, LatLon, SearchOutcome, SearchStats, SphereGrid,
    };

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
            outcome: SearchOutcome::Found,
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
        write_text(&p, &RouteReport::default(), &mut out).unwrap();
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
