//! Unit tests of the checker: each builds a small grid and a route that must be accepted or
//! rejected for one stated reason.

use super::*;

/// 36 × 18 cells of 10°: row r spans latitudes [80 - 10r, 90 - 10r], column c longitudes
/// [-180 + 10c, -170 + 10c]; `blocked` lists (row, col).
fn grid10(blocked: &[(u32, u32)]) -> SphereGrid {
    SphereGrid::from_fn(36, 18, |r, c| !blocked.contains(&(r, c))).unwrap()
}

fn great(a: (f64, f64), b: (f64, f64)) -> Leg {
    Leg::Great {
        from: LatLon::new(a.0, a.1),
        to: LatLon::new(b.0, b.1),
    }
}

fn route(legs: Vec<Leg>) -> Route {
    let radians = legs.iter().map(Leg::radians).sum();
    Route { legs, radians }
}

/// Checks a route made of `legs` from the first leg's start to the last leg's end.
fn check(grid: &SphereGrid, legs: Vec<Leg>) -> Result<(), Violation> {
    let r = route(legs);
    let from = r.legs[0].start();
    let to = r.legs.last().unwrap().end();
    check_route(grid, &r, from, to)
}

/// The cell lat [0, 10] × lon [0, 10].
const CELL_0_0: (u32, u32) = (8, 18);

#[test]
fn a_route_crossing_a_blocked_cell_is_rejected() {
    let g = grid10(&[CELL_0_0]);
    let e = check(&g, vec![great((5.0, -20.0), (5.0, 30.0))]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { leg: 0, .. }), "{e:?}");
    // Two legs, the second one blocked.
    let e = check(
        &g,
        vec![
            great((-5.0, -20.0), (5.0, -5.0)),
            great((5.0, -5.0), (5.0, 5.0)),
        ],
    )
    .unwrap_err();
    assert!(matches!(e, Violation::Blocked { leg: 1, .. }), "{e:?}");
}

