//! Polyanya on the navigation mesh of a grid map: the mesh, a grid query, and the same trip
//! as a mesh query between points that are not lattice points.
//!
//! ```text
//! cargo run --release -p taut-polyanya --example polyanya_grid_mesh
//! ```
//!
//! It reads `fixtures/maps/arena.map` and answers one of its scenario's queries. Grid points
//! are lattice points: the top-left corner of a cell, x east, y south. The mesh's coordinates
//! are the grid's.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use taut_grid::{Answer, FreeSet, Grid, MapFile, Planner, Point, Status};
use taut_mesh::{MeshAnswer, MeshPoint, mesh_from_grid};
use taut_polyanya::{Options, PolyanyaPlanner, SearchContext};

fn main() -> Result<(), Box<dyn Error>> {
    let map_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/maps/arena.map");
    let grid = Grid::from_map(&MapFile::read(&map_path)?, &FreeSet::default());
    // Lattice points: the top-left corners of cells (39, 6) and (12, 40).
    let (start, goal) = (Point::new(39, 6), Point::new(12, 40));

    // The mesh of the free space, in the grid's lattice coordinates: a constrained Delaunay
    // triangulation of the free cells, merged into convex polygons. It is immutable and
    // `Send + Sync`; an `Arc` lets any number of planners share it.
    let t = Instant::now();
    let mesh = Arc::new(mesh_from_grid(&grid)?);
    println!(
        "arena.map: {} free cells -> mesh of {} vertices and {} convex polygons, area {}, in {:.2} ms",
        grid.free_cells(),
        mesh.vertex_count(),
        mesh.polygon_count(),
        mesh.area(),
        t.elapsed().as_secs_f64() * 1e3
    );

    // 1. A grid query, as every grid planner answers it: both ends are checked against the
    //    grid, and an end where two obstacles touch diagonally belongs to its south-east cell.
    let mut polyanya = PolyanyaPlanner::new(&grid, Arc::clone(&mesh));
    let mut answer = Answer::default();
    match polyanya.plan(start, goal, &mut answer)? {
        Status::Unreachable => println!("grid query {start} -> {goal}: no path"),
        Status::Found => {
            let path: Vec<String> = answer.waypoints.iter().map(|p| p.to_string()).collect();
            println!(
                "grid query {start} -> {goal}: length {:.6}, {} nodes expanded\n  path: {}",
                answer.length,
                answer.stats.expanded,
                path.join(" ")
            );
            grid.check_path(start, goal, &answer.waypoints)?;
        }
    }

    // 2. A raw mesh query: any two points of the mesh, here the centres of the start's and
    //    goal's cells. The search context is what the planner above wraps; reuse it across
    //    queries. A point off the mesh (in a blocked cell) is refused with an error.
    let centre = |p: Point| MeshPoint::new(f64::from(p.x) + 0.5, f64::from(p.y) + 0.5);
    let (s, t) = (centre(start), centre(goal));
    let mut ctx = SearchContext::new();
    let mut mesh_answer = MeshAnswer::default();
    match ctx.search(&mesh, s, t, &Options::default(), &mut mesh_answer) {
        Ok(Status::Found) => {
            let path: Vec<String> = mesh_answer
                .waypoints
                .iter()
                .map(|p| p.to_string())
                .collect();
            println!(
                "mesh query {s} -> {t}: length {:.6}, {} nodes expanded\n  path: {}",
                mesh_answer.length,
                mesh_answer.stats.expanded,
                path.join(" ")
            );
        }
        Ok(Status::Unreachable) => println!("mesh query {s} -> {t}: no path"),
        Err(e) => println!("mesh query {s} -> {t} refused: {e}"),
    }
    Ok(())
}
