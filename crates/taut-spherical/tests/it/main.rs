//! The integration tests of `taut-spherical`, in one test binary: one module per concern (each was
//! a binary of its own before), so the crate and its dependencies are linked once, not once per
//! file. `common` holds the helpers the modules share. One module alone: `cargo test --release -p
//! taut-spherical --test it analytic::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `tests/no_alloc.rs` stays a binary of its own: `allocation-counter` installs a counting global
//! allocator for the whole binary, and `area` (1 s for the whole Earth) and `earth_pairs` here time
//! the search, which the system allocator should serve.

mod analytic;
mod antimeridian;
mod area;
mod bad_input;
mod brute;
mod common;
mod earth_pairs;
mod ice;
mod passages;
mod regressions;
mod sea;
mod symmetry;
