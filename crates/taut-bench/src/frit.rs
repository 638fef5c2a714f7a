//! The real-time agents' experiment (`taut-bench frit`, `cargo xtask bench frit`): the
//! protocol of the p-FRIT_RT paper's Section 4 on its 12 game maps.
//!
//! For each map, a fixed set of solvable problems is drawn: start and goal uniform over the
//! free cells (SplitMix64 seeded by [`seed_for`]`(seed, "frit", map)`), redrawn until they are
//! distinct and connected under the agents' move rule. Every real-time algorithm runs every
//! problem at every lookahead; LRTA*, Bug2 and FRIT(BFS) run once (their lookahead is fixed);
//! the full-knowledge optimum comes from A* under the same move rule
//! ([`World::optimal_cost`]). Every run must reach the goal; the simulator asserts the
//! lookahead bound of every episode.
//!
//! The FRIT family runs with one [`FritConfig`] (a profile, `paper` or `taut`, and single
//! options over it) and the world with one [`MoveRule`]; both are written into every report.
//! The summary gives the paper's cost ratios with 95 % bootstrap intervals (problems resampled
//! within each map, the same draw for both algorithms of a ratio), and the distribution of
//! planning-episode times per lookahead.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use plotters::prelude::*;
use rayon::prelude::*;
use taut::frit::{
    AgentAlgo, FritConfig, MoveRule, RunParams, Scratch, Status, TimeHistogram, World, run,
};
use taut::grid::{FreeSet, Grid, MapFile};

use crate::error::BenchError;
use crate::machine::Provenance;
use crate::sphere::sample::{SplitMix64, seed_for};

/// The paper's 12 maps (its footnote 4): six from Dragon Age: Origins, six from StarCraft.
pub const PAPER_MAPS: [&str; 12] = [
    "brc202d",
    "orz702d",
    "orz900d",
    "ost000a",
    "ost000t",
    "ost100d",
    "ArcticStation",
    "Enigma",
    "Inferno",
    "JungleSiege",
    "Ramparts",
    "WheelofWar",
];

/// The paper's 9 lookaheads (its section 4: 1, 2, 4, ..., 128 and 512; no 256).
pub const LOOKAHEADS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 512];

/// Bootstrap resamples behind each interval.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// The default seed.
pub const DEFAULT_SEED: u64 = 20_130_611;

/// The experiment's options.
#[derive(Debug, Clone)]
pub struct FritOptions {
    /// Directory holding `NAME.map` for every map.
    pub maps_dir: PathBuf,
    /// Map names (without `.map`).
    pub maps: Vec<String>,
    /// Problems per map.
    pub problems: usize,
    /// Run only problems `first_problem..problems` of each map (0: all; must be below
    /// `problems`). The problems are drawn as always, so an extension run's problems keep
    /// their indexes and pair with an earlier run's.
    pub first_problem: usize,
    /// Lookaheads for the real-time algorithms.
    pub lookaheads: Vec<u32>,
    /// Algorithms to run.
    pub algos: Vec<AgentAlgo>,
    /// Seed of the problem generator.
    pub seed: u64,
    /// Worker threads (runs are timed one by one; more threads share caches).
    pub threads: usize,
    /// Print progress on stderr.
    pub progress: bool,
    /// The FRIT family's configuration (the other agents ignore it).
    pub config: FritConfig,
    /// A name for the configuration in reports (`paper`, `taut`, `paper+learned-h=keep`).
    pub config_name: String,
    /// The world's move rule (and the optimum's).
    pub moves: MoveRule,
    /// INTREE pointer steps per unit of lookahead ([`RunParams::steps_per_expansion`];
    /// `u64::MAX` for unbounded walks).
    pub steps_per_expansion: u64,
    /// A cap on moves per run instead of the library's default ([`RunParams::max_moves`]).
    pub max_moves: Option<u64>,
}

/// One problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Problem {
    /// Start cell.
    pub start: (i32, i32),
    /// Goal cell.
    pub goal: (i32, i32),
    /// Full-knowledge optimum under the world's move rule.
    pub optimal: f64,
}

