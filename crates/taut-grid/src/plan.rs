//! What every grid planner returns, and the one trait the bench and CLI drive them through.

use std::time::{Duration, Instant};

use taut_geom::{Point, Rational};

use crate::error::QueryError;
use crate::grid::Grid;

/// Search statistics, always collected.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// Nodes generated (successors produced, whether or not they were pushed).
    pub generated: u64,
    /// Pushes, pops and decrease-keys on the open list.
    pub heap_ops: u64,
}

/// Whether a valid query has a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Status {
    /// A path was found; the answer holds it.
    Found,
    /// No path exists between the (valid) endpoints.
    Unreachable,
}

/// The result of one query, shared by every planner. Reuse one across queries: planners clear
/// and refill it, so a warm caller allocates nothing.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Answer {
    /// Waypoints from start to goal inclusive (`[start]` when start == goal); empty when the
    /// goal is unreachable.
    pub waypoints: Vec<Point>,
    /// Path length (Euclidean for any-angle planners, octile for A*); `f64::INFINITY` when
    /// unreachable.
    pub length: f64,
    /// Search statistics of this query.
    pub stats: Stats,
}

impl Answer {
    /// Resets the answer for a new query, keeping its allocation.
    pub fn clear(&mut self) {
        self.waypoints.clear();
        self.length = f64::INFINITY;
        self.stats = Stats::default();
    }
}

/// The common start of every grid query: clears `out`, validates both endpoints, and answers
/// start == goal (`[start]`, length 0).
///
/// Returns `Ok(Some(Status::Found))` when the query is answered already, `Ok(None)` when the
/// planner must search.
///
/// # Errors
/// The [`QueryError`] of [`Grid::check_query`].
pub fn begin_query(
    grid: &Grid,
    start: Point,
    goal: Point,
    out: &mut Answer,
) -> Result<Option<Status>, QueryError> {
    out.clear();
    grid.check_query(start, goal)?;
    if start == goal {
        out.waypoints.push(start);
        out.length = 0.0;
        return Ok(Some(Status::Found));
    }
    Ok(None)
}

/// One expanded search node, as recorded by [`Planner::plan_traced`], in order of expansion.
///
/// The variants follow the planners' natural nodes; a renderer or test needs nothing else to
/// draw or check them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TraceEvent {
    /// A cell expanded by a cell-based search (A*): `at` is the cell (its top-left lattice
    /// point), `parent` the cell it was reached from (`None` for the start).
    Cell {
        /// The expanded cell.
        at: Point,
        /// The cell it was reached from.
        parent: Option<Point>,
    },
    /// A lattice point expanded by a point-based search (Theta*, Lazy Theta*, the visibility
    /// graph), with the point its path came from (`None` for the start).
    Vertex {
        /// The expanded lattice point.
        at: Point,
        /// Its parent on the path found so far.
        parent: Option<Point>,
    },
    /// An interval `[lo, hi]` of the horizontal grid line `y = row` expanded by an interval
    /// search (Anya), with its root: the lattice point every point of the interval is seen
    /// from, and the last turning point of the paths the node stands for.
    Interval {
        /// The grid line the interval lies on.
        row: i32,
        /// Left end (exact).
        lo: Rational,
        /// Right end (exact, `lo <= hi`).
        hi: Rational,
        /// The node's root.
        root: Point,
    },
}

/// Where a search sends its [`TraceEvent`]s. A search generic over `Tracer` and run with `()`
/// records nothing and, once monomorphised, does no extra work: every call site is guarded by
/// the constant [`Tracer::ENABLED`].
pub trait Tracer {
    /// Whether [`Tracer::record`] keeps anything; searches skip building events when not.
    const ENABLED: bool;
    /// Records one expansion.
    fn record(&mut self, event: TraceEvent);
}

/// The tracer of the untraced searches: records nothing.
impl Tracer for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _event: TraceEvent) {}
}

