//! Great-circle geometry on the unit sphere, in `f64`.
//!
//! Angles are radians inside the crate; the public [`LatLon`] is in degrees. Points are unit
//! vectors `(cos φ cos λ, cos φ sin λ, sin φ)`: distances and crossings computed from vectors
//! do not care about longitude wrap-around.
//!
//! Tolerances (each used for one purpose, see `docs/spherical.md`):
//! - [`ANGLE_EPS`] (1e-12 rad, 6 µm on the Earth): two latitudes or longitudes closer than
//!   this are the same line. The inputs are grid lines at multiples of 1/4° or more, and the
//!   functions below lose at most a few ulps of π (~1e-15) each, so 1e-12 separates "equal by
//!   construction" from "different" with three orders of margin either way.
//! - [`COST_EPS`] (1e-10 rad): two path costs closer than this are a tie in the root history.

/// Two angles (radians) closer than this are equal. See the module documentation.
pub const ANGLE_EPS: f64 = 1e-12;
/// Two path costs (radians) closer than this tie in the root history.
pub const COST_EPS: f64 = 1e-10;
/// Mean Earth radius used for kilometres (the shared data's convention).
pub const EARTH_RADIUS_KM: f64 = 6371.0;
/// Kilometres per international nautical mile.
pub const KM_PER_NM: f64 = 1.852;

use std::f64::consts::{FRAC_PI_2, PI};

use crate::trig;

/// A point on the sphere in degrees: latitude in [-90, 90], longitude (any value; see
/// [`LatLon::normalized`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LatLon {
    /// Latitude, degrees north.
    pub lat: f64,
    /// Longitude, degrees east.
    pub lon: f64,
}

impl LatLon {
    /// A point from degrees.
    pub fn new(lat: f64, lon: f64) -> Self {
        LatLon { lat, lon }
    }

    /// The same point with its longitude in [-180, 180).
    pub fn normalized(self) -> Self {
        LatLon {
            lat: self.lat,
            lon: wrap_deg(self.lon),
        }
    }

    /// The unit vector of this point.
    pub fn to_vec(self) -> V3 {
        V3::from_lat_lon(self.lat.to_radians(), self.lon.to_radians())
    }

    /// Great-circle distance to `other`, radians on the unit sphere.
    pub fn distance_rad(self, other: LatLon) -> f64 {
        self.to_vec().angle(other.to_vec())
    }
}

/// `lon` (degrees) wrapped into [-180, 180).
pub fn wrap_deg(lon: f64) -> f64 {
    let w = (lon + 180.0).rem_euclid(360.0) - 180.0;
    if w >= 180.0 { w - 360.0 } else { w }
}

/// A 3-vector (a unit vector for points, any length for great-circle normals).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    /// x: towards (0°, 0°).
    pub x: f64,
    /// y: towards (0°, 90°E).
    pub y: f64,
    /// z: towards the North Pole.
    pub z: f64,
}

impl V3 {
    /// The unit vector of latitude `lat`, longitude `lon` (radians).
    #[inline]
    pub fn from_lat_lon(lat: f64, lon: f64) -> V3 {
        let (sp, cp) = trig::sin_cos(lat);
        let (sl, cl) = trig::sin_cos(lon);
        V3 {
            x: cp * cl,
            y: cp * sl,
            z: sp,
        }
    }

    /// Latitude (radians) of this (not necessarily unit) vector.
    #[inline]
    pub fn lat(self) -> f64 {
        trig::atan2(self.z, self.x.hypot(self.y))
    }

    /// Longitude (radians, in (-π, π]) of this vector.
    #[inline]
    pub fn lon(self) -> f64 {
        trig::atan2(self.y, self.x)
    }

    /// Dot product.
    #[inline]
    pub fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    #[inline]
    pub fn cross(self, o: V3) -> V3 {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    /// Euclidean length.
    #[inline]
    pub fn norm(self) -> f64 {
        self.dot(self).sqrt()
    }

    /// The angle between two vectors (radians in [0, π]); for unit points, the great-circle
    /// distance. Uses `atan2(|a×b|, a·b)`, accurate for tiny and near-antipodal angles.
    #[inline]
    pub fn angle(self, o: V3) -> f64 {
        trig::atan2(self.cross(o).norm(), self.dot(o))
    }

    /// The lat/lon (degrees) of this vector.
    pub fn to_lat_lon(self) -> LatLon {
        LatLon::new(self.lat().to_degrees(), self.lon().to_degrees())
    }

    /// The mirror image through the equator's plane (`z` negated): the normal of a great
    /// circle's mirror image.
    #[inline]
    pub fn mirrored(self) -> V3 {
        V3 {
            x: self.x,
            y: self.y,
            z: -self.z,
        }
    }

    /// `self * s`.
    #[inline]
    pub fn scale(self, s: f64) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }

