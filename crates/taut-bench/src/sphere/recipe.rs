//! The paper's two recipes for reading a Euclidean Anya path on the sphere.
//!
//! - **Recipe 1**: Anya's turning points (its "root points"), mapped to latitude/longitude,
//!   joined by great circles (the shorter arc). Length: the sum of the great-circle
//!   distances; legal when the checker accepts the whole route.
//! - **Recipe 2**: Recipe 1, except that each great-circle leg the checker rejects (checked
//!   alone, from its start to its end) is replaced by points spaced at most `step` degrees
//!   apart (one arc-second in the paper) along the straight line *in latitude/longitude*
//!   between its ends (Anya's own segment, without longitude wrap), consecutive points joined
//!   by great circles. The whole route is checked again.

use taut::geom::Point;
use taut::spherical::check::check_route;
use taut::spherical::{LatLon, Leg, Route, SphereGrid};

use super::sample::lattice_to_latlon;

/// One arc-second, in degrees: the paper's spacing of Recipe 2's synthetic points.
pub const ARC_SECOND_DEG: f64 = 1.0 / 3600.0;

/// What a recipe made of one Anya path.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeOutcome {
    /// Length on the unit sphere, radians.
    pub radians: f64,
    /// Whether the checker accepts the whole route.
    pub legal: bool,
    /// Recipe 1's legs the checker rejects alone (the legs Recipe 2 replaces).
    pub illegal_legs: u32,
    /// Legs of the route.
    pub legs: usize,
    /// The checker's objection to the whole route, when it has one.
    pub violation: Option<String>,
}

/// Recipe 1's route: Anya's waypoints (lattice points of a `width × height` map) joined by
/// great-circle legs, written to `out`.
pub fn recipe1(width: u32, height: u32, waypoints: &[Point], out: &mut Route) {
    out.legs.clear();
    out.radians = 0.0;
    for pair in waypoints.windows(2) {
        let leg = Leg::Great {
            from: lattice_to_latlon(width, height, pair[0]),
            to: lattice_to_latlon(width, height, pair[1]),
        };
        out.radians += leg.radians();
        out.legs.push(leg);
    }
}

/// Appends to `out` the points after `a` of the straight latitude/longitude segment from `a`
/// to `b` (degrees, longitudes not wrapped), evenly spaced at most `step_deg` apart in the
/// latitude/longitude plane (to a relative 1e-12); the last point is exactly `b`. Returns how many were appended
/// (at least one).
pub fn densify_straight(a: LatLon, b: LatLon, step_deg: f64, out: &mut Vec<LatLon>) -> usize {
    let (dlat, dlon) = (b.lat - a.lat, b.lon - a.lon);
    // The relative 1e-12 keeps a segment of exactly k steps (up to rounding) at k points.
    let steps = dlat.hypot(dlon) / step_deg.max(1e-12) * (1.0 - 1e-12);
    let n = (steps.ceil() as usize).max(1);
    for i in 1..n {
        let t = i as f64 / n as f64;
        out.push(LatLon::new(a.lat + t * dlat, a.lon + t * dlon));
    }
    out.push(b);
    n
}

/// Reusable buffers of [`evaluate`].
#[derive(Debug, Default)]
pub struct RecipeBuffers {
    /// Recipe 1's route of the last path.
    pub r1: Route,
    /// Recipe 2's route of the last path.
    pub r2: Route,
    one: Route,
    points: Vec<LatLon>,
}

