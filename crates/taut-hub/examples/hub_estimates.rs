//! The size estimates that `--budget` decides by, beside the sizes of the indexes built: for
//! each region side 1, 2, 4, 8, 16 and 32, the estimate (`HubIndex::estimate_sizes`), the
//! size built (`HubIndex::build_with_regions`, in memory and on disk) and their ratio:
//! `cargo run --release -p taut-hub --example hub_estimates -- MAP [MAP...]`.

use std::time::Instant;

use taut_grid::{FreeSet, Grid, MapFile};
use taut_hub::HubIndex;
use taut_mesh::mesh_from_grid;

const SIDES: [u32; 6] = [1, 2, 4, 8, 16, 32];

fn main() {
    let maps: Vec<String> = std::env::args().skip(1).collect();
    if maps.is_empty() {
        eprintln!("usage: hub_estimates MAP [MAP...]");
        std::process::exit(2);
    }
    println!("| map | side | estimate MB | built MB | estimate / built | estimate s | build s |");
    println!("|---|---|---|---|---|---|---|");
    for map in &maps {
        let grid = Grid::from_map(&MapFile::read(map).expect("map"), &FreeSet::default());
        let mesh = mesh_from_grid(&grid).expect("mesh");
        let t = Instant::now();
        let estimates = HubIndex::estimate_sizes(&grid, &mesh, &SIDES).expect("estimates");
        // The core is built once for all sides; its time is spread over them.
        let estimate_secs = t.elapsed().as_secs_f64() / SIDES.len() as f64;
        let name = std::path::Path::new(map)
            .file_stem()
            .map_or_else(|| map.clone(), |s| s.to_string_lossy().into_owned());
        for (g, estimate) in SIDES.iter().zip(estimates) {
            let t = Instant::now();
            let index = HubIndex::build_with_regions(&grid, &mesh, *g).expect("index");
            let build_secs = t.elapsed().as_secs_f64();
            let built = index.size_bytes();
            println!(
                "| {name} | {g} | {:.1} | {:.1} | {:.3} | {estimate_secs:.2} | {build_secs:.2} |",
                estimate as f64 / 1e6,
                built as f64 / 1e6,
                estimate as f64 / built as f64
            );
        }
    }
}