    /// `self + o`.
    #[inline]
    pub fn plus(self, o: V3) -> V3 {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

/// The latitude (radians) at which the great circle with normal `n` crosses the meridian of
/// longitude `lon`, taking the crossing on the meridian's half circle (the one of longitude
/// `lon`, not `lon + π`). A circle through both poles (`n.z == 0`) crosses it at a pole, or
/// contains it; the pole on the side `n` points to is returned.
#[inline]
pub fn crossing_lat(n: V3, lon: f64) -> f64 {
    let (s, c) = trig::sin_cos(lon);
    crossing_lat_sc(n, s, c)
}

/// [`crossing_lat`] given the meridian's `sin lon` and `cos lon` (from a table).
#[inline]
pub(crate) fn crossing_lat_sc(n: V3, s: f64, c: f64) -> f64 {
    // atan2(y, x) for x > 0 and atan2(-y, -x) for x < 0 are both atan(y / x), which libm
    // computes in well under half of atan2's time; the division's rounding moves the result
    // by at most an ulp.
    if n.z != 0.0 {
        trig::atan(crossing_tan_sc(n, s, c))
    } else {
        trig::atan2(-(n.x * c + n.y * s), n.z)
    }
}

/// The tangent of [`crossing_lat_sc`]'s latitude, for `n.z != 0` (infinite or NaN otherwise):
/// `atan` of it is exactly what [`crossing_lat_sc`] returns.
#[inline]
pub(crate) fn crossing_tan_sc(n: V3, s: f64, c: f64) -> f64 {
    -(n.x * c + n.y * s) / n.z
}

/// The latitude (radians) at which the great circle through points `a` and `b` crosses the
/// meridian `lon`.
#[inline]
pub fn crossing_lat_through(a: V3, b: V3, lon: f64) -> f64 {
    crossing_lat(a.cross(b), lon)
}

/// The highest latitude (radians) of the great circle with normal `n` and the longitude of
/// the point where it is reached (its northern vertex).
#[inline]
pub fn north_vertex(n: V3) -> (f64, f64) {
    let len = n.norm();
    let lat = trig::acos((n.z.abs() / len).clamp(0.0, 1.0));
    let lon = trig::atan2(-n.z * n.y, -n.z * n.x);
    (lat, lon)
}

/// `lon` shifted by a multiple of 2π to lie within π of `near`.
#[inline]
pub fn unwrap_near(lon: f64, near: f64) -> f64 {
    lon + wrap_near(lon, near)
}

/// The multiple of 2π that [`unwrap_near`] adds to `lon`: the same for every longitude of a
/// range less than π wide on either side of `near`, so a caller moving along such a range
/// may compute it once.
#[inline]
pub(crate) fn wrap_near(lon: f64, near: f64) -> f64 {
    (2.0 * PI) * round_fast((near - lon) / (2.0 * PI))
}

/// `x` rounded to the nearest integer (halves away from zero, as [`f64::round`]) for
/// `|x| < 2^52`, without the libm call `round` makes on the portable x86-64 target (which has
/// no rounding instruction): 2.6 % of an Earth route's time went there.
#[inline]
pub(crate) fn round_fast(x: f64) -> f64 {
    (x + 0.5f64.copysign(x)) as i64 as f64
}

/// The extreme latitude (radians) reached by the great circle with normal `n` between
/// longitudes `a` and `b` (either order, less than π apart, unwrapped): the highest if
/// `north`, else the lowest (as a latitude, i.e. the most southern). The circle's latitude is
/// unimodal, so the extreme lies at an end unless its vertex is strictly inside the range.
pub fn extreme_lat(n: V3, a: f64, b: f64, north: bool) -> f64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let (sa, ca) = trig::sin_cos(lo);
    let (sb, cb) = trig::sin_cos(hi);
    let ea = crossing_lat_sc(n, sa, ca);
    let eb = crossing_lat_sc(n, sb, cb);
    let ends = if north { ea.max(eb) } else { ea.min(eb) };
    if let Some(e) = extreme_between(n, ends, (sa, ca), (sb, cb), north) {
        return e;
    }
    // Through both poles: it peaks at the pole, on the meridian whose side `n` picks (its
    // mirror's, for the south).
    let nn = if north { n } else { n.mirrored() };
    let (vlat, vlon) = north_vertex(nn);
    let v = unwrap_near(vlon, 0.5 * (lo + hi));
    match (v > lo && v < hi, north) {
        (true, true) => vlat.max(ends),
        (true, false) => (-vlat).min(ends),
        (false, _) => ends,
    }
}

/// The highest (`north`) or lowest latitude of the great circle with normal `n` between the
/// meridians whose `(sin, cos)` are `a` (west) and `b` (east), less than 180° apart, given
/// `ends`, the extreme of its crossings of those two meridians: its peak (trough) when
/// [`peak_between`] finds it inside, else `ends`. `None` for a circle through the poles (or a
/// zero normal).
#[inline]
pub(crate) fn extreme_between(
    n: V3,
    ends: f64,
    a: (f64, f64),
    b: (f64, f64),
    north: bool,
) -> Option<f64> {
    let nn = if north { n } else { n.mirrored() };
    Some(if peak_between(nn, a, b)? {
        let peak = trig::acos((nn.z.abs() / nn.norm()).clamp(0.0, 1.0));
        if north {
            peak.max(ends)
        } else {
            (-peak).min(ends)
        }
    } else {
        ends
    })
}

/// The tangent of the highest latitude the great circle with normal `n` reaches (its peak;
/// the trough is its negative): `|n_xy| / |n_z|`, infinite for a circle through the poles.
#[inline]
pub(crate) fn peak_tan(n: V3) -> f64 {
    (n.x * n.x + n.y * n.y).sqrt() / n.z.abs()
}

/// Whether the great circle with normal `n` peaks strictly between the meridians whose
/// `(sin, cos)` are `a` (west) and `b` (east), less than 180° apart (for its trough, pass the
/// mirrored normal). The slope's sign places the peak without an angle:
/// `tan lat = -(n.x cos λ + n.y sin λ) / n.z` rises with λ where
/// `(n.x sin λ - n.y cos λ) / n.z > 0`, so the peak is inside when the circle rises at `a`
/// and falls at `b`. `None` for a circle through the poles (or a zero normal).
#[inline]
pub(crate) fn peak_between(n: V3, a: (f64, f64), b: (f64, f64)) -> Option<bool> {
    if n.z == 0.0 {
        return None;
    }
    let rises = |(s, c): (f64, f64)| (n.x * s - n.y * c) / n.z;
    Some(rises(a) > 0.0 && rises(b) < 0.0)
}

/// The longitude offset (radians, in [0, π]) from a point at latitude `lat` to the vertex of
/// a great circle through it whose vertex lies on the parallel `vertex_lat` (same hemisphere
/// side, `|lat| <= |vertex_lat|`): `acos(tan lat / tan vertex_lat)`. `None` if no such circle
/// exists (the point is on the far side of the parallel, or `vertex_lat` is 0 or ±π/2).
#[inline]
pub fn tangent_offset(lat: f64, vertex_lat: f64) -> Option<f64> {
    tangent_offset_with(lat, vertex_lat, || (trig::tan(lat), trig::tan(vertex_lat)))
}

/// [`tangent_offset`] with the two tangents, `(tan lat, tan vertex_lat)`, from `tans` (called
/// only when needed), for callers that have them from tables or unit vectors.
#[inline]
pub(crate) fn tangent_offset_with(
    lat: f64,
    vertex_lat: f64,
    tans: impl FnOnce() -> (f64, f64),
) -> Option<f64> {
    if vertex_lat.abs() < ANGLE_EPS || vertex_lat.abs() > FRAC_PI_2 - ANGLE_EPS {
        return None;
    }
    // At the vertex and at its antipode's parallel `acos` is ill-conditioned: a ratio 1e-16
    // off ±1 moves the result by 1.5e-8. Row lines mirrored through the equator are such
    // pairs up to rounding, and an offset 1.5e-8 short of π made a leg too close to a half
    // circle to have one great circle.
    if (lat - vertex_lat).abs() < ANGLE_EPS {
        return Some(0.0);
    }
    if (lat + vertex_lat).abs() < ANGLE_EPS {
        return Some(PI);
    }
    let (t, t0) = tans();
    let r = t / t0;
    if !(-1.0..=1.0 + 1e-12).contains(&r) {
        return None;
    }
    Some(trig::acos(r.min(1.0)))
}

/// The latitude (radians) at longitude `lon` of the great circle whose vertex is at
/// (`vertex_lat`, `vertex_lon`): `atan(tan vertex_lat · cos(lon - vertex_lon))`.
#[inline]
pub fn lat_from_vertex(vertex_lat: f64, vertex_lon: f64, lon: f64) -> f64 {
    lat_from_vertex_tan(trig::tan(vertex_lat), vertex_lon, lon)
}

/// [`lat_from_vertex`] with `tan vertex_lat` given.
#[inline]
pub(crate) fn lat_from_vertex_tan(tan_vertex: f64, vertex_lon: f64, lon: f64) -> f64 {
    trig::atan(tan_vertex * trig::cos(lon - vertex_lon))
}

/// The length (radians) of the arc of the parallel `lat` spanning `dlon` radians of longitude.
#[inline]
pub fn parallel_len(lat: f64, dlon: f64) -> f64 {
    trig::cos(lat) * dlon.abs()
}

/// A point `p` seen from one meridian (its `sin lon`, `cos lon` given): its components
/// towards the meridian's equator point (`along`), across its plane (`perp`) and `z`, for
/// [`MeridianView::via`] without any trigonometric call per point.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeridianView {
    along: f64,
    perp: f64,
    z: f64,
}