/// Appends every event.
impl Tracer for Vec<TraceEvent> {
    const ENABLED: bool = true;
    #[inline]
    fn record(&mut self, event: TraceEvent) {
        self.push(event);
    }
}

/// A factor of at least 1 (a suboptimality bound), compared by its bits so that it can be
/// part of `Eq` and `Hash` types.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Factor(pub f64);

impl Eq for Factor {}

impl std::hash::Hash for Factor {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// What a planner promises about the lengths it returns, for its [`PathModel`]: the one
/// statement the bench's checks, the differential tests and the CLI all read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Guarantee {
    /// The shortest path of its model (equal to the optimum within
    /// [`LENGTH_TOLERANCE`](crate::LENGTH_TOLERANCE)).
    Optimal,
    /// A path at most this factor above the optimum (and never below it).
    WithinFactor(Factor),
    /// A legal path, never below the optimum, with no bound above it.
    Any,
}

/// Which paths a planner searches, and so which optimum its [`Guarantee`] is measured
/// against.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PathModel {
    /// Polylines at any angle between lattice points (`docs/conventions.md`).
    #[default]
    AnyAngle,
    /// 8-connected moves between cell corners, diagonals √2, no corner cutting: a scenario
    /// file's octile column is this optimum.
    Octile,
}

/// One solution of an [`Anytime`] search.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Improvement {
    /// Length of the best path so far.
    pub length: f64,
    /// A lower bound on the optimum at that moment.
    pub lower_bound: f64,
    /// Whether `length` is proven optimal (the last solution of a query).
    pub optimal: bool,
}

/// A planner that improves its answer over time: a first path soon, then strictly shorter
/// ones, and last a proof that the best is optimal. Reached through [`Planner::anytime`].
///
/// ```
/// # use taut_grid::{Anytime, Answer, Point, QueryError};
/// # fn drive(planner: &mut dyn Anytime) -> Result<(), QueryError> {
/// planner.start(Point::new(0, 0), Point::new(5, 3))?;
/// let first = planner.next_solution(); // the first path (None: no path at all)
/// let mut best = first;
/// while let Some(better) = planner.next_solution() {
///     best = Some(better); // strictly shorter, or the last one again, proven optimal
/// }
/// let mut answer = Answer::default();
/// planner.best(&mut answer); // its waypoints, length and statistics
/// # Ok(()) }
/// ```
pub trait Anytime {
    /// Starts a query, ending any earlier one.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or on a blocked cell.
    fn start(&mut self, start: Point, goal: Point) -> Result<(), QueryError>;

    /// Runs until the best path improves or the search ends: the first path, then strictly
    /// shorter ones, and last the optimum again with `optimal: true`; then `None`. `None` at
    /// once when the ends are not connected.
    fn next_solution(&mut self) -> Option<Improvement>;

    /// The best path so far into `out` (waypoints, length; empty and infinite before the
    /// first), with the statistics of the query so far.
    fn best(&mut self, out: &mut Answer);
}

/// How much one query may spend ([`Planner::plan_within`]): a number of expansions, a time, both
/// or neither. The default is no limit.
///
/// ```
/// # use taut_grid::Limit;
/// # use std::time::Duration;
/// let limit = Limit::expansions(10_000).with_timeout(Duration::from_millis(50));
/// assert_eq!(limit.max_expansions, Some(10_000));
/// assert!(Limit::NONE.is_none());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limit {
    /// At most this many expansions ([`Stats::expanded`]).
    pub max_expansions: Option<u64>,
    /// At most this much time, measured from the start of the query. The clock is read
    /// between slices of expansions: [`Limit::FIRST_SLICE`] first, then as many as the time
    /// per expansion so far says fit in half the time left (at least one, at most
    /// [`Limit::SLICE`]), so a query overruns its deadline by about one expansion (planners
    /// whose expansions are costly, as `ray`'s on big maps, slow down to one per look).
    pub timeout: Option<Duration>,
}

