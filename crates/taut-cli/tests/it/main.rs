//! The integration tests of `taut-cli`, in one test binary: one module per concern (each was a
//! binary of its own before), so the crate and its dependencies are linked once, not once per file.
//! `common` holds the helpers the modules share (running the built `taut` binary). One module
//! alone: `cargo test --release -p taut-cli --test it route::`.

mod agent;
mod bad_input;
mod cli;
mod common;
mod cpd;
mod hub;
mod mesh;
mod polyanya;
mod render;
mod route;
mod route_ports;
mod route_requests;
mod route_search;
mod world;