/// The shortest way from a root to a point through a meridian's great circle
/// ([`MeridianView::via`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Via {
    /// The root in the meridian's frame.
    r: (f64, f64, f64),
    /// The way's length (or `angle`'s bound on it).
    len: f64,
    /// Where it crosses the circle, as (`along`, `z`) in the frame (unnormalised).
    crossing: Option<(f64, f64)>,
}

impl MeridianView {
    #[inline]
    pub(crate) fn new(p: V3, sin_lon: f64, cos_lon: f64) -> Self {
        let (along, perp, z) = Self::frame(p, sin_lon, cos_lon);
        MeridianView { along, perp, z }
    }

    /// The distance from `p` at (`along`, `perp`, `z`) in the frame of a meridian to its
    /// segment between latitudes `lo <= hi`, for a point seen once: the foot's side of each end
    /// is the sign of `sin(foot − end)`, so this takes one or two `sin_cos` and one `atan2`
    /// instead of the view's two `atan2` plus the distance.
    #[cfg(test)]
    pub(crate) fn distance_once(p: V3, sin_lon: f64, cos_lon: f64, lo: f64, hi: f64) -> f64 {
        Self::segment_distance_with(
            Self::frame(p, sin_lon, cos_lon),
            lo.sin_cos(),
            hi.sin_cos(),
            f64::atan2,
        )
    }

