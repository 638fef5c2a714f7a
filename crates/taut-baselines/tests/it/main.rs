//! The integration tests of `taut-baselines`, in one test binary: one module per concern (each was
//! a binary of its own before), so the crate and its dependencies are linked once, not once per
//! file. `common` holds the helpers the modules share. One module alone: `cargo test --release -p
//! taut-baselines --test it astar::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `tests/no_alloc.rs` stays a binary of its own: `allocation-counter` installs a counting global
//! allocator for the whole binary, and `movingai` and `vg_reference` here time the planners, which
//! the system allocator should serve.

mod astar;
mod common;
mod endpoints;
mod movingai;
mod random_grids;
mod reference_data;
mod theta;
mod trace;
mod vg;
mod vg_reference;
