//! The co-visible corner graph against brute force on grids: its nodes are exactly the
//! lattice points where a grid path can turn, and its edges exactly the pairs of them joined
//! by a legal segment (the grid's own exact line-of-sight rules,
//! `docs/conventions.md#which-segments-are-legal`).

use std::collections::BTreeSet;

use crate::common::grid_corners;
use proptest::prelude::*;
use taut_cpd::graph::{Corners, Graph};
use taut_cpd::{BuildParams, Cpd, NoProgress, mesh_hash};
use taut_grid::{Grid, Point};
use taut_mesh::{Mesh, mesh_from_grid};
use taut_testdata::{cell_mesh, double_corner_grid, lattice_point, random_grid, show};

fn check(g: &Grid, mesh: &Mesh) -> Result<(), TestCaseError> {
    let corners = Corners::of(mesh);
    let got: BTreeSet<Point> = corners.points().iter().map(|&p| lattice_point(p)).collect();
    let want: BTreeSet<Point> = grid_corners(g).into_iter().collect();
    prop_assert_eq!(&got, &want, "corner sets differ");
    prop_assert_eq!(got.len(), corners.len(), "a lattice corner got two nodes");
    let graph = Graph::build(mesh, &corners).expect("graph");
    // Every edge found from both ends (no union needed) and legal; every legal pair found.
    for u in 0..corners.len() as u32 {
        let mut vis = taut_mesh::VisibilitySearch::new();
        let row = taut_cpd::graph::visible_corners(mesh, &corners, u, &mut vis);
        prop_assert_eq!(
            row.as_slice(),
            graph.neighbours(u),
            "one-sided edge at {}",
            u
        );
    }
    // Edges are legal segments; a legal pair that is not an edge is joined by a chain of
    // edges of the same length (the segment runs along a line that only a zero-width cone
    // sees, through collinear corners).
    let pts: Vec<Point> = corners.points().iter().map(|&p| lattice_point(p)).collect();
    let n = pts.len();
    let mut d = vec![f64::INFINITY; n * n];
    for u in 0..n {
        d[u * n + u] = 0.0;
        for &v in graph.neighbours(u as u32) {
            let legal = g.segment_is_legal(pts[u], pts[v as usize]);
            prop_assert!(
                legal,
                "edge {:?}-{:?} is not legal\n{}",
                pts[u],
                pts[v as usize],
                show(g)
            );
            d[u * n + v as usize] = graph.weight(u as u32, v);
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = d[i * n + k] + d[k * n + j];
                if via < d[i * n + j] {
                    d[i * n + j] = via;
                }
            }
        }
    }
    // The CPD, built with taut pruning (the graph knows its corners' wedges), gives paths as
    // short as the unpruned all-pairs distances.
    prop_assert!(n == 0 || graph.turns().is_some());
    let cpd = Cpd::from_graph(
        graph.clone(),
        mesh_hash(mesh),
        &BuildParams::default(),
        &NoProgress,
    );
    for u in 0..n {
        for v in 0..n {
            let want = d[u * n + v];
            match cpd.path_length(u as u32, v as u32) {
                Some(l) => prop_assert!(
                    (l - want).abs() <= 1e-9 * want.max(1.0),
                    "cpd {}->{}: {} against {}\n{}",
                    u,
                    v,
                    l,
                    want,
                    show(g)
                ),
                None => prop_assert!(want.is_infinite(), "cpd found no path {}->{}", u, v),
            }
        }
    }
    for u in 0..n {
        for v in u + 1..n {
            if g.segment_is_legal(pts[u], pts[v]) {
                let straight = graph.point(u as u32).dist(graph.point(v as u32));
                prop_assert!(
                    (d[u * n + v] - straight).abs() <= 1e-9,
                    "{:?}-{:?} legal, graph distance {} > {}\n{}",
                    pts[u],
                    pts[v],
                    d[u * n + v],
                    straight,
                    show(g)
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn merged_mesh_graph_is_the_grid_visibility_graph(g in random_grid(14)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &mesh)?;
        }
    }

    #[test]
    fn cell_mesh_graph_is_the_grid_visibility_graph(g in random_grid(12)) {
        if let Some(mesh) = cell_mesh(&g) {
            check(&g, &mesh)?;
        }
    }

    #[test]
    fn double_corners_are_not_corners(g in double_corner_grid(14)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &mesh)?;
        }
        if let Some(mesh) = cell_mesh(&g) {
            check(&g, &mesh)?;
        }
    }
}