#[test]
fn a_great_circle_bulges_poleward_into_the_cell_above() {
    let g = grid10(&[CELL_0_0]);
    // Both ends just north of the equator: the arc bulges north, into the blocked cell.
    let e = check(&g, vec![great((0.01, -3.0), (0.01, 3.0))]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // Just south of it: the arc bulges south, away from it.
    check(&g, vec![great((-0.01, -3.0), (-0.01, 3.0))]).unwrap();
}

/// A great circle whose northern vertex is at (`vlat`, 3°E), from 15°W to 27.3°E (so that
/// neither a sample nor the midpoint of a column lands on the vertex).
fn arc_with_vertex(vlat: f64) -> Leg {
    let lat = |lon: f64| {
        (vlat.to_radians().tan() * (lon - 3.0f64).to_radians().cos())
            .atan()
            .to_degrees()
    };
    great((lat(-15.0), -15.0), (lat(27.3), 27.3))
}

#[test]
fn slivers_thinner_than_the_samples_are_caught_exactly() {
    // The cell lat [10, 20] × lon [0, 10] is blocked; arcs peak at 10N ± tiny amounts at 3E.
    let g = grid10(&[(7, 18)]);
    // 1e-7 degrees (1.7e-9 rad, above LINE_TOL) into the cell: far below the 0.625° samples.
    let e = check(&g, vec![arc_with_vertex(10.0 + 1e-7)]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // Tangent to the row line, and just below it: legal.
    check(&g, vec![arc_with_vertex(10.0)]).unwrap();
    check(&g, vec![arc_with_vertex(10.0 - 1e-7)]).unwrap();
}

#[test]
fn routes_grazing_edges_and_corners_are_accepted() {
    let g = grid10(&[CELL_0_0]);
    // Along the meridian 0 (the blocked cell's west edge).
    check(&g, vec![great((-5.0, 0.0), (15.0, 0.0))]).unwrap();
    // Along the equator (its south edge; a great circle that is a row line).
    check(&g, vec![great((0.0, -5.0), (0.0, 15.0))]).unwrap();
    // Along the parallel 10N (its north edge).
    let top = Leg::Parallel {
        lat: 10.0,
        from_lon: -5.0,
        to_lon: 15.0,
    };
    check(&g, vec![top]).unwrap();
    // Turning at its corner (10N, 0).
    check(
        &g,
        vec![
            great((5.0, -8.0), (10.0, 0.0)),
            great((10.0, 0.0), (15.0, 8.0)),
        ],
    )
    .unwrap();
    // Between two blocked cells, along the meridian they share: rejected.
    let g2 = grid10(&[CELL_0_0, (8, 17)]);
    let e = check(&g2, vec![great((-5.0, 0.0), (15.0, 0.0))]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // Along the top of two blocked cells stacked... along a parallel between two blocked rows.
    let g3 = grid10(&[CELL_0_0, (7, 18)]);
    let e = check(&g3, vec![top]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
}

#[test]
fn tangent_legs_of_the_polar_cap_are_accepted() {
    // The analytic case: 1° cells, everything north of 60N blocked.
    let g = SphereGrid::from_fn(360, 180, |r, _| r >= 30).unwrap();
    let (t1, t2) = (34.4579522522933, 55.5420477477067);
    let legs = vec![
        great((55.0, 0.0), (60.0, t1)),
        Leg::Parallel {
            lat: 60.0,
            from_lon: t1,
            to_lon: t2,
        },
        great((60.0, t2), (55.0, 90.0)),
    ];
    check(&g, legs.clone()).unwrap();
    assert!((route(legs).radians - 0.8450236240639002).abs() < 1e-12);
    // The great circle itself crosses the cap.
    let e = check(&g, vec![great((55.0, 0.0), (55.0, 90.0))]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // So does the chord between the two tangent points.
    let e = check(&g, vec![great((60.0, t1), (60.0, t2))]).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
}

/// Cells lat [10, 20] × lon [10, 20] and lat [0, 10] × lon [0, 10]: a double corner at
/// (10N, 10E) whose free sides are north-west and south-east.
fn double_corner_grid() -> SphereGrid {
    grid10(&[(7, 19), CELL_0_0])
}

/// The point `2·|pv|` from `p` along the great circle through `p` and `v` (beyond `v`).
fn beyond(p: (f64, f64), v: (f64, f64)) -> (f64, f64) {
    let (a, b) = (
        LatLon::new(p.0, p.1).to_vec(),
        LatLon::new(v.0, v.1).to_vec(),
    );
    let d = a.angle(b);
    let t = b.plus(a.scale(-a.dot(b))); // tangent at a towards b
    let t = t.scale(1.0 / t.norm());
    let q = a.scale((2.0 * d).cos()).plus(t.scale((2.0 * d).sin()));
    let q = q.to_lat_lon();
    (q.lat, q.lon)
}

#[test]
fn passing_through_a_double_corner_is_rejected() {
    let g = double_corner_grid();
    // Along the meridian 10E: each side has one free cell, only the double-corner rule bites.
    let e = check(&g, vec![great((15.0, 10.0), (5.0, 10.0))]).unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 0, .. }), "{e:?}");
    // Along the parallel 10N.
    let par = Leg::Parallel {
        lat: 10.0,
        from_lon: 5.0,
        to_lon: 15.0,
    };
    let e = check(&g, vec![par]).unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 0, .. }), "{e:?}");
    // Diagonally, from the north-west cell to the south-east one, exactly through the vertex.
    let q = beyond((15.0, 5.0), (10.0, 10.0));
    assert!(q.0 > 0.0 && q.0 < 10.0 && q.1 > 10.0 && q.1 < 20.0, "{q:?}");
    let e = check(&g, vec![great((15.0, 5.0), q)]).unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 0, .. }), "{e:?}");
    // The same with the vertex as a waypoint: the route turns across it.
    let e = check(
        &g,
        vec![great((15.0, 5.0), (10.0, 10.0)), great((10.0, 10.0), q)],
    )
    .unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 1, .. }), "{e:?}");
    // Across it through a parallel leg: arrive from the north-west along 10N, leave south-east.
    let e = check(
        &g,
        vec![
            Leg::Parallel {
                lat: 10.0,
                from_lon: 5.0,
                to_lon: 10.0,
            },
            great((10.0, 10.0), (5.0, 15.0)),
        ],
    )
    .unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 1, .. }), "{e:?}");
}

#[test]
fn touching_a_double_corner_is_accepted() {
    let g = double_corner_grid();
    // Arrive from the north-west cell and return into it.
    check(
        &g,
        vec![
            great((15.0, 5.0), (10.0, 10.0)),
            great((10.0, 10.0), (18.0, 9.0)),
        ],
    )
    .unwrap();
    // Arrive along 10N from the west (the north-west side), leave along 10E northwards.
    check(
        &g,
        vec![
            Leg::Parallel {
                lat: 10.0,
                from_lon: 5.0,
                to_lon: 10.0,
            },
            great((10.0, 10.0), (15.0, 10.0)),
        ],
    )
    .unwrap();
    // Start and end there.
    check(&g, vec![great((10.0, 10.0), (5.0, 15.0))]).unwrap();
    check(&g, vec![great((15.0, 5.0), (10.0, 10.0))]).unwrap();
}

