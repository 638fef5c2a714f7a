//! Many agents' queries under one per-frame budget: [`FrameScheduler`].
//!
//! A game gives path finding a fixed share of each frame. The scheduler keeps a pool of search
//! contexts (planners of one map, made once) and a first-come queue of agents' requests. Each
//! [`FrameScheduler::frame`] starts queued requests on free contexts, then hands the running
//! searches turns of [`FrameBudget::slice`] expansions, round robin from where the last frame
//! stopped, until the frame's [`FrameBudget::expansions`] are spent. The turns of one frame run
//! in parallel on rayon's threads (each context is its own, `Send`), and the frame reports the
//! time it took. Memory is that of the pool, not of the agents: a thousand agents can share
//! a few contexts. A query's answer is the one [`taut_grid::Planner::plan`] gives (stepped
//! searches resume where they paused); planners that do not step (End Point Search, hub
//! labels: bounded look-ups) answer at the request.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use taut_grid::{Answer, Grid, Point, QueryError, Stats, Status, Step};

use crate::map::Map;
use crate::registry::{BoxedPlanner, PlannerSpec};
use crate::setup::SetupError;

/// How much search one frame may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameBudget {
    /// Expansions per frame, summed over every search (at least one turn runs per frame).
    pub expansions: u64,
    /// Expansions per turn: a frame gives `expansions / slice` running searches a turn (all
    /// of them, with the budget shared evenly, when fewer are running).
    pub slice: u64,
}

impl FrameBudget {
    /// `expansions` per frame in turns of `slice`.
    pub fn new(expansions: u64, slice: u64) -> FrameBudget {
        FrameBudget {
            expansions: expansions.max(1),
            slice: slice.clamp(1, expansions.max(1)),
        }
    }
}

/// An agent's index in its [`FrameScheduler`].
pub type AgentId = usize;

/// What one [`FrameScheduler::frame`] did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameReport {
    /// The frame's number, from 0.
    pub frame: u64,
    /// Wall time of the frame's search (starting queued requests and every turn).
    pub time: Duration,
    /// Expansions done, summed over searches.
    pub expansions: u64,
    /// Searches that had a turn.
    pub turns: usize,
    /// Queries that ended in this frame.
    pub finished: usize,
    /// Queries still pending after it (running or queued).
    pub pending: usize,
}

/// A query's end, from [`FrameScheduler::take`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// Found or unreachable.
    pub status: Status,
    /// Frames from the request to the answer (1: answered in the first frame; 0: answered at
    /// the request, by a planner that does not step).
    pub frames: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Idle,
    /// In the queue, asked for before frame `since`.
    Queued {
        start: Point,
        goal: Point,
        since: u64,
    },
    /// Searching in context `slot`.
    Running {
        slot: usize,
        since: u64,
    },
    Done(Finished),
}

struct Agent {
    state: State,
    answer: Answer,
}

struct Slot {
    planner: BoxedPlanner,
    answer: Answer,
    agent: Option<AgentId>,
    /// The frame mark of its last turn.
    turn: u64,
    /// Set when its search ended in a turn.
    ended: Option<Status>,
}

impl Slot {
    /// One turn of at most `budget` expansions; returns (expansions, ended).
    fn run(&mut self, budget: u64) -> (u64, bool) {
        let Some(s) = self.planner.stepper() else {
            return (0, false);
        };
        let before = s.stats().expanded;
        let step = s.step(budget);
        let spent = s.stats().expanded - before;
        match step {
            Step::Pending => (spent, false),
            Step::Done(status) => {
                s.answer(&mut self.answer);
                self.ended = Some(status);
                (spent, true)
            }
        }
    }
}

/// Serves many agents' queries under a per-frame budget, fairly (first come for a context,
/// round robin among running searches) and in parallel. Allocates nothing per frame once
/// warm.
///
/// ```
/// use taut::{FrameBudget, FrameScheduler, Grid, Map, Point, Status};
///
/// let map = Map::new(Grid::read("../../fixtures/maps/arena.map").unwrap());
/// // Four contexts of Anya; 200 expansions per frame in turns of 50.
/// let anya = "anya".parse().unwrap();
/// let mut frames = FrameScheduler::new(&map, &anya, 4, FrameBudget::new(200, 50)).unwrap();
/// let agents: Vec<_> = (0..10).map(|_| frames.add_agent()).collect();
/// for (i, &a) in agents.iter().enumerate() {
///     frames.request(a, Point::new(1, 3 + i as i32), Point::new(45, 40)).unwrap();
/// }
/// while frames.pending() > 0 {
///     let report = frames.frame();
///     assert!(report.expansions <= 200);
/// }
/// let mut answer = taut::Answer::default();
/// let done = frames.take(agents[0], &mut answer).unwrap();
/// assert_eq!(done.status, Status::Found);
/// assert!((answer.length - 57.7026852465268).abs() < taut::LENGTH_TOLERANCE);
/// ```
pub struct FrameScheduler {
    grid: Arc<Grid>,
    agents: Vec<Agent>,
    slots: Vec<Slot>,
    queue: VecDeque<AgentId>,
    budget: FrameBudget,
    /// The context whose turn comes first in the next frame.
    next: usize,
    frame: u64,
    pool: Option<rayon::ThreadPool>,
}