    /// [`MeridianView::distance_once`] for a point given in the meridian's frame
    /// ([`MeridianView::frame`]), with the ends' `sin_cos` given and the angle computed by
    /// `angle(y, x)`: `f64::atan2` for the distance, [`angle_lower_bound`] for a lower bound
    /// on it.
    #[inline]
    pub(crate) fn segment_distance_with(
        (along, perp, z): (f64, f64, f64),
        (sl, cl): (f64, f64),
        (sh, ch): (f64, f64),
        angle: impl Fn(f64, f64) -> f64,
    ) -> f64 {
        let p = (along, perp, z);
        if along >= 0.0 {
            // The foot's latitude is atan2(z, along) in [-π/2, π/2]; it is below `lo` when
            // sin(foot − lo) < 0.
            if z * cl - along * sl < 0.0 {
                frame_distance_at(p, (sl, cl), &angle)
            } else if z * ch - along * sh > 0.0 {
                frame_distance_at(p, (sh, ch), &angle)
            } else {
                angle(perp.abs(), along.hypot(z))
            }
        } else {
            frame_distance_at(p, (sl, cl), &angle).min(frame_distance_at(p, (sh, ch), &angle))
        }
    }

    /// This point's coordinates in the meridian's frame.
    #[inline]
    pub(crate) fn coords(&self) -> (f64, f64, f64) {
        (self.along, self.perp, self.z)
    }

    /// The shortest way from `r` (given in this meridian's frame: `along`, `perp`, `z`) to
    /// `p` through the meridian's great circle: its length `min_x d(r, x) + d(x, p)` over the
    /// circle's points `x`, and where it crosses. Let `p*` be `p`, or its mirror image in the
    /// circle's plane when `r` and `p` lie strictly on the same side. Reflection is an
    /// isometry fixing `x`, so `d(x, p) = d(x, p*)`, and the triangle inequality makes the
    /// minimum `d(r, p*)` (Euclidean Anya's mirror argument), reached where the arc `r p*`
    /// crosses the plane. The length is `angle(|r × p*|, r · p*)`.
    #[inline]
    pub(crate) fn via(&self, r: (f64, f64, f64), angle: impl Fn(f64, f64) -> f64) -> Via {
        let (ra, rp, rz) = r;
        let pp = if rp * self.perp > 0.0 {
            -self.perp
        } else {
            self.perp
        };
        let (a, b, c) = (self.along, pp, self.z);
        let cx = rp * c - rz * b;
        let cy = rz * a - ra * c;
        let cz = ra * b - rp * a;
        let len = angle(
            (cx * cx + cy * cy + cz * cz).sqrt(),
            ra * a + rp * b + rz * c,
        );
        // The crossing, |perp(p*)|·r + |perp(r)|·p*, lies in the plane (its perp cancels); it
        // is unknown when both points lie in the plane or the arc is nearly a semicircle.
        let (wr, wp) = (pp.abs(), rp.abs());
        let crossing =
            (wr + wp > 0.0 && len < PI - 1e-3).then_some((wr * ra + wp * a, wr * rz + wp * c));
        Via { r, len, crossing }
    }

