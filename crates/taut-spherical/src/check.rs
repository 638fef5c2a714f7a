//! An independent legality checker for routes (helper: to be written).

use crate::geo::LatLon;
use crate::grid::SphereGrid;
use crate::route::Route;

/// Why a route is not legal.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    /// A sampled point of leg `leg` lies inside a blocked cell.
    Blocked {
        /// Index of the leg.
        leg: usize,
        /// The offending point.
        at: LatLon,
    },
}

/// Checks that `route` is a legal route from `from` to `to` on `grid` (placeholder: accepts
/// everything until the checker lands).
pub fn check_route(
    grid: &SphereGrid,
    route: &Route,
    from: LatLon,
    to: LatLon,
) -> Result<(), Violation> {
    let _ = (grid, route, from, to);
    Ok(())
}
