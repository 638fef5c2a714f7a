//! The compressed path database: for every source and target node of a [`Graph`], the first
//! move of a shortest path, run-length encoded per source row.

use rayon::prelude::*;

use crate::error::CpdError;
use crate::firstmove::{FirstMoveContext, RowData};
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
}

/// The runs of every row, packed for lookups: run `i` is one word, its first column shifted
/// left by `shift` bits above its symbol (all ones in those bits for E), so that the binary
/// search of a row and the symbol it finds read the same cache line. 32-bit words when
/// columns and symbols fit, else 64-bit. Files keep starts and symbols apart
/// (`docs/cpd-format.md`); this is the in-memory form only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Runs {
    W32 { words: Vec<u32>, shift: u32 },
    W64 { words: Vec<u64>, shift: u32 },
}

impl Runs {
    /// Bits of the symbol field for a graph of this largest degree: symbols are below the
    /// degree, and E is the all-ones value above them.
    fn shift_for(max_degree: usize) -> u32 {
        (usize::BITS - max_degree.leading_zeros()).max(1)
    }

    /// Whether 32-bit words hold the runs of a graph of `nodes` nodes and this degree.
    pub(crate) fn fits_32(nodes: usize, max_degree: usize) -> bool {
        let shift = Self::shift_for(max_degree);
        shift < 32 && (nodes as u64) <= 1u64 << (32 - shift)
    }

