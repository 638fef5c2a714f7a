//! The JSON object of `taut route --format json` ([`RouteReport`]) and how an answer fills it.

use taut::spherical::{EARTH_RADIUS_KM, LatLon, Leg, SearchOutcome};

use super::plan::Planned;

/// The answer to a route query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteStatus {
    /// A shortest route was found.
    Ok,
    /// Both endpoints are at sea, but in waters that do not connect.
    Unreachable,
    /// The query could not be answered: see `error`.
    Invalid,
}

/// One leg in the JSON output.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LegReport {
    /// `great` (a great-circle arc) or `parallel` (an arc of a parallel, along the poleward
    /// edge of land).
    pub kind: &'static str,
    /// Where the leg starts, `[lat, lon]` (longitude in [-180, 180)).
    pub from: [f64; 2],
    /// Where the leg ends, `[lat, lon]`.
    pub to: [f64; 2],
    /// Length, km.
    pub km: f64,
    /// Length on the unit sphere, radians.
    pub radians: f64,
    /// Parallel legs: the latitude followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    /// Parallel legs: the signed longitude travelled, degrees (east positive; may exceed the
    /// difference of the wrapped longitudes when the leg crosses the antimeridian).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dlon: Option<f64>,
}

impl LegReport {
    /// The report of one leg.
    pub fn new(leg: &Leg) -> Self {
        let r = leg.radians();
        let (lat, dlon) = match *leg {
            Leg::Great { .. } => (None, None),
            Leg::Parallel {
                lat,
                from_lon,
                to_lon,
            } => (Some(lat), Some(to_lon - from_lon)),
        };
        LegReport {
            kind: match leg {
                Leg::Great { .. } => "great",
                Leg::Parallel { .. } => "parallel",
            },
            from: pair(leg.start()),
            to: pair(leg.end()),
            km: r * EARTH_RADIUS_KM,
            radians: r,
            lat,
            dlon,
        }
    }
}

pub fn pair(p: LatLon) -> [f64; 2] {
    [p.lat, p.lon]
}

/// A port given by its code, as the JSON reports it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PortReport {
    /// Its UN/LOCODE.
    pub code: String,
    /// Its name.
    pub name: String,
}

impl PortReport {
    /// The report of `p`.
    pub fn of(p: &taut::spherical::Port) -> PortReport {
        PortReport {
            code: p.code.clone(),
            name: p.name.clone(),
        }
    }
}

/// The JSON object `taut route --format json` prints. Values that are not known (the route's
/// length when there is none, everything after the point where an invalid query failed) are
/// `null`; lists are then empty.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RouteReport {
    /// `ok`, `unreachable` or `invalid`.
    pub status: RouteStatus,
    /// Route length, km (sphere of radius 6371 km).
    pub km: Option<f64>,
    /// Route length, nautical miles (1852 m).
    pub nm: Option<f64>,
    /// Route length on the unit sphere, radians.
    pub radians: Option<f64>,
    /// How far the start was moved to reach the sea, km (0 if it was not).
    pub snap_km_from: Option<f64>,
    /// How far the goal was moved, km.
    pub snap_km_to: Option<f64>,
    /// Wall-clock microseconds of the search (not of reading the map).
    pub time_us: Option<f64>,
    /// The start searched from, `[lat, lon]` (after snapping).
    pub from: Option<[f64; 2]>,
    /// The goal searched to, `[lat, lon]` (after snapping).
    pub to: Option<[f64; 2]>,
    /// The start as given.
    pub from_given: Option<[f64; 2]>,
    /// The goal as given.
    pub to_given: Option<[f64; 2]>,
    /// The legs in order.
    pub legs: Vec<LegReport>,
    /// The turning points and the ends of parallel-following legs, start and goal included,
    /// `[lat, lon]` each (longitude in [-180, 180)).
    pub waypoints: Vec<[f64; 2]>,
    /// Nodes the search expanded.
    pub expanded: Option<u64>,
    /// Nodes the search generated.
    pub generated: Option<u64>,
    /// The named passages (canals, straits) the route goes through.
    pub passages: Vec<String>,
    /// The named passages closed for this request (`--avoid`, and the ice gates not
    /// allowed).
    pub avoided: Vec<String>,
    /// The port the start was given as (`--from CODE`).
    pub from_port: Option<PortReport>,
    /// The port the goal was given as.
    pub to_port: Option<PortReport>,
    /// `--speed-knots`.
    pub speed_knots: Option<f64>,
    /// Hours at sea at that speed.
    pub eta_hours: Option<f64>,
    /// Days at sea at that speed.
    pub eta_days: Option<f64>,
    /// Why the query is invalid (only when `status` is `invalid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Default for RouteReport {
    fn default() -> Self {
        RouteReport {
            status: RouteStatus::Invalid,
            km: None,
            nm: None,
            radians: None,
            snap_km_from: None,
            snap_km_to: None,
            time_us: None,
            from: None,
            to: None,
            from_given: None,
            to_given: None,
            legs: Vec::new(),
            waypoints: Vec::new(),
            expanded: None,
            generated: None,
            passages: Vec::new(),
            avoided: Vec::new(),
            from_port: None,
            to_port: None,
            speed_knots: None,
            eta_hours: None,
            eta_days: None,
            error: None,
        }
    }
}

impl Planned {
    /// Fills the report's fields from this answer.
    pub fn report(&self, r: &mut RouteReport) {
        r.status = match self.outcome {
            SearchOutcome::Found => RouteStatus::Ok,
            SearchOutcome::Unreachable => RouteStatus::Unreachable,
        };
        if let Some(route) = self.found() {
            r.km = Some(route.km());
            r.nm = Some(route.nm());
            r.radians = Some(route.radians);
            r.legs = route.legs.iter().map(LegReport::new).collect();
            r.waypoints = route.waypoints().into_iter().map(pair).collect();
        }
        r.snap_km_from = Some(self.from.snap_km);
        r.snap_km_to = Some(self.to.snap_km);
        r.time_us = Some(self.time_us);
        r.from = Some(pair(self.from.point));
        r.to = Some(pair(self.to.point));
        r.expanded = Some(self.stats.expanded);
        r.generated = Some(self.stats.generated);
        r.passages.clone_from(&self.passages);
        r.avoided.clone_from(&self.avoided);
    }
}
