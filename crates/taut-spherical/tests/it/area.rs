//! Keep-out areas (`taut_spherical::area`): which raster cells a GeoJSON area touches.
//!
//! - A brute-force oracle, independent of the scanline in the library: for every cell and
//!   every copy of it 360° apart, the exact closed rectangle is tested against every edge
//!   (closed segment against closed rectangle) and its centre against every polygon (even-odd
//!   crossing count), all in exact integer arithmetic (coordinates scaled by 2^52 to i128).
//!   Random multipolygons with holes, self-intersecting rings, vertices on grid lines and
//!   quarter lines, rings across the antimeridian (given unwrapped, or wrapped into
//!   [-180, 180)) on 8–40 × 4–20 rasters must give exactly the oracle's cells.
//! - Hand cases: boxes inside cells and on grid lines, a hole, the antimeridian split and
//!   unsplit, longitude 180 touching column 0, polar caps, the whole Earth at 1440 × 720.
//! - Every error kind, a file, and junk input that must never panic.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use proptest::prelude::*;
use serde_json::{Value, json};
use taut_spherical::area::{Area, AreaError};

type Ring = Vec<[f64; 2]>;

/// Column line `k` (unwrapped) and row line `i`, by the documented formulas.
fn xl(w: u32, k: i64) -> f64 {
    -180.0 + 360.0 * k as f64 / f64::from(w)
}
fn yl(h: u32, i: i64) -> f64 {
    90.0 - 180.0 * i as f64 / f64::from(h)
}

// ---------------------------------------------------------------------------------------------
// The oracle: exact integer geometry.

/// `x · 2^52` as an integer; the test's coordinates are all multiples of 2^-52 below 1024.
fn fx(x: f64) -> i128 {
    let s = x * 4_503_599_627_370_496.0;
    assert!(
        s.fract() == 0.0 && s.abs() < 2f64.powi(62),
        "{x} is not on the 2^-52 lattice"
    );
    s as i128
}

type P = [i128; 2];

fn orient(p: P, q: P, c: P) -> i32 {
    let a = (q[0] - p[0]).checked_mul(c[1] - p[1]).unwrap();
    let b = (q[1] - p[1]).checked_mul(c[0] - p[0]).unwrap();
    a.checked_sub(b).unwrap().signum() as i32
}

/// `c` on the closed segment `p`–`q`, given that the three are collinear.
fn within(p: P, q: P, c: P) -> bool {
    p[0].min(q[0]) <= c[0]
        && c[0] <= p[0].max(q[0])
        && p[1].min(q[1]) <= c[1]
        && c[1] <= p[1].max(q[1])
}

/// Closed segments `a`–`b` and `c`–`d` share a point.
fn segments_meet(a: P, b: P, c: P, d: P) -> bool {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0 && o3 * o4 < 0 {
        return true;
    }
    (o1 == 0 && within(a, b, c))
        || (o2 == 0 && within(a, b, d))
        || (o3 == 0 && within(c, d, a))
        || (o4 == 0 && within(c, d, b))
}

/// The closed segment meets the closed rectangle `[x0, x1] × [y0, y1]`.
fn segment_meets_rect(p: P, q: P, [x0, x1, y0, y1]: [i128; 4]) -> bool {
    let inside = |v: P| x0 <= v[0] && v[0] <= x1 && y0 <= v[1] && v[1] <= y1;
    if inside(p) || inside(q) {
        return true;
    }
    let corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    (0..4).any(|i| segments_meet(p, q, corners[i], corners[(i + 1) % 4]))
}

/// Even-odd: the number of ring edges crossing the ray from `c` to the east is odd.
fn inside_even_odd(rings: &[Vec<P>], c: P) -> bool {
    let mut odd = false;
    for ring in rings {
        for e in ring.windows(2) {
            let (p, q) = (e[0], e[1]);
            if (p[1] > c[1]) != (q[1] > c[1]) {
                // The crossing's x minus c's x has the sign of orient · (q.y - p.y).
                let s = orient(p, q, c) * (q[1] - p[1]).signum() as i32;
                if s > 0 {
                    odd = !odd;
                }
            }
        }
    }
    odd
}

