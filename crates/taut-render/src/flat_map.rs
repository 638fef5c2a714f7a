//! Sphere routes as lines on a flat map: densified, then split at the antimeridian.
//!
//! A route's legs are arcs: great circles and parallels. A flat map (an equirectangular
//! picture, a GeoJSON viewer) joins consecutive points with straight lines, so the legs are
//! first *densified* ([`densify_route`]: a point every [`DENSIFY_DEG`] degrees at most), then
//! the polyline is *split at the antimeridian* ([`split_antimeridian`]): where two consecutive
//! points lie on either side of ±180°, the crossing latitude is interpolated, the current part
//! ends at that latitude on one side of 180° and the next part starts on the other. Without
//! the split, a flat map would draw the step from 179.9°E to 179.9°W as a line across the
//! whole map (RFC 7946 §3.1.9 asks GeoJSON for the split).
//!
//! These are flat-map helpers rather than sphere geometry: unlike
//! [`Leg::densify`](taut_spherical::Leg::densify), a leg along a parallel is stepped in degrees
//! of longitude, so that no step jumps across half the map near a pole.

use taut_spherical::{LatLon, Leg, Route, geo::wrap_deg};

/// The longest step between two points of a densified route, degrees (of arc for
/// great-circle legs, of longitude for legs along a parallel): 28 km at most on the Earth.
pub const DENSIFY_DEG: f64 = 0.25;

/// Points along `leg`, first and last included, no more than `max_step_deg` apart: degrees of
/// arc for a great-circle leg, degrees of longitude for a parallel (so that no step jumps
/// across half the map near a pole). Longitudes are wrapped into [-180, 180).
pub fn densify_leg(leg: &Leg, max_step_deg: f64, out: &mut Vec<LatLon>) {
    let step = max_step_deg.max(1e-6);
    match *leg {
        Leg::Great { .. } => leg.densify(step, out),
        Leg::Parallel {
            lat,
            from_lon,
            to_lon,
        } => {
            let n = (((to_lon - from_lon).abs() / step).ceil() as usize).max(1);
            for i in 0..=n {
                let t = i as f64 / n as f64;
                out.push(LatLon::new(
                    lat,
                    wrap_deg(from_lon + t * (to_lon - from_lon)),
                ));
            }
        }
    }
}

/// The whole route as one densified polyline ([`densify_leg`] for every leg, the shared end
/// of two legs once). Empty for a route without legs.
pub fn densify_route(route: &Route, max_step_deg: f64) -> Vec<LatLon> {
    let mut out = Vec::new();
    for (i, leg) in route.legs.iter().enumerate() {
        let before = out.len();
        densify_leg(leg, max_step_deg, &mut out);
        if i > 0 && out.len() > before {
            out.remove(before);
        }
    }
    out
}

