//! The agents, behind one trait: each call of [`Agent::decide`] plans (within the budget the
//! simulator hands it) and returns one move.

use std::fmt;
use std::str::FromStr;

use crate::world::{Budget, Scratch, View};

mod bug2;
mod frit;
mod lookahead;
mod rtaa;

pub use bug2::Bug2;
pub use frit::{Border, Frit, FritConfig, FritKind, GoalTest, IdealTree, LearnedH, Pointers, Ties};
pub use rtaa::{Lrta, Rtaa};

/// What an agent decided in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Move in direction `DIRS[d]`.
    Move(u8),
    /// Stay this frame (for instance, no budget was left to plan).
    Wait,
    /// The agent's belief proves the goal unreachable.
    Unsolvable,
}

/// A real-time agent: its memory (learned heuristic, parent pointers, plan) is its own; the
/// map and the per-thread scratch are borrowed for each decision.
pub trait Agent: Send {
    /// A short name (`rtaa`, `p-frit-rt`, ...).
    fn name(&self) -> &'static str;

    /// Forgets the previous problem (keeping allocations) before a run from `start`.
    fn reset(&mut self, view: &View<'_>, start: u32);

    /// Plans from `pos` within `budget` and returns at most one move. Called only while the
    /// agent is not on the goal; the agent has just sensed its 8 neighbours.
    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        scratch: &mut Scratch,
    ) -> Decision;

    /// Heap bytes of the agent's memory (an estimate from capacities).
    fn heap_bytes(&self) -> usize;
}

/// The real-time agent algorithms, by their CLI names (`taut agent --algo`): each makes one
/// [`Agent`]. Not the path planners of `taut::registry::Algo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentAlgo {
    /// LRTA* with a one-step lookahead (`lrta`).
    Lrta,
    /// Real-Time Adaptive A* (`rtaa`).
    Rtaa,
    /// RTAA* with depression avoidance (`dartaa`).
    DaRtaa,
    /// FRIT with breadth-first reconnection, not real-time (`frit-bfs`).
    FritBfs,
    /// FRIT_RT(RTAA*) with Algorithm 2's INTREE (`frit-rt`).
    FritRt,
    /// p-FRIT_RT(RTAA*): reconnection along obstacle borders (Algorithm 4) with the
    /// super-parent INTREE (Algorithm 5) (`p-frit-rt`).
    PFritRt,
    /// Bug2: m-line, hit point, wall following (`bug2`).
    Bug2,
}

impl AgentAlgo {
    /// Every algorithm, in the order of the CLI's help.
    pub const ALL: [AgentAlgo; 7] = [
        AgentAlgo::Lrta,
        AgentAlgo::Rtaa,
        AgentAlgo::DaRtaa,
        AgentAlgo::FritBfs,
        AgentAlgo::FritRt,
        AgentAlgo::PFritRt,
        AgentAlgo::Bug2,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            AgentAlgo::Lrta => "lrta",
            AgentAlgo::Rtaa => "rtaa",
            AgentAlgo::DaRtaa => "dartaa",
            AgentAlgo::FritBfs => "frit-bfs",
            AgentAlgo::FritRt => "frit-rt",
            AgentAlgo::PFritRt => "p-frit-rt",
            AgentAlgo::Bug2 => "bug2",
        }
    }

    /// Whether the lookahead bounds its episodes. LRTA* always looks one step ahead, Bug2
    /// expands only the cell it stands on, and FRIT(BFS) is not real-time (its episodes are
    /// unbounded; the simulator gives it an unlimited budget).
    pub fn uses_lookahead(self) -> bool {
        matches!(
            self,
            AgentAlgo::Rtaa | AgentAlgo::DaRtaa | AgentAlgo::FritRt | AgentAlgo::PFritRt
        )
    }

    /// The lookahead the agent actually runs with when asked for `k`.
    pub fn effective_lookahead(self, k: u32) -> u32 {
        match self {
            AgentAlgo::Lrta | AgentAlgo::Bug2 => 1,
            AgentAlgo::FritBfs => u32::MAX,
            _ => k,
        }
    }

    /// A fresh agent; the FRIT family with the default configuration
    /// ([`FritConfig::paper`]).
    pub fn agent(self) -> Box<dyn Agent> {
        self.agent_with(&FritConfig::default())
    }

    /// A fresh agent; the FRIT family configured by `config`, the others ignore it.
    pub fn agent_with(self, config: &FritConfig) -> Box<dyn Agent> {
        let config = *config;
        match self {
            AgentAlgo::Lrta => Box::new(Lrta::default()),
            AgentAlgo::Rtaa => Box::new(Rtaa::new(false)),
            AgentAlgo::DaRtaa => Box::new(Rtaa::new(true)),
            AgentAlgo::FritBfs => Box::new(Frit::with_config(FritKind::Bfs, config)),
            AgentAlgo::FritRt => Box::new(Frit::with_config(FritKind::Rt, config)),
            AgentAlgo::PFritRt => Box::new(Frit::with_config(FritKind::PRt, config)),
            AgentAlgo::Bug2 => Box::new(Bug2::default()),
        }
    }
}

impl fmt::Display for AgentAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AgentAlgo {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AgentAlgo::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = AgentAlgo::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown algorithm `{s}` (expected one of {})",
                    names.join(", ")
                )
            })
    }
}
