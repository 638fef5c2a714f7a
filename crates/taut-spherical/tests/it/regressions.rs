//! Regressions for edge roots whose routes reach 180° or more of longitude past the tangent
//! point: the route follows a row line for a long way and leaves it late.
//!
//! `expand_edge` dropped an edge node's whole interval as soon as its earliest ray was more
//! than 180° long at the next meridian, losing the rays that leave the edge later, and it
//! unwrapped the node's meridian near the tangent point, which puts a meridian 180° or more
//! past it on the wrong side. A goal at the end of a 253° westward detour along a row line
//! (across the antimeridian) was reported unreachable, while the reverse query was found.
//! Nothing bounded how far an edge was followed either: round a free ring of cells the search
//! never ended. These guard the reproduction, its mirror images and rotations, and the ring.

use taut_spherical::check::check_route;
use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};

/// The reproduction's 10 × 7 raster (rows north to south, columns from 180°W eastward).
const ROWS: [&str; 7] = [
    "@@@.@.@@@.",
    "@@@.@.@@@@",
    "@@@...@@@.",
    ".....@....",
    "...@@@...@",
    "...@@@...@",
    "@@@...@@@.",
];

/// The reproduction's endpoints: cell (row 2, col 4) and cell (row 3, col 7).
const FROM: (f64, f64) = (30.204, -25.484399999999994);
const TO: (f64, f64) = (-3.7028571428571553, 81.18720000000002);

/// The length of the reproduction's route: start -> corner (12.857°N, 72°W) -> along the
/// parallel to 172.34°W -> goal.
const LENGTH: f64 = 4.379496831267023;

/// The raster turned `shift` columns east, mirrored east–west (`flip_ew`) and north–south
/// (`flip_ns`), with a point transformed the same way.
struct Variant {
    shift: u32,
    flip_ew: bool,
    flip_ns: bool,
}

impl Variant {
    fn grid(&self) -> SphereGrid {
        let (w, h) = (ROWS[0].len() as u32, ROWS.len() as u32);
        SphereGrid::from_fn(w, h, |r, c| {
            let c = (c + w - self.shift % w) % w;
            let c = if self.flip_ew { w - 1 - c } else { c };
            let r = if self.flip_ns { h - 1 - r } else { r };
            ROWS[r as usize].as_bytes()[c as usize] == b'.'
        })
        .unwrap()
    }

    fn point(&self, (lat, lon): (f64, f64)) -> LatLon {
        let lat = if self.flip_ns { -lat } else { lat };
        let lon = if self.flip_ew { -lon } else { lon };
        LatLon::new(lat, lon + 36.0 * f64::from(self.shift)).normalized()
    }
}

/// Both directions are found, legal, no shorter than the great circle, and equally long.
fn assert_found(g: &SphereGrid, from: LatLon, to: LatLon, what: &str) -> f64 {
    let mut ctx = SearchContext::new();
    let mut lengths = [0.0; 2];
    for (i, (a, b)) in [(from, to), (to, from)].into_iter().enumerate() {
        let mut route = Route::default();
        let outcome = ctx.search(g, a, b, &mut route).unwrap();
        assert_eq!(outcome, SearchOutcome::Found, "{what}: {a:?} -> {b:?}");
        if let Err(v) = check_route(g, &route, a, b) {
            panic!("{what}: illegal route ({v}) {route:?}");
        }
        let gc = a.distance_rad(b);
        assert!(
            route.radians >= gc - 1e-9,
            "{what}: route {} shorter than the great circle {gc}",
            route.radians
        );
        lengths[i] = route.radians;
    }
    assert!(
        (lengths[0] - lengths[1]).abs() < 1e-9,
        "{what}: {} one way, {} the other",
        lengths[0],
        lengths[1]
    );
    lengths[0]
}

const PLAIN: Variant = Variant {
    shift: 0,
    flip_ew: false,
    flip_ns: false,
};

#[test]
fn long_westward_detour_along_a_row_line_is_found() {
    let g = PLAIN.grid();
    // (2,4) -> (3,4) -> west along row line 3 (12.857°N) past the antimeridian -> (3,7).
    let len = assert_found(&g, PLAIN.point(FROM), PLAIN.point(TO), "reproduction");
    assert!((len - LENGTH).abs() < 1e-9, "length {len}");
}

