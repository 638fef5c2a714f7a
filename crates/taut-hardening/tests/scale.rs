//! Scale: a generated 10,000 × 10,000 map (10^8 cells) is read from `.map` text within a
//! stated memory bound, and Anya, Polyanya (on taut's mesh of it) and A* answer on it: Anya
//! and Polyanya agree within 1e-9 (relative), A*'s octile length is no shorter, and every
//! path passes `Grid::check_path`.
//!
//! Memory is measured with a counting allocator (`allocation-counter`, this file's own test
//! binary): peak and retained heap bytes on this thread. Work that rayon spreads to other
//! threads (the mesh builder's) is not counted; its retained result is, through
//! `Mesh`'s size. The figures, per cell, are the table in `docs/hardening.md`; the bounds
//! asserted are those figures with headroom, so a regression that doubles any of them fails.
//!
//! About 5 s in release mode on the CI machine. A*'s per-cell arrays take 16 bytes per cell (1.5 GiB
//! here); its open list grows on top with the cells it generates.
//!
//! Its own test binary, not a module of `tests/it/`: the counting allocator would serve that
//! whole binary, and the timings want a process to themselves.

use std::sync::Arc;

use taut::anya::{Options, RootHistory, SearchContext};
use taut::baselines::astar::AStarPlanner;
use taut::grid::{Answer, FreeSet, Grid, MapFile, Planner, Point, Status};
use taut::mesh::mesh_from_grid;
use taut::polyanya::PolyanyaPlanner;
use taut_hardening::maps::SplitMix;

const SIDE: u32 = 10_000;
const CELLS: f64 = (SIDE as f64) * (SIDE as f64);

/// The `.map` text of a 10,000 × 10,000 map: open ground with 1,500 rectangular obstacles
/// (2 to 120 cells a side) and a long wall with three gaps, all from a fixed seed.
fn map_text() -> Vec<u8> {
    let w = SIDE as usize;
    let mut rows = vec![b'.'; w * w];
    let mut rng = SplitMix::new(2026);
    for _ in 0..1500 {
        let (x0, y0) = (
            rng.below(SIDE as u64) as usize,
            rng.below(SIDE as u64) as usize,
        );
        let (rw, rh) = (2 + rng.below(119) as usize, 2 + rng.below(119) as usize);
        for y in y0..(y0 + rh).min(w) {
            rows[y * w + x0..y * w + (x0 + rw).min(w)].fill(b'@');
        }
    }
    // A wall across the middle, open only at three gaps.
    let wall = w / 2;
    for x in 0..w {
        if x % 3333 >= 4 {
            rows[wall * w + x] = b'T';
        }
    }
    let mut text = format!("type octile\nheight {SIDE}\nwidth {SIDE}\nmap\n").into_bytes();
    text.reserve(rows.len() + w);
    for row in rows.chunks(w) {
        text.extend_from_slice(row);
        text.push(b'\n');
    }
    text
}

fn mib(bytes: impl Into<f64>) -> f64 {
    bytes.into() / (1024.0 * 1024.0)
}

