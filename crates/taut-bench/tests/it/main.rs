//! The integration tests of `taut-bench`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! One module alone: `cargo test --release -p taut-bench --test it frit_smoke::`.

mod bench;
mod big;
mod frit_smoke;
mod sphere_smoke;
