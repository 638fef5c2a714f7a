//! Spherical Anya against Euclidean Anya: the comparison of Section 6 of the Spherical Anya
//! paper (Tables 1–4, and the Earth routes of Appendix B).
//!
//! A map is read as the whole sphere (`SphereGrid::from_grid`: lattice point (x, y) is
//! longitude −180 + 360·x/W, latitude 90 − 180·y/H). For each sampled pair of lattice points:
//!
//! 1. Euclidean Anya plans on the map as a plane (timed);
//! 2. its turning points are read on the sphere by the paper's two recipes
//!    ([`evaluate`]): great circles between them (Recipe 1), and great circles between points
//!    one arc-second apart along the straight latitude/longitude segment wherever a Recipe-1
//!    leg crosses blocked cells (Recipe 2); each route's length and legality (the checker
//!    `taut::spherical::check::check_route`) are recorded;
//! 3. Spherical Anya plans between the same two points (timed), and its route is checked.
//!
//! Benchmarks ([`SphereBench`]): the maps of a game-map suite (pairs drawn uniformly with
//! replacement from the free cells' top-left corners that both planners accept), and an
//! Earth raster (random pairs of sea-cell centres of the largest connected sea, and the port
//! pairs of `pairs_snapped.csv`; each point is moved to the nearest lattice point both
//! planners accept, and both planners start from that lattice point).
//!
//! Per benchmark the run writes a CSV of instances; `summary.md` holds the paper's Tables 1–4
//! (time ratio; length ratio for Recipe 1, Recipe 2, and Recipe 1 on the instances where
//! Anya's route is legal) with the share of illegal Anya routes per recipe, and the time per
//! route of Spherical Anya alone on the Earth rasters. `docs/bench.md` explains every column.
//!
//! Checks (failures are recorded, reported loudly, and make [`sphere_bench`] return
//! [`BenchError::Checks`] after writing the reports): Spherical Anya's route must be legal,
//! measure its reported length, never be longer than a legal Anya route between the same
//! points, and exist whenever Anya finds a path (the sphere only adds connections: the
//! longitude wrap and the pole); neither planner may reject a sampled endpoint.

mod recipe;
mod report;
pub(crate) mod sample;
mod stats;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use taut::geom::Point;
use taut::grid::{Answer, FreeSet, Grid, MapFile, Status};
use taut::spherical::check::check_route;
use taut::spherical::{LatLon, Route, SphereGrid};

use crate::error::BenchError;
use crate::machine::Provenance;
use crate::reference::csv_header;
use crate::suite::Suite;

pub use recipe::{
    ARC_SECOND_DEG, RecipeBuffers, RecipeOutcome, densify_straight, evaluate, recipe1,
};
pub use report::{
    BenchSummary, CSV_HEADER, Counts, sphere_markdown, summarise, write_instances_csv,
};
pub use sample::{
    SplitMix64, candidate_points, endpoint_ok, largest_component, lattice_to_latlon,
    nearest_lattice, sample_pairs, seed_for, sphere_double_corner,
};
pub use stats::{Describe, describe, quantile_sorted};

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 20_240_601;

/// Relative tolerance of the length checks: Spherical Anya's route may exceed a legal Anya
/// route by no more than this (both are sums of great-circle distances in `f64`), and a
/// length ratio counts as "less" in the tables only below `1 − RATIO_TOLERANCE` (an equal
/// route measured twice is not "shorter").
pub const RATIO_TOLERANCE: f64 = 1e-9;

/// Options of a spherical comparison run.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereOptions {
    /// Query pairs per game map.
    pub queries_per_map: usize,
    /// At most this many maps per suite, evenly spaced in name order (all when `None`).
    pub max_maps: Option<usize>,
    /// Random pairs per Earth raster.
    pub earth_queries: usize,
    /// At most this many port pairs per Earth raster, in file order (all when `None`).
    pub max_ports: Option<usize>,
    /// The seed every sample derives from ([`seed_for`]).
    pub seed: u64,
    /// Maps (and chunks of Earth pairs) run on this many threads; each query is still timed
    /// alone on one thread. 1 (the default) runs everything in sequence: the honest timing.
    pub threads: usize,
    /// Spacing of Recipe 2's synthetic points, in arc-seconds (1 in the paper).
    pub step_arcsec: f64,
    /// One progress line per map (or chunk) on stderr.
    pub progress: bool,
}

