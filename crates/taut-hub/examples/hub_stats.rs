//! Builds the hub index of a grid map and runs the queries of a scenario with it and with
//! Polyanya (same mesh), printing the index's sizes, its build time, mean and median query
//! times, and how many lengths differ from Polyanya's (and from the reference optimum, when
//! the shared data is given):
//! `cargo run --release -p taut-hub --example hub_stats -- MAP SCEN [MESH] [--optimal CSV]
//! [--file HUB]`. `MESH` is a mesh file of the map (a reference merged mesh); taut's own is
//! built without it. With `--file`, the index is written to `HUB` and read back (both timed),
//! and the queries run on the index read back.

use std::sync::Arc;
use std::time::Instant;

use taut_grid::{Answer, FreeSet, Grid, MapFile, Planner, Point, Scenario, Status};
use taut_hub::{HubIndex, HubPlanner};
use taut_mesh::{mesh_from_grid, read_mesh};
use taut_polyanya::PolyanyaPlanner;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(map), Some(scen)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: hub_stats MAP SCEN [MESH] [--optimal CSV] [--file HUB]");
        std::process::exit(2);
    };
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| &args[i + 1]);
    let (optimal, hub_file) = (flag("--optimal"), flag("--file"));
    let mesh_file = args.get(3).filter(|a| !a.starts_with("--"));
    let grid = Grid::from_map(&MapFile::read(map).expect("map"), &FreeSet::default());
    let scen = Scenario::read(scen).expect("scen");
    let mesh = Arc::new(match mesh_file {
        Some(f) => read_mesh(std::path::Path::new(f)).expect("mesh"),
        None => mesh_from_grid(&grid).expect("mesh"),
    });
    let t0 = Instant::now();
    let mut index = HubIndex::build(&grid, &mesh).expect("index");
    let build = t0.elapsed().as_secs_f64();
    if let Some(f) = hub_file {
        let path = std::path::Path::new(f);
        let t = Instant::now();
        taut_hub::write_hub(path, &index).expect("write");
        let write = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let back = taut_hub::read_hub(path).expect("read");
        let read = t.elapsed().as_secs_f64();
        assert_eq!(back.stats().point_entries, index.stats().point_entries);
        println!(
            "file {:.1} MB: written in {write:.2} s, read and checked in {read:.2} s",
            std::fs::metadata(path).expect("file").len() as f64 / 1e6
        );
        index = back;
    }
    let index = Arc::new(index);
    let st = index.stats();
    println!(
        "corners {} edges {} core entries {} ({:.1}/corner); points {} entries {} ({:.1}/point); {:.1} MB; build {:.2} s",
        st.corners,
        st.edges,
        st.core_entries,
        st.core_entries as f64 / st.corners.max(1) as f64,
        st.points,
        st.point_entries,
        st.point_entries as f64 / st.points.max(1) as f64,
        st.bytes as f64 / 1e6,
        build
    );
    // The reference optimum per (start, goal), when given.
    let mut reference = std::collections::HashMap::new();
    if let Some(csv) = optimal {
        let name = std::path::Path::new(map)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        for r in taut_testdata::read_optimal_csv(std::path::Path::new(csv)).expect("csv") {
            if r.map == name
                && let Some(l) = r.len_gppc
            {
                reference.insert((Point::new(r.sx, r.sy), Point::new(r.gx, r.gy)), l);
            }
        }
    }
    let mut hub = HubPlanner::new(&grid, index).expect("same grid");
    let mut poly = PolyanyaPlanner::new(&grid, mesh);
    let (mut a, mut b) = (Answer::default(), Answer::default());
    let (mut th, mut tp) = (Vec::new(), Vec::new());
    let (mut differ, mut wrong, mut checked) = (0, 0, 0);
    for e in &scen.entries {
        let t = Instant::now();
        let sh = hub.plan(e.start, e.goal, &mut a);
        th.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        let sp = poly.plan(e.start, e.goal, &mut b);
        tp.push(t.elapsed().as_secs_f64() * 1e6);
        let same = match (&sh, &sp) {
            (Ok(Status::Found), Ok(Status::Found)) => (a.length - b.length).abs() <= 1e-6,
            (x, y) => x.is_ok() == y.is_ok() && x.as_ref().ok() == y.as_ref().ok(),
        };
        differ += usize::from(!same);
        if let Some(&l) = reference.get(&(e.start, e.goal)) {
            checked += 1;
            let ok = if l < 0.0 {
                sh.is_err()
            } else {
                sh.as_ref().ok() == Some(&Status::Found) && (a.length - l).abs() <= 1e-6
            };
            wrong += usize::from(!ok);
        }
    }
    let summary = |t: &mut Vec<f64>| {
        let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
        t.sort_by(f64::total_cmp);
        (mean, t.get(t.len() / 2).copied().unwrap_or(0.0))
    };
    let ((hm, hmed), (pm, pmed)) = (summary(&mut th), summary(&mut tp));
    println!(
        "{} queries: hub {:.2} / {:.2} µs (mean / median), polyanya {:.1} / {:.1} µs; lengths differing from polyanya's {}; against the reference {} wrong of {}",
        scen.entries.len(),
        hm,
        hmed,
        pm,
        pmed,
        differ,
        wrong,
        checked
    );
}
