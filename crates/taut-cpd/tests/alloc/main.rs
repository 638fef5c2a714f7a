//! The integration tests of `taut-cpd` that count allocations, in a second test binary:
//! `allocation-counter` installs a counting global allocator for the whole binary (its counts are
//! per thread, so the tests running beside one another do not disturb them), and the timed tests of
//! `tests/it/` (`reference_data`) should be served by the system allocator. One module alone:
//! `cargo test --release -p taut-cpd --test alloc no_alloc::`.

#[path = "../it/common/mod.rs"]
mod common;

mod bad_input;
mod eps_no_alloc;
mod no_alloc;
