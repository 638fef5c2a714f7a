//! Benchmark harness for taut's grid planners (work in progress).

pub mod registry;
