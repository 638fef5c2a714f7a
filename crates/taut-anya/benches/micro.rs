//! Micro-benchmarks of Anya and of the row scans it is built on.
//!
//! - `row_scan/*`: [`Grid::next_change`], [`Grid::prev_change`] and [`Grid::free_run`] over
//!   one 512-wide row of synthetic 512×512 grids (25 % and 2 % of the cells blocked, placed by
//!   a fixed hash), every change point or free cell of the row per iteration;
//! - `arena/*`: all 130 queries of `fixtures/maps/arena.map.scen` per iteration, with a warm
//!   [`SearchContext`], for the default options and with the hashed root history.
//!
//! Run with `cargo bench -p taut-anya --bench micro` (add `-- --quick` for a short run).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use taut_anya::{Options, RootHistory, SearchContext};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Point, Scenario};

/// The grid line (and the cell row below it) that the row scans walk.
const ROW: i32 = 256;

/// A 512×512 grid with about `percent` % of its cells blocked, placed by a fixed hash.
fn synthetic(percent: u64) -> Grid {
    Grid::from_fn(512, 512, |x, y| {
        let mut h = (u64::from(y) << 32 | u64::from(x)).wrapping_add(0x9e37_79b9_7f4a_7c15);
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (h ^ (h >> 31)) % 100 >= percent
    })
}

fn row_scans(c: &mut Criterion) {
    let mut g = c.benchmark_group("row_scan");
    for percent in [25, 2] {
        let grid = synthetic(percent);
        let w = grid.width();
        let changes = {
            let (mut x, mut n) = (-1, 0);
            while x <= w {
                x = grid.next_change(x, ROW);
                n += 1;
            }
            n
        };
        g.throughput(Throughput::Elements(changes));
        g.bench_function(format!("next_change/{percent}pct"), |b| {
            b.iter(|| {
                let (mut x, mut sum) = (-1, 0i64);
                while x <= w {
                    x = grid.next_change(black_box(x), ROW);
                    sum += i64::from(x);
                }
                sum
            })
        });
        g.bench_function(format!("prev_change/{percent}pct"), |b| {
            b.iter(|| {
                let (mut x, mut sum) = (w + 1, 0i64);
                while x >= 0 {
                    x = grid.prev_change(black_box(x), ROW);
                    sum += i64::from(x);
                }
                sum
            })
        });
        let free: Vec<i32> = (0..w).filter(|&x| grid.is_free(x, ROW)).collect();
        g.throughput(Throughput::Elements(free.len() as u64));
        g.bench_function(format!("free_run/{percent}pct"), |b| {
            b.iter(|| {
                free.iter().fold(0i64, |s, &x| {
                    let (lo, hi) = grid.free_run(black_box(x), ROW);
                    s + i64::from(lo) + i64::from(hi)
                })
            })
        });
    }
    g.finish();
}

fn arena_queries(c: &mut Criterion) {
    let dir = taut_testdata::fixtures().join("maps");
    let map = MapFile::read(dir.join("arena.map")).expect("fixtures/maps/arena.map");
    let grid = Grid::from_map(&map, &FreeSet::default());
    let queries: Vec<(Point, Point)> = Scenario::read(dir.join("arena.map.scen"))
        .expect("fixtures/maps/arena.map.scen")
        .entries
        .iter()
        .map(|e| (e.start, e.goal))
        .collect();
    let mut g = c.benchmark_group("arena");
    g.throughput(Throughput::Elements(queries.len() as u64));
    for (name, options) in [
        ("anya_all_queries", Options::default()),
        (
            "anya_all_queries_hash_history",
            Options {
                history: RootHistory::Hash,
                ..Options::default()
            },
        ),
    ] {
        let mut ctx = SearchContext::new();
        let mut answer = Answer::default();
        let run_all = |ctx: &mut SearchContext, answer: &mut Answer| {
            queries.iter().fold(0.0, |total, &(s, t)| {
                ctx.search(&grid, s, t, &options, answer)
                    .expect("arena queries are valid");
                total + answer.length
            })
        };
        run_all(&mut ctx, &mut answer); // warm the context
        g.bench_function(name, |b| {
            b.iter(|| black_box(run_all(&mut ctx, &mut answer)))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = row_scans, arena_queries
}
criterion_main!(benches);
