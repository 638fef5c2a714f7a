//! Bad input to the spherical planner: maps that cannot be a latitude/longitude raster
//! (`fixtures/bad/sphere/expected.txt`, format in `fixtures/bad/README.md`), and queries
//! with coordinates that are not a point of the sea (NaN, infinite, beyond a pole, on land):
//! each is a typed `SphereError`, never a panic and never a route or "unreachable".

use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereError, SphereGrid};
use taut_testdata::fixtures;

fn variant(e: &SphereError) -> &'static str {
    match e {
        SphereError::Map { .. } => "Map",
        SphereError::TooSmall { .. } => "TooSmall",
        SphereError::TooLarge { .. } => "TooLarge",
        SphereError::BadCoordinate { .. } => "BadCoordinate",
        SphereError::Blocked { .. } => "Blocked",
        SphereError::Ambiguous { .. } => "Ambiguous",
    }
}

#[test]
fn every_catalogued_sphere_map_gives_its_expected_outcome() {
    let dir = fixtures().join("bad/sphere");
    let mut failures = Vec::new();
    let mut listed = std::collections::BTreeSet::new();
    for (at, fields) in taut_testdata::manifest_entries(&dir.join("expected.txt")) {
        let t: Vec<&str> = fields.iter().map(String::as_str).collect();
        let line = format!("expected.txt:{at}: {}", fields.join(" "));
        assert_eq!(t.len(), 4, "{line}: file transposed outcome detail");
        listed.insert(t[0].to_owned());
        let path = dir.join(t[0]);
        let transposed = match t[1] {
            "yes" => true,
            "no" => false,
            x => panic!("{line}: transposed is yes or no, not {x}"),
        };
        let got = std::panic::catch_unwind(|| SphereGrid::read_map(&path, transposed));
        let Ok(got) = got else {
            failures.push(format!("{line}: panicked"));
            continue;
        };
        match (t[2], got) {
            ("ok", Ok(g)) => {
                let size = format!("{}x{}", g.width(), g.height());
                if size != t[3] {
                    failures.push(format!("{line}: read as {size}"));
                }
            }
            (want, Ok(_)) => failures.push(format!("{line}: expected {want}, it loaded")),
            (want, Err(e)) => {
                let detail = match &e {
                    SphereError::TooSmall { width, height } => format!("{width}x{height}"),
                    SphereError::Map { path: p, .. } => {
                        // The message names the file.
                        if !e.to_string().contains(p.as_str()) || !p.ends_with(t[0]) {
                            failures.push(format!("{line}: does not name the file: {e}"));
                        }
                        "-".into()
                    }
                    _ => "?".into(),
                };
                if (variant(&e), detail.as_str()) != (want, t[3]) {
                    failures.push(format!("{line}: got {e:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every file of the directory is catalogued. (The manifest also names a missing file and
    // one of the grid catalogue's, `../map_truncated.map`, which are not in this directory.)
    let here = listed
        .iter()
        .filter(|n| !n.contains('/') && dir.join(n).exists());
    taut_testdata::assert_catalogue_complete(&dir, here.map(String::as_str));
}

/// Sides whose product does not fit the cell index: refused, where `width * height` used to
/// overflow `u32` (a panic in debug builds, a wrong-sized grid and an out-of-bounds index in
/// release).
#[test]
fn a_raster_too_large_to_index_is_refused() {
    for (w, h) in [(1u32 << 16, 1u32 << 16), (u32::MAX, 2), (4, u32::MAX)] {
        let r = std::panic::catch_unwind(|| SphereGrid::from_fn(w, h, |_, _| true).map(drop));
        assert!(
            matches!(r, Ok(Err(SphereError::TooLarge { .. }))),
            "{w}x{h}: {r:?}"
        );
    }
}

fn tiny() -> SphereGrid {
    SphereGrid::read_map(fixtures().join("sphere/tiny_36x18.map"), false).unwrap()
}

fn search(
    grid: &SphereGrid,
    from: LatLon,
    to: LatLon,
) -> Result<(SearchOutcome, f64), SphereError> {
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ctx.search(grid, from, to, &mut route)
    }));
    let outcome = r.unwrap_or_else(|_| panic!("{from:?} -> {to:?}: the search panicked"))?;
    Ok((outcome, route.radians))
}

/// Sea points of `tiny_36x18.map` (see `fixtures/sphere/README.md`).
const SEA: LatLon = LatLon {
    lat: -35.0,
    lon: 60.0,
};
const SEA2: LatLon = LatLon {
    lat: 15.0,
    lon: -95.0,
};

#[test]
fn coordinates_that_are_not_a_point_are_bad_coordinates() {
    let grid = tiny();
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    for (lat, lon) in [
        (nan, 0.0),
        (0.0, nan),
        (inf, 0.0),
        (-inf, 0.0),
        (0.0, inf),
        (0.0, -inf),
        (91.0, 0.0),
        (-90.000001, 0.0),
        (f64::MAX, 0.0),
        (1e308, 1e308),
    ] {
        let bad = LatLon::new(lat, lon);
        for (from, to, which) in [(bad, SEA, "start"), (SEA, bad, "goal")] {
            match search(&grid, from, to) {
                Err(SphereError::BadCoordinate { which: w, .. }) if w == which => {}
                r => panic!("({lat}, {lon}) as {which}: {r:?}"),
            }
        }
    }
}

#[test]
fn poles_land_and_all_land_maps_are_refused() {
    let grid = tiny();
    for (p, want) in [
        (LatLon::new(90.0, 0.0), "Ambiguous"),
        (LatLon::new(-90.0, 123.0), "Ambiguous"),
        // On the continent (20N-60N, 0-40E).
        (LatLon::new(45.0, 35.0), "Blocked"),
        (LatLon::new(45.0, 35.0 + 360.0 * 1e6), "Blocked"),
        // On the antimeridian island, seen from the far side of the date line.
        (LatLon::new(5.0, -175.0 - 720.0), "Blocked"),
    ] {
        for (from, to) in [(p, SEA), (SEA, p)] {
            match search(&grid, from, to) {
                Err(e) if variant(&e) == want => {}
                r => panic!("{p:?}: expected {want}, got {r:?}"),
            }
        }
    }
    let land = SphereGrid::read_map(fixtures().join("bad/sphere/ok_all_land.map"), false).unwrap();
    let r = search(&land, LatLon::new(10.0, 10.0), LatLon::new(-10.0, 100.0));
    assert!(
        matches!(r, Err(SphereError::Blocked { which: "start", .. })),
        "{r:?}"
    );
}

/// A longitude is any real number: far outside [-180, 180) it names the same meridian as its
/// remainder, and the route is the same. (1e308 degrees went through `to_radians` and a
/// float-to-integer column computation that saturated.)
#[test]
fn huge_longitudes_are_the_same_points_as_their_remainders() {
    let grid = tiny();
    let (o, want) = search(&grid, SEA, SEA2).unwrap();
    assert_eq!(o, SearchOutcome::Found);
    for k in [1.0, -1.0, 1e6, -1e6] {
        let from = LatLon::new(SEA.lat, SEA.lon + 360.0 * k);
        let to = LatLon::new(SEA2.lat, SEA2.lon - 360.0 * k);
        let (o, got) = search(&grid, from, to).unwrap();
        assert_eq!(o, SearchOutcome::Found);
        assert!((got - want).abs() < 1e-9, "k = {k}: {got} vs {want}");
    }
    for lon in [1e308, -1e308, f64::MAX, f64::MIN, 1e17, 5e-324] {
        let p = LatLon::new(SEA.lat, lon);
        let q = LatLon::new(SEA.lat, taut_spherical::geo::wrap_deg(lon));
        let a = search(&grid, p, SEA2);
        let b = search(&grid, q, SEA2);
        match (&a, &b) {
            (Ok((oa, la)), Ok((ob, lb))) => {
                assert_eq!(oa, ob, "lon {lon}");
                assert!((la - lb).abs() < 1e-9, "lon {lon}: {la} vs {lb}");
            }
            (Err(ea), Err(eb)) => assert_eq!(variant(ea), variant(eb), "lon {lon}"),
            _ => panic!("lon {lon}: {a:?} vs {b:?}"),
        }
    }
}

/// The lake (25S 135W) is sea walled in by land: a route out of it is truly unreachable, a
/// valid answer; the point itself is not refused.
#[test]
fn a_walled_in_sea_point_is_unreachable_not_invalid() {
    let grid = tiny();
    let r = search(&grid, LatLon::new(-25.0, -135.0), SEA);
    assert!(matches!(r, Ok((SearchOutcome::Unreachable, _))), "{r:?}");
}