impl std::fmt::Debug for FrameScheduler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameScheduler")
            .field("agents", &self.agents.len())
            .field("contexts", &self.slots.len())
            .field("budget", &self.budget)
            .field("frame", &self.frame)
            .field("pending", &self.pending())
            .finish_non_exhaustive()
    }
}

impl FrameScheduler {
    /// A scheduler of `contexts` planners `spec` of `map` (at least one), with no agents,
    /// running turns on rayon's global pool. At most `contexts` searches run at once; more
    /// requests wait in the queue. Each context holds a planner's per-query memory (for Anya
    /// on a 768 × 768 map, some megabytes), so size the pool by the searches a frame should
    /// advance, not by the agents.
    ///
    /// # Errors
    /// [`SetupError`] when the planner cannot be made for the map.
    pub fn new(
        map: &Map,
        spec: &PlannerSpec,
        contexts: usize,
        budget: FrameBudget,
    ) -> Result<FrameScheduler, SetupError> {
        let slots = (0..contexts.max(1))
            .map(|_| {
                Ok(Slot {
                    planner: map.planner(spec)?,
                    answer: Answer::default(),
                    agent: None,
                    turn: 0,
                    ended: None,
                })
            })
            .collect::<Result<Vec<_>, SetupError>>()?;
        Ok(FrameScheduler {
            grid: Arc::clone(map.grid()),
            agents: Vec::new(),
            slots,
            queue: VecDeque::new(),
            budget,
            next: 0,
            frame: 0,
            pool: None,
        })
    }

    /// Runs turns on `pool` instead (say, one thread for a game that keeps the others).
    #[must_use]
    pub fn with_pool(mut self, pool: rayon::ThreadPool) -> FrameScheduler {
        self.pool = Some(pool);
        self
    }

    /// Runs the query `start -> goal` to its end on every idle context, in parallel, before
    /// the first frame: a context grows its buffers on its first searches (for Anya, per-map
    /// arrays of some megabytes), and a long warm-up query makes that happen here rather than
    /// in a frame. Contexts with a search running are left alone.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked.
    pub fn warm_up(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.grid.check_query(start, goal)?;
        let warm = |slots: &mut Vec<Slot>| {
            slots
                .par_iter_mut()
                .filter(|s| s.agent.is_none())
                .for_each(|s| {
                    let _ = s.planner.plan(start, goal, &mut s.answer);
                });
        };
        match &self.pool {
            Some(pool) => pool.install(|| warm(&mut self.slots)),
            None => warm(&mut self.slots),
        }
        Ok(())
    }

    /// The budget.
    pub fn budget(&self) -> FrameBudget {
        self.budget
    }

    /// Changes the budget from the next frame.
    pub fn set_budget(&mut self, budget: FrameBudget) {
        self.budget = budget;
    }

    /// Adds an agent (it has no query yet); returns its id.
    pub fn add_agent(&mut self) -> AgentId {
        self.agents.push(Agent {
            state: State::Idle,
            answer: Answer::default(),
        });
        self.queue.reserve(1);
        self.agents.len() - 1
    }

    /// How many agents there are.
    pub fn agents(&self) -> usize {
        self.agents.len()
    }

    /// How many search contexts there are.
    pub fn contexts(&self) -> usize {
        self.slots.len()
    }

    /// Asks for a path for `agent`, replacing (cancelling) any query it had, finished or not.
    /// The request joins the queue; it starts when a context is free.
    ///
    /// # Errors
    /// [`QueryError`] when an endpoint is off the map or blocked; the agent is then idle.
    ///
    /// # Panics
    /// When `agent` is not an id this scheduler gave.
    pub fn request(&mut self, agent: AgentId, start: Point, goal: Point) -> Result<(), QueryError> {
        self.cancel(agent);
        self.grid.check_query(start, goal)?;
        let since = self.frame;
        let slot = &mut self.slots[0];
        if slot.planner.stepper().is_none() {
            // A look-up (End Point Search, hub labels): answered now, in microseconds.
            let a = &mut self.agents[agent];
            let status = slot.planner.plan(start, goal, &mut a.answer)?;
            a.state = State::Done(Finished { status, frames: 0 });
            return Ok(());
        }
        self.agents[agent].state = State::Queued { start, goal, since };
        self.queue.push_back(agent);
        Ok(())
    }

