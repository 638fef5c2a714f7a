//! `ray` against the independent optima of `../shared/data/grid/optimal` (skipped, loudly, when
//! the data is absent; a failure under `TAUT_REQUIRE_DATA=1`).
//!
//! Every eighth row of `scen.csv` and `scen-legacy.csv` and every row flagged for a blocked or
//! double-corner endpoint (every row with `TAUT_FULL=1`): a blocked endpoint must be rejected
//! with a `QueryError` and no other row may be; the length equals `len_gppc` within
//! `taut_grid::LENGTH_TOLERANCE`; the path passes the exact legality checker and measures the
//! reported length.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use rayon::prelude::*;
use taut_grid::{Answer, FreeSet, Grid, MapFile, Point};
use taut_ray::{RayIndex, SearchContext};
use taut_testdata::{
    OptimalRow, Tolerances, check_reference_answer, read_optimal_csv, shared_data,
};

#[derive(Default)]
struct Tally {
    queries: usize,
    rejected: usize,
    failures: Vec<String>,
}

fn run(data: &Path, csv: &str) -> Tally {
    let rows = read_optimal_csv(&data.join("grid/optimal").join(csv)).unwrap();
    let mut by_map: BTreeMap<String, Vec<OptimalRow>> = BTreeMap::new();
    for r in rows {
        by_map.entry(r.map.clone()).or_default().push(r);
    }
    let full = std::env::var("TAUT_FULL").as_deref() == Ok("1");
    let total = Mutex::new(Tally::default());
    by_map.par_iter().for_each(|(map, rows)| {
        let path = data.join("grid/maps").join(format!("{map}.map"));
        let grid = Grid::from_map(&MapFile::read(&path).unwrap(), &FreeSet::default());
        let index = RayIndex::new(&grid);
        let mut ctx = SearchContext::new();
        let mut answer = Answer::default();
        let mut t = Tally::default();
        for (i, r) in rows.iter().enumerate() {
            if !full && i % 8 != 0 && !r.endpoint_double_corner && !r.endpoint_blocked {
                continue;
            }
            t.queries += 1;
            let (s, g) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
            let expected = r.len_gppc.expect("every row has len_gppc");
            let result = ctx.search(&grid, &index, s, g, &mut answer);
            t.rejected += usize::from(result.is_err());
            if let Err(f) =
                check_reference_answer(&grid, s, g, &result, &answer, expected, Tolerances::LENGTH)
            {
                t.failures.push(format!("{csv} {map}#{}: {f}", r.idx));
            }
        }
        let mut total = total.lock().unwrap();
        total.queries += t.queries;
        total.rejected += t.rejected;
        total.failures.extend(t.failures);
    });
    total.into_inner().unwrap()
}

fn check(csv: &str) {
    let Some(data) = shared_data(&format!("ray reference_data {csv}")) else {
        return;
    };
    let t = run(&data, csv);
    eprintln!(
        "ray {csv}: {} queries, {} rejected (blocked endpoints), {} failures",
        t.queries,
        t.rejected,
        t.failures.len()
    );
    for f in t.failures.iter().take(30) {
        eprintln!("  {f}");
    }
    assert!(t.queries > 10_000, "too few rows read");
    assert!(t.failures.is_empty(), "{} failures", t.failures.len());
}

#[test]
fn ray_matches_len_gppc_on_the_2018_queries() {
    check("scen.csv");
}

#[test]
fn ray_matches_len_gppc_on_the_legacy_queries() {
    check("scen-legacy.csv");
}
