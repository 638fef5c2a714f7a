//! Routes: great-circle arcs and arcs along parallels, with exact lengths.

use crate::geo::{EARTH_RADIUS_KM, KM_PER_NM, LatLon, parallel_len, wrap_deg};

/// One leg of a route.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Leg {
    /// The shorter great-circle arc between two points (less than 180°).
    Great {
        /// Start of the arc.
        from: LatLon,
        /// End of the arc.
        to: LatLon,
    },
    /// An arc of the parallel `lat` from longitude `from_lon` to `to_lon` (degrees, not
    /// wrapped: `to_lon - from_lon` is the signed longitude travelled, east positive). Such a
    /// leg follows the edge of an obstacle on its poleward side.
    Parallel {
        /// Latitude of the parallel, degrees.
        lat: f64,
        /// Longitude where the leg starts, degrees.
        from_lon: f64,
        /// Longitude where the leg ends, degrees (`from_lon` plus the signed travel).
        to_lon: f64,
    },
}

impl Leg {
    /// Length on the unit sphere (radians).
    pub fn radians(&self) -> f64 {
        match *self {
            Leg::Great { from, to } => from.to_vec().angle(to.to_vec()),
            Leg::Parallel {
                lat,
                from_lon,
                to_lon,
            } => parallel_len(lat.to_radians(), (to_lon - from_lon).to_radians()),
        }
    }

    /// The leg's first point (longitude in [-180, 180)).
    pub fn start(&self) -> LatLon {
        match *self {
            Leg::Great { from, .. } => from.normalized(),
            Leg::Parallel { lat, from_lon, .. } => LatLon::new(lat, wrap_deg(from_lon)),
        }
    }

    /// The leg's last point (longitude in [-180, 180)).
    pub fn end(&self) -> LatLon {
        match *self {
            Leg::Great { to, .. } => to.normalized(),
            Leg::Parallel { lat, to_lon, .. } => LatLon::new(lat, wrap_deg(to_lon)),
        }
    }

    /// Points along the leg no more than `max_step_deg` degrees of arc apart, first and last
    /// included (longitudes in [-180, 180)).
    pub fn densify(&self, max_step_deg: f64, out: &mut Vec<LatLon>) {
        let len_deg = self.radians().to_degrees();
        let n = ((len_deg / max_step_deg.max(1e-9)).ceil() as usize).max(1);
        match *self {
            Leg::Great { from, to } => {
                let a = from.to_vec();
                let b = to.to_vec();
                let theta = a.angle(b);
                let s = theta.sin();
                for i in 0..=n {
                    let t = i as f64 / n as f64;
                    let p = if s < 1e-15 {
                        a
                    } else {
                        a.scale(((1.0 - t) * theta).sin() / s)
                            .plus(b.scale((t * theta).sin() / s))
                    };
                    out.push(p.to_lat_lon().normalized());
                }
            }
            Leg::Parallel {
                lat,
                from_lon,
                to_lon,
            } => {
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
}

/// A route on the sphere: consecutive legs, each starting where the previous one ends.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Route {
    /// The legs, in order (empty when start = goal).
    pub legs: Vec<Leg>,
    /// Total length on the unit sphere, radians (the sum of the legs' lengths).
    pub radians: f64,
}

impl Route {
    /// Total length in kilometres on a sphere of radius 6371 km.
    pub fn km(&self) -> f64 {
        self.radians * EARTH_RADIUS_KM
    }

    /// Total length in nautical miles (1852 m) on a sphere of radius 6371 km.
    pub fn nm(&self) -> f64 {
        self.km() / KM_PER_NM
    }

    /// The turning points and the ends of parallel-following legs, start and goal included
    /// (longitudes in [-180, 180)). Empty for an empty route.
    pub fn waypoints(&self) -> Vec<LatLon> {
        let mut out = Vec::with_capacity(self.legs.len() + 1);
        if let Some(first) = self.legs.first() {
            out.push(first.start());
        }
        for leg in &self.legs {
            out.push(leg.end());
        }
        out
    }

    /// The route as points no more than `max_step_deg` degrees of arc apart.
    pub fn densify(&self, max_step_deg: f64) -> Vec<LatLon> {
        let mut out = Vec::new();
        for (i, leg) in self.legs.iter().enumerate() {
            let before = out.len();
            leg.densify(max_step_deg, &mut out);
            if i > 0 {
                out.remove(before);
            }
        }
        out
    }

    /// The sum of the legs' lengths, recomputed (radians).
    pub fn legs_radians(&self) -> f64 {
        self.legs.iter().map(Leg::radians).sum()
    }
}
