//! taut: optimal shortest paths that are not tied to a grid's eight directions.
//!
//! Add this one crate and plan: [`Grid`] is a MovingAI map, [`plan`] finds the shortest
//! any-angle path between two lattice points with Anya (optimal, no preprocessing).
//!
//! ```
//! use taut::{Grid, Point};
//!
//! // '.' is free, '@' blocked; points are cell corners, x east, y south.
//! let grid = Grid::from_ascii(&[
//!     "......",
//!     "..@@..",
//!     "..@@..",
//!     "......",
//! ])
//! .unwrap();
//! let (start, goal) = (Point::new(0, 2), Point::new(5, 1));
//! let path = taut::plan(&grid, start, goal)
//!     .expect("both ends are valid")
//!     .expect("a path exists");
//! // Over the block's top-left corner, then along its top edge.
//! assert_eq!(path.waypoints, [start, Point::new(2, 1), goal]);
//! assert!((path.length - (5f64.sqrt() + 3.0)).abs() < taut::LENGTH_TOLERANCE);
//! grid.check_path(start, goal, &path.waypoints).unwrap();
//! // A query point must have its own (south-east) cell free and on the map.
//! assert!(taut::plan(&grid, start, Point::new(6, 1)).is_err());
//! ```
//!
//! Read a real map with [`Grid::read`]. For many queries, or for a planner other than Anya,
//! make a [`Map`]: it builds what planners need (mesh, CPD, hub index) once, on first use, and
//! hands out planners that own what they use (`'static`, `Send`, one per thread), so that a
//! warm query allocates nothing. [`Map::find`] answers one query with `auto`, the fastest exact
//! planner for what the map has built.
//!
//! ```
//! use taut::{Grid, Map, Point};
//!
//! let map = Map::new(Grid::read("../../fixtures/maps/arena.map")?);
//! let mut planner = map.planner(&"polyanya".parse()?)?;
//! let mut answer = taut::Answer::default();
//! planner.plan(Point::new(1, 3), Point::new(45, 40), &mut answer)?;
//! assert!((answer.length - 57.7026852465268).abs() < taut::LENGTH_TOLERANCE);
//! // The same optimum by `auto` (Polyanya now: the map has its mesh).
//! let found = map.find(Point::new(1, 3), Point::new(45, 40))?.expect("reachable");
//! assert!(taut::lengths_agree(found.length, answer.length));
//! # Ok::<(), taut::Error>(())
//! ```
//!
//! # What is in here
//! Every planner of the workspace, re-exported as a module, and the [`registry`]: the one
//! table of planner kinds ([`registry::PLANNERS`]) that knows them all by name:
//!
//! | module | what | feature |
//! |---|---|---|
//! | [`grid`] | maps, scenarios, line of sight, [`Planner`], [`Anytime`], [`Answer`] | always |
//! | [`geom`] | exact rationals and points | always |
//! | [`baselines`] | A\*, Theta\*, Lazy Theta\*, the visibility graph | always |
//! | [`anya`] | Anya: optimal any-angle paths on grids, online | always |
//! | [`mesh`] | navigation meshes: files, builders, point location | always |
//! | [`polyanya`] | Polyanya: optimal paths on navigation meshes, online | always |
//! | `cpd` | compressed path databases and End Point Search (anytime) | `cpd` |
//! | `hub` | hub labels: exact answers from a precomputed index | `hub` |
//! | `spherical` (also `sphere`) | Spherical Anya: shortest sea routes on the sphere; `SeaMap` for requests that close passages or areas, snap, and name the passages used | `spherical` |
//! | `frit` | real-time agents in unknown terrain | `frit` |
//! | `render` | pictures of maps, paths, searches, meshes, routes | `render` |
//!
//! Feature `serde` derives `Serialize`/`Deserialize` for [`Point`], [`Answer`], [`Stats`],
//! [`Status`] and [`Guarantee`].
//!
//! Every planner says what it promises ([`Planner::guarantee`]): `Optimal` planners agree
//! with each other and with independent reference optima within [`LENGTH_TOLERANCE`].

mod auto;
mod error;
mod map;
pub mod registry;
mod scheduler;
pub mod script;
mod setup;
mod world;

pub use taut_anya as anya;
pub use taut_baselines as baselines;
#[cfg(feature = "cpd")]
pub use taut_cpd as cpd;
#[cfg(feature = "frit")]
pub use taut_frit as frit;
pub use taut_geom as geom;
pub use taut_grid as grid;
#[cfg(feature = "hub")]
pub use taut_hub as hub;
pub use taut_mesh as mesh;
pub use taut_polyanya as polyanya;
#[cfg(feature = "render")]
pub use taut_render as render;
#[cfg(feature = "spherical")]
pub use taut_spherical as spherical;
/// The short name of [`spherical`]: `taut::sphere::SeaMap`.
#[cfg(feature = "spherical")]
pub use taut_spherical as sphere;

pub use auto::{CLUTTER_THRESHOLD, MapKind, RAY_CLUTTER, RAY_MIN_FREE};
pub use error::Error;
#[cfg(feature = "cpd")]
pub use map::PreparedCpd;
#[cfg(feature = "hub")]
pub use map::PreparedHub;
pub use map::{Built, Map, PreparedMesh, Source};
pub use registry::{Algo, BoxedPlanner, PlannerSpec, Sources};
pub use scheduler::{AgentId, Finished, FrameBudget, FrameReport, FrameScheduler};
pub use setup::SetupError;
pub use taut_anya::AnyaPlanner;
pub use taut_grid::{
    Answer, Anytime, FreeSet, Grid, GridError, Guarantee, LENGTH_TOLERANCE, MapFile, PathModel,
    Planner, Point, QueryError, Scenario, Stats, Status, lengths_agree, path_length,
};
pub use taut_mesh::{Mesh, mesh_from_grid};
pub use taut_polyanya::PolyanyaPlanner;
pub use world::{World, WorldPlanner};

/// The shortest any-angle path from `start` to `goal` on `grid`: `Ok(None)` when no path
/// exists. This is `auto` on a bare grid, which is Anya (nothing built, no copy of the grid);
/// for many queries make a [`Map`] and keep a planner from it (it reuses its memory).
///
/// # Errors
/// [`QueryError`] when an endpoint is off the map or on a blocked cell.
pub fn plan(grid: &Grid, start: Point, goal: Point) -> Result<Option<Answer>, QueryError> {
    let mut answer = Answer::default();
    match AnyaPlanner::new(grid).plan(start, goal, &mut answer)? {
        Status::Found => Ok(Some(answer)),
        Status::Unreachable => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_reports_errors_and_unreachable_goals() {
        let grid = Grid::from_ascii(&["..@..", "..@..", "..@.."]).unwrap();
        assert_eq!(plan(&grid, Point::new(0, 0), Point::new(4, 2)), Ok(None));
        assert!(matches!(
            plan(&grid, Point::new(2, 0), Point::new(0, 0)),
            Err(QueryError::Blocked { .. })
        ));
        assert!(matches!(
            plan(&grid, Point::new(0, 0), Point::new(9, 0)),
            Err(QueryError::OffMap { .. })
        ));
        let same = plan(&grid, Point::new(1, 1), Point::new(1, 1))
            .unwrap()
            .unwrap();
        assert_eq!(same.waypoints, [Point::new(1, 1)]);
        assert_eq!(same.length, 0.0);
    }
}

/// The README's Rust example, compiled and run as a doc test of this crate (so that the first
/// code a user reads is known to work). Only in doc tests: the README is not part of these
/// docs, which have their own example above.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExample;