/// Splits a polyline of points (consecutive points less than 180° of longitude apart the
/// short way, as a densified route is) into parts that do not cross the antimeridian, as
/// `[lon, lat]` pairs (GeoJSON order) with longitudes in [-180, 180].
///
/// Where consecutive points lie on either side of ±180° (their longitudes differ by more
/// than 180°), the crossing latitude is interpolated linearly in longitude (exact for a
/// parallel, within metres for a densified great circle), the current part ends at
/// `[±180, lat]` on its own side, and a new part starts at `[∓180, lat]`. Repeated points
/// are dropped, and so are parts of fewer than two points (a point that only touches ±180°).
///
/// ```
/// use taut_render::flat_map::split_antimeridian;
/// use taut_spherical::LatLon;
///
/// let line = [LatLon::new(10.0, 179.0), LatLon::new(12.0, -179.0)];
/// let parts = split_antimeridian(&line);
/// assert_eq!(
///     parts,
///     vec![
///         vec![[179.0, 10.0], [180.0, 11.0]],
///         vec![[-180.0, 11.0], [-179.0, 12.0]],
///     ]
/// );
/// ```
pub fn split_antimeridian(points: &[LatLon]) -> Vec<Vec<[f64; 2]>> {
    let mut parts: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut part: Vec<[f64; 2]> = Vec::new();
    let push = |part: &mut Vec<[f64; 2]>, p: [f64; 2]| {
        if part.last() != Some(&p) {
            part.push(p);
        }
    };
    let mut prev: Option<[f64; 2]> = None;
    for p in points {
        // Longitudes in [-180, 180]: a given +180 stays +180 (it is on the map's east edge).
        let lon = if p.lon == 180.0 {
            180.0
        } else {
            wrap_deg(p.lon)
        };
        let cur = [lon, p.lat];
        if let Some([alon, alat]) = prev {
            let d = cur[0] - alon;
            if d.abs() > 180.0 {
                // The short way crosses the antimeridian: unwrap the current point next to
                // the previous one and cut at the edge it crosses.
                let edge = if d < 0.0 { 180.0 } else { -180.0 };
                let blon = cur[0] + if d < 0.0 { 360.0 } else { -360.0 };
                let t = (edge - alon) / (blon - alon);
                let lat = alat + t * (cur[1] - alat);
                push(&mut part, [edge, lat]);
                if part.len() >= 2 {
                    parts.push(std::mem::take(&mut part));
                } else {
                    part.clear();
                }
                push(&mut part, [-edge, lat]);
            }
        }
        push(&mut part, cur);
        prev = Some(cur);
    }
    if part.len() >= 2 {
        parts.push(part);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ll(lat: f64, lon: f64) -> LatLon {
        LatLon::new(lat, lon)
    }

    #[test]
    fn a_line_that_does_not_cross_stays_whole() {
        let parts = split_antimeridian(&[ll(0.0, 10.0), ll(1.0, 11.0), ll(1.0, 11.0)]);
        assert_eq!(parts, vec![vec![[10.0, 0.0], [11.0, 1.0]]]);
        assert!(split_antimeridian(&[]).is_empty());
        assert!(split_antimeridian(&[ll(5.0, 5.0)]).is_empty());
    }

    #[test]
    fn westward_and_repeated_crossings() {
        // West across 180 and back east again.
        let parts = split_antimeridian(&[
            ll(0.0, -179.0),
            ll(2.0, 179.0),
            ll(2.0, 178.0),
            ll(4.0, -178.0),
        ]);
        assert_eq!(
            parts,
            vec![
                vec![[-179.0, 0.0], [-180.0, 1.0]],
                vec![[180.0, 1.0], [179.0, 2.0], [178.0, 2.0], [180.0, 3.0]],
                vec![[-180.0, 3.0], [-178.0, 4.0]],
            ]
        );
    }

    #[test]
    fn points_on_the_antimeridian_do_not_make_empty_parts() {
        // Starting exactly on -180 and going west: no one-point part.
        let parts = split_antimeridian(&[ll(0.0, -180.0), ll(1.0, 179.5)]);
        assert_eq!(parts, vec![vec![[180.0, 0.0], [179.5, 1.0]]]);
        // Arriving exactly at +180 from the east side of the map.
        let parts = split_antimeridian(&[ll(0.0, 179.5), ll(1.0, 180.0)]);
        assert_eq!(parts, vec![vec![[179.5, 0.0], [180.0, 1.0]]]);
        // Arriving at -180 (wrapped) from 179.5: the part ends at +180.
        let parts = split_antimeridian(&[ll(0.0, 179.5), ll(1.0, -180.0), ll(1.0, -179.5)]);
        assert_eq!(
            parts,
            vec![
                vec![[179.5, 0.0], [180.0, 1.0]],
                vec![[-180.0, 1.0], [-179.5, 1.0]]
            ]
        );
    }

    #[test]
    fn parallel_legs_step_in_longitude() {
        let leg = Leg::Parallel {
            lat: 89.0,
            from_lon: 170.0,
            to_lon: 200.0,
        };
        let mut pts = Vec::new();
        densify_leg(&leg, 0.25, &mut pts);
        assert_eq!(pts.len(), 121);
        assert!(
            pts.iter()
                .all(|p| p.lat == 89.0 && (-180.0..180.0).contains(&p.lon))
        );
        assert!((pts[120].lon + 160.0).abs() < 1e-9);
        let parts = split_antimeridian(&pts);
        assert_eq!(parts.len(), 2);
        assert_eq!(*parts[0].last().unwrap(), [180.0, 89.0]);
        assert_eq!(parts[1][0], [-180.0, 89.0]);
    }
}