#[test]
fn gaps_and_wrong_ends_are_rejected() {
    let g = grid10(&[]);
    let legs = vec![
        great((0.0, -5.0), (0.0, -1.0)),
        great((0.0, -1.001), (0.0, 5.0)),
    ];
    let e = check(&g, legs).unwrap_err();
    assert!(matches!(e, Violation::Gap { leg: 1, .. }), "{e:?}");
    let r = route(vec![great((0.0, -5.0), (0.0, 5.0))]);
    check_route(&g, &r, LatLon::new(0.0, -5.0), LatLon::new(0.0, 5.0)).unwrap();
    let e = check_route(&g, &r, LatLon::new(0.0, -5.1), LatLon::new(0.0, 5.0)).unwrap_err();
    assert!(matches!(e, Violation::Gap { leg: 0, .. }), "{e:?}");
    let e = check_route(&g, &r, LatLon::new(0.0, -5.0), LatLon::new(0.1, 5.0)).unwrap_err();
    assert!(matches!(e, Violation::Gap { leg: 1, .. }), "{e:?}");
    // The same point written with another longitude is no gap.
    check_route(&g, &r, LatLon::new(0.0, 355.0), LatLon::new(0.0, 5.0)).unwrap();
    // An empty route joins only equal points.
    let empty = Route::default();
    let p = LatLon::new(3.0, 4.0);
    check_route(&g, &empty, p, p).unwrap();
    let e = check_route(&g, &empty, p, LatLon::new(3.0, 5.0)).unwrap_err();
    assert!(matches!(e, Violation::Empty { .. }), "{e:?}");
}

#[test]
fn a_wrong_length_is_rejected() {
    let g = grid10(&[]);
    let mut r = route(vec![
        great((0.0, -5.0), (20.0, 0.0)),
        Leg::Parallel {
            lat: 20.0,
            from_lon: 0.0,
            to_lon: 30.0,
        },
    ]);
    let (from, to) = (LatLon::new(0.0, -5.0), LatLon::new(20.0, 30.0));
    check_route(&g, &r, from, to).unwrap();
    let right = r.radians;
    r.radians = right * (1.0 + 1e-10);
    assert!(matches!(
        check_route(&g, &r, from, to),
        Err(Violation::Length { .. })
    ));
    // A parallel measured as its chord.
    r.radians = r.legs[0].radians() + LatLon::new(20.0, 0.0).distance_rad(LatLon::new(20.0, 30.0));
    assert!(matches!(
        check_route(&g, &r, from, to),
        Err(Violation::Length { .. })
    ));
    r.radians = f64::NAN;
    assert!(matches!(
        check_route(&g, &r, from, to),
        Err(Violation::Length { .. })
    ));
}

#[test]
fn antimeridian_legs_are_handled() {
    // Blocked at lon [0, 10]: a leg that interpolated longitudes naively would cross it.
    let g = grid10(&[CELL_0_0]);
    check(&g, vec![great((5.0, 175.0), (5.0, -175.0))]).unwrap();
    check(&g, vec![great((5.0, -175.0), (5.0, 175.0))]).unwrap();
    // Blocked at lon [-180, -170] (column 0) or [170, 180] (column 35): rejected.
    for col in [0, 35] {
        let g = grid10(&[(8, col)]);
        let e = check(&g, vec![great((5.0, 175.0), (5.0, -175.0))]).unwrap_err();
        assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    }
    // Parallel legs with unwrapped longitudes, either way round.
    let g = grid10(&[(8, 0)]);
    for (a, b) in [(175.0, 185.0), (-185.0, -175.0), (185.0, 175.0)] {
        let leg = Leg::Parallel {
            lat: 10.0,
            from_lon: a,
            to_lon: b,
        };
        check(&g, vec![leg]).unwrap();
        let g2 = grid10(&[(8, 0), (7, 0)]);
        let e = check(&g2, vec![leg]).unwrap_err();
        assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    }
    // A route of two legs meeting on the antimeridian, written as +180 and -180.
    let legs = vec![
        great((5.0, 170.0), (6.0, 180.0)),
        great((6.0, -180.0), (5.0, -170.0)),
    ];
    let e = check(&g, legs).unwrap_err(); // column 0 row 8 is blocked at (5, -175)
    assert!(matches!(e, Violation::Blocked { leg: 1, .. }), "{e:?}");
    check(
        &grid10(&[CELL_0_0]),
        vec![
            great((5.0, 170.0), (6.0, 180.0)),
            great((6.0, -180.0), (5.0, -170.0)),
        ],
    )
    .unwrap();
}

