//! Running a suite: every sampled query of every map, once per planner, timed single-threaded,
//! then checked.

use std::time::{Duration, Instant};

use taut::geom::Point;
use taut::grid::{Answer, FreeSet, Grid, MapFile, Scenario, Status, path_length};

use crate::error::BenchError;
use crate::reference::Reference;
use crate::suite::Suite;
use taut::Source;
use taut::registry::{MeshChoice, PlannerSpec};
use taut::{Guarantee, LENGTH_TOLERANCE, PathModel};

/// What a planner promises, as the planner itself says ([`taut::Planner::guarantee`] and
/// [`taut::Planner::path_model`]): the bench checks each length against exactly this.
pub type Promise = (Guarantee, PathModel);

/// How a query ended for one planner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryOutcome {
    /// A path was found.
    Found,
    /// The planner reported that no path exists.
    Unreachable,
    /// The planner rejected the query (an endpoint blocked or off the map).
    Invalid,
}

impl QueryOutcome {
    /// The name written to the CSV.
    pub fn name(self) -> &'static str {
        match self {
            QueryOutcome::Found => "ok",
            QueryOutcome::Unreachable => "unreachable",
            QueryOutcome::Invalid => "invalid",
        }
    }
}

/// One query answered by one planner.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Index of the map in [`SuiteRun::maps`].
    pub map: u32,
    /// 0-based index of the query in its scenario file.
    pub idx: u32,
    /// The scenario's difficulty bucket.
    pub bucket: u32,
    /// Start point.
    pub start: Point,
    /// Goal point.
    pub goal: Point,
    /// The scenario's octile length.
    pub octile: f64,
    /// The reference any-angle optimum, when known.
    pub reference: Option<f64>,
    /// The reference Java Anya's expansion count on this query, when known (the reference
    /// data's `anya_java_expanded` column).
    pub reference_expanded: Option<u64>,
    /// Index of the planner in [`SuiteRun::planners`].
    pub planner: u8,
    /// How the query ended.
    pub outcome: QueryOutcome,
    /// The length returned (`inf` unless found).
    pub length: f64,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// Open-list operations.
    pub heap_ops: u64,
    /// Wall time of the `plan` call, in microseconds.
    pub micros: f64,
    /// What the check found wrong, if anything.
    pub failure: Option<String>,
}

/// The outcome of running one suite.
#[derive(Debug, Clone)]
pub struct SuiteRun {
    /// The suite's name.
    pub name: String,
    /// The suite's description.
    pub description: String,
    /// The planners, in suite order.
    pub planners: Vec<PlannerSpec>,
    /// What each planner promises, as the first one built said (`None` when none was built:
    /// the suite had no map).
    pub promises: Vec<Option<Promise>>,
    /// Map names (without `.map`), indexed by [`Record::map`].
    pub maps: Vec<String>,
    /// For each map, the summary groups it counts in (besides the suite itself).
    pub map_groups: Vec<Vec<String>>,
    /// Group names in the order the summary lists them.
    pub groups: Vec<String>,
    /// Every query × planner, grouped by map, then by query, then in planner order.
    pub records: Vec<Record>,
    /// Every `sample`-th query was run.
    pub sample: usize,
    /// At most this many queries per scenario file were run, when limited.
    pub max_queries: Option<usize>,
    /// The 1-minute load average when the suite started and when it ended (`/proc/loadavg`):
    /// above about 1 on a 2-core machine, something else competed for the cores.
    pub load: (Option<f64>, Option<f64>),
    /// How many lengths were compared with the reference optimum, the octile column and
    /// another optimal planner of the run.
    pub checked: CheckCounts,
    /// Wall time of the whole suite, checks included.
    pub wall: Duration,
    /// The meshes Polyanya searched, one entry per map where a mesh planner ran.
    pub meshes: Vec<MeshInfo>,
    /// The CPDs End Point Search used, one entry per map where it ran.
    pub cpds: Vec<CpdInfo>,
    /// The hub indexes the `hub` planner used, one entry per map where it ran.
    pub hubs: Vec<HubInfo>,
}

/// The hub index of one map: read from the suite's `hubs` directory or built before timing.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HubInfo {
    /// Index into [`SuiteRun::maps`].
    pub map: u32,
    /// Whether it was built in this run (else read from a file).
    pub built: bool,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Convex corners (the core's nodes).
    pub corners: usize,
    /// Side of the regions sharing labels (1: every point its own label).
    pub region: u32,
    /// Bytes in memory.
    pub bytes: usize,
}

