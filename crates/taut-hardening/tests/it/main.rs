//! The integration tests of `taut-hardening`, in one test binary: one module per concern (each was
//! a binary of its own before), so the crate and its dependencies are linked once, not once per
//! file. One module alone: `cargo test --release -p taut-hardening --test it differential::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `scale` stays a binary of its own (`tests/scale.rs`): it installs `allocation-counter`'s
//! counting global allocator and times its planners, which should neither serve nor share the
//! process with these tests.

mod differential;
mod frames;
mod repair;
mod script;
mod stepping;
mod termination;
mod threads;
mod world;
