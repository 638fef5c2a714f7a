//! The ice gates (`data/ice-gates.csv`): closed by default, opened by name, and together a
//! cut between the Pacific and the Atlantic through the Arctic.
//!
//! Without the shared data: the gates file parses, a coarse raster has no gate, and
//! `Passages::resolve` gives what its documentation says (allowing a gate opens its way in;
//! `arctic` names them all; a name both avoided and allowed is an error).
//!
//! With the shared `_nav` rasters at 1°, 0.5° and 0.25° (skipped loudly when absent; a
//! failure under `TAUT_REQUIRE_DATA=1`):
//! - `SeaMap::new` closes the four gates and nothing else;
//! - with the gates closed, the open water between them (the Chukchi and Beaufort Seas) is
//!   cut off from the rest of the sea even counting cells that touch only at a corner, so no
//!   route of any kind leaves the Pacific for the Atlantic through the Arctic;
//! - Shanghai to New York goes through Panama by default and uses no gate; allowing the
//!   Northwest Passage gives a shorter route through `bering` and `northwest-passage`, legal
//!   on its closed grid; allowing `arctic` gives the route of the open raster.

use std::collections::VecDeque;

use crate::common::shared_sphere_data;
use taut_spherical::check::check_route;
use taut_spherical::passage::ice_gates;
use taut_spherical::{LatLon, PassageError, Passages, SeaMap, SearchContext, SphereGrid};

const GATES: [&str; 4] = [
    "bering",
    "central-arctic",
    "northern-sea-route",
    "northwest-passage",
];

#[test]
fn the_gates_file_parses_and_coarse_rasters_have_no_gate() {
    let gates = ice_gates().unwrap();
    let mut names: Vec<&str> = gates.iter().map(|g| g.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, GATES);
    for g in &gates {
        assert!(
            !g.covers(g.a) && !g.covers(g.b),
            "{}: test points outside",
            g.name
        );
        for other in &gates {
            assert!(
                !other.covers(g.a) && !other.covers(g.b),
                "{} in {}",
                g.name,
                other.name
            );
        }
    }
    let coarse = SphereGrid::from_fn(36, 18, |_, _| true).unwrap();
    assert!(Passages::for_grid(&coarse).closed_by_default().is_empty());
    assert!(SeaMap::new(coarse).closed_passages().is_empty());
}

#[test]
fn resolve_opens_what_is_allowed_and_its_way_in() {
    let grid = SphereGrid::from_fn(360, 180, |_, _| true).unwrap();
    let p = Passages::for_grid(&grid);
    let none: [&str; 0] = [];
    assert_eq!(p.resolve(&none, &none).unwrap(), GATES);
    assert_eq!(
        p.resolve(&none, &["Northwest Passage"]).unwrap(),
        ["central-arctic", "northern-sea-route"]
    );
    assert_eq!(
        p.resolve(&["bering"], &["northwest-passage"]).unwrap(),
        ["bering", "central-arctic", "northern-sea-route"]
    );
    assert!(p.resolve(&none, &["arctic"]).unwrap().is_empty());
    assert_eq!(
        p.resolve(&["suez"], &["ARCTIC"]).unwrap(),
        ["suez"],
        "allowing every gate, avoiding Suez"
    );
    assert_eq!(
        p.resolve(&none, &["suez"]).unwrap(),
        GATES,
        "Suez is open anyway"
    );
    assert_eq!(
        p.resolve(&["bering"], &["bering"]),
        Err(PassageError::AvoidedAndAllowed("bering".into()))
    );
    let e = p.resolve(&none, &["icy-strait"]).unwrap_err().to_string();
    assert!(
        e.contains("unknown passage 'icy-strait'") && e.contains("northwest-passage"),
        "{e}"
    );
}