/// The CPD of one map: read from the suite's `cpds` directory or built before timing.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CpdInfo {
    /// Index into [`SuiteRun::maps`].
    pub map: u32,
    /// Whether it was built in this run (else read from a file).
    pub built: bool,
    /// Seconds spent building or reading it.
    pub secs: f64,
    /// Nodes (convex corners) of its graph.
    pub nodes: usize,
    /// Undirected edges of its graph.
    pub edges: usize,
    /// Runs over all rows.
    pub runs: usize,
    /// Bytes in memory.
    pub bytes: usize,
}

/// The meshes of one map: taut's (with its build time) and the given one.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MeshInfo {
    /// Index into [`SuiteRun::maps`].
    pub map: u32,
    /// Seconds taut spent building its mesh of the grid (0 when not built).
    pub build_secs: f64,
    /// Polygons of taut's mesh (0 when not built).
    pub built_polygons: usize,
    /// Polygons of the given mesh (0 when none).
    pub given_polygons: usize,
}

/// What the checks compared lengths with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// Lengths compared with the reference any-angle optimum.
    pub reference: usize,
    /// Lengths compared with the scenario's octile length (A*'s must equal it; optimal
    /// any-angle lengths must not exceed it).
    pub octile: usize,
    /// Optimal any-angle lengths compared with another optimal planner of the same run, where
    /// no reference is known.
    pub cross: usize,
    /// Paths walked by the legality checker.
    pub paths: usize,
    /// Queries every planner rejected (an endpoint blocked), as the reference, when there is
    /// one, says they should be.
    pub rejected: usize,
    /// Queries the scenario marks unreachable (length 0, start ≠ goal) that every planner
    /// proved unreachable.
    pub unreachable: usize,
}

/// Options of a run that are not part of a suite.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Replace the suite's planners with these.
    pub planners: Option<Vec<PlannerSpec>>,
    /// Replace the suite's sampling with this.
    pub sample: Option<usize>,
    /// At most this many queries per scenario file, after sampling (for smoke runs).
    pub max_queries_per_map: Option<usize>,
    /// Print one progress line per map on stderr.
    pub progress: bool,
}