    /// A lower bound on `d(r, x) + d(x, p)` over the points `x` of the meridian's segment
    /// between the latitudes whose sines and cosines are `sc_lo` and `sc_hi`, with `via`
    /// from [`MeridianView::via`] for the same `r`; `None` where the argument below does not
    /// apply (the caller then bounds the two distances apart).
    ///
    /// If the crossing lies in the segment, the bound is `via.len`. Otherwise it is the
    /// smaller of the two ends' sums, when that is below π (less 1e-5 for `angle`'s error):
    /// for a level `c < π` the set `{x : d(r, x) + d(x, p*) <= c}` is a spherical ellipse,
    /// which lies in an open hemisphere and is spherically convex (it is the sphere's part
    /// inside one nappe of a quadric cone through the centre), so it meets the circle in one
    /// arc. If a point inside the segment were lower than both ends, the arc of its level
    /// through it and the crossing would leave the segment through an end, which would then be
    /// no higher than that point: a contradiction.
    #[inline]
    pub(crate) fn via_segment_with(
        &self,
        via: &Via,
        sc_lo: (f64, f64),
        sc_hi: (f64, f64),
        angle: impl Fn(f64, f64) -> f64,
    ) -> Option<f64> {
        let (qa, qz) = via.crossing?;
        let ((sl, cl), (sh, ch)) = (sc_lo, sc_hi);
        // On the half-meridian (`along >= 0`), between the ends: signs of sin(lat − end).
        if qa >= 0.0 && qz * cl - qa * sl >= 0.0 && qz * ch - qa * sh <= 0.0 {
            return Some(via.len);
        }
        let end = |sc: (f64, f64)| {
            frame_distance_at(via.r, sc, &angle) + frame_distance_at(self.coords(), sc, &angle)
        };
        let m = end(sc_lo).min(end(sc_hi));
        (m < PI - 1e-5).then_some(m)
    }

    /// `p`'s coordinates in the frame of the meridian whose longitude has sine `sin_lon` and
    /// cosine `cos_lon`: towards its equator point, across its plane, and `z`.
    #[inline]
    pub(crate) fn frame(p: V3, sin_lon: f64, cos_lon: f64) -> (f64, f64, f64) {
        (
            p.x * cos_lon + p.y * sin_lon,
            p.y * cos_lon - p.x * sin_lon,
            p.z,
        )
    }
}

/// Distance (radians) from `p = (along, perp, z)`, in a meridian's frame (towards its
/// equator point, across its plane, `z`), to the meridian's point whose latitude has sine `s`
/// and cosine `c`, `q = (c, 0, s)`: `atan2(|q×p|, q·p)` (or `angle`'s value for it), with
/// `|q×p|² = perp² + (s·along − c·z)²`.
#[inline]
fn frame_distance_at(
    (along, perp, z): (f64, f64, f64),
    (s, c): (f64, f64),
    angle: &impl Fn(f64, f64) -> f64,
) -> f64 {
    let t = s * along - c * z;
    angle((perp * perp + t * t).sqrt(), c * along + s * z)
}

/// How far [`angle_lower_bound`] may lie below `atan2`: over ten times the polynomial's largest
/// error, measured over its whole domain (`angle_lower_bound_is_a_close_lower_bound`).
pub(crate) const ANGLE_BOUND_SLACK: f64 = 5e-7;

/// `(sin x, cos x)` for a latitude `x` in `[-π/2, π/2]` by Taylor polynomials (terms to
/// `x^15` and `x^16`), within 1e-9 of `sin_cos` there (checked densely in the tests), for
/// heuristics only: a point moved 1e-9 moves its distances by at most 1e-9, far inside
/// [`ANGLE_BOUND_SLACK`].
#[inline]
pub(crate) fn lat_sin_cos_fast(x: f64) -> (f64, f64) {
    let x2 = x * x;
    let sin = x
        * (1.0
            + x2 * (-1.0 / 6.0
                + x2 * (1.0 / 120.0
                    + x2 * (-1.0 / 5040.0
                        + x2 * (1.0 / 362_880.0
                            + x2 * (-1.0 / 39_916_800.0
                                + x2 * (1.0 / 6_227_020_800.0
                                    + x2 * (-1.0 / 1_307_674_368_000.0))))))));
    let cos = 1.0
        + x2 * (-0.5
            + x2 * (1.0 / 24.0
                + x2 * (-1.0 / 720.0
                    + x2 * (1.0 / 40_320.0
                        + x2 * (-1.0 / 3_628_800.0
                            + x2 * (1.0 / 479_001_600.0
                                + x2 * (-1.0 / 87_178_291_200.0
                                    + x2 * (1.0 / 20_922_789_888_000.0))))))));
    (sin, cos)
}