#[test]
fn other_goals_in_the_cell_are_found() {
    // Every point of the goal's cell south of the equator failed too, and at 12°S the route
    // found was longer than the one leaving the edge later.
    let g = PLAIN.grid();
    for lat in [-12.0, -6.0, -3.0, -1.0, 0.0, 3.0] {
        let to = LatLon::new(lat, 81.1872);
        assert_found(&g, PLAIN.point(FROM), to, &format!("goal at {lat}°"));
    }
}

#[test]
fn mirrored_and_rotated_detours_are_found() {
    for shift in 0..10 {
        for flip_ew in [false, true] {
            for flip_ns in [false, true] {
                let v = Variant {
                    shift,
                    flip_ew,
                    flip_ns,
                };
                let what = format!("shift {shift}, east-west {flip_ew}, north-south {flip_ns}");
                let len = assert_found(&v.grid(), v.point(FROM), v.point(TO), &what);
                assert!((len - LENGTH).abs() < 1e-9, "{what}: length {len}");
            }
        }
    }
}

/// A free ring of cells along a convex row line (blocked on both sides): the edge is followed
/// round it. An unreachable goal used to make the search follow it for ever.
#[test]
fn edge_round_a_ring_ends() {
    for blocker in [None, Some(5u32)] {
        let g =
            SphereGrid::from_fn(12, 12, |r, c| (r == 3 && Some(c) != blocker) || r >= 9).unwrap();
        let from = LatLon::new(37.0, 3.0);
        // West of the blocker: 324° of longitude east of the start when the ring is cut at
        // column 5, so the route follows the 45°N row line most of the way round.
        let to = LatLon::new(37.0, -33.0);
        let len = assert_found(&g, from, to, &format!("ring, blocker {blocker:?}"));
        if blocker.is_some() {
            // Between the length of the 45°N parallel over 324° (no route in the ring is
            // shorter) and that of the 37°N one (a legal route).
            let span = 324f64.to_radians();
            let least = span * 45f64.to_radians().cos();
            let most = span * 37f64.to_radians().cos();
            assert!(len > least && len < most, "length {len}");
        }
        let mut route = Route::default();
        let out = SearchContext::new()
            .search(&g, from, LatLon::new(-80.0, 0.0), &mut route)
            .unwrap();
        assert_eq!(out, SearchOutcome::Unreachable, "ring, blocker {blocker:?}");
    }
}

/// A route through both poles. On this 16 × 2 raster (found by the differential suite) the
/// start's cell (row 1, column 9) reaches the rest only through the South Pole, and the
/// goal's (row 0, column 11) only through the North Pole; every meridian free from pole to
/// pole joins them. A walk down a meridian from one pole stopped at the other, so the goal was
/// reported unreachable both ways.
#[test]
fn route_through_both_poles_is_found() {
    const ROWS: [&str; 2] = ["..@.@@@@@@@.@...", "..@@@.@@...@@..."];
    let g = SphereGrid::from_fn(16, 2, |r, c| {
        ROWS[r as usize].as_bytes()[c as usize] == b'.'
    })
    .unwrap();
    let from = LatLon::new(-28.8, 25.326);
    let to = LatLon::new(68.571, 79.05375);
    let len = assert_found(&g, from, to, "both poles");
    // Start to the South Pole, pole to pole, the North Pole to the goal, all along meridians.
    let expected = (90.0 - 28.8f64 + 180.0 + 90.0 - 68.571).to_radians();
    assert!(
        (len - expected).abs() < 1e-9,
        "length {len}, expected {expected}"
    );
    // Mirrored north–south, the same.
    let g = SphereGrid::from_fn(16, 2, |r, c| {
        ROWS[1 - r as usize].as_bytes()[c as usize] == b'.'
    })
    .unwrap();
    let mirror = |p: LatLon| LatLon::new(-p.lat, p.lon);
    let len = assert_found(&g, mirror(from), mirror(to), "both poles, mirrored");
    assert!((len - expected).abs() < 1e-9, "mirrored: length {len}");
}