impl Default for SphereOptions {
    fn default() -> Self {
        SphereOptions {
            queries_per_map: 250,
            max_maps: None,
            earth_queries: 1000,
            max_ports: None,
            seed: DEFAULT_SEED,
            threads: 1,
            step_arcsec: 1.0,
            progress: false,
        }
    }
}

/// An Earth raster to run: its map (normal orientation) and, optionally, the port pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct EarthRaster {
    /// The benchmark's name prefix, e.g. `earth-1deg` (the run adds `-random` and `-ports`).
    pub name: String,
    /// The `.map` file (rows are latitude bands from the North Pole).
    pub map: PathBuf,
    /// `pairs_snapped.csv`: the rows whose `map` column is this map's file name are used.
    pub pairs: Option<PathBuf>,
}

/// One benchmark of a spherical comparison run.
#[derive(Debug, Clone)]
pub enum SphereBench {
    /// The maps of a suite (only its `maps`, map list, `only` and `groups` are used).
    Suite(Box<Suite>),
    /// An Earth raster: random pairs and port pairs.
    Earth(EarthRaster),
}

/// Which kind of instances a [`BenchRun`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchKind {
    /// Uniform pairs of lattice points on game maps.
    GameMaps,
    /// Random pairs of sea-cell centres of an Earth raster's largest sea.
    EarthRandom,
    /// The port pairs of an Earth raster.
    EarthPorts,
}

/// How one planner answered one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// Not run (the other planner's phase came first and this one never ran).
    NotRun,
    /// A route was found.
    Found,
    /// The planner says no route exists.
    Unreachable,
    /// The planner rejected the query (an error).
    Rejected,
}

impl Answered {
    /// The name written to the CSV.
    pub fn name(self) -> &'static str {
        match self {
            Answered::NotRun => "not-run",
            Answered::Found => "ok",
            Answered::Unreachable => "unreachable",
            Answered::Rejected => "rejected",
        }
    }
}

/// One query pair and everything measured on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Index of the map in [`BenchRun::maps`].
    pub map: u32,
    /// Index of the pair on its map (the port pair's `id` for port pairs).
    pub idx: u32,
    /// A name for the pair (`USNYC-SEGOT` for ports, the sampled cells for random Earth
    /// pairs, empty for game maps).
    pub label: String,
    /// Start lattice point.
    pub start: Point,
    /// Goal lattice point.
    pub goal: Point,
    /// The start on the sphere.
    pub from: LatLon,
    /// The goal on the sphere.
    pub to: LatLon,
    /// How Euclidean Anya answered.
    pub anya: Answered,
    /// Euclidean Anya's time, µs.
    pub anya_us: f64,
    /// Euclidean Anya's length in grid units (`inf` unless found).
    pub anya_len: f64,
    /// Euclidean Anya's waypoints, start and goal included.
    pub anya_turns: usize,
    /// Nodes Euclidean Anya expanded (0 unless it answered).
    pub anya_expanded: u64,
    /// Recipe 1 of Anya's path, when found.
    pub r1: Option<RecipeOutcome>,
    /// Recipe 2 of Anya's path, when found.
    pub r2: Option<RecipeOutcome>,
    /// How Spherical Anya answered.
    pub sphere: Answered,
    /// Spherical Anya's time, µs.
    pub sphere_us: f64,
    /// Spherical Anya's length, radians (`inf` unless found).
    pub sphere_len: f64,
    /// The checker's verdict on Spherical Anya's route, when found.
    pub sphere_legal: Option<bool>,
    /// Legs of Spherical Anya's route.
    pub sphere_legs: usize,
    /// Nodes Spherical Anya expanded.
    pub sphere_expanded: u64,
    /// Columns Spherical Anya's cones crossed without an expansion (`SearchStats::swept`).
    pub sphere_swept: u64,
    /// What went wrong, if anything (see the module documentation).
    pub failure: Option<String>,
}

impl Instance {
    fn fail(&mut self, msg: String) {
        self.failure = Some(match self.failure.take() {
            Some(prev) => format!("{prev}; {msg}"),
            None => msg,
        });
    }

    fn both_found(&self) -> bool {
        self.anya == Answered::Found && self.sphere == Answered::Found
    }

    /// Spherical Anya's time over Euclidean Anya's, when both found a route.
    pub fn time_ratio(&self) -> Option<f64> {
        (self.both_found() && self.anya_us > 0.0).then(|| self.sphere_us / self.anya_us)
    }