#[test]
fn long_arcs_are_rejected() {
    let g = grid10(&[]);
    let e = check(&g, vec![great((0.0, 0.0), (0.0, 180.0))]).unwrap_err();
    assert!(matches!(e, Violation::LongArc { leg: 0 }), "{e:?}");
    let e = check(&g, vec![great((10.0, 20.0), (-10.0, -160.0))]).unwrap_err();
    assert!(matches!(e, Violation::LongArc { leg: 0 }), "{e:?}");
    check(&g, vec![great((0.0, 0.0), (0.0, 179.9))]).unwrap();
}

#[test]
fn a_pole_is_a_vertex_of_its_polar_row() {
    // Through the North Pole along the meridians 0 and 180.
    let over = vec![great((80.0, 0.0), (85.0, 180.0))];
    check(&grid10(&[]), over.clone()).unwrap();
    // A blocked polar cell elsewhere does not matter: the pole is a vertex touched through
    // the free cells the route uses (docs/spherical.md).
    check(&grid10(&[(0, 5)]), over.clone()).unwrap();
    // The cells the route runs between next to the pole do (it follows grid meridians, so
    // both sides must be blocked).
    let e = check(&grid10(&[(0, 17), (0, 18)]), over.clone()).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    let e = check(&grid10(&[(0, 35), (0, 0)]), over).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // Through it off the grid meridians.
    let over = vec![great((82.0, 3.0), (84.0, -177.0))];
    check(&grid10(&[]), over.clone()).unwrap();
    let e = check(&grid10(&[(0, 18)]), over).unwrap_err();
    assert!(matches!(e, Violation::Blocked { .. }), "{e:?}");
    // Near the pole but not through it: only the cells crossed matter.
    check(
        &grid10(&[(0, 30)]),
        vec![great((85.0, -10.0), (85.0, 20.0))],
    )
    .unwrap();
    // The South Pole; a pole with no free cell at all is never legal.
    let under = vec![great((-80.0, 45.0), (-80.0, -135.0))];
    check(&grid10(&[]), under.clone()).unwrap();
    assert!(check(&grid10(&[(17, 4)]), under).is_err());
    let all: Vec<(u32, u32)> = (0..36).map(|c| (0, c)).collect();
    assert!(check(&grid10(&all), vec![great((80.0, 5.0), (80.0, 185.0))]).is_err());
}

#[test]
fn parallel_legs_must_follow_a_row_line() {
    let g = grid10(&[]);
    for leg in [
        Leg::Parallel {
            lat: 15.0,
            from_lon: 0.0,
            to_lon: 5.0,
        },
        Leg::Parallel {
            lat: 90.0,
            from_lon: 0.0,
            to_lon: 5.0,
        },
        Leg::Parallel {
            lat: 10.0,
            from_lon: 0.0,
            to_lon: 360.0,
        },
    ] {
        let e = check(&g, vec![leg]).unwrap_err();
        assert!(matches!(e, Violation::ParallelOffEdge { leg: 0 }), "{e:?}");
    }
    // The exact test itself also decides parallels inside a row of cells.
    let phi = 15f64.to_radians();
    let (l0, l1) = (-5f64.to_radians(), 25f64.to_radians());
    assert!(check_parallel(&Cells::all(&g), phi, l0, l1, 0).is_ok());
    let blocked = grid10(&[(7, 20)]); // lat [10, 20] × lon [20, 30]
    assert!(check_parallel(&Cells::all(&blocked), phi, l0, l1, 0).is_err());
    // Ending exactly on that cell's west meridian is fine.
    assert!(check_parallel(&Cells::all(&blocked), phi, l0, 20f64.to_radians(), 0).is_ok());
}