/// One run of one algorithm on one problem.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    /// Map name.
    pub map: String,
    /// Problem index within the map.
    pub problem: usize,
    /// Algorithm.
    pub algo: AgentAlgo,
    /// Lookahead asked for (the agent's effective lookahead may differ, see
    /// [`AgentAlgo::effective_lookahead`]).
    pub lookahead: u32,
    /// Final status name.
    pub status: &'static str,
    /// Travelled cost.
    pub cost: f64,
    /// Moves.
    pub moves: u64,
    /// Planning episodes.
    pub episodes: u64,
    /// Expansions.
    pub expansions: u64,
    /// Largest episode.
    pub max_episode_expansions: u32,
    /// Total decision time, µs.
    pub time_us: f64,
    /// Time in planning episodes, µs.
    pub episode_time_us: f64,
    /// The problem's optimum.
    pub optimal: f64,
    /// Start cell.
    pub start: (i32, i32),
    /// Goal cell.
    pub goal: (i32, i32),
    /// Planning-episode times of the run.
    pub episode_times: TimeHistogram,
}

/// Draws `n` solvable problems on `world` (see the module docs) and solves each with A*.
pub fn problems(world: &World<'_>, n: usize, seed: u64) -> Vec<Problem> {
    let free: Vec<u32> = (0..world.cells() as u32)
        .filter(|&c| world.is_free(c))
        .collect();
    let mut out = Vec::with_capacity(n);
    if free.len() < 2 {
        return out;
    }
    let mut rng = SplitMix64::new(seed);
    while out.len() < n {
        let s = free[rng.below(free.len())];
        let g = free[rng.below(free.len())];
        if s == g || !world.connected(s, g) {
            continue;
        }
        out.push(Problem {
            start: world.xy(s),
            goal: world.xy(g),
            optimal: world.optimal_cost(s, g).unwrap_or(f64::NAN),
        });
    }
    out
}

fn write_err(path: &Path, e: std::io::Error) -> BenchError {
    BenchError::Write {
        path: path.to_owned(),
        msg: e.to_string(),
    }
}

