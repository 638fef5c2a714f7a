//! The unknown-terrain simulator: moves one agent (or, through [`crate::batch`], many) on the
//! true map, lets it sense its 8 neighbours after every move, counts and times every planning
//! episode, and checks every move and every claim the agent makes against the true map.

use std::time::{Duration, Instant};

use crate::agents::{Agent, Decision};
use crate::error::FritError;
use crate::world::{Belief, Budget, DIRS, MoveRule, Scratch, View, World, legal_move, move_cost};

/// How one run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The agent stands on the goal.
    Reached,
    /// The goal cannot be reached from the start on the true map. The simulator decides this
    /// from the map's connected components before the agent moves (the agent never sees them),
    /// so an unsolvable problem costs one table look-up, never a loop.
    Unsolvable,
    /// The agent used up [`Limits::max_moves`] moves or [`Limits::max_decisions`] decisions
    /// without reaching the goal: a safety net that no agent should need on a solvable problem
    /// (the tests assert it is never hit).
    Cutoff,
    /// The agent broke a rule: it tried an illegal move, or claimed that a solvable problem
    /// was unsolvable. A defect in the agent, reported instead of trusted.
    Failed(String),
}

impl Status {
    /// The word the CLI prints, from taut's one status vocabulary (docs/cli.md): `ok`
    /// (reached), `unreachable` (unsolvable), `limit` (cut off) and, for an agent only,
    /// `failed`.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Reached => "ok",
            Status::Unsolvable => "unreachable",
            Status::Cutoff => "limit",
            Status::Failed(_) => "failed",
        }
    }
}

/// Counters of one run. A *decision* is one call of [`Agent::decide`] (one frame: at most one
/// move); an *episode* is a decision in which the agent searched (expanded at least one state
/// or took at least one INTREE pointer step). Following a plan or the ideal tree is a
/// decision but not an episode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Travelled cost: 1 per straight move, √2 per diagonal move.
    pub cost: f64,
    /// Moves made.
    pub moves: u64,
    /// Decisions (calls of `decide`).
    pub decisions: u64,
    /// Planning episodes (decisions that searched).
    pub episodes: u64,
    /// Expansions over the whole run.
    pub expansions: u64,
    /// INTREE pointer steps over the whole run.
    pub steps: u64,
    /// The most expansions of any one episode (never above the lookahead: the simulator
    /// asserts it).
    pub max_episode_expansions: u32,
    /// Wall time spent in `decide`, over all decisions.
    pub time: Duration,
    /// Wall time spent in planning episodes.
    pub episode_time: Duration,
    /// The longest single decision.
    pub max_decision_time: Duration,
    /// Blocked cells the agent discovered.
    pub discovered: u64,
    /// The distribution of planning-episode times.
    pub episode_times: TimeHistogram,
}

/// A histogram of durations in logarithmic buckets: bucket 0 holds everything below
/// [`TimeHistogram::FIRST`], bucket `b ≥ 1` the durations in `[FIRST·1.25^(b−1),
/// FIRST·1.25^b)`, the last bucket everything longer. So a quantile read from it is exact to
/// within 25 %; the exact maximum is kept beside it. Recording is a logarithm and an
/// increment, no allocation after the first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeHistogram {
    counts: Vec<u64>,
    max: Duration,
}

impl TimeHistogram {
    /// The upper edge of bucket 0.
    pub const FIRST: Duration = Duration::from_nanos(50);
    /// Number of buckets (the last one starts at about 2.2 s).
    pub const BUCKETS: usize = 80;
    const RATIO: f64 = 1.25;

    fn bucket(d: Duration) -> usize {
        let ratio = d.as_secs_f64() / Self::FIRST.as_secs_f64();
        if ratio < 1.0 {
            0
        } else {
            ((ratio.ln() / Self::RATIO.ln()).floor() as usize + 1).min(Self::BUCKETS - 1)
        }
    }

    /// The upper edge of bucket `b`.
    fn upper(b: usize) -> Duration {
        Self::FIRST.mul_f64(Self::RATIO.powi(b as i32))
    }

    /// Records one duration.
    pub fn record(&mut self, d: Duration) {
        if self.counts.is_empty() {
            self.counts.resize(Self::BUCKETS, 0);
        }
        self.counts[Self::bucket(d)] += 1;
        self.max = self.max.max(d);
    }

    /// Adds another histogram's counts to this one.
    pub fn merge(&mut self, other: &TimeHistogram) {
        if other.counts.is_empty() {
            return;
        }
        if self.counts.is_empty() {
            self.counts.resize(Self::BUCKETS, 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.max = self.max.max(other.max);
    }

    /// Durations recorded.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The longest duration recorded (exact).
    pub fn max(&self) -> Duration {
        self.max
    }

    /// An upper bound on the `q`-quantile (`0 < q ≤ 1`): the upper edge of the bucket that
    /// holds it, at most 25 % above the true value, and never above the maximum. `None` when
    /// nothing was recorded.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * n as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return Some(Self::upper(b).min(self.max));
            }
        }
        Some(self.max)
    }
}