#[test]
fn a_map_of_10_to_the_8_cells_loads_within_bounds_and_every_planner_answers() {
    let text = map_text();
    // Reading: the parser keeps one byte per cell (the terrain characters) and nothing else
    // of size; the grid is one bit per cell plus its padding.
    let mut map = None;
    let parse = allocation_counter::measure(|| map = Some(MapFile::parse(&text).unwrap()));
    let map = map.unwrap();
    drop(text);
    let mut grid = None;
    let to_grid = allocation_counter::measure(|| {
        grid = Some(Grid::from_map(&map, &FreeSet::default()));
    });
    let grid = grid.unwrap();
    drop(map);
    let parse_per_cell = parse.bytes_max as f64 / CELLS;
    let grid_per_cell = grid.heap_bytes() as f64 / CELLS;
    eprintln!(
        "MapFile::parse peak {:.1} MiB ({parse_per_cell:.3} B/cell); Grid {:.1} MiB ({grid_per_cell:.4} B/cell, build peak {:.1} MiB)",
        mib(parse.bytes_max as f64),
        mib(grid.heap_bytes() as f64),
        mib(to_grid.bytes_max as f64)
    );
    assert!(
        parse_per_cell <= 1.1,
        "parsing holds {parse_per_cell} bytes per cell"
    );
    assert!(
        grid_per_cell <= 0.13,
        "the grid holds {grid_per_cell} bytes per cell"
    );
    assert!(to_grid.bytes_max as f64 / CELLS <= 0.15);

    let mesh = Arc::new(mesh_from_grid(&grid).unwrap());
    eprintln!(
        "mesh: {} vertices, {} polygons",
        mesh.vertex_count(),
        mesh.polygon_count()
    );

    let far = (SIDE - 1) as i32;
    let queries = [
        (Point::new(0, 0), Point::new(far, far)),
        (Point::new(far, 0), Point::new(0, far)),
        (Point::new(5, 4_000), Point::new(9_990, 6_000)),
        (Point::new(2_500, 10), Point::new(2_600, 9_980)),
    ];
    // Anya with its default options: the root history picks the hashed table on a map this
    // size (the flat one costs 16 bytes per lattice point, 1.6 GB here, paged in on the first
    // query); the hashed one grows with the roots touched.
    let options = Options::default();
    let points = (SIDE as usize + 1) * (SIDE as usize + 1);
    assert_eq!(options.history.resolve(points), RootHistory::Hash);
    let mut anya = SearchContext::new();
    let mut polyanya = PolyanyaPlanner::new(&grid, mesh.clone());
    let (mut a, mut p) = (Answer::default(), Answer::default());
    let mut found = 0;
    for (s, t) in queries {
        let started = std::time::Instant::now();
        let sa = anya.search(&grid, s, t, &options, &mut a).unwrap();
        let ta = started.elapsed();
        let sp = polyanya.plan(s, t, &mut p).unwrap();
        let tp = started.elapsed() - ta;
        assert_eq!(sa, sp, "{s} -> {t}");
        eprintln!(
            "{s} -> {t}: {sa:?} anya {:.3} ({} expansions, {ta:.1?}), polyanya {:.3} ({tp:.1?})",
            a.length, a.stats.expanded, p.length
        );
        if sa != Status::Found {
            continue;
        }
        found += 1;
        assert!((a.length - p.length).abs() <= 1e-9 * a.length, "{s} -> {t}");
        for (name, ans) in [("anya", &a), ("polyanya", &p)] {
            if let Err(v) = grid.check_path(s, t, &ans.waypoints) {
                panic!("{name}: {s} -> {t}: {v}");
            }
        }
    }
    assert!(found >= 3, "only {found} of the queries have a path");
    // The same queries again on the warm context: nothing allocated, and the context's
    // buffers (its peak memory, since they only grow) stay what the first pass left.
    let anya_bytes = anya.heap_bytes();
    let warm = allocation_counter::measure(|| {
        for (s, t) in queries {
            anya.search(&grid, s, t, &options, &mut a).unwrap();
        }
    });
    eprintln!(
        "anya context (default options: hashed history): {:.1} MiB; warm pass allocated {} times",
        mib(anya_bytes as f64),
        warm.count_total
    );
    assert_eq!(warm.count_total, 0, "a warm Anya query allocated");
    assert_eq!(anya.heap_bytes(), anya_bytes);
    assert!(
        anya_bytes < 64 << 20,
        "anya's context holds {anya_bytes} bytes"
    );

    // A* on one shorter query (A* expands cells: 18 million and 26 s from (3, 3) to
    // (9000, 4500) on the CI machine, with a 3.8 GiB peak), with
    // its per-cell arrays measured from a fresh context.
    let (s, t) = (Point::new(3, 3), Point::new(1_500, 1_200));
    let mut astar = AStarPlanner::new(&grid);
    let mut o = Answer::default();
    let mut status = None;
    let started = std::time::Instant::now();
    let info = allocation_counter::measure(|| status = Some(astar.plan(s, t, &mut o)));
    let status = status.unwrap().unwrap();
    anya.search(&grid, s, t, &options, &mut a).unwrap();
    eprintln!(
        "A* {s} -> {t}: {status:?} octile {:.3} ({} expansions, {:.1?}), peak {:.1} MiB ({:.2} B/cell); anya {:.3}",
        o.length,
        o.stats.expanded,
        started.elapsed(),
        mib(info.bytes_max as f64),
        info.bytes_max as f64 / CELLS,
        a.length
    );
    assert_eq!(status, Status::Found);
    assert!(o.length >= a.length * (1.0 - 1e-12), "A* below Anya");
    assert!(
        info.bytes_max as f64 / CELLS <= 20.0,
        "A* holds {} bytes per cell",
        info.bytes_max as f64 / CELLS
    );
}