/// The runs of the experiment on one map, in a deterministic order.
fn run_map(
    name: &str,
    grid: &Grid,
    opts: &FritOptions,
    done: &AtomicUsize,
    total: usize,
) -> Vec<RunRow> {
    let world = World::with_moves(grid, opts.moves);
    let probs = problems(&world, opts.problems, seed_for(opts.seed, "frit", name));
    let mut jobs: Vec<(usize, AgentAlgo, u32)> = Vec::new();
    for (i, _) in probs.iter().enumerate().skip(opts.first_problem) {
        for &algo in &opts.algos {
            if algo.uses_lookahead() {
                for &k in &opts.lookaheads {
                    jobs.push((i, algo, k));
                }
            } else {
                jobs.push((i, algo, 1));
            }
        }
    }
    let t0 = Instant::now();
    let rows: Vec<RunRow> = jobs
        .par_iter()
        .map_init(Scratch::new, |scratch, &(i, algo, k)| {
            let p = &probs[i];
            let mut agent = algo.agent_with(&opts.config);
            let params = RunParams {
                steps_per_expansion: opts.steps_per_expansion,
                max_moves: opts.max_moves,
                ..RunParams::new(algo.effective_lookahead(k))
            };
            let row = match run(&world, agent.as_mut(), p.start, p.goal, &params, scratch) {
                Ok(out) => RunRow {
                    map: name.to_owned(),
                    problem: i,
                    algo,
                    lookahead: k,
                    status: out.status.name(),
                    cost: out.stats.cost,
                    moves: out.stats.moves,
                    episodes: out.stats.episodes,
                    expansions: out.stats.expansions,
                    max_episode_expansions: out.stats.max_episode_expansions,
                    time_us: out.stats.time.as_secs_f64() * 1e6,
                    episode_time_us: out.stats.episode_time.as_secs_f64() * 1e6,
                    optimal: p.optimal,
                    start: p.start,
                    goal: p.goal,
                    episode_times: out.stats.episode_times,
                },
                Err(_) => RunRow {
                    map: name.to_owned(),
                    problem: i,
                    algo,
                    lookahead: k,
                    status: "invalid",
                    cost: f64::NAN,
                    moves: 0,
                    episodes: 0,
                    expansions: 0,
                    max_episode_expansions: 0,
                    time_us: 0.0,
                    episode_time_us: 0.0,
                    optimal: p.optimal,
                    start: p.start,
                    goal: p.goal,
                    episode_times: TimeHistogram::default(),
                },
            };
            if matches!(out_status(&row), Some(false)) && opts.progress {
                eprintln!(
                    "taut-bench frit: {name} problem {i} {algo} k={k}: {}",
                    row.status
                );
            }
            row
        })
        .collect();
    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
    if opts.progress {
        eprintln!(
            "taut-bench frit: map {d}/{total} {name}: {} problems, {} runs in {:.1} s",
            probs.len().saturating_sub(opts.first_problem),
            rows.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    rows
}

/// `Some(true)` for a reached goal, `Some(false)` otherwise.
fn out_status(row: &RunRow) -> Option<bool> {
    Some(row.status == Status::Reached.name())
}

/// Runs the experiment: every map, problem, algorithm and lookahead.
pub fn run_experiment(opts: &FritOptions) -> Result<Vec<RunRow>, BenchError> {
    if opts.first_problem >= opts.problems {
        return Err(BenchError::Data {
            path: PathBuf::from("--first-problem"),
            msg: format!(
                "{} leaves no problem to run: it must be below --problems ({})",
                opts.first_problem, opts.problems
            ),
        });
    }
    let mut grids = Vec::new();
    for name in &opts.maps {
        let path = opts.maps_dir.join(format!("{name}.map"));
        let map = MapFile::read(&path).map_err(|e| BenchError::Data {
            path: path.clone(),
            msg: e.to_string(),
        })?;
        grids.push((name.clone(), Grid::from_map(&map, &FreeSet::default())));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(|e| BenchError::Data {
            path: PathBuf::from("--threads"),
            msg: e.to_string(),
        })?;
    let done = AtomicUsize::new(0);
    let total = grids.len();
    let rows = pool.install(|| {
        grids
            .iter()
            .flat_map(|(name, grid)| run_map(name, grid, opts, &done, total))
            .collect::<Vec<_>>()
    });
    Ok(rows)
}

/// Mean figures of one algorithm at one lookahead over every problem of every map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    /// Runs.
    pub runs: usize,
    /// Runs that reached the goal.
    pub reached: usize,
    /// Mean travelled cost.
    pub cost: f64,
    /// Mean total time per run, µs.
    pub time_us: f64,
    /// Mean time per planning episode, µs (total episode time / total episodes).
    pub episode_us: f64,
    /// Mean episodes per run.
    pub episodes: f64,
    /// Largest episode seen.
    pub max_episode_expansions: u32,
    /// Planning-episode times of every run.
    pub episode_times: TimeHistogram,
}

/// The table of means, keyed by algorithm and lookahead.
pub fn summarise(rows: &[RunRow]) -> BTreeMap<(AgentAlgo, u32), Cell> {
    let mut acc: BTreeMap<(AgentAlgo, u32), (Cell, f64, u64)> = BTreeMap::new();
    for r in rows {
        let (c, ep_time, eps) = acc.entry((r.algo, r.lookahead)).or_default();
        c.runs += 1;
        if r.status == Status::Reached.name() {
            c.reached += 1;
        }
        c.cost += r.cost;
        c.time_us += r.time_us;
        c.episodes += r.episodes as f64;
        c.max_episode_expansions = c.max_episode_expansions.max(r.max_episode_expansions);
        c.episode_times.merge(&r.episode_times);
        *ep_time += r.episode_time_us;
        *eps += r.episodes;
    }
    acc.into_iter()
        .map(|(k, (mut c, ep_time, eps))| {
            let n = c.runs as f64;
            c.cost /= n;
            c.time_us /= n;
            c.episodes /= n;
            c.episode_us = if eps == 0 { 0.0 } else { ep_time / eps as f64 };
            (k, c)
        })
        .collect()
}

/// Mean optimum over the problems.
fn mean_optimal(rows: &[RunRow]) -> f64 {
    let mut seen = BTreeMap::new();
    for r in rows {
        seen.insert((r.map.clone(), r.problem), r.optimal);
    }
    seen.values().sum::<f64>() / seen.len().max(1) as f64
}

/// A statistic with its 95 % bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The statistic on the whole sample.
    pub value: f64,
    /// 2.5th percentile of the bootstrap distribution.
    pub lo: f64,
    /// 97.5th percentile.
    pub hi: f64,
}

impl std::fmt::Display for Interval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = if self.value.abs() >= 100.0 { 0 } else { 2 };
        write!(
            f,
            "{:.*} [{:.*}, {:.*}]",
            digits, self.value, digits, self.lo, digits, self.hi
        )
    }
}

