//! The integration tests of `taut-grid`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! One module alone: `cargo test --release -p taut-grid --test it bad_input::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.

mod bad_input;
mod invariants;
mod parser_props;
mod shared_data;
