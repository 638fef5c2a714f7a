//! The integration tests of `taut-hub`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! One module alone: `cargo test --release -p taut-hub --test it file::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `tests/no_alloc.rs` stays a binary of its own: `allocation-counter` installs a counting global
//! allocator for the whole binary, and `reference_data` here reports build and query times, which
//! the system allocator should serve.

mod file;
mod hub_vs_anya;
mod reference_data;