/// Costs of two algorithms on one problem.
type Pair = (f64, f64);

/// Costs of `a` and `b` on the same problems, grouped by map (problems either did not run
/// are left out).
fn paired_costs(rows: &[RunRow], a: (AgentAlgo, u32), b: (AgentAlgo, u32)) -> Vec<Vec<Pair>> {
    type Maybe = (Option<f64>, Option<f64>);
    let mut by: BTreeMap<(&str, usize), Maybe> = BTreeMap::new();
    for r in rows {
        let key = (r.algo, r.lookahead);
        let e = by.entry((r.map.as_str(), r.problem)).or_default();
        if key == a {
            e.0 = Some(r.cost);
        }
        if key == b {
            e.1 = Some(r.cost);
        }
    }
    let mut maps: BTreeMap<&str, Vec<Pair>> = BTreeMap::new();
    for ((map, _), pair) in by {
        if let (Some(x), Some(y)) = pair {
            maps.entry(map).or_default().push((x, y));
        }
    }
    maps.into_values().collect()
}

/// `stat(Σx, Σy, n)` on `groups` and its 95 % interval from [`BOOTSTRAP_RESAMPLES`]
/// resamples, each drawing every group's pairs with replacement (stratified by map, paired).
/// Deterministic: the generator is seeded with `seed`.
fn bootstrap(
    groups: &[Vec<Pair>],
    seed: u64,
    stat: impl Fn(f64, f64, usize) -> f64,
) -> Option<Interval> {
    let n: usize = groups.iter().map(Vec::len).sum();
    if n == 0 {
        return None;
    }
    let add = |a: Pair, p: Pair| (a.0 + p.0, a.1 + p.1);
    let (sx, sy) = groups.iter().flatten().copied().fold((0.0, 0.0), add);
    let value = stat(sx, sy, n);
    let mut rng = SplitMix64::new(seed);
    let mut draws: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let mut sum = (0.0, 0.0);
            for g in groups {
                for _ in 0..g.len() {
                    sum = add(sum, g[rng.below(g.len())]);
                }
            }
            stat(sum.0, sum.1, n)
        })
        .collect();
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| draws[((q * draws.len() as f64) as usize).min(draws.len() - 1)];
    Some(Interval {
        value,
        lo: at(0.025),
        hi: at(0.975),
    })
}

/// The ratio of mean costs `a / b` over the problems both ran, with its interval.
pub fn cost_ratio(rows: &[RunRow], a: (AgentAlgo, u32), b: (AgentAlgo, u32)) -> Option<Interval> {
    bootstrap(&paired_costs(rows, a, b), DEFAULT_SEED, |x, y, _| x / y)
}

/// The mean cost of `a`, with its interval.
pub fn mean_cost(rows: &[RunRow], a: (AgentAlgo, u32)) -> Option<Interval> {
    bootstrap(&paired_costs(rows, a, a), DEFAULT_SEED, |x, _, n| {
        x / n as f64
    })
}