    /// Spherical Anya's length over Recipe 1's (1) or Recipe 2's (2), when both found a route.
    pub fn length_ratio(&self, recipe: u8) -> Option<f64> {
        let r = if recipe == 1 { &self.r1 } else { &self.r2 };
        let r = r.as_ref()?;
        (self.both_found() && r.radians > 0.0).then(|| self.sphere_len / r.radians)
    }
}

/// How the endpoints of a benchmark were drawn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sampling {
    /// Free cells of the maps run (Earth random pairs: cells of the largest sea).
    pub free_cells: usize,
    /// Free cells whose top-left corner both planners accept (game maps).
    pub candidates: usize,
    /// Pairs dropped because no acceptable lattice point lies near an endpoint, or both ends
    /// went to the same one (Earth pairs).
    pub dropped: usize,
    /// Maps skipped, with why (a map too small to be a sphere).
    pub skipped_maps: Vec<String>,
}

/// The result of one benchmark.
#[derive(Debug, Clone)]
pub struct BenchRun {
    /// Name: the suite's, or `earth-RES-random` / `earth-RES-ports`.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// What kind of instances.
    pub kind: BenchKind,
    /// Map names, indexed by [`Instance::map`].
    pub maps: Vec<String>,
    /// For each map, the suite's summary groups it counts in.
    pub map_groups: Vec<Vec<String>>,
    /// Group names in summary order.
    pub groups: Vec<String>,
    /// Every instance, map by map.
    pub instances: Vec<Instance>,
    /// How the endpoints were drawn.
    pub sampling: Sampling,
    /// Wall time of the benchmark.
    pub wall: Duration,
}

impl BenchRun {
    fn new(name: String, description: String, kind: BenchKind) -> Self {
        BenchRun {
            name,
            description,
            kind,
            maps: Vec::new(),
            map_groups: Vec::new(),
            groups: Vec::new(),
            instances: Vec::new(),
            sampling: Sampling::default(),
            wall: Duration::ZERO,
        }
    }

    /// The instances that failed a check.
    pub fn failures(&self) -> impl Iterator<Item = &Instance> {
        self.instances.iter().filter(|i| i.failure.is_some())
    }
}

/// One query to run: a pair of lattice points.
#[derive(Debug, Clone)]
struct Query {
    idx: u32,
    label: String,
    start: Point,
    goal: Point,
}