/// Runs `suite`. Checks never stop the run: failures are recorded in
/// [`Record::failure`] so that the reports show them all.
///
/// # Errors
/// Missing or malformed maps, scenario files or reference data.
pub fn run_suite(suite: &Suite, opts: &RunOptions) -> Result<SuiteRun, BenchError> {
    let t0 = Instant::now();
    let files = suite.scenario_files()?;
    let map_names: Vec<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let reference = match &suite.reference {
        Some(path) => Some(Reference::read(path, &suite.reference_column, &map_names)?),
        None => None,
    };
    let planners = opts
        .planners
        .clone()
        .unwrap_or_else(|| suite.planners.clone());
    let sample = opts.sample.unwrap_or(suite.sample).max(1);
    let mut run = SuiteRun {
        name: suite.name.clone(),
        description: suite.description.clone(),
        planners: planners.clone(),
        promises: vec![None; planners.len()],
        maps: map_names.clone(),
        map_groups: map_names
            .iter()
            .map(|m| suite.groups_of(m).map(str::to_owned).collect())
            .collect(),
        groups: suite.groups.keys().cloned().collect(),
        records: Vec::new(),
        sample,
        max_queries: opts.max_queries_per_map,
        load: (load_average(), None),
        checked: CheckCounts::default(),
        wall: Duration::ZERO,
        meshes: Vec::new(),
        cpds: Vec::new(),
        hubs: Vec::new(),
    };
    let mut answer = Answer::default();
    for (mi, (map_name, scen_path)) in files.iter().enumerate() {
        let scen = Scenario::read(scen_path)?;
        let map_path = suite.maps.join(format!("{map_name}.map"));
        let map = MapFile::read(&map_path)?;
        let grid = Grid::from_map(&map, &FreeSet::default());
        let mut queries: Vec<usize> = (0..scen.entries.len()).step_by(sample).collect();
        if let Some(max) = opts.max_queries_per_map {
            queries.truncate(max);
        }
        for &q in &queries {
            let e = &scen.entries[q];
            if e.width != map.width() || e.height != map.height() {
                return Err(BenchError::Data {
                    path: scen_path.clone(),
                    msg: format!(
                        "line {}: the scenario says the map is {}×{}, {} is {}×{}",
                        e.line,
                        e.width,
                        e.height,
                        map_path.display(),
                        map.width(),
                        map.height()
                    ),
                });
            }
        }
        let first = run.records.len();
        // One record per (query, planner), in planner order, filled as each planner runs.
        for &q in &queries {
            let e = &scen.entries[q];
            let (reference, reference_expanded) = match &reference {
                Some(r) if r.has_map(map_name) => {
                    let row = r.get(map_name, q as u32).ok_or_else(|| BenchError::Data {
                        path: suite.reference.clone().unwrap_or_default(),
                        msg: format!("no row for {map_name} query {q}"),
                    })?;
                    if row.start != e.start || row.goal != e.goal {
                        return Err(BenchError::Data {
                            path: suite.reference.clone().unwrap_or_default(),
                            msg: format!(
                                "the row for {map_name} query {q} is for {:?}→{:?}, the scenario asks {:?}→{:?}: \
                                 the reference belongs to another scenario file",
                                row.start, row.goal, e.start, e.goal
                            ),
                        });
                    }
                    (row.length, row.java_expanded)
                }
                _ => (None, None),
            };
            for p in 0..planners.len() {
                run.records.push(Record {
                    map: mi as u32,
                    idx: q as u32,
                    bucket: e.bucket,
                    start: e.start,
                    goal: e.goal,
                    octile: e.octile,
                    reference,
                    reference_expanded,
                    planner: p as u8,
                    outcome: QueryOutcome::Invalid,
                    length: f64::INFINITY,
                    expanded: 0,
                    generated: 0,
                    heap_ops: 0,
                    micros: 0.0,
                    failure: None,
                });
            }
        }
        // Planners take turns map by map, in an order rotated from map to map, so that a
        // change in machine load hits them alike.
        let np = planners.len();
        // Meshes, CPDs and hub indexes are built or read once per map, before (and outside)
        // any timing: the suite's files when up to date, else built in memory (and reported).
        let mut map = taut::Map::new(grid);
        let given = suite.mesh_of(map_name);
        if let Some(mesh) = &given {
            map = map.with_mesh_file(mesh);
        }
        let cpd_file = suite.cpd_of(map_name);
        if let Some(cpd) = &cpd_file {
            map = map.with_cpd(Source::Cached(cpd.clone()));
        }
        let hub_file = suite.hub_of(map_name);
        if let Some(hub) = &hub_file {
            map = map.with_hub(Source::Cached(hub.clone()));
        }
        for spec in planners.iter() {
            map.prepare(spec).map_err(|e| {
                let path = match &e {
                    taut::SetupError::CpdFile { .. } | taut::SetupError::CpdBuild(_) => {
                        cpd_file.clone()
                    }
                    taut::SetupError::HubFile { .. }
                    | taut::SetupError::HubBuild(_)
                    | taut::SetupError::HubStale(_) => hub_file.clone(),
                    _ => given.clone(),
                };
                BenchError::Data {
                    path: path.unwrap_or_else(|| map_path.clone()),
                    msg: e.to_string(),
                }
            })?;
        }
        let built = map.mesh_if_ready(MeshChoice::Built);
        let given_mesh = map.mesh_if_ready(MeshChoice::Given);
        if built.is_some() || given_mesh.is_some() {
            run.meshes.push(MeshInfo {
                map: mi as u32,
                build_secs: built.as_ref().map_or(0.0, |m| m.secs),
                built_polygons: built.as_ref().map_or(0, |m| m.mesh.polygon_count()),
                given_polygons: given_mesh.as_ref().map_or(0, |m| m.mesh.polygon_count()),
            });
        }
        for c in [MeshChoice::Built, MeshChoice::Given]
            .into_iter()
            .filter_map(|m| map.cpd_if_ready(m))
        {
            run.cpds.push(CpdInfo {
                map: mi as u32,
                built: c.built,
                secs: c.secs,
                nodes: c.stats.nodes,
                edges: c.stats.edges,
                runs: c.stats.runs,
                bytes: c.stats.total_bytes,
            });
        }
        for h in [MeshChoice::Built, MeshChoice::Given]
            .into_iter()
            .filter_map(|m| map.hub_if_ready(m))
        {
            run.hubs.push(HubInfo {
                map: mi as u32,
                built: h.built,
                secs: h.secs,
                corners: h.stats.corners,
                region: h.stats.region,
                bytes: h.stats.bytes,
            });
        }
        let grid = &**map.grid();
        for k in 0..np {
            let p = (mi + k) % np;
            let mut planner = map.planner(&planners[p]).map_err(|e| BenchError::Data {
                path: map_path.clone(),
                msg: e.to_string(),
            })?;
            let promise = (planner.guarantee(), planner.path_model());
            match run.promises[p] {
                None => run.promises[p] = Some(promise),
                Some(said) if said != promise => {
                    return Err(BenchError::Data {
                        path: map_path.clone(),
                        msg: format!(
                            "{} promised {said:?} on an earlier map and {promise:?} here",
                            planners[p]
                        ),
                    });
                }
                Some(_) => {}
            }
            // One untimed warm-up query: the first query pays for growing the planner's
            // buffers and for first-touch page faults.
            if let Some(&q) = queries.last() {
                let e = &scen.entries[q];
                let _ = planner.plan(e.start, e.goal, &mut answer);
            }
            for (qi, &q) in queries.iter().enumerate() {
                let e = &scen.entries[q];
                let t = Instant::now();
                let result = planner.plan(e.start, e.goal, &mut answer);
                let micros = t.elapsed().as_secs_f64() * 1e6;
                let rec = &mut run.records[first + qi * np + p];
                rec.micros = micros;
                rec.expanded = answer.stats.expanded;
                rec.generated = answer.stats.generated;
                rec.heap_ops = answer.stats.heap_ops;
                rec.outcome = match result {
                    Ok(Status::Found) => QueryOutcome::Found,
                    Ok(Status::Unreachable) => QueryOutcome::Unreachable,
                    Err(_) => QueryOutcome::Invalid,
                };
                rec.length = answer.length;
                if rec.outcome == QueryOutcome::Found {
                    run.checked.paths += 1;
                    rec.failure = check_path(grid, e.start, e.goal, &answer);
                }
            }
        }
        let promises: Vec<Promise> = run
            .promises
            .iter()
            .map(|p| p.expect("built above"))
            .collect();
        check_lengths(
            &mut run.records[first..],
            &promises,
            scen.format.lengths,
            &mut run.checked,
        );
        if opts.progress {
            let failed = run.records[first..]
                .iter()
                .filter(|r| r.failure.is_some())
                .count();
            eprintln!(
                "  [{}/{}] {} {}: {} queries × {} planners{}",
                mi + 1,
                files.len(),
                suite.name,
                map_name,
                queries.len(),
                np,
                if failed > 0 {
                    format!(", {failed} FAILED")
                } else {
                    String::new()
                }
            );
        }
    }
    run.wall = t0.elapsed();
    run.load.1 = load_average();
    Ok(run)
}