/// The geometric mean and the median of the per-problem ratios `a / b`: far less swayed by
/// the few very long runs than the ratio of means.
pub fn per_problem_ratios(
    rows: &[RunRow],
    a: (AgentAlgo, u32),
    b: (AgentAlgo, u32),
) -> Option<(f64, f64)> {
    let mut r: Vec<f64> = paired_costs(rows, a, b)
        .into_iter()
        .flatten()
        .filter(|&(x, y)| x > 0.0 && y > 0.0)
        .map(|(x, y)| x / y)
        .collect();
    if r.is_empty() {
        return None;
    }
    let geo = (r.iter().map(|x| x.ln()).sum::<f64>() / r.len() as f64).exp();
    r.sort_by(f64::total_cmp);
    let mid = r.len() / 2;
    let median = if r.len() % 2 == 1 {
        r[mid]
    } else {
        (r[mid - 1] + r[mid]) / 2.0
    };
    Some((geo, median))
}

/// Writes `runs.csv`, `summary.md` and `cost.svg` into `out`; returns the Markdown path.
pub fn write_reports(
    rows: &[RunRow],
    opts: &FritOptions,
    out: &Path,
    repo: &Path,
    command: &str,
) -> Result<PathBuf, BenchError> {
    std::fs::create_dir_all(out).map_err(|e| write_err(out, e))?;
    let prov = Provenance::collect(repo);
    let mut csv = format!(
        "# {}\n# command: {command}\n# frit: {} ({}); moves: {}; intree steps per expansion: {}\n",
        prov.line(),
        opts.config_name,
        opts.config,
        opts.moves.name(),
        steps_name(opts.steps_per_expansion)
    );
    csv.push_str("map,problem,sx,sy,gx,gy,algo,lookahead,status,cost,optimal,moves,episodes,expansions,max_episode_expansions,time_us,episode_time_us,episode_p50_us,episode_p99_us,episode_max_us\n");
    for r in rows {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{:.6},{:.6},{},{},{},{},{:.1},{:.1},{:.2},{:.2},{:.2}",
            r.map,
            r.problem,
            r.start.0,
            r.start.1,
            r.goal.0,
            r.goal.1,
            r.algo,
            r.lookahead,
            r.status,
            r.cost,
            r.optimal,
            r.moves,
            r.episodes,
            r.expansions,
            r.max_episode_expansions,
            r.time_us,
            r.episode_time_us,
            us(r.episode_times.quantile(0.5)),
            us(r.episode_times.quantile(0.99)),
            us(Some(r.episode_times.max()))
        );
    }
    let csv_path = out.join("runs.csv");
    std::fs::write(&csv_path, csv).map_err(|e| write_err(&csv_path, e))?;

    let table = summarise(rows);
    let opt = mean_optimal(rows);
    let mut md = String::new();
    let _ = writeln!(md, "# Real-time agents in unknown terrain\n");
    let _ = writeln!(md, "{}\n", prov.line());
    let _ = writeln!(md, "Command: `{command}`\n");
    let _ = writeln!(
        md,
        "Maps: {} ({}). Problems: {} per map, start and goal uniform over free cells, connected, \
         drawn by SplitMix64 with seed {} (per map: `seed_for(seed, \"frit\", map)`). Threads: {}. \
         Mean full-knowledge optimum: {:.1}.\n",
        opts.maps.len(),
        opts.maps.join(", "),
        if opts.first_problem == 0 {
            opts.problems.to_string()
        } else {
            format!(
                "{} (numbers {} to {} of the first {} drawn)",
                opts.problems - opts.first_problem,
                opts.first_problem,
                opts.problems - 1,
                opts.problems
            )
        },
        opts.seed,
        opts.threads,
        opt
    );
    let _ = writeln!(
        md,
        "FRIT family: **{}** (`{}`). Moves: **{}** (the optimum is A* under the same rule). \
         INTREE pointer steps per unit of lookahead: {}. Move cap per run: {}.\n",
        opts.config_name,
        opts.config,
        opts.moves.name(),
        steps_name(opts.steps_per_expansion),
        opts.max_moves.map_or(
            "the library's (100 per free cell + 10,000)".to_owned(),
            |m| m.to_string()
        )
    );
    let _ = writeln!(
        md,
        "An episode is a decision in which the agent searched; following a plan or the ideal \
         tree costs no expansion and is not an episode. Times are per run (all decisions) and \
         per episode.\n"
    );
    let _ = writeln!(
        md,
        "| algorithm | lookahead | runs | reached | mean cost | cost / optimal | mean time (µs) | time per episode (µs) | episodes per run | max expansions per episode |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for ((algo, k), c) in &table {
        let shown_k = if algo.uses_lookahead() {
            k.to_string()
        } else {
            format!("({})", algo.effective_lookahead(*k).min(999_999))
                .replace("(999999)", "unbounded")
        };
        let _ = writeln!(
            md,
            "| {algo} | {shown_k} | {} | {} | {:.1} | {:.2} | {:.0} | {:.2} | {:.1} | {} |",
            c.runs,
            c.reached,
            c.cost,
            c.cost / opt,
            c.time_us,
            c.episode_us,
            c.episodes,
            c.max_episode_expansions
        );
    }
    // The paper's ratios, with intervals.
    let _ = writeln!(
        md,
        "\n## p-FRIT_RT against daRTAA* and FRIT_RT (> 1 means p-FRIT_RT is cheaper)\n\n\
         Ratio of mean costs with its 95 % bootstrap interval ({BOOTSTRAP_RESAMPLES} resamples \
         of the problems within each map, paired), then the geometric mean and the median of \
         the per-problem ratios. The paper reports ratios at lookaheads 1 and 16 only.\n"
    );
    let _ = writeln!(
        md,
        "| lookahead | daRTAA* / p-FRIT_RT [95 % CI] | paper | geo. mean, median | FRIT_RT / p-FRIT_RT [95 % CI] | paper | geo. mean, median | RTAA* / p-FRIT_RT [95 % CI] |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    let p = |k: u32| (AgentAlgo::PFritRt, k);
    let ci =
        |a: AgentAlgo, k: u32| cost_ratio(rows, (a, k), p(k)).map_or("-".into(), |i| i.to_string());
    let geo = |a: AgentAlgo, k: u32| {
        per_problem_ratios(rows, (a, k), p(k))
            .map_or("-".into(), |(g, m)| format!("{g:.2}, {m:.2}"))
    };
    for &k in &opts.lookaheads {
        let (pd, pf) = match k {
            1 => ("6.9", "8.3"),
            16 => ("2.7", "4.5"),
            _ => ("", ""),
        };
        let _ = writeln!(
            md,
            "| {k} | {} | {pd} | {} | {} | {pf} | {} | {} |",
            ci(AgentAlgo::DaRtaa, k),
            geo(AgentAlgo::DaRtaa, k),
            ci(AgentAlgo::FritRt, k),
            geo(AgentAlgo::FritRt, k),
            ci(AgentAlgo::Rtaa, k)
        );
    }
    let _ = writeln!(
        md,
        "\n## Mean cost beside the paper's (section 4 gives p-FRIT_RT at 16, 32, 64 and Bug2)\n"
    );
    let _ = writeln!(
        md,
        "| algorithm | lookahead | mean cost [95 % CI] | paper | cost / optimal |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    for ((algo, k), c) in &table {
        let paper = match (algo, k) {
            (AgentAlgo::PFritRt, 16) => "7,629",
            (AgentAlgo::PFritRt, 32) => "4,210",
            (AgentAlgo::PFritRt, 64) => "3,225",
            (AgentAlgo::DaRtaa, 16) => "≈ 20,600 (2.7 × 7,629)",
            (AgentAlgo::FritRt, 16) => "≈ 34,300 (4.5 × 7,629)",
            (AgentAlgo::Bug2, _) => "6,546",
            _ => "",
        };
        let m = mean_cost(rows, (*algo, *k)).map_or("-".into(), |i| i.to_string());
        let _ = writeln!(md, "| {algo} | {k} | {m} | {paper} | {:.2} |", c.cost / opt);
    }
    let _ = writeln!(
        md,
        "\n## Planning time per episode\n\n\
         Every episode of every run, by lookahead: quantiles from a histogram whose buckets are \
         25 % wide (each figure is its bucket's upper edge, so at most 25 % above the true \
         value), and the exact maximum. These are wall times of `decide`, so they need \
         `--threads 1` on a quiet machine to mean anything.\n"
    );
    let _ = writeln!(
        md,
        "| algorithm | lookahead | episodes | p50 µs | p99 µs | max µs |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for ((algo, k), c) in &table {
        let h = &c.episode_times;
        let _ = writeln!(
            md,
            "| {algo} | {k} | {} | {:.2} | {:.2} | {:.1} |",
            h.count(),
            us(h.quantile(0.5)),
            us(h.quantile(0.99)),
            us(Some(h.max()))
        );
    }
    let failures: Vec<&RunRow> = rows
        .iter()
        .filter(|r| r.status != Status::Reached.name())
        .collect();
    let _ = writeln!(
        md,
        "\nRuns that did not reach the goal: {}.",
        failures.len()
    );
    for r in failures.iter().take(20) {
        let _ = writeln!(
            md,
            "- {} problem {} {} k={}: {}",
            r.map, r.problem, r.algo, r.lookahead, r.status
        );
    }
    let md_path = out.join("summary.md");
    std::fs::write(&md_path, md).map_err(|e| write_err(&md_path, e))?;
    let svg = out.join("cost.svg");
    plot_costs(&table, opt, &opts.lookaheads, &svg)?;
    Ok(md_path)
}

