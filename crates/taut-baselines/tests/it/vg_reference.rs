//! The visibility-graph oracle against the reference optima of
//! `data/grid/optimal/scen.csv` (column `len_gppc`: the optimal any-angle length under
//! `docs/conventions.md`, from an independent implementation).
//!
//! `vg_matches_reference_sample` and `vg_matches_reference_legacy_sample` (run by CI) take a
//! few queries per map, spread over the difficulty buckets, plus the queries where the
//! double-corner endpoint rule matters or an endpoint is blocked; `vg_matches_reference_full`
//! (ignored) takes every k-th query of every map, k = `TAUT_VG_SAMPLE` (default 10; 1 =
//! everything), from `TAUT_VG_CSV` (default `scen.csv`; or `scen-legacy.csv`). The full
//! `scen.csv` (124 080 queries) takes about 90 s in release on 2 cores.

use std::collections::BTreeMap;
use std::time::Instant;

use rayon::prelude::*;
use taut_baselines::vg::VgPlanner;
use taut_grid::{
    Answer, FreeSet, Grid, MapFile, Planner, Point, QueryError, Status, lengths_agree,
};
use taut_testdata::{OptimalRow, check_answer, read_optimal_csv, shared_data};

/// What one map's run found.
struct MapReport {
    map: String,
    corners: usize,
    cached: usize,
    queries: usize,
    agreed: usize,
    /// Agreements on queries with an endpoint on a double corner.
    agreed_double: usize,
    blocked: usize,
    secs: f64,
    failures: Vec<String>,
}

fn run_map(data: &std::path::Path, map: &str, rows: &[&OptimalRow]) -> MapReport {
    let path = data.join("grid/maps").join(format!("{map}.map"));
    let file = MapFile::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let grid = Grid::from_map(&file, &FreeSet::default());
    let mut vg = VgPlanner::new(&grid);
    let mut a = Answer::default();
    let mut report = MapReport {
        map: map.to_owned(),
        corners: vg.corner_count(),
        cached: 0,
        queries: 0,
        agreed: 0,
        agreed_double: 0,
        blocked: 0,
        secs: 0.0,
        failures: Vec::new(),
    };
    let t0 = Instant::now();
    for r in rows {
        let (s, t) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
        let want = r.len_gppc.expect("sampled rows have a reference");
        let got = vg.plan(s, t, &mut a);
        report.queries += 1;
        let fail = |msg: String| format!("{map} #{} {s} -> {t}: {msg}", r.idx);
        if want < 0.0 {
            match got {
                Err(QueryError::Blocked { .. }) => report.blocked += 1,
                other => report
                    .failures
                    .push(fail(format!("blocked endpoint, got {other:?}"))),
            }
            continue;
        }
        match got {
            Ok(Status::Found) => {
                if let Err(e) = check_answer(&grid, s, t, &a, Some(want)) {
                    report.failures.push(format!("{map} #{}: {e}", r.idx));
                } else {
                    report.agreed += 1;
                    report.agreed_double += usize::from(r.endpoint_double_corner);
                }
            }
            other => report
                .failures
                .push(fail(format!("reference {want}, got {other:?}"))),
        }
    }
    report.secs = t0.elapsed().as_secs_f64();
    report.cached = vg.cache_info().cached_corners;
    report
}

/// Runs the sampled rows of every map (maps in parallel) and asserts agreement.
fn check(test: &str, csv: &str, pick: impl Fn(usize, usize, &OptimalRow) -> bool + Sync) {
    let Some(data) = shared_data(test) else {
        return;
    };
    let rows = read_optimal_csv(&data.join("grid/optimal").join(csv)).expect("optimal csv");
    let mut by_map: BTreeMap<&str, Vec<&OptimalRow>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.len_gppc.is_some()) {
        by_map.entry(r.map.as_str()).or_default().push(r);
    }
    let jobs: Vec<(&str, Vec<&OptimalRow>)> = by_map
        .into_iter()
        .map(|(m, rs)| {
            let n = rs.len();
            let picked = rs
                .into_iter()
                .enumerate()
                .filter(|&(i, r)| pick(i, n, r))
                .map(|(_, r)| r);
            (m, picked.collect())
        })
        .collect();
    let t0 = Instant::now();
    let reports: Vec<MapReport> = jobs
        .par_iter()
        .map(|(m, rs)| run_map(&data, m, rs))
        .collect();
    let (mut queries, mut agreed, mut agreed_double, mut blocked) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for r in &reports {
        eprintln!(
            "{:<20} corners {:>7} cached {:>7} queries {:>5} agreed {:>5} blocked {:>3} \
             {:>8.1} ms/query",
            r.map,
            r.corners,
            r.cached,
            r.queries,
            r.agreed,
            r.blocked,
            1e3 * r.secs / r.queries.max(1) as f64
        );
        queries += r.queries;
        agreed += r.agreed;
        agreed_double += r.agreed_double;
        blocked += r.blocked;
        failures.extend(r.failures.iter().cloned());
    }
    eprintln!(
        "{test} {csv}: {} maps, {queries} queries, {agreed} agree with len_gppc ({agreed_double} with \
         an endpoint on a double corner), {blocked} blocked endpoints refused, {} failures, \
         {:.1} s",
        reports.len(),
        failures.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(reports.len() >= 50, "expected every map of {csv}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Queries per map in the CI sample, spread evenly over the map's rows (which are in bucket
/// order, so easy and hard queries alike).
const PER_MAP: usize = 20;

/// Besides, every `DOUBLE_STRIDE`-th query with an endpoint on a double corner (about 1400
/// of the 124 000 queries), and every other one where the south-east rule changes the length
/// (338 queries).
const DOUBLE_STRIDE: usize = 10;

/// Whether the south-east rule changes the answer: an endpoint on a double corner, and the
/// reference Java Anya (either free side) found a different length.
fn rule_matters(r: &OptimalRow) -> bool {
    r.endpoint_double_corner
        && r.len_anya_java
            .is_some_and(|j| j >= 0.0 && !lengths_agree(j, r.len_gppc.unwrap_or(j)))
}

#[test]
fn vg_matches_reference_sample() {
    check("vg_matches_reference_sample", "scen.csv", |i, n, r| {
        let k = n.div_ceil(PER_MAP).max(1);
        // The last row of each stride: the hardest query of its bucket range.
        i % k == k - 1
            || (r.endpoint_double_corner && r.idx % DOUBLE_STRIDE == 0)
            || (rule_matters(r) && r.idx % 2 == 0)
    });
}

/// The older scenario files (`scen-legacy.csv`, another map, maze512-1-0, and 79 queries with
/// a blocked endpoint, which must be refused with an error): 5 queries per map and every
/// blocked one.
#[test]
fn vg_matches_reference_legacy_sample() {
    check(
        "vg_matches_reference_legacy_sample",
        "scen-legacy.csv",
        |i, n, r| {
            let k = n.div_ceil(5).max(1);
            i % k == k - 1 || r.len_gppc.is_some_and(|l| l < 0.0)
        },
    );
}

#[test]
#[ignore = "long: every k-th reference query (TAUT_VG_SAMPLE=k, default 10; TAUT_VG_CSV)"]
fn vg_matches_reference_full() {
    let k: usize = std::env::var("TAUT_VG_SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&k| k >= 1)
        .unwrap_or(10);
    let csv = std::env::var("TAUT_VG_CSV").unwrap_or_else(|_| "scen.csv".to_owned());
    check("vg_matches_reference_full", &csv, |i, _, _| i % k == 0);
}
