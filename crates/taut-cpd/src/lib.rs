//! Compressed path databases on navigation meshes, and End Point Search.
//!
//! Shen, Cheema, Harabor and Stuckey (IJCAI 2020) answer Euclidean shortest-path queries on a
//! static map with preprocessing:
//! - [`Corners`]: the convex corners of a mesh's obstacles (the only points where shortest
//!   paths turn);
//! - [`Graph`]: which corners see each other (the co-visible graph), found by one
//!   observable-only Polyanya expansion per corner;
//! - a compressed path database: for every pair of corners, the first move of a shortest
//!   path, run-length encoded per source row;
//! - End Point Search: two resumable visibility searches from the query's ends meet through
//!   the database, giving a first path within microseconds and a proven optimum soon after.
//!
//! `examples/eps_cpd_file.rs` is a whole program: it builds a map's CPD, writes and reads it
//! back, answers a query optimally and then anytime, and shows a stale CPD refused
//! (`cargo run --release -p taut-cpd --example eps_cpd_file`).

mod corners;
mod cpd;
mod eps;
mod error;
mod facade;
mod file;
mod firstmove;
mod graph;
mod order;
mod progress;
mod rle;
mod shard;

pub use corners::{Corners, NO_CORNER};
pub use cpd::{BuildParams, Cpd, CpdStats, MAX_TIE_TOLERANCE, Move};
pub use eps::{Eps, EpsContext, EpsPlanner, EpsStats, Solution, Step, Stop};
pub use error::{CpdError, GraphError, ShardSpecError};
pub use facade::{
    GRAPH_PHASE, build_cpd, build_shard, find_shard_files, merge_shard_files, parse_shard_path,
    shard_path, write_cpd_atomic, write_shard_atomic,
};
pub use file::{
    CPD_MAGIC, CpdHeader, FORMAT_VERSION, SHARD_MAGIC, decode_cpd, decode_shard, encode_cpd,
    encode_shard, mesh_hash, read_cpd, read_cpd_header, read_shard, read_shard_header, write_cpd,
    write_shard,
};
pub use firstmove::{FirstMoveContext, RowData};
pub use graph::{Graph, visible_corners};
pub use order::NodeOrder;
pub use progress::{NoProgress, Progress};
pub use shard::{CpdShard, ShardSpec, merge_shards};
