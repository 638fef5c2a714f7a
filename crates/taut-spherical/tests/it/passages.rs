//! Named passages: the embedded table, its derivation from the shared rasters, and routes that
//! use and avoid each passage.
//!
//! With the shared data (skipped loudly when absent; a failure under `TAUT_REQUIRE_DATA=1`):
//! - `derive` on each `_nav` raster and its base raster gives exactly the embedded
//!   `data/passages.csv` (the file is what `cargo xtask passages` writes);
//! - for every passage of the 1° and 0.5° rasters (and of the 0.25° raster with
//!   `TAUT_FULL=1`): the route between the passage's two test points (snapped to the sea)
//!   uses it; with the passage closed, the route is legal on the closed grid, does not use it,
//!   and is longer (by more than 1 km) or unreachable; closing the Bosporus or Hormuz cuts
//!   the Black Sea or the Gulf off (unreachable, never a detour over land).

use std::collections::BTreeSet;

use crate::common::shared_sphere_data;
use taut_spherical::check::check_route;
use taut_spherical::passage::{PASSAGES_CSV, anchors, derive, ice_gates, parse_csv, to_csv};
use taut_spherical::{
    EARTH_RADIUS_KM, LatLon, PassageError, Passages, Route, SearchContext, SearchOutcome,
    SnapIndex, SphereGrid,
};

#[test]
fn embedded_files_parse_and_agree() {
    let anchors = anchors().expect("anchors parse");
    let names: BTreeSet<&str> = anchors.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names.len(), anchors.len(), "anchor names are unique");
    let cells = parse_csv(PASSAGES_CSV).expect("passages.csv parses");
    assert!(!cells.is_empty());
    for c in &cells {
        assert!(names.contains(c.name.as_str()), "{} has an anchor", c.name);
        assert!(c.row < c.height && c.col < c.width);
    }
    assert_eq!(to_csv(&cells), PASSAGES_CSV, "the file is in to_csv's form");
    // Every shared size has the canals.
    for (w, h) in [(360, 180), (720, 360), (1440, 720)] {
        let grid = SphereGrid::from_fn(w, h, |_, _| true).unwrap();
        let p = Passages::for_grid(&grid);
        for name in ["suez", "panama", "bosporus", "hormuz", "dover"] {
            assert!(p.get(name).is_ok(), "{name} at {w}x{h}");
        }
    }
}

#[test]
fn unknown_names_list_the_known_ones_and_spelling_is_forgiven() {
    let grid = SphereGrid::from_fn(360, 180, |_, _| true).unwrap();
    let p = Passages::for_grid(&grid);
    assert_eq!(p.get("Bab el Mandeb").unwrap().name, "bab-el-mandeb");
    assert_eq!(p.get("JUAN_DE_FUCA").unwrap().name, "juan-de-fuca");
    let err = p.get("kiel").unwrap_err();
    let PassageError::Unknown { ref known, .. } = err else {
        panic!("{err:?}")
    };
    assert!(
        known.contains("suez") && known.contains("panama"),
        "{known}"
    );
    assert!(
        err.to_string().starts_with("unknown passage 'kiel'"),
        "{err}"
    );
    // A size without passages says so (coarser than 1°: no ice gates either).
    let other = SphereGrid::from_fn(100, 50, |_, _| true).unwrap();
    let none = Passages::for_grid(&other);
    assert!(none.is_empty());
    assert!(
        none.get("suez")
            .unwrap_err()
            .to_string()
            .ends_with("are: none")
    );
}

#[test]
fn malformed_csv_lines_are_named() {
    let e = parse_csv("name,width,height,row,col,source\nsuez,360,180,x,1,opened\n").unwrap_err();
    assert!(
        e.to_string().starts_with("passages.csv line 2: field 4"),
        "{e}"
    );
    let e = parse_csv("suez,360,180,1,1,opened\n").unwrap_err();
    assert!(e.to_string().contains("expected the header"), "{e}");
    let e = parse_csv("name,width,height,row,col,source\nsuez,360,180,1,1,dug\n").unwrap_err();
    assert!(e.to_string().contains("neither opened nor gate"), "{e}");
}

#[test]
fn closing_cells_blocks_them_and_nothing_else() {
    let grid = SphereGrid::from_fn(36, 18, |r, c| (r + c) % 5 != 0).unwrap();
    let closed = grid.with_closed(&[(3, 4), (9, 9), (99, 99)]);
    for r in 0..18 {
        for c in 0..36 {
            let want = grid.is_free(r, c) && (r, c) != (3, 4) && (r, c) != (9, 9);
            assert_eq!(closed.is_free(r, c), want, "({r}, {c})");
        }
    }
}