/// Runs `queries` on one map: every Anya query, then every Spherical Anya query (or the other
/// way round: `anya_first` alternates from unit to unit so that a change of machine load hits
/// both alike), each timed alone after one untimed warm-up query; then the checks and the
/// recipes, untimed.
fn run_queries(
    grid: &Grid,
    sgrid: &SphereGrid,
    map: u32,
    queries: &[Query],
    anya_first: bool,
    opts: &SphereOptions,
) -> Vec<Instance> {
    let (w, h) = (sgrid.width(), sgrid.height());
    let mut rows: Vec<Instance> = queries
        .iter()
        .map(|q| Instance {
            map,
            idx: q.idx,
            label: q.label.clone(),
            start: q.start,
            goal: q.goal,
            from: lattice_to_latlon(w, h, q.start),
            to: lattice_to_latlon(w, h, q.goal),
            anya: Answered::NotRun,
            anya_us: f64::NAN,
            anya_len: f64::INFINITY,
            anya_turns: 0,
            anya_expanded: 0,
            r1: None,
            r2: None,
            sphere: Answered::NotRun,
            sphere_us: f64::NAN,
            sphere_len: f64::INFINITY,
            sphere_legal: None,
            sphere_legs: 0,
            sphere_expanded: 0,
            sphere_swept: 0,
            failure: None,
        })
        .collect();
    let mut paths: Vec<Vec<Point>> = vec![Vec::new(); queries.len()];
    let mut sphere_routes: Vec<(usize, Route)> = Vec::new();
    let phases = if anya_first {
        [true, false]
    } else {
        [false, true]
    };
    for anya_phase in phases {
        if anya_phase {
            let mut ctx = taut::anya::SearchContext::new();
            let options = taut::anya::Options::default();
            let mut answer = Answer::default();
            if let Some(q) = queries.last() {
                let _ = ctx.search(grid, q.start, q.goal, &options, &mut answer);
            }
            for (i, q) in queries.iter().enumerate() {
                let t = Instant::now();
                let result = ctx.search(grid, q.start, q.goal, &options, &mut answer);
                let us = t.elapsed().as_secs_f64() * 1e6;
                let row = &mut rows[i];
                row.anya_us = us;
                row.anya_expanded = answer.stats.expanded;
                match result {
                    Ok(Status::Found) => {
                        row.anya = Answered::Found;
                        row.anya_len = answer.length;
                        row.anya_turns = answer.waypoints.len();
                        paths[i].clone_from(&answer.waypoints);
                    }
                    Ok(Status::Unreachable) => row.anya = Answered::Unreachable,
                    Err(e) => {
                        row.anya = Answered::Rejected;
                        row.fail(format!("Anya rejected a sampled query: {e}"));
                    }
                }
            }
        } else {
            let mut ctx = taut::spherical::SearchContext::new();
            let mut route = Route::default();
            if let Some(r) = rows.last() {
                let _ = ctx.search(sgrid, r.from, r.to, &mut route);
            }
            for (i, row) in rows.iter_mut().enumerate() {
                let t = Instant::now();
                let result = ctx.search(sgrid, row.from, row.to, &mut route);
                row.sphere_us = t.elapsed().as_secs_f64() * 1e6;
                match result {
                    Ok(taut::spherical::SearchOutcome::Found) => {
                        row.sphere = Answered::Found;
                        row.sphere_len = route.radians;
                        row.sphere_legs = route.legs.len();
                        row.sphere_expanded = ctx.stats().expanded;
                        row.sphere_swept = ctx.stats().swept;
                        // Checked after the timing loop, as Anya's paths are: the checker's
                        // memory traffic between two timed queries is no part of either's cost.
                        sphere_routes.push((i, route.clone()));
                        let legs = route.legs_radians();
                        if (legs - route.radians).abs() > 1e-9 * legs.max(1.0) {
                            row.fail(format!(
                                "Spherical Anya reports {} rad but its legs measure {legs}",
                                route.radians
                            ));
                        }
                    }
                    Ok(taut::spherical::SearchOutcome::Unreachable) => {
                        row.sphere = Answered::Unreachable;
                        row.sphere_expanded = ctx.stats().expanded;
                        row.sphere_swept = ctx.stats().swept;
                    }
                    Err(e) => {
                        row.sphere = Answered::Rejected;
                        row.fail(format!("Spherical Anya rejected a sampled query: {e}"));
                    }
                }
            }
        }
    }
    for (i, route) in &sphere_routes {
        let row = &mut rows[*i];
        match check_route(sgrid, route, row.from, row.to) {
            Ok(()) => row.sphere_legal = Some(true),
            Err(v) => {
                row.sphere_legal = Some(false);
                row.fail(format!("Spherical Anya's route is ILLEGAL: {v:?}"));
            }
        }
    }
    let step = opts.step_arcsec * ARC_SECOND_DEG;
    let mut buf = RecipeBuffers::default();
    for (row, path) in rows.iter_mut().zip(&paths) {
        if row.anya == Answered::Found {
            let (r1, r2) = evaluate(sgrid, path, row.from, row.to, step, &mut buf);
            row.r1 = Some(r1);
            row.r2 = Some(r2);
        }
        cross_check(row);
    }
    rows
}

/// The checks between the two planners' answers to one query.
fn cross_check(row: &mut Instance) {
    if row.anya == Answered::Found && row.sphere == Answered::Unreachable {
        row.fail(
            "Spherical Anya found no route where Anya found one (the sphere only adds connections)"
                .into(),
        );
    }
    if row.sphere != Answered::Found {
        return;
    }
    let sphere = row.sphere_len;
    let mut longer = Vec::new();
    for (k, r) in [(1, &row.r1), (2, &row.r2)] {
        if let Some(r) = r
            && r.legal
            && sphere > r.radians * (1.0 + RATIO_TOLERANCE) + 1e-15
        {
            longer.push(format!(
                "Spherical Anya's route ({sphere} rad) is longer than Anya's legal Recipe-{k} route ({} rad)",
                r.radians
            ));
        }
    }
    for msg in longer {
        row.fail(msg);
    }
}

/// Runs `units` through `f` in order, on `threads` threads when more than one (the results
/// keep the order of `units`).
fn run_units<T, R, F>(units: Vec<T>, threads: usize, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(usize, T) -> R + Sync + Send,
{
    if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => {
                use rayon::prelude::*;
                return pool.install(|| {
                    units
                        .into_par_iter()
                        .enumerate()
                        .map(|(i, u)| f(i, u))
                        .collect()
                });
            }
            Err(e) => eprintln!("taut-bench: NOTICE: no thread pool ({e}); running in sequence"),
        }
    }
    units
        .into_iter()
        .enumerate()
        .map(|(i, u)| f(i, u))
        .collect()
}

