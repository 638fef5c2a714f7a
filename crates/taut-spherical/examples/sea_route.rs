//! A shortest sea route on the sphere: load a land/sea raster, plan between two sea points
//! given in degrees, print the route's length and its legs, and check it.
//!
//! ```text
//! cargo run --release -p taut-spherical --example sea_route [-- MAP [LAT LON LAT LON]]
//! ```
//!
//! With no arguments it reads `fixtures/sphere/tiny_36x18.map` (cells of 10°, a continent over
//! 20N–60N, 0–40E) and routes from 25N 10W to 25N 50E, around the continent. A map covers the
//! whole sphere: row 0 touches the North Pole, column 0 starts at 180°W, `.` is sea and `@`
//! land. Latitudes are degrees north, longitudes degrees east (negative: south, west).

use std::error::Error;
use std::time::Instant;

use taut_spherical::check::check_route;
use taut_spherical::{
    EARTH_RADIUS_KM, LatLon, Leg, Route, SearchContext, SearchOutcome, SphereGrid,
};

const USAGE: &str = "usage: sea_route [MAP [LAT LON LAT LON]]";

/// Reports an error by its message: `Error: "start (45, 35) is on land / a blocked cell"`.
fn main() -> Result<(), String> {
    run().map_err(|e| e.to_string())
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let default_map = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/sphere/tiny_36x18.map"
    );
    let map_path = args.first().map_or(default_map, String::as_str);
    // `true` would read the transposed layout (one row per longitude band).
    let grid = SphereGrid::read_map(map_path, false)?;
    let (from, to) = match args.get(1..).unwrap_or_default() {
        [] => (LatLon::new(25.0, -10.0), LatLon::new(25.0, 50.0)),
        [lat0, lon0, lat1, lon1] => {
            let d = |s: &String| s.parse::<f64>().map_err(|e| format!("{s:?}: {e}; {USAGE}"));
            (
                LatLon::new(d(lat0)?, d(lon0)?),
                LatLon::new(d(lat1)?, d(lon1)?),
            )
        }
        _ => return Err(USAGE.into()),
    };
    println!(
        "{map_path}: {}x{} cells of {}° x {}°, {} of them sea",
        grid.width(),
        grid.height(),
        grid.res_lon().to_degrees(),
        grid.res_lat().to_degrees(),
        grid.free_cells()
    );

    // The search needs no preprocessing; a context keeps its buffers for the next route.
    // An end on land, at a pole or out of range is an error, not "no route".
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let t = Instant::now();
    let outcome = ctx.search(&grid, from, to, &mut route)?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    if outcome == SearchOutcome::Unreachable {
        println!("{} -> {}: no sea route", deg(from), deg(to));
        return Ok(());
    }
    println!(
        "{} -> {}: {:.1} km ({:.1} nautical miles) in {} legs, {} nodes expanded in {ms:.2} ms",
        deg(from),
        deg(to),
        route.km(),
        route.nm(),
        route.legs.len(),
        ctx.stats().expanded
    );
    println!(
        "  the great circle, ignoring land, is {:.1} km",
        from.distance_rad(to) * EARTH_RADIUS_KM
    );
    for leg in &route.legs {
        // A great-circle arc, or an arc along a parallel, hugging a coast that lies on its
        // poleward side (the shortest way round such a coast is not a great circle).
        let kind = match leg {
            Leg::Great { .. } => "great circle".to_string(),
            Leg::Parallel { lat: l, .. } => format!("along the {} parallel", lat(*l)),
        };
        println!(
            "  {} -> {}  {kind}, {:.1} km",
            deg(leg.start()),
            deg(leg.end()),
            leg.radians() * EARTH_RADIUS_KM
        );
    }
    // An independent check: the legs join up, avoid land and add up to the length.
    check_route(&grid, &route, from, to)?;
    println!("  checked: the route is legal");
    Ok(())
}

/// `25.00N 10.00W`.
fn deg(p: LatLon) -> String {
    let ew = if p.lon < 0.0 { 'W' } else { 'E' };
    format!("{} {:.2}{ew}", lat(p.lat), p.lon.abs())
}

/// `25.00N`.
fn lat(lat: f64) -> String {
    format!("{:.2}{}", lat.abs(), if lat < 0.0 { 'S' } else { 'N' })
}
