//! Many agents on one map, moved frame by frame within a total budget: the API a game calls
//! once per frame.
//!
//! Each frame, [`Crowd::frame`] divides a budget among the agents still travelling and lets
//! each of them decide once:
//! - [`FrameBudget::Expansions`]: a total number of expansions, shared by [`Share`]:
//!   - [`Share::RoundRobin`]: every agent gets an equal share (capped at its own lookahead);
//!     when the budget is smaller than the number of agents, a window of agents that moves
//!     round the crowd frame by frame gets one expansion each;
//!   - [`Share::Priority`]: agents in decreasing priority (equal priorities in round-robin
//!     order) get their full lookahead until the budget is spent.
//!
//!   The shares are fixed before any agent runs, so the outcome is the same on any number of
//!   threads.
//! - [`FrameBudget::Time`]: a wall-clock budget: agents, in round-robin order, get their full
//!   lookahead until the time is up (checked between agents, so a frame overruns by at most
//!   one agent's episode per thread); the outcome then depends on timing.
//!
//! **When the budget is too small**, an agent whose share is zero still decides: it may
//! follow a plan or the ideal tree it already has (that costs no expansion), and otherwise
//! waits where it is ([`crate::Decision::Wait`]). Waiting never changes an agent's memory or
//! belief, so a starved agent resumes correctly when budget returns; an agent that waits too
//! long is stopped by its [`Limits`] (decisions count waits) and reports
//! [`Status::Cutoff`].
//!
//! Agents are processed in parallel chunks on rayon's pool when there are at least
//! [`Crowd::PARALLEL_THRESHOLD`] of them; each chunk owns one [`Scratch`], reused from frame
//! to frame (whether a warm frame allocates nothing has not been measured).

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::agents::{Agent, AgentAlgo};
use crate::error::FritError;
use crate::sim::{Body, Limits, RunParams, Stats, Status, check_problem};
use crate::world::{Budget, Scratch, World};

/// How a frame's budget is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameBudget {
    /// A total number of expansions for the frame.
    Expansions(u64),
    /// A wall-clock budget for the frame.
    Time(Duration),
}

/// How an expansion budget is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Share {
    /// Equal shares, a rotating window when there are more agents than expansions.
    #[default]
    RoundRobin,
    /// Highest priority first, each up to its lookahead.
    Priority,
}

/// One agent of a crowd.
struct Member {
    agent: Box<dyn Agent>,
    body: Body,
    lookahead: u32,
    priority: i32,
    /// This frame's expansion share (set before the parallel part).
    share: u32,
}

/// What one frame did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameReport {
    /// Agents that moved.
    pub moved: usize,
    /// Agents that decided but did not move.
    pub waited: usize,
    /// Agents whose run ended this frame.
    pub finished: usize,
    /// Agents still travelling after the frame.
    pub active: usize,
    /// Expansions used.
    pub expansions: u64,
    /// Wall time of the frame.
    pub time: Duration,
}

/// Many agents on one shared map (see the module docs).
pub struct Crowd<'w> {
    world: &'w World<'w>,
    members: Vec<Member>,
    scratches: Vec<Scratch>,
    limits: Limits,
    steps_per_expansion: u64,
    rotation: usize,
    /// How far the rotating order moves after this frame: past the agents that got the
    /// remainder of a round-robin budget, so the next frame starts with those that did not.
    advance: usize,
    order: Vec<u32>,
}

impl std::fmt::Debug for Crowd<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Crowd")
            .field("agents", &self.members.len())
            .finish_non_exhaustive()
    }
}

/// An agent's index in its crowd.
pub type AgentId = usize;

impl<'w> Crowd<'w> {
    /// Below this many agents a frame runs on the calling thread (measured: the fork and
    /// join of rayon costs more than it saves for a few agents).
    pub const PARALLEL_THRESHOLD: usize = 32;

    /// An empty crowd on `world`.
    pub fn new(world: &'w World<'w>) -> Self {
        Crowd {
            world,
            members: Vec::new(),
            scratches: Vec::new(),
            limits: Limits::for_world(world),
            steps_per_expansion: RunParams::STEPS_PER_EXPANSION,
            rotation: 0,
            advance: 1,
            order: Vec::new(),
        }
    }

    /// Adds an agent running `algo` from `start` to `goal` (cells) with lookahead `lookahead`
    /// (its most expansions per frame) and a priority for [`Share::Priority`]. Errors for an
    /// endpoint off the map or blocked; an unreachable goal is accepted and the agent's run
    /// ends at once with [`Status::Unsolvable`].
    pub fn add(
        &mut self,
        algo: AgentAlgo,
        start: (i32, i32),
        goal: (i32, i32),
        lookahead: u32,
        priority: i32,
    ) -> Result<AgentId, FritError> {
        self.add_agent(
            algo.agent(),
            start,
            goal,
            algo.effective_lookahead(lookahead),
            priority,
        )
    }

    /// As [`Crowd::add`], with an agent of the caller's own.
    pub fn add_agent(
        &mut self,
        mut agent: Box<dyn Agent>,
        start: (i32, i32),
        goal: (i32, i32),
        lookahead: u32,
        priority: i32,
    ) -> Result<AgentId, FritError> {
        let (s, g) = check_problem(self.world, start, goal)?;
        let mut body = Body::default();
        body.begin(self.world, agent.as_mut(), s, g, false);
        self.members.push(Member {
            agent,
            body,
            lookahead,
            priority,
            share: 0,
        });
        Ok(self.members.len() - 1)
    }