/// The map names of a suite, sorted: those with a scenario file (as the grid benchmarks run),
/// or, when the suite has no scenario directory, every `.map` of its maps directory; `only`
/// applies either way.
fn suite_maps(suite: &Suite) -> Result<Vec<String>, BenchError> {
    if suite.scenarios.is_dir() {
        return Ok(suite
            .scenario_files()?
            .into_iter()
            .map(|(m, _)| m)
            .collect());
    }
    let err = |e: std::io::Error| BenchError::Data {
        path: suite.maps.clone(),
        msg: e.to_string(),
    };
    let mut maps = Vec::new();
    for entry in std::fs::read_dir(&suite.maps).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if let Some(name) = path
            .file_name()
            .and_then(|f| f.to_str())
            .and_then(|f| f.strip_suffix(".map"))
            && (suite.only.is_empty() || suite.only.iter().any(|m| m == name))
        {
            maps.push(name.to_owned());
        }
    }
    maps.sort();
    if maps.is_empty() {
        return Err(BenchError::Data {
            path: suite.maps.clone(),
            msg: "no .map files".into(),
        });
    }
    Ok(maps)
}

/// `k` of `n` indices, evenly spaced (all when `k >= n`).
fn evenly_spaced(n: usize, k: usize) -> Vec<usize> {
    if k >= n {
        return (0..n).collect();
    }
    (0..k).map(|i| i * n / k).collect()
}

fn read_grid(path: &Path) -> Result<(Grid, SphereGrid), BenchError> {
    let map = MapFile::read(path)?;
    let grid = Grid::from_map(&map, &FreeSet::default());
    let sgrid = SphereGrid::from_grid(&grid).map_err(|e| BenchError::Data {
        path: path.to_owned(),
        msg: e.to_string(),
    })?;
    Ok((grid, sgrid))
}

/// Runs the maps of a suite.
fn run_suite_bench(suite: &Suite, opts: &SphereOptions) -> Result<BenchRun, BenchError> {
    let t0 = Instant::now();
    let all = suite_maps(suite)?;
    let names: Vec<String> = match opts.max_maps {
        Some(k) => evenly_spaced(all.len(), k)
            .into_iter()
            .map(|i| all[i].clone())
            .collect(),
        None => all,
    };
    let mut run = BenchRun::new(
        suite.name.clone(),
        suite.description.clone(),
        BenchKind::GameMaps,
    );
    run.map_groups = names
        .iter()
        .map(|m| suite.groups_of(m).map(str::to_owned).collect())
        .collect();
    run.groups = suite.groups.keys().cloned().collect();
    run.maps = names.clone();
    let total = names.len();
    let results = run_units(
        names,
        opts.threads,
        |mi, name| -> Result<(Vec<Instance>, Sampling), BenchError> {
            let path = suite.maps.join(format!("{name}.map"));
            let map = MapFile::read(&path)?;
            let grid = Grid::from_map(&map, &FreeSet::default());
            let mut sampling = Sampling::default();
            let sgrid = match SphereGrid::from_grid(&grid) {
                Ok(s) => s,
                Err(e) => {
                    sampling.skipped_maps.push(format!("{name}: {e}"));
                    return Ok((Vec::new(), sampling));
                }
            };
            let (cands, free) = candidate_points(&grid, &sgrid);
            sampling.free_cells = free;
            sampling.candidates = cands.len();
            let mut rng = SplitMix64::new(seed_for(opts.seed, &suite.name, &name));
            let queries: Vec<Query> = sample_pairs(&cands, opts.queries_per_map, &mut rng)
                .into_iter()
                .enumerate()
                .map(|(i, (start, goal))| Query {
                    idx: i as u32,
                    label: String::new(),
                    start,
                    goal,
                })
                .collect();
            let rows = run_queries(&grid, &sgrid, mi as u32, &queries, mi % 2 == 0, opts);
            if opts.progress {
                progress_line(&suite.name, &name, mi, total, &rows);
            }
            Ok((rows, sampling))
        },
    );
    for r in results {
        let (rows, s) = r?;
        run.instances.extend(rows);
        run.sampling.free_cells += s.free_cells;
        run.sampling.candidates += s.candidates;
        run.sampling.skipped_maps.extend(s.skipped_maps);
    }
    run.wall = t0.elapsed();
    Ok(run)
}

