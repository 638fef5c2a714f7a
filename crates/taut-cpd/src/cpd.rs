//! The compressed path database: for every source and target node of a [`Graph`], the first
//! move of a shortest path, run-length encoded per source row.

use rayon::prelude::*;

use crate::error::CpdError;
use crate::firstmove::FirstMoveContext;
use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::progress::Progress;
use crate::rle::DIRECT;

/// Largest tie tolerance accepted (exclusive).
pub const MAX_TIE_TOLERANCE: f64 = 1e-3;

/// Parameters of a CPD build, stored in its file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildParams {
    /// A path counts as optimal when its length is at most `best · (1 + tie_tolerance)`
    /// (see [`FirstMoveContext`] for why ties need a tolerance). Default `1e-9`; finite, at
    /// least 0 and below [`MAX_TIE_TOLERANCE`].
    pub tie_tolerance: f64,
}

impl Default for BuildParams {
    fn default() -> Self {
        BuildParams {
            tie_tolerance: 1e-9,
        }
    }
}

impl BuildParams {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`CpdError::Params`] when the tolerance is not finite, negative, or at least
    /// [`MAX_TIE_TOLERANCE`].
    pub fn validate(&self) -> Result<(), CpdError> {
        let t = self.tie_tolerance;
        if t.is_finite() && (0.0..MAX_TIE_TOLERANCE).contains(&t) {
            Ok(())
        } else {
            Err(CpdError::Params(format!(
                "the tie tolerance {t} is not in [0, {MAX_TIE_TOLERANCE})"
            )))
        }
    }
}

/// The first move from a source towards a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// The source is the target.
    Arrived,
    /// Go straight to the target (the symbol E: the two are neighbours, and the segment
    /// between co-visible points is a shortest path).
    Direct,
    /// Go to this neighbour of the source.
    Via(u32),
}

/// Symbols of the runs, 16 bits wide when every node has fewer than 65,535 neighbours. E is
/// the largest value of the width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Symbols {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Symbols {
    /// Whether a graph of this largest degree needs 32-bit symbols.
    pub(crate) fn wide_for(max_degree: usize) -> bool {
        max_degree >= u16::MAX as usize
    }

    pub(crate) fn new(wide: bool) -> Symbols {
        if wide {
            Symbols::U32(Vec::new())
        } else {
            Symbols::U16(Vec::new())
        }
    }

    /// Appends row symbols (`DIRECT` for E).
    pub(crate) fn extend(&mut self, row: &[u32]) {
        match self {
            Symbols::U16(v) => v.extend(
                row.iter()
                    .map(|&x| if x == DIRECT { u16::MAX } else { x as u16 }),
            ),
            Symbols::U32(v) => v.extend_from_slice(row),
        }
    }

    /// Symbol `i` (`DIRECT` for E).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Symbols::U16(v) => {
                let x = v[i];
                if x == u16::MAX { DIRECT } else { u32::from(x) }
            }
            Symbols::U32(v) => v[i],
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Symbols::U16(v) => v.len(),
            Symbols::U32(v) => v.len(),
        }
    }

    pub(crate) fn width_bits(&self) -> u8 {
        match self {
            Symbols::U16(_) => 16,
            Symbols::U32(_) => 32,
        }
    }

    pub(crate) fn bytes(&self) -> usize {
        self.len() * usize::from(self.width_bits() / 8)
    }
}

