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

/// The algorithms, by their CLI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algo {
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

impl Algo {
    /// Every algorithm, in the order of the CLI's help.
    pub const ALL: [Algo; 7] = [
        Algo::Lrta,
        Algo::Rtaa,
        Algo::DaRtaa,
        Algo::FritBfs,
        Algo::FritRt,
        Algo::PFritRt,
        Algo::Bug2,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Lrta => "lrta",
            Algo::Rtaa => "rtaa",
            Algo::DaRtaa => "dartaa",
            Algo::FritBfs => "frit-bfs",
            Algo::FritRt => "frit-rt",
            Algo::PFritRt => "p-frit-rt",
            Algo::Bug2 => "bug2",
        }
    }

    /// Whether the lookahead bounds its episodes. LRTA* always looks one step ahead, Bug2
    /// expands only the cell it stands on, and FRIT(BFS) is not real-time (its episodes are
    /// unbounded; the simulator gives it an unlimited budget).
    pub fn uses_lookahead(self) -> bool {
        matches!(
            self,
            Algo::Rtaa | Algo::DaRtaa | Algo::FritRt | Algo::PFritRt
        )
    }

    /// The lookahead the agent actually runs with when asked for `k`.
    pub fn effective_lookahead(self, k: u32) -> u32 {
        match self {
            Algo::Lrta | Algo::Bug2 => 1,
            Algo::FritBfs => u32::MAX,
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
            Algo::Lrta => Box::new(Lrta::default()),
            Algo::Rtaa => Box::new(Rtaa::new(false)),
            Algo::DaRtaa => Box::new(Rtaa::new(true)),
            Algo::FritBfs => Box::new(Frit::with_config(FritKind::Bfs, config)),
            Algo::FritRt => Box::new(Frit::with_config(FritKind::Rt, config)),
            Algo::PFritRt => Box::new(Frit::with_config(FritKind::PRt, config)),
            Algo::Bug2 => Box::new(Bug2::default()),
        }
    }
}

impl fmt::Display for Algo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algo {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Algo::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown algorithm `{s}` (expected one of {})",
                    names.join(", ")
                )
            })
    }
}
