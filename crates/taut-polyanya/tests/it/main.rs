//! The integration tests of `taut-polyanya`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! `common` holds the helpers the modules share. One module alone: `cargo test --release -p
//! taut-polyanya --test it float_meshes::`.
//!
//! Proptest keeps the failure seeds of a module `x` in `tests/proptest-regressions/x.txt`: its
//! default persistence (`SourceParallel`) finds this `main.rs` above `x.rs` and puts the seeds in a
//! `proptest-regressions` directory beside `tests/it/`.
//!
//! `tests/no_alloc.rs` stays a binary of its own: `allocation-counter` installs a counting global
//! allocator for the whole binary, and `reference_data` here reports build and search times, which
//! the system allocator should serve.

mod common;
mod float_meshes;
mod reference_data;
mod reference_meshes;
mod threads;
mod vs_anya;