impl SuiteRun {
    /// The index of the planner that defines difficulty and speedups: the first with default
    /// options that promises the octile optimum (A*).
    pub fn astar(&self) -> Option<usize> {
        self.planners
            .iter()
            .zip(&self.promises)
            .position(|(spec, promise)| {
                *promise == Some((Guarantee::Optimal, PathModel::Octile))
                    && spec.tuning == Default::default()
            })
    }
}

/// The 1-minute load average, where the system reports one.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The legality of a found path and the agreement of its polyline with the reported length.
fn check_path(grid: &Grid, start: Point, goal: Point, answer: &Answer) -> Option<String> {
    if let Err(v) = grid.check_path(start, goal, &answer.waypoints) {
        return Some(format!("illegal path: {v}"));
    }
    let poly = path_length(&answer.waypoints);
    if (poly - answer.length).abs() > 1e-9 * poly.max(1.0) {
        return Some(format!(
            "reported length {} but the waypoints measure {poly}",
            answer.length
        ));
    }
    None
}

/// Checks the lengths of one map's records (grouped by query, in planner order) by each
/// planner's guarantee. Appends to a record's failure rather than replacing it.
fn check_lengths(
    records: &mut [Record],
    promises: &[Promise],
    style: taut::grid::LengthStyle,
    counts: &mut CheckCounts,
) {
    let np = promises.len();
    for query in records.chunks_mut(np) {
        let (reference, octile) = (query[0].reference, query[0].octile);
        // The older generation lists some unreachable queries, with length 0.
        let scenario_unreachable = octile == 0.0 && query[0].start != query[0].goal;
        let invalid_expected = reference.is_some_and(|r| r < 0.0);
        let all_invalid = query.iter().all(|r| r.outcome == QueryOutcome::Invalid);
        let some_invalid = query.iter().any(|r| r.outcome == QueryOutcome::Invalid);
        if all_invalid {
            counts.rejected += 1;
        }
        if scenario_unreachable && query.iter().all(|r| r.outcome == QueryOutcome::Unreachable) {
            counts.unreachable += 1;
        }
        // The optimum the feasible planners are held to: the reference, else the shortest
        // optimal any-angle length of this run.
        let optimal_lengths: Vec<f64> = query
            .iter()
            .filter(|r| {
                promises[r.planner as usize] == (Guarantee::Optimal, PathModel::AnyAngle)
                    && r.outcome == QueryOutcome::Found
            })
            .map(|r| r.length)
            .collect();
        let optimum = reference
            .filter(|r| *r >= 0.0)
            .or_else(|| optimal_lengths.iter().copied().reduce(f64::min));
        for rec in query.iter_mut() {
            let promise = promises[rec.planner as usize];
            let mut fail = |msg: String| {
                rec.failure = Some(match rec.failure.take() {
                    Some(prev) => format!("{prev}; {msg}"),
                    None => msg,
                });
            };
            match (rec.outcome, invalid_expected) {
                (QueryOutcome::Invalid, true) => continue,
                (QueryOutcome::Invalid, false) => {
                    if reference.is_some() {
                        fail("rejected a query the reference solved".into());
                    } else if !all_invalid {
                        fail("rejected a query another planner answered".into());
                    }
                    continue;
                }
                (_, true) => {
                    fail("answered a query whose endpoint the reference says is blocked".into());
                    continue;
                }
                (QueryOutcome::Unreachable, false) => {
                    if !scenario_unreachable {
                        fail("no path, but the scenario gives one".into());
                    }
                    continue;
                }
                (QueryOutcome::Found, false) => {
                    if scenario_unreachable {
                        fail("found a path, but the scenario says there is none".into());
                        continue;
                    }
                    if some_invalid && reference.is_none() {
                        fail("answered a query another planner rejected".into());
                        continue;
                    }
                }
            }
            let len = rec.length;
            match promise {
                (Guarantee::Optimal, PathModel::Octile) => {
                    counts.octile += 1;
                    if (len - octile).abs() > style.tolerance(octile) {
                        fail(format!("octile length {len}, the scenario says {octile}"));
                    }
                }
                (_, PathModel::Octile) => {
                    counts.octile += 1;
                    if len < octile - style.tolerance(octile) {
                        fail(format!("octile length {len} below the scenario's {octile}"));
                    }
                }
                (Guarantee::Optimal, PathModel::AnyAngle) => {
                    counts.octile += 1;
                    if len > octile + style.tolerance(octile) {
                        fail(format!("length {len} above the octile optimum {octile}"));
                    }
                    match reference {
                        Some(r) => {
                            counts.reference += 1;
                            if (len - r).abs() > LENGTH_TOLERANCE {
                                fail(format!("length {len}, the reference optimum is {r}"));
                            }
                        }
                        None if optimal_lengths.len() > 1 => {
                            counts.cross += 1;
                            let (lo, hi) = optimal_lengths
                                .iter()
                                .fold((f64::INFINITY, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
                            if hi - lo > LENGTH_TOLERANCE {
                                fail(format!(
                                    "optimal planners disagree: lengths from {lo} to {hi}"
                                ));
                            }
                        }
                        None => {}
                    }
                }
                (Guarantee::Any, PathModel::AnyAngle) => {
                    if let Some(opt) = optimum {
                        counts.reference += usize::from(reference.is_some());
                        if len < opt - LENGTH_TOLERANCE {
                            fail(format!("length {len} below the optimum {opt}"));
                        }
                    }
                }
                (Guarantee::WithinFactor(q), PathModel::AnyAngle) => {
                    if let Some(opt) = optimum {
                        counts.reference += usize::from(reference.is_some());
                        if len < opt - LENGTH_TOLERANCE {
                            fail(format!("length {len} below the optimum {opt}"));
                        }
                        if len > q.0 * opt + LENGTH_TOLERANCE {
                            fail(format!(
                                "length {len} above {} times the optimum {opt}",
                                q.0
                            ));
                        }
                    }
                }
            }
        }
    }
}
