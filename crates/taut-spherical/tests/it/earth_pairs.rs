//! The search on the Earth rasters of `../shared/data/sphere/` (skipped loudly when the shared
//! data is absent; a failure under `TAUT_REQUIRE_DATA=1`), and the rasters themselves.
//!
//! For every row of `pairs_snapped.csv` (37 port pairs × 3 resolutions × base and `_nav`
//! variants), the search from (s_lat, s_lon) to (g_lat, g_lon), two cell centres of the main
//! ocean, must find a route that the checker accepts, whose length in km (radius 6371) lies in
//! `[gc_km − 0.05, dijkstra8_km + 0.05]`: the great circle is a lower bound and the
//! 8-connected Dijkstra between the same cells (no corner cutting, so every one of its moves is
//! legal here) an upper bound; the file rounds both to 0.1 km, hence [`KM_TOL`]. Rows with
//! `snap_ok = False` (a port moved far, often out of its own sea) are still queries between two
//! main-ocean cells with a finite `dijkstra8_km`, so they are held to the same rules.
//!
//! The rasters: each `_T.map` read transposed is its normal map cell by cell, and the free-cell
//! counts are `components.json`'s `sea_cells` / `nav_sea_cells`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use crate::common::shared_sphere_data;
use taut_spherical::check::check_route;
use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

/// The csv rounds kilometres to 0.1 km: a bound may be off by half of that.
const KM_TOL: f64 = 0.05;

/// One row of `pairs_snapped.csv`.
#[derive(Clone, Debug)]
struct Pair {
    /// `1deg`, `0.5deg` or `0.25deg`.
    res: String,
    /// The map file name.
    map: String,
    /// Row id within its map.
    id: u32,
    /// Port codes.
    from: String,
    /// Port codes.
    to: String,
    /// Start (a cell centre).
    start: LatLon,
    /// Goal (a cell centre).
    goal: LatLon,
    /// Great-circle km between start and goal.
    gc_km: f64,
    /// 8-connected Dijkstra km between the two cells.
    dijkstra8_km: f64,
    /// Whether both ports snapped to the main ocean close to where they are.
    snap_ok: bool,
    /// The start and goal cells (row, col).
    cells: [(u32, u32); 2],
}

fn read_pairs(dir: &Path) -> Vec<Pair> {
    let path = dir.join("pairs_snapped.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let c = [
        "res",
        "map",
        "id",
        "from",
        "to",
        "s_lat",
        "s_lon",
        "g_lat",
        "g_lon",
        "gc_km",
        "dijkstra8_km",
        "snap_ok",
        "s_row",
        "s_col",
        "g_row",
        "g_col",
    ]
    .map(col);
    lines
        .enumerate()
        .map(|(n, line)| {
            let f: Vec<&str> = line.split(',').collect();
            let num = |i: usize| -> f64 {
                f[c[i]]
                    .parse()
                    .unwrap_or_else(|_| panic!("{}:{}: bad number", path.display(), n + 2))
            };
            Pair {
                res: f[c[0]].to_owned(),
                map: f[c[1]].to_owned(),
                id: num(2) as u32,
                from: f[c[3]].to_owned(),
                to: f[c[4]].to_owned(),
                start: LatLon::new(num(5), num(6)),
                goal: LatLon::new(num(7), num(8)),
                gc_km: num(9),
                dijkstra8_km: num(10),
                snap_ok: match f[c[11]] {
                    "True" => true,
                    "False" => false,
                    other => panic!("{}:{}: snap_ok {other:?}", path.display(), n + 2),
                },
                cells: [
                    (num(12) as u32, num(13) as u32),
                    (num(14) as u32, num(15) as u32),
                ],
            }
        })
        .collect()
}