impl Limit {
    /// No limit: [`Planner::plan_within`] is then [`Planner::plan`].
    pub const NONE: Limit = Limit {
        max_expansions: None,
        timeout: None,
    };

    /// The most expansions between two looks at the clock when a timeout is set.
    pub const SLICE: u64 = 128;

    /// The expansions before the first look at the clock when a timeout is set.
    pub const FIRST_SLICE: u64 = 8;

    /// At most `n` expansions.
    pub fn expansions(n: u64) -> Limit {
        Limit {
            max_expansions: Some(n),
            timeout: None,
        }
    }

    /// At most `d` of time.
    pub fn timeout(d: Duration) -> Limit {
        Limit {
            max_expansions: None,
            timeout: Some(d),
        }
    }

    /// This limit and a timeout of `d`.
    pub fn with_timeout(self, d: Duration) -> Limit {
        Limit {
            timeout: Some(d),
            ..self
        }
    }

    /// Whether nothing is limited.
    pub fn is_none(&self) -> bool {
        self.max_expansions.is_none() && self.timeout.is_none()
    }
}

/// Which part of a [`Limit`] stopped a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LimitKind {
    /// [`Limit::max_expansions`].
    Expansions,
    /// [`Limit::timeout`].
    Timeout,
}

impl std::fmt::Display for LimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitKind::Expansions => "expansion",
            LimitKind::Timeout => "time",
        })
    }
}

/// A bounded query stopped before it knew its answer: which limit stopped it, and the work
/// done until then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "stopped at its {kind} limit after {} expansions in {:.3} ms, before an answer",
    stats.expanded,
    elapsed.as_secs_f64() * 1e3
)]
pub struct LimitReached {
    /// The limit that stopped it.
    pub kind: LimitKind,
    /// The search's statistics when it stopped.
    pub stats: Stats,
    /// Time spent on the query.
    pub elapsed: Duration,
}

/// Why a bounded query ([`Planner::plan_within`]) has no answer: a bad query, or a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// An endpoint is off the map or blocked.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The query's [`Limit`] stopped it.
    #[error(transparent)]
    Limit(#[from] LimitReached),
}

/// Where a stepped query is after [`Stepper::step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// The search goes on: call [`Stepper::step`] again (or [`Stepper::cancel`]).
    Pending,
    /// The search has ended; [`Stepper::answer`] gives the path. Every later step says the
    /// same until the next [`Stepper::begin`].
    Done(Status),
}

/// A search that runs in slices: begin a query, run it a budget of expansions at a time (a
/// game's frame budget), cancel it whenever. The answer is the one [`Planner::plan`] gives,
/// whatever the budgets, and a warm planner allocates nothing per step. Reached through
/// [`Planner::stepper`].
///
/// ```
/// # use taut_grid::{Answer, Point, QueryError, Status, Step, Stepper};
/// # fn drive(planner: &mut dyn Stepper) -> Result<(), QueryError> {
/// planner.begin(Point::new(0, 0), Point::new(40, 30))?;
/// let status = loop {
///     match planner.step(100) {
///         Step::Pending => { /* the frame's budget is spent: draw the frame, come back */ }
///         Step::Done(status) => break status,
///     }
/// };
/// let mut answer = Answer::default();
/// planner.answer(&mut answer); // the path (when found), length and statistics
/// # let _ = status; Ok(()) }
/// ```
pub trait Stepper {
    /// Starts a query, ending any earlier one. Nothing is expanded yet.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked; no query is then pending.
    fn begin(&mut self, start: Point, goal: Point) -> Result<(), QueryError>;

    /// Runs at most `budget` expansions of the pending query (none when `budget` is 0) and
    /// says whether it has ended. With no query pending (never begun, or cancelled) it is
    /// `Done(Status::Unreachable)`.
    fn step(&mut self, budget: u64) -> Step;