fn progress_line(bench: &str, unit: &str, i: usize, n: usize, rows: &[Instance]) {
    let found = rows.iter().filter(|r| r.sphere == Answered::Found).count();
    let failed = rows.iter().filter(|r| r.failure.is_some()).count();
    eprintln!(
        "  [{}/{}] {bench} {unit}: {} pairs, Spherical Anya found {found}{}",
        i + 1,
        n,
        rows.len(),
        if failed > 0 {
            format!(", {failed} FAILED")
        } else {
            String::new()
        }
    );
}

/// Queries per unit of work on an Earth raster.
const EARTH_CHUNK: usize = 25;

/// Runs `queries` on one Earth raster in chunks.
fn run_earth_queries(
    name: &str,
    grid: &Grid,
    sgrid: &SphereGrid,
    queries: Vec<Query>,
    opts: &SphereOptions,
) -> Vec<Instance> {
    let chunks: Vec<Vec<Query>> = queries.chunks(EARTH_CHUNK).map(<[Query]>::to_vec).collect();
    let total = chunks.len();
    run_units(chunks, opts.threads, |ci, chunk| {
        let rows = run_queries(grid, sgrid, 0, &chunk, ci % 2 == 0, opts);
        if opts.progress {
            progress_line(name, "chunk", ci, total, &rows);
        }
        rows
    })
    .into_iter()
    .flatten()
    .collect()
}

/// One port pair of `pairs_snapped.csv`.
#[derive(Debug, Clone, PartialEq)]
struct PortPair {
    id: u32,
    label: String,
    from: LatLon,
    to: LatLon,
}

/// The rows of `pairs_snapped.csv` whose `map` column is `map_file`.
fn read_port_pairs(path: &Path, map_file: &str) -> Result<Vec<PortPair>, BenchError> {
    let err = |line: usize, msg: String| BenchError::Data {
        path: path.to_owned(),
        msg: format!("line {line}: {msg}"),
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(0, e.to_string()))?;
    let mut lines = text.lines();
    let (_, [c_map, c_id, c_from, c_to, c_slat, c_slon, c_glat, c_glon]) = csv_header(
        lines.next(),
        [
            "map", "id", "from", "to", "s_lat", "s_lon", "g_lat", "g_lon",
        ],
    )
    .map_err(|m| err(1, m))?;
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let get = |c: usize| f.get(c).map(|s| s.trim()).unwrap_or("");
        if get(c_map) != map_file {
            continue;
        }
        let num = |c: usize| -> Result<f64, BenchError> {
            get(c)
                .parse::<f64>()
                .map_err(|_| err(n, format!("bad number {:?}", get(c))))
        };
        out.push(PortPair {
            id: get(c_id)
                .parse()
                .map_err(|_| err(n, format!("bad id {:?}", get(c_id))))?,
            label: format!("{}-{}", get(c_from), get(c_to)),
            from: LatLon::new(num(c_slat)?, num(c_slon)?),
            to: LatLon::new(num(c_glat)?, num(c_glon)?),
        });
    }
    Ok(out)
}

/// How far (in cells) [`nearest_lattice`] looks for an acceptable lattice point.
const SNAP_RADIUS: u32 = 2;

