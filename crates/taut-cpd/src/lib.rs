//! Compressed path databases on navigation meshes, and End Point Search.
//!
//! Shen, Cheema, Harabor and Stuckey (IJCAI 2020) answer Euclidean shortest-path queries on a
//! static map with preprocessing:
//! - [`graph::Corners`]: the convex corners of a mesh's obstacles (the only points where shortest
//!   paths turn);
//! - [`graph::Graph`]: which corners see each other (the co-visible graph), found by one
//!   observable-only Polyanya expansion per corner;
//! - a compressed path database: for every pair of corners, the first move of a shortest
//!   path, run-length encoded per source row;
//! - End Point Search: two resumable visibility searches from the query's ends meet through
//!   the database, giving a first path within microseconds and a proven optimum soon after.
//!
//! At the root: building ([`build_cpd`], refusing up front a database larger than a limit,
//! [`estimate`]), reading and writing ([`read_cpd`], [`write_cpd`],
//! versioned files that name the mesh they belong to, `docs/cpd-format.md`) and End Point
//! Search ([`Eps`], [`EpsContext`], [`EpsPlanner`], anytime through [`taut_grid::Anytime`]).
//! The modules hold the parts: [`graph`] (corners and the co-visible graph), [`shard`]
//! (building in pieces and merging), [`encoding`] (the bytes of the files) and [`rows`] (one
//! row of the database).
//!
//! # Example
//! ```
//! use std::sync::Arc;
//! use taut_cpd::{BuildParams, Eps, EpsPlanner, NoProgress, Stop, build_cpd};
//! use taut_grid::{Answer, Grid, Planner, Point, Status};
//!
//! let grid = Grid::from_ascii(&["......", ".@@...", "......", "......"]).unwrap();
//! let mesh = Arc::new(taut_mesh::mesh_from_grid(&grid).unwrap());
//! let cpd = build_cpd(&mesh, &BuildParams::default(), &NoProgress).unwrap();
//! let eps = Arc::new(Eps::new(mesh, Arc::new(cpd)).unwrap());
//! let mut planner = EpsPlanner::new(&grid, eps, Stop::Optimal);
//! let mut answer = Answer::default();
//! let status = planner.plan(Point::new(0, 1), Point::new(3, 2), &mut answer).unwrap();
//! assert_eq!(status, Status::Found);
//! // Under the block, round its bottom-left corner (1, 2).
//! assert_eq!(answer.waypoints, [Point::new(0, 1), Point::new(1, 2), Point::new(3, 2)]);
//! ```
//!
//! `examples/eps_cpd_file.rs` is a whole program: it builds a map's CPD, writes and reads it
//! back, answers a query optimally and then anytime, and shows a stale CPD refused
//! (`cargo run --release -p taut-cpd --example eps_cpd_file`).

mod cpd;
mod eps;
mod error;
pub mod estimate;
mod facade;
mod file;
mod firstmove;
pub mod graph;
mod order;
mod progress;
mod rle;
mod sharding;

pub use cpd::{BuildParams, Cpd, CpdStats, MAX_TIE_TOLERANCE, Move};
pub use eps::{Eps, EpsContext, EpsPlanner, EpsStats, Solution, Step, Stop};
pub use error::CpdError;
pub use facade::{GRAPH_PHASE, build_cpd, build_cpd_within, estimate_cpd, write_cpd_atomic};
pub use file::{CpdHeader, FORMAT_VERSION, mesh_hash, read_cpd, read_cpd_header, write_cpd};
pub use progress::{NoProgress, Progress};

/// The byte encodings of CPD and shard files, without the file system (`docs/cpd-format.md`):
/// what the readers and writers use, exposed for fuzzing and for tools that store CPDs
/// elsewhere.
pub mod encoding {
    pub use crate::file::{
        CPD_MAGIC, SHARD_MAGIC, decode_cpd, decode_shard, encode_cpd, encode_shard,
    };
}

/// Shards: a CPD built in pieces of source rows by separate processes, then merged.
pub mod shard {
    pub use crate::error::ShardSpecError;
    pub use crate::facade::{
        build_shard, build_shard_within, find_shard_files, merge_shard_files, parse_shard_path,
        shard_path, write_shard_atomic,
    };
    pub use crate::file::{SHARD_MAGIC, read_shard, read_shard_header, write_shard};
    pub use crate::sharding::{CpdShard, ShardSpec, merge_shards};
}

/// Building one source row of the database: the first-move search from one corner and its
/// run-length encoding, exposed for measuring and testing a build row by row.
pub mod rows {
    pub use crate::firstmove::{FirstMoveContext, RowData};
}