fn read(dir: &std::path::Path, name: &str) -> SphereGrid {
    SphereGrid::read_map(dir.join(name), false).expect("shared raster reads")
}

#[test]
fn derivation_from_the_shared_rasters_is_the_embedded_table() {
    let Some(dir) = shared_sphere_data("passages::derivation") else {
        return;
    };
    let mut all = Vec::new();
    for res in ["1deg", "0.5deg", "0.25deg"] {
        let base = read(&dir, &format!("earth_{res}.map"));
        let nav = read(&dir, &format!("earth_{res}_nav.map"));
        let cells = derive(&base, &nav).expect("derives");
        for c in &cells {
            assert!(
                nav.is_free(i64::from(c.row), i64::from(c.col)),
                "{c:?} is sea"
            );
        }
        all.extend(cells);
    }
    assert_eq!(
        to_csv(&all),
        PASSAGES_CSV,
        "data/passages.csv is out of date: run `cargo xtask passages`"
    );
}

/// Routes between `a` and `b` on `grid`: (outcome, route, from, to) after snapping both.
fn route(grid: &SphereGrid, a: LatLon, b: LatLon) -> (SearchOutcome, Route, LatLon, LatLon) {
    let snap = SnapIndex::new(grid);
    let at = |p: LatLon| {
        let (r, c) = snap.nearest(grid, p).expect("sea");
        grid.cell_centre(r, c)
    };
    let (from, to) = (at(a), at(b));
    let mut route = Route::default();
    let outcome = SearchContext::new()
        .search(grid, from, to, &mut route)
        .expect("valid ends");
    (outcome, route, from, to)
}

#[test]
fn every_passage_is_used_and_can_be_closed() {
    let Some(dir) = shared_sphere_data("passages::used_and_closed") else {
        return;
    };
    let full = std::env::var("TAUT_FULL").as_deref() == Ok("1");
    let resolutions: &[&str] = if full {
        &["1deg", "0.5deg", "0.25deg"]
    } else {
        eprintln!("passages::used_and_closed: 0.25deg only with TAUT_FULL=1");
        &["1deg", "0.5deg"]
    };
    let anchors = anchors().unwrap();
    let gates = ice_gates().unwrap();
    let mut checked = 0;
    for res in resolutions {
        let nav = read(&dir, &format!("earth_{res}_nav.map"));
        let passages = Passages::for_grid(&nav);
        for p in passages.iter() {
            // The sides of a canal or strait are in the anchors file, those of an ice gate
            // in the gates file; the others stay open (SphereGrid as read).
            let (side_a, side_b) = match anchors.iter().find(|a| a.name == p.name) {
                Some(a) => (a.a, a.b),
                None => {
                    let g = gates.iter().find(|g| g.name == p.name).unwrap();
                    (g.a, g.b)
                }
            };
            let (outcome, open, from, to) = route(&nav, side_a, side_b);
            assert_eq!(outcome, SearchOutcome::Found, "{res} {}", p.name);
            let used = passages.used_by(&nav, &open, from, to);
            assert!(
                used.contains(&p.name.as_str()),
                "{res} {}: used {used:?}",
                p.name
            );
            checked += 1;

            let closed = nav.with_closed(&p.cells);
            let mut detour = Route::default();
            let outcome = match SearchContext::new().search(&closed, from, to, &mut detour) {
                Ok(outcome) => outcome,
                Err(e) => {
                    // A side in the passage itself (Puget Sound is one cell at 1°).
                    let inside = [from, to].iter().any(|&q| {
                        let (r, c) = nav.cell_of(q);
                        p.contains(r, c)
                    });
                    assert!(inside, "{res} {}: {e}", p.name);
                    continue;
                }
            };
            let cut_off = matches!(p.name.as_str(), "bosporus" | "hormuz");
            if cut_off {
                assert_eq!(outcome, SearchOutcome::Unreachable, "{res} {}", p.name);
            }
            if outcome == SearchOutcome::Found {
                check_route(&closed, &detour, from, to).expect("legal with the passage closed");
                let more_km = (detour.radians - open.radians) * EARTH_RADIUS_KM;
                assert!(more_km > 1.0, "{res} {}: {more_km} km more", p.name);
                let used = passages.used_by(&closed, &detour, from, to);
                assert!(!used.contains(&p.name.as_str()), "{res} {}", p.name);
            }
        }
    }
    assert!(checked >= 32, "{checked} passages checked");
}