#[test]
fn bad_coordinates_are_rejected() {
    let g = grid10(&[]);
    let r = route(vec![great((0.0, 0.0), (0.0, 1.0))]);
    let mut bad = r.clone();
    bad.legs[0] = great((f64::NAN, 0.0), (0.0, 1.0));
    let e = check_route(&g, &bad, LatLon::new(0.0, 0.0), LatLon::new(0.0, 1.0)).unwrap_err();
    assert_eq!(e, Violation::BadPoint { leg: 0 });
    bad.legs[0] = great((91.0, 0.0), (0.0, 1.0));
    let e = check_route(&g, &bad, LatLon::new(0.0, 0.0), LatLon::new(0.0, 1.0)).unwrap_err();
    assert_eq!(e, Violation::BadPoint { leg: 0 });
}

#[test]
fn zero_length_legs_are_tolerated() {
    let g = double_corner_grid();
    // A repeated point between two legs does not hide a turn across a double corner.
    let q = beyond((15.0, 5.0), (10.0, 10.0));
    let e = check(
        &g,
        vec![
            great((15.0, 5.0), (10.0, 10.0)),
            great((10.0, 10.0), (10.0, 10.0)),
            great((10.0, 10.0), q),
        ],
    )
    .unwrap_err();
    assert!(matches!(e, Violation::DoubleCorner { leg: 2, .. }), "{e:?}");
    check(
        &g,
        vec![
            great((15.0, 5.0), (10.0, 10.0)),
            great((10.0, 10.0), (10.0, 10.0)),
        ],
    )
    .unwrap();
}

/// `arc_meridians` and `arc_rows` only narrow the lines `check_great` tries: every meridian
/// and row line next to any point of the arc must be inside the ranges they return. Random
/// arcs of every length (short ones, ones across the antimeridian, ones passing near a pole),
/// each sampled at 4,000 points, on a 10° and a 1° grid.
#[test]
fn arc_line_ranges_cover_every_line_the_arc_reaches() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for (w, h) in [(36u32, 18u32), (360, 180)] {
        let g = SphereGrid::from_fn(w, h, |_, _| true).unwrap();
        let (wi, hi) = (i64::from(w), i64::from(h));
        for case in 0..3000 {
            let a = LatLon::new(180.0 * next() - 90.0, 360.0 * next() - 180.0);
            // Lengths from an arc-second to nearly half a turn.
            let len = match case % 3 {
                0 => 1e-5 * next(),
                1 => 0.1 * next(),
                _ => 3.0 * next(),
            };
            let bearing = 2.0 * PI * next();
            let (av, bv) = (a.to_vec(), {
                let (p, l) = (a.lat.to_radians(), a.lon.to_radians());
                let lat = (p.sin() * len.cos() + p.cos() * len.sin() * bearing.cos()).asin();
                let lon = l
                    + (bearing.sin() * len.sin() * p.cos()).atan2(len.cos() - p.sin() * lat.sin());
                LatLon::new(lat.to_degrees(), lon.to_degrees()).to_vec()
            });
            let theta = av.angle(bv);
            if !(1e-12..=MAX_GREAT_ARC).contains(&theta) {
                continue;
            }
            let n = av.cross(bv);
            let n = n.scale(1.0 / n.norm());
            let u = n.cross(av);
            let u = u.scale(1.0 / u.norm());
            let (k_lo, k_hi) = arc_meridians(&Cells::all(&g), av, bv);
            let r = av.z.hypot(u.z);
            let (i_lo, i_hi) = arc_rows(&Cells::all(&g), av, bv, theta, r, u.z.atan2(av.z));
            let all_k = k_hi - k_lo + 1 >= wi;
            let k_in = |k: i64| all_k || (k_lo..=k_hi).any(|j| (j - k).rem_euclid(wi) == 0);
            for s in 0..=4000 {
                let t = theta * f64::from(s) / 4000.0;
                let p = av.scale(t.cos()).plus(u.scale(t.sin()));
                if p.x.hypot(p.y) > 1e-6 {
                    let x = (p.lon() + PI) / res_lon(&Cells::all(&g));
                    for k in [x.floor() as i64, x.ceil() as i64] {
                        assert!(
                            k_in(k),
                            "case {case}: meridian {k} of {a:?} len {len} outside {k_lo}..={k_hi}"
                        );
                    }
                }
                let y = (FRAC_PI_2 - p.lat()) / res_lat(&Cells::all(&g));
                for i in [y.floor() as i64, y.ceil() as i64] {
                    if i > 0 && i < hi {
                        assert!(
                            (i_lo..=i_hi).contains(&i),
                            "case {case}: row line {i} of {a:?} len {len} outside {i_lo}..={i_hi}"
                        );
                    }
                }
            }
        }
    }
}