/// Computes the rows of sources `rows` in parallel on the current rayon pool and concatenates
/// them in source order: (row offsets starting at 0, run starts, symbols).
pub(crate) fn build_rows(
    graph: &Graph,
    order: &NodeOrder,
    params: &BuildParams,
    rows: std::ops::Range<u32>,
    progress: &dyn Progress,
) -> (Vec<u64>, Vec<u32>, Symbols) {
    if let Err(e) = params.validate() {
        panic!("invalid build parameters: {e}");
    }
    progress.begin("first-move rows", u64::from(rows.end - rows.start));
    let tol = params.tie_tolerance;
    let per_row: Vec<(Vec<u32>, Vec<u32>)> = rows
        .into_par_iter()
        .map_init(
            || (FirstMoveContext::new(), Vec::new(), Vec::new()),
            |(ctx, starts, symbols), s| {
                starts.clear();
                symbols.clear();
                ctx.row(graph, order, tol, s, starts, symbols);
                progress.advance(1);
                (starts.clone(), symbols.clone())
            },
        )
        .collect();
    let total: usize = per_row.iter().map(|r| r.0.len()).sum();
    let mut row_off = Vec::with_capacity(per_row.len() + 1);
    let mut starts = Vec::with_capacity(total);
    let mut symbols = Symbols::new(Symbols::wide_for(graph.max_degree()));
    row_off.push(0u64);
    for (st, sy) in per_row {
        starts.extend_from_slice(&st);
        symbols.extend(&sy);
        row_off.push(starts.len() as u64);
    }
    (row_off, starts, symbols)
}

/// A compressed path database: for every pair of nodes of its graph, the first move of a
/// shortest path. Immutable, `Send + Sync`.
///
/// Lookups for a pair of nodes in different components are meaningless (the row stores a
/// wildcard there): [`Cpd::first_move`] returns some move, and [`Cpd::path`] detects that the
/// walk never reaches the target and returns `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cpd {
    pub(crate) graph: Graph,
    pub(crate) order: NodeOrder,
    /// Row `s` is runs `row_off[s]..row_off[s + 1]`.
    pub(crate) row_off: Vec<u64>,
    /// First column of each run.
    pub(crate) starts: Vec<u32>,
    pub(crate) symbols: Symbols,
    pub(crate) params: BuildParams,
    pub(crate) mesh_hash: [u8; 32],
}

/// Sizes of a CPD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpdStats {
    /// Nodes of the graph.
    pub nodes: usize,
    /// Undirected edges of the graph.
    pub edges: usize,
    /// Largest degree.
    pub max_degree: usize,
    /// Runs over all rows.
    pub runs: usize,
    /// Runs per row on average.
    pub runs_per_row: f64,
    /// Bytes of the run arrays (starts and symbols).
    pub run_bytes: usize,
    /// Heap bytes of the whole structure (graph, order, offsets, runs).
    pub total_bytes: usize,
    /// Width of a stored symbol in bits (16 or 32).
    pub symbol_bits: u8,
    /// The build parameters.
    pub params: BuildParams,
}

impl Cpd {
    /// Builds the CPD of `graph`: one Dijkstra per source, rows computed in parallel on the
    /// current rayon pool (set the number of threads with `ThreadPoolBuilder::install`) and
    /// assembled in source order, so the result does not depend on the number of threads.
    /// `mesh_hash` identifies the mesh the graph was built from (see [`crate::mesh_hash`]).
    ///
    /// # Panics
    /// When `params` is invalid ([`BuildParams::validate`]).
    pub fn from_graph(
        graph: Graph,
        mesh_hash: [u8; 32],
        params: &BuildParams,
        progress: &dyn Progress,
    ) -> Cpd {
        let order = NodeOrder::dfs(&graph);
        let n = graph.node_count() as u32;
        let (row_off, starts, symbols) = build_rows(&graph, &order, params, 0..n, progress);
        Cpd {
            graph,
            order,
            row_off,
            starts,
            symbols,
            params: *params,
            mesh_hash,
        }
    }

    /// The first move from `s` towards `t`: a binary search in `s`'s runs for `t`'s column.
    ///
    /// # Panics
    /// When `s` or `t` is not a node.
    #[inline]
    pub fn first_move(&self, s: u32, t: u32) -> Move {
        if s == t {
            return Move::Arrived;
        }
        let col = self.order.column(t);
        let (a, b) = (
            self.row_off[s as usize] as usize,
            self.row_off[s as usize + 1] as usize,
        );
        let run = a + self.starts[a..b].partition_point(|&c| c <= col) - 1;
        match self.symbols.get(run) {
            DIRECT => Move::Direct,
            k => Move::Via(self.graph.neighbours(s)[k as usize]),
        }
    }