    /// The query's answer into `out`: after [`Step::Done`], what [`Planner::plan`] gives (the
    /// path, its length and the statistics); while pending, no path (infinite length) and the
    /// statistics so far.
    fn answer(&self, out: &mut Answer);

    /// The statistics of the current query so far.
    fn stats(&self) -> Stats;

    /// Drops the pending query; the next [`Stepper::step`] is `Done(Status::Unreachable)`
    /// until [`Stepper::begin`].
    fn cancel(&mut self);
}

/// Runs a stepped query within `limit`: the one loop behind [`Planner::plan_within`].
///
/// # Errors
/// [`PlanError::Query`] for a bad endpoint, [`PlanError::Limit`] when `limit` stops it (`out`
/// then holds no path and the statistics of the work done).
pub fn plan_stepped(
    stepper: &mut dyn Stepper,
    start: Point,
    goal: Point,
    limit: Limit,
    out: &mut Answer,
) -> Result<Status, PlanError> {
    let t0 = Instant::now();
    if let Err(e) = stepper.begin(start, goal) {
        out.clear();
        return Err(e.into());
    }
    let mut slice = if limit.timeout.is_some() {
        Limit::FIRST_SLICE
    } else {
        u64::MAX
    };
    let result = loop {
        let done = stepper.stats().expanded;
        let budget = match limit.max_expansions {
            Some(max) => slice.min(max.saturating_sub(done)),
            None => slice,
        };
        if let Step::Done(status) = stepper.step(budget) {
            break Ok(status);
        }
        let kind = if limit
            .max_expansions
            .is_some_and(|max| stepper.stats().expanded >= max)
        {
            LimitKind::Expansions
        } else if let Some(deadline) = limit.timeout {
            let elapsed = t0.elapsed();
            if elapsed >= deadline {
                LimitKind::Timeout
            } else {
                // As many expansions as fit in half the time left, at the pace so far.
                let per = elapsed.as_secs_f64() / stepper.stats().expanded.max(1) as f64;
                let left = (deadline - elapsed).as_secs_f64();
                let fit = if per > 0.0 {
                    left / per / 2.0
                } else {
                    f64::MAX
                };
                slice = (fit.min(Limit::SLICE as f64) as u64).max(1);
                continue;
            }
        } else {
            continue;
        };
        break Err(LimitReached {
            kind,
            stats: stepper.stats(),
            elapsed: t0.elapsed(),
        });
    };
    stepper.answer(out);
    if result.is_err() {
        stepper.cancel();
    }
    result.map_err(PlanError::from)
}

/// A point-to-point planner over a grid it was built for.
///
/// Algorithm crates keep their own natural APIs (a search context plus the map); small adapters
/// implement this trait so that the bench and CLI treat all planners alike.
pub trait Planner {
    /// Short name used on the command line (`astar`, `theta`, ...).
    fn name(&self) -> &'static str;

    /// What this planner, with its options, promises about its lengths.
    fn guarantee(&self) -> Guarantee;

    /// The paths it searches (any-angle unless it says otherwise).
    fn path_model(&self) -> PathModel {
        PathModel::AnyAngle
    }

    /// Answers one query, filling `out`.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or on a blocked cell; `out` is then
    /// cleared.
    fn plan(&mut self, start: Point, goal: Point, out: &mut Answer) -> Result<Status, QueryError>;

    /// Answers one query like [`Planner::plan`] and records the search's expansions in
    /// `trace` (cleared first), one [`TraceEvent`] per node counted in `out.stats.expanded`,
    /// in order. The default records nothing; planners that can show their search override it.
    ///
    /// # Errors
    /// As [`Planner::plan`].
    fn plan_traced(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
        trace: &mut Vec<TraceEvent>,
    ) -> Result<Status, QueryError> {
        trace.clear();
        self.plan(start, goal, out)
    }

