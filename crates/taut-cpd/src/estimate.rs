//! What a CPD build will cost, known before its rows are built: the size check that refuses
//! a database too large for the machine up front instead of failing after hours.
//!
//! A CPD of `n` nodes has at most `n` runs per row. When even that bound fits the limit, no
//! row is built to check it. Otherwise a sample of rows spread over the node numbering (which
//! follows the mesh's Hilbert order, so over the map) is built and timed, and the mean runs
//! and time per row are scaled to all `n` rows.

use std::time::Instant;

use rayon::prelude::*;

use crate::cpd::{BuildParams, Runs, Symbols};
use crate::error::CpdError;
use crate::firstmove::{FirstMoveContext, RowData};
use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::progress::Progress;

/// The default largest CPD a build accepts: 8 GB of runs, graph and offsets (what a query
/// process holds in memory). Raise it with [`crate::build_cpd_within`] (`--max-size` in the
/// CLI and `cargo xtask preprocess`).
pub const DEFAULT_MAX_BYTES: u64 = 8_000_000_000;

/// Rows built to estimate a CPD's size (all rows of a smaller graph).
pub const SAMPLE_ROWS: usize = 64;

/// Name of the estimation phase reported to [`Progress::begin`] (total: the sampled rows).
pub const ESTIMATE_PHASE: &str = "estimate";

/// The estimated cost of building a CPD, from a sample of its rows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpdEstimate {
    /// Nodes (rows) of the graph.
    pub nodes: usize,
    /// Undirected edges of the graph.
    pub edges: usize,
    /// Rows built for the estimate.
    pub sampled_rows: usize,
    /// Mean runs per sampled row.
    pub runs_per_row: f64,
    /// Estimated heap bytes of the CPD ([`crate::CpdStats::total_bytes`]): what a process
    /// that answers queries holds.
    pub bytes: u64,
    /// Estimated largest bytes a one-process build holds in its graph, run arrays and their
    /// buffers (the rows as computed, the assembled and packed arrays, the file's encoding).
    /// The mesh, the map, the graph's construction and the program come on top
    /// (`benchmarks/results/2026-11-26-cpd-53/` gives both figures for the shared maps).
    pub buffer_bytes: u64,
    /// Mean thread-seconds per sampled row.
    pub row_seconds: f64,
}

impl CpdEstimate {
    /// Estimated seconds of the row phase on `threads` threads (rows are independent, so the
    /// phase scales with the threads).
    pub fn row_phase_seconds(&self, threads: usize) -> f64 {
        self.row_seconds * self.nodes as f64 / threads.max(1) as f64
    }
}

/// Bytes per run in memory (one packed word), bytes per run in the build's buffers (see
/// [`CpdEstimate::buffer_bytes`]) and the fixed bytes (graph, order, offsets).
fn byte_model(graph: &Graph) -> (u64, u64, u64) {
    let n = graph.node_count() as u64;
    let word = if Runs::fits_32(graph.node_count(), graph.max_degree()) {
        4
    } else {
        8
    };
    let symbol = if Symbols::wide_for(graph.max_degree()) {
        4
    } else {
        2
    };
    let fixed = graph.heap_bytes() as u64 + 8 * n + 8 * (n + 1);
    // While rows are assembled: each computed row's 4-byte starts and symbols, and the
    // concatenated starts and file-width symbols; then those and the packed words. Writing
    // the file holds the packed words, unpacked starts and symbols and the encoded bytes
    // (at most as many again).
    let buffers = (8 + 4 + symbol).max(word + 2 * (4 + symbol));
    (word, buffers, fixed)
}

/// The largest a CPD of `graph` can be: every row one run per column.
pub fn upper_bound_bytes(graph: &Graph) -> u64 {
    let n = graph.node_count() as u64;
    let (per_run, _, fixed) = byte_model(graph);
    n.saturating_mul(n)
        .saturating_mul(per_run)
        .saturating_add(fixed)
}

