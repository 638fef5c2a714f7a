//! Builds the CPD of a grid map and runs the queries of a scenario with End Point Search and
//! Polyanya, printing mean times and EPS counters (the paper's Table 3 columns):
//! `cargo run --release -p taut-cpd --example eps_stats -- MAP SCEN [STRIDE]`.

use std::sync::Arc;
use std::time::Instant;

use taut_cpd::graph::{Corners, Graph};
use taut_cpd::{BuildParams, Cpd, Eps, EpsPlanner, NoProgress, Stop, mesh_hash};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Planner, Scenario};
use taut_mesh::mesh_from_grid;
use taut_polyanya::PolyanyaPlanner;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(map), Some(scen)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: eps_stats MAP SCEN [STRIDE]");
        std::process::exit(2);
    };
    let stride: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let grid = Grid::from_map(&MapFile::read(map).expect("map"), &FreeSet::default());
    let scen = Scenario::read(scen).expect("scen");
    let t0 = Instant::now();
    let mesh = Arc::new(mesh_from_grid(&grid).expect("mesh"));
    let corners = Corners::of(&mesh);
    let graph = Graph::build(&mesh, &corners).expect("graph");
    let t1 = Instant::now();
    // A fourth argument names a CPD file to reuse (built and written if absent).
    let cached = args.get(4).map(std::path::PathBuf::from);
    let cpd = match cached.as_ref().and_then(|p| taut_cpd::read_cpd(p).ok()) {
        Some(c) => c,
        None => {
            let c = Cpd::from_graph(
                graph,
                mesh_hash(&mesh),
                &BuildParams::default(),
                &NoProgress,
            );
            if let Some(p) = &cached {
                taut_cpd::write_cpd(p, &c).expect("write");
            }
            c
        }
    };
    let t2 = Instant::now();
    let st = cpd.stats();
    println!(
        "corners {} edges {} runs {} ({:.2} runs/row) {:.3} MB; graph {:.2} s, rows {:.2} s",
        st.nodes,
        st.edges,
        st.runs,
        st.runs as f64 / st.nodes.max(1) as f64,
        st.run_bytes as f64 / 1e6,
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64()
    );
    let eps = Arc::new(Eps::new(mesh.clone(), Arc::new(cpd)).expect("eps"));
    let mut answer = Answer::default();
    for (name, stop) in [("eps", Stop::Optimal), ("eps-first", Stop::First)] {
        let mut p = EpsPlanner::new(&grid, eps.clone(), stop);
        let (mut n, mut secs) = (0usize, 0.0);
        let (mut kept, mut paths, mut fm, mut exp) = (0u64, 0u64, 0u64, 0u64);
        for e in scen.entries.iter().step_by(stride) {
            let t = Instant::now();
            if p.plan(e.start, e.goal, &mut answer).is_err() {
                continue;
            }
            secs += t.elapsed().as_secs_f64();
            n += 1;
            let s = p.last_stats();
            kept += u64::from(s.kept[0] + s.kept[1]);
            paths += s.paths;
            fm += s.first_moves;
            exp += s.expanded;
        }
        let m = |x: u64| x as f64 / n.max(1) as f64;
        println!(
            "{name}: {n} queries, {:.1} µs; kept corners {:.1}, paths {:.1}, first moves {:.1}, expanded {:.1}",
            1e6 * secs / n.max(1) as f64,
            m(kept),
            m(paths),
            m(fm),
            m(exp)
        );
    }
    let mut p = PolyanyaPlanner::new(&grid, mesh);
    let (mut n, mut secs) = (0usize, 0.0);
    for e in scen.entries.iter().step_by(stride) {
        let t = Instant::now();
        if p.plan(e.start, e.goal, &mut answer).is_err() {
            continue;
        }
        secs += t.elapsed().as_secs_f64();
        n += 1;
    }
    println!(
        "polyanya: {n} queries, {:.1} µs",
        1e6 * secs / n.max(1) as f64
    );
}
