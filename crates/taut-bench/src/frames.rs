//! Frame budgets (`taut-bench frames`): many agents' queries served by [`FrameScheduler`]
//! under one per-frame expansion budget, and what slicing a search costs.
//!
//! Two measurements on one map and its scenario:
//! - **Stepping overhead**, paired: each query answered one-shot ([`taut::Planner::plan`]) and in
//!   slices of each given size, alternating, so that both see the same machine state; the
//!   ratio of summed times per slice size.
//! - **Frame times** for each agent count: every agent asks for a scenario query, takes the
//!   next one when its answer arrives, for a fixed number of frames; the percentiles of the
//!   frames' wall times, the expansions and queries per frame, and how many frames a query
//!   waits for its answer.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use taut::grid::{Answer, Point, Scenario, Step};
use taut::registry::PlannerSpec;
use taut::{FrameBudget, FrameScheduler, Map};

use crate::BenchError;

/// What to measure.
#[derive(Debug, Clone)]
pub struct FramesOptions {
    /// The planner every agent uses.
    pub spec: PlannerSpec,
    /// Agent counts.
    pub agents: Vec<usize>,
    /// Expansions per frame and per turn.
    pub budget: FrameBudget,
    /// Frames per agent count.
    pub frames: u64,
    /// Slice sizes of the overhead measurement.
    pub slices: Vec<u64>,
    /// Queries of the overhead measurement (N valid ones of the scenario, short and long).
    pub overhead_queries: usize,
    /// Threads of the scheduler's pool.
    pub threads: usize,
    /// Search contexts (at most the agents).
    pub contexts: usize,
}

/// Stepping overhead at one slice size.
#[derive(Debug, Clone, Copy)]
pub struct Overhead {
    /// Expansions per step.
    pub slice: u64,
    /// Summed one-shot time.
    pub one_shot: Duration,
    /// Summed stepped time.
    pub stepped: Duration,
    /// Queries whose stepped answer differed from the one-shot answer (must be 0).
    pub differ: usize,
}

/// Frame times at one agent count.
#[derive(Debug, Clone)]
pub struct FrameRow {
    /// Agents.
    pub agents: usize,
    /// Frames run.
    pub frames: u64,
    /// The first frame's wall time, microseconds: it starts the first searches (kept out of
    /// the percentiles; the contexts were warmed on the longest query before it).
    pub first: f64,
    /// Frame wall times after the first, microseconds: median, 95th and 99th percentile,
    /// largest.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest.
    pub max: f64,
    /// Mean expansions per frame.
    pub expansions: f64,
    /// Queries answered over all frames.
    pub answered: u64,
    /// Median frames from request to answer.
    pub wait_p50: u64,
    /// 95th percentile of frames from request to answer.
    pub wait_p95: u64,
}

fn percentile<T: Copy + PartialOrd>(sorted: &[T], p: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    Some(sorted[i])
}

/// The valid queries of `scen` on `map`, in a fixed order that mixes short and long ones
/// (scenario files list them by length): the `i`-th is entry `i * 7919 mod n`.
fn valid_queries(map: &Map, scen: &Scenario) -> Vec<(Point, Point)> {
    let n = scen.entries.len();
    let stride = if n.is_multiple_of(7919) { 1 } else { 7919 };
    (0..n)
        .map(|i| &scen.entries[(i * stride) % n])
        .map(|e| (e.start, e.goal))
        .filter(|&(s, t)| map.grid().check_query(s, t).is_ok())
        .collect()
}

fn setup(e: taut::SetupError) -> BenchError {
    BenchError::Data {
        path: "planner".into(),
        msg: e.to_string(),
    }
}