/// Estimates the CPD of `graph` by building `sample` rows (spread evenly over the node
/// numbering; every row when the graph has no more nodes) in parallel on the current rayon
/// pool, reporting the [`ESTIMATE_PHASE`] to `progress`.
///
/// # Errors
/// [`CpdError::Params`] for invalid parameters.
pub fn estimate(
    graph: &Graph,
    order: &NodeOrder,
    params: &BuildParams,
    sample: usize,
    progress: &dyn Progress,
) -> Result<CpdEstimate, CpdError> {
    params.validate()?;
    let n = graph.node_count();
    let k = sample.clamp(1, n.max(1)).min(n);
    progress.begin(ESTIMATE_PHASE, k as u64);
    let data = RowData::new(graph);
    let tol = params.tie_tolerance;
    // Row i·n/k + n/(2k): the middle of each of k equal slices of the numbering.
    let (runs, secs) = (0..k)
        .into_par_iter()
        .map_init(
            || (FirstMoveContext::new(), Vec::new(), Vec::new()),
            |(ctx, starts, symbols), i| {
                let s = ((2 * i + 1) * n / (2 * k)) as u32;
                starts.clear();
                symbols.clear();
                let t = Instant::now();
                ctx.row(graph, order, &data, tol, s, starts, symbols);
                let secs = t.elapsed().as_secs_f64();
                progress.advance(1);
                (starts.len() as u64, secs)
            },
        )
        .reduce(|| (0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let (per_run, buffers, fixed) = byte_model(graph);
    let runs_per_row = if k == 0 { 0.0 } else { runs as f64 / k as f64 };
    let total_runs = (runs_per_row * n as f64).ceil() as u64;
    let bytes = total_runs.saturating_mul(per_run).saturating_add(fixed);
    let buffer_bytes = total_runs.saturating_mul(buffers).saturating_add(fixed);
    Ok(CpdEstimate {
        nodes: n,
        edges: graph.edge_count(),
        sampled_rows: k,
        runs_per_row,
        bytes,
        buffer_bytes,
        row_seconds: if k == 0 { 0.0 } else { secs / k as f64 },
    })
}

/// Refuses a CPD of `graph` that would be larger than `max_bytes`: nothing is built when
/// even [`upper_bound_bytes`] fits, else [`SAMPLE_ROWS`] rows are sampled ([`estimate`]).
///
/// # Errors
/// [`CpdError::TooLarge`] with the estimate and the limit; [`CpdError::Params`] for invalid
/// parameters.
pub(crate) fn check_size(
    graph: &Graph,
    params: &BuildParams,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<(), CpdError> {
    if upper_bound_bytes(graph) <= max_bytes {
        return Ok(());
    }
    let order = NodeOrder::dfs(graph);
    let e = estimate(graph, &order, params, SAMPLE_ROWS, progress)?;
    if e.bytes > max_bytes {
        return Err(CpdError::TooLarge {
            estimated: e.bytes,
            limit: max_bytes,
            sampled: e.sampled_rows,
            nodes: e.nodes,
        });
    }
    Ok(())
}

/// Parses a size limit: bytes, or a number with a decimal (`K`, `M`, `G`, `T`, optionally
/// followed by `B`) or binary (`KiB`, `MiB`, `GiB`, `TiB`) unit, e.g. `500M`, `12GB`, `1.5GiB`;
/// `none` for no limit (`u64::MAX`).
///
/// # Errors
/// A message naming the text when it is not such a size.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(u64::MAX);
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" => 1_000,
        "M" | "MB" => 1_000_000,
        "G" | "GB" => 1_000_000_000,
        "T" | "TB" => 1_000_000_000_000,
        "KIB" => 1 << 10,
        "MIB" => 1 << 20,
        "GIB" => 1 << 30,
        "TIB" => 1 << 40,
        _ => {
            return Err(format!(
                "'{text}' is not a size (e.g. 500M, 12G, 1.5GiB, none)"
            ));
        }
    };
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a size (e.g. 500M, 12G, 1.5GiB, none)"))?;
    let bytes = value * scale as f64;
    if !(bytes.is_finite() && bytes >= 0.0 && bytes < u64::MAX as f64) {
        return Err(format!("'{text}' is not a size that fits in 64 bits"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn sizes_parse_with_decimal_and_binary_units() {
        assert_eq!(parse_size("123"), Ok(123));
        assert_eq!(parse_size("500M"), Ok(500_000_000));
        assert_eq!(parse_size("12GB"), Ok(12_000_000_000));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size(" 2 kib "), Ok(2048));
        assert_eq!(parse_size("none"), Ok(u64::MAX));
        for bad in ["", "G", "12X", "-1G", "1e3", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    /// A random grid's graph, dense enough that rows have many runs.
    fn graph() -> Graph {
        let grid = taut_grid::Grid::from_fn(40, 40, |x, y| (x * 7 + y * 13 + x * y) % 9 != 0);
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        let corners = taut_mesh::corners::Corners::of(&mesh);
        Graph::build(&mesh, &corners).unwrap()
    }

    #[test]
    fn a_full_sample_estimates_the_built_cpd_exactly() {
        let g = graph();
        let n = g.node_count();
        assert!(n > 100, "{n} nodes");
        let order = NodeOrder::dfs(&g);
        let params = BuildParams::default();
        let e = estimate(&g, &order, &params, n, &NoProgress).unwrap();
        let cpd = crate::Cpd::from_graph(g.clone(), [0; 32], &params, &NoProgress);
        let s = cpd.stats();
        assert_eq!(e.sampled_rows, n);
        assert_eq!((e.runs_per_row * n as f64).round() as usize, s.runs);
        // The byte model counts what `stats` counts, but the struct itself.
        let model = s.total_bytes - std::mem::size_of::<crate::Cpd>();
        assert_eq!(e.bytes, model as u64);
        assert!(e.buffer_bytes > e.bytes && e.row_seconds > 0.0);
        assert!(upper_bound_bytes(&g) >= e.bytes);
        // A sample lands near the whole.
        let part = estimate(&g, &order, &params, SAMPLE_ROWS, &NoProgress).unwrap();
        assert_eq!(part.sampled_rows, SAMPLE_ROWS);
        let ratio = part.runs_per_row / e.runs_per_row;
        assert!(
            (0.5..2.0).contains(&ratio),
            "sample/whole runs per row {ratio}"
        );
    }

    #[test]
    fn a_cpd_over_the_limit_is_refused_before_its_rows_and_one_under_it_is_not() {
        let g = graph();
        let params = BuildParams::default();
        let order = NodeOrder::dfs(&g);
        let e = estimate(&g, &order, &params, SAMPLE_ROWS, &NoProgress).unwrap();
        // Under the upper bound nothing is sampled; above the estimate the build goes on.
        assert!(check_size(&g, &params, upper_bound_bytes(&g), &NoProgress).is_ok());
        assert!(check_size(&g, &params, e.bytes, &NoProgress).is_ok());
        let err = check_size(&g, &params, e.bytes / 2, &NoProgress).unwrap_err();
        match err {
            CpdError::TooLarge {
                estimated,
                limit,
                sampled,
                nodes,
            } => {
                assert_eq!((estimated, limit), (e.bytes, e.bytes / 2));
                assert_eq!((sampled, nodes), (SAMPLE_ROWS, g.node_count()));
            }
            other => panic!("{other}"),
        }
        assert!(err.to_string().contains("--max-size"), "{err}");
    }
}