/// Runs every row of resolution `res` and reports all failures at once.
fn run_resolution(res: &str) {
    let test = format!("earth_pairs_{res}");
    let Some(dir) = shared_sphere_data(&test) else {
        return;
    };
    let pairs: Vec<Pair> = read_pairs(&dir)
        .into_iter()
        .filter(|p| p.res == res)
        .collect();
    assert!(!pairs.is_empty(), "no rows for {res}");
    let mut by_map: BTreeMap<&str, Vec<&Pair>> = BTreeMap::new();
    for p in &pairs {
        by_map.entry(&p.map).or_default().push(p);
    }
    let mut ctx = SearchContext::new();
    let mut route = Route::default();
    let mut failures = Vec::new();
    let (mut searched, mut ratio_sum) = (0usize, 0.0);
    let started = Instant::now();
    for (map, rows) in by_map {
        let grid = SphereGrid::read_map(dir.join(map), false).unwrap();
        for p in rows {
            let what = format!(
                "{map} #{} {}->{} (snap_ok {})",
                p.id, p.from, p.to, p.snap_ok
            );
            match ctx.search(&grid, p.start, p.goal, &mut route) {
                Ok(SearchOutcome::Found) => {}
                other => {
                    failures.push(format!("{what}: search returned {other:?}"));
                    continue;
                }
            }
            searched += 1;
            let km = route.km();
            if km < p.gc_km - KM_TOL || km > p.dijkstra8_km + KM_TOL {
                failures.push(format!(
                    "{what}: {km:.3} km outside [{} - {KM_TOL}, {} + {KM_TOL}]",
                    p.gc_km, p.dijkstra8_km
                ));
            }
            if p.gc_km > 0.0 {
                ratio_sum += km / p.gc_km;
            }
            if let Err(v) = check_route(&grid, &route, p.start, p.goal) {
                failures.push(format!("{what}: illegal route: {v}"));
            }
        }
    }
    eprintln!(
        "{test}: {} rows, {searched} routes found, mean length / great circle {:.4}, {:.2?}",
        pairs.len(),
        ratio_sum / searched.max(1) as f64,
        started.elapsed()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn earth_pairs_1deg() {
    run_resolution("1deg");
}

#[test]
fn earth_pairs_0_5deg() {
    run_resolution("0.5deg");
}

#[test]
fn earth_pairs_0_25deg() {
    run_resolution("0.25deg");
}

/// The six maps of one resolution: (base, nav).
fn maps(res: &str) -> [String; 2] {
    [format!("earth_{res}"), format!("earth_{res}_nav")]
}

fn transposes_match(res: &str) {
    let Some(dir) = shared_sphere_data(&format!("transposed_maps_{res}")) else {
        return;
    };
    for name in maps(res) {
        let g = SphereGrid::read_map(dir.join(format!("{name}.map")), false).unwrap();
        let t = SphereGrid::read_map(dir.join(format!("{name}_T.map")), true).unwrap();
        assert_eq!((g.width(), g.height()), (t.width(), t.height()), "{name}");
        assert_eq!(g.width(), 2 * g.height(), "{name}");
        for r in 0..i64::from(g.height()) {
            for c in 0..i64::from(g.width()) {
                assert_eq!(g.is_free(r, c), t.is_free(r, c), "{name} cell ({r}, {c})");
            }
        }
    }
}

#[test]
fn transposed_maps_1deg() {
    transposes_match("1deg");
}

#[test]
fn transposed_maps_0_5deg() {
    transposes_match("0.5deg");
}

#[test]
fn transposed_maps_0_25deg() {
    transposes_match("0.25deg");
}

#[test]
fn free_cells_match_components_json() {
    let Some(dir) = shared_sphere_data("free_cells_match_components_json") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("components.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut checked = 0;
    for (res, facts) in json.as_object().unwrap() {
        let [base, nav] = maps(res);
        for (name, key) in [(base, "sea_cells"), (nav, "nav_sea_cells")] {
            let g = SphereGrid::read_map(dir.join(format!("{name}.map")), false).unwrap();
            let want = facts[key].as_u64().unwrap() as usize;
            assert_eq!(g.free_cells(), want, "{name}: free cells vs {res}.{key}");
            assert_eq!(u64::from(g.width()), facts["width"].as_u64().unwrap());
            assert_eq!(u64::from(g.height()), facts["height"].as_u64().unwrap());
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

/// Every pair's start and goal are the centres of the free cells the csv names, under
/// `SphereGrid`'s conventions (`cell_of`, `cell_centre`, `read_map`).
#[test]
fn pair_endpoints_are_free_cell_centres() {
    let Some(dir) = shared_sphere_data("pair_endpoints_are_free_cell_centres") else {
        return;
    };
    let pairs = read_pairs(&dir);
    assert_eq!(pairs.len(), 222);
    let mut grids: BTreeMap<String, SphereGrid> = BTreeMap::new();
    for p in &pairs {
        let grid = grids
            .entry(p.map.clone())
            .or_insert_with(|| SphereGrid::read_map(dir.join(&p.map), false).unwrap());
        for (pt, cell) in [(p.start, p.cells[0]), (p.goal, p.cells[1])] {
            assert_eq!(grid.cell_of(pt), cell, "{} #{}", p.map, p.id);
            assert!(
                grid.is_free(cell.0.into(), cell.1.into()),
                "{} #{}",
                p.map,
                p.id
            );
            let c = grid.cell_centre(cell.0, cell.1);
            assert!(
                (c.lat - pt.lat).abs() < 1e-9 && (c.lon - pt.lon).abs() < 1e-9,
                "{} #{}: centre {c:?} vs {pt:?}",
                p.map,
                p.id
            );
        }
    }
}