/// The component of each sea cell, cells joined across sides or corners (longitude wraps).
fn components(grid: &SphereGrid) -> Vec<u32> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let mut comp = vec![u32::MAX; (w * h) as usize];
    let mut next = 0;
    let mut queue = VecDeque::new();
    for start in 0..w * h {
        if comp[start as usize] != u32::MAX || !grid.is_free(start / w, start % w) {
            continue;
        }
        comp[start as usize] = next;
        queue.push_back(start);
        while let Some(at) = queue.pop_front() {
            let (r, c) = (at / w, at % w);
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, (c + dc).rem_euclid(w));
                    let i = (nr * w + nc) as usize;
                    if (0..h).contains(&nr) && grid.is_free(nr, nc) && comp[i] == u32::MAX {
                        comp[i] = next;
                        queue.push_back(nr * w + nc);
                    }
                }
            }
        }
        next += 1;
    }
    comp
}

#[test]
fn the_gates_are_closed_by_default_and_cut_the_arctic() {
    let Some(dir) = shared_sphere_data("ice::closed_by_default") else {
        return;
    };
    let shanghai = LatLon::new(31.400091, 121.497113);
    let new_york = LatLon::new(40.705475, -74.017681);
    let mut ctx = SearchContext::new();
    for res in ["1deg", "0.5deg", "0.25deg"] {
        let raster = SphereGrid::read_map(dir.join(format!("earth_{res}_nav.map")), false).unwrap();
        let sea = SeaMap::new(raster.clone());
        assert_eq!(sea.closed_passages(), GATES, "{res}");

        let grid = sea.grid();
        let comp = components(grid);
        let at = |p: LatLon| {
            let (r, c) = grid.cell_of(p);
            assert!(
                grid.is_free(i64::from(r), i64::from(c)),
                "{res}: {p:?} is sea"
            );
            comp[(r * grid.width() + c) as usize]
        };
        let (beaufort, chukchi) = (at(LatLon::new(71.0, -140.0)), at(LatLon::new(70.5, -166.5)));
        assert_eq!(beaufort, chukchi, "{res}: one water between the gates");
        for outside in [
            LatLon::new(30.0, -40.0),  // the Atlantic
            LatLon::new(60.0, -178.0), // the Bering Sea
            LatLon::new(75.0, 40.0),   // the Barents Sea
            LatLon::new(72.0, -59.0),  // Baffin Bay
        ] {
            assert_ne!(
                at(outside),
                beaufort,
                "{res}: {outside:?} meets the Beaufort Sea"
            );
        }

        let by_default = sea.route(&mut ctx, shanghai, new_york, true).unwrap();
        let route = by_default.found().expect("Shanghai to New York");
        assert!(
            by_default.passages.contains(&"panama".to_owned()),
            "{res}: {:?}",
            by_default.passages
        );
        assert!(
            GATES
                .iter()
                .all(|g| !by_default.passages.contains(&(*g).to_owned()))
        );
        check_route(grid, route, by_default.from.point, by_default.to.point).expect("legal");

        // The channels of the Canadian archipelago are land at 1°: there the Northwest
        // Passage allowed changes nothing, and every gate allowed goes round by Siberia.
        let (allow, through_gates): (&str, &[&str]) = if res == "1deg" {
            ("arctic", &["bering", "northern-sea-route"])
        } else {
            ("northwest-passage", &["bering", "northwest-passage"])
        };
        let opened = sea.request(&[] as &[&str], &[allow], &[]).unwrap();
        let through = opened.route(&mut ctx, shanghai, new_york, true).unwrap();
        let arctic = through.found().expect("through the ice");
        assert!(
            arctic.radians < route.radians,
            "{res}: shorter through the ice"
        );
        for g in through_gates {
            assert!(
                through.passages.contains(&(*g).to_owned()),
                "{res}: {:?}",
                through.passages
            );
        }
        check_route(opened.grid(), arctic, through.from.point, through.to.point).expect("legal");

        let all = sea.request(&[] as &[&str], &["arctic"], &[]).unwrap();
        let open = SeaMap::open(raster);
        let a = all.route(&mut ctx, shanghai, new_york, true).unwrap();
        let b = open.route(&mut ctx, shanghai, new_york, true).unwrap();
        assert_eq!(
            a.route.radians, b.route.radians,
            "{res}: arctic = the open raster"
        );
    }
}
