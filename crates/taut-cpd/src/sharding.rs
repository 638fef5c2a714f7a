//! Shards: a CPD built in pieces of source rows by separate processes, then merged. The
//! public paths are in `shard` (the crate root), with the readers, writers and builders.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use crate::cpd::{BuildParams, Cpd, Symbols, build_rows};
use crate::error::CpdError;
use crate::error::ShardSpecError;
use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::progress::Progress;

/// Shard `index` of `count` (0-based), written and parsed as `"index/count"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShardSpec {
    /// Which shard, below `count`.
    pub index: u32,
    /// How many shards, at least 1.
    pub count: u32,
}

impl ShardSpec {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// [`ShardSpecError`] when `count` is 0 or `index >= count`.
    pub fn new(index: u32, count: u32) -> Result<ShardSpec, ShardSpecError> {
        if count == 0 {
            return Err(ShardSpecError::ZeroCount);
        }
        if index >= count {
            return Err(ShardSpecError::IndexOutOfRange { index, count });
        }
        Ok(ShardSpec { index, count })
    }

    /// The source rows of this shard in a graph of `nodes` nodes:
    /// `index·nodes/count .. (index+1)·nodes/count`.
    pub fn rows(&self, nodes: usize) -> Range<u32> {
        let at = |i: u32| (u64::from(i) * nodes as u64 / u64::from(self.count)) as u32;
        at(self.index)..at(self.index + 1)
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = ShardSpecError;

    fn from_str(s: &str) -> Result<ShardSpec, ShardSpecError> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| ShardSpecError::Syntax(s.to_string()))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|_| ShardSpecError::Syntax(s.to_string()))
        };
        ShardSpec::new(num(i)?, num(n)?)
    }
}

/// The rows of one shard of a CPD, with everything needed to check it belongs with the
/// others (mesh hash, parameters, graph).
#[derive(Debug, Clone, PartialEq)]
pub struct CpdShard {
    pub(crate) spec: ShardSpec,
    pub(crate) graph: Graph,
    pub(crate) order: NodeOrder,
    /// Offsets of the shard's rows into its runs, starting at 0.
    pub(crate) row_off: Vec<u64>,
    pub(crate) starts: Vec<u32>,
    pub(crate) symbols: Symbols,
    pub(crate) params: BuildParams,
    pub(crate) mesh_hash: [u8; 32],
}

impl CpdShard {
    /// Builds the rows of shard `shard` (see [`ShardSpec::rows`]) of the CPD of `graph`, in
    /// parallel on the current rayon pool.
    ///
    /// # Panics
    /// When `params` is invalid ([`BuildParams::validate`]).
    pub fn from_graph(
        graph: &Graph,
        mesh_hash: [u8; 32],
        params: &BuildParams,
        shard: ShardSpec,
        progress: &dyn Progress,
    ) -> CpdShard {
        let order = NodeOrder::dfs(graph);
        let rows = shard.rows(graph.node_count());
        let (row_off, starts, symbols) = build_rows(graph, &order, params, rows, progress);
        CpdShard {
            spec: shard,
            graph: graph.clone(),
            order,
            row_off,
            starts,
            symbols,
            params: *params,
            mesh_hash,
        }
    }

    /// Which shard this is.
    #[inline]
    pub fn spec(&self) -> ShardSpec {
        self.spec
    }

    /// The source rows it holds.
    pub fn rows(&self) -> Range<u32> {
        self.spec.rows(self.graph.node_count())
    }

    /// The hash of the mesh.
    #[inline]
    pub fn mesh_hash(&self) -> &[u8; 32] {
        &self.mesh_hash
    }

    /// The build parameters.
    #[inline]
    pub fn params(&self) -> &BuildParams {
        &self.params
    }

    /// The graph.
    #[inline]
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Number of runs.
    pub fn runs(&self) -> usize {
        self.starts.len()
    }
}

/// Joins the shards of one CPD, given in any order, into the CPD a single build would give
/// (its file is byte-identical).
///
/// # Errors
/// [`CpdError::NoShards`], [`CpdError::ShardMismatch`] when a shard has a different shard
/// count, mesh hash, parameters or graph than the first, [`CpdError::DuplicateShard`],
/// [`CpdError::MissingShard`].
pub fn merge_shards(mut shards: Vec<CpdShard>) -> Result<Cpd, CpdError> {
    let first = shards.first().ok_or(CpdError::NoShards)?;
    let count = first.spec.count;
    for s in &shards[1..] {
        let what = if s.spec.count != count {
            "shard count"
        } else if s.mesh_hash != first.mesh_hash {
            "mesh hash"
        } else if s.params != first.params {
            "build parameters"
        } else if s.graph != first.graph {
            "graph"
        } else if s.order != first.order {
            "node order"
        } else {
            continue;
        };
        return Err(CpdError::ShardMismatch {
            shard: s.spec.to_string(),
            first: first.spec.to_string(),
            what,
        });
    }
    shards.sort_by_key(|s| s.spec.index);
    for (i, s) in shards.iter().enumerate() {
        if i > 0 && shards[i - 1].spec.index == s.spec.index {
            return Err(CpdError::DuplicateShard {
                index: s.spec.index,
                count,
            });
        }
    }
    // Sorted, distinct and below `count`: the first position holding another index names the
    // missing one.
    for i in 0..count {
        if shards.get(i as usize).map(|s| s.spec.index) != Some(i) {
            return Err(CpdError::MissingShard { index: i, count });
        }
    }
    let runs: usize = shards.iter().map(|s| s.starts.len()).sum();
    let mut iter = shards.into_iter();
    let first = iter.next().expect("at least one shard");
    let mut row_off = first.row_off;
    let mut starts = first.starts;
    starts.reserve(runs - starts.len());
    let mut symbols = first.symbols;
    for s in iter {
        let base = *row_off.last().expect("row offsets start at 0");
        row_off.extend(s.row_off[1..].iter().map(|&o| o + base));
        starts.extend_from_slice(&s.starts);
        match (&mut symbols, &s.symbols) {
            (Symbols::U16(a), Symbols::U16(b)) => a.extend_from_slice(b),
            (Symbols::U32(a), Symbols::U32(b)) => a.extend_from_slice(b),
            _ => {
                return Err(CpdError::Corrupt(
                    "shards disagree on the symbol width".to_string(),
                ));
            }
        }
    }
    Ok(Cpd::from_parts(
        first.graph,
        first.order,
        row_off,
        &starts,
        &symbols,
        first.params,
        first.mesh_hash,
    ))
}