    /// Packs `starts` and `symbols` (same length, symbols below `max_degree` or `DIRECT`).
    pub(crate) fn pack(starts: &[u32], symbols: &Symbols, nodes: usize, max_degree: usize) -> Runs {
        let shift = Self::shift_for(max_degree);
        let mask = (1u64 << shift) - 1;
        let word = |i: usize| {
            let sym = symbols.get(i);
            let sym = if sym == DIRECT { mask } else { u64::from(sym) };
            (u64::from(starts[i]) << shift) | sym
        };
        if Self::fits_32(nodes, max_degree) {
            Runs::W32 {
                words: (0..starts.len()).map(|i| word(i) as u32).collect(),
                shift,
            }
        } else {
            Runs::W64 {
                words: (0..starts.len()).map(word).collect(),
                shift,
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Runs::W32 { words, .. } => words.len(),
            Runs::W64 { words, .. } => words.len(),
        }
    }

    pub(crate) fn bytes(&self) -> usize {
        match self {
            Runs::W32 { words, .. } => words.len() * 4,
            Runs::W64 { words, .. } => words.len() * 8,
        }
    }

    /// (first column, symbol) of run `i` (`DIRECT` for E).
    fn get(&self, i: usize) -> (u32, u32) {
        let (w, shift) = match self {
            Runs::W32 { words, shift } => (u64::from(words[i]), *shift),
            Runs::W64 { words, shift } => (words[i], *shift),
        };
        let mask = (1u64 << shift) - 1;
        let sym = w & mask;
        (
            (w >> shift) as u32,
            if sym == mask { DIRECT } else { sym as u32 },
        )
    }

    /// The symbol of the run of `a..b` (one row) that holds column `col`.
    #[inline]
    fn symbol_in(&self, a: usize, b: usize, col: u32) -> u32 {
        // The largest word of a run starting at `col`: a run starts at or before `col` exactly
        // when its word is at most this (no shift inside the search). It fits the word:
        // columns are below 2^(width - shift).
        let (w, shift) = match self {
            Runs::W32 { words, shift } => {
                let row = &words[a..b];
                let key = (col << shift) | ((1u32 << shift) - 1);
                let i = row.partition_point(|&w| w <= key) - 1;
                (u64::from(row[i]), *shift)
            }
            Runs::W64 { words, shift } => {
                let row = &words[a..b];
                let key = (u64::from(col) << shift) | ((1u64 << shift) - 1);
                let i = row.partition_point(|&w| w <= key) - 1;
                (row[i], *shift)
            }
        };
        let mask = (1u64 << shift) - 1;
        let sym = w & mask;
        if sym == mask { DIRECT } else { sym as u32 }
    }

    /// The starts and symbols again (symbols as wide as a file of `max_degree` stores them).
    pub(crate) fn unpack(&self, max_degree: usize) -> (Vec<u32>, Symbols) {
        let (starts, syms): (Vec<u32>, Vec<u32>) = (0..self.len()).map(|i| self.get(i)).unzip();
        let mut symbols = Symbols::new(Symbols::wide_for(max_degree));
        symbols.extend(&syms);
        (starts, symbols)
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
    let data = RowData::new(graph);
    let per_row: Vec<(Vec<u32>, Vec<u32>)> = rows
        .into_par_iter()
        .map_init(
            || (FirstMoveContext::new(), Vec::new(), Vec::new()),
            |(ctx, starts, symbols), s| {
                starts.clear();
                symbols.clear();
                ctx.row(graph, order, &data, tol, s, starts, symbols);
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
    pub(crate) runs: Runs,
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
    /// Bytes of the runs in memory (each run one 32- or 64-bit word: first column and
    /// symbol).
    pub run_bytes: usize,
    /// Heap bytes of the whole structure (graph, order, offsets, runs).
    pub total_bytes: usize,
    /// Width of a symbol in the file, in bits (16 or 32).
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
        Cpd::from_parts(graph, order, row_off, &starts, &symbols, *params, mesh_hash)
    }

    /// A CPD from checked parts: the runs of all rows as starts and symbols (a file's form).
    pub(crate) fn from_parts(
        graph: Graph,
        order: NodeOrder,
        row_off: Vec<u64>,
        starts: &[u32],
        symbols: &Symbols,
        params: BuildParams,
        mesh_hash: [u8; 32],
    ) -> Cpd {
        let runs = Runs::pack(starts, symbols, graph.node_count(), graph.max_degree());
        Cpd {
            graph,
            order,
            row_off,
            runs,
            params,
            mesh_hash,
        }
    }

    /// The starts and symbols of all runs (a file's form).
    pub(crate) fn unpacked(&self) -> (Vec<u32>, Symbols) {
        self.runs.unpack(self.graph.max_degree())
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
        self.first_move_in_column(s, self.order.column(t))
    }

    /// [`Cpd::first_move`] towards the target in column `col` of the rows
    /// ([`NodeOrder::column`]), for a caller that looks up many sources towards one target.
    /// The source's own column holds the wildcard: some move, meaningless.
    ///
    /// # Panics
    /// When `s` is not a node.
    #[inline]
    pub fn first_move_in_column(&self, s: u32, col: u32) -> Move {
        match self.symbol_in_column(s, col) {
            DIRECT => Move::Direct,
            k => Move::Via(self.graph.neighbours(s)[k as usize]),
        }
    }

    /// The stored symbol of [`Cpd::first_move_in_column`]: the index of the neighbour in
    /// `s`'s list, or [`DIRECT`] (E).
    #[inline]
    pub(crate) fn symbol_in_column(&self, s: u32, col: u32) -> u32 {
        let (a, b) = (
            self.row_off[s as usize] as usize,
            self.row_off[s as usize + 1] as usize,
        );
        self.runs.symbol_in(a, b, col)
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
        let runs = self.runs.len();
        let run_bytes = self.runs.bytes();
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
            symbol_bits: if Symbols::wide_for(self.graph.max_degree()) {
                32
            } else {
                16
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_runs_give_back_their_starts_and_symbols_in_both_widths() {
        let starts = [0u32, 3, 9, 0, 1, 70_000];
        for (nodes, max_degree) in [(70_001, 5), (70_001, 70_000), (1 << 30, 3)] {
            let wide = Symbols::wide_for(max_degree);
            let mut symbols = Symbols::new(wide);
            let top = (max_degree - 1) as u32;
            symbols.extend(&[DIRECT, 0, top, 1, DIRECT, top]);
            let runs = Runs::pack(&starts, &symbols, nodes, max_degree);
            assert_eq!(
                matches!(runs, Runs::W32 { .. }),
                Runs::fits_32(nodes, max_degree)
            );
            assert_eq!(runs.unpack(max_degree), (starts.to_vec(), symbols.clone()));
            // Row 0 is runs 0..3, row 1 runs 3..6.
            for (col, want) in [
                (0, DIRECT),
                (2, DIRECT),
                (3, 0),
                (8, 0),
                (9, top),
                (69_999, top),
            ] {
                assert_eq!(runs.symbol_in(0, 3, col), want, "row 0 column {col}");
            }
            for (col, want) in [(0, 1), (1, DIRECT), (69_999, DIRECT), (70_000, top)] {
                assert_eq!(runs.symbol_in(3, 6, col), want, "row 1 column {col}");
            }
        }
        assert!(!Runs::fits_32(70_001, 70_000));
        assert!(Runs::fits_32(1 << 20, 4095));
        assert!(!Runs::fits_32((1 << 20) + 1, 4095));
    }
}