/// Routes that turn at the antipode of an earlier turn. On this 8 × 20 raster (found by the
/// differential suite) the way from cell (8, 6) to cell (11, 7) runs west along a corridor
/// between 9°N and 9°S: round the corner at (9°N, 45°E), then along the one great semicircle
/// that fits the corridor, tangent to both of its sides, to the corner at (9°S, 135°W), the
/// first corner's antipode, and on from there. Cones ended 180° from their root, so the second
/// corner never became a root and the goal was reported unreachable both ways.
#[test]
fn route_turning_at_an_antipode_is_found() {
    const ROWS: [&str; 20] = [
        "@..@....", ".@@.....", ".@@.....", "...@....", "..@.....", "@...@..@", "@@....@.",
        "..@....@", "...@@..@", "@.....@.", ".....@..", ".@..@.@.", "@.@@..@.", "..@@.@..",
        ".@..@..@", "@..@.@@.", "..@..@@.", ".@@.@..@", "...@..@.", "..@..@..",
    ];
    let g = SphereGrid::from_fn(8, 20, |r, c| {
        ROWS[r as usize].as_bytes()[c as usize] == b'.'
    })
    .unwrap();
    let (from, to) = (LatLon::new(13.5, 112.5), LatLon::new(-13.5, 157.5));
    let len = assert_found(&g, from, to, "antipodal corners");
    let (q, anti_q) = (LatLon::new(9.0, 45.0), LatLon::new(-9.0, -135.0));
    let expected = from.distance_rad(q) + std::f64::consts::PI + anti_q.distance_rad(to);
    assert!(
        (len - expected).abs() < 1e-9,
        "length {len}, expected {expected}"
    );
    // The differential suite's own query.
    let (from, to) = (
        LatLon::new(-42.4521, 67.094_999_999_999_97),
        LatLon::new(83.0214, 159.12),
    );
    assert_found(&g, from, to, "antipodal corners, the suite's query");
}

/// A goal at the start's antipode with the poles closed: every great semicircle between them
/// that stays in the free band is a shortest route, 180° long, and none may be longer.
#[test]
fn goal_at_the_start_antipode_is_found() {
    let g = SphereGrid::from_fn(12, 6, |r, _| r != 0 && r != 5).unwrap();
    for (from, to) in [
        (LatLon::new(10.0, 20.0), LatLon::new(-10.0, -160.0)),
        (LatLon::new(0.0, 5.0), LatLon::new(0.0, -175.0)),
    ] {
        let len = assert_found(&g, from, to, "antipodal goal");
        assert!(
            (len - std::f64::consts::PI).abs() < 1e-9,
            "{from:?} -> {to:?}: length {len}"
        );
    }
}

/// An edge root whose tangent point lies on the meridian just before the one 180° from its
/// root. On this 4 × 8 raster (found by the differential suite) the route from (53.1°S,
/// 50.5°E) turns at (0°, 90°E) and leaves along the great circle tangent to the 45°N parallel
/// at 0°, then follows that parallel west. The column beyond the tangent point reaches 180°
/// from the corner, and such a fan was dropped whole, tangent point included, so the goal was
/// reported unreachable (the reverse query was found).
#[test]
fn tangent_point_before_the_antipode_meridian_is_kept() {
    const ROWS: [&str; 8] = [
        "@@@@", "@@@@", "@..@", ".@..", "@@@.", "@@..", "@...", "@@..",
    ];
    let g =
        SphereGrid::from_fn(4, 8, |r, c| ROWS[r as usize].as_bytes()[c as usize] == b'.').unwrap();
    let from = LatLon::new(-53.131_499_999_999_99, 50.507_999_999_999_98);
    let to = LatLon::new(40.16925, -72.783);
    assert_found(&g, from, to, "tangent point before the antipode meridian");
}

/// A route leaving a corner for the corner at its antipode, where the rays are tangent to
/// row lines mirrored through the equator. On this 8 × 13 raster (found by the differential
/// suite) the tangent offset there came out 1.5e-8 short of 180° (`acos` of a ratio a rounding
/// error off -1), so the corner was taken as an ordinary one: the route had a leg too close to
/// a half circle to have one great circle, and a sliver of parallel before it.
#[test]
fn mirrored_row_lines_meet_at_exactly_180_degrees() {
    const ROWS: [&str; 13] = [
        ".@@@.@@@", "@@...@@.", ".@..@@@@", "..@@.@.@", "@..@@@@@", "@....@..", "@.@@....",
        ".@.@....", "..@.@.@.", "..@.@.@@", ".@@.@@@@", ".@@@@...", "@@..@@@.",
    ];
    let g = SphereGrid::from_fn(8, 13, |r, c| {
        ROWS[r as usize].as_bytes()[c as usize] == b'.'
    })
    .unwrap();
    let from = LatLon::new(39.744, -102.8205);
    let to = LatLon::new(-25.860_461_538_461_536, -128.3355);
    assert_found(&g, from, to, "mirrored row lines");
}
