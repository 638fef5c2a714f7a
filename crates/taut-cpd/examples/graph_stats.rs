//! Builds the corner graph of each grid map given on the command line and prints its size
//! and build time: `cargo run --release -p taut-cpd --example graph_stats -- MAP...`.

use std::time::Instant;

use taut_cpd::graph::{Corners, Graph};
use taut_grid::{FreeSet, Grid, MapFile};
use taut_mesh::mesh_from_grid;

fn main() {
    println!("map,vertices,polygons,corners,edges,max_degree,mesh_s,graph_s");
    for path in std::env::args().skip(1) {
        let grid = match MapFile::read(&path) {
            Ok(m) => Grid::from_map(&m, &FreeSet::default()),
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let t0 = Instant::now();
        let Ok(mesh) = mesh_from_grid(&grid) else {
            eprintln!("{path}: no free cell");
            continue;
        };
        let t1 = Instant::now();
        let corners = Corners::of(&mesh);
        let graph = Graph::build(&mesh, &corners).expect("graph");
        let t2 = Instant::now();
        println!(
            "{},{},{},{},{},{},{:.3},{:.3}",
            path.rsplit('/').next().unwrap_or(&path),
            mesh.vertex_count(),
            mesh.polygon_count(),
            corners.len(),
            graph.edge_count(),
            graph.max_degree(),
            (t1 - t0).as_secs_f64(),
            (t2 - t1).as_secs_f64()
        );
    }
}