/// The cells the (already unwrapped) polygons touch, cell by cell.
fn oracle(polys: &[Vec<Ring>], w: u32, h: u32) -> Vec<(u32, u32)> {
    let ipolys: Vec<Vec<Vec<P>>> = polys
        .iter()
        .map(|p| {
            p.iter()
                .map(|r| r.iter().map(|v| [fx(v[0]), fx(v[1])]).collect())
                .collect()
        })
        .collect();
    let lons = polys.iter().flatten().flatten().map(|v| v[0]);
    let (min, max) = lons.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let col = |x: f64| ((x + 180.0) * f64::from(w) / 360.0).floor() as i64;
    let (umin, umax) = (col(min) - 2, col(max) + 2);
    let mut touched = BTreeSet::new();
    for r in 0..h {
        let (y0, y1) = (fx(yl(h, i64::from(r) + 1)), fx(yl(h, i64::from(r))));
        // Parity of each polygon at each column, summed over the copies of the column.
        let mut parity = vec![vec![false; w as usize]; polys.len()];
        for u in umin..=umax {
            let c = u.rem_euclid(i64::from(w)) as u32;
            let (x0, x1) = (fx(xl(w, u)), fx(xl(w, u + 1)));
            let rect = [x0, x1, y0, y1];
            let edge = ipolys.iter().flatten().any(|ring| {
                ring.windows(2)
                    .any(|e| segment_meets_rect(e[0], e[1], rect))
            });
            if edge {
                touched.insert((r, c));
            }
            assert!((x0 + x1) % 2 == 0 && (y0 + y1) % 2 == 0);
            let centre = [(x0 + x1) / 2, (y0 + y1) / 2];
            for (k, p) in ipolys.iter().enumerate() {
                parity[k][c as usize] ^= inside_even_odd(p, centre);
            }
        }
        for p in &parity {
            for (c, &odd) in p.iter().enumerate() {
                if odd {
                    touched.insert((r, c as u32));
                }
            }
        }
    }
    touched.into_iter().collect()
}

/// The documented unwrapping rule (steps of at most 180°, except -180 ↔ 180).
fn unwrap(ring: &[[f64; 2]]) -> Ring {
    let mut out = vec![ring[0]];
    let mut turns = 0i64;
    for e in ring.windows(2) {
        let (prev, raw) = (e[0][0], e[1][0]);
        if !((prev == -180.0 && raw == 180.0) || (prev == 180.0 && raw == -180.0)) {
            let mut d = raw - prev;
            while d > 180.0 {
                d -= 360.0;
                turns -= 1;
            }
            while d < -180.0 {
                d += 360.0;
                turns += 1;
            }
        }
        out.push([raw + 360.0 * turns as f64, e[1][1]]);
    }
    assert_eq!(turns, 0, "the test's rings come back");
    out
}

fn multipolygon(polys: &[Vec<Ring>]) -> String {
    json!({"type": "MultiPolygon", "coordinates": polys}).to_string()
}

fn cells_of(text: &str, w: u32, h: u32) -> Vec<(u32, u32)> {
    Area::from_geojson_str(text).unwrap().cells(w, h)
}

