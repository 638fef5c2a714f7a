//! The reference planners every any-angle paper compares against.
//!
//! - [`astar`]: A* on the 8-connected grid with the octile heuristic and no corner cutting,
//!   exactly MovingAI's model (the `.scen` optimum column is what it must reproduce).
//! - [`theta`]: Theta* and Lazy Theta*, any-angle but not optimal.
//! - [`vg`]: an exact (slow, optimal) visibility-graph planner over convex corners, used as a
//!   test oracle for the optimal planners.
//!
//! Each algorithm has a reusable search context (no allocation per query once warm) and an
//! adapter implementing [`taut_grid::Planner`]; [`baseline_planner`] builds any of them by [`Baseline`].
//!
//! # Example
//! ```
//! use taut_baselines::{baseline_planner, Baseline};
//! use taut_grid::{Answer, Grid, Point, Status};
//!
//! let grid = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
//! let mut astar = baseline_planner(Baseline::AStar, &grid);
//! let mut answer = Answer::default();
//! let status = astar.plan(Point::new(0, 0), Point::new(3, 2), &mut answer).unwrap();
//! assert_eq!(status, Status::Found);
//! // The two blocked cells forbid every diagonal move next to them: 5 straight moves.
//! assert!((answer.length - 5.0).abs() < 1e-9);
//! ```

pub mod astar;
pub mod theta;
pub mod vg;

mod arena;

use taut_grid::{Grid, Planner};

/// The planners of this crate, by command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// `astar`: 8-connected A*, octile lengths.
    AStar,
    /// `theta`: Theta*.
    Theta,
    /// `lazy-theta`: Lazy Theta*.
    LazyTheta,
    /// `vg`: exact visibility graph (optimal any-angle lengths).
    Vg,
}

impl Baseline {
    /// All algorithms of this crate.
    pub const ALL: [Baseline; 4] = [
        Baseline::AStar,
        Baseline::Theta,
        Baseline::LazyTheta,
        Baseline::Vg,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Baseline::AStar => "astar",
            Baseline::Theta => "theta",
            Baseline::LazyTheta => "lazy-theta",
            Baseline::Vg => "vg",
        }
    }
}

impl std::fmt::Display for Baseline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown algorithm name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?} (expected one of: astar, theta, lazy-theta, vg)")]
pub struct UnknownBaseline(pub String);

impl std::str::FromStr for Baseline {
    type Err = UnknownBaseline;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Baseline::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownBaseline(s.to_owned()))
    }
}

/// Builds a planner for `grid`. The planner owns its search context; build one per thread.
pub fn baseline_planner(algo: Baseline, grid: &Grid) -> Box<dyn Planner + Send + '_> {
    match algo {
        Baseline::AStar => Box::new(astar::AStarPlanner::new(grid)),
        Baseline::Theta => Box::new(theta::ThetaPlanner::new(grid, theta::Variant::Theta)),
        Baseline::LazyTheta => Box::new(theta::ThetaPlanner::new(grid, theta::Variant::Lazy)),
        Baseline::Vg => Box::new(vg::VgPlanner::new(grid)),
    }
}