/// Paired one-shot against stepped times for each slice size.
///
/// # Errors
/// When the planner cannot be made for the map.
pub fn overhead(
    map: &Map,
    scen: &Scenario,
    opts: &FramesOptions,
) -> Result<Vec<Overhead>, BenchError> {
    let qs: Vec<_> = valid_queries(map, scen)
        .into_iter()
        .take(opts.overhead_queries)
        .collect();
    let mut one = map.planner(&opts.spec).map_err(setup)?;
    let mut sliced = map.planner(&opts.spec).map_err(setup)?;
    let (mut a, mut b) = (Answer::default(), Answer::default());
    let mut rows = Vec::new();
    for &slice in &opts.slices {
        let mut row = Overhead {
            slice,
            one_shot: Duration::ZERO,
            stepped: Duration::ZERO,
            differ: 0,
        };
        for (i, &(s, t)) in qs.iter().enumerate() {
            // Alternate which goes first, so that neither always finds a warm cache.
            for first in [i % 2 == 0, i % 2 != 0] {
                if first {
                    let t0 = Instant::now();
                    let _ = one.plan(s, t, &mut a);
                    row.one_shot += t0.elapsed();
                } else {
                    let st = sliced.stepper().ok_or_else(|| BenchError::Data {
                        path: "planner".into(),
                        msg: format!("{} does not step", opts.spec),
                    })?;
                    let t0 = Instant::now();
                    if st.begin(s, t).is_ok() {
                        while st.step(slice) == Step::Pending {}
                        st.answer(&mut b);
                    }
                    row.stepped += t0.elapsed();
                }
            }
            if a.length.to_bits() != b.length.to_bits() || a.waypoints != b.waypoints {
                row.differ += 1;
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Frame times for `agents` agents.
///
/// # Errors
/// When the planner cannot be made for the map.
pub fn frame_times(
    map: &Map,
    scen: &Scenario,
    opts: &FramesOptions,
    agents: usize,
) -> Result<FrameRow, BenchError> {
    let qs = valid_queries(map, scen);
    if qs.is_empty() {
        return Err(BenchError::Data {
            path: "scenario".into(),
            msg: "no valid query".into(),
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| BenchError::Data {
            path: "threads".into(),
            msg: e.to_string(),
        })?;
    let contexts = opts.contexts.min(agents).max(1);
    let mut sched = FrameScheduler::new(map, &opts.spec, contexts, opts.budget)
        .map_err(setup)?
        .with_pool(pool);
    // Warm every context on the scenario's longest query (its last).
    let longest = scen
        .entries
        .iter()
        .rev()
        .map(|e| (e.start, e.goal))
        .find(|&(s, t)| map.grid().check_query(s, t).is_ok())
        .unwrap_or(qs[0]);
    sched.warm_up(longest.0, longest.1).expect("a valid query");
    let mut next = 0usize;
    let ids: Vec<_> = (0..agents).map(|_| sched.add_agent()).collect();
    let mut ask = |sched: &mut FrameScheduler, id| {
        let (s, t) = qs[next % qs.len()];
        next += 1;
        sched.request(id, s, t).expect("a valid query");
    };
    for &id in &ids {
        ask(&mut sched, id);
    }
    let mut times = Vec::with_capacity(opts.frames as usize);
    let mut waits = Vec::new();
    let mut expansions = 0u64;
    let mut answer = Answer::default();
    for _ in 0..opts.frames {
        let r = sched.frame();
        times.push(r.time.as_secs_f64() * 1e6);
        expansions += r.expansions;
        if r.finished > 0 {
            for &id in &ids {
                if let Some(f) = sched.take(id, &mut answer) {
                    waits.push(f.frames);
                    ask(&mut sched, id);
                }
            }
        }
    }
    let first = times.first().copied().unwrap_or(0.0);
    let mut times = times.split_off(1.min(times.len()));
    times.sort_by(f64::total_cmp);
    waits.sort_unstable();
    Ok(FrameRow {
        agents,
        frames: opts.frames,
        first,
        p50: percentile(&times, 0.5).unwrap_or(0.0),
        p95: percentile(&times, 0.95).unwrap_or(0.0),
        p99: percentile(&times, 0.99).unwrap_or(0.0),
        max: times.last().copied().unwrap_or(0.0),
        expansions: expansions as f64 / opts.frames.max(1) as f64,
        answered: waits.len() as u64,
        wait_p50: percentile(&waits, 0.5).unwrap_or(0),
        wait_p95: percentile(&waits, 0.95).unwrap_or(0),
    })
}

/// Runs both measurements on `map_path` and its scenario; returns a Markdown report.
///
/// # Errors
/// Unreadable map or scenario, or a planner that cannot be made.
pub fn run(map_path: &Path, scen_path: &Path, opts: &FramesOptions) -> Result<String, BenchError> {
    let map = Map::read(map_path, &taut::FreeSet::default())?;
    let scen = Scenario::read(scen_path)?;
    map.prepare(&opts.spec).map_err(setup)?;
    let name = map_path.file_name().map_or_else(
        || map_path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut md = String::new();
    let _ = writeln!(
        md,
        "map `{name}` ({}×{}), planner `{}`, budget {} expansions per frame in turns of {}, {} thread(s), at most {} search contexts\n",
        map.grid().width(),
        map.grid().height(),
        opts.spec,
        opts.budget.expansions,
        opts.budget.slice,
        opts.threads,
        opts.contexts
    );
    let _ = writeln!(
        md,
        "Stepping overhead ({} valid queries of every length, paired, alternating order):\n",
        opts.overhead_queries
    );
    let _ = writeln!(
        md,
        "| slice | one-shot total ms | stepped total ms | stepped / one-shot | answers differing |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    for o in overhead(&map, &scen, opts)? {
        let _ = writeln!(
            md,
            "| {} | {:.1} | {:.1} | {:.3} | {} |",
            o.slice,
            o.one_shot.as_secs_f64() * 1e3,
            o.stepped.as_secs_f64() * 1e3,
            o.stepped.as_secs_f64() / o.one_shot.as_secs_f64().max(1e-12),
            o.differ
        );
        eprintln!("overhead slice {}: done", o.slice);
    }
    let _ = writeln!(
        md,
        "\nFrame times ({} frames per row; contexts warmed on the scenario's longest query first; an agent asks for the next scenario query when its answer arrives; percentiles over the frames after the first):\n",
        opts.frames
    );
    let _ = writeln!(
        md,
        "| agents | first frame µs | frame p50 µs | p95 µs | p99 µs | max µs | expansions / frame | queries answered | wait p50 frames | wait p95 frames |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for &n in &opts.agents {
        let r = frame_times(&map, &scen, opts, n)?;
        let _ = writeln!(
            md,
            "| {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {} | {} | {} |",
            r.agents,
            r.first,
            r.p50,
            r.p95,
            r.p99,
            r.max,
            r.expansions,
            r.answered,
            r.wait_p50,
            r.wait_p95
        );
        eprintln!("{n} agents: done");
    }
    Ok(md)
}
