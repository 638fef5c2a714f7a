//! The integration tests of `taut-cpd`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! `common` holds the helpers the modules share. One module alone: `cargo test --release -p
//! taut-cpd --test it bad_coordinates::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! The tests that count allocations (`no_alloc`, `eps_no_alloc`, `bad_input`) are the second
//! binary, `tests/alloc/main.rs`: `allocation-counter` installs a counting global allocator for the
//! whole binary, and `reference_data` here reports build and query times (EPS against Polyanya),
//! which the system allocator should serve.

mod bad_coordinates;
mod common;
mod corruption;
mod cpd;
mod eps_vs_anya;
mod graph;
mod reference_data;
mod threads;
