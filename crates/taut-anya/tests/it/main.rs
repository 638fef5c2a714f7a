//! The integration tests of `taut-anya`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! `common` holds the helpers the modules share. One module alone: `cargo test --release -p
//! taut-anya --test it adversarial::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `no_alloc` counts allocations with `allocation-counter`, whose counting global allocator serves
//! the whole binary; its counts are per thread, so the tests running beside it do not disturb them,
//! and no test here is timed.

mod adversarial;
mod big_maps;
mod common;
mod double_corner_endpoints;
mod no_alloc;
mod reference_data;
mod threads;
mod trace;
mod vs_visibility_graph;