    /// Drops `agent`'s query, queued, running or finished.
    pub fn cancel(&mut self, agent: AgentId) {
        match self.agents[agent].state {
            State::Queued { .. } => self.queue.retain(|&a| a != agent),
            State::Running { slot, .. } => {
                let s = &mut self.slots[slot];
                if let Some(st) = s.planner.stepper() {
                    st.cancel();
                }
                s.agent = None;
                s.ended = None;
            }
            State::Idle | State::Done(_) => {}
        }
        self.agents[agent].state = State::Idle;
    }

    /// Whether `agent` has a query pending (queued or running).
    pub fn is_pending(&self, agent: AgentId) -> bool {
        matches!(
            self.agents[agent].state,
            State::Queued { .. } | State::Running { .. }
        )
    }

    /// Whether `agent`'s query is waiting for a context.
    pub fn is_queued(&self, agent: AgentId) -> bool {
        matches!(self.agents[agent].state, State::Queued { .. })
    }

    /// The statistics of `agent`'s query so far (a running search's work to date; a queued
    /// one's is zero), or `None` when it has none.
    pub fn stats(&mut self, agent: AgentId) -> Option<Stats> {
        match self.agents[agent].state {
            State::Idle => None,
            State::Queued { .. } => Some(Stats::default()),
            State::Done(_) => Some(self.agents[agent].answer.stats),
            State::Running { slot, .. } => self.slots[slot].planner.stepper().map(|s| s.stats()),
        }
    }

    /// How many queries are pending (running or queued).
    pub fn pending(&self) -> usize {
        self.queue.len() + self.slots.iter().filter(|s| s.agent.is_some()).count()
    }

    /// `agent`'s finished query: its end, and its answer swapped into `out` (the path, length
    /// and statistics, as [`taut_grid::Planner::plan`] gives them). The agent is then idle.
    /// `None` while the query is pending or when there is none.
    pub fn take(&mut self, agent: AgentId, out: &mut Answer) -> Option<Finished> {
        let a = &mut self.agents[agent];
        let State::Done(f) = a.state else {
            return None;
        };
        std::mem::swap(out, &mut a.answer);
        a.state = State::Idle;
        Some(f)
    }

    /// Starts queued requests on free contexts, first come first served.
    fn start_queued(&mut self) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if slot.agent.is_some() {
                continue;
            }
            let Some(agent) = self.queue.pop_front() else {
                break;
            };
            let a = &mut self.agents[agent];
            let State::Queued { start, goal, since } = a.state else {
                continue;
            };
            let st = slot.planner.stepper().expect("checked at the request");
            // The endpoints were checked at the request against the same grid.
            st.begin(start, goal)
                .expect("endpoints checked at the request");
            slot.agent = Some(agent);
            slot.ended = None;
            a.state = State::Running { slot: i, since };
        }
    }

    /// Runs one frame: starts queued requests, then turns for running searches, round robin,
    /// within the budget, in parallel.
    pub fn frame(&mut self) -> FrameReport {
        let t0 = Instant::now();
        let frame = self.frame;
        self.frame += 1;
        self.start_queued();
        let n = self.slots.len();
        let running = self.slots.iter().filter(|s| s.agent.is_some()).count();
        if running == 0 {
            return FrameReport {
                frame,
                time: t0.elapsed(),
                ..FrameReport::default()
            };
        }
        let FrameBudget { expansions, slice } = self.budget;
        let turns = running.min(usize::try_from((expansions / slice).max(1)).unwrap_or(usize::MAX));
        let each = (expansions / turns as u64).max(1);
        // Mark the next `turns` running searches from `next` on (wrapping).
        let mark = frame + 1;
        let mut marked = 0;
        let mut i = self.next;
        while marked < turns {
            let s = &mut self.slots[i % n];
            if s.agent.is_some() {
                s.turn = mark;
                marked += 1;
            }
            i += 1;
        }
        self.next = i % n;
        let run = |slots: &mut Vec<Slot>| {
            slots
                .par_iter_mut()
                .filter(|s| s.turn == mark)
                .map(|s| {
                    let (spent, ended) = s.run(each);
                    (spent, usize::from(ended))
                })
                .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1))
        };
        let (spent, finished) = match &self.pool {
            Some(pool) => pool.install(|| run(&mut self.slots)),
            None => run(&mut self.slots),
        };
        if finished > 0 {
            for s in &mut self.slots {
                let (Some(status), Some(agent)) = (s.ended.take(), s.agent) else {
                    continue;
                };
                s.agent = None;
                let a = &mut self.agents[agent];
                if let State::Running { since, .. } = a.state {
                    std::mem::swap(&mut a.answer, &mut s.answer);
                    a.state = State::Done(Finished {
                        status,
                        frames: frame - since + 1,
                    });
                }
            }
        }
        FrameReport {
            frame,
            time: t0.elapsed(),
            expansions: spent,
            turns,
            finished,
            pending: self.pending(),
        }
    }
}