/// Runs an Earth raster: its random pairs and its port pairs.
fn run_earth_bench(e: &EarthRaster, opts: &SphereOptions) -> Result<Vec<BenchRun>, BenchError> {
    let t0 = Instant::now();
    let (grid, sgrid) = read_grid(&e.map)?;
    let file = e
        .map
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or_default()
        .to_owned();
    let map_name = file.trim_end_matches(".map").to_owned();
    let snap = |p: LatLon| nearest_lattice(&grid, &sgrid, p, SNAP_RADIUS);
    let mut out = Vec::new();

    // Random pairs of sea-cell centres of the largest connected sea.
    let name = format!("{}-random", e.name);
    let mut run = BenchRun::new(
        name.clone(),
        format!("{file}: random pairs of sea-cell centres of the largest connected sea"),
        BenchKind::EarthRandom,
    );
    run.maps = vec![map_name.clone()];
    run.map_groups = vec![Vec::new()];
    let sea = largest_component(&sgrid);
    run.sampling.free_cells = sea.len();
    let mut rng = SplitMix64::new(seed_for(opts.seed, &name, &map_name));
    let mut queries = Vec::new();
    for (i, (s, g)) in sample_pairs(&sea, opts.earth_queries, &mut rng)
        .into_iter()
        .enumerate()
    {
        let start = snap(sgrid.cell_centre(s.0, s.1));
        let goal = snap(sgrid.cell_centre(g.0, g.1));
        match (start, goal) {
            (Some(start), Some(goal)) if start != goal => queries.push(Query {
                idx: i as u32,
                label: format!("r{}c{}-r{}c{}", s.0, s.1, g.0, g.1),
                start,
                goal,
            }),
            _ => run.sampling.dropped += 1,
        }
    }
    run.instances = run_earth_queries(&name, &grid, &sgrid, queries, opts);
    run.wall = t0.elapsed();
    out.push(run);

    // Port pairs.
    if let Some(pairs) = &e.pairs {
        let t1 = Instant::now();
        let name = format!("{}-ports", e.name);
        let mut run = BenchRun::new(
            name.clone(),
            format!("{file}: the port pairs of {}", pairs.display()),
            BenchKind::EarthPorts,
        );
        run.maps = vec![map_name.clone()];
        run.map_groups = vec![Vec::new()];
        let mut ports = read_port_pairs(pairs, &file)?;
        if let Some(k) = opts.max_ports {
            ports.truncate(k);
        }
        let mut queries = Vec::new();
        for p in &ports {
            match (snap(p.from), snap(p.to)) {
                (Some(start), Some(goal)) if start != goal => queries.push(Query {
                    idx: p.id,
                    label: p.label.clone(),
                    start,
                    goal,
                }),
                _ => run.sampling.dropped += 1,
            }
        }
        run.instances = run_earth_queries(&name, &grid, &sgrid, queries, opts);
        run.wall = t1.elapsed();
        out.push(run);
    }
    Ok(out)
}

/// Runs every benchmark of `benches`.
///
/// # Errors
/// Missing or malformed maps and pair files. Failed checks are recorded in the instances,
/// not returned.
pub fn run_sphere(
    benches: &[SphereBench],
    opts: &SphereOptions,
) -> Result<Vec<BenchRun>, BenchError> {
    let mut runs = Vec::new();
    for b in benches {
        match b {
            SphereBench::Suite(s) => {
                if opts.progress {
                    eprintln!("sphere: suite {}: {}", s.name, s.description);
                }
                runs.push(run_suite_bench(s, opts)?);
            }
            SphereBench::Earth(e) => {
                if opts.progress {
                    eprintln!("sphere: {} ({})", e.name, e.map.display());
                }
                runs.extend(run_earth_bench(e, opts)?);
            }
        }
    }
    Ok(runs)
}

/// The files a spherical comparison wrote.
#[derive(Debug, Clone)]
pub struct SphereWritten {
    /// One CSV of instances per benchmark.
    pub csvs: Vec<PathBuf>,
    /// `summary.md`.
    pub markdown: PathBuf,
    /// The runs themselves.
    pub runs: Vec<BenchRun>,
}

/// Writes `NAME.csv` per benchmark of `runs` and `summary.md` into `out` (created if
/// needed); `command` is quoted in the summary. Returns the CSV files and the summary.
///
/// # Errors
/// [`BenchError::Write`] when a file cannot be written.
pub fn write_sphere_reports(
    runs: &[BenchRun],
    opts: &SphereOptions,
    out: &Path,
    prov: &Provenance,
    command: &str,
) -> Result<(Vec<PathBuf>, PathBuf), BenchError> {
    std::fs::create_dir_all(out).map_err(|e| BenchError::Write {
        path: out.to_owned(),
        msg: e.to_string(),
    })?;
    let mut csvs = Vec::new();
    for run in runs {
        let path = out.join(format!("{}.csv", run.name));
        write_instances_csv(&path, run, prov, opts)?;
        csvs.push(path);
    }
    let md = out.join("summary.md");
    crate::report::write_markdown(&md, &sphere_markdown(runs, prov, opts, command))?;
    Ok((csvs, md))
}

