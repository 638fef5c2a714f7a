//! End Point Search with a compressed path database kept in a file: build the CPD of a map's
//! mesh, write it, read it back, pair it with the mesh, answer a query optimally and then
//! anytime, and see a stale CPD (built before the map changed) refused.
//!
//! ```text
//! cargo run --release -p taut-cpd --example eps_cpd_file
//! ```
//!
//! It reads `fixtures/maps/arena.map` and answers one of its scenario's queries. The CPD file
//! goes to the system's temporary directory and is removed at the end.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use taut_cpd::{BuildParams, Eps, EpsPlanner, NoProgress, Stop, build_cpd, read_cpd, write_cpd};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Planner, Point, Status, lengths_agree};
use taut_mesh::mesh_from_grid;

fn main() -> Result<(), Box<dyn Error>> {
    let map_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/maps/arena.map");
    let grid = Grid::from_map(&MapFile::read(&map_path)?, &FreeSet::default());
    // Lattice points: the top-left corners of cells (39, 6) and (12, 40).
    let (start, goal) = (Point::new(39, 6), Point::new(12, 40));
    let mesh = Arc::new(mesh_from_grid(&grid)?);

    // Preprocessing, once per map: the mesh's convex corners, which corners see each other,
    // and for every pair of corners the first move of a shortest path, run-length encoded
    // (rows in parallel on rayon's pool). `NoProgress` reports nothing while it runs.
    let t = Instant::now();
    let cpd = build_cpd(&mesh, &BuildParams::default(), &NoProgress)?;
    let st = cpd.stats();
    println!(
        "arena.map: CPD of {} corners, {} co-visible pairs, {} runs, built in {:.1} ms",
        st.nodes,
        st.edges,
        st.runs,
        t.elapsed().as_secs_f64() * 1e3
    );

    // The file records the hash of the mesh it was built for; reading it back checks its
    // format version and checksum.
    let file = std::env::temp_dir().join(format!("taut-eps-example-{}.cpd", std::process::id()));
    write_cpd(&file, &cpd)?;
    let bytes = std::fs::metadata(&file)?.len();
    let read_back = read_cpd(&file);
    std::fs::remove_file(&file)?;
    let cpd = Arc::new(read_back?);
    println!(
        "written to {} ({bytes} bytes) and read back",
        file.display()
    );

    // Pairing a CPD with a mesh checks that it was built from this very mesh.
    let eps = Arc::new(Eps::new(Arc::clone(&mesh), Arc::clone(&cpd))?);

    // 1. Optimal: End Point Search as a grid planner like any other.
    let mut planner = EpsPlanner::new(&grid, eps, Stop::Optimal);
    let mut answer = Answer::default();
    if planner.plan(start, goal, &mut answer)? == Status::Unreachable {
        println!("{start} -> {goal}: no path");
        return Ok(());
    }
    let path: Vec<String> = answer.waypoints.iter().map(|p| p.to_string()).collect();
    println!(
        "{start} -> {goal}: optimal length {:.6}\n  path: {}",
        answer.length,
        path.join(" ")
    );
    grid.check_path(start, goal, &answer.waypoints)?;

    // 2. Anytime: a first path at once, then strictly shorter ones, and last the optimum
    //    again with its proof. A caller short of time stops asking and takes `best`.
    let anytime = planner
        .anytime()
        .expect("End Point Search is an anytime planner");
    let mut solutions = Vec::new();
    let t = Instant::now();
    anytime.start(start, goal)?;
    while let Some(s) = anytime.next_solution() {
        solutions.push((t.elapsed(), s));
    }
    for (at, s) in solutions {
        println!(
            "  anytime after {:5.1} µs: length {:.6}, lower bound {:.6}{}",
            at.as_secs_f64() * 1e6,
            s.length,
            s.lower_bound,
            if s.optimal { " (proven optimal)" } else { "" }
        );
    }
    let mut best = Answer::default();
    anytime.best(&mut best);
    assert!(lengths_agree(best.length, answer.length));

    // 3. A stale CPD is refused: after the map changes (here the goal's cell is blocked), its
    //    mesh is another one, and the CPD built before the change no longer fits it.
    let (w, h) = (grid.width() as u32, grid.height() as u32);
    let changed = Grid::from_fn(w, h, |x, y| {
        let p = Point::new(x as i32, y as i32);
        grid.is_free(p.x, p.y) && p != goal
    });
    match Eps::new(Arc::new(mesh_from_grid(&changed)?), cpd) {
        Err(e) => println!("with the goal's cell blocked, the old CPD is refused: {e}"),
        Ok(_) => return Err("a stale CPD was accepted".into()),
    }
    Ok(())
}