    /// The next node from `s` towards `t`: `s` itself when `s == t`, `t` for a direct move,
    /// else the neighbour to go through.
    ///
    /// # Panics
    /// When `s` or `t` is not a node.
    #[inline]
    pub fn next_hop(&self, s: u32, t: u32) -> u32 {
        match self.first_move(s, t) {
            Move::Arrived => s,
            Move::Direct => t,
            Move::Via(u) => u,
        }
    }

    /// Length of the path from `s` to `t` that the first moves give, or `None` when they do
    /// not lead to `t` (see [`Cpd::path`]).
    pub fn path_length(&self, s: u32, t: u32) -> Option<f64> {
        self.walk(s, t, |_| {})
    }

    /// Writes to `out` the nodes of the path from `s` to `t` (both included) that the first
    /// moves give, and returns its length. `None` when `s` or `t` is not a node, the walk
    /// does not reach `t` within `node_count` steps (the pair is not connected), or it meets
    /// a direct move to a non-neighbour (an unreachable pair's wildcard). Never loops.
    pub fn path(&self, s: u32, t: u32, out: &mut Vec<u32>) -> Option<f64> {
        out.clear();
        self.walk(s, t, |u| out.push(u))
    }

    fn walk(&self, s: u32, t: u32, mut visit: impl FnMut(u32)) -> Option<f64> {
        let n = self.graph.node_count();
        if s as usize >= n || t as usize >= n {
            return None;
        }
        visit(s);
        let mut cur = s;
        let mut length = 0.0;
        for _ in 0..n {
            let next = match self.first_move(cur, t) {
                Move::Arrived => return Some(length),
                Move::Direct => {
                    self.graph.neighbours(cur).binary_search(&t).ok()?;
                    t
                }
                Move::Via(u) => u,
            };
            length += self.graph.weight(cur, next);
            visit(next);
            cur = next;
        }
        (cur == t).then_some(length)
    }

    /// Sizes.
    pub fn stats(&self) -> CpdStats {
        let nodes = self.graph.node_count();
        let runs = self.starts.len();
        let run_bytes = runs * 4 + self.symbols.bytes();
        CpdStats {
            nodes,
            edges: self.graph.edge_count(),
            max_degree: self.graph.max_degree(),
            runs,
            runs_per_row: if nodes == 0 {
                0.0
            } else {
                runs as f64 / nodes as f64
            },
            run_bytes,
            total_bytes: run_bytes
                + self.graph.heap_bytes()
                + self.order.len() * 8
                + self.row_off.len() * 8
                + std::mem::size_of::<Cpd>(),
            symbol_bits: self.symbols.width_bits(),
            params: self.params,
        }
    }

    /// The build parameters.
    #[inline]
    pub fn params(&self) -> &BuildParams {
        &self.params
    }

    /// The hash of the mesh the CPD was built for.
    #[inline]
    pub fn mesh_hash(&self) -> &[u8; 32] {
        &self.mesh_hash
    }

    /// Checks that the CPD was built for the mesh of hash `mesh_hash`.
    ///
    /// # Errors
    /// [`CpdError::StaleMesh`] naming both hashes' prefixes.
    pub fn check_mesh(&self, mesh_hash: &[u8; 32]) -> Result<(), CpdError> {
        if &self.mesh_hash == mesh_hash {
            Ok(())
        } else {
            Err(CpdError::StaleMesh {
                expected: hex_prefix(mesh_hash),
                found: hex_prefix(&self.mesh_hash),
            })
        }
    }

    /// The graph.
    #[inline]
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The column order of the rows.
    #[inline]
    pub fn order(&self) -> &NodeOrder {
        &self.order
    }

    /// Number of runs of row `s`.
    ///
    /// # Panics
    /// When `s` is not a node.
    pub fn row_runs(&self, s: u32) -> usize {
        (self.row_off[s as usize + 1] - self.row_off[s as usize]) as usize
    }
}

/// The first 8 bytes of a hash in hexadecimal.
pub(crate) fn hex_prefix(h: &[u8; 32]) -> String {
    h[..8].iter().map(|b| format!("{b:02x}")).collect()
}