    /// Number of agents.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the crowd has no agent.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Agents still travelling.
    pub fn active(&self) -> usize {
        self.members.iter().filter(|m| !m.body.done()).count()
    }

    /// An agent's cell.
    pub fn position(&self, id: AgentId) -> Option<(i32, i32)> {
        self.members.get(id).map(|m| self.world.xy(m.body.pos))
    }

    /// An agent's status (`None` while travelling).
    pub fn status(&self, id: AgentId) -> Option<&Status> {
        self.members.get(id).and_then(|m| m.body.status.as_ref())
    }

    /// An agent's counters.
    pub fn stats(&self, id: AgentId) -> Option<&Stats> {
        self.members.get(id).map(|m| &m.body.stats)
    }

    /// Heap bytes of every agent's memory and belief (an estimate from capacities).
    pub fn heap_bytes(&self) -> usize {
        self.members
            .iter()
            .map(|m| m.agent.heap_bytes() + m.body.belief.heap_bytes())
            .sum()
    }

    /// Sets each active agent's share of an expansion budget.
    fn share(&mut self, total: u64, share: Share) {
        self.order.clear();
        let n = self.members.len();
        for i in 0..n {
            let j = (i + self.rotation) % n.max(1);
            let m = &mut self.members[j];
            m.share = 0;
            if !m.body.done() {
                self.order.push(j as u32);
            }
        }
        if share == Share::Priority {
            let members = &self.members;
            // Stable: equal priorities keep the rotating order.
            self.order
                .sort_by_key(|&j| std::cmp::Reverse(members[j as usize].priority));
        }
        let active = self.order.len() as u64;
        self.advance = 0;
        if active == 0 {
            return;
        }
        let mut left = total;
        match share {
            Share::RoundRobin => {
                let even = total / active;
                for &j in &self.order {
                    let m = &mut self.members[j as usize];
                    let s = even.min(u64::from(m.lookahead));
                    m.share = s as u32;
                    left -= s;
                }
                // The remainder, one each, round the rotating order.
                for &j in &self.order {
                    if left == 0 {
                        break;
                    }
                    let m = &mut self.members[j as usize];
                    if m.share < m.lookahead {
                        m.share += 1;
                        left -= 1;
                    }
                    self.advance += 1;
                }
            }
            Share::Priority => {
                for &j in &self.order {
                    let m = &mut self.members[j as usize];
                    let s = left.min(u64::from(m.lookahead));
                    m.share = s as u32;
                    left -= s;
                }
            }
        }
    }

    /// Moves every travelling agent once within `budget` (see the module docs).
    pub fn frame(&mut self, budget: FrameBudget, share: Share) -> FrameReport {
        let t0 = Instant::now();
        let deadline = match budget {
            FrameBudget::Expansions(total) => {
                self.share(total, share);
                None
            }
            FrameBudget::Time(d) => {
                for m in &mut self.members {
                    m.share = m.lookahead;
                }
                self.advance = 1;
                Some(t0 + d)
            }
        };
        let threads = if self.members.len() >= Self::PARALLEL_THRESHOLD {
            rayon::current_num_threads().max(1)
        } else {
            1
        };
        if self.scratches.len() < threads {
            self.scratches.resize_with(threads, Scratch::new);
        }
        let world = self.world;
        for scratch in &mut self.scratches {
            scratch.reserve(world.cells());
        }
        let limits = self.limits;
        let spe = self.steps_per_expansion;
        let n = self.members.len();
        let rotation = self.rotation;
        let chunk = n.div_ceil(threads).max(1);
        let tick = |m: &mut Member, scratch: &mut Scratch| -> (bool, bool, bool, u64) {
            if m.body.done() {
                return (false, false, false, 0);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                m.share = 0;
            }
            let (moves, exp) = (m.body.stats.moves, m.body.stats.expansions);
            let budget = Budget::new(m.share, u64::from(m.share).saturating_mul(spe));
            m.body
                .tick(world, m.agent.as_mut(), budget, scratch, &limits);
            let moved = m.body.stats.moves > moves;
            (moved, !moved, m.body.done(), m.body.stats.expansions - exp)
        };
        let add = |a: (usize, usize, usize, u64), b: (usize, usize, usize, u64)| {
            (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
        };
        let (moved, waited, finished, expansions) = if threads == 1 {
            let scratch = &mut self.scratches[0];
            let mut acc = (0, 0, 0, 0);
            for k in 0..n {
                let m = &mut self.members[(k + rotation) % n];
                let (mv, w, f, e) = tick(m, scratch);
                acc.0 += usize::from(mv);
                acc.1 += usize::from(w);
                acc.2 += usize::from(f);
                acc.3 += e;
            }
            acc
        } else {
            self.members
                .par_chunks_mut(chunk)
                .zip(self.scratches.par_iter_mut())
                .map(|(ms, scratch)| {
                    let mut acc = (0, 0, 0, 0);
                    for m in ms {
                        let (mv, w, f, e) = tick(m, scratch);
                        acc.0 += usize::from(mv);
                        acc.1 += usize::from(w);
                        acc.2 += usize::from(f);
                        acc.3 += e;
                    }
                    acc
                })
                .reduce(|| (0, 0, 0, 0), add)
        };
        self.rotation = (self.rotation + self.advance.max(1)) % n.max(1);
        FrameReport {
            moved,
            waited,
            finished,
            active: self.active(),
            expansions,
            time: t0.elapsed(),
        }
    }
}