/// Cells `rows × cols`, sorted, `cols` taken modulo `w`.
fn block(rows: impl IntoIterator<Item = u32> + Clone, cols: &[i64], w: u32) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = rows
        .into_iter()
        .flat_map(|r| {
            cols.iter()
                .map(move |&c| (r, c.rem_euclid(i64::from(w)) as u32))
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn show_diff(got: &[(u32, u32)], want: &[(u32, u32)]) -> String {
    let g: BTreeSet<_> = got.iter().collect();
    let w: BTreeSet<_> = want.iter().collect();
    format!(
        "extra {:?}, missing {:?}",
        g.difference(&w).collect::<Vec<_>>(),
        w.difference(&g).collect::<Vec<_>>()
    )
}

// ---------------------------------------------------------------------------------------------
// Random polygons.

/// A vertex near the ring's centre (column line `centre`): less than 180° away in longitude,
/// on a quarter-column line, exactly on a column line, or on a 1/64° lattice; its latitude on
/// a quarter-row line, a row line, or the lattice.
fn vertex(w: u32, h: u32, centre: i64) -> impl Strategy<Value = [f64; 2]> {
    let wi = i64::from(w);
    let cx = xl(w, centre);
    let lon = prop_oneof![
        (-(2 * wi) + 1..2 * wi)
            .prop_map(move |d| -180.0 + 360.0 * ((4 * centre + d) as f64 / 4.0) / f64::from(w)),
        (-(wi / 2) + 1..wi / 2).prop_map(move |d| xl(w, centre + d)),
        (-(180 * 64) + 1..180 * 64).prop_map(move |k| cx + k as f64 / 64.0),
    ];
    (lon, latitude(h)).prop_map(|(a, b)| [a, b])
}

/// A closed ring of 3 to 7 vertices around `centre`, with midpoints inserted where a step
/// would be 180° or more (so that, unwrapped, every step is less than 180°).
fn ring(w: u32, h: u32, centre: i64) -> impl Strategy<Value = Ring> {
    prop::collection::vec(vertex(w, h, centre), 3..=7).prop_map(|vs| {
        let mut out = Vec::new();
        for i in 0..vs.len() {
            let (a, b) = (vs[i], vs[(i + 1) % vs.len()]);
            out.push(a);
            if (b[0] - a[0]).abs() >= 180.0 {
                out.push([(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]);
            }
        }
        out.push(vs[0]);
        out
    })
}

/// A latitude on a quarter-row line, a row line, or the 1/64° lattice.
fn latitude(h: u32) -> impl Strategy<Value = f64> {
    let hi = i64::from(h);
    prop_oneof![
        (0..=4 * hi).prop_map(move |q| 90.0 - 180.0 * (q as f64 / 4.0) / f64::from(h)),
        (0..=hi).prop_map(move |i| yl(h, i)),
        (-90 * 64..=90 * 64).prop_map(|k| k as f64 / 64.0),
    ]
}

/// A ring that walks on quarter-column lines in steps of less than 180°, possibly more than
/// once around the Earth's worth of longitude, then walks back to its start.
fn walk_ring(w: u32, h: u32) -> impl Strategy<Value = Ring> {
    let wi = i64::from(w);
    let quarter = move |q: i64| -180.0 + 360.0 * (q as f64 / 4.0) / f64::from(w);
    (
        -2 * wi..6 * wi,
        prop::collection::vec((-2 * wi + 1..2 * wi, latitude(h)), 2..=8),
    )
        .prop_map(move |(start, steps)| {
            // Quarter lines k with |quarter(k)| <= 530.
            let (lo, hi) = ((-350 * 4 * wi) / 360, (710 * 4 * wi) / 360);
            let mut q = vec![(start.clamp(lo, hi), steps[0].1)];
            for &(d, lat) in &steps {
                let last = q[q.len() - 1].0;
                q.push(((last + d).clamp(lo, hi), lat));
            }
            // Back to the start in steps of less than 180°, along the last latitude.
            let (first, lat) = (q[0].0, q[q.len() - 1].1);
            loop {
                let last = q[q.len() - 1].0;
                if (first - last).abs() < 2 * wi {
                    break;
                }
                q.push((last + (2 * wi - 1) * (first - last).signum(), lat));
            }
            q.push(q[0]);
            q.into_iter().map(|(k, lat)| [quarter(k), lat]).collect()
        })
}

fn polygon(w: u32, h: u32) -> impl Strategy<Value = Vec<Ring>> {
    let wi = i64::from(w);
    prop_oneof![
        3 => (-(wi / 2)..3 * wi / 2)
            .prop_flat_map(move |centre| prop::collection::vec(ring(w, h, centre), 1..=3)),
        1 => prop::collection::vec(walk_ring(w, h), 1..=2),
    ]
}

/// A raster size, polygons, and whether to give the rings wrapped into [-180, 180).
fn case() -> impl Strategy<Value = (u32, u32, Vec<Vec<Ring>>, bool)> {
    (8u32..=40, 4u32..=20).prop_flat_map(|(w, h)| {
        (
            Just(w),
            Just(h),
            prop::collection::vec(polygon(w, h), 1..=2),
            any::<bool>(),
        )
    })
}

fn wrap(lon: f64) -> f64 {
    lon - 360.0 * ((lon + 180.0) / 360.0).floor()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn area_cells_match_the_brute_force_oracle((w, h, polys, wrapped) in case()) {
        let given: Vec<Vec<Ring>> = if wrapped {
            polys
                .iter()
                .map(|p| {
                    p.iter()
                        .map(|r| r.iter().map(|v| [wrap(v[0]), v[1]]).collect())
                        .collect()
                })
                .collect()
        } else {
            polys.clone()
        };
        let text = multipolygon(&given);
        let area = Area::from_geojson_str(&text).unwrap();
        let got = area.cells(w, h);
        let unwrapped: Vec<Vec<Ring>> = given
            .iter()
            .map(|p| p.iter().map(|r| unwrap(r)).collect())
            .collect();
        let want = oracle(&unwrapped, w, h);
        prop_assert!(got == want, "{w}x{h} {text}: {}", show_diff(&got, &want));
    }
}

// ---------------------------------------------------------------------------------------------
// Hand cases.

fn polygon_text(rings: &[&[[f64; 2]]]) -> String {
    json!({"type": "Polygon", "coordinates": rings}).to_string()
}

fn boxed(w0: f64, s0: f64, e0: f64, n0: f64) -> Vec<[f64; 2]> {
    vec![[w0, s0], [e0, s0], [e0, n0], [w0, n0], [w0, s0]]
}

#[test]
fn area_box_inside_two_by_two_cells_touches_exactly_them() {
    // 10-degree cells: column c spans [-180 + 10c, -170 + 10c], row r [80 - 10r, 90 - 10r].
    let got = cells_of(&polygon_text(&[&boxed(0.5, 0.5, 19.5, 19.5)]), 36, 18);
    assert_eq!(got, block(7..=8, &[18, 19], 36));
    // The oracle agrees.
    assert_eq!(got, oracle(&[vec![boxed(0.5, 0.5, 19.5, 19.5)]], 36, 18));
}

#[test]
fn area_box_on_grid_lines_touches_the_cells_on_both_sides() {
    let got = cells_of(&polygon_text(&[&boxed(0.0, 0.0, 20.0, 20.0)]), 36, 18);
    assert_eq!(got, block(6..=9, &[17, 18, 19, 20], 36));
    // Only the west edge on a line: one more column on that side only.
    let got = cells_of(&polygon_text(&[&boxed(0.0, 0.5, 19.5, 19.5)]), 36, 18);
    assert_eq!(got, block(7..=8, &[17, 18, 19], 36));
    // A box that is a single point on a grid corner touches the four cells around it.
    let got = cells_of(&polygon_text(&[&[[0.0, 0.0]; 4]]), 36, 18);
    assert_eq!(got, block(8..=9, &[17, 18], 36));
}

#[test]
fn area_hole_excludes_the_cells_strictly_inside_it() {
    let outer = boxed(-60.0, -40.0, 60.0, 40.0);
    let hole = boxed(-35.0, -25.0, 35.0, 25.0);
    let got = cells_of(&polygon_text(&[&outer, &hole]), 36, 18);
    // The outer edges lie on lines: columns 11..=24, rows 4..=13. The hole's edges lie
    // inside cells (-35 in column 14, 35 in 21; 25 in row 6, -25 in row 11), so the cells
    // strictly inside are columns 15..=20, rows 7..=10.
    let all = block(4..=13, &(11..=24).collect::<Vec<_>>(), 36);
    let hole_cells: BTreeSet<_> = block(7..=10, &(15..=20).collect::<Vec<_>>(), 36)
        .into_iter()
        .collect();
    let want: Vec<_> = all
        .into_iter()
        .filter(|c| !hole_cells.contains(c))
        .collect();
    assert_eq!(got, want);
    // Reversing a ring does not matter (even-odd).
    let rev: Vec<_> = hole.iter().rev().copied().collect();
    assert_eq!(cells_of(&polygon_text(&[&outer, &rev]), 36, 18), want);
}

#[test]
fn area_multipolygon_parts_are_united_not_xored() {
    let a = boxed(0.5, 0.5, 29.5, 9.5);
    let b = boxed(10.5, 0.5, 19.5, 9.5);
    let text = json!({"type": "MultiPolygon", "coordinates": [[a], [b]]}).to_string();
    assert_eq!(cells_of(&text, 36, 18), block(8..=8, &[18, 19, 20], 36));
    // As two rings of one polygon, b is a hole of a; the cell strictly inside it goes.
    let text = polygon_text(&[&a, &b]);
    assert_eq!(cells_of(&text, 36, 18), block(8..=8, &[18, 19, 20], 36));
    let b = boxed(10.0, 0.5, 20.0, 9.5);
    let c = boxed(12.0, 2.0, 18.0, 8.0);
    let text = polygon_text(&[&boxed(0.5, 0.5, 39.5, 9.5), &b, &c]);
    // c is inside the hole b: cell 19 is inside again; 10 and 20 lie on b's edges.
    assert_eq!(cells_of(&text, 36, 18), block(8..=8, &[18, 19, 20, 21], 36));
}

#[test]
fn area_split_antimeridian_multipolygon_equals_the_unsplit_ring() {
    for (w, h) in [(36, 18), (1440, 720), (37, 19)] {
        let split = json!({"type": "MultiPolygon", "coordinates": [
            [[[172.5, -10.3], [180, -10.3], [180, 12.1], [172.5, 12.1], [172.5, -10.3]]],
            [[[-180, -10.3], [-171.3, -10.3], [-171.3, 12.1], [-180, 12.1], [-180, -10.3]]],
        ]})
        .to_string();
        let unsplit = polygon_text(&[&boxed(172.5, -10.3, -171.3, 12.1)]);
        let beyond = polygon_text(&[&boxed(172.5, -10.3, 188.7, 12.1)]);
        let before = polygon_text(&[&boxed(-187.5, -10.3, -171.3, 12.1)]);
        let want = cells_of(&split, w, h);
        assert!(!want.is_empty());
        assert_eq!(cells_of(&unsplit, w, h), want, "{w}x{h}");
        assert_eq!(cells_of(&beyond, w, h), want, "{w}x{h}");
        assert_eq!(cells_of(&before, w, h), want, "{w}x{h}");
        // Every column is near the antimeridian.
        let near = |c: u32| {
            let lon = -180.0 + (f64::from(c) + 0.5) * 360.0 / f64::from(w);
            lon.abs() > 170.0
        };
        assert!(want.iter().all(|&(_, c)| near(c)), "{w}x{h}");
    }
}

#[test]
fn area_longitude_180_touches_the_last_and_the_first_column() {
    let east = cells_of(&polygon_text(&[&boxed(170.5, 0.5, 180.0, 9.5)]), 36, 18);
    assert_eq!(east, block(8..=8, &[35, 0], 36));
    let west = cells_of(&polygon_text(&[&boxed(-180.0, 0.5, -170.5, 9.5)]), 36, 18);
    assert_eq!(west, block(8..=8, &[35, 0], 36));
    // A single edge on the antimeridian: the same two columns.
    let edge = cells_of(
        &polygon_text(&[&[[180.0, 1.0], [180.0, 2.0], [180.0, 1.0], [180.0, 1.0]]]),
        36,
        18,
    );
    assert_eq!(edge, block(8..=8, &[35, 0], 36));
}

#[test]
fn area_polar_cap_and_whole_earth() {
    let cap = polygon_text(&[&[
        [-180.0, 60.0],
        [180.0, 60.0],
        [180.0, 90.0],
        [-180.0, 90.0],
        [-180.0, 60.0],
    ]]);
    let all: Vec<i64> = (0..36).collect();
    assert_eq!(cells_of(&cap, 36, 18), block(0..=3, &all, 36));
    let south = polygon_text(&[&[
        [-180.0, -90.0],
        [180.0, -90.0],
        [180.0, -61.0],
        [-180.0, -61.0],
        [-180.0, -90.0],
    ]]);
    assert_eq!(cells_of(&south, 36, 18), block(15..=17, &all, 36));

    let earth =
        Area::from_geojson_str(&polygon_text(&[&boxed(-180.0, -90.0, 180.0, 90.0)])).unwrap();
    let t = Instant::now();
    let cells = earth.cells(1440, 720);
    let took = t.elapsed();
    assert_eq!(cells.len(), 1440 * 720);
    assert!(cells.windows(2).all(|p| p[0] < p[1]));
    assert_eq!(cells[0], (0, 0));
    assert_eq!(cells[cells.len() - 1], (719, 1439));
    eprintln!("whole Earth at 1440x720: {took:?}");
    // Milliseconds; a second would mean the cells are found one by one against the edges.
    assert!(took.as_secs_f64() < 1.0, "{took:?}");

    // An Earth-sized polygon with many edges: a 1° zigzag around the whole Earth.
    let mut ring = Vec::new();
    for i in 0..=360 {
        let lon = -180.0 + f64::from(i);
        ring.push([lon, if i % 2 == 0 { -80.0 } else { -79.5 }]);
    }
    for i in (0..=360).rev() {
        ring.push([-180.0 + f64::from(i), if i % 2 == 0 { 80.0 } else { 79.5 }]);
    }
    ring.push(ring[0]);
    let area = Area::from_geojson_str(&polygon_text(&[&ring])).unwrap();
    let t = Instant::now();
    let cells = area.cells(1440, 720);
    let took = t.elapsed();
    eprintln!(
        "zigzag band at 1440x720 ({} edges): {took:?}",
        ring.len() - 1
    );
    // Rows from 80N to 80S: row 40 touches 80N, row 679 touches 80S.
    assert_eq!(cells.len(), 1440 * 640);
    assert!(took.as_secs_f64() < 1.0, "{took:?}");
}

#[test]
fn area_collections_and_features_give_the_same_cells() {
    let a = boxed(10.5, 20.5, 33.0, 40.0);
    let b = boxed(-100.0, -30.0, -90.5, -20.0);
    let want = cells_of(
        &json!({"type": "MultiPolygon", "coordinates": [[a], [b]]}).to_string(),
        72,
        36,
    );
    let pa = json!({"type": "Polygon", "coordinates": [a]});
    let pb = json!({"type": "Polygon", "coordinates": [b]});
    let feature =
        |g: &Value| json!({"type": "Feature", "properties": {"name": "x"}, "geometry": g});
    let texts = [
        json!({"type": "FeatureCollection", "features": [feature(&pa), feature(&pb)]}),
        json!({"type": "GeometryCollection", "geometries": [pa, pb]}),
        feature(&json!({"type": "GeometryCollection", "geometries": [pa, pb]})),
        json!({"type": "FeatureCollection", "features": [
            feature(&json!({"type": "MultiPolygon", "coordinates": [[a], [b]]}))
        ]}),
    ];
    for t in texts {
        assert_eq!(cells_of(&t.to_string(), 72, 36), want, "{t}");
    }
    // Altitudes are ignored.
    let a3: Vec<[f64; 3]> = a.iter().map(|v| [v[0], v[1], 100.0]).collect();
    let b3: Vec<[f64; 3]> = b.iter().map(|v| [v[0], v[1], -5.0]).collect();
    let t = json!({"type": "MultiPolygon", "coordinates": [[a3], [b3]]}).to_string();
    assert_eq!(cells_of(&t, 72, 36), want);
}

// ---------------------------------------------------------------------------------------------
// Files and errors.

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/area")
        .join(name)
}

#[test]
fn area_reads_a_file() {
    let path = data("two-zones.geojson");
    let area = Area::read(&path).unwrap();
    assert_eq!(area.polygon_count(), 3);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(area, Area::from_geojson_str(&text).unwrap());
    // The Bering zone crosses the antimeridian unsplit; its cells are on both sides.
    let cells = area.cells(360, 180);
    assert!(cells.iter().any(|&(_, c)| c == 359) && cells.iter().any(|&(_, c)| c == 0));
    // The hole of the first zone: the cell with centre 4.5E 54.5N (row 35, col 184) is in
    // the hole and open; the ring around it is closed.
    assert!(!cells.contains(&(35, 184)));
    assert!(cells.contains(&(35, 181)));
}

#[test]
fn area_file_errors_name_the_file() {
    let missing = data("no-such-file.geojson");
    let e = Area::read(&missing).unwrap_err();
    assert!(matches!(e, AreaError::Io { .. }), "{e}");
    assert!(e.to_string().contains("no-such-file.geojson"), "{e}");
    let bad = data("point.geojson");
    let e = Area::read(&bad).unwrap_err();
    let AreaError::File { path, error } = &e else {
        panic!("{e:?}")
    };
    assert!(path.ends_with("point.geojson"));
    assert!(matches!(**error, AreaError::NotArea { .. }), "{e}");
    assert!(
        e.to_string().contains("point.geojson") && e.to_string().contains("Point"),
        "{e}"
    );
}

fn err(text: &str) -> AreaError {
    match Area::from_geojson_str(text) {
        Ok(a) => panic!("{text} read as {a:?}"),
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n'), "one line: {line}");
            e
        }
    }
}

const SQUARE: &str = "[[0,0],[1,0],[1,1],[0,1],[0,0]]";

#[test]
fn area_error_kinds() {
    // Not JSON: serde's message with line and column.
    let e = err("{\"type\": \"Polygon\",\n \"coordinates\": [[[0, 0], ]]}");
    assert!(matches!(e, AreaError::NotJson(_)), "{e:?}");
    assert!(e.to_string().contains("line 2 column"), "{e}");
    assert!(matches!(err(""), AreaError::NotJson(_)));

    // Not GeoJSON.
    for (text, needle) in [
        ("[1, 2]", "expected a GeoJSON object"),
        ("{}", "missing member \"type\""),
        ("{\"type\": 3}", "\"type\" must be a string"),
        (
            "{\"type\": \"Polygonn\", \"coordinates\": []}",
            "unknown type \"Polygonn\"",
        ),
        ("{\"type\": \"Polygon\"}", "missing member \"coordinates\""),
        (
            "{\"type\": \"Polygon\", \"coordinates\": 5}",
            "must be an array",
        ),
        (
            "{\"type\": \"FeatureCollection\"}",
            "missing member \"features\"",
        ),
        (
            "{\"type\": \"Feature\", \"properties\": {}}",
            "missing member \"geometry\"",
        ),
        (
            &format!(
                r#"{{"type": "FeatureCollection", "features": [{{"type": "Polygon", "coordinates": [{SQUARE}]}}]}}"#
            ),
            "holds Features, not Polygon",
        ),
        (
            r#"{"type": "GeometryCollection", "geometries": [{"type": "FeatureCollection", "features": []}]}"#,
            "expected a geometry",
        ),
    ] {
        let e = err(text);
        assert!(matches!(e, AreaError::NotGeoJson { .. }), "{text}: {e:?}");
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }

    // Not an area: the type is named, and where.
    for (text, needle) in [
        (r#"{"type": "Point", "coordinates": [1, 2]}"#, "Point"),
        (
            r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": null, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}"#,
            "$.features[0].geometry: a keep-out area must be a Polygon or MultiPolygon, not a LineString",
        ),
        (r#"{"type": "Feature", "geometry": null}"#, "null geometry"),
        (r#"{"type": "MultiPoint", "coordinates": []}"#, "MultiPoint"),
        (
            r#"{"type": "MultiLineString", "coordinates": []}"#,
            "MultiLineString",
        ),
    ] {
        let e = err(text);
        assert!(matches!(e, AreaError::NotArea { .. }), "{text}: {e:?}");
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }

    // Coordinates.
    for bad in [
        "[1, \"a\"]",
        "[1]",
        "[1, 2, 3, 4]",
        "\"x\"",
        "[null, 2]",
        "{}",
        "[1e999, 2]",
    ] {
        let text = format!(r#"{{"type": "Polygon", "coordinates": [[[0,0],[1,0],{bad},[0,0]]]}}"#);
        let e = match Area::from_geojson_str(&text) {
            Err(e) => e,
            Ok(a) => panic!("{text}: {a:?}"),
        };
        // serde_json itself refuses 1e999.
        if bad == "[1e999, 2]" && matches!(e, AreaError::NotJson(_)) {
            continue;
        }
        assert!(matches!(e, AreaError::Coordinate { .. }), "{text}: {e:?}");
        assert!(e.to_string().contains("$.coordinates[0][2]"), "{text}: {e}");
    }
    let e = err(r#"{"type": "Polygon", "coordinates": [[[0,0],[1,90.5],[1,1],[0,0]]]}"#);
    assert_eq!(
        e,
        AreaError::Latitude {
            at: "$.coordinates[0][1]".into(),
            lat: 90.5
        }
    );
    let e = err(r#"{"type": "Polygon", "coordinates": [[[0,0],[541,0],[1,1],[0,0]]]}"#);
    assert!(
        matches!(e, AreaError::Longitude { lon, .. } if lon == 541.0),
        "{e:?}"
    );

    // Rings.
    let e = err(r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,0]]]}"#);
    assert!(matches!(e, AreaError::ShortRing { count: 3, .. }), "{e:?}");
    let e = err(
        r#"{"type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[1,1],[0,0]]], [[[0,0],[1,0],[1,1],[0,1]]]]}"#,
    );
    assert!(matches!(e, AreaError::NotClosed { .. }), "{e:?}");
    assert!(e.to_string().contains("$.coordinates[1][0]"), "{e}");
    // Around the North Pole at 80N, unsplit.
    let e =
        err(r#"{"type": "Polygon", "coordinates": [[[0,80],[90,80],[180,80],[-90,80],[0,80]]]}"#);
    assert!(matches!(e, AreaError::AroundPole { .. }), "{e:?}");
    assert!(e.to_string().contains("antimeridian"), "{e}");

    // Empty.
    for text in [
        r#"{"type": "FeatureCollection", "features": []}"#,
        r#"{"type": "MultiPolygon", "coordinates": []}"#,
        r#"{"type": "Polygon", "coordinates": []}"#,
        r#"{"type": "GeometryCollection", "geometries": []}"#,
    ] {
        assert_eq!(err(text), AreaError::Empty, "{text}");
    }
}

#[test]
fn area_odd_but_valid_input() {
    // Extreme values, tiny values, rasters with no cells or a single cell.
    let west = [
        [-540.0, -90.0],
        [-400.0, 90.0],
        [-370.0, 5e-324],
        [-540.0, -90.0],
    ];
    let east = [
        [540.0, -90.0],
        [400.0, 90.0],
        [370.0, 1e-300],
        [540.0, -90.0],
    ];
    let text = json!({"type": "MultiPolygon", "coordinates": [[west], [east]]}).to_string();
    let area = Area::from_geojson_str(&text).unwrap();
    assert!(area.cells(0, 5).is_empty());
    assert!(area.cells(5, 0).is_empty());
    assert_eq!(area.cells(1, 1), vec![(0, 0)]);
    assert!(!area.cells(7, 3).is_empty());
    // A degenerate ring (a point inside a cell) touches one cell.
    let point = polygon_text(&[&[[12.3, 45.6]; 5]]);
    assert_eq!(cells_of(&point, 36, 18), vec![(4, 19)]);
}

#[test]
fn area_long_decimals_are_read_exactly() {
    // Row line 8 of 14 is -12.857142857142861 in f64; serde_json's default float parsing
    // reads that text one unit off (-12.85714285714286), which would lift the vertex off
    // the line and lose row 8.
    let y = yl(14, 8);
    assert_eq!(y.to_string(), "-12.857142857142861");
    let text = polygon_text(&[&[[-180.0, 90.0], [-180.0, y], [-180.0, 90.0], [-180.0, 90.0]]]);
    let got = cells_of(&text, 8, 14);
    assert_eq!(got, block(0..=8, &[0, 7], 8));
    assert_eq!(
        got,
        oracle(
            &[vec![vec![
                [-180.0, 90.0],
                [-180.0, y],
                [-180.0, 90.0],
                [-180.0, 90.0]
            ]]],
            8,
            14
        )
    );
}

#[test]
fn area_deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let mut text = String::new();
    for _ in 0..depth {
        text.push_str(r#"{"type": "GeometryCollection", "geometries": ["#);
    }
    for _ in 0..depth {
        text.push_str("]}");
    }
    assert!(matches!(err(&text), AreaError::NotGeoJson { .. }));
    let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(Area::from_geojson_str(&text).is_err());
    let text = format!(
        r#"{{"type": "Polygon", "coordinates": {}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert!(Area::from_geojson_str(&text).is_err());
}

// ---------------------------------------------------------------------------------------------
// Junk never panics.

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1000.0f64..1000.0).prop_map(Value::from),
        (-200i64..200).prop_map(Value::from),
        prop::sample::select(vec![
            "Polygon",
            "MultiPolygon",
            "Feature",
            "FeatureCollection",
            "GeometryCollection",
            "Point",
            "",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "type",
                        "coordinates",
                        "geometry",
                        "geometries",
                        "features",
                        "properties",
                    ]),
                    inner
                ),
                0..4
            )
            .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn area_junk_text_never_panics(text in ".{0,200}", w in 0u32..12, h in 0u32..8) {
        if let Ok(a) = Area::from_geojson_str(&text) {
            let _ = a.cells(w, h);
        }
    }

    #[test]
    fn area_junk_json_never_panics(v in json_value(), w in 0u32..12, h in 0u32..8) {
        if let Ok(a) = Area::from_geojson_str(&v.to_string()) {
            let cells = a.cells(w, h);
            prop_assert!(cells.windows(2).all(|p| p[0] < p[1]));
            prop_assert!(cells.iter().all(|&(r, c)| r < h && c < w));
        }
    }

    #[test]
    fn area_mangled_documents_never_panic(
        cut in 0usize..400,
        insert in prop::sample::select(vec!["", "]", "[", ",", "1e308", "-", "\"", "{", "null", "[0,0]"]),
        w in 0u32..12,
        h in 0u32..8,
    ) {
        let text = std::fs::read_to_string(data("two-zones.geojson")).unwrap();
        let cut = cut.min(text.len());
        if text.is_char_boundary(cut) {
            let mangled = format!("{}{insert}{}", &text[..cut], &text[cut + (cut < text.len()) as usize..]);
            if let Ok(a) = Area::from_geojson_str(&mangled) {
                let _ = a.cells(w, h);
            }
        }
    }
}
