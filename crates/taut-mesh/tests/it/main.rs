//! The integration tests of `taut-mesh`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! One module alone: `cargo test --release -p taut-mesh --test it bad_input::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `bad_input` and `mesh_errors` count allocations with `allocation-counter`, whose counting global
//! allocator serves the whole binary (as it did each of theirs before); its counts are per thread,
//! so the tests running beside them do not disturb them.

mod bad_input;
mod build;
mod locate;
mod mesh_errors;
mod mesh_io;