impl Stats {
    /// Mean time per planning episode (zero when there was none).
    pub fn time_per_episode(&self) -> Duration {
        if self.episodes == 0 {
            Duration::ZERO
        } else {
            self.episode_time / self.episodes as u32
        }
    }
}

/// Caps that turn a runaway agent into [`Status::Cutoff`] instead of a hang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many moves (default: see [`Limits::for_world`]).
    pub max_moves: u64,
    /// At most this many decisions, moves and waits together.
    pub max_decisions: u64,
}

impl Limits {
    /// The default caps for a map: 100 moves per free cell plus 10,000, and four times as many
    /// decisions. The agents' own bounds are far lower on solvable problems (see
    /// `docs/frit.md`); the caps only guard against defects.
    pub fn for_world(world: &World<'_>) -> Self {
        let free = world.grid().free_cells();
        let max_moves = 100 * free + 10_000;
        Limits {
            max_moves,
            max_decisions: 4 * max_moves,
        }
    }
}

/// The per-agent state the simulator keeps: where the agent is, what it has seen, its
/// counters and its status. The agent's own memory lives in the agent.
#[derive(Debug, Clone, Default)]
pub struct Body {
    /// Current cell.
    pub pos: u32,
    /// Goal cell.
    pub goal: u32,
    /// What the agent has seen.
    pub belief: Belief,
    /// Counters so far.
    pub stats: Stats,
    /// `Some` once the run has ended.
    pub status: Option<Status>,
    /// The cells visited, start first, when recording was asked for.
    pub trail: Option<Vec<u32>>,
}

/// Validates a problem on `world`: both cells on the map and free.
pub fn check_problem(
    world: &World<'_>,
    start: (i32, i32),
    goal: (i32, i32),
) -> Result<(u32, u32), FritError> {
    let cell = |which: &'static str, (x, y): (i32, i32)| -> Result<u32, FritError> {
        let c = world.cell(x, y).ok_or(FritError::OffMap {
            which,
            x,
            y,
            width: world.width(),
            height: world.height(),
        })?;
        if !world.is_free(c) {
            return Err(FritError::Blocked { which, x, y });
        }
        Ok(c)
    };
    Ok((cell("start", start)?, cell("goal", goal)?))
}

impl Body {
    /// Places an agent on `start` heading for `goal` (both already validated by
    /// [`check_problem`]), resets `agent` and lets it sense its surroundings. A goal that
    /// cannot be reached ends the run at once with [`Status::Unsolvable`].
    pub fn begin(
        &mut self,
        world: &World<'_>,
        agent: &mut dyn Agent,
        start: u32,
        goal: u32,
        record: bool,
    ) {
        self.pos = start;
        self.goal = goal;
        self.stats = Stats::default();
        self.status = None;
        self.belief.reset(world);
        self.stats.discovered = u64::from(self.belief.sense(world, start));
        self.trail = record.then(|| vec![start]);
        agent.reset(&View::new(world, &self.belief, goal), start);
        if start == goal {
            self.status = Some(Status::Reached);
        } else if !world.connected(start, goal) {
            self.status = Some(Status::Unsolvable);
        }
    }

    /// Whether the run has ended.
    pub fn done(&self) -> bool {
        self.status.is_some()
    }