/// A duration in µs (NaN for none).
fn us(d: Option<std::time::Duration>) -> f64 {
    d.map_or(f64::NAN, |d| d.as_secs_f64() * 1e6)
}

/// `unbounded` for `u64::MAX`, else the number.
fn steps_name(steps: u64) -> String {
    if steps == u64::MAX {
        "unbounded".into()
    } else {
        steps.to_string()
    }
}

/// The paper's Figure 3: mean solution cost against lookahead, with FRIT(BFS), Bug2 and the
/// optimum as horizontal lines. Log scales on both axes.
fn plot_costs(
    table: &BTreeMap<(AgentAlgo, u32), Cell>,
    optimal: f64,
    lookaheads: &[u32],
    path: &Path,
) -> Result<(), BenchError> {
    let err = |e: &dyn std::fmt::Display| BenchError::Data {
        path: path.to_owned(),
        msg: format!("plot: {e}"),
    };
    let kmin = *lookaheads.iter().min().unwrap_or(&1) as f64;
    let kmax = (*lookaheads.iter().max().unwrap_or(&512) as f64).max(kmin * 2.0);
    let costs: Vec<f64> = table.values().map(|c| c.cost).chain([optimal]).collect();
    let ymin = costs.iter().cloned().fold(f64::INFINITY, f64::min).max(1.0) * 0.8;
    let ymax = costs.iter().cloned().fold(0.0, f64::max).max(ymin * 2.0) * 1.25;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Mean solution cost on the 12 maps", ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((kmin..kmax).log_scale(), (ymin..ymax).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("lookahead (expansions per episode)")
        .y_desc("mean solution cost")
        .draw()
        .map_err(|e| err(&e))?;
    let palette = [
        &RED,
        &BLUE,
        &GREEN,
        &MAGENTA,
        &CYAN,
        &BLACK,
        &RGBColor(200, 120, 0),
    ];
    for (i, algo) in [
        AgentAlgo::Rtaa,
        AgentAlgo::DaRtaa,
        AgentAlgo::FritRt,
        AgentAlgo::PFritRt,
    ]
    .into_iter()
    .enumerate()
    {
        let pts: Vec<(f64, f64)> = lookaheads
            .iter()
            .filter_map(|&k| table.get(&(algo, k)).map(|c| (f64::from(k), c.cost)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        let color = palette[i];
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(algo.name())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .map_err(|e| err(&e))?;
    }
    let mut lines: Vec<(String, f64)> = vec![("optimal (full knowledge)".into(), optimal)];
    for algo in [AgentAlgo::FritBfs, AgentAlgo::Bug2, AgentAlgo::Lrta] {
        if let Some((_, c)) = table.iter().find(|((a, _), _)| *a == algo) {
            lines.push((format!("{algo} (fixed lookahead)"), c.cost));
        }
    }
    for (i, (label, y)) in lines.into_iter().enumerate() {
        let color = palette[4 + i % 3];
        chart
            .draw_series(LineSeries::new(
                [(kmin, y), (kmax, y)],
                color.stroke_width(1),
            ))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(1)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
