//! Real-time agents in unknown terrain.
//!
//! An agent knows the map's size, its start and its goal, and nothing of the obstacles: it
//! sees the 8 cells around it after every move and must move every frame after a bounded
//! amount of thinking. This crate holds
//! - a simulator ([`sim`]): the true map, each agent's belief under the free-space
//!   assumption (unseen cells are free), sensing, 8-connected moves with costs 1 and √2
//!   (without corner cutting unless the world's [`MoveRule`] allows it), and per-episode
//!   counters and timings; it checks every move and every "unsolvable" claim against the
//!   true map, and asserts that no episode expands more states than its budget;
//! - the agents ([`agents`]), behind one trait, [`Agent`]: LRTA*, RTAA*, daRTAA*, FRIT(BFS),
//!   FRIT_RT(RTAA*), p-FRIT_RT(RTAA*) and Bug2. The FRIT family takes a [`FritConfig`]: every
//!   decision the p-FRIT_RT paper leaves open is a named option, with the paper's reading as
//!   the default ([`FritConfig::paper`]) and our improvements as a profile
//!   ([`FritConfig::taut`]);
//! - a batch API for games ([`batch`]): many agents on one map, each frame given a total
//!   expansion budget shared among them.
//!
//! `docs/frit.md` describes the model, each algorithm's invariants and the termination bounds.
//!
//! `examples/frit_agent.rs` is a whole program: it runs a p-FRIT_RT agent across a map it does
//! not know and compares its cost with the optimum
//! (`cargo run --release -p taut-frit --example frit_agent`).
//!
//! ```
//! use taut_frit::{AgentAlgo, RunParams, Scratch, Status, World, run};
//! use taut_grid::Grid;
//!
//! // A wall with a gap at the bottom; the agent does not know it is there.
//! let grid = Grid::from_ascii(&[
//!     "..#..",
//!     "..#..",
//!     ".....",
//! ])
//! .unwrap();
//! let world = World::new(&grid);
//! let mut agent = AgentAlgo::PFritRt.agent();
//! let out = run(&world, agent.as_mut(), (0, 0), (4, 0), &RunParams::new(4), &mut Scratch::new())
//!     .unwrap();
//! assert_eq!(out.status, Status::Reached);
//! assert!(out.stats.cost >= 4.0 + 2.0 * std::f64::consts::SQRT_2 - 1e-9);
//! assert!(out.stats.max_episode_expansions <= 4);
//! ```

pub mod agents;
pub mod batch;
mod error;
pub mod sim;
pub mod world;

pub use agents::{
    Agent, AgentAlgo, Border, Decision, FritConfig, GoalTest, IdealTree, LearnedH, Pointers, Ties,
};
pub use error::FritError;
pub use sim::{
    Body, Limits, RunOutcome, RunParams, Stats, Status, TimeHistogram, check_problem, run,
};
pub use world::{Belief, Budget, DIRS, MoveRule, Scratch, View, World, move_cost, octile};