/// Both recipes for the Anya path `waypoints` (lattice points of `sgrid`'s map, from `from` to
/// `to`, which are the lattice points' latitude/longitude), with Recipe 2's points `step_deg`
/// apart.
pub fn evaluate(
    sgrid: &SphereGrid,
    waypoints: &[Point],
    from: LatLon,
    to: LatLon,
    step_deg: f64,
    buf: &mut RecipeBuffers,
) -> (RecipeOutcome, RecipeOutcome) {
    recipe1(sgrid.width(), sgrid.height(), waypoints, &mut buf.r1);
    let v1 = check_route(sgrid, &buf.r1, from, to).err();
    let mut illegal_legs = 0u32;
    buf.r2.legs.clear();
    buf.r2.radians = 0.0;
    if v1.is_none() {
        buf.r2.legs.extend_from_slice(&buf.r1.legs);
        buf.r2.radians = buf.r1.radians;
    } else {
        for &leg in &buf.r1.legs {
            // Recipe 1 makes great-circle legs only.
            let Leg::Great { from: a, to: b } = leg else {
                continue;
            };
            buf.one.legs.clear();
            buf.one.legs.push(leg);
            buf.one.radians = leg.radians();
            if check_route(sgrid, &buf.one, a, b).is_ok() {
                buf.r2.legs.push(leg);
                buf.r2.radians += buf.one.radians;
                continue;
            }
            illegal_legs += 1;
            buf.points.clear();
            densify_straight(a, b, step_deg, &mut buf.points);
            let mut prev = a;
            for &p in &buf.points {
                let l = Leg::Great { from: prev, to: p };
                buf.r2.radians += l.radians();
                buf.r2.legs.push(l);
                prev = p;
            }
        }
    }
    let v2 = if illegal_legs == 0 {
        v1.clone()
    } else {
        check_route(sgrid, &buf.r2, from, to).err()
    };
    let r1 = RecipeOutcome {
        radians: buf.r1.radians,
        legal: v1.is_none(),
        illegal_legs,
        legs: buf.r1.legs.len(),
        violation: v1.map(|v| format!("{v:?}")),
    };
    let r2 = RecipeOutcome {
        radians: buf.r2.radians,
        legal: v2.is_none(),
        illegal_legs,
        legs: buf.r2.legs.len(),
        violation: v2.map(|v| format!("{v:?}")),
    };
    (r1, r2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipe1_joins_mapped_waypoints_by_great_circles() {
        let mut r = Route::default();
        // 360 x 180 map: lattice (180, 90) is (0, 0), (270, 90) is (0, 90E), (270, 0) the pole.
        let pts = [
            Point::new(180, 90),
            Point::new(270, 90),
            Point::new(270, 45),
        ];
        recipe1(360, 180, &pts, &mut r);
        assert_eq!(r.legs.len(), 2);
        let q = std::f64::consts::FRAC_PI_4;
        assert!((r.radians - (2.0 * q + q)).abs() < 1e-12);
        assert!((r.radians - r.legs_radians()).abs() < 1e-15);
        recipe1(360, 180, &pts[..1], &mut r);
        assert!(r.legs.is_empty() && r.radians == 0.0);
    }

    #[test]
    fn straight_segments_are_densified_evenly_to_the_end() {
        let mut out = Vec::new();
        let a = LatLon::new(10.0, -20.0);
        let b = LatLon::new(10.0 + 3.0 / 3600.0, -20.0 + 4.0 / 3600.0);
        // 5 arc-seconds long: five steps of exactly one arc-second.
        assert_eq!(densify_straight(a, b, ARC_SECOND_DEG, &mut out), 5);
        assert_eq!(out.len(), 5);
        assert_eq!(*out.last().unwrap(), b);
        let mut prev = a;
        for p in &out {
            let d = (p.lat - prev.lat).hypot(p.lon - prev.lon);
            assert!((d - ARC_SECOND_DEG).abs() < 1e-12, "{d}");
            prev = *p;
        }
        // Longitudes are not wrapped: from 170E to 190E (= 170W) goes east, through 180.
        out.clear();
        densify_straight(
            LatLon::new(0.0, 170.0),
            LatLon::new(0.0, 190.0),
            5.0,
            &mut out,
        );
        let lons: Vec<f64> = out.iter().map(|p| p.lon).collect();
        assert_eq!(lons, [175.0, 180.0, 185.0, 190.0]);
        // A degenerate segment still yields its end.
        out.clear();
        assert_eq!(densify_straight(a, a, 1.0, &mut out), 1);
    }

    #[test]
    fn legal_recipe1_is_recipe2() {
        // Everything free: both recipes are the same route, legal.
        let sgrid = SphereGrid::from_fn(36, 18, |_, _| true).unwrap();
        let pts = [Point::new(3, 4), Point::new(20, 9), Point::new(30, 15)];
        let from = lattice_to_latlon(36, 18, pts[0]);
        let to = lattice_to_latlon(36, 18, pts[2]);
        let mut buf = RecipeBuffers::default();
        let (r1, r2) = evaluate(&sgrid, &pts, from, to, ARC_SECOND_DEG, &mut buf);
        assert!(r1.legal && r2.legal);
        assert_eq!(r1.radians, r2.radians);
        assert_eq!((r1.legs, r2.legs, r1.illegal_legs), (2, 2, 0));
    }
}
