//! The commands of `taut`, one module each: its clap arguments and its runner, `run`, with what
//! only that command uses. The helpers they share (argument groups, planners, rows, errors)
//! live outside and never name a command.

pub mod agent;
pub mod cpd;
pub mod hub;
pub mod list;
pub mod mesh;
pub mod path;
pub mod render;
pub mod route;
pub mod scen;
pub mod world;