/// `atan z` for `z` in `[0, 1]`, by a degree-15 odd polynomial fitted for the smallest
/// largest error (below 4e-8).
#[inline]
fn atan01(z: f64) -> f64 {
    let z2 = z * z;
    z * (0.999_999_335_640_421_6
        + z2 * (-0.333_298_610_540_606_6
            + z2 * (0.199_465_689_681_138_23
                + z2 * (-0.139_086_472_409_841_12
                    + z2 * (0.096_422_451_531_224_58
                        + z2 * (-0.055_913_012_156_768_88
                            + z2 * (0.021_863_453_957_194_98
                                + z2 * -0.004_054_709_851_772_572)))))))
}

/// A lower bound on `atan2(y, x)` for `y >= 0` (an angle in `[0, π]`), within
/// [`ANGLE_BOUND_SLACK`] of it, for heuristics: a degree-15 odd polynomial for `atan` on
/// `[0, 1]` after reducing to an octant: one division and eight multiply-adds instead of a
/// libm call. Never negative.
#[inline]
pub(crate) fn angle_lower_bound(y: f64, x: f64) -> f64 {
    let ax = x.abs();
    let (num, den, swap) = if y <= ax {
        (y, ax, false)
    } else {
        (ax, y, true)
    };
    if den == 0.0 {
        return 0.0;
    }
    let a = atan01(num / den);
    let t = if swap { FRAC_PI_2 - a } else { a };
    let angle = if x >= 0.0 { t } else { PI - t };
    (angle - ANGLE_BOUND_SLACK).max(0.0)
}

