//! Hub labels: exact Euclidean shortest paths on grid maps by merging two sorted lists.
//!
//! Every shortest path between two points of a grid map that do not see each other turns
//! only at convex corners of obstacles. taut-hub precomputes, after Du, Shen and Cheema's
//! Euclidean Hub Labeling (AAAI 2023), in two layers:
//! - the **core** ([`CoreLabels`]): pruned landmark labels over the co-visible corner graph
//!   of `taut_cpd` (Akiba, Iwata and Yoshida's pruned labelling). For any two connected
//!   corners some hub lies in both labels on a shortest path between them;
//! - a **point label** for every lattice point a query can use ([`HubIndex`]): for each hub,
//!   the length of a shortest path from the point and the corner it goes to first, built from
//!   the labels of the corners the point sees.
//!
//! A query ([`HubPlanner`]) merges the two ends' labels by hub rank and takes the best sum.
//! When the straight segment could be shorter it checks line of sight with the grid's
//! endpoint rules. The path is recovered hub by hub through the core. Answers are exact:
//! `docs/hub.md` gives the argument, and the tests compare every answer with Anya and with
//! the visibility graph.
//!
//! # Example
//! ```
//! use std::sync::Arc;
//! use taut_grid::{Answer, Grid, Planner, Point, Status};
//! use taut_hub::{HubIndex, HubPlanner};
//!
//! let grid = Grid::from_ascii(&["......", ".@@...", "......", "......"]).unwrap();
//! let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
//! let index = Arc::new(HubIndex::build(&grid, &mesh).unwrap());
//! let mut planner = HubPlanner::new(&grid, index).unwrap();
//! let mut answer = Answer::default();
//! let status = planner.plan(Point::new(0, 1), Point::new(3, 2), &mut answer).unwrap();
//! assert_eq!(status, Status::Found);
//! // Under the block, round its bottom-left corner (1, 2).
//! assert_eq!(answer.waypoints, [Point::new(0, 1), Point::new(1, 2), Point::new(3, 2)]);
//! ```

mod core;
mod error;
mod file;
mod index;
mod order;
mod point;
mod query;
mod region;
mod sight;
mod turn_order;
mod turns;

pub use crate::core::{CoreEntry, CoreLabels};
pub use error::HubError;
pub use file::{
    FORMAT_VERSION, HUB_MAGIC, HubHeader, checksum, decode_hub, encode_hub, read_hub,
    read_hub_header, write_hub, write_hub_to,
};
pub use index::{HubIndex, HubStats};
pub use point::PointEntry;
pub use query::HubPlanner;
pub use region::MAX_REGION;
