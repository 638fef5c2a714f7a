//! Project automation: `cargo xtask <command>` (being written).
fn main() {}