/// Runs `benches` and writes the reports into `out` ([`write_sphere_reports`]). `repo` is the
/// checkout whose commit the reports record; `command` is quoted in the summary.
///
/// # Errors
/// Data and write errors as they occur; [`BenchError::Checks`] after writing the reports when
/// any instance failed a check.
pub fn sphere_bench(
    benches: &[SphereBench],
    opts: &SphereOptions,
    out: &Path,
    repo: &Path,
    command: &str,
) -> Result<SphereWritten, BenchError> {
    let prov = Provenance::collect(repo);
    let runs = run_sphere(benches, opts)?;
    let (csvs, md) = write_sphere_reports(&runs, opts, out, &prov, command)?;
    let failures: Vec<String> = runs
        .iter()
        .flat_map(|run| {
            run.failures().map(move |i| {
                format!(
                    "{} {} pair {} {:?}→{:?}: {}",
                    run.name,
                    run.maps[i.map as usize],
                    i.idx,
                    i.start,
                    i.goal,
                    i.failure.as_deref().unwrap_or_default()
                )
            })
        })
        .collect();
    BenchError::from_failures(&failures, out)?;
    Ok(SphereWritten {
        csvs,
        markdown: md,
        runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evenly_spaced_maps() {
        assert_eq!(evenly_spaced(10, 3), [0, 3, 6]);
        assert_eq!(evenly_spaced(3, 5), [0, 1, 2]);
        assert_eq!(evenly_spaced(7, 0), Vec::<usize>::new());
    }

    #[test]
    fn port_pairs_are_read_by_map_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("pairs.csv");
        std::fs::write(
            &p,
            "res,variant,map,id,from,to,needs_passage,s_lat,s_lon,g_lat,g_lon\n\
             1deg,base,earth_1deg.map,0,USNYC,SEGOT,,40.5,-73.5,57.5,11.5\n\
             1deg,nav,earth_1deg_nav.map,3,NLRTM,SGSIN,suez(optional),52.5,4.5,1.5,104.5\n",
        )
        .unwrap();
        let rows = read_port_pairs(&p, "earth_1deg_nav.map").unwrap();
        assert_eq!(
            rows,
            [PortPair {
                id: 3,
                label: "NLRTM-SGSIN".into(),
                from: LatLon::new(52.5, 4.5),
                to: LatLon::new(1.5, 104.5),
            }]
        );
        std::fs::write(&p, "map,id\n").unwrap();
        let e = read_port_pairs(&p, "x").unwrap_err().to_string();
        assert!(e.contains("no column \"from\""), "{e}");
    }

    fn instance(anya: Answered, sphere: Answered) -> Instance {
        Instance {
            map: 0,
            idx: 0,
            label: String::new(),
            start: Point::new(1, 1),
            goal: Point::new(2, 2),
            from: LatLon::new(0.0, 0.0),
            to: LatLon::new(1.0, 1.0),
            anya,
            anya_us: 10.0,
            anya_len: 1.5,
            anya_turns: 2,
            anya_expanded: 4,
            r1: None,
            r2: None,
            sphere,
            sphere_us: 5.0,
            sphere_len: 0.9,
            sphere_legal: None,
            sphere_legs: 1,
            sphere_expanded: 3,
            sphere_swept: 0,
            failure: None,
        }
    }

    fn recipe(radians: f64, legal: bool) -> RecipeOutcome {
        RecipeOutcome {
            radians,
            legal,
            illegal_legs: u32::from(!legal),
            legs: 1,
            violation: None,
        }
    }

    #[test]
    fn cross_checks_catch_what_the_sphere_cannot_do() {
        // Anya found a path, the sphere none: a failure.
        let mut i = instance(Answered::Found, Answered::Unreachable);
        cross_check(&mut i);
        assert!(i.failure.as_deref().unwrap().contains("found no route"));
        // Longer than a legal Recipe-1 route: a failure; than an illegal one: fine.
        let mut i = instance(Answered::Found, Answered::Found);
        i.r1 = Some(recipe(0.8, true));
        i.r2 = Some(recipe(0.8, true));
        cross_check(&mut i);
        let f = i.failure.unwrap();
        assert!(f.contains("Recipe-1") && f.contains("Recipe-2"), "{f}");
        let mut i = instance(Answered::Found, Answered::Found);
        i.r1 = Some(recipe(0.8, false));
        i.r2 = Some(recipe(0.9 * (1.0 + 1e-12), true));
        cross_check(&mut i);
        assert_eq!(i.failure, None);
        assert_eq!(i.time_ratio(), Some(0.5));
        assert_eq!(i.length_ratio(1), Some(0.9 / 0.8));
        // No ratios unless both found.
        let i = instance(Answered::Unreachable, Answered::Found);
        assert_eq!((i.time_ratio(), i.length_ratio(1)), (None, None));
    }
}