/// The point of the segment of meridian `lon` between latitudes `lo <= hi` nearest to `p`,
/// and its distance (radians). Distance along a great circle to a point is unimodal, so the
/// nearest point is the foot of the perpendicular when it lies in the segment, else an end.
pub fn nearest_on_meridian(p: V3, lon: f64, lo: f64, hi: f64) -> (f64, f64) {
    // Foot of the perpendicular on the meridian's half circle: the latitude of p projected
    // onto the meridian plane.
    let (s, c) = trig::sin_cos(lon);
    let along = p.x * c + p.y * s; // component towards the meridian's equator point
    let foot = trig::atan2(p.z, along);
    let lat = if along >= 0.0 {
        foot.clamp(lo, hi)
    } else {
        // p is beyond the pole side: the nearest point of the half circle is a pole end.
        let dl = V3::from_lat_lon(lo, lon).angle(p);
        let dh = V3::from_lat_lon(hi, lon).angle(p);
        return if dl <= dh { (lo, dl) } else { (hi, dh) };
    };
    (lat, V3::from_lat_lon(lat, lon).angle(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rad(d: f64) -> f64 {
        d.to_radians()
    }

    #[test]
    fn distances_match_analytic_values() {
        let a = LatLon::new(0.0, 0.0);
        let b = LatLon::new(0.0, 90.0);
        assert!((a.distance_rad(b) - FRAC_PI_2).abs() < 1e-15);
        let n = LatLon::new(90.0, 0.0);
        assert!((a.distance_rad(n) - FRAC_PI_2).abs() < 1e-15);
        // Antipodes.
        let c = LatLon::new(10.0, 20.0);
        let d = LatLon::new(-10.0, -160.0);
        assert!((c.distance_rad(d) - PI).abs() < 1e-12);
    }

    #[test]
    fn crossing_lat_agrees_with_points_on_the_circle() {
        let a = V3::from_lat_lon(rad(40.0), rad(-74.0));
        let b = V3::from_lat_lon(rad(57.0), rad(12.0));
        let n = a.cross(b);
        assert!((crossing_lat(n, rad(-74.0)) - rad(40.0)).abs() < 1e-13);
        assert!((crossing_lat(n, rad(12.0)) - rad(57.0)).abs() < 1e-13);
        let (vlat, vlon) = north_vertex(n);
        // The vertex is on the circle and is the highest point.
        assert!((crossing_lat(n, vlon) - vlat).abs() < 1e-13);
        for i in 0..100 {
            let lon = rad(-74.0 + 0.86 * i as f64);
            assert!(crossing_lat(n, lon) <= vlat + 1e-15);
        }
    }

    #[test]
    fn tangent_points_of_the_60n_cap() {
        // The analytic case: from (55N, 0) the circle tangent to 60N touches at 34.458E.
        let d = tangent_offset(rad(55.0), rad(60.0)).unwrap();
        assert!((d.to_degrees() - 34.4579522522933).abs() < 1e-10);
        assert!((lat_from_vertex(rad(60.0), d, 0.0) - rad(55.0)).abs() < 1e-14);
        assert!(tangent_offset(rad(61.0), rad(60.0)).is_none());
        assert_eq!(tangent_offset(rad(60.0), rad(60.0)), Some(0.0));
    }

    /// Against dense samples of the circle between the two longitudes, for random circles
    /// and ranges up to 170° wide, both extremes.
    #[test]
    fn extreme_latitude_matches_samples() {
        let mut next = uniform(0x0123_4567_89ab_cdef_u64);
        for _ in 0..3000 {
            let n = V3 {
                x: next() - 0.5,
                y: next() - 0.5,
                z: next() - 0.5,
            };
            let a = (next() - 0.5) * 4.0 * PI;
            let b = a + (next() - 0.5) * 2.0 * rad(170.0);
            for north in [true, false] {
                let e = extreme_lat(n, a, b, north);
                let mut best = if north { -FRAC_PI_2 } else { FRAC_PI_2 };
                for i in 0..=2000 {
                    let l = crossing_lat(n, a + (b - a) * f64::from(i) / 2000.0);
                    best = if north { best.max(l) } else { best.min(l) };
                }
                // Samples never pass the extreme, and the extreme is at most a sample step's
                // worth of curvature beyond them.
                let (beyond, short) = if north {
                    (best - e, e - best)
                } else {
                    (e - best, best - e)
                };
                assert!(
                    beyond <= 1e-12 && short <= 1e-4,
                    "{n:?} {a} {b} {north}: {e} {best}"
                );
            }
        }
    }

    #[test]
    fn extreme_latitude_inside_a_range() {
        let a = V3::from_lat_lon(rad(55.0), 0.0);
        let b = V3::from_lat_lon(rad(55.0), rad(90.0));
        let n = a.cross(b);
        let top = extreme_lat(n, 0.0, rad(90.0), true);
        assert!((top.to_degrees() - 63.6589989314141).abs() < 1e-9);
        // Over a sub-range not containing the vertex, an end is the extreme.
        let e = extreme_lat(n, 0.0, rad(10.0), true);
        assert!((e - crossing_lat(n, rad(10.0))).abs() < 1e-15);
        let low = extreme_lat(n, 0.0, rad(90.0), false);
        assert!((low - rad(55.0)).abs() < 1e-13);
    }

    /// A xorshift generator of uniform numbers in `[0, 1)`.
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn distance_once_measures_as_nearest_on_meridian() {
        let mut next = uniform(0x2545_f491_4f6c_dd1d_u64);
        for _ in 0..2000 {
            let p = V3::from_lat_lon((next() - 0.5) * PI, (next() - 0.5) * 2.0 * PI);
            let lon = (next() - 0.5) * 2.0 * PI;
            let a = (next() - 0.5) * PI;
            let b = (next() - 0.5) * PI;
            let (lo, hi) = (a.min(b), a.max(b));
            let (s, c) = lon.sin_cos();
            let d = MeridianView::distance_once(p, s, c, lo, hi);
            let (_, want) = nearest_on_meridian(p, lon, lo, hi);
            assert!((d - want).abs() < 1e-14, "{d} {want}");
        }
    }

    /// The bound through a segment against the minimum of `d(r, x) + d(x, p)` over 4,001
    /// points of the segment, for random roots, goals and segments (a third of them with both
    /// points within 0.025 rad of the meridian's plane): never above it, and within one
    /// sampling step below it whenever the argument applies (about 60 % of the draws; the
    /// others have sums near π), so it is the minimum, not merely a bound.
    #[test]
    fn the_way_through_a_segment_is_its_minimum() {
        let mut next = uniform(0x9e37_79b9_7f4a_7c15_u64);
        let mut applied = 0;
        for i in 0..20_000 {
            let lon = (next() - 0.5) * 2.0 * PI;
            let near = |x: f64, u: f64| lon + (x - 0.5) * u;
            let spread = if i % 3 == 0 { 0.05 } else { 2.0 * PI };
            let r = V3::from_lat_lon((next() - 0.5) * PI, near(next(), spread));
            let p = V3::from_lat_lon((next() - 0.5) * PI, near(next(), spread));
            let a = (next() - 0.5) * PI;
            let b = a + (next() - 0.5) * 0.5;
            let (lo, hi) = (a.min(b).max(-FRAC_PI_2), a.max(b).min(FRAC_PI_2));
            let (s, c) = lon.sin_cos();
            let view = MeridianView::new(p, s, c);
            let via = view.via(MeridianView::frame(r, s, c), f64::atan2);
            let n = 4000;
            let mut best = f64::INFINITY;
            for j in 0..=n {
                let lat = lo + (hi - lo) * f64::from(j) / f64::from(n);
                let x = V3::from_lat_lon(lat, lon);
                best = best.min(r.angle(x) + x.angle(p));
            }
            // Moving along the segment by half a step changes the sum by at most one step.
            let step = (hi - lo) / f64::from(n);
            if let Some(bound) = view.via_segment_with(&via, lo.sin_cos(), hi.sin_cos(), f64::atan2)
            {
                applied += 1;
                assert!(
                    bound <= best + 1e-12,
                    "bound {bound} above the minimum {best}"
                );
                assert!(
                    bound >= best - step - 1e-12,
                    "bound {bound} far below {best}"
                );
            }
            assert!(via.len <= best + 1e-12, "way {} above {best}", via.len);
        }
        assert!(
            applied > 10_000,
            "the argument applied to {applied} cases only"
        );
    }

    /// The polynomial's error against `atan`, sampled every 2^-22 over `[0, 1]`. The error
    /// oscillates about 8 times with height 4e-8, so its derivative is near 2e-6, far below
    /// 1e-3: between samples it exceeds the largest sampled error by less than 2.4e-10, and
    /// the slack (over ten times the sampled maximum) holds everywhere. Then random angles in
    /// every quadrant.
    #[test]
    fn angle_lower_bound_is_a_close_lower_bound() {
        let n = 1u32 << 22;
        let mut worst = 0.0f64;
        for i in 0..=n {
            let z = f64::from(i) / f64::from(n);
            let err = (atan01(z) - z.atan()).abs();
            worst = worst.max(err);
        }
        assert!(worst * 10.0 <= ANGLE_BOUND_SLACK, "largest error {worst}");
        let mut next = uniform(0x9e37_79b9_7f4a_7c15_u64);
        for _ in 0..100_000 {
            let (y, x) = (next() * 3.0, (next() - 0.5) * 6.0);
            let (exact, bound) = (y.atan2(x), angle_lower_bound(y, x));
            assert!(
                bound <= exact && exact - bound <= 2.0 * ANGLE_BOUND_SLACK,
                "{y} {x}"
            );
        }
        assert_eq!(angle_lower_bound(0.0, 0.0), 0.0);
        assert_eq!(angle_lower_bound(0.0, 1.0), 0.0);
        assert!((angle_lower_bound(0.0, -1.0) - PI).abs() <= 2.0 * ANGLE_BOUND_SLACK);
    }

    #[test]
    fn lat_sin_cos_fast_is_within_1e9() {
        let n = 1 << 20;
        for i in 0..=n {
            let x = -FRAC_PI_2 + PI * f64::from(i) / f64::from(n);
            let (s, c) = lat_sin_cos_fast(x);
            let (s0, c0) = x.sin_cos();
            assert!((s - s0).abs() < 1e-9 && (c - c0).abs() < 1e-9, "{x}");
        }
    }

    #[test]
    fn round_fast_is_round() {
        for x in [
            0.0,
            0.4,
            0.5,
            0.6,
            1.5,
            2.5,
            -0.4,
            -0.5,
            -0.6,
            -2.5,
            1e15 + 0.5,
            -7.0,
        ] {
            assert_eq!(round_fast(x), x.round(), "{x}");
        }
        let mut x = -1000.0;
        while x < 1000.0 {
            assert_eq!(round_fast(x), x.round(), "{x}");
            x += 0.0137;
        }
    }

    #[test]
    fn nearest_point_on_a_meridian_segment() {
        let p = V3::from_lat_lon(rad(10.0), rad(5.0));
        let (lat, d) = nearest_on_meridian(p, 0.0, rad(-20.0), rad(20.0));
        assert!(lat > rad(9.9) && lat < rad(10.1));
        assert!(d > 0.0 && d < rad(5.0));
        let (lat, _) = nearest_on_meridian(p, 0.0, rad(30.0), rad(40.0));
        assert_eq!(lat, rad(30.0));
        assert!((wrap_deg(190.0) + 170.0).abs() < 1e-12);
        assert_eq!(wrap_deg(180.0), -180.0);
    }
}
