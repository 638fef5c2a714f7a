//! Grid maps for any-angle path planning.
//!
//! - [`MapFile`] and [`Scenario`] read and write MovingAI `.map` and `.scen` files of every
//!   generation, with typed errors that name the file and line.
//! - [`Grid`] is the compact, bit-packed map planners search (editable between queries, with a
//!   version that caches check): padded with blocked
//!   cells so that border checks vanish, with lattice-point queries (corner, double corner).
//! - [`Grid::segment_is_legal`] and [`Grid::check_path`] are the exact line-of-sight test and
//!   path-legality checker implementing the conventions of `docs/conventions.md`.
//! - [`Answer`], [`Stats`], [`Status`] and [`Planner`] are the one answer shape all planners share;
//!   [`Guarantee`] is what a planner promises about its lengths, compared within
//!   [`LENGTH_TOLERANCE`]; [`Anytime`] is the interface of planners that improve over time,
//!   [`Stepper`] that of searches run a budget at a time, and [`Limit`] bounds any query
//!   ([`Planner::plan_within`]).
//!
//! # Example
//! ```
//! use taut_grid::{FreeSet, Grid, MapFile, Scenario};
//! use taut_geom::Point;
//!
//! let map = MapFile::parse(b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n").unwrap();
//! let grid = Grid::from_map(&map, &FreeSet::default());
//! // The segment from (0, 0) to (4, 3) would cut through the blocked cells.
//! assert!(!grid.segment_is_legal(Point::new(0, 0), Point::new(4, 3)));
//! // Going around the top of the obstacle is fine.
//! let path = [Point::new(0, 2), Point::new(1, 1), Point::new(3, 1), Point::new(3, 2)];
//! assert!(grid.check_path(path[0], path[3], &path).is_ok());
//!
//! let scen = Scenario::parse(b"version 1\n0\tm.map\t4\t3\t0\t2\t3\t2\t3.00000000\n").unwrap();
//! assert_eq!(scen.entries[0].goal, Point::new(3, 2));
//! assert!(grid.check_query(scen.entries[0].start, scen.entries[0].goal).is_ok());
//! ```

mod error;
mod grid;
mod los;
mod map;
mod plan;
mod scen;
mod terrain;

pub use error::{EditError, Endpoint, GridError, Location, ParseErrorKind, QueryError};
pub use grid::{CellRect, Grid, quad};
pub use los::{LENGTH_TOLERANCE, PathViolation, lengths_agree, path_length};
pub use map::{MAX_SIDE, MapFile};
pub use plan::{
    Answer, Anytime, Factor, Guarantee, Improvement, IndexInfo, Limit, LimitKind, LimitReached,
    PathModel, PlanError, Planner, Stats, Status, Step, Stepper, TraceEvent, Tracer, begin_query,
    plan_stepped,
};
pub use scen::{LengthStyle, ScenEntry, ScenFormat, Scenario};
pub use terrain::{FreeSet, MOVINGAI_ALPHABET};

pub use taut_geom::{Point, Rational};

#[cfg(test)]
mod tests;