    /// The planner as an [`Anytime`] search, if it is one (End Point Search is). `None` by
    /// default.
    fn anytime(&mut self) -> Option<&mut dyn Anytime> {
        None
    }

    /// The planner as a [`Stepper`]: its search run a budget of expansions at a time. Every
    /// search planner of the workspace is one; `None` only for planners whose query is a
    /// bounded look-up (hub labels).
    fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        None
    }

    /// Answers one query like [`Planner::plan`], but stops at `limit`: the same answer when
    /// the search ends within it, else [`PlanError::Limit`] with the work done (and `out`
    /// holding no path). Planners with a [`Planner::stepper`] run through it
    /// ([`plan_stepped`]); the others answer in bounded work and ignore the limit.
    ///
    /// # Errors
    /// [`PlanError::Query`] as [`Planner::plan`]; [`PlanError::Limit`] when the limit stops
    /// the search.
    fn plan_within(
        &mut self,
        start: Point,
        goal: Point,
        limit: Limit,
        out: &mut Answer,
    ) -> Result<Status, PlanError> {
        if limit.is_none() {
            return self.plan(start, goal, out).map_err(PlanError::from);
        }
        match self.stepper() {
            Some(stepper) => plan_stepped(stepper, start, goal, limit, out),
            None => self.plan(start, goal, out).map_err(PlanError::from),
        }
    }

    /// The per-map index the planner built for itself when it was made, if it builds one
    /// (ray scanning's corner index does). `None` by default: the planner builds nothing, or
    /// what it uses was built by someone else and shared (a mesh, a CPD).
    fn index_info(&self) -> Option<IndexInfo> {
        None
    }
}

/// A per-map index a planner built for itself ([`Planner::index_info`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexInfo {
    /// What it is, in a few words (`ray index`).
    pub what: &'static str,
    /// How long building it took.
    pub build_time: std::time::Duration,
    /// Heap bytes it holds.
    pub heap_bytes: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A planner that keeps the default `plan_traced`.
    struct Straight<'g>(&'g Grid);

    impl Planner for Straight<'_> {
        fn name(&self) -> &'static str {
            "straight"
        }
        fn guarantee(&self) -> Guarantee {
            Guarantee::Any
        }
        fn plan(&mut self, s: Point, t: Point, out: &mut Answer) -> Result<Status, QueryError> {
            if let Some(status) = begin_query(self.0, s, t, out)? {
                return Ok(status);
            }
            out.waypoints.extend([s, t]);
            out.length = s.dist(t);
            Ok(Status::Found)
        }
    }

    #[test]
    fn the_default_trace_is_empty_and_the_answer_unchanged() {
        let g = Grid::from_ascii(&["...", "..."]).unwrap();
        let mut p = Straight(&g);
        let mut trace = vec![TraceEvent::Vertex {
            at: Point::new(0, 0),
            parent: None,
        }];
        let (mut a, mut b) = (Answer::default(), Answer::default());
        let (s, t) = (Point::new(0, 0), Point::new(2, 1));
        assert_eq!(
            p.plan(s, t, &mut a),
            p.plan_traced(s, t, &mut b, &mut trace)
        );
        assert_eq!(a, b);
        assert!(trace.is_empty());
        // Errors pass through too, and the trace is still cleared.
        trace.push(TraceEvent::Cell {
            at: s,
            parent: None,
        });
        assert!(
            p.plan_traced(Point::new(5, 5), t, &mut b, &mut trace)
                .is_err()
        );
        assert!(trace.is_empty());
    }

    #[test]
    fn tracers_record_or_not() {
        let ev = TraceEvent::Vertex {
            at: Point::new(1, 2),
            parent: None,
        };
        let mut v = Vec::new();
        Tracer::record(&mut v, ev);
        Tracer::record(&mut (), ev);
        assert_eq!(v, [ev]);
        const { assert!(<Vec<TraceEvent> as Tracer>::ENABLED && !<() as Tracer>::ENABLED) };
    }
}
