//! Spherical Anya's search (in progress).

use crate::error::SphereError;
use crate::geo::LatLon;
use crate::grid::SphereGrid;
use crate::route::Route;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A shortest route was found.
    Found,
    /// No route exists.
    Unreachable,
}

/// Counters of the last search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes taken from the open list and expanded.
    pub expanded: u64,
    /// Nodes pushed onto the open list.
    pub generated: u64,
    /// Roots created (corners, tangent points and the start).
    pub roots: u64,
}

/// Reusable state of Spherical Anya searches.
#[derive(Debug, Default)]
pub struct SearchContext {
    stats: SearchStats,
}

impl SearchContext {
    /// A fresh context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The shortest route from `from` to `to` on `grid`, written to `out`.
    pub fn search(
        &mut self,
        grid: &SphereGrid,
        from: LatLon,
        to: LatLon,
        out: &mut Route,
    ) -> Result<Outcome, SphereError> {
        let _ = (grid, from, to);
        out.legs.clear();
        out.radians = 0.0;
        Ok(Outcome::Unreachable)
    }
}
