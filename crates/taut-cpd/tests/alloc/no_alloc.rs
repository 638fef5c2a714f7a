//! A warm first-move context allocates nothing per row
//! (`docs/architecture.md#immutable-data-reusable-context`): every row of a random
//! graph is computed once to warm a [`FirstMoveContext`] and the output buffers, then again
//! under a counting allocator, which must see no allocation.
//!
//! In the `alloc` test binary, not `it`, because `allocation-counter` installs the global
//! allocator (its counts are per thread).

use taut_cpd::graph::{Graph, NodeOrder};
use taut_cpd::rows::{FirstMoveContext, RowData};
use taut_mesh::MeshPoint;

#[test]
fn a_warm_context_allocates_nothing() {
    let n = 300u32;
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pts = (0..n)
        .map(|i| {
            MeshPoint::new(
                f64::from(i % 20),
                f64::from(i / 20) + (next() % 100) as f64 * 1e-3,
            )
        })
        .collect();
    let mut edges = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            if next() % 40 == 0 {
                edges.push((u, v));
            }
        }
    }
    let g = Graph::from_points_and_edges(pts, &edges).unwrap();
    assert!(g.max_degree() > 0);
    let order = NodeOrder::dfs(&g);
    let data = RowData::new(&g);
    let mut ctx = FirstMoveContext::new();
    let (mut starts, mut symbols) = (Vec::new(), Vec::new());
    let mut run = |ctx: &mut FirstMoveContext, runs: &mut Vec<usize>| {
        for s in 0..n {
            starts.clear();
            symbols.clear();
            ctx.row(&g, &order, &data, 1e-9, s, &mut starts, &mut symbols);
            runs.push(starts.len());
        }
    };
    let (mut first, mut second) = (
        Vec::with_capacity(n as usize),
        Vec::with_capacity(n as usize),
    );
    let warm = allocation_counter::measure(|| run(&mut ctx, &mut first));
    assert!(warm.count_total > 0, "the warm-up pass should allocate");
    let info = allocation_counter::measure(|| run(&mut ctx, &mut second));
    assert_eq!(first, second);
    assert_eq!(
        info.count_total, 0,
        "the second pass allocated {} times ({} bytes)",
        info.count_total, info.bytes_total
    );
}
