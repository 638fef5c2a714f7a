//! Spherical Anya: optimal great-circle routes on a latitude/longitude grid.
//!
//! A map is read as covering the whole sphere ([`SphereGrid`]: rows are latitude bands from
//! the North Pole, columns longitude bands from 180°W, longitude wraps). A route avoids the
//! blocked cells and is the *shortest* such route on the sphere: it is made of great-circle
//! arcs, turning at obstacle corners, and of arcs that follow an obstacle's edge along a
//! parallel where the obstacle lies on the edge's poleward side. Such an edge curves around
//! the obstacle, so a shortest route may hug it between two tangent points that are not
//! corners (the *adjoint* nodes of Spherical Anya).
//!
//! - [`SearchContext`] runs the search: an interval search over the grid's meridians,
//!   online, with no preprocessing. A warm context reuses its buffers.
//! - [`Route`] holds the answer as [`Leg`]s with their length in radians, km and nautical
//!   miles; [`check`] is an independent legality checker.
//! - [`SeaMap`] serves ship-routing requests on a raster prepared once: ends on land snapped
//!   to the sea through a [`SnapIndex`], named passages ([`passage`]: Suez, Panama, ...)
//!   closed on request and reported when a route uses them, the Arctic's ice gates closed
//!   unless allowed, keep-out areas read from GeoJSON ([`area`]) closed on request; ends
//!   may be ports named by UN/LOCODE ([`port`]).
//!
//! `docs/spherical.md` states the geometry, the node kinds and the tolerances.
//!
//! `examples/sea_route.rs` is a whole program: it reads a land/sea raster and prints the route
//! between two points given in degrees, leg by leg
//! (`cargo run --release -p taut-spherical --example sea_route`).
//!
//! # Example
//! ```
//! use taut_spherical::{LatLon, Route, SearchContext, SearchOutcome, SphereGrid};
//!
//! // 36 x 18 cells of 10 degrees; everything north of 60N is blocked.
//! let grid = SphereGrid::from_fn(36, 18, |row, _| row >= 3).unwrap();
//! let mut ctx = SearchContext::new();
//! let mut route = Route::default();
//! let outcome = ctx
//!     .search(&grid, LatLon::new(55.0, 0.0), LatLon::new(55.0, 90.0), &mut route)
//!     .unwrap();
//! assert_eq!(outcome, SearchOutcome::Found);
//! // The great circle would reach 63.7N; the route follows the 60N parallel between two
//! // tangent points instead.
//! assert!((route.radians - 0.8450236240639002).abs() < 1e-9);
//! ```

pub mod area;
pub mod check;
mod direct;
mod error;
pub mod geo;
mod grid;
pub mod passage;
pub mod port;
mod route;
mod sea;
mod search;
mod snap;
mod trig;

pub use area::{Area, AreaError};
pub use error::SphereError;
pub use geo::{EARTH_RADIUS_KM, KM_PER_NM, LatLon};
pub use grid::{Run, SphereGrid};
pub use passage::{IceGate, Passage, PassageError, Passages};
pub use port::{Port, PortError, Ports};
pub use route::{Leg, Route};
pub use sea::{ClosedEnd, SeaError, SeaMap, SeaRoute, Snapped};
pub use search::{SearchContext, SearchOutcome, SearchStats};
pub use snap::SnapIndex;

/// Helpers shared by the crate's unit tests.
#[cfg(test)]
mod testing {
    /// A deterministic stream of integers: each call `next(n)` gives one in `0..n`
    /// (xorshift64 from `seed`, which must not be 0).
    pub(crate) fn below(mut seed: u64) -> impl FnMut(u32) -> u32 {
        move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        }
    }
}
