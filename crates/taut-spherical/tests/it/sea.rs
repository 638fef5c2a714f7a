//! `SeaMap` on the shared Earth rasters (skipped loudly when the shared data is absent; a
//! failure under `TAUT_REQUIRE_DATA=1`): snapping ports to the sea as `ports_snapped.csv`
//! says, at every resolution and in both variants.
//!
//! Each port is routed to a point in the open Atlantic (30N 40W). A port on land whose
//! nearest sea cell is in the main ocean moves there (`sea_row`, `sea_col`, `sea_nudge_km`).
//! One whose nearest sea cell is a lagoon or an inland sea not joined to the ocean moves to
//! the nearest cell of the main ocean instead (`main_row`, `main_col`, `main_nudge_km`), and
//! the route is found. A port given at sea is never moved; where its sea is not joined to the
//! ocean (the Mediterranean of a base raster, with Gibraltar closed), the route is
//! unreachable.

use std::collections::HashMap;

use crate::common::shared_sphere_data;
use taut_spherical::{LatLon, SeaMap, SearchContext, SearchOutcome, SphereGrid};

#[test]
fn ports_snap_to_the_sea_that_reaches_the_ocean() {
    let Some(dir) = shared_sphere_data("sea::ports_snap") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("ports_snapped.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut maps: HashMap<String, SeaMap> = HashMap::new();
    let mut ctx = SearchContext::new();
    let atlantic = LatLon::new(30.0, -40.0);
    let (mut moved_to_ocean, mut unreachable, mut checked) = (0, 0, 0);
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let nav = if f[col("variant")] == "nav" {
            "_nav"
        } else {
            ""
        };
        let name = format!("earth_{}{nav}.map", f[col("res")]);
        let sea = maps
            .entry(name.clone())
            .or_insert_with(|| SeaMap::new(SphereGrid::read_map(dir.join(&name), false).unwrap()));
        let num = |c: &str| f[col(c)].parse::<f64>().unwrap();
        let port = LatLon::new(num("lat"), num("lon"));
        let what = format!("{name} {}", f[col("locode")]);
        let r = sea.route(&mut ctx, port, atlantic, true).expect(&what);
        let in_main = f[col("sea_in_main_ocean")] == "True";
        if f[col("raw_is_sea")] == "True" {
            assert_eq!(r.from.given, None, "{what}");
            assert_eq!(r.from.point, port, "{what}");
            if !in_main {
                assert_eq!(r.outcome, SearchOutcome::Unreachable, "{what}");
                unreachable += 1;
            }
        } else {
            let (row, c, km) = if in_main {
                (num("sea_row"), num("sea_col"), num("sea_nudge_km"))
            } else {
                moved_to_ocean += 1;
                (num("main_row"), num("main_col"), num("main_nudge_km"))
            };
            assert_eq!(
                r.from.point,
                sea.grid().cell_centre(row as u32, c as u32),
                "{what}"
            );
            assert!(
                (r.from.km - km).abs() <= 0.05 + 1e-9,
                "{what}: {}",
                r.from.km
            );
            assert_eq!(r.outcome, SearchOutcome::Found, "{what}");
        }
        checked += 1;
    }
    assert!(checked >= 200, "{checked}");
    assert!(
        moved_to_ocean >= 10 && unreachable >= 1,
        "{moved_to_ocean} {unreachable}"
    );
}