    /// One decision of `agent` within `budget`: time it, check the budget was respected,
    /// check and make the move, sense, and update the status. Does nothing once the run has
    /// ended.
    ///
    /// # Panics
    /// If the agent expanded more states or took more pointer steps than the budget allows,
    /// which [`Budget`] makes impossible; the assertion is the simulator's own check of it.
    pub fn tick(
        &mut self,
        world: &World<'_>,
        agent: &mut dyn Agent,
        mut budget: Budget,
        scratch: &mut Scratch,
        limits: &Limits,
    ) {
        if self.status.is_some() {
            return;
        }
        let (limit, step_limit) = (budget.expansions_left(), budget.step_limit());
        let view = View::new(world, &self.belief, self.goal);
        let t0 = Instant::now();
        let decision = agent.decide(&view, self.pos, &mut budget, scratch);
        let dt = t0.elapsed();
        assert!(
            budget.expansions() <= limit && budget.steps() <= step_limit,
            "simulator: an episode of {} expanded {} states (limit {limit}) and took {} pointer steps (limit {step_limit})",
            agent.name(),
            budget.expansions(),
            budget.steps()
        );
        let s = &mut self.stats;
        s.decisions += 1;
        s.time += dt;
        s.max_decision_time = s.max_decision_time.max(dt);
        s.expansions += u64::from(budget.expansions());
        s.steps += budget.steps();
        if budget.expansions() > 0 || budget.steps() > 0 {
            s.episodes += 1;
            s.episode_time += dt;
            s.episode_times.record(dt);
            s.max_episode_expansions = s.max_episode_expansions.max(budget.expansions());
        }
        match decision {
            Decision::Move(d) => {
                let (x, y) = world.xy(self.pos);
                let truth = |x: i32, y: i32| world.cell(x, y).is_some_and(|c| world.is_free(c));
                let cut = world.moves() == MoveRule::CornerCut;
                let Some((nx, ny)) = legal_move(truth, cut, x, y, d) else {
                    let (dx, dy) = DIRS[usize::from(d % 8)];
                    self.status = Some(Status::Failed(format!(
                        "{} moved illegally from ({x}, {y}) by ({dx}, {dy})",
                        agent.name()
                    )));
                    return;
                };
                self.pos = (ny * world.width() + nx) as u32;
                s.cost += move_cost(d);
                s.moves += 1;
                s.discovered += u64::from(self.belief.sense(world, self.pos));
                if let Some(t) = &mut self.trail {
                    t.push(self.pos);
                }
                if self.pos == self.goal {
                    self.status = Some(Status::Reached);
                    return;
                }
            }
            Decision::Wait => {}
            Decision::Unsolvable => {
                self.status = Some(if world.connected(self.pos, self.goal) {
                    Status::Failed(format!(
                        "{} claimed a solvable problem unsolvable",
                        agent.name()
                    ))
                } else {
                    Status::Unsolvable
                });
                return;
            }
        }
        if s.moves >= limits.max_moves || s.decisions >= limits.max_decisions {
            self.status = Some(Status::Cutoff);
        }
    }
}

/// Parameters of a single-agent run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunParams {
    /// The lookahead `k`: at most `k` expansions per episode.
    pub lookahead: u32,
    /// INTREE pointer steps allowed per unit of lookahead (default
    /// [`RunParams::STEPS_PER_EXPANSION`]).
    pub steps_per_expansion: u64,
    /// Record the cells visited (for pictures).
    pub record: bool,
    /// A cap on moves replacing the default of [`Limits::for_world`] (decisions are capped at
    /// four times as many); a run that reaches it ends with [`Status::Cutoff`].
    pub max_moves: Option<u64>,
}

impl RunParams {
    /// INTREE pointer steps allowed per unit of lookahead. A step is one pointer chase (a
    /// hash look-up and a legality test), far cheaper than an expansion (8 successors, heap
    /// operations). With 8 steps per expansion a p-FRIT_RT agent at lookahead 32 circled an
    /// obstacle on orz900d for 9.7 million moves, its walks never completing; 64 lets a
    /// walk cover a game map's distances within a few visits. `docs/frit.md` discusses it.
    pub const STEPS_PER_EXPANSION: u64 = 64;

    /// Lookahead `k`, the default step allowance, no recording.
    pub fn new(lookahead: u32) -> Self {
        RunParams {
            lookahead,
            steps_per_expansion: Self::STEPS_PER_EXPANSION,
            record: false,
            max_moves: None,
        }
    }

    /// The budget of one episode.
    pub fn budget(&self) -> Budget {
        Budget::new(
            self.lookahead,
            u64::from(self.lookahead).saturating_mul(self.steps_per_expansion),
        )
    }
}

/// The result of a single-agent run.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// How it ended.
    pub status: Status,
    /// Its counters.
    pub stats: Stats,
    /// The cells visited, when recorded.
    pub trail: Option<Vec<u32>>,
}

/// Runs `agent` from `start` to `goal` (cell coordinates) on `world` until it reaches the
/// goal, the problem proves unsolvable, or a limit is hit. Errors only for invalid input
/// (an endpoint off the map or blocked).
pub fn run(
    world: &World<'_>,
    agent: &mut dyn Agent,
    start: (i32, i32),
    goal: (i32, i32),
    params: &RunParams,
    scratch: &mut Scratch,
) -> Result<RunOutcome, FritError> {
    let (s, g) = check_problem(world, start, goal)?;
    let limits = match params.max_moves {
        Some(max_moves) => Limits {
            max_moves,
            max_decisions: max_moves.saturating_mul(4),
        },
        None => Limits::for_world(world),
    };
    scratch.reserve(world.cells());
    let mut body = Body::default();
    body.begin(world, agent, s, g, params.record);
    while !body.done() {
        body.tick(world, agent, params.budget(), scratch, &limits);
    }
    Ok(RunOutcome {
        status: body.status.unwrap_or(Status::Cutoff),
        stats: body.stats,
        trail: body.trail,
    })
}
